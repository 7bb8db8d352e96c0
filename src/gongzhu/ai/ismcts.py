"""Information-set MCTS for :class:`~gongzhu.SearchStrategy` (``algorithm="ismcts"``). Private.

Single-observer IS-MCTS (Cowling, Powley & Whitehouse 2012, "Information Set
Monte Carlo Tree Search"): one tree for the searching seat, its nodes keyed by
the cards played since the decision (whoever played them), so a node stands
for the searcher's information set after that history. Each iteration

1. samples one deal consistent with the view from the search's own sampler
   (:class:`~gongzhu.ai._determinize.Worlds`, the one sampler of the library)
   with its importance weight (how natural the other seats' past plays look);
2. descends the tree in that deal: at the searcher's nodes (its team's under
   pairs) by UCB1 over the cards legal *in this deal* — availability-aware:
   each child counts the visits in which it was available, and that count,
   not the parent's visits, is its exploration term's ``ln``; at the other
   seats' nodes by UCB1 over their own (team's) score (``opponents="tree"``)
   or by the rule-of-thumb policy (``opponents="policy"``);
3. adds one node (the first card of the searcher not yet tried at a node);
4. finishes the deal with the core's rule-of-thumb rollout
   (:func:`gongzhu._core.policy.rollout_rule_of_thumb`);
5. backs up every seat's deal score, scaled by :data:`SCALE` so that the UCB
   constant works on any rule set, weighted by the deal's importance weight
   (the means are weighted means; the exploration term counts visits).

The move played is the root card visited most. The root's cards are the
classes of equivalent cards of the PIMC search (searched once each); below the
root every legal card is a child. All rules of play are the core board's
(:meth:`Board.legal`, :meth:`Board.play`, :meth:`Board.totals`); nothing here
knows a rule. The view is the only source of the tree and the deals: the
sampler reads nothing else, and the tree stores cards played in sampled deals.

Measured against PIMC at equal CPU time (512 deals each, the Bots page) it
did not win (−5.6 ± 6.4 a deal on MrIf's rules, −21.1 ± 10.6 on the classic
rules), so PIMC stays the default of :class:`~gongzhu.SearchStrategy`.
"""

from __future__ import annotations

import math
import random
import time
from typing import Final

from gongzhu._core.board import Board
from gongzhu._core.config import Config
from gongzhu._core.play import mask_ids
from gongzhu._core.policy import choose_board
from gongzhu._core.policy import rollout_rule_of_thumb as rollout
from gongzhu._core.rules import card_classes
from gongzhu.ai._determinize import WeightedStats, Worlds
from gongzhu.ai.driver import team_of as _team_of
from gongzhu.view import PlayerView

__all__: list[str] = []

SCALE: Final = 100.0
"""Deal scores are divided by this before UCB sees them (a deal's spread is a few hundred)."""
EXPLORATION: Final = 0.7
"""The UCB1 constant ``c`` in ``mean + c * sqrt(ln(available) / visits)`` (scaled scores)."""
REUSE = 1
"""Iterations per sampled deal (1: a fresh deal every iteration, the textbook algorithm)."""
WIDEN = 0.0
"""Progressive widening below the root (0: every card is tried before UCB chooses)."""
OPPONENTS: Final = ("policy", "tree")
"""How the other seats choose in the tree: the rollout policy, or UCB on their own score."""


class Node:
    """One information set of the searcher's tree: the history of cards since the root."""

    __slots__ = ("avail", "children", "sw", "swx", "visits")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0  # iterations through this node
        self.avail = 0  # iterations in which its card was legal at its parent (its UCB's ln)
        self.sw = 0.0  # sum of importance weights
        self.swx = 0.0  # sum of weight * scaled score of the seat that played its card


def search(
    view: PlayerView,
    reps: list[int],
    team_of: tuple[tuple[int, ...], ...],
    rng: random.Random,
    *,
    budget: int,
    deadline: float,
    beta: float,
    opponents: str,
    exploration: float = EXPLORATION,
    reuse: int = 1,
    widening: float = 0.0,
) -> tuple[list[WeightedStats], list[int], int, int]:
    """Run IS-MCTS from ``view`` (its seat to act) over the root cards ``reps``.

    ``team_of[s]`` are the seats whose summed deal scores seat ``s`` plays for.
    Each sampled deal serves ``reuse`` iterations in a row (1: a fresh deal every
    iteration, the textbook algorithm); ``widening`` > 0 widens the nodes below the
    root progressively. Stops after ``budget`` iterations (one rollout each) or at
    ``deadline`` (``time.perf_counter`` seconds; at least one iteration is always made).
    Returns each root card's weighted score statistics, its visits, the
    iterations made and the nodes of the tree.
    """
    worlds = Worlds(view)
    cfg = worlds.cfg
    me = view.seat
    tree = set(range(len(team_of))) if opponents == "tree" else set(team_of[me])  # tree seats
    root = Node()
    stats = [WeightedStats() for _ in reps]
    index = {c: k for k, c in enumerate(reps)}
    nodes = 1
    iterations = 0
    clock = time.perf_counter
    path: list[tuple[Node, int]] = []
    ucb = (widening, exploration)
    w = 1.0
    base = None
    while True:
        if base is None or iterations % reuse == 0:
            hands, facedown = worlds.sample(rng)
            w = worlds.weight(hands, facedown, beta)
            base = worlds.start(hands, facedown)
        board = base.copy()
        node = root
        path.clear()
        legal = 0  # (the root's cards are ``reps``)
        root_card = -1
        while not board.done:
            seat = board.to_act()
            if node is not root:
                legal = board.legal()
            card, child, expanded, new = _step(
                node, node is root, reps, cfg, board, legal, seat, seat in tree, rng, *ucb
            )
            nodes += new
            if node is root:
                root_card = card
            board.play(card)
            path.append((child, seat))
            if expanded:
                break  # expanded: the rollout finishes the deal
            node = child
        totals = rollout(board)
        mine_total = _backup(path, totals, team_of, w, me)
        stats[index[root_card]].add(mine_total, w)
        iterations += 1
        if iterations >= budget or len(reps) == 1 or clock() >= deadline:
            break
    visits = [root.children[c].visits if c in root.children else 0 for c in reps]
    return stats, visits, iterations, nodes


