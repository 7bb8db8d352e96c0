"""Thousands of deals at once: a batched engine on NumPy arrays (``rl`` extra).

:class:`VectorDeal` holds ``n`` deals of one rule set as ``uint64`` bitboards
and steps them together; its position is a public record of arrays,
:class:`VectorState` (``batch.state``), that the engine's functions take;
:func:`rule_of_thumb` chooses, for a whole batch, the card the library's
rule-of-thumb bot chooses in each deal; :class:`GongzhuVectorEnv` is a
Gymnasium vector environment on it. A batch holds at most :data:`MAX_DEALS`
deals. Nothing here is imported by ``import gongzhu``. See ``docs/agents.rst``
for when to use which engine (``Round``, the core's ``Board``, or this one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gongzhu.vector._engine import VectorDeal
from gongzhu.vector._playout import random_cards
from gongzhu.vector._policy import rule_of_thumb
from gongzhu.vector._state import MAX_DEALS, VectorState

if TYPE_CHECKING:  # a type checker sees the class; at run time gymnasium loads on first use
    from gongzhu.vector._env import GongzhuVectorEnv

__all__ = [
    "MAX_DEALS",
    "GongzhuVectorEnv",
    "VectorDeal",
    "VectorState",
    "random_cards",
    "rule_of_thumb",
]


def __getattr__(name: str) -> object:
    # The Gymnasium environment needs gymnasium: imported on first use only.
    if name == "GongzhuVectorEnv":
        from gongzhu.vector._env import GongzhuVectorEnv

        return GongzhuVectorEnv
    raise AttributeError(f"module 'gongzhu.vector' has no attribute {name!r}")
