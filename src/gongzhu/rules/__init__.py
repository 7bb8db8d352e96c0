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

import enum
from collections.abc import Iterable, Mapping
from functools import cached_property
from types import MappingProxyType
from typing import Any, Final

import attrs

from gongzhu._base.frozen import guard_setstate, refuse_reinit
from gongzhu._core.config import (
    PIG_GRAND_SLAM_ONLY,
    PIG_POSITIVE,
    PIG_UNCHANGED,
    RESTRICT_DEAL,
    RESTRICT_NONE,
    RESTRICT_SUIT,
)
from gongzhu.cards import (
    ACE_OF_HEARTS,
    DECK,
    PIG,
    SHEEP,
    TRANSFORMER,
    Card,
    CardSet,
    Rank,
    Suit,
    parse_cards,
)
from gongzhu.errors import CardParseError, RuleSetError, _brief
from gongzhu.rules._tables import POINT_CARDS, Tables

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
    "PigWithAllHearts",
    "RuleSet",
    "SimultaneousLoss",
    "TiedWinners",
]


class Direction(enum.Enum):
    """Which way play goes round the table. It names seats; seat numbers always follow play.

    >>> RuleSet.preset("online").direction
    <Direction.CLOCKWISE: 'clockwise'>
    """

    COUNTER_CLOCKWISE = "counter-clockwise"
    CLOCKWISE = "clockwise"


class LaterLeader(enum.Enum):
    """Who leads the first trick of the second and later deals of a match.

    >>> RuleSet.preset("russian").later_leader
    <LaterLeader.OPENING_CARD: 'opening-card'>
    """

    PIG_TAKER = "pig-taker"
    """Whoever took Q♠ in the previous deal (000, 001, 004)."""
    OPENING_CARD = "opening-card"
    """The holder of the opening card, every deal (003)."""
    ROTATE = "rotate"
    """The seat after the dealer, every deal including the first: the leader moves one
    seat on each deal, as the dealer does (MrIfOffline ``OfflineInterface.prepare_new``)."""


class PigWithAllHearts(enum.Enum):
    """What the pig is worth to the player who also took all 13 hearts.

    >>> from gongzhu import score
    >>> pile = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH QS"
    >>> [score(pile, rules=RuleSet(pig_with_all_hearts=p)).totals for p in PigWithAllHearts]
    [(300,), (100,), (100,)]
    """

    POSITIVE = "positive"
    """+100 (000 §05, 002 case 4, 003)."""
    GRAND_SLAM_ONLY = "grand-slam-only"
    """+100 only when the player made a grand slam (002 glossary, several programs)."""
    UNCHANGED = "unchanged"
    """Stays −100 (001 with the sign swap off, other programs)."""


class GrandSlam(enum.Enum):
    """Which cards make a grand slam (满贯).

    >>> RuleSet(grand_slam="15").grand_slam
    <GrandSlam.FIFTEEN: '15'>
    """

    SIXTEEN = "16"
    """All hearts, Q♠, J♦ and 10♣ (004, 002 v8)."""
    FIFTEEN = "15"
    """All hearts, Q♠ and J♦ (003 v2/v3)."""


class GrandSlamOutcome(enum.Enum):
    """What a grand slam does.

    >>> from gongzhu import score
    >>> slam = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH QS JD"   # seeds/003 v3: +1000
    >>> score(slam, rules=RuleSet(grand_slam="15", grand_slam_outcome="fixed")).totals
    (1000,)
    """

    LINES = "lines"
    """Scored by the ordinary lines (with the sign swap: every line positive)."""
    FIXED = "fixed"
    """The slam taker's deal total is ``grand_slam_value`` (003 v3, 004 bundle)."""
    INSTANT_WIN = "instant-win"
    """The deal is scored by the lines and the slam taker wins the match at once (002 v8)."""
    ROTATE = "rotate"
    """Scored by the lines, then the running totals rotate one seat (003 v2)."""


class ExposureKind(enum.Enum):
    """How exposed cards are shown and what they multiply by.

    >>> from gongzhu import score
    >>> score("QS", exposed="QS", rules=RuleSet.preset("catch-the-pig")).totals  # face up ×4
    (-400,)
    """

    OPEN = "open"
    """Face up, factor 2 (000 §06, 001, 002, 003, 004)."""
    FACE_DOWN_UP = "face-down-up"
    """"Chyťte prase" (004): face down ×2 (declared, hidden until played), face up ×4."""


class ExposureRestriction(enum.Enum):
    """When an exposed card may not be played.

    >>> RuleSet().exposure_restriction
    <ExposureRestriction.FIRST_TRICK_OF_SUIT: 'first-trick-of-suit'>
    """

    FIRST_TRICK_OF_SUIT = "first-trick-of-suit"
    """Not to the first trick led in its suit while the holder has another card of it,
    leading included; singletons and discards free (000 §06, 001, 004)."""
    NONE = "none"
    """No restriction."""
    FIRST_TRICK_OF_DEAL = "first-trick-of-deal"
    """No exposed card at all in the deal's first trick (002, read literally)."""


