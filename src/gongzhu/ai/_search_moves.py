"""The search's moves: equivalent-card classes, the deal value, pruning, the clock, exposure.

Helpers of :mod:`gongzhu.ai.search` (private).
"""

from __future__ import annotations

import math
import time

from gongzhu._core.playout import deal_value
from gongzhu._core.rules import card_classes
from gongzhu.ai._search_config import _PRUNE_Z, LimitError
from gongzhu.ai.driver import team_of
from gongzhu.cards import CardSet
from gongzhu.phase import Phase
from gongzhu.view import PlayerView


class _Value:
    """A finished deal's value to the searcher: its (team's) total, or against the others' mean."""

    __slots__ = ("mine", "others", "ratio")

    def __init__(self, view: PlayerView, *, relative: bool) -> None:
        mine = team_of(view.rules, view.seat)
        self.mine = mine
        self.others = (
            tuple(s for s in range(view.rules.players) if s not in mine) if relative else ()
        )
        self.ratio = len(mine) / len(self.others) if self.others else 0.0

    def __call__(self, totals: tuple[int, ...]) -> float:
        return deal_value(totals, self.mine, self.others, self.ratio)


def _classes(view: PlayerView, legal: int) -> list[int]:
    """One representative per class of equivalent legal cards (the core's rule)."""
    info = view.info
    # Cards on the table count as outstanding: 5♣ and 7♣ differ when 6♣ leads the trick.
    on_table = 0
    for card in info.trick:
        on_table |= 1 << card
    outstanding = info.cfg.deck & ~info.hand & ~(info.played & ~on_table)
    return card_classes(info.cfg, legal, info.exposed, outstanding)


def _check_decision(view: object, legal: object) -> None:
    """Refuse at once what is not a play decision of the seat to act (never search on it)."""
    if not isinstance(view, PlayerView):
        raise LimitError(f"the search decides from a PlayerView, got {type(view).__name__}")
    if not isinstance(legal, CardSet):
        raise LimitError(f"legal must be a CardSet, got {type(legal).__name__}")
    if not legal:
        raise LimitError(f"seat {view.seat} has nothing to play (an empty legal set)")
    if view.to_act != view.seat:
        raise LimitError(f"seat {view.seat} is not to act in this view")
    outside = legal - view.hand
    if outside:
        raise LimitError(f"legal cards not in seat {view.seat}'s hand: {outside}")


def _out_of_time(started: float, deadline: float, nworlds: int) -> bool:
    """Whether another sampled deal would end past ``deadline`` (at the mean pace so far).

    Stopping before a deal that cannot finish keeps the worst move within a few percent
    of its time limit; a deal cut short anyway is dropped by the caller.
    """
    if deadline == math.inf:
        return False
    now = time.perf_counter()
    return now + (now - started) / nworlds >= deadline


def _prune(active: list[int], results: list[list[float]], weights: list[float]) -> list[int]:
    """The candidates still worth searching: not clearly worse than the best so far.

    All active candidates were played in the same deals, so each is compared with
    the leader on their paired (weighted) differences: it is dropped when even
    ``_PRUNE_Z`` standard errors above its mean difference it stays below zero.
    """
    n = len(weights)
    sw = sum(weights)
    sw2 = sum(w * w for w in weights)
    means = {k: sum(w * x for w, x in zip(weights, results[k], strict=True)) / sw for k in active}
    best = max(active, key=lambda k: means[k])
    keep = []
    ess = sw * sw / sw2
    for k in active:
        if k == best:
            keep.append(k)
            continue
        d = [x - y for x, y in zip(results[k][-n:], results[best][-n:], strict=True)]
        mean = means[k] - means[best]
        var = max(0.0, sum(w * (x - mean) ** 2 for w, x in zip(weights, d, strict=True)) / sw)
        se = math.sqrt(var / max(1.0, ess - 1.0))
        if mean + _PRUNE_Z * se >= 0:
            keep.append(k)
    return keep


def _held(view: PlayerView) -> int:
    if view.phase is not Phase.EXPOSURE:
        return 0
    rules = view.rules
    return view.hand.mask & rules.exposable.mask & ~view.exposed.mask & ~view.own_face_down.mask


def _decided(view: PlayerView) -> set[int]:
    """Seats whose exposure is visible in the view (the others are simulated by rule of thumb)."""
    return {
        s
        for s in range(view.rules.players)
        if view.exposures[s] or view.face_down_counts[s] or s == view.seat
    }
