"""The engine core's view of a rule set, and its reason codes as :class:`~gongzhu.Reason`. Private.

:mod:`gongzhu._core` imports nothing public: this module turns a
:class:`~gongzhu.RuleSet` into the core's small typed
:class:`~gongzhu._core.state.Config` (ints and bools, built once per rule set)
and maps the core's int reason codes back to the public enum.
"""

from __future__ import annotations

from typing import Final

from gongzhu._core import play as _p
from gongzhu._core.state import RESTRICT_DEAL, RESTRICT_NONE, RESTRICT_SUIT, Config
from gongzhu.errors import Reason
from gongzhu.rules import ExposureKind, ExposureOrder, ExposureRestriction, RuleSet
from gongzhu.rules._tables import POINT_CARDS

# Core reason codes → Reason (the core's codes follow the enum's order, from 1).
_REASONS: Final = {i + 1: r for i, r in enumerate(Reason)}
_REASONS[_p.FACE_DOWN_OFF] = _REASONS[_p.BLIND_OFF] = Reason.NOT_EXPOSABLE
_REASONS[_p.EXPOSURE_CLOSED] = Reason.WRONG_PHASE
_DETAILS: Final = {
    _p.FACE_DOWN_OFF: "face-down exposure is not played",
    _p.BLIND_OFF: "blind exposure is not played",
    _p.EXPOSURE_CLOSED: "exposure ends when the first card is played",
}
_RESTRICTIONS: Final = {
    ExposureRestriction.NONE: RESTRICT_NONE,
    ExposureRestriction.FIRST_TRICK_OF_SUIT: RESTRICT_SUIT,
    ExposureRestriction.FIRST_TRICK_OF_DEAL: RESTRICT_DEAL,
}


def _build_config(rules: RuleSet) -> Config:
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
        face_down=rules.exposure_kind is ExposureKind.FACE_DOWN_UP,
        blind=rules.blind_exposure,
        face_up_factor=4 if rules.exposure_kind is ExposureKind.FACE_DOWN_UP else 2,
        force_fourth=rules.three_exposed_force_fourth,
        opening_card=rules.opening_card.mask,
        must_lead_opening=rules.must_lead_opening_card,
        owner=rules,
        score=rules._tables.score,
    )


_CONFIGS: dict[int, tuple[RuleSet, Config]] = {}


def _config(rules: RuleSet) -> Config:
    # Keyed by id with the rule set kept alive, so no RuleSet hash is computed per deal.
    hit = _CONFIGS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    cfg = _build_config(rules)
    if len(_CONFIGS) > 256:
        _CONFIGS.clear()
    _CONFIGS[id(rules)] = (rules, cfg)
    return cfg