class ExposureOrder(enum.Enum):
    """How players decide on exposures.

    >>> RuleSet(exposure_order="in-turn").exposure_order
    <ExposureOrder.IN_TURN: 'in-turn'>
    """

    SIMULTANEOUS = "simultaneous"
    """All decide at once; the choices are shown together (001)."""
    IN_TURN = "in-turn"
    """One seat at a time, starting from the leader (Chinese rule pages)."""


class TiedWinners(enum.Enum):
    """What happens when a match would end with two or more seats tied for the top.

    >>> RuleSet.preset("slam-pig").tied_winners
    <TiedWinners.PLAY_ON: 'play-on'>
    """

    SHARE = "share"
    """The tied seats share the win; the match ends (000 §08)."""
    PLAY_ON = "play-on"
    """Whole deals are played on until one seat (team) alone has the highest total
    (duanap/gongzhu ``RULES.md`` 胜负)."""


class SimultaneousLoss(enum.Enum):
    """Who loses when several players cross the loss threshold after the same deal.

    >>> RuleSet.preset("encyclopedia").simultaneous_loss
    <SimultaneousLoss.ALL_CROSSED: 'all-crossed'>
    """

    LOWEST = "lowest"
    """The lowest total loses; equal lowest totals share the loss (000 §08)."""
    ALL_CROSSED = "all-crossed"
    """Everyone who crossed loses (002)."""


STANDARD_HEARTS: Final[tuple[int, ...]] = (
    0,
    0,
    0,
    -10,
    -10,
    -10,
    -10,
    -10,
    -10,
    -20,
    -30,
    -40,
    -50,
)
"""Heart values for 2♥ … A♥ (000 §04): 2–4 are 0, 5–10 are −10, J −20, Q −30, K −40, A −50."""

FACE_VALUE_HEARTS: Final[tuple[int, ...]] = (
    -2,
    -3,
    -10,
    -5,
    -6,
    -7,
    -8,
    -9,
    -10,
    -20,
    -30,
    -40,
    -50,
)
"""Face-value hearts (003 v1, 004 bundle): minus the pip value, but 4♥ is −10; total −200."""

_EXPOSABLE_CARDS: Final = CardSet((ACE_OF_HEARTS, PIG, SHEEP, TRANSFORMER))
# pig_with_all_hearts as the scoring kernel's ints (gongzhu._core.scoring).
_RESTRICTIONS: Final = {
    ExposureRestriction.NONE: RESTRICT_NONE,
    ExposureRestriction.FIRST_TRICK_OF_SUIT: RESTRICT_SUIT,
    ExposureRestriction.FIRST_TRICK_OF_DEAL: RESTRICT_DEAL,
}
_PIG_RULES: Final = {
    PigWithAllHearts.POSITIVE: PIG_POSITIVE,
    PigWithAllHearts.GRAND_SLAM_ONLY: PIG_GRAND_SLAM_ONLY,
    PigWithAllHearts.UNCHANGED: PIG_UNCHANGED,
}


# -- converters (the boundary: text and JSON values become typed values) ------


def _enum_converter(kind: type[enum.Enum]) -> Any:
    def convert(value: Any) -> Any:
        if isinstance(value, kind):
            return value
        if isinstance(value, str):
            for member in kind:
                if value in (member.value, member.name, member.name.lower()):
                    return member
        return value  # the validator names the bad value

    convert.__name__ = f"to_{kind.__name__}"
    return convert


