"""The search's mutable deal (gongzhu.ai._sim) and rollout policy agree with the engine.

Law: from any position reached by legal play under any rule set, the
simulation's legal-play mask equals ``Round.legal_plays`` at every step, and a
deal played through both ends with the same scores.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gongzhu import ACE_OF_HEARTS, PIG, SHEEP, Phase, Round, RuleSet
from gongzhu.ai._policy import choose, rollout
from gongzhu.ai._sim import Sim, sim_rules
from gongzhu.rules import ExposureOrder
from gongzhu.testing import deals, rule_sets

THREE = {PIG, SHEEP, ACE_OF_HEARTS}


def decide_all(rnd: Round, choose_cards) -> Round:  # type: ignore[no-untyped-def]
    """Every seat makes its exposure decision (RULES.md §9.1), leader first."""
    if rnd.phase is not Phase.EXPOSURE:
        return rnd
    n = rnd.players
    for k in range(n):
        seat = (rnd.leader + k) % n
        if seat not in rnd.exposure_decided:
            rnd = rnd.expose(choose_cards(rnd, seat), seat=seat)
    return rnd


def sim_of(rnd: Round) -> Sim:
    sim = Sim(sim_rules(rnd.rules), [h.mask for h in rnd.hands], rnd.leader)
    sim.exposed = rnd.exposed.mask
    sim.facedown = rnd.face_down.mask
    sim.blind = rnd.blind.mask
    sim.opening = rnd.must_lead_opening_card
    return sim


@st.composite
def started(draw: st.DrawFn) -> Round:
    rules = draw(rule_sets())
    rnd = draw(deals(rules))

    def pick(r: Round, seat: int):  # type: ignore[no-untyped-def]
        held = [c for c in r.hands[seat] if c in r.rules.exposable and c not in r.exposed]
        return [c for c in held if draw(st.booleans())]

    return decide_all(rnd, pick)


@given(started(), st.randoms(use_true_random=False))
def test_simulation_follows_the_engine_card_by_card(rnd: Round, rng) -> None:  # type: ignore[no-untyped-def]
    sim = sim_of(rnd)
    while not rnd.is_complete:
        assert sim.legal() == rnd.legal_plays.mask
        card = rng.choice(rnd.legal_plays.cards)
        rnd = rnd.play(card)
        sim.play(card.index)
        assert sim.done == rnd.is_complete
    assert sim.totals() == rnd.score().totals


@given(started())
def test_policy_plays_a_legal_card_and_a_rollout_scores_like_the_engine(rnd: Round) -> None:
    sim = sim_of(rnd)
    probe = sim.copy()
    while not rnd.is_complete:
        card = choose(probe)
        assert rnd.legal_plays.mask >> card & 1
        rnd = rnd.play(rnd.legal_plays.cards[[c.index for c in rnd.legal_plays].index(card)])
        probe.play(card)
    assert rollout(sim) == rnd.score().totals == probe.totals()


def test_in_turn_decisions_work_with_an_empty_exposure() -> None:
    rules = RuleSet(exposure_order=ExposureOrder.IN_TURN)
    from gongzhu import deal

    rnd = decide_all(deal(rules, seed=3), lambda r, s: [])
    assert rnd.legal_plays


def test_three_exposed_force_the_fourth_in_the_simulation_too() -> None:
    # Chinese app rules (RULES.md §7): the fourth card is exposed with the first play.
    import random

    from gongzhu import deal

    rules = RuleSet(three_exposed_force_fourth=True)
    checked = 0
    for seed in range(40):
        rnd = deal(rules, seed=seed)
        rnd = decide_all(rnd, lambda r, s: [c for c in r.hands[s] if c in THREE])
        sim = sim_of(rnd)
        rng = random.Random(seed)
        while not rnd.is_complete:
            assert sim.legal() == rnd.legal_plays.mask
            card = rng.choice(rnd.legal_plays.cards)
            rnd, _ = rnd.play(card), sim.play(card.index)
        checked += len(rnd.exposed) == 4
        assert sim.exposed == rnd.exposed.mask
        assert sim.totals() == rnd.score().totals
    assert checked == 40
