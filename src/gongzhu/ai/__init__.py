"""The playing layer's search bot and arena.

:class:`SearchStrategy` (with :class:`Limit`, :meth:`~SearchStrategy.analyse`)
is re-exported from :mod:`gongzhu`; the duplicate arena is
:mod:`gongzhu.ai.arena` (its ``run`` is also ``gongzhu.arena``).
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

__all__ = [
    "Analysis",
    "ExposureAnalysis",
    "ExposureValue",
    "Limit",
    "LimitError",
    "MoveValue",
    "SearchStrategy",
]
