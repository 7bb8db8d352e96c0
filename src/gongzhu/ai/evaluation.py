"""The learned evaluation's weights: :func:`load_evaluation`, :class:`EvaluationError`.

The network itself (a sparse first layer over card places, one hidden layer)
is in the engine core, :mod:`gongzhu._core.evaluation`; this module reads its
weights from a small JSON file, validated: the format name, the version, the
shapes and finite numbers. A bad file raises :class:`EvaluationError` (a
:class:`~gongzhu.GongzhuError`) saying what is wrong. The weights shipped with
the package (``gongzhu/ai/eval-weights.json``, made by ``python -m
gongzhu.ai.train``) load on first use, once.

>>> net = load_evaluation()
>>> net.hidden > 0
True
>>> load_evaluation({"format": "gongzhu-eval", "version": 99})
Traceback (most recent call last):
...
gongzhu.ai.evaluation.EvaluationError: evaluation weights: version 99, this gongzhu reads version 1
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any, Final

from gongzhu._base.text import brief as _brief
from gongzhu._core.evaluation import INPUTS, Net
from gongzhu.errors import GongzhuError

__all__ = ["WEIGHTS_FILE", "EvaluationError", "load_evaluation", "net_to_json"]

WEIGHTS_FILE: Final = Path(__file__).with_name("eval-weights.json")
"""The weights shipped with the package."""
FORMAT: Final = "gongzhu-eval"
VERSION: Final = 1
_MAX_BYTES: Final = 8 * 1024 * 1024
_MAX_HIDDEN: Final = 1024

_default: Net | None = None


class EvaluationError(GongzhuError, ValueError):
    """A weights file that cannot be used: unreadable, another format or version, bad shapes,
    numbers that are not finite."""


def load_evaluation(source: str | os.PathLike[str] | dict[str, Any] | None = None) -> Net:
    """The evaluation network from a weights file (a path, or its parsed JSON object).

    Without ``source``, the weights shipped with the package, read once and cached.
    """
    global _default
    if source is None:
        if _default is None:
            _default = _from_json(_read(WEIGHTS_FILE))
        return _default
    if isinstance(source, dict):
        return _from_json(source)
    if isinstance(source, (str, os.PathLike)):
        return _from_json(_read(Path(source)))
    raise EvaluationError(
        f"evaluation weights: expected a path or a dict, got {type(source).__name__}"
    )


def _read(p: Path) -> Any:
    try:
        if p.stat().st_size > _MAX_BYTES:
            raise EvaluationError(f"evaluation weights: {p.name} is larger than {_MAX_BYTES} bytes")
        return json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise EvaluationError(
            f"evaluation weights: cannot read {p.name}: {exc.strerror or exc}"
        ) from None
    except (UnicodeDecodeError, ValueError) as exc:
        if isinstance(exc, EvaluationError):
            raise
        raise EvaluationError(
            f"evaluation weights: {p.name} is not JSON ({_brief(str(exc))})"
        ) from None


def _floats(obj: dict[str, Any], key: str, size: int) -> list[float]:
    xs = obj.get(key)
    if not isinstance(xs, list) or len(xs) != size:
        got = f"{len(xs)} numbers" if isinstance(xs, list) else type(xs).__name__
        raise EvaluationError(f"evaluation weights: {key!r} must be {size} numbers, got {got}")
    out = []
    for x in xs:
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            raise EvaluationError(
                f"evaluation weights: {key!r} holds {_brief(x)}, not a finite number"
            )
        out.append(float(x))
    return out


def _from_json(obj: Any) -> Net:
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise EvaluationError(f"evaluation weights: not a {FORMAT!r} file")
    version = obj.get("version")
    if version != VERSION:
        raise EvaluationError(
            f"evaluation weights: version {_brief(version)}, this gongzhu reads version {VERSION}"
        )
    inputs, hidden = obj.get("inputs"), obj.get("hidden")
    if inputs != INPUTS:
        raise EvaluationError(f"evaluation weights: {_brief(inputs)} inputs, expected {INPUTS}")
    if isinstance(hidden, bool) or not isinstance(hidden, int) or not 0 < hidden <= _MAX_HIDDEN:
        raise EvaluationError(
            f"evaluation weights: hidden must be 1-{_MAX_HIDDEN}, got {_brief(hidden)}"
        )
    w1 = _floats(obj, "w1", INPUTS * hidden)
    b1 = _floats(obj, "b1", hidden)
    w2 = _floats(obj, "w2", hidden)
    (b2,) = _floats(obj, "b2", 1)
    return Net(hidden, w1, b1, w2, b2)


def net_to_json(net: Net, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON object :func:`load_evaluation` reads back (weights to 6 significant digits)."""

    def r(xs: list[float]) -> list[float]:
        return [float(f"{x:.6g}") for x in xs]

    return {
        "format": FORMAT,
        "version": VERSION,
        "inputs": INPUTS,
        "hidden": net.hidden,
        "meta": meta or {},
        "b2": r([net.b2]),
        "b1": r(net.b1),
        "w2": r(net.w2),
        "w1": r(net.w1),
    }
