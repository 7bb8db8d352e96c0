"""Laws of the play engine, checked at every step of random legal playouts.

Rule sets come from :func:`gongzhu.testing.rule_sets` (every option of
RULES.md §7: 3/4/5 players, opening card and must-lead flag, later leader,
exposure subsets and kinds, blind and in-turn exposure, the restriction modes,
hearts broken/locked, three-force-four, early end, claims, Q♦ bonus).

:func:`reference_legal` restates RULES.md §§1, 4, 7 from the public API only;
the engine's ``legal_plays`` must agree with it in every position.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from hypothesis import given, note, settings
from hypothesis import strategies as st

from gongzhu import (
    ACE_OF_HEARTS,
    Card,
    CardSet,
    ExposureKind,
    ExposureOrder,
    ExposureRestriction,
    IllegalActionError,
    Phase,
    Reason,
    Round,
    RuleSet,
    Suit,
    deal,
    score,
)
from gongzhu.testing import deals, finished_rounds, rule_sets

HEARTS = CardSet(c for c in CardSet.from_mask((1 << 52) - 1) if c.suit is Suit.HEARTS)
POINT_CARDS = HEARTS | CardSet([Card("QS"), Card("JD"), Card("TC")])


def union(sets: tuple[CardSet, ...] | list[CardSet]) -> CardSet:
    out = CardSet()
    for s in sets:
        out = out | s
    return out


# -- a reference model of legal plays, from RULES.md -----------------------------------------


def played_cards(rnd: Round) -> CardSet:
    return union([CardSet(t.cards) for t in (*rnd.tricks, rnd.current_trick)])


def effective_exposed(rnd: Round) -> CardSet:
    """Face-up exposed cards, with a forced fourth counted before the first lead.

    Only face-up exposures count towards the three (RULES.md §9.3).
    """
    exposed = rnd.exposed
    rules = rnd.rules
    if rules.three_exposed_force_fourth and not played_cards(rnd):
        declared = exposed & rules.exposable
        if len(declared) == 3:
            exposed = exposed | (rules.exposable - declared)
    return exposed


def reference_legal(rnd: Round, opening_forced: bool) -> CardSet:
    """The legal plays of the seat to act, restated from RULES.md §§1, 4, 7."""
    rules = rnd.rules
    seat = rnd.to_act
    assert seat is not None
    hand = rnd.hands[seat]
    trick = rnd.current_trick
    exposed = effective_exposed(rnd)
    suits_led = {t.led_suit for t in rnd.tricks}
    restriction = rules.exposure_restriction
    if trick.cards:
        led = trick.led_suit
        assert led is not None
        follow = hand.of_suit(led)
        if not follow:
            legal = hand  # §1: a void player may play any card
        else:
            legal = follow
            # §4: held back from the first trick led in its suit, unless it is the last one.
            held = follow & exposed
            first_of_suit = led not in suits_led
            if restriction is ExposureRestriction.FIRST_TRICK_OF_SUIT and first_of_suit:
                legal = follow - held if held and follow - held else follow
    else:
        if opening_forced and not rnd.tricks and rules.opening_card in hand:
            return CardSet([rules.opening_card])
        broken = bool(played_cards(rnd) & HEARTS)
        locked = rules.hearts_locked_by_exposed_ace and ACE_OF_HEARTS in exposed
        # §9.6: hearts-broken and the blood lock excuse a leader holding only hearts.
        gated = (rules.hearts_must_be_broken or locked) and not broken and bool(hand - HEARTS)
        blocked = HEARTS if gated else CardSet()
        held = CardSet()
        if restriction is ExposureRestriction.FIRST_TRICK_OF_SUIT:
            for card in exposed & hand:
                if card.suit not in suits_led and len(hand.of_suit(card.suit)) > 1:
                    held = held | CardSet([card])
        elif restriction is ExposureRestriction.FIRST_TRICK_OF_DEAL and not rnd.tricks:
            held = exposed & hand
        # §9.6: the exposure restriction gives way first, then the blood lock and
        # hearts-broken (which forbid the same cards).
        return (hand - blocked - held) or (hand - blocked) or hand
    if restriction is ExposureRestriction.FIRST_TRICK_OF_DEAL and not rnd.tricks:
        free = legal - exposed  # §9.5: follow suit beats it
        if free:
            legal = free
    return legal


# -- a random legal playout that checks the per-step laws ----------------------------------------

Check = Callable[[Round], None]
T = TypeVar("T")


def unchanged(rnd: Round, action: Callable[[], T]) -> T:
    """Run ``action`` (which may raise) and assert that ``rnd`` did not change."""
    before = pickle.dumps(rnd)
    hands, exposed, trick = rnd.hands, rnd.exposed, rnd.current_trick
    try:
        return action()
    finally:
        assert pickle.loads(before) == rnd
        assert (rnd.hands, rnd.exposed, rnd.current_trick) == (hands, exposed, trick)


def expose_randomly(data: st.DataObject, rnd: Round) -> Round:
    rules = rnd.rules
    n = rnd.players
    seats = [(rnd.leader + i) % n for i in range(n)]
    in_turn = rules.exposure_order is ExposureOrder.IN_TURN
    if not in_turn:
        seats = data.draw(st.permutations(seats), label="exposure order")
    # RULES.md §9.1: every seat decides once; a blind exposure comes first (§9.4).
    for seat in seats:
        assert rnd.phase is Phase.EXPOSURE
        free = (rnd.hands[seat] & rules.exposable) - rnd.exposed - rnd.face_down
        face_down = rules.exposure_kind is ExposureKind.FACE_DOWN_UP and data.draw(st.booleans())
        first = rnd.dealt[seat][0]
        if rules.blind_exposure and first in free and data.draw(st.booleans()):
            rnd = unchanged(
                rnd, partial(rnd.expose, [first], seat=seat, blind=True, face_down=face_down)
            )
            assert first in rnd.blind
            assert seat not in rnd.exposure_decided
            free = free - CardSet([first])
        chosen = data.draw(st.sets(st.sampled_from(sorted(free)))) if free else set()
        new = unchanged(rnd, partial(rnd.expose, chosen, seat=seat, face_down=face_down))
        assert CardSet(chosen) <= (new.face_down if face_down else new.exposed)
        assert seat in new.exposure_decided
        again = _refused(partial(new.expose, (), seat=seat))
        assert again.reason is Reason.ALREADY_DECIDED
        rnd = new
    return rnd


def playout(data: st.DataObject, rnd: Round, check: Check) -> Round:
    """Drive ``rnd`` to the end by random legal actions, calling ``check`` on every state."""
    check(rnd)
    if rnd.phase is Phase.EXPOSURE:
        rnd = expose_randomly(data, rnd)
        check(rnd)
    while not rnd.is_over:
        current = rnd
        if current.phase is Phase.CLAIM:
            pending = current.claim_pending
            assert pending is not None
            claimer, accepted = pending
            seat = next(s for s in range(current.players) if s != claimer and s not in accepted)
            accept = data.draw(st.integers(0, 3), label="accept") < 3
            rnd = unchanged(current, partial(current.respond, accept, seat=seat))
        elif current.can_claim() and data.draw(st.integers(0, 12), label="claim") == 12:
            rnd = unchanged(current, current.claim)
        else:
            legal = current.legal_plays
            card = legal[data.draw(st.integers(0, len(legal) - 1), label="card")]
            rnd = unchanged(current, partial(current.play, card))
            if not current.tricks and not current.current_trick.cards:
                # The exposure window closes with the first card.
                err = _refused(partial(rnd.expose, [], seat=rnd.leader))
                assert err.reason in (Reason.WRONG_PHASE, Reason.EXPOSURE_OFF)
        check(rnd)
    return rnd


def _refused(action: Callable[[], object]) -> IllegalActionError:
    try:
        action()
    except IllegalActionError as err:
        return err
    raise AssertionError("the action was not refused")


@st.composite
def fresh_rounds(draw: st.DrawFn) -> tuple[Round, bool]:
    """A new deal and whether its first lead must be the opening card."""
    rules = draw(rule_sets())
    n = rules.players
    leader = draw(st.one_of(st.none(), st.integers(0, n - 1)))
    dealer = draw(st.integers(0, n - 1))
    if draw(st.booleans()):
        rnd = deal(rules=rules, seed=draw(st.integers(0, 2**32 - 1)), leader=leader, dealer=dealer)
    else:
        order = draw(st.permutations(list(rules.deck)))
        k = rules.hand_size
        rnd = Round.from_hands(
            [order[i * k : (i + 1) * k] for i in range(n)],
            rules=rules,
            leader=leader,
            dealer=dealer,
        )
    return rnd, leader is None and rules.must_lead_opening_card


def step_laws(opening_forced: bool) -> Check:
    def check(rnd: Round) -> None:
        phase = rnd.phase
        if phase is Phase.COMPLETE or phase is Phase.CLAIM:
            assert rnd.to_act is None
            assert rnd.legal_plays == CardSet()
            for card in rules_deck(rnd):
                assert rnd.why_illegal(card) is Reason.WRONG_PHASE
            return
        if phase is Phase.EXPOSURE:
            # RULES.md §9.1: no lead until every seat has decided.
            assert rnd.exposure_pending
            assert rnd.legal_plays == CardSet()
            for card in rules_deck(rnd):
                assert rnd.why_illegal(card) is Reason.EXPOSURE_PENDING
            return
        seat = rnd.to_act
        assert seat is not None
        legal = rnd.legal_plays
        hand = rnd.hands[seat]
        # A card must be played and one always can be.
        assert legal, "legal_plays is empty while a card must be played"
        assert legal <= hand
        assert legal == reference_legal(rnd, opening_forced)
        trick = rnd.current_trick
        for card in rules_deck(rnd):
            reason = rnd.why_illegal(card)
            assert (reason is None) == (card in legal), (card, reason)
            if card not in hand:
                assert reason is Reason.NOT_IN_HAND
        other = (seat + 1) % rnd.players
        assert rnd.why_illegal(legal[0], seat=other) is Reason.NOT_YOUR_TURN
        assert _refused(partial(rnd.play, legal[0], seat=other)).reason is Reason.NOT_YOUR_TURN
        for card in hand:
            reason = rnd.why_illegal(card)
            assert rnd.can_play(card) == (reason is None)
            if reason is None:
                rnd.play(card)
                continue
            err = _refused(partial(rnd.play, card))
            assert (err.reason, err.seat, err.card) == (reason, seat, card)
            led = trick.led_suit
            if led is not None and hand.of_suit(led) and card.suit is not led:
                assert reason is Reason.MUST_FOLLOW_SUIT
            elif led is not None:
                assert reason is Reason.EXPOSED_CARD_HELD_BACK
            else:
                assert reason in (
                    Reason.MUST_LEAD_OPENING_CARD,
                    Reason.HEARTS_NOT_BROKEN,
                    Reason.HEARTS_LOCKED,
                    Reason.EXPOSED_CARD_HELD_BACK,
                )

    return check


def rules_deck(rnd: Round) -> CardSet:
    return rnd.rules.deck


def end_laws(rnd: Round) -> None:
    rules = rnd.rules
    assert rnd.is_over
    captured = rnd.captured
    assert sum(len(c) for c in captured) == len(union(captured)), "a card captured twice"
    left = union(rnd.hands)
    assert not left & union(captured)
    assert left | union(captured) == rules.deck
    if left:
        # Only the early end leaves cards in hand, and only once every point card is out.
        assert rules.end_when_points_out
        assert POINT_CARDS & rules.deck <= union(captured)
        last = CardSet(rnd.tricks[-1].cards)
        assert not (POINT_CARDS & rules.deck <= union(captured) - last)


def trick_laws(rnd: Round) -> None:
    n = rnd.players
    leader = None
    for trick in rnd.tricks:
        assert len(trick.cards) == n
        if leader is not None:
            assert trick.leader == leader  # the winner leads the next trick
        led = trick.cards[0].suit
        best = max((c for c in trick.cards if c.suit is led), key=lambda c: c.rank)
        assert trick.winner == trick.seats[trick.cards.index(best)]
        assert trick.winner == trick.winning_seat
        leader = trick.winner
    won = [CardSet() for _ in range(n)]
    for trick in rnd.tricks:
        assert trick.winner is not None
        won[trick.winner] = won[trick.winner] | CardSet(trick.cards)
    for seat in range(n):
        assert won[seat] <= rnd.captured[seat]
    if not rnd.shown:  # no claim was made: captures are exactly the tricks won
        assert tuple(won) == rnd.captured


def queen_bonus_tricks(rnd: Round) -> tuple[int, ...]:
    counts = [0] * rnd.players
    taken_at = next(
        (i for i, t in enumerate(rnd.tricks) if Card("QD") in t.cards),
        None,
    )
    if taken_at is not None:
        taker = rnd.tricks[taken_at].winner
        for trick in rnd.tricks[taken_at + 1 :]:
            if trick.winner == taker:
                counts[taker] += 1
    return tuple(counts)


# -- the laws -------------------------------------------------------------------------------------


@settings(max_examples=40)
@given(fresh_rounds(), st.data())
def test_legal_plays_match_the_rules_and_every_refusal_has_a_reason_at_every_step(
    start: tuple[Round, bool], data: st.DataObject
) -> None:
    rnd, opening_forced = start
    note(rnd.rules.describe())
    end = playout(data, rnd, step_laws(opening_forced))
    end_laws(end)
    trick_laws(end)


@settings(max_examples=50)
@given(finished_rounds())
def test_random_playouts_capture_every_card_exactly_once(rnd: Round) -> None:
    end_laws(rnd)


@settings(max_examples=50)
@given(finished_rounds())
def test_the_highest_card_of_the_led_suit_wins_and_leads_next(rnd: Round) -> None:
    trick_laws(rnd)


@settings(max_examples=50)
@given(finished_rounds())
def test_a_finished_round_scores_as_score_of_its_captures(rnd: Round) -> None:
    rules = rnd.rules
    bonus = queen_bonus_tricks(rnd) if rules.queen_of_diamonds_bonus else None
    expected = score(rnd.captured, rnd.exposure_factors, rules=rules, queen_bonus_tricks=bonus)
    assert rnd.score().totals == expected.totals


@given(rule_sets(), st.integers(0, 2**64), st.integers(0, 4))
def test_the_same_seed_gives_the_same_deal(rules: RuleSet, seed: int, dealer: int) -> None:
    dealer %= rules.players
    a, b = deal(rules=rules, seed=seed, dealer=dealer), deal(rules=rules, seed=seed, dealer=dealer)
    assert a == b
    assert a.dealt == b.dealt
    assert a.to_act == b.to_act
    assert deal(rules=rules, seed=str(seed)) == deal(rules=rules, seed=str(seed))


@given(deals())
def test_a_deal_rebuilt_from_its_dealt_cards_is_the_same_deal(rnd: Round) -> None:
    again = Round.from_hands(rnd.dealt, rules=rnd.rules, leader=rnd.leader, dealer=rnd.dealer)
    assert again.hands == rnd.hands
    assert again.dealt == rnd.dealt
    assert again.legal_plays <= rnd.hands[rnd.leader]
    assert len(rnd.dealt) == rnd.players
    assert all(len(cards) == rnd.rules.hand_size for cards in rnd.dealt)
    assert union([CardSet(c) for c in rnd.dealt]) == rnd.rules.deck


@given(rule_sets(), st.integers(0, 1000))
def test_dealing_from_one_seat_later_rotates_the_hands(rules: RuleSet, seed: int) -> None:
    a = deal(rules=rules, seed=seed, dealer=0)
    b = deal(rules=rules, seed=seed, dealer=1)
    assert b.dealt == (a.dealt[-1], *a.dealt[:-1])


@settings(max_examples=40)
@given(finished_rounds())
def test_a_pickled_round_is_equal_and_hashes_alike(rnd: Round) -> None:
    back = pickle.loads(pickle.dumps(rnd))
    assert back == rnd
    assert hash(back) == hash(rnd)
    assert back.score().totals == rnd.score().totals


def test_reference_model_catches_a_known_restriction() -> None:
    # Guards the guard: the reference model itself follows 000 §06.
    hands = [
        "2S 3S 4S 5S 2C 3C 4C 5C 2D 3D 4D 5D 2H",
        "QS 6S 7S 6C 7C 8C 9C 3H 4H 5H 6H 7H 8H",
        "KS AS TC JC 6D 7D 8D 9D TD JD 9H TH JH",
        "8S 9S TS JS QC KC AC QD KD AD QH KH AH",
    ]
    rnd = Round.from_hands(hands).expose("QS", seat=1).pass_exposure().play("2S")
    assert reference_legal(rnd, False) == CardSet([Card("6S"), Card("7S")])


@settings(max_examples=50)
@given(
    deals(rules=rule_sets(three_exposed_force_fourth=True)),
    st.sampled_from(["AH", "QS", "JD", "TC"]),
)
def test_three_exposed_cards_force_the_fourth_before_the_first_lead(
    rnd: Round, left_out: str
) -> None:
    # RULES.md §7 (Chinese app rules): the fourth is exposed as the window closes.
    fourth = Card(left_out)
    chosen = rnd.rules.exposable - CardSet([fourth])
    for i in range(rnd.players):
        seat = (rnd.leader + i) % rnd.players
        rnd = rnd.expose(rnd.hands[seat] & chosen, seat=seat)
    assert fourth not in rnd.exposed
    assert rnd.legal_plays == reference_legal(rnd, opening_forced=False) or (
        rnd.rules.must_lead_opening_card and len(rnd.legal_plays) == 1
    )
    after = rnd.play(rnd.legal_plays[0])
    assert after.exposed == rnd.rules.exposable
    holder = next(s for s in range(rnd.players) if fourth in rnd.hands[s])
    assert fourth in after.exposures[holder]
