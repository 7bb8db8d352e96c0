"""The pure :func:`score` of one deal: the piles checked, then the core's kernel.

Part of :mod:`gongzhu.scoring` (import it from there).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import islice
from typing import Any

from gongzhu.cards import Card, CardSet
from gongzhu.errors import DealError, DealTypeError
from gongzhu.rules import RuleSet
from gongzhu.scoring._input import _DEFAULT_RULES, _as_cardset
from gongzhu.scoring._result import DealScore, _score_piles

__all__ = ["score"]


def score(
    captures: Iterable[Iterable[Card | str] | str] | CardSet | str,
    exposed: Iterable[Card | str] | str | Mapping[Card | str, int] | None = (),
    *,
    rules: RuleSet | str = _DEFAULT_RULES,
    queen_bonus_tricks: Sequence[int] | None = None,
) -> DealScore:
    """Score one deal. Pure: the same input always gives the same :class:`DealScore`.

    ``rules`` is a :class:`~gongzhu.RuleSet` or a preset's name (``"online"``).
    ``captures`` holds one card collection per seat (a :class:`CardSet`, cards,
    or text like ``"QS TC 7H"``); a single pile (one CardSet or one string) is
    scored as seat 0. Cards nobody took may be left out, but the piles must be
    disjoint and in the rule set's deck (:class:`~gongzhu.DealError` otherwise).

    ``exposed`` lists the exposed cards, whoever exposed them (see
    :func:`exposure_factors`). ``queen_bonus_tricks`` gives, per seat, the
    tricks won after the trick that captured Q♦ (only used when
    ``rules.queen_of_diamonds_bonus`` is on; :meth:`Round.score` fills it in).

    >>> from gongzhu import RuleSet
    >>> score("10C 3H").totals                 # seeds/000 §04: a zero heart cancels +50
    (0,)
    >>> score("10C 3H", rules="online").totals   # seeds/001: +50 (a preset by name)
    (50,)
    """
    if isinstance(rules, str):  # a preset's name
        rules = RuleSet.preset(rules)
    if not isinstance(rules, RuleSet):
        raise DealError(f"rules must be a RuleSet, got {type(rules).__name__}")
    # Exact-class tests first: isinstance against CardSet (an ABC) is slow for a list.
    kind = captures.__class__
    if kind is not list and kind is not tuple and isinstance(captures, (str, CardSet)):
        piles: tuple[CardSet, ...] = (_as_cardset(captures, "captures"),)
        mask_list = [piles[0].mask]
    else:
        try:
            # At most one pile more than seats: an endless iterable is refused, not drained.
            raw: Sequence[Any] = (
                captures  # type: ignore[assignment]
                if kind is list or kind is tuple
                else list(islice(captures, rules.players + 1))
            )
        except TypeError:
            raise DealTypeError(
                f"captures must be card piles, one per seat; got {type(captures).__name__}"
            ) from None
        if len(raw) > rules.players:
            got = len(raw) if raw is captures else "more"
            raise DealError(f"expected 1 to {rules.players} piles, got {got}")
        if raw and isinstance(raw[0], Card) and all(isinstance(c, Card) for c in raw):
            raise DealError("captures is a list of cards: pass one pile per seat, e.g. [pile]")
        # One plain loop (no comprehension frames): this is most of score()'s own time.
        mask_list = []
        for p in raw:
            if p.__class__ is not CardSet:
                break
            mask_list.append(p.mask)
        else:
            piles = raw if kind is tuple else tuple(raw)  # type: ignore[assignment]
        if len(mask_list) != len(raw):
            piles = tuple(
                [
                    p if p.__class__ is CardSet else _as_cardset(p, f"seat {i}")
                    for i, p in enumerate(raw)
                ]
            )
            mask_list = [p.mask for p in piles]
    if not piles or len(piles) > rules.players:
        raise DealError(f"expected 1 to {rules.players} piles, got {len(piles)}")
    return _score_piles(piles, exposed, rules, queen_bonus_tricks, mask_list)
