"""What a caller gives the batched engine: typed refusals in the library's words, preset
names for rule sets, NumPy integers for ints, and a bounded batch size refused before
anything is allocated; and the public record of arrays a batch is."""

from __future__ import annotations

import tracemalloc

import attrs
import numpy as np
import pytest

from gongzhu import RuleSet, deal
from gongzhu.errors import (
    ActionTypeError,
    ArgumentTypeError,
    DealError,
    DealTypeError,
    GongzhuError,
    IllegalActionError,
    ProtocolError,
    ProtocolTypeError,
    Reason,
    RuleSetError,
)
from gongzhu.vector import MAX_DEALS, VectorDeal, VectorState, rule_of_thumb


def test_a_preset_name_is_taken_wherever_a_rule_set_is() -> None:
    online = RuleSet.preset("online")
    assert VectorDeal.random("online", 3, rng=1).rules == online
    assert VectorDeal.deal("online", [1, 2]).rules == online
    assert VectorDeal("online", 2).rules == online
    named = VectorDeal.deal("online", [7]).round(0)
    assert named == deal(rules=online, seed=7).pass_exposure()
    with pytest.raises(RuleSetError, match="unknown preset 'nope'"):
        VectorDeal.random("nope", 3)


@pytest.mark.parametrize("rules", [5, None, b"classic", ["classic"]])
def test_rules_of_the_wrong_type_are_a_type_error(rules: object) -> None:
    with pytest.raises(DealTypeError, match="rules must be a RuleSet or a preset name") as caught:
        VectorDeal.random(rules, 3)  # type: ignore[arg-type]
    assert isinstance(caught.value, TypeError)
    assert isinstance(caught.value, ArgumentTypeError)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: VectorDeal.deal("classic", ["\ud800"]), DealError, "lone surrogate"),
        (lambda: VectorDeal.deal("classic", [None]), DealTypeError, "seed 0 is required"),
        (lambda: VectorDeal.deal("classic", [1.5]), DealTypeError, "seed 0 must be an int or"),
        (lambda: VectorDeal.deal("classic", [10**80]), DealError, "at most 80 digits"),
        (lambda: VectorDeal.deal("classic", 5), DealTypeError, "seeds must be an iterable"),
        (lambda: VectorDeal.deal("classic", [1], dealer=4), DealError, "dealer must be a seat"),
        (lambda: VectorDeal.deal("classic", [1], dealer=0.5), DealTypeError, "dealer must be"),
        (lambda: VectorDeal.random("classic", 3, rng=-1), DealError, "must be >= 0"),
        (lambda: VectorDeal.random("classic", 3, rng=1.5), DealTypeError, "rng"),
        (lambda: VectorDeal.random("classic", 3, rng="x"), DealTypeError, "rng"),
        (lambda: VectorDeal.random("classic", 3, rng=10**90), DealError, "80 digits"),
        (lambda: VectorDeal.random("classic", -1), DealError, "size must be 0-"),
        (lambda: VectorDeal.random("classic", 2.5), DealTypeError, "size must be an int"),
        (lambda: VectorDeal.random("classic", True), DealTypeError, "size must be an int"),
        (lambda: VectorDeal("classic", -1), DealError, "size must be 0-"),
        (lambda: VectorDeal("classic", 2.5), DealTypeError, "size must be an int"),
    ],
)
def test_bad_arguments_are_refused_typed(call: object, error: type, words: str) -> None:
    with pytest.raises(error, match=words) as caught:
        call()  # type: ignore[operator]
    assert isinstance(caught.value, GongzhuError)


def test_a_deal_number_outside_the_batch_is_refused() -> None:
    batch = VectorDeal.deal("classic", [1, 2, 3])
    with pytest.raises(DealError, match=r"no deal -1 in a batch of 3 \(deals are 0-2\)"):
        batch.round(-1)  # not Python's last element
    with pytest.raises(DealError, match="no deal 3"):
        batch.round(3)
    with pytest.raises(DealTypeError, match=r"must be an int, got 1\.5"):
        batch.round(1.5)  # type: ignore[arg-type]
    assert batch.round(np.int64(2)) == batch.round(2)  # type: ignore[arg-type]


def test_numpy_integers_are_taken_where_ints_are() -> None:
    a = VectorDeal.random("classic", np.int64(4), rng=np.uint32(9))  # type: ignore[arg-type]
    b = VectorDeal.random("classic", 4, rng=9)
    assert len(a) == 4
    assert (a.hands == b.hands).all()
    c = VectorDeal.deal("classic", [np.int64(5), 6], dealer=np.int8(2))  # type: ignore[list-item,arg-type]
    assert c.round(0) == deal(seed=5, dealer=2).pass_exposure()
    assert VectorDeal("classic", np.uint16(3)).state.size == 3  # type: ignore[arg-type]


def test_a_batch_past_the_maximum_is_refused_before_anything_is_allocated() -> None:
    tracemalloc.start()
    try:
        for size in (10**8, MAX_DEALS + 1):
            with pytest.raises(DealError, match=f"size must be 0-{MAX_DEALS} deals"):
                VectorDeal.random("classic", size)
        with pytest.raises(DealError, match="the number of seeds must be 0-"):
            VectorDeal.deal("classic", range(10**9))  # counted, not listed
        with pytest.raises(DealError, match="the number of seeds must be 0-"):
            VectorDeal.deal("classic", iter(range(10**9)))  # listed up to the maximum only
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20  # the seeds' list above holds MAX_DEALS + 1 small ints at most


