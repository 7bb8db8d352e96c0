"""Thousands of deals at once: a batched engine on NumPy arrays (``rl`` extra).

:class:`VectorDeal` holds ``n`` deals of one rule set as ``uint64`` bitboards
and steps them together; :func:`rule_of_thumb` chooses, for a whole batch, the
card the library's rule-of-thumb bot chooses in each deal;
:class:`GongzhuVectorEnv` is a Gymnasium vector environment on it. Nothing
here is imported by ``import gongzhu``. See ``docs/agents.rst`` for when to use
which engine (``Round``, the core's ``Board``, or this one).
"""

from __future__ import annotations

from gongzhu.vector._engine import VectorDeal
from gongzhu.vector._playout import random_cards
from gongzhu.vector._policy import rule_of_thumb

__all__ = ["GongzhuVectorEnv", "VectorDeal", "random_cards", "rule_of_thumb"]


def __getattr__(name: str) -> object:
    # The Gymnasium environment needs gymnasium: imported on first use only.
    if name == "GongzhuVectorEnv":
        from gongzhu.vector._env import GongzhuVectorEnv

        return GongzhuVectorEnv
    raise AttributeError(f"module 'gongzhu.vector' has no attribute {name!r}")
