"""The two arms of the search's last paired A/B against MrGreed (Bots page: "The greedy answers").

Each is a factory of a seed, for ``benchmarks/mrgreed.py --ours search_ab:<name>`` (run with
``PYTHONPATH=benchmarks``):

* ``previous``: ``hard`` before the change, 4,000 simulations, candidates rolled out by the
  rule of thumb alone;
* ``answered``: ``hard`` now, 1,400 simulations (about the same CPU a move), each candidate
  answered by the greedy look-ahead until a trick is complete, then rolled out.
"""

from __future__ import annotations

from gongzhu.ai.search import Limit, SearchStrategy


def previous(seed: int) -> SearchStrategy:
    """``hard`` before the greedy answers."""
    return SearchStrategy(Limit(simulations=4000), seed=seed, answers=False)


def answered(seed: int) -> SearchStrategy:
    """``hard`` with the greedy answers, at about the same CPU a move."""
    return SearchStrategy(Limit(simulations=1400), seed=seed, answers=True)
