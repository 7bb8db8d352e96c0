"""Action ids, masks and observation vectors (issue #13; layouts in docs/agents.rst)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu import (
    PIG,
    Card,
    CardSet,
    IllegalActionError,
    Phase,
    PlayerView,
    Round,
    RuleSet,
    deal,
    protocol,
)
from gongzhu._codec import encoding as _encoding
from gongzhu.adapters import _driver
from gongzhu.testing import finished_rounds, rounds_in_progress


def drive(rnd: Round, data: st.DataObject) -> Round:
    """Play to the end by random legal action ids, checking the driver's laws at every step."""
    while not rnd.is_over:
        seat = _driver.actor(rnd)
        assert seat is not None
        ids = _driver.legal_ids(rnd, seat)
        assert ids, f"no legal id for seat {seat} in {rnd!r}"
        assert ids == sorted(set(ids))
        for other in range(rnd.players):
            if other != seat:
                assert _driver.legal_ids(rnd, other) == []
        if rnd.phase is Phase.PLAY and not rnd.rules.claims:
            assert ids == [c.index for c in rnd.legal_plays]
        if _driver.exposure_pending(rnd, seat):
            assert all(protocol.EXPOSE <= i < protocol.CLAIM for i in ids)
        rnd = _driver.step(rnd, seat, data.draw(st.sampled_from(ids)))
    return rnd


@settings(max_examples=20)
@given(st.data(), st.integers(0, 2**32))
def test_every_seat_decides_on_exposure_before_the_first_lead(
    data: st.DataObject, seed: int
) -> None:
    rules = data.draw(st.sampled_from([RuleSet(), RuleSet(exposure_order="in-turn"),
                                       RuleSet(claims=True), RuleSet(exposable="")]))  # fmt: skip
    start = deal(rules=rules, seed=seed)
    end = drive(start, data)
    # The first action after exposure: a play, or a claim (accepted, it can end the deal
    # before any card is played).
    first_play = next(k for k, a in enumerate(end.history) if type(a).__name__ != "Exposure")
    decided = {a.seat for a in end.history[:first_play] if type(a).__name__ == "Exposure"}
    assert decided == (set(range(rules.players)) if rules.exposable else set())  # RULES.md §9.1


@given(rounds_in_progress())
def test_an_illegal_id_is_refused_and_changes_nothing(rnd: Round) -> None:
    seat = _driver.actor(rnd)
    if seat is None:
        return
    legal = set(_driver.legal_ids(rnd, seat))
    for i in range(protocol.NUM_ACTIONS):
        if i not in legal:
            with pytest.raises(IllegalActionError):
                _driver.step(rnd, seat, i)


@pytest.mark.parametrize("i", range(protocol.NUM_ACTIONS))
def test_action_for_and_action_id_are_inverse(i: int) -> None:
    if i == protocol.EXPOSE_FACE_DOWN:  # a face-down decline is no action
        with pytest.raises(IllegalActionError):
            protocol.action_id(protocol.action_for(i, seat=0))
        return
    assert protocol.action_id(protocol.action_for(i, seat=2)) == i
    assert protocol.describe_action(i)


def test_ids_out_of_range_are_refused() -> None:
    for bad in (-1, protocol.NUM_ACTIONS, True, 1.0):
        with pytest.raises(IllegalActionError):
            protocol.action_for(bad, seat=0)  # type: ignore[arg-type]


def test_exposure_subsets_follow_the_documented_bit_order() -> None:
    assert [c.code for c in protocol.EXPOSABLE_ORDER] == ["TC", "JD", "AH", "QS"]
    assert protocol.action_for(protocol.EXPOSE + 0b1000, seat=1).cards == CardSet([PIG])
    assert protocol.describe_action(protocol.EXPOSE + 0b1001) == "expose TC QS"
    assert protocol.describe_action(protocol.EXPOSE_FACE_DOWN + 1) == "expose face down TC"


@given(rounds_in_progress())
def test_observations_have_the_documented_size_and_depend_on_the_view_alone(rnd: Round) -> None:
    pytest.importorskip("numpy")
    n = rnd.players
    for seat in range(n):
        view = rnd.view(seat)
        obs = view.observation()
        assert obs.shape == (protocol.observation_size(n),)
        assert obs.dtype.name == "float32"
        info = view.information_state()
        assert info.shape == (protocol.information_state_size(n),)
        assert (info[: len(obs)] == obs).all()
        again = PlayerView.from_dict(view.to_dict())
        assert (again.observation() == obs).all()
        assert (
            obs[:52] == [1.0 if Card.from_index(i) in view.hand else 0.0 for i in range(52)]
        ).all()
        assert abs(obs).max() <= 64


def test_without_numpy_vectors_are_tuples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_encoding, "_NUMPY", [None])
    view = deal(seed=1).view(0)
    obs, mask = view.observation(), view.action_mask()
    assert isinstance(obs, tuple)
    assert len(obs) == protocol.observation_size(4)
    assert isinstance(mask, tuple)
    assert [i for i, m in enumerate(mask) if m] == view.legal_actions()


@given(finished_rounds())
def test_a_seat_known_void_in_a_suit_never_plays_it_later(rnd: Round) -> None:
    tricks = rnd.tricks
    for t in range(1, len(tricks)):
        voids: list[set[object]] = [set() for _ in range(rnd.players)]
        for trick in tricks[:t]:
            for s, c in zip(trick.seats, trick.cards, strict=True):
                if c.suit is not trick.led_suit:
                    voids[s].add(trick.led_suit)
        for s, c in zip(tricks[t].seats, tricks[t].cards, strict=True):
            assert c.suit not in voids[s]
    view = rnd.view(0)
    assert [set(v) for v in view.known_voids] == [
        {tr.led_suit for tr in tricks for s2, c in zip(tr.seats, tr.cards, strict=True)
         if s2 == s and c.suit is not tr.led_suit}
        for s in range(rnd.players)
    ]  # fmt: skip
