"""The engine core's view of a rule set, and its reason codes as :class:`~gongzhu.Reason`. Private.

:mod:`gongzhu._core` imports nothing public: this module turns a
:class:`~gongzhu.RuleSet` into the core's typed
:class:`~gongzhu._core.config.Config` (``RuleSet._tables``, built once per rule
set and cached on it) and maps the core's int reason codes back to the public enum.
"""

from __future__ import annotations

from typing import Final

from gongzhu._core import play as _p
from gongzhu._core.config import Config
from gongzhu.errors import Reason
from gongzhu.rules import RuleSet

# Core reason codes → Reason (the core's codes follow the enum's order, from 1).
_REASONS: Final = {i + 1: r for i, r in enumerate(Reason)}
_REASONS[_p.FACE_DOWN_OFF] = _REASONS[_p.BLIND_OFF] = Reason.NOT_EXPOSABLE
_REASONS[_p.EXPOSURE_CLOSED] = Reason.WRONG_PHASE
_DETAILS: Final = {
    _p.FACE_DOWN_OFF: "face-down exposure is not played",
    _p.BLIND_OFF: "blind exposure is not played",
    _p.EXPOSURE_CLOSED: "exposure ends when the first card is played",
}


def _config(rules: RuleSet) -> Config:
    """The core's Config of ``rules`` (built once, cached on the rule set)."""
    return rules._tables
