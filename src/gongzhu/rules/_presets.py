"""The named rule sets, one per whole rule set of the seeds (:data:`gongzhu.rules.PRESETS`),
and what each one is (:data:`gongzhu.rules.PRESET_INFO`: summary, sources, description).

Part of :mod:`gongzhu.rules`: importing it fills the registry that
:meth:`RuleSet.preset` reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

import attrs

from gongzhu.cards import Card, CardSet, Rank, Suit
from gongzhu.rules._options import (
    FACE_VALUE_HEARTS,
    Direction,
    ExposureKind,
    GrandSlam,
    GrandSlamOutcome,
    LaterLeader,
    PigWithAllHearts,
    SimultaneousLoss,
    TiedWinners,
)
from gongzhu.rules._ruleset import _PRESETS, PRESETS, RuleSet

__all__ = ["PRESETS", "PRESET_INFO", "PresetInfo"]


def _presets() -> dict[str, RuleSet]:
    classic = RuleSet()
    online = RuleSet(
        direction=Direction.CLOCKWISE,
        opening_card=Card(Suit.CLUBS, Rank.TWO),
        must_lead_opening_card=True,
        pig_with_all_hearts=PigWithAllHearts.UNCHANGED,
        sign_swap=True,
        zero_hearts_are_point_cards=False,
        loss_threshold=-1000,
        win_threshold=1000,
        max_deals=30,
    )
    return {
        "classic": classic,
        "online": online,
        "online-quick": online.replace(loss_threshold=-500, win_threshold=500),
        "encyclopedia": RuleSet(
            opening_card=Card(Suit.CLUBS, Rank.TWO),
            simultaneous_loss=SimultaneousLoss.ALL_CROSSED,
        ),
        "russian": RuleSet(
            direction=Direction.CLOCKWISE,
            later_leader=LaterLeader.OPENING_CARD,
        ),
        "czech-variant": classic.replace(
            heart_values=FACE_VALUE_HEARTS,
            pig_sheep_zero_sum=True,
            grand_slam=GrandSlam.SIXTEEN,
            grand_slam_outcome=GrandSlamOutcome.FIXED,
            grand_slam_value=1000,
            exact_threshold_flips=True,
            exposable=CardSet(),
        ),
        "catch-the-pig": classic.replace(exposure_kind=ExposureKind.FACE_DOWN_UP),
        "slam-pig": RuleSet(
            opening_card=Card(Suit.CLUBS, Rank.TWO),
            must_lead_opening_card=True,
            pig_with_all_hearts=PigWithAllHearts.GRAND_SLAM_ONLY,
            tied_winners=TiedWinners.PLAY_ON,
        ),
        "flat-pig": RuleSet(
            pig_with_all_hearts=PigWithAllHearts.UNCHANGED,
            exposable=CardSet(),
            later_leader=LaterLeader.ROTATE,
        ),
        "taiwan": RuleSet(
            opening_card=Card(Suit.SPADES, Rank.SEVEN),
            heart_values=FACE_VALUE_HEARTS,
            sign_swap=True,
            grand_slam_outcome=GrandSlamOutcome.FIXED,
            grand_slam_value=1000,
            exposable=CardSet(),
        ),
    }


_PRESETS.update(_presets())


def N_(message: str) -> str:
    """Mark a summary for the message catalogues (``tools/i18n.sh`` extracts ``N_`` calls);
    a program translates it where it shows it (``gongzhu rules`` does)."""
    return message


@attrs.frozen
class PresetInfo:
    """One preset as :data:`PRESET_INFO` lists it: its name, rule set and where it comes from.

    ``summary`` is one line (``gongzhu rules`` lists it, translated); ``sources`` names
    the sources as the rest of the library cites them (``seeds/000``, or a program's
    file); ``description`` is the long form (the docs' *Variants* page shows it).

    >>> from gongzhu.rules import PRESET_INFO
    >>> info = PRESET_INFO["russian"]
    >>> info.sources, info.rules.direction.value
    ('seeds/003', 'clockwise')
    """

    name: str
    rules: RuleSet
    summary: str
    sources: str
    description: str


# name: (summary, sources, description). The description is RST (the docs render it).
_ABOUT: Final[dict[str, tuple[str, str, str]]] = {
    "classic": (
        N_("seeds/000 club rules: 2♠ opens, pig taker leads later, lose at −1000 (also: czech)"),
        "seeds/000",
        "seeds/000: counter-clockwise; the 2♠ holder opens with any card; later the pig"
        " taker; all four cards exposable with the suit restriction; ≤ −1000 after a deal"
        " loses, lowest loses, ties share. seeds/004's base rules are the same:"
        ' ``RuleSet.preset("czech")`` is another name for it.',
    ),
    "online": (
        N_("seeds/001 online rules: 2♣ must open, sign swap, ends at ±1000 or 30 deals"),
        "seeds/001",
        "seeds/001: clockwise; the 2♣ holder must open with 2♣; sign swap on; zero hearts"
        " are not point cards; ends at ±1000 or after 30 deals.",
    ),
    "online-quick": (
        N_("seeds/001 quick game: the online rules ending at ±500"),
        "seeds/001",
        "seeds/001's quick game: ``online`` with ±500.",
    ),
    "encyclopedia": (
        N_("seeds/002: 2♣ opens; everyone who crosses −1000 loses"),
        "seeds/002",
        "seeds/002: the 2♣ holder opens; §3 scoring; all who cross −1000 lose.",
    ),
    "russian": (
        N_("seeds/003: clockwise, the 2♠ holder opens every deal"),
        "seeds/003",
        "seeds/003: clockwise; the 2♠ holder opens every deal. 5 players and pairs are"
        " ``players=5`` / ``partnerships=True``; its variants are"
        ' ``heart_values="face-value"`` (v1), ``grand_slam="15"`` with'
        ' ``grand_slam_outcome="rotate"`` (v2) or ``"fixed"`` (v3), and ``exposable=""`` (v4).',
    ),
    "czech-variant": (
        N_("seeds/004 variant: face-value hearts, fixed +1000 grand slam, no exposure"),
        "seeds/004",
        'seeds/004 "Další varianta" (built on ``classic``): face-value hearts, pig–sheep'
        " zero sum, a 16-card grand slam worth a fixed +1000, exactly −1000 flips to"
        " +1000, no exposure.",
    ),
    "catch-the-pig": (
        N_("seeds/004 'Chyťte prase': face-down ×2 / face-up ×4 exposure"),
        "seeds/004",
        'seeds/004 "Chyťte prase" (built on ``classic``): face-down ×2 / face-up ×4 exposure.',
    ),
    "slam-pig": (
        N_("programs: the pig turns positive only in a grand slam; tied leaders play on"),
        "duanap/gongzhu RULES.md; sdawzy/gongzhu api/src/env.py",
        "The pig turns positive only in a grand slam (16 cards: all hearts and the pig"
        " alone stay −100), as programs score it: duanap/gongzhu ``RULES.md`` (满贯: +800,"
        " +3200 with all four exposed; the 2♣ holder must lead 2♣; later the pig taker;"
        " sealed simultaneous exposure; ≤ −1000 ends the match; tied leaders play whole"
        " deals on until one leads alone) and sdawzy/gongzhu ``api/src/env.py``"
        " ``calc_score``.",
    ),
    "flat-pig": (
        N_("MrIfOffline: the pig never turns; no exposure; the leader rotates"),
        "MrIfOffline Util.py, OfflineInterface.py",
        "The pig never turns: all hearts are +200 but the pig stays −100 even in a grand"
        " slam (all hearts + Q♠ + J♦ + 10♣ = 2 × (200 − 100 + 100) = 400); no exposure;"
        " the leader moves one seat on each deal. From MrIfOffline (``Util.py``"
        " ``calc_score``, ``OfflineInterface.py`` ``prepare_new``).",
    ),
    "taiwan": (
        N_("Taiwan: 7♠ opens, face-value hearts, 豬羊變色, +1000 grand slam, no exposure"),
        "archive.esut.tp.edu.tw/~drpig/life/Pig_card.htm",
        "豬羊變色 as the Taiwanese rule page describes it"
        " (archive.esut.tp.edu.tw/~drpig/life/Pig_card.htm, 【拱豬計分方式】): the 7♠ holder"
        " opens with any card, counter-clockwise; face-value hearts (4♥ −10); when one"
        " player takes all hearts the pig counts +100 and the sheep −100 for whoever took"
        " them (all hearts +200, with the pig +300, with the sheep +100, with both +200);"
        " all 16 point cards a fixed +1000; no exposure.",
    ),
}

PRESET_INFO: Final[Mapping[str, PresetInfo]] = MappingProxyType(
    {
        name: PresetInfo(name, PRESETS[name], *_ABOUT[name])
        for name in PRESETS  # a preset without its entry fails at import
    }
)
