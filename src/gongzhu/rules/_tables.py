"""A rule set compiled to the engine core's :class:`~gongzhu._core.config.Config`. Private.

``RuleSet._tables`` builds it once per :class:`~gongzhu.RuleSet` and caches
it: the rules of play, the scoring kernel and the policies read that one
object (``Round``'s states carry it). The card masks are the core's
(:mod:`gongzhu._core.bits`), re-exported here for the modules that used them.
"""

from __future__ import annotations

from gongzhu._core.bits import (
    ACE_BIT,
    HEARTS,
    PIG_BIT,
    POINT_CARDS,
    QUEEN_OF_DIAMONDS_BIT,
    SHEEP_BIT,
    SUIT_MASKS,
    TEN_BIT,
)
from gongzhu._core.config import Config

__all__ = [
    "ACE_BIT",
    "HEARTS",
    "PIG_BIT",
    "POINT_CARDS",
    "QUEEN_OF_DIAMONDS_BIT",
    "SHEEP_BIT",
    "SUIT_MASKS",
    "TEN_BIT",
    "Tables",
]

Tables = Config
"""The 0.2 name of the per-rule-set tables: the core's :class:`Config`."""
