"""A room's settings: the start screen of source 001 (:class:`Settings`) and its rule set.

The threshold, the pig/sheep sign swap, exposure, the computers' level, and
the "more rules" variants; :meth:`Settings.rules` makes the
:class:`~gongzhu.RuleSet` of a room. Import them from :mod:`gongzhu.web.rooms`
or from here.
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from gongzhu.ai.registry import HARD_LIMIT, make_strategy
from gongzhu.ai.search import Limit, SearchStrategy
from gongzhu.ai.strategies import Strategy
from gongzhu.rules import RuleSet
from gongzhu.web.messages import WebError

__all__ = [
    "ALL_HEARTS",
    "EXPOSABLE",
    "HARD_SECONDS",
    "LEVELS",
    "MAX_FIXED_DEALS",
    "PACES",
    "SEATS",
    "THRESHOLDS",
    "Settings",
]

SEATS: Final = 4
PACES: Final = {"slow": 2.0, "normal": 1.0, "fast": 0.25}
"""The table's speed control: each pace's factor on the computers' pause before a card."""
LEVELS: Final = ("easy", "normal", "hard")
THRESHOLDS: Final = (500, 1000)


def _threshold(_: Any, __: Any, value: Any) -> None:
    if type(value) is not int or value not in THRESHOLDS:
        raise WebError("bad-message", "threshold must be 500 or 1000")


def _flag(_: Any, __: Any, value: Any) -> None:
    if not isinstance(value, bool):
        raise WebError("bad-message", "sign_swap and exposure must be true or false")


def _level(_: Any, __: Any, value: Any) -> None:
    if value not in LEVELS:
        raise WebError("bad-message", f"level must be one of {', '.join(LEVELS)}")


ALL_HEARTS: Final = (200, 400)
"""Source 001's variants of all thirteen hearts (``RuleSet.all_hearts_value``)."""
EXPOSABLE: Final = {"all": None, "pig-transformer": "QS TC"}
"""Source 001's variants of the cards that may be exposed (``RuleSet.exposable``)."""
MAX_FIXED_DEALS: Final = 30


def _all_hearts(_: Any, __: Any, value: Any) -> None:
    if type(value) is not int or value not in ALL_HEARTS:
        raise WebError("bad-message", "all_hearts must be 200 or 400")


def _exposable(_: Any, __: Any, value: Any) -> None:
    if value not in EXPOSABLE:
        raise WebError("bad-message", f"exposable must be one of {', '.join(EXPOSABLE)}")


def _deals(_: Any, __: Any, value: Any) -> None:
    if value is not None and (type(value) is not int or not 1 <= value <= MAX_FIXED_DEALS):
        raise WebError("bad-message", f"deals must be null or 1-{MAX_FIXED_DEALS}")


HARD_SECONDS: Final = 1.0
"""The web's hard level thinks to this many seconds a card (and at most the registry's
simulations): a busy machine plays a little weaker instead of keeping a person waiting."""


@attrs.frozen
class Settings:
    """The start screen (source 001): the end threshold, the sign swap, exposure, the level.

    >>> rules = Settings(threshold=500, exposure=False).rules()
    >>> rules.win_threshold, rules.loss_threshold, str(rules.exposable), rules.max_deals
    (500, -500, '', 30)
    """

    threshold: int = attrs.field(default=1000, validator=_threshold)
    sign_swap: bool = attrs.field(default=True, validator=_flag)
    exposure: bool = attrs.field(default=True, validator=_flag)
    level: str = attrs.field(default="normal", validator=_level)
    # Source 001's "rules menu collects the common variants" (the start screen's "more rules").
    all_hearts: int = attrs.field(default=200, validator=_all_hearts)
    exposable: str = attrs.field(default="all", validator=_exposable)
    deals: int | None = attrs.field(default=None, validator=_deals)
    """A fixed number of deals instead of the ±threshold end."""

    def rules(self) -> RuleSet:
        """The ``online`` preset (source 001) with the toggles and variants applied.

        >>> r = Settings(all_hearts=400, exposable="pig-transformer", deals=8).rules()
        >>> r.all_hearts_value, str(r.exposable), r.win_threshold, r.max_deals
        (400, '10♣ Q♠', None, 8)
        """
        base = RuleSet.preset("online")
        exposable = EXPOSABLE[self.exposable] or base.exposable
        fixed = self.deals is not None
        return base.replace(
            win_threshold=None if fixed else self.threshold,
            loss_threshold=None if fixed else -self.threshold,
            max_deals=self.deals if fixed else base.max_deals,
            sign_swap=self.sign_swap,
            all_hearts_value=self.all_hearts,
            exposable=exposable if self.exposure else "",
        )

    def strategy(self, seed: int) -> Strategy:
        """A computer of this room's level, deterministic for ``seed``: the registry's
        (easy, normal, hard); the web's hard level also stops at :data:`HARD_SECONDS`
        (issue 26 item 8)."""
        if self.level == "hard":
            limit = Limit(time=HARD_SECONDS, simulations=HARD_LIMIT.simulations)
            return SearchStrategy(limit, seed=seed)
        return make_strategy(self.level, seed)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "threshold": self.threshold,
            "sign_swap": self.sign_swap,
            "exposure": self.exposure,
            "level": self.level,
        }
        # The variants only when chosen: a room stored before them reads back the same.
        if self.all_hearts != 200:
            out["all_hearts"] = self.all_hearts
        if self.exposable != "all":
            out["exposable"] = self.exposable
        if self.deals is not None:
            out["deals"] = self.deals
        return out
