"""The search bot: :class:`SearchStrategy`, its :class:`Limit`, and what it finds (an analysis).

Perfect-information Monte Carlo (PIMC) over sampled deals: for each decision
the bot draws deals consistent with its :class:`~gongzhu.PlayerView`
(uniformly, then importance-weighted by how natural the opponents' past plays
look in each; :mod:`gongzhu.ai._determinize`), and in every deal plays each
candidate card followed by a playout of the rest of the deal at every seat
(:mod:`gongzhu._core.playout`: in the team game a learned policy that plays as
the greedy bots do, elsewhere the rule of thumb). The card with the best
weighted mean wins, a deal valued as the seat's (team's) score against the
other seats' mean. Every
candidate is tried in the same deals (common random numbers), so the
comparison is much less noisy than the means themselves. Equivalent cards
(neighbours in a suit with nothing outstanding between them, of equal value)
are searched once.

Exposure is decided the same way: each subset of the exposable cards held
(declining included) is played out over common sampled deals.

With ``Limit(simulations=N)`` and a ``seed`` the bot is deterministic: each
decision's random stream is derived from the seed and the position, not from
the calls before it.

>>> from gongzhu import deal, RuleSet
>>> r = deal(rules=RuleSet(exposable=""), seed=4)
>>> bot = SearchStrategy(Limit(simulations=60), seed=1)
>>> view = r.view(r.to_act)
>>> card = bot.choose_play(view, view.legal_plays)
>>> card in view.legal_plays, card == SearchStrategy(Limit(simulations=60), seed=1).choose_play(
...     view, view.legal_plays)
(True, True)
>>> a = bot.analyse(view, Limit(simulations=60))
>>> a.best.card in view.legal_plays, len(a.moves) == len(view.legal_plays)
(True, True)
"""

from __future__ import annotations

import math
import random
import time
from itertools import combinations

from gongzhu._base.seeds import check_seed
from gongzhu._base.text import brief as _brief
from gongzhu._core.bits import BIT as BITS
from gongzhu._core.playout import playout, playout_values
from gongzhu._core.policy import choose_exposure
from gongzhu._core.solver import INF as SOLVER_INF
from gongzhu._core.solver import Solver
from gongzhu.ai._determinize import WeightedStats, Worlds
from gongzhu.ai._search_config import (
    _NODES_PER_SIMULATION,
    _PRUNE_AFTER,
    _SOLVE_NODES,
    DEFAULT_LIMIT,
    DEFAULT_SOLVE,
    Limit,
    LimitError,
)
from gongzhu.ai._search_moves import (
    _check_decision,
    _classes,
    _decided,
    _held,
    _out_of_time,
    _prune,
    _Value,
)
from gongzhu.ai._search_results import (
    Analysis,
    ExposureAnalysis,
    ExposureValue,
    MoveValue,
    _analysis,
)
from gongzhu.ai.driver import team_of
from gongzhu.cards import Card, CardSet
from gongzhu.cards import unchecked_cardset as _from_mask
from gongzhu.view import PlayerView

__all__ = [
    "Analysis",
    "ExposureAnalysis",
    "ExposureValue",
    "Limit",
    "LimitError",
    "MoveValue",
    "SearchStrategy",
]


