"""A rule set compiled to the engine core's :class:`~gongzhu._core.config.Config`. Private.

:attr:`RuleSet.engine` calls :func:`compile_config` once per rule set and caches
the result: the rules of play, the scoring kernel and the policies read that one
object (``Round``'s states carry it).
"""

from __future__ import annotations

from typing import Any

from gongzhu._core.bits import POINT_CARDS
from gongzhu._core.config import Config
from gongzhu.rules._options import (
    _PIG_RULES,
    _RESTRICTIONS,
    ExposureKind,
    ExposureOrder,
    GrandSlam,
    GrandSlamOutcome,
)


def compile_config(rules: Any) -> Config:
    """The core's integer facts of ``rules`` (a :class:`~gongzhu.RuleSet`).

    Typed ``Any``: :mod:`gongzhu.rules._ruleset` calls this, so this module cannot
    import the class back (no import circles).
    """
    face_down_up = rules.exposure_kind is ExposureKind.FACE_DOWN_UP
    return Config(
        n=rules.players,
        hand_size=rules.hand_size,
        deck=rules.deck.mask,
        exposable=rules.exposable.mask,
        restriction=_RESTRICTIONS[rules.exposure_restriction],
        hearts_rule=rules.hearts_must_be_broken,
        blood_lock=rules.hearts_locked_by_exposed_ace,
        end_when_points_out=rules.end_when_points_out,
        point_cards=POINT_CARDS & rules.deck.mask,
        claims=rules.claims,
        in_turn=rules.exposure_order is ExposureOrder.IN_TURN,
        face_down=face_down_up,
        blind=rules.blind_exposure,
        face_up_factor=rules.face_up_factor,
        force_fourth=rules.three_exposed_force_fourth,
        opening_card=rules.opening_card.mask,
        must_lead_opening=rules.must_lead_opening_card,
        owner=rules,
        heart_values=tuple(rules.heart_values),
        zero_hearts_are_point_cards=rules.zero_hearts_are_point_cards,
        grand_slam_has_transformer=rules.grand_slam is GrandSlam.SIXTEEN,
        all_hearts_value=rules.all_hearts_value,
        pig_sheep_together=rules.pig_sheep_together,
        sign_swap=rules.sign_swap,
        pig_rule=_PIG_RULES[rules.pig_with_all_hearts],
        zero_sum=rules.pig_sheep_zero_sum,
        pig_value=rules.pig_value,
        sheep_value=rules.sheep_value,
        exposed_sheep_value=rules.effective_exposed_sheep_value,
        transformer_bonus=rules.transformer_bonus,
        fixed_slam=rules.grand_slam_outcome is GrandSlamOutcome.FIXED,
        grand_slam_value=rules.grand_slam_value,
        queen_bonus=rules.queen_of_diamonds_bonus,
        teams=rules.teams,
    )
