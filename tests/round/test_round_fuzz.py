"""Fuzzing the play engine: garbage deals, and random legal and illegal actions in every phase.

A :class:`~gongzhu.Round` is immutable and an illegal action "raises and
changes nothing: the previous object is still valid" (``IllegalActionError``'s
contract, docs/architecture.rst "Shape rules"). These tests drive rounds under random rule sets
(``gongzhu.testing.rule_sets``) with random sequences of every action —
``play`` / ``expose`` / ``claim`` / ``respond`` / ``score`` / ``totals`` /
``view`` / ``unseen`` / ``why_illegal`` / ``check_play`` / ``can_play`` — mixing
legal moves with hostile arguments, and check that a refusal is a library error
that leaves every observable fact of the round unchanged, and that the four ways
of asking "may this card be played?" always agree with each other and with
``legal_plays``.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from fuzz_garbage import HUGE, any_int, garbage, huge_ints, outcome, seats, timed
from gongzhu import (
    DECK,
    Card,
    CardParseError,
    CardSet,
    DealError,
    DealScore,
    GongzhuError,
    IllegalActionError,
    Phase,
    PlayerView,
    Reason,
    Round,
    RuleSet,
    RuleSetError,
    deal,
)
from gongzhu.testing import cards, deals, rounds_in_progress, rule_sets

# -- observable state -----------------------------------------------------------------


def _snapshot(rnd: Round) -> tuple[Any, ...]:
    """Every public fact of a round (what a client could observe)."""
    return (
        rnd.phase,
        rnd.to_act,
        rnd.leader,
        rnd.dealer,
        rnd.is_over,
        rnd.trick_number,
        rnd.hands,
        rnd.dealt,
        rnd.tricks,
        rnd.current_trick,
        rnd.captured,
        rnd.exposed,
        rnd.face_down,
        rnd.blind,
        rnd.exposures,
        rnd.legal_plays,
        rnd.claim_pending,
        rnd.shown,
    )


def _is_seat(value: object, rnd: Round) -> bool:
    return type(value) is int and 0 <= value < rnd.players


# -- hostile arguments ------------------------------------------------------------------

card_args = st.one_of(
    cards(),
    cards().map(lambda c: c.code),
    cards().map(lambda c: c.symbol.lower()),
    st.sampled_from(["", "QS QS", "1X", "10", "♠", "QS,TC", "Q\u017f", "x" * 100]),
    garbage,
)
seat_args = st.one_of(st.none(), seats)
expose_args = st.one_of(
    st.sets(st.sampled_from(["AH", "QS", "JD", "TC"])).map(" ".join),
    st.sets(cards(), max_size=3),
    st.lists(cards(), max_size=3).map(tuple),
    card_args,
)
rules_strategy = st.one_of(
    rule_sets(),
    rule_sets(claims=True),
    rule_sets(exposure_order="in-turn", claims=True),
    rule_sets(blind_exposure=True, exposure_kind="face-down-up"),
    rule_sets(players=5),
)
round_strategy = st.one_of(deals(rules=rules_strategy), rounds_in_progress(rules=rules_strategy))

ACTIONS = (
    "play", "play", "play-legal", "play-legal", "play-legal", "play-own", "expose",
    "expose-own", "claim", "respond", "score", "view", "unseen", "why_illegal",
    "check_play", "can_play", "totals",
)  # fmt: skip

# Which library errors each action may raise (anything else is a bug).
EXPECTED: dict[str, tuple[type[GongzhuError], ...]] = {
    "play": (IllegalActionError, CardParseError),
    "expose": (IllegalActionError,),
    "claim": (IllegalActionError,),
    "respond": (IllegalActionError,),
    "score": (IllegalActionError,),
    "view": (IllegalActionError,),
    "unseen": (IllegalActionError,),
    "why_illegal": (CardParseError,),
    "check_play": (IllegalActionError, CardParseError),
    "can_play": (CardParseError,),
    "totals": (IllegalActionError,),
}


def _check_play_agreement(rnd: Round, card: Card, seat: object) -> None:
    """play / can_play / why_illegal / check_play / legal_plays agree on (card, seat)."""
    reason = rnd.why_illegal(card, seat)  # type: ignore[arg-type]
    can = rnd.can_play(card, seat)  # type: ignore[arg-type]
    checked = outcome(lambda: rnd.check_play(card, seat), IllegalActionError)  # type: ignore[arg-type]
    played = outcome(lambda: rnd.play(card, seat), IllegalActionError)  # type: ignore[arg-type]
    legal = card in rnd.legal_plays and (seat is None or seat == rnd.to_act)
    legal = legal and (seat is None or _is_seat(seat, rnd))
    assert can is (reason is None) is (checked is None) is isinstance(played, Round) is legal, (
        card,
        seat,
        reason,
    )
    if isinstance(played, IllegalActionError):
        assert played.reason is reason
    if isinstance(checked, IllegalActionError):
        assert checked.reason is reason


def _call(rnd: Round, action: str, data: st.DataObject) -> tuple[str, Any]:
    """Perform one random action on ``rnd``; return (kind for EXPECTED, result or error)."""
    seat: Any
    if action == "play-legal" and rnd.phase is Phase.EXPOSURE:
        # No lead before every seat has decided (RULES.md §9.1): the next one declines.
        return "expose", outcome(lambda: rnd.expose((), seat=rnd.exposure_pending[0]))
    if action == "play-legal":
        if rnd.phase is Phase.CLAIM or rnd.is_over:
            action = "respond"
        else:
            legal = rnd.legal_plays
            card = legal[data.draw(st.integers(0, len(legal) - 1))]
            seat = data.draw(st.sampled_from([None, rnd.to_act]))
            return "play", outcome(lambda: rnd.play(card, seat))
    if action == "play-own":
        # A card the seat to act holds (legal or not), often the right seat.
        seat_ = rnd.to_act
        hand = rnd.hands[seat_] if seat_ is not None else CardSet()
        if not hand:
            action = "play"
        else:
            card = hand[data.draw(st.integers(0, len(hand) - 1))]
            seat = data.draw(st.one_of(st.sampled_from([None, seat_]), seat_args))
            _check_play_agreement(rnd, card, seat)
            return "play", outcome(lambda: rnd.play(card, seat))
    if action == "play":
        card_arg = data.draw(card_args)
        seat = data.draw(seat_args)
        if isinstance(card_arg, Card):
            _check_play_agreement(rnd, card_arg, seat)
        return "play", outcome(lambda: rnd.play(card_arg, seat))
    if action in ("expose", "expose-own"):
        if action == "expose-own":
            seat = data.draw(st.integers(0, rnd.players - 1))
            held = rnd.hands[seat] & rnd.rules.exposable
            chosen: Any = data.draw(st.sets(st.sampled_from(tuple(held)))) if held else ()
        else:
            seat = data.draw(seats)
            chosen = data.draw(expose_args)
        face_down = data.draw(st.booleans())
        blind = data.draw(st.booleans())
        return "expose", outcome(
            lambda: rnd.expose(chosen, seat=seat, face_down=face_down, blind=blind)
        )
    if action == "claim":
        seat = data.draw(st.one_of(st.none(), st.just(rnd.to_act), seat_args))
        return "claim", outcome(lambda: rnd.claim(seat))
    if action == "respond":
        seat = data.draw(st.one_of(st.integers(0, rnd.players - 1), seats))
        accept = data.draw(st.booleans())
        return "respond", outcome(lambda: rnd.respond(accept, seat=seat))
    if action in ("score", "totals"):
        return action, outcome(getattr(rnd, action))
    if action in ("view", "unseen"):
        seat = data.draw(st.one_of(st.integers(0, rnd.players - 1), seats))
        return action, outcome(lambda: getattr(rnd, action)(seat))
    card_arg = data.draw(card_args)
    seat = data.draw(seat_args)
    return action, outcome(lambda: getattr(rnd, action)(card_arg, seat))


def _check_result(rnd: Round, kind: str, result: Any) -> None:
    """A successful action returned the right kind of thing, consistent with ``rnd``."""
    if kind in ("play", "expose", "claim", "respond"):
        assert isinstance(result, Round)
        assert result.players == rnd.players
        assert sum(len(h) for h in result.hands) + sum(len(c) for c in result.captured) + len(
            result.current_trick.cards
        ) == len(rnd.rules.deck)
    if kind == "expose":
        grown = (result.exposed | result.face_down) - (rnd.exposed | rnd.face_down)
        assert grown <= rnd.rules.exposable
        assert result.hands == rnd.hands
    if kind == "score":
        assert rnd.is_over
        assert isinstance(result, DealScore)
        assert len(result.totals) == rnd.players
    if kind == "view":
        assert isinstance(result, PlayerView)
        if result.seat == -1:  # Round.view(None): a spectator's view, no hand
            assert not result.hand
            assert not result.legal_plays
            assert result.pending is None
        else:
            assert result.hand == rnd.hands[result.seat]
            if result.seat != rnd.to_act:
                assert not result.legal_plays
    if kind == "unseen":
        assert isinstance(result, CardSet)
    if kind == "why_illegal":
        assert result is None or isinstance(result, Reason)
    if kind == "can_play":
        assert isinstance(result, bool)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(round_strategy, st.data())
def test_refused_actions_change_nothing_and_the_round_plays_on(
    rnd: Round, data: st.DataObject
) -> None:
    for _ in range(data.draw(st.integers(5, 40), label="steps")):
        action = data.draw(st.sampled_from(ACTIONS), label="action")
        before = _snapshot(rnd)
        kind, result = _call(rnd, action, data)
        # Whatever happened, the round acted on is unchanged (immutability).
        assert _snapshot(rnd) == before
        event(f"{kind} {type(result).__name__}")
        if isinstance(result, GongzhuError):
            assert isinstance(result, EXPECTED[kind]), (kind, result)
            continue
        _check_result(rnd, kind, result)
        if isinstance(result, Round) and data.draw(st.integers(0, 3), label="advance") > 0:
            rnd = result
    # The round reached is a normal round: it pickles, and play goes on to the end.
    assert _snapshot(pickle.loads(pickle.dumps(rnd))) == _snapshot(rnd)
    rnd = rnd.pass_exposure()  # every seat decides before the first lead (RULES.md §9.1)
    while not rnd.is_over:
        pending = rnd.claim_pending
        if pending is not None:
            claimer, accepted = pending
            waiting = next(s for s in range(rnd.players) if s != claimer and s not in accepted)
            rnd = rnd.respond(False, seat=waiting)
        else:
            rnd = rnd.play(rnd.legal_plays[0])
    assert len(rnd.score().totals) == rnd.players


@settings(max_examples=30)
@given(round_strategy)
def test_legal_plays_are_exactly_the_cards_can_play_accepts(rnd: Round) -> None:
    allowed = CardSet(c for c in DECK if rnd.can_play(c))
    assert allowed == rnd.legal_plays
    for card in DECK:
        reason = rnd.why_illegal(card)
        assert (reason is None) is (card in allowed)
        if rnd.to_act is not None and reason is Reason.NOT_IN_HAND:
            assert card not in rnd.hands[rnd.to_act]


@given(round_strategy, seat_args)
@example(deal(seed=1), True)
@example(deal(seed=1), 1.0)
@example(deal(seed=1), HUGE)
def test_the_four_play_questions_agree_for_any_seat_argument(rnd: Round, seat: object) -> None:
    for card in rnd.legal_plays or tuple(DECK)[:3]:
        _check_play_agreement(rnd, card, seat)


# -- building rounds from garbage -----------------------------------------------------

MUTATIONS = (
    "none", "swap", "move", "dup-within", "dup-across", "drop-card", "foreign", "drop-hand",
    "add-hand", "garbage-hand", "text", "cardset", "strings", "bytes", "nested",
)  # fmt: skip


@st.composite
def _mutated_hands(draw: st.DrawFn) -> tuple[RuleSet, Any, bool]:
    """Hands for Round.from_hands after one mutation, and whether they are still a deal."""
    rules = draw(st.sampled_from([RuleSet(), RuleSet(players=5), RuleSet(players=3)]))
    order = draw(st.permutations(tuple(rules.deck)))
    size = rules.hand_size
    hands: list[Any] = [list(order[s * size : (s + 1) * size]) for s in range(rules.players)]
    kind = draw(st.sampled_from(MUTATIONS))
    a, b = draw(st.integers(0, rules.players - 1)), draw(st.integers(0, rules.players - 1))
    i = draw(st.integers(0, size - 1))
    valid = True
    if kind == "swap" and a != b:
        hands[a][i], hands[b][i] = hands[b][i], hands[a][i]
    elif kind == "move" and a != b:
        hands[b].append(hands[a].pop(i))
        valid = False
    elif kind == "dup-within":
        hands[a][i] = hands[a][(i + 1) % size]
        valid = False
    elif kind == "dup-across" and a != b:
        hands[a][i] = hands[b][i]
        valid = False
    elif kind == "drop-card":
        hands[a].pop(i)
        valid = False
    elif kind == "foreign" and rules.players != 4:
        hands[a][i] = Card("2C")  # outside the 3- and 5-player decks
        valid = False
    elif kind == "drop-hand":
        hands.pop(a)
        valid = False
    elif kind == "add-hand":
        hands.append(list(hands[a]))
        valid = False
    elif kind == "garbage-hand":
        hands[a] = draw(garbage)
        valid = False
    elif kind == "text":
        hands = [" ".join(c.code for c in h) for h in hands]
    elif kind == "cardset":
        hands = [CardSet(h) for h in hands]
    elif kind == "strings":
        hands = [[c.symbol for c in h] for h in hands]
    elif kind == "bytes":
        hands[a] = " ".join(c.code for c in hands[a]).encode()
        valid = False
    elif kind == "nested":
        hands[a] = [hands[a]]
        valid = False
    return rules, hands, valid


@given(_mutated_hands(), st.one_of(st.none(), st.integers(-1, 5), seats), seats)
def test_from_hands_accepts_exactly_the_deals_that_partition_the_deck(
    case: tuple[RuleSet, Any, bool], leader: Any, dealer: Any
) -> None:
    rules, hands, valid = case
    valid_seats = (leader is None or _is_seat_n(leader, rules.players)) and _is_seat_n(
        dealer, rules.players
    )
    got = outcome(lambda: Round.from_hands(hands, rules=rules, leader=leader, dealer=dealer))
    if valid and valid_seats:
        assert isinstance(got, Round)
        assert got.dealer == dealer
        assert sum(len(h) for h in got.hands) == len(rules.deck)
        if leader is not None:
            assert got.to_act == leader
    else:
        # A bad deal is a DealError; a bad seat is refused as "no such seat".
        assert isinstance(got, (DealError, IllegalActionError)), got
        if not valid:
            assert isinstance(got, DealError)


def _is_seat_n(value: object, n: int) -> bool:
    return type(value) is int and 0 <= value < n


@given(garbage, st.one_of(st.none(), st.sampled_from([RuleSet()]), garbage))
def test_from_hands_of_anything_is_a_round_or_a_library_error(hands: Any, rules: Any) -> None:
    got = outcome(lambda: Round.from_hands(hands, rules=rules if rules is not None else RuleSet()))
    # Rules may be a preset's name (issue 28): an unknown name is a RuleSetError.
    assert isinstance(got, (Round, DealError, IllegalActionError, RuleSetError))


seed_args = st.one_of(st.none(), st.integers(), any_int, huge_ints, st.text(max_size=20), garbage)


@given(
    st.one_of(st.sampled_from([RuleSet(), RuleSet(players=5)]), garbage),
    seed_args,
    st.one_of(st.none(), seats),
    seats,
)
@example(RuleSet(), HUGE, None, 0)
@example(RuleSet(), -HUGE, None, 0)
@example(RuleSet(), True, None, 0)
@example(RuleSet(), 1.5, None, 0)
@example(RuleSet(), "x" * 10_000, None, 0)
def test_deal_of_anything_is_a_round_or_a_library_error(
    rules: Any, seed: Any, leader: Any, dealer: Any
) -> None:
    got = outcome(lambda: deal(rules=rules, seed=seed, leader=leader, dealer=dealer))
    seed_ok = seed is None or isinstance(seed, str) or type(seed) is int
    if isinstance(got, Round):
        assert isinstance(rules, RuleSet)
        assert seed_ok
        assert got.seed == seed
        if seed is not None:  # the same seed deals the same hands
            assert deal(rules=rules, seed=seed, leader=leader, dealer=dealer).hands == got.hands
    elif isinstance(rules, str):  # a preset's name: an unknown one is the rules' error
        assert isinstance(got, (RuleSetError, DealError, IllegalActionError))
    else:
        assert isinstance(got, (DealError, IllegalActionError))


@pytest.mark.parametrize(
    "seed", [10**5000, -(10**5000), "x" * 1_000_000, "♠" * 300_000], ids=["big", "neg", "1MB", "u"]
)
def test_huge_seeds_are_refused_quickly(seed: int | str) -> None:
    # #11 item 6: deal() has a documented seed domain (ints of ≤ 80 digits, text <= 1000
    # characters), so that every accepted seed can be written to a record.
    got = timed(lambda: deal(seed=seed), limit=1.0)
    assert isinstance(got, DealError)
