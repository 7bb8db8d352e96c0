"""House rules as a first-class object: :class:`RuleSet`, its option enums and the presets.

Every option of the rules (specification §7) is one keyword
field. A :class:`RuleSet` is frozen, hashable and validated when it is built:
an impossible combination raises :class:`~gongzhu.RuleSetError` naming the
options. Each field carries its documentation and sources in its metadata, so
:meth:`RuleSet.describe`, the CLI and the docs are generated from one place.

>>> rules = RuleSet()                      # the classic club rules (seeds/000)
>>> rules.players, rules.loss_threshold
(4, -1000)
>>> online = RuleSet.preset("online")
>>> sorted(rules.diff(online))[:3]
['direction', 'max_deals', 'must_lead_opening_card']
>>> RuleSet(players=5, opening_card="2C")
Traceback (most recent call last):
...
gongzhu.errors.RuleSetError: players, opening_card: the opening card 2♣ is not in the 5-player deck
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from gongzhu.rules._json import format_value as format_value
from gongzhu.rules._options import (
    FACE_VALUE_HEARTS,
    STANDARD_HEARTS,
    Direction,
    ExposureKind,
    ExposureOrder,
    ExposureRestriction,
    GrandSlam,
    GrandSlamOutcome,
    LaterLeader,
    OptionInfo,
    PigWithAllHearts,
    RuleSetOptions,
    SimultaneousLoss,
    TiedWinners,
)
from gongzhu.rules._options import (
    STANDARD_HEARTS_BY_RANK as STANDARD_HEARTS_BY_RANK,
)
from gongzhu.rules._presets import PRESET_INFO as _PRESET_INFO
from gongzhu.rules._presets import PRESETS as _PRESETS
from gongzhu.rules._presets import PresetInfo
from gongzhu.rules._ruleset import OPTION_NAMES as OPTION_NAMES
from gongzhu.rules._ruleset import RuleSet

__all__ = [
    "FACE_VALUE_HEARTS",
    "PRESETS",
    "PRESET_INFO",
    "STANDARD_HEARTS",
    "Direction",
    "ExposureKind",
    "ExposureOrder",
    "ExposureRestriction",
    "GrandSlam",
    "GrandSlamOutcome",
    "LaterLeader",
    "OptionInfo",
    "PigWithAllHearts",
    "PresetInfo",
    "RuleSet",
    "RuleSetOptions",
    "SimultaneousLoss",
    "TiedWinners",
]

for _name in __all__:  # the classes are documented and shown at the public path
    _public = globals().get(_name)
    if isinstance(_public, type):
        _public.__module__ = __name__

PRESETS: Final[Mapping[str, RuleSet]] = _PRESETS
"""Named rule sets, one per whole rule set of the seeds. See the docs' *Variants* page.

What each one is — its one-line summary, its sources and its description — is
:data:`PRESET_INFO` (``gongzhu rules`` lists the summaries).

>>> sorted(PRESETS)[:3]
['catch-the-pig', 'classic', 'czech-variant']

seeds/004's base rules (the 2♠ holder opens, later the pig taker, the exposure
restriction including the lead) are exactly ``classic``: ``RuleSet.preset("czech")``
is accepted as another name for it, and ``czech-variant`` and ``catch-the-pig`` are
built on it.

The mapping is read-only; each value is a frozen :class:`RuleSet`.

:meta hide-value:
"""

PRESET_INFO: Final[Mapping[str, PresetInfo]] = _PRESET_INFO
"""What each preset is, by name (the keys of :data:`PRESETS`, in the same order): a
:class:`PresetInfo` with its rule set, one-line summary, sources and description.

>>> PRESET_INFO["online"].summary
'seeds/001 online rules: 2♣ must open, sign swap, ends at ±1000 or 30 deals'
>>> [info.name for info in PRESET_INFO.values() if info.sources == "seeds/004"]
['czech-variant', 'catch-the-pig']

:meta hide-value:
"""
