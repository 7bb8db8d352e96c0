"""The endgame solver (``gongzhu._core.solver``): equal to brute force on small positions."""

from __future__ import annotations

import random

import pytest

from gongzhu import Phase, Round, RuleSet, deal
from gongzhu._core.board import Board, of_state
from gongzhu._core.rules import card_classes
from gongzhu._core.solver import INF, Solver
from gongzhu.bots import RuleOfThumbStrategy

RULES = [
    RuleSet(exposable=""),
    RuleSet(pig_with_all_hearts="unchanged", exposable=""),
    RuleSet.preset("classic"),
    RuleSet.preset("taiwan"),
    RuleSet.preset("catch-the-pig"),
    RuleSet(players=5),
    RuleSet(partnerships=True),
    RuleSet(queen_of_diamonds_bonus=20),
]


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def _objective(b: Board, mine: tuple[int, ...]) -> int:
    n = b.cfg.n
    t = b.totals()
    return sum(t[s] * (n - len(mine)) if s in mine else -t[s] * len(mine) for s in range(n))


def _brute(b: Board, mine: tuple[int, ...]) -> int:
    """Every legal card at every node, no pruning, no merging, no table."""
    if b.is_over():
        return _objective(b, mine)
    values = []
    for c in _cards(b.legal()):
        b.push(c)
        values.append(_brute(b, mine))
        b.pop()
    return max(values) if b.to_act() in mine else min(values)


def _position(rules: RuleSet, left: int, rng: random.Random) -> Round:
    """A position of rule-of-thumb play with about ``left`` cards a hand, mid-trick or not."""
    while True:
        rnd = deal(rules=rules, seed=rng.getrandbits(32))
        if rnd.phase is Phase.EXPOSURE:
            bot = RuleOfThumbStrategy()
            for seat in range(rules.players):
                if seat not in rnd.exposure_decided:
                    rnd = rnd.expose(bot.choose_exposure(rnd.view(seat)), seat=seat)
        n = rules.players
        stop = (rules.hand_size - left) * n + rng.randrange(n)
        bot = RuleOfThumbStrategy()
        for _ in range(stop):
            if rnd.is_over:
                break
            seat = rnd.to_act
            assert seat is not None
            view = rnd.view(seat)
            rnd = rnd.play(bot.choose_play(view, view.legal_plays), seat=seat)
        if not rnd.is_over:
            return rnd


def _team(rules: RuleSet, seat: int) -> tuple[int, ...]:
    return next((t for t in rules.teams if seat in t), (seat,))


@pytest.mark.parametrize("rules", RULES, ids=str)
@pytest.mark.parametrize("left", [1, 2, 3])
def test_the_solver_equals_brute_force(rules: RuleSet, left: int) -> None:
    rng = random.Random(f"{rules}:{left}")
    for _ in range(6):
        rnd = _position(rules, left, rng)
        b = of_state(rnd.engine_state)
        seat = b.to_act()
        mine = _team(rules, seat)
        cards = _cards(b.legal())
        before = (list(b.hands), list(b.capt), list(b.trick), b.leader)
        solver = Solver(b, mine, 10**7)
        got = solver.root(cards)
        assert (list(b.hands), list(b.capt), list(b.trick), b.leader) == before  # restored
        expected = []
        for c in cards:
            b.push(c)
            expected.append(_brute(b, mine))
            b.pop()
        assert got == expected, rnd
        # The searcher's own best is the brute-force best, whoever the searcher is.
        other = (seat + 1) % rules.players
        if other not in mine:
            assert Solver(b, _team(rules, other), 10**7).root(cards) is not None


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_cards_of_one_class_are_worth_the_same_to_every_seat(rules: RuleSet) -> None:
    # The core's one rule of interchangeable cards (used by the search and the solver):
    # every card of a class, played now, leads to the same exact value, whoever searches.
    # The search knows only its own hand, so its "between" is every card not its own and
    # not yet taken; the solver's is every card still held or on the table.
    rng = random.Random(f"classes:{rules}")
    merged = 0
    for _ in range(8):
        b = of_state(_position(rules, 3, rng).engine_state)
        seat = b.to_act()
        legal = b.legal()
        live = 0
        for h in b.hands:
            live |= h
        for c in b.trick:
            live |= 1 << c
        unknown = live & ~b.hands[seat]
        for between in (live, unknown):
            reps = card_classes(b.cfg, legal, b.up, between)
            assert set(reps) <= set(_cards(legal))
            merged += len(_cards(legal)) - len(reps)
            for mine in {_team(rules, seat), _team(rules, (seat + 1) % rules.players)}:
                value = {}
                for c in _cards(legal):
                    b.push(c)
                    value[c] = _brute(b, mine)
                    b.pop()
                for c in _cards(legal):
                    rep = max(r for r in reps if r <= c)
                    assert value[c] == value[rep], (c, rep)
    assert merged > 0


def test_the_solver_merges_equivalent_cards_and_uses_its_table() -> None:
    rng = random.Random(5)
    rules = RuleSet(exposable="")
    merged = 0
    for _ in range(10):
        b = of_state(_position(rules, 4, rng).engine_state)
        solver = Solver(b, (b.to_act(),), 10**7)
        legal = b.legal()
        classes = solver.classes(legal)
        assert set(classes) <= set(_cards(legal))
        merged += len(_cards(legal)) - len(classes)
        assert solver.root(_cards(legal)) is not None
        assert solver.tt
    assert merged > 0


def test_the_solver_stops_at_its_budget() -> None:
    b = of_state(_position(RuleSet(exposable=""), 5, random.Random(2)).engine_state)
    before = list(b.hands)
    solver = Solver(b, (b.to_act(),), 50)
    assert solver.root(_cards(b.legal())) is None
    assert solver.aborted
    assert list(b.hands) == before
    assert solver.search(-INF, INF) == 0  # an aborted solver answers nothing more

