"""Shuffling and dealing: :func:`deal` and the library's stable shuffle (:mod:`gongzhu.dealing`).

Dealing makes a :class:`~gongzhu.Round`, so it lives in the round package, beside
:meth:`Round.from_hands <gongzhu.Round.from_hands>`; :mod:`gongzhu.dealing` is its public path.

A seed deals the same cards on every machine and Python version: the shuffle
draws only ``getrandbits`` from ``random.Random(seed)``.
"""

from __future__ import annotations

import random

from gongzhu._base.seeds import SEED_INT_LIMIT, check_seed
from gongzhu._core.deal import STEPS as _STEPS
from gongzhu._core.deal import shuffle as _shuffle
from gongzhu._core.deal import split as _split
from gongzhu.cards import unchecked_cardset
from gongzhu.errors import DealError, DealTypeError
from gongzhu.round._checks import _deal_seat
from gongzhu.round._round import _DEFAULT_RULES, Round
from gongzhu.rules import RuleSet

__all__ = ["deal", "match_deal_seed", "shuffled_deck"]


_OLD_LIMIT = 2**64
# The seeds of -2**64..2**64 deal as they always did; the seeds beyond them (up to the one
# seed limit of gongzhu._base.seeds) map above every image of those, so no two seeds meet.
_FAR = 2**67


def match_deal_seed(seed: int | str, number: int) -> int:
    """The seed of deal ``number`` (1, 2, …) of a match seeded with ``seed`` (stable across runs).

    :func:`gongzhu.play_match`, the web table and the terminal game deal deal
    ``k`` of a match as ``deal(rules=rules, seed=match_deal_seed(seed, k), …)``, so one
    match seed replays the same cards everywhere.

    >>> match_deal_seed(7, 1) == match_deal_seed(7, 1) != match_deal_seed(7, 2)
    True
    """
    return random.Random(f"gongzhu-match:{seed}:{number}").getrandbits(48)


def _generator_seed(seed: int | str) -> int | str:
    # random.Random seeds an int by its absolute value, so -k would deal like k
    # (specification §9.8 wants them different): a negative seed maps above every
    # accepted positive one.
    # Images: 0..2**64 itself; -2**64..-1 to 2**65+2..3*2**64+1; beyond ±2**64 (ints of
    # up to 80 digits, below 10**80 = SEED_INT_LIMIT) to above 2**67, the negative ones
    # past SEED_INT_LIMIT + 2**67.
    if not isinstance(seed, int):
        return seed
    if -_OLD_LIMIT <= seed <= _OLD_LIMIT:
        return 2 * _OLD_LIMIT + 1 - seed if seed < 0 else seed
    if seed > 0:
        return _FAR + seed
    return _FAR + SEED_INT_LIMIT - seed


def shuffled_deck(rules: RuleSet | str, seed: int | str | None) -> list[int]:
    """The deck's card indexes after the library's stable Fisher–Yates shuffle (``rules``:
    a :class:`~gongzhu.RuleSet` or a preset's name)."""
    if isinstance(rules, str):
        rules = RuleSet.preset(rules)
    rng = random.Random(_generator_seed(seed)) if seed is not None else random.Random()
    deck, steps = _shuffle_plan(rules.engine.deck)
    # getrandbits is stable across Python versions for a given seed; the
    # library's own rejection sampling (j uniform below n) keeps shuffles
    # reproducible everywhere.
    return _shuffle(deck, steps, rng.getrandbits)


_SHUFFLE_PLANS: dict[int, tuple[tuple[int, ...], tuple[tuple[int, int, int], ...]]] = {}


def _shuffle_plan(deck: int) -> tuple[tuple[int, ...], tuple[tuple[int, int, int], ...]]:
    """The deck's indexes, and (i, i + 1, bits of i + 1) for each Fisher–Yates step."""
    plan = _SHUFFLE_PLANS.get(deck)
    if plan is None:
        cards = tuple(c.index for c in unchecked_cardset(deck))
        plan = _SHUFFLE_PLANS[deck] = (cards, _STEPS[len(cards)])
    return plan


def deal(
    *,
    rules: RuleSet | str = _DEFAULT_RULES,
    seed: int | str | None = None,
    leader: int | None = None,
    dealer: int = 0,
) -> Round:
    """Shuffle and deal a new :class:`Round`.

    The deck is shuffled with the library's own Fisher–Yates shuffle on
    ``random.Random`` (using only ``getrandbits``), so a seed gives the same
    deal on every machine and Python version. A seed is an int of at most 80
    digits or a text of at most 1000 characters (the library's one seed limit,
    :mod:`gongzhu._base.seeds`: every seed can be written to a game record);
    different seeds deal differently, ``k`` and ``-k`` included (specification §9.8);
    anything else is a :class:`~gongzhu.DealError`.
    Cards are dealt one at a time in play order, starting with the seat after
    the dealer. Without ``leader`` the holder of the opening card leads (the
    first deal of a match); a match passes the previous pig taker.

    >>> from gongzhu import RuleSet, deal
    >>> deal(seed=42).hands == deal(seed=42).hands
    True
    >>> len(deal(rules=RuleSet(players=5), seed=1).hands[0])
    10
    """
    if isinstance(rules, str):  # a preset's name
        rules = RuleSet.preset(rules)
    if not isinstance(rules, RuleSet):
        raise DealError(f"rules must be a RuleSet, got {type(rules).__name__}")
    check_seed(seed, error=DealError, type_error=DealTypeError)
    cfg = rules.engine
    _deal_seat(dealer, cfg.n, "dealer")
    order = shuffled_deck(rules, seed)
    # Card k goes to seat (dealer + 1 + k) % n: seat s gets every n-th card from there.
    dealt, hands = _split(order, cfg.n, dealer)
    return Round._start(rules, cfg, dealt, leader, dealer, seed, hands)
