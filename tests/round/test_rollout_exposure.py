"""Round.rollout's exposure window: one seat at a time, in the core's order, as the turn
driver (gongzhu.ai.driver) would have it decide.

Who decides next is the round's own rule (``exposure_pending``): under in-turn order the
next seat from the leader, who sees the earlier exposures; under simultaneous order every
undecided seat from the leader, sealed. A seat without a strategy declines. The round the
rollout reaches is the one the driver reaches with the same strategies.
"""

from __future__ import annotations

import pytest

from gongzhu import CardSet, PlayerView, Round, RuleSet, deal
from gongzhu.ai.driver import decide_exposures
from gongzhu.ai.strategies import RuleOfThumbStrategy


class _Recorder:
    """Exposes every exposable card it holds and notes what it saw when asked."""

    def __init__(self, log: list[tuple[int, CardSet]]) -> None:
        self.log = log

    def choose_exposure(self, view: PlayerView) -> CardSet:
        seen = CardSet()
        for cards in view.exposures:
            seen |= cards
        self.log.append((view.seat, seen))
        return view.hand & view.rules.exposable

    def choose_play(self, view: PlayerView, legal: CardSet) -> object:
        return legal[0]


def _exposed_by_rollout(start: Round, strategies: list[object]) -> Round:
    end = start.rollout(strategies)
    assert end.is_over
    return end


@pytest.mark.parametrize("order", ["in-turn", "simultaneous"])
@pytest.mark.parametrize("seed", range(6))
def test_the_seats_are_asked_from_the_leader_and_see_what_the_order_shows(
    order: str, seed: int
) -> None:
    start = deal(rules=RuleSet(exposure_order=order), seed=seed)
    log: list[tuple[int, CardSet]] = []
    end = _exposed_by_rollout(start, [_Recorder(log)] * 4)
    assert [seat for seat, _seen in log] == [(start.leader + k) % 4 for k in range(4)]
    shown = CardSet()
    for seat, seen in log:
        # In turn a seat sees the exposures made before it; sealed, none of the others'.
        assert seen == (shown if order == "in-turn" else CardSet())
        shown |= start.hands[seat] & start.rules.exposable
    assert end.exposed == shown


@pytest.mark.parametrize("order", ["in-turn", "simultaneous"])
def test_a_seat_without_a_strategy_declines_and_the_others_still_decide(order: str) -> None:
    start = deal(rules=RuleSet(exposure_order=order), seed=3)
    log: list[tuple[int, CardSet]] = []
    human = start.leader  # the first seat asked has no strategy
    strategies: list[object] = [_Recorder(log)] * 4
    strategies[human] = None
    end = _exposed_by_rollout(start, strategies)
    assert human not in [seat for seat, _seen in log]
    assert len(log) == 3
    assert not end.exposures[human]


@pytest.mark.parametrize("order", ["in-turn", "simultaneous"])
@pytest.mark.parametrize("seed", range(8))
def test_the_rollout_exposes_as_the_turn_driver_does(order: str, seed: int) -> None:
    start = deal(rules=RuleSet(exposure_order=order), seed=seed)
    bots = [RuleOfThumbStrategy()] * 4
    by_driver = decide_exposures(start, bots)
    by_rollout = start.rollout(bots, seed=1)
    assert (by_rollout.exposed, by_rollout.face_down) == (by_driver.exposed, by_driver.face_down)
    assert by_rollout.history[:4] == by_driver.history
