"""The search's configuration: :class:`Limit` (and :class:`LimitError`), the defaults.

Import these names from :mod:`gongzhu.ai.search`.
"""

from __future__ import annotations

import attrs

from gongzhu._base.text import brief as _brief
from gongzhu.errors import GongzhuError

__all__ = ["DEFAULT_LIMIT", "DEFAULT_SOLVE", "Limit", "LimitError"]


class LimitError(GongzhuError, ValueError):
    """A :class:`Limit` that cannot bound a search."""


def _check_time(inst: object, attribute: attrs.Attribute[float | None], value: object) -> None:
    if value is None:
        return
    # A huge int would overflow math.isinf: a day bounds any search.
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 86400:
        raise LimitError(
            f"time must be a positive number of seconds (at most 86400), got {_brief(value)}"
        )


def _check_sims(inst: object, attribute: attrs.Attribute[int | None], value: object) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10**9:
        raise LimitError(f"simulations must be an int 1-10**9, got {_brief(value)}")


@attrs.frozen
class Limit:
    """How long a search may run: ``time`` in seconds, ``simulations`` in rollouts, or both.

    Whichever runs out first stops the search (at least one world is always
    searched). A simulation limit makes the search deterministic for a given
    seed; a time limit makes it depend on the machine's speed.

    >>> Limit(simulations=200)
    Limit(time=None, simulations=200)
    >>> Limit()
    Traceback (most recent call last):
    ...
    gongzhu.ai.search.LimitError: a Limit needs time=, simulations= or both
    """

    time: float | None = attrs.field(default=None, validator=_check_time)
    simulations: int | None = attrs.field(default=None, validator=_check_sims)

    def __attrs_post_init__(self) -> None:
        if self.time is None and self.simulations is None:
            raise LimitError("a Limit needs time=, simulations= or both")

    @classmethod
    def parse(cls, text: str) -> Limit:
        """``"time=0.05"``, ``"simulations=200"`` or both, comma-separated (the CLI's ``--limit``).

        >>> Limit.parse("time=0.05,simulations=300")
        Limit(time=0.05, simulations=300)
        """
        if not isinstance(text, str) or len(text) > 100:
            raise LimitError(f"a limit is short text like 'time=0.05', got {_brief(text)}")
        time_: float | None = None
        sims: int | None = None
        for part in text.split(","):
            key, sep, value = part.strip().partition("=")
            try:
                if sep and key == "time":
                    time_ = float(value)
                elif sep and key in ("simulations", "sims"):
                    sims = int(value)
                else:
                    raise ValueError
            except ValueError:
                raise LimitError(
                    f"bad limit {_brief(part.strip())}: expected time=SECONDS or simulations=N"
                ) from None
        return cls(time=time_, simulations=sims)


DEFAULT_LIMIT = Limit(simulations=400)
"""The limit of ``SearchStrategy()`` and of the ``search`` bot name: 400 rollouts a decision."""

DEFAULT_SOLVE = 4
"""Cards in hand (at most) from which :class:`SearchStrategy` solves each sampled deal exactly."""
_SOLVE_NODES = 200_000  # a deal the solver cannot finish within this is rolled out instead
# One rollout costs about as much as this many solver nodes (compiled build): a solved deal
# counts max(candidates, nodes // this) simulations against Limit(simulations=...).
_NODES_PER_SIMULATION = 64

_PRUNE_AFTER = 8  # deals searched before prune=True first drops a candidate
_PRUNE_Z = 2.0  # standard errors of the paired difference that a pruned candidate is below


for _public in (Limit, LimitError):
    _public.__module__ = "gongzhu.ai.search"  # documented and shown at the public path

# The methods' doctests run here, in their own module (their class's __module__ is the
# public path, where a doctest finder would skip the methods).
__test__ = {"Limit": Limit}
