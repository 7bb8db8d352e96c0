"""How a match reads a deal and how it ends: a deal's score from a Round or totals, the
losers and the end reason. Private to :mod:`gongzhu.match`.
"""

from __future__ import annotations

import enum
from typing import Any, Final

from gongzhu._base.text import brief
from gongzhu.cards import CardSet
from gongzhu.errors import GongzhuError, MatchError
from gongzhu.rules import GrandSlamOutcome, RuleSet, SimultaneousLoss
from gongzhu.scoring import DealScore


class EndReason(enum.Enum):
    """Why a match ended (:attr:`Match.end_reason`), in order of precedence.

    When several hold after the same deal, the first listed here is reported;
    the losers are chosen the same way whichever it is (see :mod:`gongzhu.match`).
    """

    GRAND_SLAM = "grand slam"
    """A grand slam under ``grand_slam_outcome="instant-win"`` (seeds/002 v8)."""
    LOSS_THRESHOLD = "loss threshold"
    """A running total reached the loss threshold (seeds/000 §08, 002, 003, 004)."""
    EXACT_FLIP = "exact flip"
    """A running total of exactly the loss threshold flipped (seeds/004)."""
    WIN_THRESHOLD = "win threshold"
    """A running total reached the win threshold (seeds/001)."""
    DEAL_CAP = "deal cap"
    """``max_deals`` deals were played (seeds/001: 30)."""


# No table has more seats: an iterable of names is read no further than this plus one.
_MAX_SEATS: Final = 5


def _as_deal_score(deal: Any) -> DealScore:
    if isinstance(deal, DealScore):
        return deal
    if not hasattr(deal, "score"):
        raise MatchError(
            f"add() needs a DealScore or a finished deal with a score() method;"
            f" got {type(deal).__name__} (use add_totals() for plain numbers)"
        )
    try:
        complete = getattr(deal, "is_over", True)  # Round, Board; a bare score() counts
        if callable(complete):
            complete = complete()
        if not complete:
            raise MatchError("the deal is not complete: only finished deals count in a match")
        result = deal.score
        if callable(result):
            result = result()
    except MatchError:
        raise
    except GongzhuError as exc:
        raise MatchError(f"the deal could not be scored: {exc}") from exc
    except TypeError as exc:
        # A class or a module with a score attribute (add(Round), add(gongzhu)).
        raise MatchError(
            f"add() needs a finished deal; {brief(deal)}.score() could not be called ({exc})"
        ) from exc
    if not isinstance(result, DealScore):
        raise MatchError(
            f"{type(deal).__name__}.score() returned {type(result).__name__}, not a DealScore"
        )
    return result


def _deal_from_totals(
    totals: tuple[int, ...],
    rules: RuleSet,
    pig_taker: int | None,
    grand_slam_seat: int | None,
    all_hearts_seat: int | None,
) -> DealScore:
    # A line tuple is (hearts, pig, sheep, base, kind, mult, bonus, total, flags), see scoring.
    lines = tuple(
        (0, 0, 0, t, 0, 1, 0, t, (seat == all_hearts_seat) | (seat == grand_slam_seat) << 1)
        for seat, t in enumerate(totals)
    )
    return DealScore(
        totals=totals,
        rules=rules,
        captures=(_EMPTY,) * len(totals),
        exposed={},
        all_hearts_seat=all_hearts_seat,
        grand_slam_seat=grand_slam_seat,
        pig_taker=pig_taker,
        lines=lines,
    )


_EMPTY: Final = CardSet()
_TOTAL_LIMIT: Final = 2**53 - 1


def _losers(units: tuple[int, ...], excluded: set[int], rules: RuleSet) -> tuple[int, ...]:
    """The losing units of a finished match (the rule in the module docstring, step 5)."""
    candidates = [u for u in range(len(units)) if u not in excluded]
    if not candidates:
        return ()
    loss = rules.loss_threshold
    if loss is not None and rules.simultaneous_loss is SimultaneousLoss.ALL_CROSSED:
        if rules.loss_inclusive:
            crossed = tuple(u for u in candidates if units[u] <= loss)
        else:
            crossed = tuple(u for u in candidates if units[u] < loss)
        if crossed:
            return crossed
    # Under LOWEST the lowest candidate is past the threshold whenever anyone is.
    low = min(units[u] for u in candidates)
    return tuple(u for u in candidates if units[u] == low)


def _end_reason(
    rules: RuleSet, units: tuple[int, ...], count: int, slam: int | None, flipped: bool
) -> EndReason | None:
    """Why the match ends after ``count`` deals with these unit totals, if it does."""
    loss, win = rules.loss_threshold, rules.win_threshold
    low, high = min(units), max(units)
    crossed = loss is not None and (low <= loss if rules.loss_inclusive else low < loss)
    if slam is not None and rules.grand_slam_outcome is GrandSlamOutcome.INSTANT_WIN:
        return EndReason.GRAND_SLAM
    if crossed:
        return EndReason.LOSS_THRESHOLD
    if flipped:
        return EndReason.EXACT_FLIP
    if win is not None and (high >= win if rules.win_inclusive else high > win):
        return EndReason.WIN_THRESHOLD
    if rules.max_deals is not None and count >= rules.max_deals:
        return EndReason.DEAL_CAP
    return None