def _to_card(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return Card.parse(value)
        except CardParseError:
            return value
    return value


def _to_cardset(value: Any) -> Any:
    if isinstance(value, CardSet):
        return value
    if isinstance(value, (str, Iterable)):
        try:
            return parse_cards(value)
        except CardParseError:
            return value
    return value


def _to_heart_values(value: Any) -> Any:
    if isinstance(value, str):
        named = {"standard": STANDARD_HEARTS, "face-value": FACE_VALUE_HEARTS}
        return named.get(value, value)
    if isinstance(value, Mapping):
        try:
            table = dict(STANDARD_HEARTS_BY_RANK)
            for key, points in value.items():
                rank = key if isinstance(key, Rank) else Card.parse(f"{key}H").rank
                table[rank] = points
            return tuple(table[rank] for rank in Rank)
        except (ValueError, TypeError):  # CardParseError; a key past the str() digit limit
            return value
    if isinstance(value, (list, tuple)):
        return tuple(value)
    return value


STANDARD_HEARTS_BY_RANK: Final = dict(zip(Rank, STANDARD_HEARTS, strict=True))


# -- validators ---------------------------------------------------------------


# Option ints stay JSON-safe (to_dict's promise), which also keeps every message
# and description cheap: a 5000-digit int cannot even be str()-ed by default.
_INT_LIMIT: Final = 2**53 - 1


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= _INT_LIMIT


def _check_type(inst: RuleSet, attribute: attrs.Attribute[Any], value: Any) -> None:
    expected = attribute.metadata["type"]
    optional = attribute.metadata.get("optional", False)
    if value is None and optional:
        return
    ok = _is_int(value) if expected is int else isinstance(value, expected)
    if not ok:
        name = getattr(expected, "__name__", str(expected))
        if expected is int and isinstance(value, int) and not isinstance(value, bool):
            name = "int of at most 2**53 - 1 in size"
        raise RuleSetError(
            f"{attribute.name}: expected {name}{' or None' if optional else ''},"
            f" got {_brief(value)}",
            [attribute.name],
        )


def _option(
    default: Any,
    type_: type,
    doc: str,
    sources: str,
    *,
    optional: bool = False,
    converter: Any = None,
) -> Any:
    return attrs.field(
        default=default,
        converter=converter,
        validator=_check_type,
        metadata={"type": type_, "doc": doc, "sources": sources, "optional": optional},
        kw_only=True,
    )


def _enum_option(default: enum.Enum, doc: str, sources: str) -> Any:
    kind = type(default)
    return _option(default, kind, doc, sources, converter=_enum_converter(kind))


@attrs.frozen(kw_only=True, init=False)
class RuleSet:
    """One complete set of house rules. The defaults are the classic club rules of seeds/000.

    Build one with keywords (text is accepted where a card, a card set or an
    enum is expected), start from a preset with :meth:`preset`, and change
    options with :meth:`replace`:

    >>> r = RuleSet.preset("classic").replace(sign_swap=True, exposable="QS TC")
    >>> r.sign_swap, str(r.exposable)
    (True, '10♣ Q♠')
    >>> RuleSet(loss_threshold=500)
    Traceback (most recent call last):
    ...
    gongzhu.errors.RuleSetError: loss_threshold: must be negative, got 500
    """

    # -- table -----------------------------------------------------------------
    players: int = _option(
        4,
        int,
        "Number of players: 4 (13 cards each); 5 (2♣ and 2♦ removed, 10 each); "
        "3 (2♣ removed, 17 each; an extension).",
        "003, 004 (5 players)",
    )
    partnerships: bool = _option(
        False,
        bool,
        "Two teams of two, partners opposite (seats 0+2 and 1+3): a team scores the sum "
        "of its players' deal scores and the thresholds apply to team totals "
        "(the library's reading, as on pagat).",
        "003, 004",
    )
    direction: Direction = _enum_option(
        Direction.COUNTER_CLOCKWISE,
        "Direction of play. It names the seats and orders the dealer rotation and the "
        "grand-slam rotation; seat numbers always follow play order.",
        "000, 002 (counter-clockwise); 001, 003 (clockwise)",
    )
    # -- leading ---------------------------------------------------------------
    opening_card: Card = _option(
        Card(Suit.SPADES, Rank.TWO),
        Card,
        "Its holder leads the first trick of the first deal.",
        "000, 003, 004 (2♠); 001, 002 (2♣); a family rule (7♠)",
        converter=_to_card,
    )
    must_lead_opening_card: bool = _option(
        False,
        bool,
        "The opening card itself must be the first card led.",
        "001 (yes); 000, 003, 004 (no)",
    )
    later_leader: LaterLeader = _enum_option(
        LaterLeader.PIG_TAKER,
        "Who leads the first trick of later deals: the previous pig taker; the opening-card "
        "holder; or, with 'rotate', the seat after the dealer in every deal, the first "
        "included (Match.next_leader gives it; the opening card then plays no part).",
        "000, 001, 004 (pig taker); 003 (opening-card holder every deal); "
        "MrIfOffline OfflineInterface.py prepare_new (rotate)",
    )
    hearts_must_be_broken: bool = _option(
        False,
        bool,
        "Hearts may not be led until a heart has been played, unless the leader holds only hearts.",
        "not in the seeds (some web pages); 000 §03 and 001 say there is no such rule",
    )
    # -- card values -----------------------------------------------------------
    heart_values: tuple[int, ...] = _option(
        STANDARD_HEARTS,
        tuple,
        "Values of 2♥ … A♥ (13 ints, or 'standard' / 'face-value', or a mapping rank → "
        "value over the standard table).",
        "000 §04 (standard); 003 v1, 004 bundle (face value)",
        converter=_to_heart_values,
    )
    pig_value: int = _option(
        -100,
        int,
        "The pig's (Q♠) value, negative. Exposure multiplies it; where a rule turns the "
        "pig positive (all hearts, the sign swap, a grand slam) it counts the opposite.",
        "000 §04, 001–004 (−100); a family rule (−200)",
    )
    sheep_value: int = _option(
        100,
        int,
        "The sheep's (J♦) value, positive. Exposure multiplies it (see exposed_sheep_value); "
        "where a rule turns the sheep negative it counts the opposite.",
        "000 §04, 001–004 (+100)",
    )
    transformer_bonus: int = _option(
        50,
        int,
        "The lone transformer's bonus: the deal total of a player who took 10♣ and no other "
        "point card (0 or more; exposure multiplies it).",
        "000 §04, 001, 003, 004 (+50)",
    )
    zero_hearts_are_point_cards: bool = _option(
        True,
        bool,
        "Whether hearts worth 0 (2–4♥) count as point cards for the lone-10♣ bonus "
        "(10♣ + 3♥ = 0) or not (10♣ + 3♥ = +50).",
        "000 §04, 003, 004 (yes); 001 (no)",
    )
    all_hearts_value: int | None = _option(
        200,
        int,
        "The hearts line of a player who took all 13 hearts (small slam, 全红), "
        "before exposure doubling; None: no small-slam effect at all.",
        "000 §05 (+200); 001 house rules (+400)",
        optional=True,
    )
    pig_with_all_hearts: PigWithAllHearts = _enum_option(
        PigWithAllHearts.POSITIVE,
        "The pig's sign for the player who also took all hearts. No effect while sign_swap "
        "is on (the swap turns the pig for everybody): so 001's one switch, sign_swap, "
        "moves between its two readings (swap on; swap off with the pig unchanged).",
        "000 §05, 002 case 4, 003 (positive); 002 glossary (grand slam only); "
        "001 with the swap off (unchanged)",
    )
    sign_swap: bool = _option(
        False,
        bool,
        "猪羊变色: when a player takes all 13 hearts, the pig counts +100 and the sheep "
        "−100 for whoever took them (exposed sheep −200); in a grand slam every line of "
        "the slam taker is positive and the transformer multiplies. While it is on, "
        "pig_with_all_hearts has no effect.",
        "001 (on by default there), 002; warned against in 000 §05",
    )
    pig_sheep_together: bool = _option(
        False,
        bool,
        "猪羊满圈 (Zhu Yang Man Juan): the all-hearts taker's hearts and pig turn "
        "positive only if they also took J♦; otherwise all their lines stay negative.",
        "004",
    )
    pig_sheep_zero_sum: bool = _option(
        False,
        bool,
        "When the all-hearts taker also took the pig and it counts +100 for them, the "
        "sheep counts −100 for whoever took it (so pig + sheep is 0; if "
        "pig_with_all_hearts keeps that pig at −100, the sheep stays +100).",
        "004 bundle",
    )
    grand_slam: GrandSlam = _enum_option(
        GrandSlam.SIXTEEN,
        "The cards of a grand slam (满贯): all 16 point cards, or 15 without 10♣.",
        "004, 002 v8 (16); 003 v2/v3 (15)",
    )
    grand_slam_outcome: GrandSlamOutcome = _enum_option(
        GrandSlamOutcome.LINES,
        "What a grand slam does: scored by the lines; a fixed deal total; an instant "
        "match win; or the running totals rotate one seat.",
        "001 (lines); 003 v3, 004 bundle (fixed +1000); 002 v8 (instant win); 003 v2 (rotate)",
    )
    grand_slam_value: int = _option(
        1000,
        int,
        "The slam taker's deal total when grand_slam_outcome is 'fixed'.",
        "003 v3, 004 bundle",
    )
    queen_of_diamonds_bonus: int = _option(
        0,
        int,
        "Points the taker of Q♦ gets for each trick they win after that trick; 0 is off "
        "(the library's reading of 002 v7: +10, added after the transformer).",
        "002 v7",
    )
    # -- exposure --------------------------------------------------------------
    exposable: CardSet = _option(
        _EXPOSABLE_CARDS,
        CardSet,
        "Cards that may be exposed (亮牌) before the first lead; empty: no exposure.",
        "000 §06, 001, 002, 003, 004 (all four); 001 house rules (Q♠ 10♣); "
        "003 v4, 004 bundle (none)",
        converter=_to_cardset,
    )
    exposure_kind: ExposureKind = _enum_option(
        ExposureKind.OPEN,
        "Open ×2; or face-down ×2 / face-up ×4 (the factor multiplies the card's effect: "
        "face-up pig −400, face-up 10♣ ×8 or +200 alone).",
        "004 (Chyťte prase)",
    )
    blind_exposure: bool = _option(
        False,
        bool,
        "A player may expose the first card dealt to them before looking at the rest; "
        "its effect doubles again (pig −400, 10♣ ×8).",
        "004",
    )
    exposed_sheep_value: int | None = _option(
        None,
        int,
        "The exposed sheep's value at the ×2 exposure factor (scaled for other factors); "
        "None: twice sheep_value, like every other exposed card.",
        "000 §06 (+200); 004 variants (−200 or −400)",
        optional=True,
    )
    exposure_restriction: ExposureRestriction = _enum_option(
        ExposureRestriction.FIRST_TRICK_OF_SUIT,
        "When exposed cards are held back.",
        "000 §06, 001, 004 (first trick of its suit); 002 literal (first trick of the deal)",
    )
    hearts_locked_by_exposed_ace: bool = _option(
        False,
        bool,
        "'Blood lock': while A♥ is exposed, hearts may not be led until a heart has been "
        "played, unless the leader holds only hearts.",
        "an online program",
    )
    three_exposed_force_fourth: bool = _option(
        False,
        bool,
        "When three exposable cards are exposed, the holder of the fourth must expose it "
        "(the library applies this when the first card is played).",
        "Chinese app rules",
    )
    exposure_order: ExposureOrder = _enum_option(
        ExposureOrder.SIMULTANEOUS,
        "Exposures decided all at once, or one seat at a time from the leader.",
        "001 (simultaneous); Chinese rule pages (in turn)",
    )
    # -- deal end --------------------------------------------------------------
    end_when_points_out: bool = _option(
        False,
        bool,
        "The deal ends as soon as every point card has been captured.",
        "Chinese app rules",
    )
    claims: bool = _option(
        False,
        bool,
        "摊牌/全大: the player to act may show their hand and claim the remaining tricks; "
        "if every other player accepts, the claimer takes them, else play continues.",
        "002 glossary",
    )
    # -- match -----------------------------------------------------------------
    loss_threshold: int | None = _option(
        -1000,
        int,
        "A running total at (or below) this loses the match; None: no loss threshold.",
        "000 §08, 002, 003, 004 (−1000); 001 quick (−500)",
        optional=True,
    )
    loss_inclusive: bool = _option(
        True,
        bool,
        "Whether reaching the loss threshold exactly loses (≤) or only going past it (<).",
        "all seeds (≤); 002's wording 'go past' (<)",
    )
    win_threshold: int | None = _option(
        None,
        int,
        "A running total at (or above) this ends the match (highest first, lowest is the "
        "pig); None: no win threshold.",
        "001 (+1000; quick +500)",
        optional=True,
    )
    win_inclusive: bool = _option(
        True,
        bool,
        "Whether reaching the win threshold exactly ends the match (≥) or only going past "
        "it (>); the mirror of loss_inclusive.",
        "001 ('reaches' +1000: ≥); the library's mirror of 002's 'go past' (>)",
    )
    max_deals: int | None = _option(
        None,
        int,
        "The match ends after this many deals (a cap, or a fixed number of deals when "
        "there are no thresholds); None: no cap.",
        "001 (30); 001 house rules, a family rule (fixed deals)",
        optional=True,
    )
    simultaneous_loss: SimultaneousLoss = _enum_option(
        SimultaneousLoss.LOWEST,
        "Who loses when several cross the loss threshold after the same deal.",
        "000 §08 (lowest, ties share); 002 (all who crossed)",
    )
    tied_winners: TiedWinners = _enum_option(
        TiedWinners.SHARE,
        "When the match would end with two or more seats (teams) tied for the highest "
        "total: they share the win, or whole deals are played on (past the thresholds "
        "and max_deals) until the highest total is unique.",
        "000 §08 (share); duanap/gongzhu RULES.md 胜负 (play on)",
    )
    exact_threshold_flips: bool = _option(
        False,
        bool,
        "A running total of exactly the loss threshold flips to its opposite (−1000 → "
        "+1000) and the match ends; the flipped player does not lose.",
        "004 bundle",
    )

    def __init__(self, **options: Any) -> None:
        # A hand-written __init__ so that an unknown option is a RuleSetError
        # (not attrs' TypeError) and text values type-check for users.
        refuse_reinit(self, "players", RuleSetError)
        unknown = sorted(set(options) - _OPTION_NAMES)
        if unknown:
            raise RuleSetError(f"unknown option(s): {', '.join(unknown)}", unknown)
        self.__attrs_init__(**options)

    def __attrs_post_init__(self) -> None:
        _validate(self)

    # -- derived facts ---------------------------------------------------------

    @cached_property
    def deck(self) -> CardSet:
        """The cards in play: 52, or without 2♣ and 2♦ for 5 players, without 2♣ for 3."""
        return CardSet.from_mask(DECK.mask & ~_REMOVED[self.players])

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player."""
        return 52 // self.players if self.players != 5 else 10

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The teams as tuples of seats: one per player, or ``((0, 2), (1, 3))`` with pairs."""
        if self.partnerships:
            return ((0, 2), (1, 3))
        return tuple((seat,) for seat in range(self.players))

    @property
    def effective_exposed_sheep_value(self) -> int:
        """The exposed sheep at the ×2 factor: ``exposed_sheep_value``, or twice ``sheep_value``.

        >>> RuleSet(sheep_value=150).effective_exposed_sheep_value
        300
        """
        value = self.exposed_sheep_value
        return 2 * self.sheep_value if value is None else value

    @cached_property
    def _tables(self) -> Tables:
        # The engine core's one Config of this rule set (rules of play, scoring, policies).
        face_down_up = self.exposure_kind is ExposureKind.FACE_DOWN_UP
        return Tables(
            n=self.players,
            hand_size=self.hand_size,
            deck=self.deck.mask,
            exposable=self.exposable.mask,
            restriction=_RESTRICTIONS[self.exposure_restriction],
            hearts_rule=self.hearts_must_be_broken,
            blood_lock=self.hearts_locked_by_exposed_ace,
            end_when_points_out=self.end_when_points_out,
            point_cards=POINT_CARDS & self.deck.mask,
            claims=self.claims,
            in_turn=self.exposure_order is ExposureOrder.IN_TURN,
            face_down=face_down_up,
            blind=self.blind_exposure,
            face_up_factor=4 if face_down_up else 2,
            force_fourth=self.three_exposed_force_fourth,
            opening_card=self.opening_card.mask,
            must_lead_opening=self.must_lead_opening_card,
            owner=self,
            heart_values=tuple(self.heart_values),
            zero_hearts_are_point_cards=self.zero_hearts_are_point_cards,
            grand_slam_has_transformer=self.grand_slam is GrandSlam.SIXTEEN,
            all_hearts_value=self.all_hearts_value,
            pig_sheep_together=self.pig_sheep_together,
            sign_swap=self.sign_swap,
            pig_rule=_PIG_RULES[self.pig_with_all_hearts],
            zero_sum=self.pig_sheep_zero_sum,
            pig_value=self.pig_value,
            sheep_value=self.sheep_value,
            exposed_sheep_value=self.effective_exposed_sheep_value,
            transformer_bonus=self.transformer_bonus,
            fixed_slam=self.grand_slam_outcome is GrandSlamOutcome.FIXED,
            grand_slam_value=self.grand_slam_value,
            queen_bonus=self.queen_of_diamonds_bonus,
            teams=self.teams,
        )

    # -- presets, changes, description -------------------------------------------

    @staticmethod
    def preset(name: str) -> RuleSet:
        """The named preset (see :data:`PRESETS`), e.g. ``"online"``.

        ``"czech"`` is accepted as another name of ``"classic"``: seeds/004's
        base rules are exactly seeds/000's (see :data:`PRESETS`).

        >>> RuleSet.preset("czech-variant").heart_values == FACE_VALUE_HEARTS
        True
        >>> RuleSet.preset("czech") is RuleSet.preset("classic")
        True
        """
        try:
            return PRESETS[_PRESET_ALIASES.get(name, name)]
        except (KeyError, TypeError):
            known = ", ".join(PRESETS)
            raise RuleSetError(
                f"unknown preset {_brief(name)}; known: {known}", ["preset"]
            ) from None

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some options changed (validated like a new rule set)."""
        unknown = sorted(set(changes) - _OPTION_NAMES)
        if unknown:
            raise RuleSetError(f"unknown option(s): {', '.join(unknown)}", unknown)
        current = {name: getattr(self, name) for name in OPTION_NAMES}
        return RuleSet(**(current | changes))

    def diff(self, other: RuleSet) -> dict[str, tuple[Any, Any]]:
        """The options that differ: name → (this value, other value).

        >>> RuleSet().diff(RuleSet(players=5))
        {'players': (4, 5)}
        """
        if not isinstance(other, RuleSet):
            raise RuleSetError(f"diff needs a RuleSet, got {type(other).__name__}", ["other"])
        return {
            name: (getattr(self, name), getattr(other, name))
            for name in OPTION_NAMES
            if getattr(self, name) != getattr(other, name)
        }

    def describe(self) -> str:
        """A readable summary: its name, then one line per option.

        The name is a preset's only when every option equals it; otherwise the
        rule set is described as ``classic`` (the default) with changes, which
        are marked ``*``. An option that has no effect under the other options
        says so.

        >>> print(RuleSet.preset("czech-variant").describe().splitlines()[0])
        Rule set czech-variant
        >>> print(RuleSet(players=5).describe().splitlines()[0])
        Rule set: classic with 1 change(s)
        >>> [line for line in RuleSet.preset("online").describe().splitlines()
        ...  if "pig_with_all_hearts" in line]
        ['  pig_with_all_hearts          unchanged * (no effect: sign_swap is on)']
        """
        name = self.preset_name()
        changes = PRESETS[_BASE_PRESET].diff(self)
        head = (
            f"Rule set {name}"
            if name
            else f"Rule set: {_BASE_PRESET} with {len(changes)} change(s)"
        )
        lines = [head]
        for option in OPTION_NAMES:
            value = format_value(getattr(self, option))
            if option == "exposed_sheep_value" and self.exposed_sheep_value is None:
                value = f"{self.effective_exposed_sheep_value} (twice sheep_value)"
            mark = " *" if option in changes else ""
            note = self._no_effect(option)
            lines.append(f"  {option:28} {value}{mark}{f' (no effect: {note})' if note else ''}")
        return "\n".join(lines)

    def _no_effect(self, option: str) -> str | None:
        """Why a non-default option changes nothing under the others, if it does not."""
        if (
            option == "pig_with_all_hearts"
            and self.sign_swap
            and self.pig_with_all_hearts is not PigWithAllHearts.POSITIVE
        ):
            return "sign_swap is on"
        return None

    def preset_name(self) -> str | None:
        """The name of the preset equal to this rule set, if any.

        >>> RuleSet().preset_name(), RuleSet(players=5).preset_name()
        ('classic', None)
        """
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        return None

    def closest_preset(self) -> tuple[str, dict[str, tuple[Any, Any]]]:
        """The preset this differs least from, and the differences (preset value, this value).

        For the shortest description (records use it); the rule set's *name*
        is :meth:`preset_name` or ``classic + …`` (:meth:`__str__`).
        """
        best = min(PRESETS, key=lambda n: len(PRESETS[n].diff(self)))
        return best, PRESETS[best].diff(self)

    def nearest_name(self) -> str:
        """A short name: the nearest preset and the options changed from it, as text reads back.

        Each change is written as ``gongzhu --rule KEY=VALUE`` takes it (``yes``/``no``,
        ``none`` for no cards), so a player can retype what is shown.

        >>> RuleSet.preset("online").replace(sign_swap=False).nearest_name()
        'online + sign_swap=no'
        >>> RuleSet.preset("online").nearest_name(), RuleSet(exposable=()).nearest_name()
        ('online', 'classic + exposable=none')
        """
        best, changes = self.closest_preset()
        if not changes:
            return best
        return f"{best} + " + ", ".join(
            f"{k}={_typed_value(v[1])}" for k, v in sorted(changes.items())
        )

    def to_dict(self, *, only_changes_from: RuleSet | None = None) -> dict[str, Any]:
        """A JSON-safe dict of the options (only those that differ from a base, if given).

        >>> RuleSet(players=5).to_dict(only_changes_from=RuleSet())
        {'players': 5}
        """
        if only_changes_from is not None and not isinstance(only_changes_from, RuleSet):
            raise RuleSetError(
                f"only_changes_from must be a RuleSet, got {type(only_changes_from).__name__}",
                ["only_changes_from"],
            )
        out: dict[str, Any] = {}
        for option in OPTION_NAMES:
            value = getattr(self, option)
            if only_changes_from is not None and getattr(only_changes_from, option) == value:
                continue
            out[option] = _json_value(value)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, base: RuleSet | None = None) -> RuleSet:
        """Build from :meth:`to_dict` output (unknown keys are refused), over ``base``.

        >>> RuleSet.from_dict({"players": 5, "direction": "clockwise"}).direction
        <Direction.CLOCKWISE: 'clockwise'>
        """
        if not isinstance(data, Mapping):
            raise RuleSetError(f"rules must be a mapping, got {type(data).__name__}")
        if len(data) > len(OPTION_NAMES):
            raise RuleSetError(
                f"rules has {len(data)} keys; there are only {len(OPTION_NAMES)} options"
            )
        bad = [k for k in data if not isinstance(k, str)]
        if bad:
            raise RuleSetError(f"option names must be text, got {_brief(bad[0])}")
        if base is not None and not isinstance(base, RuleSet):
            raise RuleSetError(f"base must be a RuleSet, got {type(base).__name__}", ["base"])
        for name, value in data.items():
            _check_json_option(name, value)
        return (base or cls()).replace(**dict(data))

    def __str__(self) -> str:
        """The preset's name on an exact match, else ``classic + `` the changes.

        >>> str(RuleSet.preset("online")), str(RuleSet(players=5, claims=True))
        ('online', 'classic + claims=True, players=5')
        """
        name = self.preset_name()
        if name:
            return name
        changes = PRESETS[_BASE_PRESET].diff(self)
        return f"{_BASE_PRESET} + " + ", ".join(
            f"{k}={format_value(v[1])}" for k, v in sorted(changes.items())
        )

    def __repr__(self) -> str:
        """An expression that rebuilds this rule set: a preset, with its changes if any.

        >>> RuleSet.preset("online")
        RuleSet.preset('online')
        >>> RuleSet.preset("russian").replace(players=5)
        RuleSet.preset('russian').replace(players=5)
        >>> RuleSet(opening_card="7S", heart_values="face-value")
        RuleSet(heart_values='face-value', opening_card='7S')
        """
        name = self.preset_name()
        if name:
            return f"RuleSet.preset({name!r})"
        candidates = [f"RuleSet({_kwargs(PRESETS[_BASE_PRESET].diff(self))})"]
        best, changes = self.closest_preset()
        if best != _BASE_PRESET:
            candidates.append(f"RuleSet.preset({best!r}).replace({_kwargs(changes)})")
        return min(candidates, key=len)


def _kwargs(changes: Mapping[str, tuple[Any, Any]]) -> str:
    return ", ".join(f"{k}={_code_value(v[1])!r}" for k, v in sorted(changes.items()))


def _code_value(value: Any) -> Any:
    """The value as the keyword a reader would write (text where the converters take text)."""
    if value == STANDARD_HEARTS:
        return "standard"
    if value == FACE_VALUE_HEARTS:
        return "face-value"
    return _json_value(value) if not isinstance(value, tuple) else value


guard_setstate(RuleSet, "players", RuleSetError)

OPTION_NAMES: Final[tuple[str, ...]] = tuple(a.name for a in attrs.fields(RuleSet))
"""The names of every :class:`RuleSet` option, in documentation order."""
_OPTION_NAMES: Final = frozenset(OPTION_NAMES)

_REMOVED: Final = {
    4: 0,
    5: Card(Suit.CLUBS, Rank.TWO).mask | Card(Suit.DIAMONDS, Rank.TWO).mask,
    3: Card(Suit.CLUBS, Rank.TWO).mask,
}


def _validate(r: RuleSet) -> None:
    """Refuse values out of range and the combinations that can never work.

    Only true impossibilities are refused (RULES.md §7, §9.6): restrictions
    of play that merely collide in some position (hearts not broken, an
    exposed card held back, a blood lock) give way at play time in the order
    of §9.6 and are not refused here. The refused combinations:

    * pairs without exactly 4 players (partners sit opposite);
    * an opening card not in the deck (2♣ with 3 or 5 players): nobody holds it;
    * an exposable card other than A♥ Q♠ J♦ 10♣, or exposure kinds, blind
      exposure or a forced fourth exposure with nothing exposable;
    * a forced fourth exposure with fewer than four exposable cards (the
      fourth could never be forced);
    * a blood lock without A♥ exposable (it could never lock);
    * the sign swap, 猪羊满圈 or the zero sum without a small-slam effect
      (they act only on the all-hearts taker);
    * a leader who must lead the opening card under ``later_leader="rotate"``
      (the rotating leader need not hold it);
    * an exact flip without a loss threshold.
    """

    def fail(message: str, *options: str) -> None:
        raise RuleSetError(f"{', '.join(options)}: {message}", options)

    if r.players not in (3, 4, 5):
        fail(f"must be 3, 4 or 5, got {r.players}", "players")
    if r.partnerships and r.players != 4:
        fail("pairs need exactly 4 players", "players", "partnerships")
    if r.opening_card.mask & _REMOVED[r.players]:
        fail(
            f"the opening card {r.opening_card} is not in the {r.players}-player deck",
            "players",
            "opening_card",
        )
    if len(r.heart_values) != 13 or not all(_is_int(v) for v in r.heart_values):
        fail("needs 13 integer values (at most 2**53 - 1 in size), for 2♥ … A♥", "heart_values")
    if r.exposable.mask & ~_EXPOSABLE_CARDS.mask:
        extra = CardSet.from_mask(r.exposable.mask & ~_EXPOSABLE_CARDS.mask)
        fail(f"only A♥, Q♠, J♦ and 10♣ can be exposed, not {extra}", "exposable")
    if not r.exposable:
        for option, default in (
            ("exposure_kind", ExposureKind.OPEN),
            ("blind_exposure", False),
            ("three_exposed_force_fourth", False),
        ):
            if getattr(r, option) != default:
                fail("needs exposure (exposable is empty)", option, "exposable")
    if r.hearts_locked_by_exposed_ace and ACE_OF_HEARTS not in r.exposable:
        fail("needs A♥ to be exposable", "hearts_locked_by_exposed_ace", "exposable")
    if r.three_exposed_force_fourth and len(r.exposable) != 4:
        fail("needs all four cards exposable", "three_exposed_force_fourth", "exposable")
    if r.all_hearts_value is None:
        for option in ("sign_swap", "pig_sheep_together", "pig_sheep_zero_sum"):
            if getattr(r, option):
                fail(
                    "needs a small-slam effect (all_hearts_value is None)",
                    option,
                    "all_hearts_value",
                )
    if r.pig_value >= 0:
        fail(f"must be negative (the pig is a penalty), got {r.pig_value}", "pig_value")
    if r.sheep_value <= 0:
        fail(f"must be positive (the sheep is a reward), got {r.sheep_value}", "sheep_value")
    if r.transformer_bonus < 0:
        fail(f"must be 0 or positive, got {r.transformer_bonus}", "transformer_bonus")
    if r.must_lead_opening_card and r.later_leader is LaterLeader.ROTATE:
        fail(
            "the rotating leader need not hold the opening card, so it cannot be made to lead it",
            "must_lead_opening_card",
            "later_leader",
        )
    if r.queen_of_diamonds_bonus < 0:
        fail(
            f"must be 0 (off) or positive, got {r.queen_of_diamonds_bonus}",
            "queen_of_diamonds_bonus",
        )
    if r.loss_threshold is not None and r.loss_threshold >= 0:
        fail(f"must be negative, got {r.loss_threshold}", "loss_threshold")
    if r.win_threshold is not None and r.win_threshold <= 0:
        fail(f"must be positive, got {r.win_threshold}", "win_threshold")
    if r.max_deals is not None and r.max_deals < 1:
        fail(f"must be at least 1, got {r.max_deals}", "max_deals")
    if r.exact_threshold_flips and r.loss_threshold is None:
        fail("needs a loss threshold", "exact_threshold_flips", "loss_threshold")


def format_value(value: Any) -> str:
    """An option's value as :meth:`RuleSet.describe` words it (``gongzhu rules`` too)."""
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, (Card, CardSet)):
        return str(value) or "none"
    if value == STANDARD_HEARTS:
        return "standard"
    if value == FACE_VALUE_HEARTS:
        return "face-value"
    return str(value)


