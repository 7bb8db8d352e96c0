"""The playing layer: the bots, the world sampler, the turn driver and the arena.

:class:`SearchStrategy` (with :class:`Limit`, :meth:`~SearchStrategy.analyse`)
is re-exported from :mod:`gongzhu`; the duplicate arena is
:mod:`gongzhu.ai.arena` (its ``run`` is also ``gongzhu.arena``). For a bot of
your own: :class:`Worlds` samples the deals consistent with a seat's view
(:mod:`gongzhu.ai.worlds`), and :mod:`gongzhu.ai.driver` runs strategies at a
table (see the "Write your own bot" page).
"""

from gongzhu.ai.search import (
    Analysis,
    ExposureAnalysis,
    ExposureValue,
    Limit,
    LimitError,
    MoveValue,
    SearchStrategy,
)
from gongzhu.ai.worlds import World, Worlds

__all__ = [
    "Analysis",
    "ExposureAnalysis",
    "ExposureValue",
    "Limit",
    "LimitError",
    "MoveValue",
    "SearchStrategy",
    "World",
    "Worlds",
]
