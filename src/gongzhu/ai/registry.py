"""The strategy registry: every bot by the name the CLI, the arena and the web table use.

It lives apart from :mod:`gongzhu.ai.strategies` so that the baseline bots do not
depend on the search bot; this module imports both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from gongzhu._base.text import brief as _brief
from gongzhu.ai.greedy import GreedyStrategy
from gongzhu.ai.search import Limit, SearchStrategy
from gongzhu.ai.strategies import RandomStrategy, RuleOfThumbStrategy, Strategy
from gongzhu.errors import SimulationError

__all__ = ["HARD_LIMIT", "STRATEGIES", "make_strategy"]

HARD_LIMIT: Final = Limit(simulations=2500)
"""The search limit of the ``hard`` level: a simulation limit, so the level is deterministic."""


STRATEGIES: Final[dict[str, Callable[[int | None], Strategy]]] = {
    "random": lambda seed: RandomStrategy(seed),
    "rule-of-thumb": lambda seed: RuleOfThumbStrategy(),
    "search": lambda seed: SearchStrategy(seed=seed),
    "greedy": lambda seed: GreedyStrategy(seed, fallback=RuleOfThumbStrategy()),
    # The players' levels (``gongzhu play --level``, the web table): deterministic for a seed.
    "easy": lambda seed: RuleOfThumbStrategy(),
    "normal": lambda seed: GreedyStrategy(seed, fallback=RuleOfThumbStrategy()),
    "hard": lambda seed: SearchStrategy(HARD_LIMIT, seed=seed),
}
"""Strategy names (as the CLI and :mod:`gongzhu.parallel` spell them) → factory taking a seed.

``search`` is :class:`~gongzhu.SearchStrategy` with its default limit
(:data:`gongzhu.ai.search.DEFAULT_LIMIT`); ``greedy`` is
:class:`~gongzhu.ai.greedy.GreedyStrategy` (20 sampled deals a decision, the
rule-of-thumb bot breaking ties and deciding exposure).

The players' levels, each deterministic for a given seed (see the Bots page
for their arena figures and cost per move):

* ``easy``: the rule-of-thumb bot (no search; well under 0.1 ms a move). It
  follows the tactics of seeds/001, so it never throws the pig away at random;
* ``normal``: ``greedy`` (about 1 ms a move);
* ``hard``: the search bot at :data:`HARD_LIMIT` (about 55 ms a move on
  average and 180 ms on the worst move here on the classic rules, 80 and 170 in
  the team game, whose playouts are learned; compiled; within about a second
  on one slow laptop core)."""


def make_strategy(name: str, seed: int | None = None) -> Strategy:
    """The strategy called ``name`` (a key of :data:`STRATEGIES`), seeded where it uses randomness.

    >>> make_strategy("rule-of-thumb")
    RuleOfThumbStrategy()
    >>> make_strategy("clever")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gongzhu.errors.SimulationError: unknown strategy 'clever'; known: random, rule-of-thumb, ...
    """
    factory = STRATEGIES.get(name) if isinstance(name, str) else None
    if factory is None:
        raise SimulationError(f"unknown strategy {_brief(name)}; known: {', '.join(STRATEGIES)}")
    return factory(seed)


make_strategy.__module__ = "gongzhu.bots"  # its documented public path (a re-export)
