"""The checks of what a caller gives the batched engine: rule sets, sizes, seeds, generators.

Each refusal is a typed :class:`~gongzhu.GongzhuError` in the library's words: a value
of the wrong type is a :class:`~gongzhu.errors.DealTypeError` (a ``TypeError`` too), a
bad value a :class:`~gongzhu.DealError` (for arrays of actions: a
:class:`~gongzhu.errors.ProtocolTypeError` and a :class:`~gongzhu.ProtocolError`);
NumPy integers are taken wherever Python ints are, and a batch size is checked
against :data:`~gongzhu.vector.MAX_DEALS` before anything is allocated.
"""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Iterable, Sized
from typing import Any

import numpy as np
import numpy.typing as npt

from gongzhu._base.seeds import check_seed
from gongzhu._base.text import brief
from gongzhu.errors import DealError, DealTypeError, ProtocolError, ProtocolTypeError
from gongzhu.rules import RuleSet
from gongzhu.vector._state import MAX_DEALS

__all__ = ["as_int", "check_int_array", "check_rules", "check_seeds", "check_size", "generator"]


def check_rules(rules: object) -> RuleSet:
    """A :class:`RuleSet`, or the preset named (as everywhere a rule set is taken)."""
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        return RuleSet.preset(rules)
    raise DealTypeError(f"rules must be a RuleSet or a preset name, got {brief(rules)}")


def as_int(value: object, what: str) -> int:
    """``value`` as an int: a Python int or a NumPy integer (not a bool)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    raise DealTypeError(f"{what} must be an int, got {brief(value)}")


def check_size(value: object, what: str = "size") -> int:
    """A batch size: 0 to :data:`MAX_DEALS`, refused before anything is allocated."""
    size = as_int(value, what)
    if not 0 <= size <= MAX_DEALS:
        raise DealError(f"{what} must be 0-{MAX_DEALS} deals (MAX_DEALS), got {brief(value)}")
    return size


def generator(rng: object) -> np.random.Generator:
    """A NumPy generator: ``rng`` itself, or one seeded by an int seed >= 0 (or fresh)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is not None:
        seed = as_int(rng, "rng (a NumPy Generator or a seed)")
        check_seed(seed, error=DealError, what="rng seed")
        if seed < 0:
            raise DealError(f"an rng seed must be >= 0 (NumPy's seeds), got {brief(rng)}")
        rng = seed
    return np.random.default_rng(rng)


def check_seeds(seeds: Iterable[Any]) -> list[int | str]:
    """The seeds of :meth:`VectorDeal.deal`, each checked as every seed is, at most
    :data:`MAX_DEALS` of them (counted before they are listed)."""
    if isinstance(seeds, Sized):
        check_size(len(seeds), "the number of seeds")
    try:
        listed = list(itertools.islice(seeds, MAX_DEALS + 1))
    except TypeError:
        raise DealTypeError(f"seeds must be an iterable of seeds, got {brief(seeds)}") from None
    check_size(len(listed), "the number of seeds")
    out: list[int | str] = []
    for i, seed in enumerate(listed):
        if isinstance(seed, np.integer):
            seed = int(seed)
        check_seed(seed, error=DealError, type_error=DealTypeError, none=False, what=f"seed {i}")
        out.append(seed)
    return out


def check_int_array(array: npt.NDArray[Any], shape: tuple[int, ...], message: str) -> None:
    """Refuse ``array`` unless it holds ints in ``shape`` (an empty one counts as ints):
    values that are not ints are a :class:`ProtocolTypeError`; the wrong shape, or ints
    past NumPy's (which it holds as objects), a :class:`ProtocolError`."""
    if np.issubdtype(array.dtype, np.integer) or array.size == 0:
        if array.shape == shape:
            return
        raise ProtocolError(message)
    if array.dtype == object and array.shape == shape and all(
        isinstance(x, numbers.Integral) and not isinstance(x, (bool, np.bool_)) for x in array.flat
    ):
        raise ProtocolError(message)
    raise ProtocolTypeError(message)
