"""The public world sampler (issue #28 item 3): worlds agree with the view they came from."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu import CardSet, Phase, Round, deal
from gongzhu.ai._determinize import Worlds as _Sampler
from gongzhu.ai.worlds import World, Worlds
from gongzhu.bots import RuleOfThumbStrategy
from gongzhu.errors import SimulationError
from gongzhu.testing import rounds_in_progress


@settings(max_examples=80, deadline=None)
@given(rounds_in_progress(), st.integers(0, 4), st.integers(0, 2**32))
def test_a_rebuilt_world_shows_the_seat_its_own_view(rnd: Round, seat: int, seed: int) -> None:
    seat %= rnd.players
    view = rnd.view(seat)
    worlds = Worlds(view)
    world = worlds.sample(seed)
    assert world.hands[seat] == view.hand
    assert [len(h) for h in world.hands] == list(view.hand_sizes)
    for s, hand in enumerate(world.hands):
        assert view.exposures[s] - view.played <= hand  # exposed cards stay with their holder
        assert not any(c.suit in view.known_voids[s] for c in hand)
    if view.phase is Phase.PLAY and not view.shown:
        board = worlds.board(world)
        try:
            rebuilt = worlds.round(world)
        except SimulationError as exc:  # a fact of a past play the sampler does not draw
            message = str(exc)
            assert message.startswith("this world cannot replay the view's plays")
            return
        assert rebuilt.view(seat) == view
        assert rebuilt.hands == world.hands
        assert board.to_round() == rebuilt
        ahead = board.copy()
        assert ahead.rollout(seed=seed) == rebuilt.rollout(seed=seed).score().totals
        assert ahead.to_round() == rebuilt.rollout(seed=seed)


@settings(max_examples=40, deadline=None)
@given(rounds_in_progress(), st.integers(0, 2**32))
def test_in_the_exposure_phase_a_world_keeps_the_decisions_the_view_shows(
    rnd: Round, seed: int
) -> None:
    if rnd.phase is not Phase.EXPOSURE:
        return
    seat = rnd.exposure_pending[0]  # a seat about to decide: what a bot sees
    view = rnd.view(seat)
    worlds = Worlds(view)
    rebuilt = worlds.round(worlds.sample(seed))
    assert rebuilt.view(seat) == view
    with pytest.raises(SimulationError, match="card play"):
        worlds.board(worlds.sample(seed))


@settings(max_examples=40, deadline=None)
@given(rounds_in_progress(), st.integers(0, 2**32))
def test_the_public_sampler_is_the_bots_sampler(rnd: Round, seed: int) -> None:
    view = rnd.view(0)
    private = _Sampler(view)
    hands, facedown = private.sample(random.Random(seed))
    world = Worlds(view).sample(random.Random(seed))
    assert [h.mask for h in world.hands] == hands
    assert world.face_down.mask == facedown
    assert Worlds(view).weight(world, 0.5) == private.weight(hands, facedown, 0.5)


def test_samples_are_reproducible_and_cover_the_unseen_cards() -> None:
    r = deal(seed=3).pass_exposure()
    r = r.apply(r.legal_actions()[0])
    view = r.view(r.to_act)
    worlds = Worlds(view)
    a = list(worlds.samples(30, seed=5))
    assert a == list(worlds.samples(30, seed=5))
    assert len(set(a)) == 30  # a huge space: no two alike
    held = set()
    for world in a:
        for s, hand in enumerate(world.hands):
            if s != view.seat:
                held |= {(s, c) for c in hand}
    unseen = view.unseen()
    assert {c for _s, c in held} == set(unseen)  # every unseen card turns up somewhere


def test_a_world_plays_on_to_the_bots_own_result() -> None:
    r = deal(seed=9).pass_exposure()
    view = r.view(r.to_act)
    worlds = Worlds(view)
    world = World(tuple(r.hands))  # the true deal is one of the worlds
    rebuilt = worlds.round(world)
    assert rebuilt.view(view.seat) == view
    assert rebuilt.hands == r.hands
    assert rebuilt.exposures == r.exposures
    board = worlds.board(world)
    board.rollout(policy="rule-of-thumb")
    end = r.rollout(RuleOfThumbStrategy())
    assert board.to_round().tricks == end.tricks
    assert board.totals() == end.score().totals


def test_refusals_are_typed() -> None:
    view = deal(seed=1).view(0)
    worlds = Worlds(view)
    with pytest.raises(SimulationError, match="PlayerView"):
        Worlds("view")  # type: ignore[arg-type]
    with pytest.raises(SimulationError, match=r"random\.Random or an int"):
        worlds.sample("seed")  # type: ignore[arg-type]
    with pytest.raises(SimulationError, match="does not hold the cards"):
        worlds.round(World(tuple(deal(seed=2).hands)))
    with pytest.raises(SimulationError, match="beta"):
        worlds.weight(worlds.sample(1), beta=2)


@pytest.mark.parametrize("order", ["in-turn", "simultaneous"])
@pytest.mark.parametrize("seed", range(4))
def test_a_seat_about_to_expose_sees_its_own_view_in_every_world(order: str, seed: int) -> None:
    from gongzhu import RuleSet

    rnd = deal(rules=RuleSet(exposure_order=order), seed=seed)
    bots = RuleOfThumbStrategy()
    for _ in range(2):  # two seats decide (the rule-of-thumb exposes the odd card)
        seat = rnd.exposure_pending[0]
        rnd = rnd.expose(bots.choose_exposure(rnd.view(seat)) or rnd.hands[seat] & "QS", seat=seat)
    seat = rnd.exposure_pending[0]
    view = rnd.view(seat)
    for world in Worlds(view).samples(5, seed=seed):
        assert Worlds(view).round(world).view(seat) == view


def test_a_board_from_a_view_checks_the_hands_it_is_given() -> None:
    from gongzhu import Board, IllegalActionError

    r = deal(seed=4).pass_exposure()
    r = r.apply(r.legal_actions()[0])
    view = r.view(r.to_act)
    board = Board.from_view(view, r.hands)  # the true deal
    assert board.legal_actions() == r.legal_actions()
    assert board.to_round().view(view.seat) == view
    swapped = list(r.hands)
    swapped[view.seat], swapped[(view.seat + 1) % 4] = (
        swapped[(view.seat + 1) % 4],
        swapped[view.seat],
    )
    with pytest.raises(IllegalActionError, match=r"overlaps|own hand|wrong size"):
        Board.from_view(view, swapped)
    with pytest.raises(IllegalActionError, match="4 CardSets"):
        Board.from_view(view, r.hands[:3])
    with pytest.raises(IllegalActionError, match="card play"):
        Board.from_view(deal(seed=4).view(0), deal(seed=4).hands)


def test_cards_known_beyond_the_view_stay_with_their_holder() -> None:
    # A table that saw who claimed knows the claimer's hand; the view keeps only the union.
    r = deal(seed=6).pass_exposure()
    view = r.view(0)
    extra = {2: CardSet(list(r.hands[2])[:5])}
    worlds = Worlds(view, known=extra)
    assert worlds.count < Worlds(view).count
    for world in worlds.samples(20, seed=1):
        assert extra[2] <= world.hands[2]
    with pytest.raises(SimulationError, match="no deal fits"):
        Worlds(view, known={1: r.hands[0]})  # seat 0's own cards cannot be seat 1's
    with pytest.raises(SimulationError, match="known maps seats"):
        Worlds(view, known={7: CardSet()})
