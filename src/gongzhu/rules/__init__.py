"""House rules as a first-class object: :class:`RuleSet`, its option enums and the presets.

Every option of the rules specification (``RULES.md`` §7) is one keyword
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
from gongzhu.rules.options import (
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
from gongzhu.rules.options import (
    STANDARD_HEARTS_BY_RANK as STANDARD_HEARTS_BY_RANK,
)
from gongzhu.rules.presets import PRESETS as _PRESETS
from gongzhu.rules.ruleset import OPTION_NAMES as OPTION_NAMES
from gongzhu.rules.ruleset import RuleSet

__all__ = [
    "FACE_VALUE_HEARTS",
    "PRESETS",
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

``classic``
    seeds/000: counter-clockwise; the 2♠ holder opens with any card; later
    the pig taker; all four cards exposable with the suit restriction;
    ≤ −1000 after a deal loses, lowest loses, ties share.
``online``
    seeds/001: clockwise; the 2♣ holder must open with 2♣; sign swap on;
    zero hearts are not point cards; ends at ±1000 or after 30 deals.
``online-quick``
    seeds/001's quick game: ``online`` with ±500.
``encyclopedia``
    seeds/002: the 2♣ holder opens; §3 scoring; all who cross −1000 lose.
``russian``
    seeds/003: clockwise; the 2♠ holder opens every deal. 5 players and
    pairs are ``players=5`` / ``partnerships=True``; its variants are
    ``heart_values="face-value"`` (v1), ``grand_slam="15"`` with
    ``grand_slam_outcome="rotate"`` (v2) or ``"fixed"`` (v3), and
    ``exposable=""`` (v4).
``czech-variant``
    seeds/004 "Další varianta": face-value hearts, pig–sheep zero sum, a
    16-card grand slam worth a fixed +1000, exactly −1000 flips to +1000,
    no exposure.
``catch-the-pig``
    seeds/004 "Chyťte prase": face-down ×2 / face-up ×4 exposure.
``slam-pig``
    The pig turns positive only in a grand slam (16 cards: all hearts and
    the pig alone stay −100), as programs score it: duanap/gongzhu
    ``RULES.md`` (满贯: +800, +3200 with all four exposed; the 2♣ holder must
    lead 2♣; later the pig taker; sealed simultaneous exposure; ≤ −1000
    ends the match; tied leaders play whole deals on until one leads
    alone) and sdawzy/gongzhu ``api/src/env.py`` ``calc_score``.
``flat-pig``
    The pig never turns: all hearts are +200 but the pig stays −100 even
    in a grand slam (all hearts + Q♠ + J♦ + 10♣ = 2 × (200 − 100 + 100) =
    400); no exposure; the leader moves one seat on each deal. From
    MrIfOffline (``Util.py`` ``calc_score``, ``OfflineInterface.py``
    ``prepare_new``).
``taiwan``
    豬羊變色 as the Taiwanese rule page describes it
    (archive.esut.tp.edu.tw/~drpig/life/Pig_card.htm, 【拱豬計分方式】): the
    7♠ holder opens with any card, counter-clockwise; face-value hearts
    (4♥ −10); when one player takes all hearts the pig counts +100 and the
    sheep −100 for whoever took them (all hearts +200, with the pig +300,
    with the sheep +100, with both +200); all 16 point cards a fixed +1000;
    no exposure.

seeds/004's base rules (the 2♠ holder opens, later the pig taker, the
exposure restriction including the lead) are exactly ``classic``:
``RuleSet.preset("czech")`` is accepted as another name for it, and
``czech-variant`` and ``catch-the-pig`` are built on it.

The mapping is read-only; each value is a frozen :class:`RuleSet`.

:meta hide-value:
"""
