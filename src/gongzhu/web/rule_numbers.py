"""The numbers the rules panel's sentences quote, scored by the library under a table's rules.

The page writes its rules prose from the table's :class:`~gongzhu.RuleSet` (which
paragraphs apply: exposure, the pig/sheep flip, a fixed number of deals); the
values it quotes — all hearts, the flip, the grand slam, the transformer's
doubling — are not restated anywhere: each is :func:`gongzhu.score` of a small
pile under those rules, so the prose can never disagree with the score sheet.

>>> from gongzhu.web.settings import Settings
>>> n = rule_numbers(Settings(all_hearts=400).rules())
>>> n["all_hearts"], n["flip_pig"], n["flip_sheep"], n["slam"], n["doubled"]
(400, 100, -100, 1200, -20)
>>> "slam_sheep_exposed" in rule_numbers(Settings(exposure=False).rules())
False
"""

from __future__ import annotations

from functools import cache
from typing import Final

from gongzhu.rules import RuleSet
from gongzhu.scoring import score

__all__ = ["rule_numbers"]

_HEARTS: Final = " ".join(f"{rank}H" for rank in "23456789TJQKA")


@cache
def rule_numbers(rules: RuleSet) -> dict[str, int]:
    """Named deal scores under ``rules`` (see the module); the exposure ones only for
    the cards the rules let a player expose."""

    def one(pile: str, exposed: str = "") -> int:
        return score(pile, exposed, rules=rules).totals[0]

    def other(pile: str) -> int:
        # Somebody else took all the hearts: what ``pile`` is worth to its taker.
        return score([_HEARTS, pile], rules=rules).totals[1]

    out = {
        "all_hearts": one(_HEARTS),
        "all_hearts_pig": one(f"{_HEARTS} QS"),
        "flip_pig": other("QS"),
        "flip_sheep": other("JD"),
        "slam": one(f"{_HEARTS} QS JD TC"),
        "transformer": one("TC"),
        "doubled": one("TC 5H"),
    }
    exposable = {card.code for card in rules.exposable}
    if "JD" in exposable:
        out["slam_sheep_exposed"] = one(f"{_HEARTS} QS JD TC", "JD")
    if "AH" in exposable:
        out["all_hearts_ace_exposed"] = one(_HEARTS, "AH")
    return out
