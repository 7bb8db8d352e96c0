"""The learned evaluation: the core's inference against numpy, the weights file's validation,
and its use in the search (truncated rollouts)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from gongzhu import Round, RuleSet, deal
from gongzhu._core.board import Board, of_state
from gongzhu._core.evaluation import INPUTS, PLACES, Net, features, predict, rollout_value, value
from gongzhu._core.policy import choose_board
from gongzhu._core.rollout import settle
from gongzhu.ai.evaluation import EvaluationError, load_evaluation, net_to_json
from gongzhu.ai.search import Limit, LimitError, SearchStrategy
from gongzhu.errors import GongzhuError

RULES = RuleSet.preset("flat-pig")


def _random_net(rng: random.Random, hidden: int) -> Net:
    return Net(
        hidden,
        [rng.gauss(0.0, 0.3) for _ in range(INPUTS * hidden)],
        [rng.gauss(0.0, 0.3) for _ in range(hidden)],
        [rng.gauss(0.0, 0.5) for _ in range(hidden)],
        rng.gauss(0.0, 0.5),
    )


def _positions(rng: random.Random, count: int) -> list[Board]:
    """Boards at random points of random deals (mid-trick included), played at random."""
    out = []
    for k in range(count):
        r = deal(rules=RULES, seed=rng.getrandbits(32))
        b = of_state(settle(r.engine_state))
        for _ in range(rng.randrange(52)):
            legal = b.legal()
            cards = [c for c in range(52) if legal >> c & 1]
            b.play(cards[rng.randrange(len(cards))] if k % 2 else choose_board(b, legal))
        out.append(b)
    return out


def test_every_card_has_one_place_and_the_seat_to_act_one_input() -> None:
    for b in _positions(random.Random(1), 30):
        for seat in range(4):
            active = features(b, seat)
            assert len(active) == 53
            assert len(set(active)) == 53
            assert sorted(i // PLACES for i in active[:52]) == list(range(52))
            assert active[52] == 52 * PLACES + (b.to_act() - seat) % 4
            for i in active[:52]:
                card, place = divmod(i, PLACES)
                owner = (seat + place % 4) % 4
                if place < 4:
                    assert b.hands[owner] >> card & 1
                elif place < 8:
                    assert b.capt[owner] >> card & 1
                else:
                    assert card in b.trick


def test_the_core_inference_equals_numpy() -> None:
    np = pytest.importorskip("numpy")
    from gongzhu.ai.train import forward

    rng = random.Random(2)
    for hidden in (1, 5, 16):
        net = _random_net(rng, hidden)
        params = {
            "w1": np.array(net.w1).reshape(INPUTS, hidden),
            "b1": np.array(net.b1),
            "w2": np.array(net.w2),
            "b2": np.array([net.b2]),
        }
        boards = _positions(rng, 12)
        rows = [features(b, s) for b in boards for s in range(4)]
        expected = forward(np, params, np.array(rows))
        got = [value(net, r) for r in rows]
        assert np.allclose(got, expected, rtol=1e-9, atol=1e-9)
        assert any(x != 0.0 for x in got)


def test_a_truncated_rollout_is_exact_when_the_deal_ends_and_predicted_otherwise() -> None:
    rng = random.Random(3)
    net = _random_net(rng, 4)
    for b in _positions(rng, 10):
        played_out = b.copy()
        while not played_out.done:
            played_out.play(choose_board(played_out, played_out.legal()))
        c = b.copy()
        got = rollout_value(net, c, 13, [0, 1, 2, 3])
        assert got == [float(t) for t in played_out.totals()]
        c = b.copy()
        start = c.ntricks
        got = rollout_value(net, c, 2, [1, 3])
        if c.done:
            assert got == [float(t) for t in c.totals()]
        else:
            assert not c.trick
            assert c.ntricks == start + 2
            full = predict(net, c)
            assert got == [0.0, full[1], 0.0, full[3]]


def test_weights_round_trip_and_the_shipped_ones_load_once() -> None:
    net = _random_net(random.Random(4), 3)
    back = load_evaluation(json.loads(json.dumps(net_to_json(net))))
    assert back.hidden == 3
    assert back.w1 == pytest.approx(net.w1, rel=1e-5)
    assert load_evaluation() is load_evaluation()
    assert load_evaluation().hidden > 0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "other"}, "not a 'gongzhu-eval' file"),
        ({"version": 2}, "version 2, this gongzhu reads version 1"),
        ({"inputs": 10}, "10 inputs, expected 472"),
        ({"hidden": 0}, "hidden must be 1-1024"),
        ({"w2": [0.0]}, "'w2' must be 3 numbers, got 1 numbers"),
        ({"b1": [0.0, float("nan"), 0.0]}, "'b1' holds nan, not a finite number"),
        ({"b2": ["x"]}, "'b2' holds 'x', not a finite number"),
        ({"w1": None}, "'w1' must be 1416 numbers, got NoneType"),
    ],
)
def test_a_bad_weights_file_is_refused_with_its_reason(
    change: dict[str, object], message: str
) -> None:
    obj = net_to_json(_random_net(random.Random(5), 3))
    obj.update(change)
    with pytest.raises(EvaluationError, match="evaluation weights: " + message.replace("(", r"\(")):
        load_evaluation(obj)


def test_an_unreadable_weights_file_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "w.json"
    bad.write_text("{not json")
    with pytest.raises(EvaluationError, match=r"w\.json is not JSON"):
        load_evaluation(bad)
    with pytest.raises(EvaluationError, match=r"cannot read missing\.json"):
        load_evaluation(tmp_path / "missing.json")
    with pytest.raises(EvaluationError, match="expected a path or a dict, got int"):
        load_evaluation(3)  # type: ignore[arg-type]
    assert issubclass(EvaluationError, GongzhuError)


def test_the_search_with_the_evaluation_is_legal_deterministic_and_differs() -> None:
    r = deal(rules=RULES, seed=11)
    rnd = Round.from_hands(r.dealt, rules=RULES)
    view = rnd.view(rnd.to_act)
    lim = Limit(simulations=40)
    a = SearchStrategy(lim, seed=1, evaluation=True, horizon=2).analyse(view)
    b = SearchStrategy(lim, seed=1, evaluation=load_evaluation(), horizon=2).analyse(view)
    plain = SearchStrategy(lim, seed=1).analyse(view)
    assert [(m.card, m.expected) for m in a] == [(m.card, m.expected) for m in b]
    assert a.best.card in view.legal_plays
    assert [m.expected for m in a] != [m.expected for m in plain]
    assert all(math.isfinite(m.expected) for m in a)
    with pytest.raises(LimitError, match="horizon must be an int 1-13"):
        SearchStrategy(evaluation=True, horizon=0)
    with pytest.raises(LimitError, match="evaluation must be True, None or"):
        SearchStrategy(evaluation="yes")  # type: ignore[arg-type]


def test_incremental_sums_equal_a_full_recompute_after_any_push_pop_sequence() -> None:
    from gongzhu._core.evaluation import Accumulator

    rng = random.Random(6)
    net = _random_net(rng, 6)
    for b in _positions(rng, 8):
        acc = Accumulator(net, b)
        for _ in range(60):
            if b.undo and (b.done or rng.random() < 0.4):
                acc.pop(b)
            elif not b.done:
                legal = b.legal()
                cards = [c for c in range(52) if legal >> c & 1]
                acc.push(b, cards[rng.randrange(len(cards))])
            for s in range(4):
                assert acc.value(s) == pytest.approx(value(net, features(b, s)), abs=1e-9)
