"""Hypothesis strategies for testing code built on :mod:`gongzhu`.

This module needs `Hypothesis <https://hypothesis.readthedocs.io>`_, which is
not a runtime dependency of gongzhu: install the ``test`` extra
(``pip install ".[test]"`` from a checkout of gongzhu). Import it explicitly, it
is not re-exported from :mod:`gongzhu`::

    from gongzhu.testing import finished_rounds, rule_sets

Every strategy yields valid objects only: rule sets that :class:`~gongzhu.RuleSet`
accepts (over every option, presets included), hands and deals that
:meth:`~gongzhu.Round.from_hands` accepts, rounds reached by legal actions.

Every strategy that depends on the rules takes ``rules=``: a rule set, a preset's
name, a strategy of rule sets (such as :func:`rule_sets`), or None for its default.
The default follows what the values carry:

* values that carry their rules — a :class:`~gongzhu.Round` (:func:`deals`,
  :func:`finished_rounds`, :func:`rounds_in_progress`) or a :class:`ScoreInput`
  (:func:`score_inputs`) — are drawn under any rule set (:func:`rule_sets`);
* values that do not — a hand (:func:`hands`), capture piles (:func:`captures`),
  exposures (:func:`exposures`) — use the default rules, ``RuleSet()``, which is
  also :func:`gongzhu.score`'s default, so ``score(piles)`` is right for them.

To know which rules a drawn hand, pile or exposure was drawn under, draw them
together: :func:`score_inputs` gives the rules, the piles and the exposures of one
draw (or use Hypothesis's ``st.data()``: draw the rules, then the rest with
``rules=`` that rule set).

>>> from hypothesis import given, settings
>>> @settings(max_examples=5, database=None)
... @given(finished_rounds())
... def test_every_finished_round_scores(rnd):
...     assert len(rnd.score().totals) == rnd.players
>>> test_every_finished_round_scores()
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

try:
    from hypothesis import strategies as st
    from hypothesis.strategies import SearchStrategy
except ImportError as _exc:  # say how to get it rather than only "No module named ..."
    raise ImportError(
        "gongzhu.testing needs Hypothesis: install the test extra,"
        ' pip install ".[test]" from a checkout of gongzhu'
    ) from _exc

from gongzhu.cards import ACE_OF_HEARTS, DECK, PIG, SHEEP, TRANSFORMER, Card, CardSet
from gongzhu.dealing import deal
from gongzhu.errors import ArgumentTypeError, RuleSetError
from gongzhu.round import Phase, Round
from gongzhu.rules import (
    FACE_VALUE_HEARTS,
    OPTION_NAMES,
    PRESETS,
    STANDARD_HEARTS,
    Direction,
    ExposureKind,
    ExposureOrder,
    ExposureRestriction,
    GrandSlam,
    GrandSlamOutcome,
    LaterLeader,
    PigWithAllHearts,
    RuleSet,
    SimultaneousLoss,
    TiedWinners,
)
from gongzhu.scoring import DealScore, score

__all__ = [
    "ScoreInput",
    "captures",
    "card_sets",
    "cards",
    "deals",
    "exposures",
    "finished_rounds",
    "hands",
    "rounds_in_progress",
    "rule_sets",
    "score_inputs",
]

_ALL_CARDS: Final = tuple(Card.from_index(i) for i in range(52))
_EXPOSABLE: Final = (ACE_OF_HEARTS, PIG, SHEEP, TRANSFORMER)
_HEARTS_MASK: Final = 0x1FFF << 26
_RulesArg = RuleSet | str | SearchStrategy[RuleSet] | None


def cards() -> SearchStrategy[Card]:
    """Any of the 52 cards (shrinks towards 2♣).

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, database=None)
    ... @given(cards())
    ... def check(card):
    ...     assert Card.from_index(card.index) is card
    >>> check()
    """
    return st.sampled_from(_ALL_CARDS)


def card_sets(
    min_size: int = 0, max_size: int | None = None, *, within: CardSet = DECK
) -> SearchStrategy[CardSet]:
    """A :class:`~gongzhu.CardSet` of ``min_size`` to ``max_size`` cards taken from ``within``.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, database=None)
    ... @given(card_sets(min_size=2, max_size=3))
    ... def check(cs):
    ...     assert 2 <= len(cs) <= 3
    >>> check()
    """
    pool = tuple(within)
    top = len(pool) if max_size is None else min(max_size, len(pool))
    if not 0 <= min_size <= top:
        raise ValueError(f"cannot draw {min_size}..{max_size} cards from {len(pool)}")
    if not pool:
        return st.just(CardSet())
    return st.lists(st.sampled_from(pool), min_size=min_size, max_size=top, unique=True).map(
        CardSet
    )


# -- rule sets ---------------------------------------------------------------------


def _heart_tables() -> SearchStrategy[tuple[int, ...]]:
    return st.one_of(
        st.just(STANDARD_HEARTS),
        st.just(FACE_VALUE_HEARTS),
        st.lists(st.integers(-60, 20), min_size=13, max_size=13).map(tuple),
    )


def _option_strategies() -> dict[str, SearchStrategy[Any]]:
    """One strategy per RuleSet option; the first value of each is the default."""
    opening = st.one_of(st.sampled_from([Card("2S"), Card("2C"), Card("7S")]), cards())
    return {
        "players": st.sampled_from([4, 5, 3]),
        "partnerships": st.booleans(),
        "direction": st.sampled_from(Direction),
        "opening_card": opening,
        "must_lead_opening_card": st.booleans(),
        "later_leader": st.sampled_from(LaterLeader),
        "hearts_must_be_broken": st.booleans(),
        "heart_values": _heart_tables(),
        "pig_value": st.one_of(st.sampled_from([-100, -200]), st.integers(-400, -1)),
        "sheep_value": st.one_of(st.sampled_from([100, 200]), st.integers(1, 400)),
        "transformer_bonus": st.one_of(st.sampled_from([50, 0, 100]), st.integers(0, 200)),
        "zero_hearts_are_point_cards": st.booleans(),
        "all_hearts_value": st.one_of(
            st.sampled_from([200, 400]), st.none(), st.integers(-400, 800)
        ),
        "pig_with_all_hearts": st.sampled_from(PigWithAllHearts),
        "sign_swap": st.booleans(),
        "pig_sheep_together": st.booleans(),
        "pig_sheep_zero_sum": st.booleans(),
        "grand_slam": st.sampled_from(GrandSlam),
        "grand_slam_outcome": st.sampled_from(GrandSlamOutcome),
        "grand_slam_value": st.sampled_from([1000, 2000, 500]),
        "queen_of_diamonds_bonus": st.sampled_from([0, 10, 20]),
        "exposable": st.sets(st.sampled_from(_EXPOSABLE)).map(CardSet),
        "exposure_kind": st.sampled_from(ExposureKind),
        "blind_exposure": st.booleans(),
        "exposed_sheep_value": st.sampled_from([None, 200, -200, -400]),
        "exposure_restriction": st.sampled_from(ExposureRestriction),
        "hearts_locked_by_exposed_ace": st.booleans(),
        "three_exposed_force_fourth": st.booleans(),
        "exposure_order": st.sampled_from(ExposureOrder),
        "end_when_points_out": st.booleans(),
        "claims": st.booleans(),
        "loss_threshold": st.one_of(
            st.sampled_from([-1000, -500]), st.none(), st.integers(-5000, -1)
        ),
        "loss_inclusive": st.booleans(),
        "win_threshold": st.one_of(st.none(), st.sampled_from([1000, 500]), st.integers(1, 5000)),
        "win_inclusive": st.booleans(),
        "max_deals": st.one_of(st.none(), st.just(30), st.integers(1, 60)),
        "simultaneous_loss": st.sampled_from(SimultaneousLoss),
        "tied_winners": st.sampled_from(TiedWinners),
        "exact_threshold_flips": st.booleans(),
    }


_OPTIONS: Final = _option_strategies()
# The deck each player count removes cards from (specification §7 "players").
_REMOVED_BY_PLAYERS: Final = {4: 0, 5: Card("2C").mask | Card("2D").mask, 3: Card("2C").mask}


def _repair(opts: dict[str, Any], fixed: Mapping[str, Any]) -> None:
    """Make ``opts`` a valid combination, changing only options not in ``fixed``.

    Each impossible combination of specification §7 is resolved by resetting the
    dependent option to its default, or, when that option is fixed, by
    adjusting the one it depends on.
    """

    def free(name: str) -> bool:
        return name not in fixed

    if opts["partnerships"] and opts["players"] != 4:
        if free("partnerships"):
            opts["partnerships"] = False
        elif free("players"):
            opts["players"] = 4
    if opts["opening_card"].mask & _REMOVED_BY_PLAYERS[opts["players"]]:
        if free("opening_card"):
            opts["opening_card"] = Card("2S")
        elif free("players"):
            opts["players"] = 4
    exposable: CardSet = opts["exposable"]
    if opts["three_exposed_force_fourth"] and len(exposable) != 4:
        if free("exposable"):
            opts["exposable"] = exposable = CardSet(_EXPOSABLE)
        elif free("three_exposed_force_fourth"):
            opts["three_exposed_force_fourth"] = False
    if opts["hearts_locked_by_exposed_ace"] and ACE_OF_HEARTS not in exposable:
        if free("hearts_locked_by_exposed_ace"):
            opts["hearts_locked_by_exposed_ace"] = False
        elif free("exposable"):
            opts["exposable"] = exposable = exposable | CardSet([ACE_OF_HEARTS])
    if not exposable:
        for name, default in (
            ("exposure_kind", ExposureKind.OPEN),
            ("blind_exposure", False),
            ("three_exposed_force_fourth", False),
        ):
            if free(name):
                opts[name] = default
    slam_options = ("sign_swap", "pig_sheep_together", "pig_sheep_zero_sum")
    if opts["all_hearts_value"] is None and any(opts[name] for name in slam_options):
        if free("all_hearts_value"):
            opts["all_hearts_value"] = 200
        else:
            for name in slam_options:
                if free(name):
                    opts[name] = False
    if opts["must_lead_opening_card"] and opts["later_leader"] is LaterLeader.ROTATE:
        if free("must_lead_opening_card"):
            opts["must_lead_opening_card"] = False
        elif free("later_leader"):
            opts["later_leader"] = LaterLeader.PIG_TAKER
    if opts["exact_threshold_flips"] and opts["loss_threshold"] is None:
        if free("exact_threshold_flips"):
            opts["exact_threshold_flips"] = False
        elif free("loss_threshold"):
            opts["loss_threshold"] = -1000


def _convert(name: str, value: Any) -> Any:
    """A fixed option in the typed form RuleSet stores ("QS" → CardSet, "clockwise" → enum)."""
    converter = attrs.fields_dict(RuleSet)[name].converter
    return converter(value) if callable(converter) else value


def _build(opts: dict[str, Any]) -> RuleSet | None:
    try:
        return RuleSet(**opts)
    except RuleSetError:
        return None


def rule_sets(**fixed: Any) -> SearchStrategy[RuleSet]:
    """Valid :class:`~gongzhu.RuleSet` objects over every option, presets included.

    Keyword arguments fix options (``rule_sets(players=5, claims=True)``); the
    other options vary. About one example in four starts from a named preset
    (see :data:`gongzhu.PRESETS`), the rest from independently drawn options.
    Combinations the rule set would refuse are repaired by changing a free
    option, so no example is wasted; fixed options that cannot be combined
    at all raise :class:`~gongzhu.RuleSetError` at once.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=20, database=None)
    ... @given(rule_sets(players=5))
    ... def check(rules):
    ...     assert rules.players == 5 and len(rules.deck) == 50
    >>> check()
    """
    unknown = sorted(set(fixed) - set(OPTION_NAMES))
    if unknown:
        raise RuleSetError(f"unknown option(s): {', '.join(unknown)}", unknown)
    fixed = {name: _convert(name, value) for name, value in fixed.items()}
    # Fail early (and with the rule set's own message) when the fixed options
    # cannot be combined with anything.
    probe = {name: getattr(RuleSet(), name) for name in OPTION_NAMES} | dict(fixed)
    _repair(probe, fixed)
    RuleSet(**probe)

    def from_options(draw: st.DrawFn) -> dict[str, Any]:
        return {name: draw(_OPTIONS[name]) for name in OPTION_NAMES}

    def from_preset(draw: st.DrawFn) -> dict[str, Any]:
        preset = draw(st.sampled_from(sorted(PRESETS)))
        return {name: getattr(PRESETS[preset], name) for name in OPTION_NAMES}

    @st.composite
    def build(draw: st.DrawFn) -> RuleSet | None:
        source = from_preset if draw(st.integers(0, 3)) == 0 else from_options
        opts = source(draw) | dict(fixed)
        _repair(opts, fixed)
        return _build(opts)

    return build().filter(lambda r: r is not None).map(_as_rules)


def _as_rules(rules: RuleSet | None) -> RuleSet:
    assert rules is not None
    return rules


def _rules_strategy(rules: _RulesArg, default: RuleSet | None = None) -> SearchStrategy[RuleSet]:
    """``rules=`` as a strategy: None is ``default`` (any rule set when that is None too)."""
    if rules is None:
        return rule_sets() if default is None else st.just(default)
    if isinstance(rules, RuleSet):
        return st.just(rules)
    if isinstance(rules, str):
        return st.just(RuleSet.preset(rules))
    if not isinstance(rules, SearchStrategy):
        raise ArgumentTypeError(
            "rules must be a RuleSet, a preset's name or a strategy of rule sets, "
            f"got {type(rules).__name__}",
        )
    return rules


# -- hands and deals -----------------------------------------------------------------


def hands(*, rules: _RulesArg = None) -> SearchStrategy[CardSet]:
    """One seat's hand: ``rules.hand_size`` distinct cards of the rule set's deck.

    ``rules``: a rule set, a preset's name, a strategy of rule sets, or None (the
    default rules, ``RuleSet()``).

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, database=None)
    ... @given(hands(rules=RuleSet(players=5)))
    ... def check(hand):
    ...     assert len(hand) == 10 and Card("2C") not in hand
    >>> check()
    """
    strategy = _rules_strategy(rules, RuleSet())
    return strategy.flatmap(lambda r: card_sets(r.hand_size, r.hand_size, within=r.deck))


@st.composite
def _deals(draw: st.DrawFn, rules: SearchStrategy[RuleSet]) -> Round:
    rs = draw(rules)
    n = rs.players
    dealer = draw(st.integers(0, n - 1))
    # None: the opening card's holder leads (a first deal); a seat: a later deal.
    leader = draw(st.one_of(st.none(), st.integers(0, n - 1)))
    if draw(st.booleans()):
        return deal(rules=rs, seed=draw(st.integers(0, 2**32 - 1)), leader=leader, dealer=dealer)
    order = draw(st.permutations(tuple(rs.deck)))
    size = rs.hand_size
    hands_ = [order[seat * size : (seat + 1) * size] for seat in range(n)]
    return Round.from_hands(hands_, rules=rs, leader=leader, dealer=dealer)


def deals(*, rules: _RulesArg = None) -> SearchStrategy[Round]:
    """A fresh :class:`~gongzhu.Round` (nothing exposed or played yet).

    Half the examples are shuffled by :func:`gongzhu.deal` with a random seed,
    half are random hands given to :meth:`~gongzhu.Round.from_hands`; the
    leader is either the opening card's holder (a first deal) or a random seat
    (a later deal), the dealer a random seat. ``rules``: a rule set, a preset's
    name, a strategy of rule sets, or None for :func:`rule_sets`.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, database=None)
    ... @given(deals(rules=RuleSet.preset("online")))
    ... def check(rnd):
    ...     assert sum(len(h) for h in rnd.hands) == 52 and not rnd.tricks
    >>> check()
    """
    return _deals(_rules_strategy(rules))


# -- exposures and captures for score() -------------------------------------------------


def _factor_choices(rules: RuleSet) -> list[int]:
    face_up = rules.face_up_factor
    base = [face_up, 2] if face_up == 4 else [2]
    if rules.blind_exposure:
        base += [f * 2 for f in base]
    return base


@st.composite
def _exposures(draw: st.DrawFn, rules: RuleSet) -> dict[Card, int]:
    chosen = draw(st.sets(st.sampled_from(tuple(rules.exposable)))) if rules.exposable else set()
    choices = _factor_choices(rules)
    return {card: draw(st.sampled_from(choices)) for card in sorted(chosen)}


def exposures(*, rules: _RulesArg = None) -> SearchStrategy[dict[Card, int]]:
    """An ``exposed`` argument for :func:`gongzhu.score`: exposed card → factor.

    Only the rule set's exposable cards, with the factors it can produce:
    2 for an open exposure; 2 (face down) or 4 (face up) under
    ``exposure_kind="face-down-up"``; doubled again when blind exposure is
    played. Empty when exposure is off. ``rules``: a rule set, a preset's name, a
    strategy of rule sets, or None (the default rules, ``RuleSet()``); to know the
    rules a strategy drew, use :func:`score_inputs`.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, database=None)
    ... @given(exposures(rules=RuleSet.preset("catch-the-pig")))
    ... def check(exposed):
    ...     assert set(exposed.values()) <= {2, 4}
    >>> check()
    """
    return _rules_strategy(rules, RuleSet()).flatmap(_exposures)


_SWEEPS: Final = ("none", "none", "hearts", "hearts+pig", "slam15", "slam16")


@st.composite
def _captures(
    draw: st.DrawFn, rules: SearchStrategy[RuleSet], complete: bool
) -> tuple[CardSet, ...]:
    rs = draw(rules)
    n = rs.players
    deck = tuple(rs.deck)
    # Nobody (seat n) is allowed only for incomplete captures: cards left out.
    last = n - 1 if complete else n
    owners = draw(st.lists(st.integers(0, last), min_size=len(deck), max_size=len(deck)))
    sweep = draw(st.sampled_from(_SWEEPS))
    if sweep != "none":
        # Bias: one seat takes all hearts, or a 15/16-card grand slam, so the
        # small- and grand-slam lines are exercised as often as plain deals.
        taker = draw(st.integers(0, n - 1))
        swept = _HEARTS_MASK
        if sweep != "hearts":
            swept |= PIG.mask
        if sweep.startswith("slam"):
            swept |= SHEEP.mask
        if sweep == "slam16":
            swept |= TRANSFORMER.mask
        owners = [taker if card.mask & swept else o for card, o in zip(deck, owners, strict=True)]
    piles = [0] * n
    for card, owner in zip(deck, owners, strict=True):
        if owner < n:
            piles[owner] |= card.mask
    return tuple(CardSet.from_mask(p) for p in piles)


def captures(
    *, rules: _RulesArg = None, complete: bool = True
) -> SearchStrategy[tuple[CardSet, ...]]:
    """Disjoint capture piles, one per seat, for :func:`gongzhu.score`.

    With ``complete`` (the default) the piles partition the rule set's deck;
    otherwise some cards may be left out. Biased so that one seat often takes
    all hearts, all hearts and the pig, or a 15- or 16-card grand slam.
    ``rules``: a rule set, a preset's name, a strategy of rule sets, or None (the
    default rules, ``RuleSet()``); to know the rules a strategy drew, use
    :func:`score_inputs`.

    >>> from hypothesis import given, settings
    >>> from gongzhu import score
    >>> @settings(max_examples=10, database=None)
    ... @given(captures())
    ... def check(piles):
    ...     assert len(score(piles).totals) == 4
    >>> check()
    """
    return _captures(_rules_strategy(rules, RuleSet()), complete)


@attrs.frozen
class ScoreInput:
    """The arguments of one :func:`gongzhu.score` call, drawn together by
    :func:`score_inputs`: capture piles and exposures valid under ``rules``."""

    rules: RuleSet
    captures: tuple[CardSet, ...]
    exposed: dict[Card, int]

    def score(self) -> DealScore:
        """``score(captures, exposed, rules=rules)``."""
        return score(self.captures, self.exposed, rules=self.rules)


@st.composite
def _score_inputs(draw: st.DrawFn, rules: SearchStrategy[RuleSet], complete: bool) -> ScoreInput:
    drawn = draw(rules)
    piles = draw(_captures(st.just(drawn), complete))
    return ScoreInput(drawn, piles, draw(_exposures(drawn)))


def score_inputs(*, rules: _RulesArg = None, complete: bool = True) -> SearchStrategy[ScoreInput]:
    """A rule set with capture piles (:func:`captures`) and exposures (:func:`exposures`)
    drawn under it, so a property "under any rules" knows which rules to score with.

    ``rules``: a rule set, a preset's name, a strategy of rule sets, or None for
    :func:`rule_sets` (any rule set).

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, database=None)
    ... @given(score_inputs())
    ... def check(drawn):
    ...     sheet = drawn.score()   # score(drawn.captures, drawn.exposed, rules=drawn.rules)
    ...     assert len(sheet.totals) == drawn.rules.players == len(drawn.captures)
    ...     assert set(drawn.exposed) <= drawn.rules.exposable
    >>> check()
    """
    return _score_inputs(_rules_strategy(rules), complete)


# -- rounds reached by legal actions -----------------------------------------------------


def _expose_randomly(draw: st.DrawFn, rnd: Round) -> Round:
    """Random exposure decisions while the window is open (one decision per seat)."""
    rules = rnd.rules
    if rnd.phase is not Phase.EXPOSURE:
        return rnd
    n = rnd.players
    in_turn = rules.exposure_order is ExposureOrder.IN_TURN
    seats = [(rnd.leader + i) % n for i in range(n)]
    if not in_turn:
        seats = draw(st.permutations(seats))
    # Every seat decides once before the first lead (specification §9.1); a blind exposure
    # comes first and is not the decision (§9.4).
    face_down_played = rules.exposure_kind is ExposureKind.FACE_DOWN_UP
    for seat in seats:
        if seat in rnd.exposure_decided:
            continue
        held = rnd.hands[seat] & rules.exposable
        held = held - rnd.exposed - rnd.face_down
        face_down = face_down_played and draw(st.booleans())
        first = rnd.dealt[seat][0]
        if rules.blind_exposure and first in held and draw(st.booleans()):
            rnd = rnd.expose([first], seat=seat, face_down=face_down, blind=True)
            held = held - CardSet([first])
            face_down = face_down_played and draw(st.booleans())
        chosen = draw(st.sets(st.sampled_from(tuple(held)))) if held else set()
        rnd = rnd.expose(chosen, seat=seat, face_down=face_down)
    return rnd


def _respond_randomly(draw: st.DrawFn, rnd: Round) -> Round:
    pending = rnd.claim_pending
    while pending is not None:
        claimer, accepted = pending
        seat = next(s for s in range(rnd.players) if s != claimer and s not in accepted)
        # The simplest choice (0) accepts, so shrinking ends claims rather than prolonging them.
        rnd = rnd.respond(draw(st.integers(0, 3)) < 3, seat=seat)
        pending = rnd.claim_pending
    return rnd


def _step(draw: st.DrawFn, rnd: Round) -> Round:
    """One random legal action from ``rnd`` (not complete): a play, or a claim."""
    if rnd.phase is Phase.CLAIM:
        return _respond_randomly(draw, rnd)
    # Claim rarely, and never in the simplest example (which shrinks towards 0).
    if rnd.can_claim() and draw(st.integers(0, 15)) == 15:
        return rnd.claim()
    legal = rnd.legal_plays
    return rnd.play(legal[draw(st.integers(0, len(legal) - 1))])


@st.composite
def _finished(draw: st.DrawFn, rounds: SearchStrategy[Round]) -> Round:
    rnd = _expose_randomly(draw, draw(rounds))
    while not rnd.is_over:
        rnd = _step(draw, rnd)
    return rnd


def finished_rounds(*, rules: _RulesArg = None) -> SearchStrategy[Round]:
    """Complete :class:`~gongzhu.Round` objects, reached by random legal actions.

    Each starts from :func:`deals`, makes random exposures while the window is
    open (face down, blind and in turn where the rules play them), then plays
    random legal cards to the end, with occasional claims (accepted or
    refused at random) when the rules allow claims.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=5, database=None)
    ... @given(finished_rounds(rules=RuleSet()))
    ... def check(rnd):
    ...     assert rnd.is_over and sum(len(c) for c in rnd.captured) == 52
    >>> check()
    """
    return _finished(deals(rules=rules))


@st.composite
def _in_progress(draw: st.DrawFn, rounds: SearchStrategy[Round]) -> Round:
    rnd = draw(rounds)
    steps = draw(st.integers(0, len(rnd.rules.deck)))
    if steps:  # every seat decides before the first lead (specification §9.1)
        rnd = _expose_randomly(draw, rnd)
    for _ in range(steps):
        nxt = _step(draw, rnd)
        if nxt.is_over:
            break
        rnd = nxt
    return rnd


def rounds_in_progress(*, rules: _RulesArg = None) -> SearchStrategy[Round]:
    """Rounds that are not complete: a fresh deal plus a random number of legal actions.

    The phase may be exposure, play, or a pending claim.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10, database=None)
    ... @given(rounds_in_progress())
    ... def check(rnd):
    ...     assert not rnd.is_over
    >>> check()
    """
    return _in_progress(deals(rules=rules))
