"""The one turn driver (issue #28 item 6): who decides next, and what a strategy decides."""

from __future__ import annotations

import pytest

from gongzhu import ClaimResponse, Exposure, Phase, Play, RuleSet, deal
from gongzhu.actions import Action
from gongzhu.ai.driver import awaiting, decide, decide_exposures, play_out, team_of
from gongzhu.bots import RandomStrategy, RuleOfThumbStrategy, play_deal
from gongzhu.errors import SimulationError
from gongzhu.round import Round

IN_TURN = RuleSet(exposure_order="in-turn")


def test_awaiting_follows_the_rule_sets_exposure_order_then_the_play() -> None:
    r = deal(seed=7)
    assert awaiting(r) == r.exposure_pending == tuple((r.leader + k) % 4 for k in range(4))
    t = deal(rules=IN_TURN, seed=7)
    assert awaiting(t) == (t.leader,)
    t = t.expose("", seat=t.leader)
    assert awaiting(t) == ((t.leader + 1) % 4,)
    p = r.pass_exposure()
    assert awaiting(p) == (p.to_act,)
    assert awaiting(play_out(p, [RuleOfThumbStrategy()] * 4)) == ()


def test_a_seat_that_owes_nothing_is_refused() -> None:
    r = deal(seed=3).pass_exposure()
    idle = (r.to_act + 1) % 4
    with pytest.raises(SimulationError, match=f"seat {idle} has no decision"):
        decide(r, idle, RuleOfThumbStrategy())
    assert decide(r, r.to_act, RuleOfThumbStrategy()) == Play(
        r.to_act, RuleOfThumbStrategy().choose_play(r.view(r.to_act), r.legal_plays)
    )


def test_seats_without_a_strategy_stay_undecided() -> None:
    r = deal(seed=2)
    human = 1
    bots = [None if s == human else RandomStrategy(s, expose_probability=1.0) for s in range(4)]
    after = decide_exposures(r, bots)
    assert after.exposure_pending == (human,)
    assert after.phase is Phase.EXPOSURE
    assert isinstance(decide(after, human, RandomStrategy(9)), Exposure)
    with pytest.raises(SimulationError, match="need 4 strategies"):
        decide_exposures(r, bots[:3])


@pytest.mark.parametrize("seed", range(4))
def test_sealed_or_one_at_a_time_the_choices_are_the_same(seed: int) -> None:
    r = deal(seed=seed)
    bots = [RandomStrategy(s, expose_probability=0.5) for s in range(4)]
    sealed = decide_exposures(r, bots)
    bots = [RandomStrategy(s, expose_probability=0.5) for s in range(4)]
    in_order = decide_exposures(r, bots, sealed=False)
    assert sealed == in_order  # sealed views: the same decisions, recorded alike
    assert [a.seat for a in sealed.history] == [(r.leader + k) % 4 for k in range(4)]


def test_play_out_is_play_deal_and_shows_every_action() -> None:
    seen: list[tuple[Round, Action, float]] = []
    bots = [RuleOfThumbStrategy()] * 4
    end = play_out(deal(seed=5), bots, lambda rnd, a, s: seen.append((rnd, a, s)))
    assert end == play_deal(bots, seed=5)
    assert [a for _r, a, _s in seen] == list(end.history)
    assert all(seconds >= 0 for _r, _a, seconds in seen)
    assert all(r.apply(a) is not None for r, a, _s in seen)  # each seen before it was applied
    assert sum(isinstance(a, Play) for _r, a, _s in seen) == 52


class _Refuser(RuleOfThumbStrategy):
    def accept_claim(self, view: object) -> bool:
        return False


def test_a_claim_is_answered_by_accept_claim_or_accepted() -> None:
    rules = RuleSet(claims=True)
    r = deal(rules=rules, seed=1).pass_exposure()
    r = r.claim()
    claimer = r.claim_pending[0]  # type: ignore[index]
    first = awaiting(r)[0]
    assert first == (claimer + 1) % 4
    assert decide(r, first, RuleOfThumbStrategy()) == ClaimResponse(first, True)
    assert decide(r, first, _Refuser()) == ClaimResponse(first, False)
    end = play_out(r, [_Refuser()] * 4)
    assert end.is_over


def test_team_of_is_the_seat_alone_or_its_pair() -> None:
    assert [team_of(RuleSet(), s) for s in range(4)] == [(0,), (1,), (2,), (3,)]
    pairs = RuleSet(partnerships=True)
    assert [team_of(pairs, s) for s in range(4)] == [(0, 2), (1, 3), (0, 2), (1, 3)]
