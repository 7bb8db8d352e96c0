"""One rule set's facts as plain ints, bools and tables: the engine core's :class:`Config`. Private.

The rules of play, the scoring kernel and the policies all read this one
object; :func:`gongzhu.rules._compile.compile_config` builds it once per
:class:`~gongzhu.RuleSet`, which caches it (``RuleSet.engine``). It takes
plain values, so the core imports nothing public; ``owner`` is the rule set,
carried opaquely so a state can name its rules.
"""

from __future__ import annotations

from typing import Final

from gongzhu._core.bits import BIT, HEARTS, PIG_BIT, SHEEP_BIT, TEN_BIT, heart_sum_table

# -- the exposure restriction (specification §7), as Config.restriction ---------------------------

RESTRICT_NONE: Final = 0
RESTRICT_SUIT: Final = 1  # not to the first trick led in its suit while another is held
RESTRICT_DEAL: Final = 2  # no exposed card at all in the deal's first trick (002, literal)

# pig_with_all_hearts, as Config.pig_rule.
PIG_POSITIVE: Final = 0
PIG_GRAND_SLAM_ONLY: Final = 1
PIG_UNCHANGED: Final = 2

_HEART_SUMS: dict[tuple[int, ...], tuple[int, ...]] = {}


def heart_sums(values: tuple[int, ...]) -> tuple[int, ...]:
    """The hearts total of every 13-bit pattern for ``values`` (shared between configs)."""
    table = _HEART_SUMS.get(values)
    if table is None:
        if len(_HEART_SUMS) > 16:
            _HEART_SUMS.clear()
        table = heart_sum_table(values)
        _HEART_SUMS[values] = table
    return table


def _nonzero_hearts(heart_values: tuple[int, ...]) -> int:
    """The hearts worth something under ``heart_values`` (13 values, 2♥ first)."""
    nonzero = 0
    for i in range(13):
        if heart_values[i]:
            nonzero |= BIT[26 + i]
    return nonzero


def _lone_blockers(zero_hearts_are_point_cards: bool, nonzero_hearts: int) -> int:
    """The cards that stop a captured 10♣ from scoring the lone bonus."""
    return (HEARTS if zero_hearts_are_point_cards else nonzero_hearts) | PIG_BIT | SHEEP_BIT


def _slam_mask(grand_slam_has_transformer: bool) -> int:
    """The cards a grand slam takes."""
    slam = HEARTS | PIG_BIT | SHEEP_BIT
    if grand_slam_has_transformer:
        slam |= TEN_BIT
    return slam


def _team_of(n: int, teams: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """Each seat's team number."""
    team_of = [0] * n
    for k in range(len(teams)):
        for seat in teams[k]:
            team_of[seat] = k
    return tuple(team_of)


class Config:
    """Per-rule-set facts read on every move, every score and every policy decision.

    The rules of play (``n`` … ``must_lead_opening``), the scoring kernel's
    parameters (``heart_sums`` … ``queen_bonus``) and the teams.
    """

    __slots__ = (
        "all_hearts_value",
        "all_seats",
        "blind",
        "blood_lock",
        "claims",
        "deck",
        "end_when_points_out",
        "exposable",
        "exposed_sheep_value",
        "face_down",
        "face_up_factor",
        "fixed_slam",
        "force_fourth",
        "grand_slam_has_transformer",
        "grand_slam_value",
        "hand_size",
        "has_all_hearts_value",
        "heart_sums",
        "heart_values",
        "hearts_rule",
        "in_turn",
        "lone_blockers",
        "must_lead_opening",
        "n",
        "nonzero_hearts",
        "nteams",
        "opening_card",
        "owner",
        "pig_rule",
        "pig_sheep_together",
        "pig_value",
        "point_cards",
        "queen_bonus",
        "restriction",
        "sheep_value",
        "sign_swap",
        "slam_mask",
        "team_of",
        "teams",
        "transformer_bonus",
        "zero_hearts_are_point_cards",
        "zero_sum",
    )

    def __init__(
        self,
        *,
        n: int,
        hand_size: int,
        deck: int,
        exposable: int,
        restriction: int,
        hearts_rule: bool,
        blood_lock: bool,
        end_when_points_out: bool,
        point_cards: int,
        claims: bool,
        in_turn: bool,
        face_down: bool,
        blind: bool,
        face_up_factor: int,
        force_fourth: bool,
        opening_card: int,
        must_lead_opening: bool,
        owner: object,
        heart_values: tuple[int, ...],
        zero_hearts_are_point_cards: bool,
        grand_slam_has_transformer: bool,
        all_hearts_value: int | None,
        pig_sheep_together: bool,
        sign_swap: bool,
        pig_rule: int,
        zero_sum: bool,
        pig_value: int,
        sheep_value: int,
        exposed_sheep_value: int,
        transformer_bonus: int,
        fixed_slam: bool,
        grand_slam_value: int,
        queen_bonus: int,
        teams: tuple[tuple[int, ...], ...],
    ) -> None:
        self.n = n
        self.hand_size = hand_size
        self.deck = deck
        self.exposable = exposable
        self.restriction = restriction
        self.hearts_rule = hearts_rule
        self.blood_lock = blood_lock
        self.end_when_points_out = end_when_points_out
        self.point_cards = point_cards
        self.claims = claims
        self.in_turn = in_turn
        self.face_down = face_down
        self.blind = blind
        self.face_up_factor = face_up_factor
        self.force_fourth = force_fourth
        self.opening_card = opening_card
        self.must_lead_opening = must_lead_opening
        self.owner = owner
        self.all_seats: int = BIT[n] - 1
        self.heart_values = heart_values
        self.heart_sums: tuple[int, ...] = heart_sums(heart_values)
        self.nonzero_hearts: int = _nonzero_hearts(heart_values)
        self.lone_blockers: int = _lone_blockers(zero_hearts_are_point_cards, self.nonzero_hearts)
        self.slam_mask: int = _slam_mask(grand_slam_has_transformer)
        self.has_all_hearts_value: bool = all_hearts_value is not None
        self.all_hearts_value: int = all_hearts_value if all_hearts_value is not None else 0
        self.pig_sheep_together = pig_sheep_together
        self.sign_swap = sign_swap
        self.pig_rule = pig_rule
        self.zero_sum = zero_sum
        self.pig_value = pig_value
        self.sheep_value = sheep_value
        self.exposed_sheep_value = exposed_sheep_value
        self.transformer_bonus = transformer_bonus
        self.fixed_slam = fixed_slam
        self.grand_slam_value = grand_slam_value
        self.queen_bonus = queen_bonus
        self.zero_hearts_are_point_cards = zero_hearts_are_point_cards
        self.grand_slam_has_transformer = grand_slam_has_transformer
        self.teams = teams
        self.team_of: tuple[int, ...] = _team_of(n, teams)
        self.nteams: int = len(teams)

    def sheep_worth(self, fj: int) -> int:
        """The sheep's value to its taker under its exposure factor ``fj`` (1: not exposed):
        the exposed value scales with the factor (its face-up value at 2)."""
        return self.sheep_value if fj == 1 else self.exposed_sheep_value * fj // 2
