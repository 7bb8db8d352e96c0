"""One seed check (gongzhu._base.seeds): one limit and one message wherever a seed is taken.

Every function that takes a seed accepts the same seeds (None, an int of at most 80
digits, text of at most 1000 characters of valid Unicode where text is allowed) and
refuses the rest with its own error class, in the same words. Seeds of ±2**64 deal as
before (the golden tests hold the records); the larger ones deal differently from each
other and from every older seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gongzhu import (
    Board,
    DealError,
    GongzhuError,
    IllegalActionError,
    RandomStrategy,
    RecordError,
    SearchStrategy,
    SimulationError,
    deal,
    record,
)
from gongzhu._base.seeds import SEED_INT_LIMIT, check_seed
from gongzhu.ai.greedy import GreedyError, GreedyStrategy
from gongzhu.ai.search import LimitError
from gongzhu.ai.strategies import play_match
from gongzhu.round._deal import _generator_seed

TEXT_OK = [None, 0, -1, 2**64, -(2**64), SEED_INT_LIMIT - 1, -SEED_INT_LIMIT + 1, "x" * 1000, "é"]
TEXT_BAD = [SEED_INT_LIMIT, -SEED_INT_LIMIT, 10**5000, "x" * 1001, "\ud800", True, 1.5, b"1"]


def _round() -> Any:
    return deal(seed=3).pass_exposure()


# Every validator of the library: (name, call with a seed, its error class, text allowed).
VALIDATORS: list[tuple[str, Callable[[Any], object], type[Exception], bool]] = [
    ("deal", lambda s: deal(seed=s), DealError, True),
    ("RandomStrategy", lambda s: RandomStrategy(seed=s), SimulationError, True),
    ("GreedyStrategy", lambda s: GreedyStrategy(seed=s), GreedyError, True),
    ("SearchStrategy", lambda s: SearchStrategy(seed=s), LimitError, True),
    ("Board.rollout", lambda s: Board(_round()).rollout(seed=s), IllegalActionError, False),
    ("Round.rollout", lambda s: _round().rollout(seed=s), IllegalActionError, False),
]


@pytest.mark.parametrize(
    ("name", "call", "error", "text"), VALIDATORS, ids=[v[0] for v in VALIDATORS]
)
def test_every_validator_takes_the_same_seeds(
    name: str, call: Callable[[Any], object], error: type[Exception], text: bool
) -> None:
    for seed in TEXT_OK:
        if isinstance(seed, str) and not text:
            continue
        call(seed)
    for seed in TEXT_BAD if text else [*TEXT_BAD, "7"]:
        with pytest.raises(error, match="seed") as info:
            call(seed)
        assert isinstance(info.value, GongzhuError)


def test_a_refusal_reads_the_same_everywhere() -> None:
    messages = set()
    for _name, call, error, _text in VALIDATORS:
        with pytest.raises(error) as info:
            call(10**80)
        messages.add(
            str(info.value).split(": ")[-1] if error is IllegalActionError else str(info.value)
        )
    assert any("between -10**80 and 10**80" in m for m in messages)
    for m in messages:
        assert "10**80" in m


def test_a_match_and_a_record_share_the_limit() -> None:
    with pytest.raises(SimulationError, match="80 digits"):
        play_match([RandomStrategy()] * 4, seed=10**80)
    text = record.dumps(deal(seed=10**80 - 1))
    assert record.loads(text).rounds[0].seed == 10**80 - 1
    with pytest.raises(RecordError, match="10\\*\\*80"):
        record.loads(text.replace(str(10**80 - 1), str(10**80)))


def test_check_seed_options() -> None:
    check_seed(None, error=ValueError)
    with pytest.raises(ValueError, match="rollout seed is required"):
        check_seed(None, error=ValueError, none=False, what="rollout seed")
    with pytest.raises(ValueError, match="seed must be an int, got str"):
        check_seed("7", error=ValueError, text=False)


def test_old_seeds_keep_their_generator_seed_and_no_two_seeds_meet() -> None:
    # Unchanged for -2**64..2**64: the deals (and the golden records) stay as they were.
    for seed in (0, 1, 2**64, -1, -(2**64)):
        assert _generator_seed(seed) == (seed if seed >= 0 else 2 * 2**64 + 1 - seed)
    edges = [0, 1, 2**64, 2**64 + 1, 2**65, 2**65 + 1, 2**65 + 2, 3 * 2**64, 2**66, 2**67]
    edges += [SEED_INT_LIMIT - 1, SEED_INT_LIMIT // 2]
    seeds = {s for e in edges for s in (e, -e) if abs(s) < SEED_INT_LIMIT}
    images = {_generator_seed(s) for s in seeds}
    assert len(images) == len(seeds)
    assert all(isinstance(i, int) and i >= 0 for i in images)
    assert deal(seed=2**64 + 1).hands != deal(seed=-(2**64 + 1)).hands
