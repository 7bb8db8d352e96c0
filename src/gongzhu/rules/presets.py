"""The named rule sets, one per whole rule set of the seeds (:data:`gongzhu.rules.PRESETS`).

Part of :mod:`gongzhu.rules`: importing it fills the registry that
:meth:`RuleSet.preset` reads.
"""

from __future__ import annotations

from gongzhu.cards import Card, CardSet, Rank, Suit
from gongzhu.rules.options import (
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
from gongzhu.rules.ruleset import _PRESETS, PRESETS, RuleSet

__all__ = ["PRESETS"]


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
