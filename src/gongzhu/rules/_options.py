"""The rule options' value types: the option enums, the heart tables and the core's codes.

Part of :mod:`gongzhu.rules` (import the names from there): each enum is the
type of one :class:`~gongzhu.RuleSet` option.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, TypeAlias, TypedDict

import attrs

from gongzhu._core.config import (
    PIG_GRAND_SLAM_ONLY,
    PIG_POSITIVE,
    PIG_UNCHANGED,
    RESTRICT_DEAL,
    RESTRICT_NONE,
    RESTRICT_SUIT,
)
from gongzhu.cards import ACE_OF_HEARTS, PIG, SHEEP, TRANSFORMER, Card, CardSet, Rank, Suit

__all__ = [
    "FACE_VALUE_HEARTS",
    "STANDARD_HEARTS",
    "STANDARD_HEARTS_BY_RANK",
    "Direction",
    "ExposureKind",
    "ExposureOrder",
    "ExposureRestriction",
    "GrandSlam",
    "GrandSlamOutcome",
    "LaterLeader",
    "OptionInfo",
    "PigWithAllHearts",
    "RuleSetOptions",
    "SimultaneousLoss",
    "TiedWinners",
]


class Direction(enum.Enum):
    """Which way play goes round the table. It names seats; seat numbers always follow play.

    >>> from gongzhu import RuleSet
    >>> RuleSet.preset("online").direction
    <Direction.CLOCKWISE: 'clockwise'>
    """

    COUNTER_CLOCKWISE = "counter-clockwise"
    CLOCKWISE = "clockwise"


class LaterLeader(enum.Enum):
    """Who leads the first trick of the second and later deals of a match.

    >>> from gongzhu import RuleSet
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

    >>> from gongzhu import RuleSet, score
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

    >>> from gongzhu import RuleSet
    >>> RuleSet(grand_slam="15").grand_slam
    <GrandSlam.FIFTEEN: '15'>
    """

    SIXTEEN = "16"
    """All hearts, Q♠, J♦ and 10♣ (004, 002 v8)."""
    FIFTEEN = "15"
    """All hearts, Q♠ and J♦ (003 v2/v3)."""


class GrandSlamOutcome(enum.Enum):
    """What a grand slam does.

    >>> from gongzhu import RuleSet, score
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

    >>> from gongzhu import RuleSet, score
    >>> score("QS", exposed="QS", rules=RuleSet.preset("catch-the-pig")).totals  # face up ×4
    (-400,)
    """

    OPEN = "open"
    """Face up, factor 2 (000 §06, 001, 002, 003, 004)."""
    FACE_DOWN_UP = "face-down-up"
    """"Chyťte prase" (004): face down ×2 (declared, hidden until played), face up ×4."""


class ExposureRestriction(enum.Enum):
    """When an exposed card may not be played.

    >>> from gongzhu import RuleSet
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

    >>> from gongzhu import RuleSet
    >>> RuleSet(exposure_order="in-turn").exposure_order
    <ExposureOrder.IN_TURN: 'in-turn'>
    """

    SIMULTANEOUS = "simultaneous"
    """All decide at once; the choices are shown together (001)."""
    IN_TURN = "in-turn"
    """One seat at a time, starting from the leader (Chinese rule pages)."""


class TiedWinners(enum.Enum):
    """What happens when a match would end with two or more seats tied for the top.

    >>> from gongzhu import RuleSet
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

    >>> from gongzhu import RuleSet
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


STANDARD_HEARTS_BY_RANK: Final = dict(zip(Rank, STANDARD_HEARTS, strict=True))

# The cards each player count leaves out of the deck.
_REMOVED: Final = {
    4: 0,
    5: Card(Suit.CLUBS, Rank.TWO).mask | Card(Suit.DIAMONDS, Rank.TWO).mask,
    3: Card(Suit.CLUBS, Rank.TWO).mask,
}


class RuleSetOptions(TypedDict, total=False):
    """The keywords of :class:`~gongzhu.RuleSet` and :meth:`~gongzhu.RuleSet.replace`, typed:
    a type checker (mypy, an editor) catches a misspelt option or a value of the wrong type.

    Text is accepted where a card, a card set or an enum is expected, as at run
    time. The options are documented on the *Variants* page.
    """

    players: int
    partnerships: bool
    direction: Direction | str
    opening_card: Card | str
    must_lead_opening_card: bool
    later_leader: LaterLeader | str
    hearts_must_be_broken: bool
    heart_values: Sequence[int] | str | Mapping[Rank | str | int, int]
    pig_value: int
    sheep_value: int
    transformer_bonus: int
    zero_hearts_are_point_cards: bool
    all_hearts_value: int | None
    pig_with_all_hearts: PigWithAllHearts | str
    sign_swap: bool
    pig_sheep_together: bool
    pig_sheep_zero_sum: bool
    grand_slam: GrandSlam | str
    grand_slam_outcome: GrandSlamOutcome | str
    grand_slam_value: int
    queen_of_diamonds_bonus: int
    exposable: CardSet | str | Iterable[Card | str]
    exposure_kind: ExposureKind | str
    blind_exposure: bool
    exposed_sheep_value: int | None
    exposure_restriction: ExposureRestriction | str
    hearts_locked_by_exposed_ace: bool
    three_exposed_force_fourth: bool
    exposure_order: ExposureOrder | str
    end_when_points_out: bool
    claims: bool
    loss_threshold: int | None
    loss_inclusive: bool
    win_threshold: int | None
    win_inclusive: bool
    max_deals: int | None
    simultaneous_loss: SimultaneousLoss | str
    tied_winners: TiedWinners | str
    exact_threshold_flips: bool


OptionKind: TypeAlias = type
"""The type of an option's values: ``int``, ``bool``, an enum class … (:attr:`OptionInfo.kind`)."""


@attrs.frozen
class OptionInfo:
    """One :class:`~gongzhu.RuleSet` option as :meth:`RuleSet.options
    <gongzhu.RuleSet.options>` lists it, read from the option's own definition.

    ``kind`` is the value's type (an enum class for a choice); ``values`` the allowed
    values of an enum or a bool option (empty where any value of the type is checked
    by range); ``optional`` says ``None`` is allowed too; ``description`` and
    ``sources`` are the option's documentation and the seeds it comes from.
    """

    name: str
    kind: OptionKind
    default: Any
    values: tuple[Any, ...]
    optional: bool
    description: str
    sources: str


def option_infos(cls: type[Any]) -> tuple[OptionInfo, ...]:
    """Every option of the rule set class ``cls``, in documentation order: its name,
    type, default, allowed values and description (:meth:`RuleSet.options
    <gongzhu.RuleSet.options>`; the *Variants* page's option list is built from it).

    >>> from gongzhu import RuleSet
    >>> option = next(o for o in RuleSet.options() if o.name == "exposure_kind")
    >>> option.kind.__name__, option.default.value, [v.value for v in option.values]
    ('ExposureKind', 'open', ['open', 'face-down-up'])
    >>> [(o.name, o.default, o.values) for o in RuleSet.options()][:2]
    [('players', 4, ()), ('partnerships', False, (False, True))]
    """
    defaults = cls()
    out = []
    for field in attrs.fields(cls):
        meta = field.metadata
        kind = meta["type"]
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            values: tuple[Any, ...] = tuple(kind)
        else:
            values = (False, True) if kind is bool else ()
        default = getattr(defaults, field.name)
        doc, sources = meta["doc"], meta["sources"]
        out.append(OptionInfo(field.name, kind, default, values, meta["optional"], doc, sources))
    return tuple(out)
