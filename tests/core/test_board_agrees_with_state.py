"""The in-core differential law: the mutable Board and the persistent State agree.

From any position drawn from :mod:`gongzhu.testing` (every preset and option:
face-down, blind and mixed exposure decisions, claims, 5 players, pairs),
played on by random legal cards, the two storage shapes of the rules kernel
agree on the legal set, on the position after every play, and on the totals;
``push``/``pop`` and ``copy`` leave no trace; the plays made on a board turn
back into the state the persistent shape reaches. Runs in both builds (the
core modules are compiled in one, plain Python in the other).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gongzhu import Round
from gongzhu._core import play as _p
from gongzhu._core.board import Board, of_state, to_state
from gongzhu._core.rollout import settle
from gongzhu._core.state import COMPLETE, PLAYING, State, hand, key, to_act, trick_cards
from gongzhu.testing import deals, rounds_in_progress, rule_sets

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def snapshot(b: Board) -> tuple[object, ...]:
    return (
        tuple(b.hands), tuple(b.capt), b.leader, tuple(b.trick), b.led, b.flags, b.ntricks,
        b.played, b.up, b.down, b.blind, b.done, b.qd_taker, tuple(b.qd_counts),
        tuple(b.tricks), tuple(b.plays),
    )  # fmt: skip


def agree(s: State, b: Board) -> None:
    t = s.table
    assert [hand(s, k) for k in range(t.n)] == b.hands
    assert list(s.capt) == b.capt
    assert (s.leader, trick_cards(s), s.flags) == (b.leader, tuple(b.trick), b.flags)
    assert (s.done == COMPLETE) == b.done
    if not b.done:
        assert to_act(s) == b.to_act()
        assert _p.legal(s) == b.legal()
    assert (t.up, t.down, t.blind) == (b.up, b.down, b.blind)


@st.composite
def mixed_decisions(draw: st.DrawFn) -> State:
    """A fresh deal under face-down-up exposure, each seat deciding once with cards of both
    kinds (RULES.md §9.1), through the core; some seats expose blind first (§9.4)."""
    rules = draw(rule_sets(exposure_kind="face-down-up"))
    rnd = draw(deals(rules=rules))
    s = rnd.engine_state
    n = s.table.n
    for i in range(n):
        seat = (s.leader + i) % n
        held = s.table.hands[seat] & rules.exposable.mask
        first = s.table.dealt[seat][0] if s.table.dealt[seat] else -1
        if rules.blind_exposure and first >= 0 and held >> first & 1 and draw(st.booleans()):
            down = draw(st.booleans())
            bit = 1 << first
            s = _p.decide(s, seat, 0 if down else bit, bit if down else 0, True)
            held &= ~bit
        up = down = 0
        for c in range(52):
            if held >> c & 1:
                kind = draw(st.integers(0, 2))
                if kind == 1:
                    up |= 1 << c
                elif kind == 2:
                    down |= 1 << c
        assert _p.decision_reason(s, seat, up, down, False) == (_p.OK, -1)
        s = _p.decide(s, seat, up, down, False)
    return s


def check_law(s: State, data: st.DataObject) -> None:
    s = settle(s)
    if s.done != PLAYING:
        return
    start = s
    b = of_state(s)
    agree(s, b)
    while s.done == PLAYING:
        legal = _p.legal(s)
        assert legal == b.legal()
        assert legal
        cards = [c for c in range(52) if legal >> c & 1]
        card = data.draw(st.sampled_from(cards))
        # push/pop and copy leave no trace.
        before = snapshot(b)
        twin = b.copy()
        b.push(card)
        assert b.pop() == card
        assert snapshot(b) == before
        twin.play(card)
        assert snapshot(b) == before
        s = _p.advance(s, card)
        b.push(card)
        assert snapshot(twin)[:-1] == snapshot(b)[:-1]
        agree(s, b)
    assert b.totals() == _p.totals(s) == Round.from_engine_state(s).score().totals
    assert key(to_state(start, b)) == key(s)
    # Unmake every play: back to the start.
    while b.undo:
        b.pop()
    agree(start, b)


@SETTINGS
@given(rounds_in_progress(rules=rule_sets()), st.data())
def test_board_and_state_agree_on_every_play_and_the_totals(
    rnd: Round, data: st.DataObject
) -> None:
    check_law(rnd.engine_state, data)


@SETTINGS
@given(rounds_in_progress(rules=rule_sets(players=5)), st.data())
def test_board_and_state_agree_with_five_players(rnd: Round, data: st.DataObject) -> None:
    check_law(rnd.engine_state, data)


@SETTINGS
@given(rounds_in_progress(rules=rule_sets(partnerships=True, claims=True)), st.data())
def test_board_and_state_agree_with_pairs_and_claims(rnd: Round, data: st.DataObject) -> None:
    check_law(rnd.engine_state, data)


@SETTINGS
@given(mixed_decisions(), st.data())
def test_board_and_state_agree_after_mixed_exposure_decisions(
    s: State, data: st.DataObject
) -> None:
    check_law(s, data)


@SETTINGS
@given(
    rounds_in_progress(
        rules=rule_sets(three_exposed_force_fourth=True, exposure_kind="face-down-up")
    ),
    st.data(),
)
def test_board_and_state_agree_when_three_exposed_force_the_fourth(
    rnd: Round, data: st.DataObject
) -> None:
    check_law(rnd.engine_state, data)


@SETTINGS
@given(rounds_in_progress(rules=rule_sets()), st.integers(0, 2**64))
def test_random_rollouts_draw_the_same_cards_on_the_board_and_the_inlined_loop(
    rnd: Round, seed: int
) -> None:
    # Round.rollout's all-random loop is the inlined one; a random rollout on a Board (the
    # public Board, search code) must play the same deal for the same generator state.
    from gongzhu._core import rollout as ro
    from gongzhu._core.policy import rollout as board_rollout

    s = settle(rnd.engine_state)
    x = ro.seed_state(seed)
    inlined = ro._rollout_random(s, x)
    if s.done != PLAYING:
        return
    b = of_state(s)
    board_rollout(b, [None] * s.table.n, x)
    assert key(to_state(s, b)) == key(inlined)
