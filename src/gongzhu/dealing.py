"""Shuffling and dealing: :func:`deal` and the library's stable shuffle.

A seed deals the same cards on every machine and Python version: the shuffle
draws only ``getrandbits`` from ``random.Random(seed)``.
"""

from __future__ import annotations

import random

from gongzhu._core.deal import shuffle as _shuffle
from gongzhu._core.deal import split as _split
from gongzhu.cards import _from_mask
from gongzhu.errors import DealError
from gongzhu.round import _DEFAULT_RULES, Round, _deal_seat
from gongzhu.round._config import _config
from gongzhu.rules import RuleSet

__all__ = ["deal", "match_deal_seed"]


SEED_LIMIT = 2**64
"""Int seeds are accepted from ``-SEED_LIMIT`` to ``SEED_LIMIT`` (both included)."""
SEED_TEXT_LIMIT = 1000
"""Text seeds may have at most this many characters (what a game record holds)."""


def match_deal_seed(seed: int | str, number: int) -> int:
    """The seed of deal ``number`` (1, 2, …) of a match seeded with ``seed`` (stable across runs).

    :func:`gongzhu.play_match`, the web table and the terminal game deal deal
    ``k`` of a match as ``deal(rules, seed=match_deal_seed(seed, k), …)``, so one
    match seed replays the same cards everywhere.

    >>> match_deal_seed(7, 1) == match_deal_seed(7, 1) != match_deal_seed(7, 2)
    True
    """
    return random.Random(f"gongzhu-match:{seed}:{number}").getrandbits(48)


def _generator_seed(seed: int | str) -> int | str:
    # random.Random seeds an int by its absolute value, so -k would deal like k (RULES.md
    # §9.8 wants them different): a negative seed maps above every accepted positive one.
    if isinstance(seed, int) and seed < 0:
        return 2 * SEED_LIMIT + 1 - seed
    return seed


def shuffled_deck(rules: RuleSet, seed: int | str | None) -> list[int]:
    """The deck's card indexes after the library's stable Fisher–Yates shuffle."""
    rng = random.Random(_generator_seed(seed)) if seed is not None else random.Random()
    deck, steps = _shuffle_plan(rules._tables.deck)
    # getrandbits is stable across Python versions for a given seed; the
    # library's own rejection sampling (j uniform below n) keeps shuffles
    # reproducible everywhere.
    return _shuffle(deck, steps, rng.getrandbits)


_SHUFFLE_PLANS: dict[int, tuple[tuple[int, ...], tuple[tuple[int, int, int], ...]]] = {}


def _shuffle_plan(deck: int) -> tuple[tuple[int, ...], tuple[tuple[int, int, int], ...]]:
    """The deck's indexes, and (i, i + 1, bits of i + 1) for each Fisher–Yates step."""
    plan = _SHUFFLE_PLANS.get(deck)
    if plan is None:
        cards = tuple(c.index for c in _from_mask(deck))
        steps = tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(cards) - 1, 0, -1))
        plan = _SHUFFLE_PLANS[deck] = (cards, steps)
    return plan


def deal(
    rules: RuleSet = _DEFAULT_RULES,
    seed: int | str | None = None,
    leader: int | None = None,
    dealer: int = 0,
) -> Round:
    """Shuffle and deal a new :class:`Round`.

    The deck is shuffled with the library's own Fisher–Yates shuffle on
    ``random.Random`` (using only ``getrandbits``), so a seed gives the same
    deal on every machine and Python version. A seed is an int from
    ``-2**64`` to ``2**64`` or a text of at most 1000 characters (what a game
    record can hold); different seeds deal differently, ``k`` and ``-k``
    included (RULES.md §9.8); anything else is a :class:`~gongzhu.DealError`.
    Cards are dealt one at a time in play order, starting with the seat after
    the dealer. Without ``leader`` the holder of the opening card leads (the
    first deal of a match); a match passes the previous pig taker.

    >>> deal(seed=42).hands == deal(seed=42).hands
    True
    >>> len(deal(RuleSet(players=5), seed=1).hands[0])
    10
    """
    if not isinstance(rules, RuleSet):
        raise DealError(f"rules must be a RuleSet, got {type(rules).__name__}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
        raise DealError(f"seed must be an int or text, got {type(seed).__name__}")
    if isinstance(seed, int) and not -SEED_LIMIT <= seed <= SEED_LIMIT:
        raise DealError("an int seed must be between -2**64 and 2**64")
    if isinstance(seed, str) and len(seed) > SEED_TEXT_LIMIT:
        raise DealError(f"a text seed may have at most {SEED_TEXT_LIMIT} characters")
    cfg = _config(rules)
    _deal_seat(dealer, cfg.n, "dealer")
    try:
        order = shuffled_deck(rules, seed)
    except UnicodeEncodeError:
        # random.Random hashes a text seed's UTF-8 bytes; a lone surrogate has none.
        raise DealError("a text seed must be valid Unicode (it has a lone surrogate)") from None
    # Card k goes to seat (dealer + 1 + k) % n: seat s gets every n-th card from there.
    dealt, hands = _split(order, cfg.n, dealer)
    return Round._start(rules, cfg, dealt, leader, dealer, seed, hands)
