"""The engine core's reason codes as :class:`~gongzhu.Reason`, with their details. Private.

:mod:`gongzhu._core` imports nothing public: this module maps the core's int
reason codes back to the public enum. (A rule set's core ``Config`` is
``RuleSet.engine``, built once by :func:`gongzhu.rules._compile.compile_config`.)
"""

from __future__ import annotations

from typing import Final

from gongzhu._core import play as _p
from gongzhu.errors import Reason

# Core reason codes → Reason (the core's codes follow the enum's order, from 1).
_REASONS: Final = {i + 1: r for i, r in enumerate(Reason)}
_REASONS[_p.FACE_DOWN_OFF] = _REASONS[_p.BLIND_OFF] = Reason.NOT_EXPOSABLE
_REASONS[_p.EXPOSURE_CLOSED] = Reason.WRONG_PHASE
_DETAILS: Final = {
    _p.FACE_DOWN_OFF: "face-down exposure is not played",
    _p.BLIND_OFF: "blind exposure is not played",
    _p.EXPOSURE_CLOSED: "exposure ends when the first card is played",
}
