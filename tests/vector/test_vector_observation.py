"""A batch's observations are the Gymnasium adapter's, row by row, and hide every hidden card.

Each row of ``VectorDeal.observation(seat)`` equals ``round.view(seat).observation()`` of
the same deal, for every seat, at every step of random deals over every option
(exposures face up, face down and blind, pairs, 5 players); and no card held by another
seat (unless exposed face up or shown by a claim) is marked anywhere in it.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_vector_law import batches

from gongzhu import Round
from gongzhu._codec.encoding import observation_size
from gongzhu.testing import rule_sets
from gongzhu.vector import VectorDeal
from gongzhu.vector._tables import unpack

SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))


def card_blocks(p: int) -> list[int]:
    """The offsets of the observation's card-indexed blocks (52 entries each)."""
    starts = [0] + [52 + k * 52 for k in range(2 * p)]
    shown = 52 + 2 * p * 52 + p + p * 4 + 4 + p + p * 16
    return [*starts, shown]


def check_batch(rounds: list[Round], seed: int) -> None:
    batch = VectorDeal.from_rounds(rounds)
    rng = np.random.default_rng(seed)
    p = batch.players
    step = 0
    while True:
        for seat in range(p) if step % 4 == 0 or batch.is_over.all() else ():
            obs = batch.observation(seat)
            assert obs.shape == (len(rounds), observation_size(p))
            assert obs.dtype == np.float32
            for i, rnd in enumerate(rounds):
                expected = rnd.view(seat).observation()
                assert np.array_equal(obs[i], expected), (i, seat)
            # No hidden card: another seat's cards still held, not face up, not shown.
            hands = batch.hands
            public = batch.state.up | batch.state.shown
            hidden = np.bitwise_or.reduce(np.delete(hands, seat, axis=1), axis=1) & ~public
            secret = unpack(hidden)
            for at in card_blocks(p):
                assert not (obs[:, at : at + 52].astype(bool) & secret).any()
        acting = batch.observation()
        for i, rnd in enumerate(rounds):
            if not rnd.is_over:
                assert np.array_equal(acting[i], rnd.view(rnd.to_act).observation())
        if batch.is_over.all():
            break
        actions = batch.random_actions(rng)
        batch.step(actions)
        step += 1
        rounds[:] = [
            r if r.is_over else r.apply(int(a)) for r, a in zip(rounds, actions, strict=True)
        ]


@SETTINGS
@given(batches(rule_sets()), st.integers(0, 2**32))
def test_observations_are_the_views_under_every_option(rounds: list[Round], seed: int) -> None:
    check_batch(rounds, seed)


@SETTINGS
@given(batches(rule_sets(exposure_kind="face-down-up")), st.integers(0, 2**32))
def test_face_down_cards_stay_hidden(rounds: list[Round], seed: int) -> None:
    check_batch(rounds, seed)


@pytest.mark.parametrize("seat", [4, -1, 1.5, True, "1", [0, 4], np.array([0.0, 1.0]), [0]])
def test_a_view_of_no_seat_is_refused_as_the_core_refuses_it(seat: object) -> None:
    from gongzhu import RuleSet
    from gongzhu.errors import IllegalActionError, Reason

    batch = VectorDeal.random(RuleSet(), 2, rng=0)
    with pytest.raises(IllegalActionError) as caught:
        batch.observation(seat)
    assert caught.value.reason is Reason.NO_SUCH_SEAT
    assert str(caught.value).startswith("view refused: no such seat (seat ")
    # A seat that is no int (nor ints) is a TypeError too, as Round.view's: 1.5, True, "1".
    no_int = isinstance(seat, (float, bool, str, np.ndarray))  # the array is of floats
    assert isinstance(caught.value, TypeError) is no_int
    if not isinstance(seat, (list, np.ndarray)):
        with pytest.raises(IllegalActionError) as core:
            batch.round(0).view(seat)  # type: ignore[arg-type]
        assert type(core.value) is type(caught.value)


def test_a_numpy_seat_is_a_seat() -> None:
    from gongzhu import RuleSet

    batch = VectorDeal.random(RuleSet(), 3, rng=0)
    expected = batch.observation(2)
    assert np.array_equal(batch.observation(np.int64(2)), expected)
    assert np.array_equal(batch.observation(np.array([2, 2, 2], np.uint8)), expected)
