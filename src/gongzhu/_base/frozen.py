"""Helpers that keep frozen public objects frozen. Private.

``attrs`` frozen classes refuse ``obj.x = 1``, but their ``__init__`` stays
callable on a finished object and rewrites every field through
``object.__setattr__``: ``PRESETS["classic"].__init__(players=5)`` would
change a shared preset. :func:`refuse_reinit` is called first thing in such an
``__init__`` (or in ``__attrs_pre_init__``) and refuses a second call.

:class:`FrozenMap` is the read-only, hashable, picklable mapping used where a
public object holds a mapping (a plain ``dict`` inside a frozen object could
be changed by anyone holding it, and its equality with it).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any, Generic, NoReturn, TypeVar

from gongzhu.errors import GongzhuError

__all__ = ["FrozenMap", "adopt_map", "guard_setstate", "refuse_reinit"]

K = TypeVar("K")
V = TypeVar("V")


def refuse_reinit(obj: object, first_field: str, error: type[GongzhuError]) -> None:
    """Raise ``error`` if ``obj`` already has ``first_field`` set (it was initialised)."""
    try:
        object.__getattribute__(obj, first_field)
    except AttributeError:
        return
    raise error(f"{type(obj).__name__} is immutable: it cannot be initialised again")


def guard_setstate(cls: type, first_field: str, error: type[GongzhuError]) -> None:
    """Make ``cls.__setstate__`` (attrs' own, used by pickle and copy on a fresh object)
    refuse to run on an object that is already initialised, like :func:`refuse_reinit`."""
    original = cls.__setstate__  # type: ignore[attr-defined]

    def __setstate__(self: object, state: Any) -> None:
        refuse_reinit(self, first_field, error)
        original(self, state)

    __setstate__.__doc__ = original.__doc__
    setattr(cls, "__setstate__", __setstate__)  # noqa: B010 - on purpose, after attrs


class FrozenMap(Mapping[K, V], Generic[K, V]):
    """An immutable mapping (insertion order kept; equal to any mapping with the same items)."""

    __slots__ = ("_data", "_hash")

    # A read-only view of a dict only this object holds: even the private
    # attribute cannot be used to change the items.
    _data: MappingProxyType[K, V]
    _hash: int | None

    def __init__(self, items: Mapping[K, V] | None = None) -> None:
        refuse_reinit(self, "_data", GongzhuError)
        object.__setattr__(self, "_data", MappingProxyType(dict(items) if items else {}))
        object.__setattr__(self, "_hash", None)

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._data == other._data
        if isinstance(other, Mapping):
            return self._data == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash(frozenset(self._data.items()))
            object.__setattr__(self, "_hash", h)
        return h

    def __repr__(self) -> str:
        return repr(self._data)

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenMap, (dict(self._data),))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"FrozenMap is immutable (cannot set {name})")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"FrozenMap is immutable (cannot delete {name})")


_set_data: Any = FrozenMap.__dict__["_data"].__set__
_set_hash: Any = FrozenMap.__dict__["_hash"].__set__


def adopt_map(data: dict[K, V]) -> FrozenMap[K, V]:
    """The :class:`FrozenMap` of ``data``, a fresh dict that nobody else holds (not copied).

    >>> adopt_map({"a": 1}) == FrozenMap({"a": 1})
    True
    """
    new: FrozenMap[K, V] = object.__new__(FrozenMap)
    _set_data(new, MappingProxyType(data))
    _set_hash(new, None)
    return new
