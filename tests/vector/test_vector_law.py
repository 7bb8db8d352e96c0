"""The vector engine's differential law: a batch stepped on arrays is the same deals as
``Round.apply`` played card by card.

From batches of positions drawn over every preset and option (4 and 5 players, pairs,
face-up, face-down, blind and mixed exposures, the forced fourth, deals that end when
the points are out, positions in the middle of a trick), random legal cards are played on
both engines: the legal masks agree at every step, the totals agree at the end, and the
batch's deals turned back into ``Round``\\ s equal the rounds played alongside. Fresh
batches from ``VectorDeal.deal`` hold exactly the cards of ``gongzhu.deal``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gongzhu import PRESETS, Phase, Round, RuleSet, deal
from gongzhu._core.rollout import settle
from gongzhu.errors import ProtocolError, RuleSetError
from gongzhu.testing import _expose_randomly, deals, rounds_in_progress, rule_sets
from gongzhu.vector import VectorDeal
from gongzhu.vector._step import random_dealt
from gongzhu.vector._tables import BITS, SUIT, ZERO, popcount, unpack

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


def _mask(rnd: Round) -> np.ndarray:
    out = np.zeros(52, np.bool_)
    if not rnd.is_over:
        out[[c.index for c in rnd.legal_plays]] = True
    return out


def _playing(rnd: Round) -> Round:
    """``rnd`` with every exposure decided (undecided seats decline) and no claim pending."""
    return Round.from_engine_state(settle(rnd.engine_state))


def play_both(rounds: list[Round], seed: int) -> VectorDeal:
    """Random legal play to the end on the batch and on the rounds; the law at every step."""
    batch = VectorDeal.from_rounds(rounds)
    rng = np.random.default_rng(seed)
    for _ in range(60):
        masks = batch.legal_mask()
        expected = np.array([_mask(r) for r in rounds])
        assert (masks == expected).all()
        assert (batch.is_over == np.array([r.is_over for r in rounds])).all()
        for i, rnd in enumerate(rounds):
            if not rnd.is_over:
                assert batch.to_act[i] == rnd.to_act
        if batch.is_over.all():
            break
        actions = batch.random_actions(rng)
        batch.step(actions)
        rounds[:] = [
            r if r.is_over else r.apply(int(a)) for r, a in zip(rounds, actions, strict=True)
        ]
    assert batch.is_over.all()
    totals = batch.totals()
    for i, rnd in enumerate(rounds):
        assert tuple(int(x) for x in totals[i]) == rnd.score().totals
    return batch


@st.composite
def batches(draw: st.DrawFn, rules: st.SearchStrategy[RuleSet]) -> list[Round]:
    """A few positions of one rule set: fresh deals after random exposure decisions, and
    deals in progress (settled: exposures decided, no claim pending)."""
    rs = draw(rules)
    size = draw(st.integers(1, 6))
    out = []
    for _ in range(size):
        if draw(st.booleans()):
            rnd = _expose_randomly(draw, draw(deals(rules=rs)))
        else:
            rnd = draw(rounds_in_progress(rules=rs))
        out.append(_playing(rnd))
    return out


@SETTINGS
@given(batches(rule_sets()), st.integers(0, 2**32))
def test_batches_play_like_rounds_under_every_option(rounds: list[Round], seed: int) -> None:
    expected = list(rounds)
    batch = play_both(rounds, seed)
    # The batch's deals, back as Rounds, are the rounds played alongside (history too).
    assert batch.to_rounds() == rounds
    assert len(expected) == len(rounds)


@SETTINGS
@given(batches(rule_sets(players=5)), st.integers(0, 2**32))
def test_five_player_batches_play_like_rounds(rounds: list[Round], seed: int) -> None:
    play_both(rounds, seed)


@SETTINGS
@given(batches(rule_sets(exposure_kind="face-down-up")), st.integers(0, 2**32))
def test_face_down_batches_play_like_rounds(rounds: list[Round], seed: int) -> None:
    play_both(rounds, seed)


@pytest.mark.parametrize("players", [4, 5])
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_deals_like_gongzhu_deal_and_plays_like_rounds(
    name: str, players: int
) -> None:
    rules = PRESETS[name]
    if players == 5:
        try:
            rules = rules.replace(players=5)
        except RuleSetError:  # a 4-player opening card (2♣) is not in the 5-player deck
            rules = rules.replace(players=5, opening_card=RuleSet(players=5).opening_card)
    seeds = [0, 1, -7, "text seed", 2**64, *range(100, 120)]
    batch = VectorDeal.deal(rules, seeds, dealer=players - 1)
    rounds = [deal(rules=rules, seed=s, dealer=players - 1) for s in seeds]
    for i, rnd in enumerate(rounds):
        assert tuple(int(h) for h in batch.hands[i]) == tuple(h.mask for h in rnd.hands)
        assert batch.to_act[i] == rnd.leader
    rounds = [r.pass_exposure() if r.phase is Phase.EXPOSURE else r for r in rounds]
    assert batch.to_rounds() == rounds
    play_both(rounds, seed=len(name))
    assert batch.legal_mask().shape == (len(seeds), 52)


def test_random_deals_are_whole_deals_and_play_like_rounds() -> None:
    for rules in (RuleSet(), RuleSet(players=5)):
        batch = VectorDeal.random(rules, 64, rng=3)
        hands = batch.hands
        every = np.bitwise_or.reduce(hands, axis=1)
        assert (every == np.uint64(rules.deck.mask)).all()
        assert (unpack(hands).sum(axis=2) == rules.hand_size).all()
        play_both(batch.to_rounds(), seed=4)
    again = VectorDeal.random(RuleSet(), 8, rng=3)
    assert (again.hands == VectorDeal.random(RuleSet(), 8, rng=3).hands).all()


def test_random_deals_are_uniform() -> None:
    # Every card is equally likely at every position of the deal's order (which seat
    # gets it, and where it stands in that seat's priority order), and two given cards
    # share a seat with the chance of a uniform shuffle, 12/51.
    size = 26000
    batch = VectorDeal.random(RuleSet(), size, rng=11)
    order = batch.state.order.astype(np.int64)  # (positions, deals)
    assert (np.sort(order, axis=0) == np.arange(52)[:, None]).all()  # each a permutation
    counts = np.zeros((52, 52), np.int64)
    np.add.at(counts, (order, np.arange(52)[:, None]), 1)
    expected = size / 52
    assert (np.abs(counts - expected) < 5 * np.sqrt(expected)).all()
    hands = unpack(batch.hands)  # (deals, seats, 52)
    seat_of = hands.argmax(axis=1)
    together = (seat_of[:, 0] == seat_of[:, 51]).mean()
    assert abs(together - 12 / 51) < 5 * np.sqrt(12 / 51 * 39 / 51 / size)


class _TiedBits:
    """A bit generator whose first draws give every card of some deals the same key."""

    def __init__(self, tied_rows: set[int], m: int) -> None:
        self.calls = 0
        self.tied_rows, self.m = tied_rows, m
        self.inner = np.random.default_rng(5).bit_generator

    def random_raw(self, size: int) -> np.ndarray:
        out = self.inner.random_raw(size)
        if self.calls == 0:
            keys = out.view(np.uint32)
            for row in self.tied_rows:
                keys[row * self.m : (row + 1) * self.m] = 12345 << 6
        self.calls += 1
        return out


class _FakeGenerator:
    def __init__(self, bits: _TiedBits) -> None:
        self.bit_generator = bits


def test_a_deal_whose_draws_tie_is_drawn_again() -> None:
    batch = VectorDeal(RuleSet(), 6)
    bits = _TiedBits({1, 4}, 52)
    dealt = random_dealt(batch.state, _FakeGenerator(bits), 6)  # type: ignore[arg-type]
    assert bits.calls == 2  # once for the batch, once more for the two tied deals
    order = batch.state.order.astype(np.int64)
    assert (np.sort(order, axis=0) == np.arange(52)[:, None]).all()
    # A tied deal kept would be the cards in index order (the tie broken by the card).
    assert not (order[:, 1] == np.arange(52)).all()
    assert not (order[:, 4] == np.arange(52)).all()
    assert (np.bitwise_or.reduce(dealt, axis=1) == np.uint64(RuleSet().deck.mask)).all()


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(batches(rule_sets()), st.integers(0, 2**32))
def test_many_batches_play_like_rounds(rounds: list[Round], seed: int) -> None:
    play_both(rounds, seed)


def _check_playout(batch: VectorDeal, seed: int) -> None:
    """``playout`` ends every deal with legal plays (replayed through ``Round.apply``) and
    the totals of the rounds they reach."""
    batch.playout(np.random.default_rng(seed))
    assert batch.is_over.all()
    rounds = batch.to_rounds()  # Round.apply refuses any illegal play
    assert all(r.is_over for r in rounds)
    assert [tuple(t) for t in batch.totals()] == [r.score().totals for r in rounds]


@SETTINGS
@given(batches(rule_sets()), st.integers(0, 2**32))
def test_random_playouts_are_legal_deals_under_every_option(rounds: list[Round], seed: int) -> None:
    _check_playout(VectorDeal.from_rounds(rounds), seed)


@pytest.mark.parametrize("players", [4, 5])
def test_random_playouts_of_fresh_batches(players: int) -> None:
    for name in sorted(PRESETS):
        rules = PRESETS[name]
        if players == 5:
            try:
                rules = rules.replace(players=5)
            except RuleSetError:
                rules = rules.replace(players=5, opening_card=RuleSet(players=5).opening_card)
        _check_playout(VectorDeal.random(rules, 40, rng=players), seed=len(name))


def test_random_playouts_draw_each_legal_card_uniformly() -> None:
    # The first follower of the first trick: its legal cards, and how often each is drawn.
    rules = RuleSet(exposable="")
    size = 20000
    batch = VectorDeal.deal(rules, [5] * size)
    batch.step(np.full(size, batch.random_actions(np.random.default_rng(0))[0]))
    legal = batch.legal_mask()[0]
    batch.playout(np.random.default_rng(1))
    second = batch.state.plays[1].astype(np.int64)
    counts = np.bincount(second, minlength=52)
    assert (counts[~legal] == 0).all()
    expected = size / legal.sum()
    assert (np.abs(counts[legal] - expected) < 5 * np.sqrt(expected)).all()


def _state(batch: VectorDeal) -> dict[str, object]:
    return {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in vars(batch).items()}


def _same(a: dict[str, object], b: dict[str, object]) -> bool:
    return a.keys() == b.keys() and all(
        np.array_equal(a[k], b[k]) if isinstance(a[k], np.ndarray) else a[k] == b[k] for k in a
    )


@pytest.mark.parametrize("bad", [-1, 52, 10**6, "card not held", "follow suit"])
def test_an_illegal_action_is_refused_naming_the_deal_and_nothing_changes(bad: object) -> None:
    from gongzhu.errors import IllegalActionError, Reason

    rules = RuleSet(exposable="")
    batch = VectorDeal.deal(rules, range(6))
    rng = np.random.default_rng(0)
    batch.step(batch.random_actions(rng))  # mid-trick: followers must follow suit
    actions = batch.random_actions(rng)
    hands = batch.hands
    seat = int(batch.to_act[4])
    legal = batch.legal_mask()[4]
    if bad == "card not held":
        held = np.bitwise_or.reduce(hands[4])
        mine = int(hands[4, seat])
        card = next(c for c in range(52) if not int(held) >> c & 1 or not mine >> c & 1)
        reason = Reason.NOT_IN_HAND
    elif bad == "follow suit":
        card = next((c for c in range(52) if int(hands[4, seat]) >> c & 1 and not legal[c]), None)
        if card is None:
            pytest.skip("the seat holds only legal cards here")
        reason = Reason.MUST_FOLLOW_SUIT
    else:
        card = bad
        reason = None
    actions[4] = card
    before = _state(batch)
    with pytest.raises(IllegalActionError) as caught:
        batch.step(actions)
    assert "deal 4" in str(caught.value)
    if reason is not None:
        assert caught.value.reason is reason
    assert _same(before, _state(batch))
    with pytest.raises(ProtocolError):
        batch.step(actions[:3])
    with pytest.raises(ProtocolError):
        batch.step(actions.astype(float))
    assert _same(before, _state(batch))


def test_random_playouts_of_deals_out_of_step() -> None:
    # Some deals a card ahead of the others (step with where=): playout still plays all
    # of them to a legal end.
    batch = VectorDeal.random(RuleSet(exposable=""), 30, rng=9)
    rng = np.random.default_rng(9)
    batch.step(batch.random_actions(rng), where=np.arange(30) % 3 == 0)
    _check_playout(batch, seed=10)
    batch = VectorDeal.random(RuleSet(players=5), 30, rng=9)
    for _ in range(5):  # a whole trick for some: in step at the next trick's start again
        batch.step(batch.random_actions(rng), where=np.arange(30) % 2 == 0)
    _check_playout(batch, seed=11)


@pytest.mark.parametrize("players", [4, 5])
def test_priority_leads_and_discards_are_uniform_over_the_hand(players: int) -> None:
    # The playout of a fresh batch takes every lead and every void follower's card as the
    # first card of the hand in the deal's order. Conditional on the play so far, that card
    # must be uniform over the hand: for a hand of m cards, the card's rank among them
    # (in index order) is uniform over 0..m-1, at every trick, also for a seat that led or
    # discarded before.
    rules = RuleSet(exposable="", players=players, opening_card="3C" if players == 5 else "2C")
    size = 6000
    batch = VectorDeal.random(rules, size, rng=7)
    rng = np.random.default_rng(8)
    batch.step(batch.random_actions(rng))  # the first lead by a fresh draw
    batch.playout(rng)
    plays = batch.state.plays.astype(np.int64)
    seat_of = np.zeros((size, 52), np.int64)
    for s in range(players):
        seat_of[unpack(batch.state.dealt[:, s])] = s
    cols = np.arange(size)
    counts = {"lead": np.zeros((14, 13), np.int64), "discard": np.zeros((14, 13), np.int64)}
    held = batch.state.dealt.copy()
    for p in range(1, plays.shape[0]):
        if plays[p, 0] < 0:
            break
        card = plays[p]
        seat = seat_of[cols, card]
        hand = held[cols, seat]
        first = p % players == 0
        void = (hand & SUIT[plays[p - p % players] // 13]) == ZERO
        pick = np.full(size, first) if first else void
        below = popcount(hand & (BITS[card] - np.uint64(1)))
        m = popcount(hand)
        np.add.at(counts["lead" if first else "discard"], (m[pick], below[pick]), 1)
        held[cols, seat] &= ~BITS[card]
    for kind, table in counts.items():
        assert table.sum() > 20000, kind
        for m in range(1, 14):
            row = table[m, :m]
            if row.sum() >= 200:
                expected = row.sum() / m
                assert (np.abs(row - expected) < 5 * np.sqrt(expected)).all(), (kind, m, row)