def _typed_value(value: Any) -> str:
    """An option's value as typed on the command line (``yes``/``no``; a list comma separated)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple) and value not in (STANDARD_HEARTS, FACE_VALUE_HEARTS):
        return ",".join(str(v) for v in value)
    if value is None:
        return "none"
    return format_value(value)


def _json_value(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (Card, CardSet)):
        return value.code
    if isinstance(value, tuple):
        return list(value)
    return value


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


_BASE_PRESET: Final = "classic"
_PRESET_ALIASES: Final = {"czech": "classic"}


def _check_json_option(name: str, value: Any) -> None:
    """An option's value in the JSON form the ``rules`` schema publishes (#22 items 11, 19):
    ``"qs"`` or ``"10♣"`` for a card, a list for ``exposable``, ``true`` for a count
    are refused here, though :meth:`RuleSet.replace` reads them."""
    field = _FIELDS_BY_NAME.get(name)
    if field is None:
        return  # replace() names the unknown option
    kind = field.metadata.get("type")
    if value is None and field.metadata.get("optional"):
        return
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        ok = isinstance(value, (str, kind))
    elif kind is bool:
        ok = isinstance(value, bool)
    elif kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif kind is tuple:
        ok = isinstance(value, (list, tuple)) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        )
    elif kind is Card:
        ok = isinstance(value, Card) or (isinstance(value, str) and value in _CARD_CODES)
    elif kind is CardSet:
        ok = isinstance(value, (str, CardSet))
    else:
        ok = True
    if not ok:
        raise RuleSetError(f"{name}: {_brief(value)} is not a value of the rules schema", [name])


_FIELDS_BY_NAME: Final = {f.name: f for f in attrs.fields(RuleSet)}
_CARD_CODES: Final = frozenset(Card.from_index(i).code for i in range(52))


PRESETS: Final[Mapping[str, RuleSet]] = MappingProxyType(_presets())
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
