"""Fuzzing the drivers: bots, simulate, record.load and Round.apply/rollout with garbage.

Each entry point either returns or raises a :class:`~gongzhu.GongzhuError`
with a short message, quickly (issue #11: "the fuzz suites cover the new
entry points"). The garbage is :mod:`fuzz_garbage`'s; plausible values are
mixed in so that the checks past the first argument are reached too.
"""

from __future__ import annotations

import io
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from fuzz_garbage import HUGE, garbage, outcome, timed
from gongzhu import (
    Claim,
    ClaimResponse,
    Exposure,
    GongzhuError,
    Play,
    RecordError,
    Round,
    RuleSet,
    deal,
    play_deal,
    play_match,
    record,
)
from gongzhu.bots import RandomStrategy, RuleOfThumbStrategy, make_strategy
from gongzhu.parallel import BotTable, play_task, simulate, task_seed

_BOTS = [RuleOfThumbStrategy()] * 4
plausible = st.sampled_from(
    [0, 1, 3, 4, -1, None, "classic", "online-quick", "random", RuleSet(), _BOTS, (0,) * 4]
)
anything = st.one_of(plausible, garbage)


@given(anything, anything, anything)
def test_play_deal_plays_or_refuses(strategies: Any, rules: Any, seed: Any) -> None:
    result = timed(lambda: play_deal(strategies, rules=rules, seed=seed), limit=3.0)
    assert isinstance(result, (Round, GongzhuError))
    if isinstance(result, Round):
        assert result.is_over


@given(anything, anything, anything)
def test_play_match_plays_or_refuses(rules: Any, seed: Any, max_deals: Any) -> None:
    def run() -> object:
        cap = max_deals
        if isinstance(cap, int) and not isinstance(cap, bool) and cap > 3:
            cap = 3  # a valid cap stays quick
        return play_match(_BOTS, rules=rules, seed=seed, max_deals=cap)

    timed(run, limit=5.0)


@given(anything, anything, anything, anything)
def test_simulate_runs_or_refuses(n: Any, rules: Any, strategies: Any, seed: Any) -> None:
    if isinstance(n, int) and not isinstance(n, bool) and n > 4:
        n = 4  # a valid count stays quick
    timed(lambda: simulate(n, rules=rules, strategies=strategies, seed=seed), limit=5.0)


@given(anything, anything, anything)
def test_simulate_options_run_or_refuse(workers: Any, matches: Any, progress: Any) -> None:
    if isinstance(workers, int) and not isinstance(workers, bool) and workers > 1:
        workers = 1  # processes are covered by tests/package/test_public_api_hostile_input.py
    timed(
        lambda: simulate(
            2, rules="online-quick", workers=workers, matches=matches, progress=progress
        ),
        limit=5.0,
    )


@given(anything, anything)
def test_strategy_factories_build_or_refuse(a: Any, b: Any) -> None:
    outcome(lambda: make_strategy(a, b))
    outcome(lambda: RandomStrategy(a, b))
    outcome(lambda: BotTable(a))
    outcome(lambda: BotTable.uniform(a, b))
    outcome(lambda: task_seed(a, b))
    outcome(lambda: play_task(a, BotTable.uniform("random", 4), 0, 0, False))


@given(anything, anything)
def test_strategies_decide_or_refuse(view: Any, legal: Any) -> None:
    for strategy in (RandomStrategy(1, 0.5), RuleOfThumbStrategy()):
        outcome(lambda: strategy.choose_exposure(view))  # noqa: B023
        outcome(lambda: strategy.choose_play(view, legal))  # noqa: B023


@given(st.one_of(st.binary(max_size=200), st.text(max_size=200)), st.integers(1, 64))
def test_load_of_any_file_reads_or_refuses(content: bytes | str, chunk: int) -> None:
    class Chunked(io.RawIOBase):
        """A file that returns at most ``chunk`` items per read, like a pipe."""

        def __init__(self) -> None:
            self.data = content

        def read(self, size: int = -1) -> Any:  # type: ignore[override]
            size = chunk if size < 0 else min(size, chunk)
            piece, self.data = self.data[:size], self.data[size:]
            return piece

    outcome(lambda: record.load(Chunked()), RecordError)  # type: ignore[arg-type]


def test_load_assembles_a_record_from_small_chunks() -> None:
    text = record.dumps(play_deal(_BOTS, seed=2), names=["安", "Bob", "Cid", "Dee"])
    data = text.encode()

    class Trickle(io.RawIOBase):
        pos = 0

        def readable(self) -> bool:
            return True

        def read(self, size: int = -1) -> bytes:  # type: ignore[override]
            piece = data[self.pos : self.pos + 3]  # splits the UTF-8 of 安
            self.pos += 3
            return piece

    assert record.dumps(record.load(Trickle())) == text  # type: ignore[arg-type]


_START = deal(rules=RuleSet(claims=True), seed=4)
_LEGAL = st.sampled_from([0, 1, 2, 3, "2C", "QS", True, False, (), ("QS",)])
actions = st.one_of(
    st.tuples(st.just(Play), st.fixed_dictionaries({"seat": anything, "card": anything})),
    st.tuples(
        st.just(Exposure),
        st.fixed_dictionaries(
            {"seat": anything, "cards": anything, "face_down": anything, "blind": anything}
        ),
    ),
    st.tuples(st.just(Claim), st.fixed_dictionaries({"seat": st.one_of(_LEGAL, anything)})),
    st.tuples(
        st.just(ClaimResponse),
        st.fixed_dictionaries({"seat": st.one_of(_LEGAL, anything), "accept": anything}),
    ),
    st.tuples(st.none(), garbage),
)


def _action(spec: tuple[Any, Any]) -> Any:
    kind, fields = spec
    return fields if kind is None else kind(**fields)


@given(st.lists(actions, max_size=6))
def test_round_apply_of_any_action_record_applies_or_refuses(items: list[Any]) -> None:
    r = _START
    for spec in items:
        # An action record built from garbage may itself refuse (or not check at all).
        try:
            item = _action(spec)
        except (GongzhuError, TypeError, ValueError):
            continue
        before = r
        result = outcome(lambda: r.apply(item))  # noqa: B023
        if isinstance(result, Round):
            assert result.history[: len(before.history)] == before.history
            r = result
        else:
            assert r == before  # a refused action changes nothing


@given(anything, anything)
def test_round_rollout_completes_or_refuses(strategy: Any, seed: Any) -> None:
    if seed == HUGE:
        seed = -seed
    result = timed(lambda: _START.rollout(strategy, seed=seed), limit=3.0)
    if isinstance(result, Round):
        assert result.is_over


_STAGES = [
    deal(seed=1),
    deal(rules=RuleSet(claims=True), seed=2),
    deal(rules=RuleSet(exposure_order="in-turn"), seed=3),
    play_deal(_BOTS, seed=4),
]


@given(st.sampled_from(_STAGES), anything)
def test_the_exposure_decisions_and_claim_checks_answer_or_refuse(start: Round, seat: Any) -> None:
    # RULES.md §9.1 and §9.7 entry points of the engine: pass_exposure, can_claim.
    result = outcome(start.pass_exposure)
    if isinstance(result, Round):
        # Every seat still to decide declines: one empty exposure each, nothing else.
        assert result.exposure_pending == ()
        added = result.history[len(start.history) :]
        assert len(added) == (0 if result is start else start.players - len(start.exposure_decided))
        assert all(isinstance(a, Exposure) and not a.cards for a in added)
    answer = outcome(lambda: start.can_claim(seat))
    assert isinstance(answer, (bool, GongzhuError))
    assert isinstance(start.exposure_pending, tuple)