def _step(
    node: Node,
    at_root: bool,
    reps: list[int],
    cfg: Config,
    board: Board,
    legal: int,
    seat: int,
    tree: bool,
    rng: random.Random,
    widening: float,
    exploration: float,
) -> tuple[int, Node, bool, int]:
    """One step down from ``node``: ``(card, child, expanded, nodes added)``.

    A tree seat (``tree``) chooses in the tree (:func:`_tree_step`); another seat plays the
    rollout policy's card, whose child is added if new.
    """
    if tree:
        # One card of each class of interchangeable cards (the core's rule, as at the
        # root): cards still in play that could fall between them are those of the trick
        # and the ones not yet played outside the mover's hand, all known to the mover.
        cards = reps if at_root else card_classes(cfg, legal, board.up, board.between(seat))
        widen = not at_root and widening > 0
        card, child, expanded = _tree_step(
            node, cards, board, legal, widen, widening, exploration, rng
        )
        return card, child, expanded, int(expanded)
    card = choose_board(board, legal)
    found = node.children.get(card)
    if found is not None:
        return card, found, False, 0
    found = Node()
    node.children[card] = found
    return card, found, False, 1


def _tree_step(
    node: Node,
    cards: list[int],
    board: Board,
    legal: int,
    widen: bool,
    widening: float,
    exploration: float,
    rng: random.Random,
) -> tuple[int, Node, bool]:
    """One step down the tree at a tree seat's ``node``: ``(card, child, expanded)``.

    Expands a card not yet tried (``expanded``: the rollout then finishes the deal) or
    picks the child of best UCB1, availability-aware.
    """
    children = node.children
    fresh = [c for c in cards if c not in children]
    # Progressive widening below the root: a node tries its cards one at a time as its
    # visits grow (1 + WIDEN * sqrt(visits) of them), the rollout policy's card first, so
    # a rarely visited node is valued by the policy's play, not by the average of every
    # card it could play.
    if fresh and (
        not widen or len(cards) - len(fresh) < 1 + int(widening * math.sqrt(node.visits))
    ):
        card = -1
        if widen:
            pc = choose_board(board, legal)
            for c in cards:  # the class of the policy's card: its lowest card
                if c <= pc and c // 13 == pc // 13:
                    card = c
            if card not in fresh:
                card = -1
        if card < 0:
            card = fresh[rng.randrange(len(fresh))] if len(fresh) > 1 else fresh[0]
        child = Node()
        children[card] = child
        for c in cards:
            seen = children.get(c)
            if seen is not None:
                seen.avail += 1
        return card, child, True
    best_card = -1
    best_u = -math.inf
    for c in cards:
        ch = children.get(c)
        if ch is None:
            continue
        ch.avail += 1
        mean = ch.swx / ch.sw if ch.sw else 0.0
        u = mean + exploration * math.sqrt(math.log(ch.avail) / ch.visits)
        if u > best_u:
            best_u = u
            best_card = c
    return best_card, children[best_card], False


def _backup(
    path: list[tuple[Node, int]],
    totals: tuple[int, ...],
    team_of: tuple[tuple[int, ...], ...],
    w: float,
    me: int,
) -> float:
    """Back every node of ``path`` up with its seat's team score; the searcher's team score."""
    for child, seat in path:
        x = 0.0
        for s in team_of[seat]:
            x += totals[s]
        child.visits += 1
        child.sw += w
        child.swx += w * x / SCALE
    mine_total = 0.0
    for s in team_of[me]:
        mine_total += totals[s]
    return mine_total


def analyse(
    view: PlayerView,
    legal: int,
    reps: list[int],
    budget: int,
    deadline: float,
    rng: random.Random,
    beta: float,
    opponents: str,
) -> tuple[list[tuple[int, float, int, float]], int]:
    """IS-MCTS for :meth:`SearchStrategy.analyse`: every legal card, the move first, and
    the iterations made.

    A card is ``(index, expected, samples, stderr)``: each legal card takes its
    class representative's statistics (as in the PIMC path); ``samples`` are the
    root card's visits, ``expected`` its weighted mean deal score (of the seat's
    team under pairs) over them. The most visited root card is the move (the
    robust child), then the better mean, then the lowest card.
    """
    rules = view.rules
    team_of = tuple(_team_of(rules, s) for s in range(rules.players))
    stats, visits, iterations, _nodes = search(
        view, reps, team_of, rng, budget=budget, deadline=deadline, beta=beta,
        opponents=opponents, reuse=REUSE, widening=WIDEN,
    )  # fmt: skip
    rank = {c: k for k, c in enumerate(reps)}
    moves: list[tuple[int, float, int, float, int]] = []
    k = -1
    for c in mask_ids(legal):
        k = rank.get(c, k)  # a representative is its class's lowest card
        moves.append((c, stats[k].mean(), stats[k].n, stats[k].stderr(), k))
    moves.sort(key=lambda m: (-visits[m[4]], -m[1], reps[m[4]], m[0]))
    return [(c, mean, n, se) for c, mean, n, se, _k in moves], iterations