class SearchStrategy:
    """A :class:`~gongzhu.Strategy` that searches: PIMC over importance-weighted sampled deals.

    ``limit`` bounds each decision (default :data:`DEFAULT_LIMIT`); ``seed``
    makes it reproducible. ``beta`` is the importance weight of a sampled
    deal per past opponent play the rule-of-thumb policy would not have made
    (1.0 switches weighting off). ``prune=True`` stops searching candidates
    that are clearly worse than the best so far (after 8 deals, by two standard
    errors of their paired difference), spending the rest of the budget on the
    others. ``solve`` is the hand size (cards held) from which every sampled
    deal is solved exactly instead of rolled out (:data:`DEFAULT_SOLVE`; 0
    switches it off). The bot plays for
    itself, or for its team under pairs. It never claims; :meth:`accept_claim`
    answers a claim.
    """

    def __init__(
        self,
        limit: Limit | None = None,
        seed: int | str | None = None,
        *,
        beta: float = 0.6,
        prune: bool = False,
        solve: int = DEFAULT_SOLVE,
    ) -> None:
        if limit is not None and not isinstance(limit, Limit):
            raise LimitError(f"limit must be a Limit, got {type(limit).__name__}")
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not 0 < beta <= 1:
            raise LimitError(f"beta must be in (0, 1], got {_brief(beta)}")
        if not isinstance(prune, bool):
            raise LimitError(f"prune must be True or False, got {_brief(prune)}")
        if isinstance(solve, bool) or not isinstance(solve, int) or not 0 <= solve <= 13:
            raise LimitError(f"solve must be an int 0-13 (cards in hand), got {_brief(solve)}")
        # The decisions' generators are seeded from a text seed's UTF-8.
        check_seed(seed, error=LimitError)
        self.limit = limit or DEFAULT_LIMIT
        self.seed = seed
        self.beta = float(beta)
        self.prune = bool(prune)
        self.solve = solve

    def __repr__(self) -> str:
        return f"SearchStrategy({self.limit!r}, seed={self.seed!r})"

    def _rng(self, view: PlayerView, what: str) -> random.Random:
        plays = ",".join(str(c.index) for t in (*view.tricks, view.current_trick) for c in t.cards)
        return random.Random(
            f"gongzhu-search:{self.seed}:{what}:{view.seat}:{view.hand.mask}:"
            f"{view.exposed.mask}:{plays}"
        )

    # -- play --------------------------------------------------------------------

    def choose_play(self, view: PlayerView, legal: CardSet) -> Card:
        """The legal card with the best expected deal score.

        ``legal`` must be a non-empty :class:`~gongzhu.CardSet` of cards in the
        hand of ``view``'s seat, the seat to act; anything else raises
        :class:`LimitError` at once (issue 22: it used to search forever).
        """
        _check_decision(view, legal)
        cards = legal.cards
        if len(cards) == 1:
            return cards[0]
        return self._search(view, legal.mask, self.limit).best.card

    def analyse(self, view: PlayerView, limit: Limit | None = None) -> Analysis:
        """Every legal card of the seat to act with its expected deal score (against the other
        seats' mean, as the search values a deal), best first.

        The view must be the acting seat's (``view.legal_plays`` non-empty).
        """
        if not isinstance(view, PlayerView):
            raise LimitError(f"analyse needs a PlayerView, got {type(view).__name__}")
        if limit is not None and not isinstance(limit, Limit):
            raise LimitError(f"limit must be a Limit, got {type(limit).__name__}")
        _check_decision(view, view.legal_plays)
        return self._search(view, view.legal_plays.mask, limit or self.limit)

    def _search(self, view: PlayerView, legal: int, limit: Limit) -> Analysis:
        started = time.perf_counter()
        deadline = started + limit.time if limit.time is not None else math.inf
        budget = limit.simulations if limit.simulations is not None else 10**12
        reps = _classes(view, legal)
        worlds = Worlds(view)
        rng = self._rng(view, "play")
        team = team_of(view.rules, view.seat)
        # A card is worth the seat's (team's) deal score against the other seats' mean: the
        # deal's total is not fixed (10♣ doubles what its taker holds, a slam flips hearts),
        # and what a match (or a duplicate pair) counts is the difference. Late in the deal
        # every sampled deal is solved exactly, on the same zero-sum objective.
        solving = 0 < len(view.hand) <= self.solve
        value = _Value(view, relative=True)
        stats = [WeightedStats() for _ in reps]
        results: list[list[float]] = [[] for _ in reps]
        weights: list[float] = []
        active = list(range(len(reps)))
        sims = nworlds = 0
        beta = self.beta
        while True:
            hands, facedown = worlds.sample(rng)
            w = worlds.weight(hands, facedown, beta)
            base = worlds.start(hands, facedown)
            # The first deal is always finished (rolled out if the solver runs out of time);
            # a later one that the clock cuts short is dropped, so every candidate keeps the
            # same deals and the clock is overrun by one rollout at most.
            cutoff = deadline if nworlds else math.inf
            xs: list[float] | None = None
            cost = len(active)
            if solving:
                solver = Solver(base, team, _SOLVE_NODES, deadline)
                exact = solver.root([reps[k] for k in active])
                if exact is not None:
                    xs = [v / solver.km for v in exact]
                    cost = max(cost, solver.nodes // _NODES_PER_SIMULATION)
                elif nworlds and solver.nodes <= _SOLVE_NODES:
                    break  # the clock ran out inside the solver
            if xs is None:
                cards = [reps[k] for k in active]
                xs = playout_values(base, cards, value.mine, value.others, value.ratio, cutoff)
                if len(xs) < len(active):
                    break
            weights.append(w)
            for k, x in zip(active, xs, strict=True):
                stats[k].add(x, w)
                results[k].append(x)
            sims += cost
            nworlds += 1
            if sims >= budget or len(active) == 1:
                break
            if _out_of_time(started, deadline, nworlds):
                break
            if self.prune and nworlds >= _PRUNE_AFTER:
                active = _prune(active, results, weights)
        return _analysis(
            view, legal, reps, stats, nworlds, sims, time.perf_counter() - started, active
        )

    # -- exposure -------------------------------------------------------------------

    def choose_exposure(self, view: PlayerView) -> CardSet:
        """The exposure (possibly none) with the best expected deal score."""
        held = _held(view)
        if not held:
            return CardSet()
        return self.analyse_exposure(view).best.cards

    def analyse_exposure(self, view: PlayerView, limit: Limit | None = None) -> ExposureAnalysis:
        """The expected deal score of each subset of the exposable cards held, and of declining.

        Valued as card play is: the seat's (team's) deal score against the other seats'
        mean, so exposing A♥ counts the hearts it doubles for the others too.
        """
        limit = limit or self.limit
        started = time.perf_counter()
        deadline = started + limit.time if limit.time is not None else math.inf
        held = _held(view)
        cards = [c.mask for c in _from_mask(held)]
        subsets = [0]
        for k in range(1, len(cards) + 1):
            subsets.extend(sum(combo) for combo in combinations(cards, k))
        budget = limit.simulations if limit.simulations is not None else 10**12
        worlds = Worlds(view)
        rng = self._rng(view, "expose")
        value = _Value(view, relative=True)
        stats = [WeightedStats() for _ in subsets]
        diffs = [WeightedStats() for _ in subsets]
        decided = _decided(view)
        cfg = worlds.cfg
        sims = nworlds = 0
        while True:
            hands, facedown = worlds.sample(rng)
            base = worlds.start(hands, facedown)
            for s in range(cfg.n):
                if s != view.seat and s not in decided:
                    base.up |= choose_exposure(cfg, hands[s])
            results = []
            cutoff = deadline if nworlds else math.inf
            for subset in subsets:
                if time.perf_counter() >= cutoff:
                    break  # a later deal cut short by the clock is dropped
                board = base.copy()
                board.up |= subset
                totals = playout(board)
                results.append(value(totals))
            if len(results) < len(subsets):
                break
            for k, x in enumerate(results):
                stats[k].add(x, 1.0)
                diffs[k].add(x - results[0], 1.0)
            sims += len(subsets)
            nworlds += 1
            if sims >= budget or len(subsets) == 1 or _out_of_time(started, deadline, nworlds):
                break
        order = sorted(range(len(subsets)), key=lambda k: (-stats[k].mean(), subsets[k]))
        options = tuple(
            ExposureValue(_from_mask(subsets[k]), stats[k].mean(), stats[k].n, stats[k].stderr())
            for k in order
        )
        gains = tuple(
            (_from_mask(subsets[k]), diffs[k].mean(), diffs[k].stderr())
            for k in range(1, len(subsets))
        )
        return ExposureAnalysis(view.seat, options, nworlds, time.perf_counter() - started, gains)

    # -- claims ---------------------------------------------------------------------

    def accept_claim(self, view: PlayerView, limit: Limit | None = None) -> bool:
        """Whether to accept a pending claim: only if playing on is not expected to do better.

        Accepting gives the claimer every card still in play; the bot compares
        that deal score with the mean of rollouts from the position (the
        claimer's hand is shown, so its deals are sampled around it). When the
        bot holds at most ``solve`` cards, playing on is solved exactly in each
        sampled deal instead, as card play is (both sides then counted as the
        bot's score against the other seats' mean).
        """
        if not view.shown:
            return False
        limit = limit or self.limit
        worlds = Worlds(view)
        rng = self._rng(view, "claim")
        team = team_of(view.rules, view.seat)
        solving = 0 < len(view.hand) <= self.solve
        value = _Value(view, relative=solving)
        budget = min(limit.simulations or 200, 200)
        deadline = time.perf_counter() + (limit.time if limit.time is not None else math.inf)
        played_on = WeightedStats()
        accepted = WeightedStats()
        for _ in range(max(1, budget)):
            hands, facedown = worlds.sample(rng)
            board = worlds.start(hands, facedown)
            claimer = board.to_act()  # a claim is made by the seat to act
            given = board.copy()
            for h in given.hands:
                given.capt[claimer] |= h
            for c in given.trick:
                given.capt[claimer] |= BITS[c]
            given.hands = [0] * len(given.hands)
            accepted.add(value(given.totals()), 1.0)
            exact = None
            if solving:
                solver = Solver(board, team, _SOLVE_NODES, deadline)
                found = solver.search(-SOLVER_INF, SOLVER_INF)
                if not solver.aborted:
                    exact = found / solver.km
            played_on.add(exact if exact is not None else value(playout(board)), 1.0)
            if time.perf_counter() >= deadline:
                break
        return accepted.mean() >= played_on.mean()