def test_ids_that_are_no_card_are_an_invalid_choice() -> None:
    # Not the integer lane's exposure ids: a batch has no exposure to decide.
    batch = VectorDeal.random(RuleSet(exposable=""), 2, rng=3)
    for bad in (52, 99, 136, 200, -1, 2**40):
        with pytest.raises(IllegalActionError, match="no card id") as caught:
            batch.step(np.array([bad, bad]))
        assert caught.value.reason is Reason.INVALID_CHOICE
        assert "deal 0 of the batch" in str(caught.value)
    huge = np.array([2**64 - 1, 2**64 - 1], np.uint64)
    with pytest.raises(IllegalActionError, match=r"no card id 18446744073709551615 \(card ids"):
        batch.step(huge)
    assert (batch.state.nplays == 0).all()  # nothing changed


def test_replace_and_random_play_check_their_arguments() -> None:
    batch = VectorDeal.random("classic", 3, rng=0)
    with pytest.raises(GongzhuError, match=r"where must be \(3,\) booleans"):
        batch.replace(np.ones(5, bool), np.random.default_rng(0))
    with pytest.raises(DealTypeError):
        batch.playout("seed")  # type: ignore[arg-type]
    batch.playout(7)  # a seed is taken where a generator is
    assert batch.is_over.all()


def test_the_batch_is_a_public_record_of_arrays() -> None:
    batch = VectorDeal.deal("classic", range(5))
    state = batch.state
    assert isinstance(state, VectorState)
    names = {f.name for f in attrs.fields(VectorState)}
    assert not any(name.startswith("_") for name in names)
    assert {"dealt", "captured", "played", "to_act", "is_over", "trick", "plays"} <= names
    assert state.dealt.shape == (5, 4)
    assert state.trick.shape == (4, 5)
    # The facade's vocabulary reads the record: to_act, is_over, legal_mask(), totals().
    assert (batch.to_act == state.to_act).all()
    assert batch.to_act is not state.to_act
    assert not batch.is_over.any()
    rng = np.random.default_rng(1)
    while not batch.is_over.all():
        batch.step(batch.random_actions(rng))
    assert state.is_over.all()
    assert (batch.totals().sum(axis=1) != 0).any()
    assert batch.legal_mask().shape == (5, 52)
    assert not batch.legal_mask().any()
    assert batch.nbytes == state.nbytes > 0


def test_the_rule_of_thumb_takes_the_record_as_well_as_the_batch() -> None:
    batch = VectorDeal.deal(RuleSet(exposable=""), range(6))
    assert (rule_of_thumb(batch.state) == rule_of_thumb(batch)).all()


def test_rounds_past_the_maximum_are_refused_before_a_batch_is_allocated() -> None:
    rnd = deal(rules=RuleSet(exposable=""), seed=1)
    with pytest.raises(DealError, match="the number of rounds must be 0-"):
        VectorDeal.from_rounds([rnd] * (MAX_DEALS + 1))
    with pytest.raises(DealError, match="the number of rounds must be 0-"):
        VectorDeal.from_rounds(rnd for _ in range(MAX_DEALS + 2))


@pytest.mark.parametrize(
    "call",
    [
        lambda b: b.step("x"),
        lambda b: b.step(np.array([1.0, 2.0])),
        lambda b: b.step([None, None]),
        lambda b: b.step(np.array([1, 2]), where=np.array([1, 0])),
        lambda b: b.replace(np.array([1, 0])),
    ],
    ids=["step(text)", "step(floats)", "step([None])", "where=ints", "replace(ints)"],
)
def test_actions_and_rows_of_the_wrong_type_are_a_protocol_type_error(call: object) -> None:
    batch = VectorDeal.random("classic", 2, rng=0)
    with pytest.raises(ProtocolTypeError) as caught:
        call(batch)  # type: ignore[operator]
    assert isinstance(caught.value, TypeError)
    assert isinstance(caught.value, ProtocolError)  # an `except ProtocolError` still catches it
    assert (batch.state.nplays == 0).all()


@pytest.mark.parametrize(
    "call",
    [
        lambda b: b.step(np.array([1, 2, 3])),
        lambda b: b.step(np.array([0, 2**70], dtype=object)),  # ints past NumPy's: a value
        lambda b: b.step([]),
        lambda b: b.step(np.array([1, 2]), where=np.ones(3, bool)),
        lambda b: b.replace(np.ones(3, bool)),
    ],
    ids=["step(3 ids)", "step(huge ints)", "step([])", "where of 3", "replace(3 rows)"],
)
def test_actions_and_rows_of_the_wrong_shape_are_a_protocol_error_only(call: object) -> None:
    batch = VectorDeal.random("classic", 2, rng=0)
    with pytest.raises(ProtocolError) as caught:
        call(batch)  # type: ignore[operator]
    assert not isinstance(caught.value, TypeError)


def test_an_observation_of_a_seat_that_is_no_int_is_a_type_error() -> None:
    batch = VectorDeal.random("classic", 2, rng=0)
    with pytest.raises(ActionTypeError) as caught:
        batch.observation(1.5)
    assert caught.value.reason is Reason.NO_SUCH_SEAT
    assert isinstance(caught.value, TypeError)
    with pytest.raises(IllegalActionError) as out_of_range:
        batch.observation(4)
    assert not isinstance(out_of_range.value, TypeError)

