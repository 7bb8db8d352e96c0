"""The rules of play as pure functions on ints: THE one copy. Private.

Every storage shape of a position (the persistent
:class:`~gongzhu._core.state.State` that ``Round`` wraps, the mutable
:class:`~gongzhu._core.board.Board` of rollouts and search) asks these
functions. One declared exception restates them: :mod:`gongzhu.vector`, the
batched engine on NumPy arrays, is a second restatement of the rules of play,
the scoring and the rule of thumb (NumPy cannot run these scalar functions over
a batch). It is bound to this copy by differential laws
(``tests/vector/test_vector_law.py``, ``tests/vector/test_vector_policy.py``):
every batch plays, scores and decides as the core does. A new rule goes here
and into ``vector/`` both, and the laws' strategies must draw it. Sources are
cited as in the rules specification (``docs/specification.md``).
"""

from __future__ import annotations

from typing import Final

from gongzhu._core.bits import (
    ACE_BIT,
    HEARTS,
    HIGH13,
    PIG_BIT,
    QUEEN_OF_DIAMONDS,
    QUEEN_OF_DIAMONDS_BIT,
    SHEEP_BIT,
    SUIT_MASKS,
    TEN_BIT,
    popcount,
)
from gongzhu._core.config import RESTRICT_DEAL, RESTRICT_SUIT, Config

HEARTS_BROKEN: Final = 16  # the flags' bit for "a heart has been played" (bits 0-3: suits led)


def legal_mask(
    cfg: Config, hand: int, trick: int, flags: int, exposed: int, first: bool, opening: bool
) -> int:
    """The cards of ``hand`` that may be played.

    ``trick`` and ``flags`` are the state's fields, ``exposed`` the face-up
    exposures that bind, ``first`` true while no trick is complete and
    ``opening`` true when the opening card must be led.
    """
    if trick:
        led = trick >> 3
        follow = hand & SUIT_MASKS[led]
        if not follow:
            legal = hand
        else:
            legal = follow
            if cfg.restriction == RESTRICT_SUIT and exposed & follow and not flags >> led & 1:
                free = follow & ~exposed
                if free:
                    legal = free
    else:
        if opening and first and hand & cfg.opening_card:
            return cfg.opening_card  # led even when exposed (specification §9.6)
        # The lead's restrictions; when together they leave nothing, they give way in
        # the order of specification §9.6: the exposure restriction, then the blood lock,
        # then hearts-broken (both forbid the same cards: the hearts).
        # Hearts-broken and the blood lock excuse a leader who holds only hearts: for
        # that leader they forbid nothing, so the exposure restriction alone is left
        # and holds (specification §9.6's example: every heart but an exposed A♥).
        blocked = 0
        if (
            (cfg.hearts_rule or (cfg.blood_lock and exposed & ACE_BIT))
            and not flags & HEARTS_BROKEN
            and hand & ~HEARTS
        ):
            blocked = HEARTS
        held = 0
        if exposed & hand:
            if cfg.restriction == RESTRICT_SUIT:
                for suit in range(4):
                    mine = exposed & hand & SUIT_MASKS[suit]
                    if mine and not flags >> suit & 1 and hand & SUIT_MASKS[suit] & ~mine:
                        held |= mine
            elif cfg.restriction == RESTRICT_DEAL and first:
                held = exposed & hand
        legal = hand & ~blocked & ~held
        if not legal:
            legal = hand & ~blocked
            if not legal:
                legal = hand
        return legal
    # Following: the led suit if held (follow suit beats every exposure restriction,
    # specification §9.5), then the literal reading's first trick of the deal.
    if cfg.restriction == RESTRICT_DEAL and first and legal & exposed:
        free = legal & ~exposed
        if free:
            legal = free
    return legal


def forced_fourth(cfg: Config, up: int) -> int:
    """The face-up exposures ``up`` once "three exposed force the fourth" (Chinese app
    rules) applies: with three exposable cards face up, the fourth is exposed too."""
    # Only face-up exposures count (specification §9.3): counting a face-down one would tell
    # every seat which card it is. A face-down fourth card is then turned face up.
    mine = up & cfg.exposable
    if popcount(mine) == 3:
        return up | cfg.exposable & ~mine
    return up


def trick_winner(led: int, taken: int) -> int:
    """The winning card of a complete trick: the highest of the led suit among ``taken``."""
    shift = led * 13
    return shift + HIGH13[taken >> shift & 0x1FFF]


def deal_over(cfg: Config, gone: int, every: int, captured: int) -> bool:
    """True once a trick completes with every dealt card played, or (``end_when_points_out``)
    every point card captured (specification §7)."""
    if gone == every:
        return True
    return cfg.end_when_points_out and captured & cfg.point_cards == cfg.point_cards


def card_factor(cfg: Config, bit: int, up: int, down: int, blind: int) -> int:
    """The scoring factor of one exposable card (specification §4): 1 unexposed; face up
    ``cfg.face_up_factor`` (2, or 4 under face-down-up), face down 2; doubled when blind."""
    if up & bit:
        factor = cfg.face_up_factor
    elif down & bit:
        factor = 2
    else:
        return 1
    return factor * 2 if blind & bit else factor


def factors(cfg: Config, up: int, down: int, blind: int) -> tuple[int, int, int, int]:
    """The factors of A♥, Q♠, J♦ and 10♣ for these exposures (the scoring kernel's order)."""
    return (
        card_factor(cfg, ACE_BIT, up, down, blind),
        card_factor(cfg, PIG_BIT, up, down, blind),
        card_factor(cfg, SHEEP_BIT, up, down, blind),
        card_factor(cfg, TEN_BIT, up, down, blind),
    )


def queen_counts(n: int, tricks: tuple[tuple[int, int, tuple[int, ...]], ...]) -> tuple[int, ...]:
    """Per seat, the tricks its Q♦ taker won after the trick that took Q♦ (the Q♦ bonus)."""
    counts = [0] * n
    taker = -1
    for _lead, winner, cards in tricks:
        if taker >= 0:
            if winner == taker:
                counts[taker] += 1
        elif QUEEN_OF_DIAMONDS in cards:
            taker = winner
    return tuple(counts)


def card_classes(cfg: Config, legal: int, up: int, between: int) -> list[int]:
    """One card of each class of interchangeable cards in ``legal`` (the lowest of each run).

    Two cards of one suit are interchangeable, whoever ends up holding either, when no
    card of ``between`` (cards still in play that could fall between them: another
    hand's, or the trick's) ranks between them and neither has a value of its own:
    never the pig, the sheep, the transformer, Q♦ under its bonus (who takes it
    counts), or a face-up exposed card (``up``: it doubles); hearts only with equal
    values. The search and the endgame solver both try one card of each class.
    """
    special = PIG_BIT | SHEEP_BIT | TEN_BIT | (cfg.point_cards & ~HEARTS) | up
    if cfg.queen_bonus:
        special |= QUEEN_OF_DIAMONDS_BIT
    values = cfg.heart_values
    out: list[int] = []
    prev = -1
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        if (
            prev >= 0
            and prev // 13 == c // 13
            and not (low | 1 << prev) & special
            and not between & (low - (2 << prev))
            and (c // 13 != 2 or values[c - 26] == values[prev - 26])
        ):
            prev = c
            continue
        out.append(c)
        prev = c
    return out
