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
from typing import TYPE_CHECKING, Any, Final

import attrs

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

if TYPE_CHECKING:
    from gongzhu._tables import Tables

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
        "Who leads the first trick of later deals.",
        "000, 001, 004 (pig taker); 003 (opening-card holder every deal)",
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
        "The pig's sign for the player who also took all hearts.",
        "000 §05, 002 case 4, 003 (positive); 002 glossary (grand slam only); "
        "001 with the swap off (unchanged)",
    )
    sign_swap: bool = _option(
        False,
        bool,
        "猪羊变色: when a player takes all 13 hearts, the pig counts +100 and the sheep "
        "−100 for whoever took them (exposed sheep −200); in a grand slam every line of "
        "the slam taker is positive and the transformer multiplies.",
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
    exposed_sheep_value: int = _option(
        200,
        int,
        "The exposed sheep's value (×2 exposure factor; scaled for other factors).",
        "000 §06 (+200); 004 variants (−200 or −400)",
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
        "A running total at or above this ends the match (highest first, lowest is the "
        "pig); None: no win threshold.",
        "001 (+1000; quick +500)",
        optional=True,
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

    @cached_property
    def _tables(self) -> Tables:
        from gongzhu._tables import Tables

        return Tables(self)

    # -- presets, changes, description -------------------------------------------

    @staticmethod
    def preset(name: str) -> RuleSet:
        """The named preset (see :data:`PRESETS`), e.g. ``"online"``.

        >>> RuleSet.preset("czech-variant").heart_values == FACE_VALUE_HEARTS
        True
        """
        try:
            return PRESETS[name]
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
        return {
            name: (getattr(self, name), getattr(other, name))
            for name in OPTION_NAMES
            if getattr(self, name) != getattr(other, name)
        }

    def describe(self) -> str:
        """A readable summary: one line per option, with the preset this differs from.

        >>> print(RuleSet.preset("czech-variant").describe().splitlines()[0])
        Rule set czech-variant
        """
        name = self.preset_name()
        base_name, changes = self.closest_preset()
        head = (
            f"Rule set {name}" if name else f"Rule set: {base_name} with {len(changes)} change(s)"
        )
        lines = [head]
        for option in OPTION_NAMES:
            value = _format_value(getattr(self, option))
            mark = " *" if option in changes else ""
            lines.append(f"  {option:28} {value}{mark}")
        return "\n".join(lines)

    def preset_name(self) -> str | None:
        """The name of the preset equal to this rule set, if any."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        return None

    def closest_preset(self) -> tuple[str, dict[str, tuple[Any, Any]]]:
        """The preset this differs least from, and the differences (preset value, this value)."""
        best = min(PRESETS, key=lambda n: len(PRESETS[n].diff(self)))
        return best, PRESETS[best].diff(self)

    def to_dict(self, *, only_changes_from: RuleSet | None = None) -> dict[str, Any]:
        """A JSON-safe dict of the options (only those that differ from a base, if given).

        >>> RuleSet(players=5).to_dict(only_changes_from=RuleSet())
        {'players': 5}
        """
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
        bad = [k for k in data if not isinstance(k, str)]
        if bad:
            raise RuleSetError(f"option names must be text, got {_brief(bad[0])}")
        if base is not None and not isinstance(base, RuleSet):
            raise RuleSetError(f"base must be a RuleSet, got {type(base).__name__}", ["base"])
        return (base or cls()).replace(**dict(data))

    def __str__(self) -> str:
        name = self.preset_name()
        if name:
            return name
        base, changes = self.closest_preset()
        return f"{base} + " + ", ".join(
            f"{k}={_format_value(v[1])}" for k, v in sorted(changes.items())
        )


OPTION_NAMES: Final[tuple[str, ...]] = tuple(a.name for a in attrs.fields(RuleSet))
"""The names of every :class:`RuleSet` option, in documentation order."""
_OPTION_NAMES: Final = frozenset(OPTION_NAMES)

_REMOVED: Final = {
    4: 0,
    5: Card(Suit.CLUBS, Rank.TWO).mask | Card(Suit.DIAMONDS, Rank.TWO).mask,
    3: Card(Suit.CLUBS, Rank.TWO).mask,
}


def _validate(r: RuleSet) -> None:
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


def _format_value(value: Any) -> str:
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, (Card, CardSet)):
        return str(value) or "none"
    if value == STANDARD_HEARTS:
        return "standard"
    if value == FACE_VALUE_HEARTS:
        return "face-value"
    return str(value)


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
    czech = RuleSet()
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
        "czech": czech,
        "czech-variant": czech.replace(
            heart_values=FACE_VALUE_HEARTS,
            pig_sheep_zero_sum=True,
            grand_slam=GrandSlam.SIXTEEN,
            grand_slam_outcome=GrandSlamOutcome.FIXED,
            grand_slam_value=1000,
            exact_threshold_flips=True,
            exposable=CardSet(),
        ),
        "catch-the-pig": czech.replace(exposure_kind=ExposureKind.FACE_DOWN_UP),
    }


PRESETS: Final[Mapping[str, RuleSet]] = _presets()
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
``czech``
    seeds/004: the 2♠ holder opens, later the pig taker; the exposure
    restriction includes the lead. Its variants: ``blind_exposure=True``,
    ``exposed_sheep_value=-200`` (or −400), ``pig_sheep_together=True``.
``czech-variant``
    seeds/004 "Další varianta": face-value hearts, pig–sheep zero sum, a
    16-card grand slam worth a fixed +1000, exactly −1000 flips to +1000,
    no exposure.
``catch-the-pig``
    seeds/004 "Chyťte prase": face-down ×2 / face-up ×4 exposure.
"""
