"""Baseline computer players and the strategy registry (this path is kept for users).

The code lives in the playing layer: :mod:`gongzhu.ai.strategies` (the bots and the
helpers that play whole deals and matches) and :mod:`gongzhu.ai.registry` (bots by
name). Every name importable from here in 0.2 still is.
"""

from gongzhu.ai.registry import HARD_LIMIT, STRATEGIES, make_strategy
from gongzhu.ai.strategies import (
    RandomStrategy,
    RuleOfThumbStrategy,
    Strategy,
    play_deal,
    play_match,
)

__all__ = [
    "HARD_LIMIT",
    "STRATEGIES",
    "RandomStrategy",
    "RuleOfThumbStrategy",
    "Strategy",
    "make_strategy",
    "play_deal",
    "play_match",
]
