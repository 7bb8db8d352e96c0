"""The :class:`RuleSet` class: one keyword field per option, validated and frozen.

Part of :mod:`gongzhu.rules` (import it from there).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, cast

import attrs

from gongzhu._base.frozen import guard_setstate, refuse_reinit
from gongzhu._base.text import brief
from gongzhu._core.config import Config
from gongzhu.cards import DECK, Card, CardSet, Rank, Suit
from gongzhu.errors import RuleSetError
from gongzhu.rules._compile import compile_config
from gongzhu.rules._json import (
    _check_json_options,
    _describe,
    _json_value,
    _kwargs,
    _typed_value,
)
from gongzhu.rules._options import (
    _EXPOSABLE_CARDS,
    _REMOVED,
    STANDARD_HEARTS,
    Direction,
    ExposureKind,
    ExposureOrder,
    ExposureRestriction,
    GrandSlam,
    GrandSlamOutcome,
    LaterLeader,
    PigWithAllHearts,
    RuleSetOptions,
    SimultaneousLoss,
    TiedWinners,
    option_infos,
)
from gongzhu.rules._validate import (
    _enum_option,
    _option,
    _to_card,
    _to_cardset,
    _to_heart_values,
    _validate,
)

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:  # typing_extensions is not a run-time dependency (3.10 reads no annotations)
    from typing_extensions import Unpack

__all__ = ["OPTION_NAMES", "PRESETS", "RuleSet"]


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

    def __init__(self, **options: Unpack[RuleSetOptions]) -> None:
        # A hand-written __init__ so that an unknown option is a RuleSetError
        # (not attrs' TypeError) and text values type-check for users.
        refuse_reinit(self, "players", RuleSetError)
        unknown = sorted(set(options) - _OPTION_NAMES)
        if unknown:
            raise RuleSetError(f"unknown option(s): {', '.join(unknown)}", unknown)
        self.__attrs_init__(**cast("dict[str, Any]", options))

    def __attrs_post_init__(self) -> None:
        _validate(self)

    options = classmethod(option_infos)  # every option as an OptionInfo (the docs list them)

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
    def face_up_factor(self) -> int:
        """The factor of a card exposed face up: 4 under ``exposure_kind="face-down-up"``
        (where a face-down card counts ×2), else 2 (seeds/004 "Chyťte prase"; 000 §05).

        The one home of this rule: scoring, views and the core's ``Config`` read it.

        >>> RuleSet().face_up_factor, RuleSet.preset("catch-the-pig").face_up_factor
        (2, 4)
        """
        return 4 if self.exposure_kind is ExposureKind.FACE_DOWN_UP else 2

    @property
    def effective_exposed_sheep_value(self) -> int:
        """The exposed sheep at the ×2 factor: ``exposed_sheep_value``, or twice ``sheep_value``.

        >>> RuleSet(sheep_value=150).effective_exposed_sheep_value
        300
        """
        value = self.exposed_sheep_value
        return 2 * self.sheep_value if value is None else value

    @cached_property
    def engine(self) -> Config:
        """The engine's tables for this rule set, for bots and engines on integer states
        (:class:`~gongzhu.board.Board`, the bots, :mod:`gongzhu.vector`): the engine core's
        compiled ``Config``, every rule as plain ints and tuples, built once and cached.
        Its fields are the engine's layout, not a stable API (``rules.engine.deck``)."""
        return compile_config(self)

    # -- presets, changes, description -------------------------------------------

    @staticmethod
    def preset(name: str) -> RuleSet:
        """The named preset (see :data:`PRESETS`), e.g. ``"online"``.

        ``"czech"`` is accepted as another name of ``"classic"``: seeds/004's
        base rules are exactly seeds/000's (see :data:`PRESETS`).

        >>> from gongzhu import FACE_VALUE_HEARTS
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
                f"unknown preset {brief(name)}; known: {known}", ["preset"]
            ) from None

    def replace(self, **changes: Unpack[RuleSetOptions]) -> RuleSet:
        """A copy with some options changed (validated like a new rule set)."""
        unknown = sorted(set(changes) - _OPTION_NAMES)
        if unknown:
            raise RuleSetError(f"unknown option(s): {', '.join(unknown)}", unknown)
        current: dict[str, Any] = {name: getattr(self, name) for name in OPTION_NAMES}
        return RuleSet(**(current | cast("dict[str, Any]", changes)))

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
        """A readable summary: its name (:meth:`__str__`), then one line per option.

        The options changed from the named preset are marked ``*``. An option
        that has no effect under the other options says so.

        >>> print(RuleSet.preset("czech-variant").describe().splitlines()[0])
        Rule set czech-variant
        >>> print(RuleSet(players=5).describe().splitlines()[0])
        Rule set classic + players=5
        >>> [line for line in RuleSet.preset("online").describe().splitlines()
        ...  if "pig_with_all_hearts" in line]
        ['  pig_with_all_hearts          unchanged (no effect: sign_swap is on)']
        """
        _best, changes = self.closest_preset()
        return _describe(self, f"Rule set {self}", changes, OPTION_NAMES)

    def preset_name(self) -> str | None:
        """The name of the preset equal to this rule set, if any.

        >>> RuleSet().preset_name(), RuleSet(players=5).preset_name()
        ('classic', None)
        """
        return next((name for name, preset in PRESETS.items() if preset == self), None)

    def closest_preset(self) -> tuple[str, dict[str, tuple[Any, Any]]]:
        """The preset this differs least from (the first in :data:`PRESETS` order on a
        tie), and the differences as :meth:`diff` gives them: (this value, preset value).

        >>> RuleSet(players=5).closest_preset()
        ('classic', {'players': (5, 4)})
        """
        best = min(PRESETS, key=lambda n: len(self.diff(PRESETS[n])))
        return best, self.diff(PRESETS[best])

    def nearest_name(self) -> str:
        """The rule set's name in text (``str(rules)`` is the same): the nearest preset and
        the options changed from it, as text reads back.

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
            f"{k}={_typed_value(v[0])}" for k, v in sorted(changes.items())
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
        base = only_changes_from
        return {
            option: _json_value(getattr(self, option))
            for option in OPTION_NAMES
            if base is None or getattr(base, option) != getattr(self, option)
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, base: RuleSet | None = None) -> RuleSet:
        """Build from :meth:`to_dict` output (unknown keys are refused), over ``base``.

        >>> RuleSet.from_dict({"players": 5, "direction": "clockwise"}).direction
        <Direction.CLOCKWISE: 'clockwise'>
        """
        if base is not None and not isinstance(base, RuleSet):
            raise RuleSetError(f"base must be a RuleSet, got {type(base).__name__}", ["base"])
        _check_json_options(data, _FIELDS_BY_NAME)
        return (base or cls()).replace(**dict(data))

    def __str__(self) -> str:
        """The one way a rule set is named in text (:meth:`nearest_name`): a preset's name on
        an exact match, else the nearest preset ``+`` the changes, written as ``gongzhu
        --rule KEY=VALUE`` reads them back.

        >>> str(RuleSet.preset("online")), str(RuleSet(players=5, claims=True))
        ('online', 'classic + claims=yes, players=5')
        """
        return self.nearest_name()

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
        candidates = [f"RuleSet({_kwargs(self.diff(PRESETS[_BASE_PRESET]))})"]
        best, changes = self.closest_preset()
        if best != _BASE_PRESET:
            candidates.append(f"RuleSet.preset({best!r}).replace({_kwargs(changes)})")
        return min(candidates, key=len)


guard_setstate(RuleSet, "players", RuleSetError)

OPTION_NAMES: Final[tuple[str, ...]] = tuple(a.name for a in attrs.fields(RuleSet))
"""The names of every :class:`RuleSet` option, in documentation order."""
_OPTION_NAMES: Final = frozenset(OPTION_NAMES)
_FIELDS_BY_NAME: Final = {f.name: f for f in attrs.fields(RuleSet)}


# The presets (filled by gongzhu.rules._presets, which builds them from this class).
_PRESETS: Final[dict[str, RuleSet]] = {}
PRESETS: Final[Mapping[str, RuleSet]] = MappingProxyType(_PRESETS)
_BASE_PRESET: Final = "classic"
_PRESET_ALIASES: Final = {"czech": "classic"}

# The doctests run here (the package sets __module__ to its public path, which doctest skips).
__test__ = {"RuleSet": RuleSet}
