"""Baseline computer players and the strategy registry: the documented public path for the bots.

The code lives in the playing layer: :mod:`gongzhu.ai.strategies` (the bots and the
helpers that play whole deals and matches) and :mod:`gongzhu.ai.registry` (bots by
name); this module re-exports them, and their ``repr``, pickles and API reference name
this path.
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
