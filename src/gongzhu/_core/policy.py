"""Policies that play inside the core: uniform random and the rule-of-thumb bot. Private.

A policy chooses the card of the seat to act on a
:class:`~gongzhu._core.board.Board`: ``policy.choose(board) -> card index``.
:class:`RandomPolicy` and :class:`RuleOfThumb` are native (compiled with the
core); any other object with a ``choose(board)`` method works too (called
through Python), so search code can plug in its own.

The rule-of-thumb tactics (seeds/001 "Тактика в гунчжу"): duck under the card
winning a trick that holds points, drop the pig under a higher spade, discard
the pig, A♠/K♠ and high hearts when void, take a clean trick (or the sheep)
when playing last, lead low (the first leads from short suits, as the
published greedy bots do), keep the sheep. With pairs it never discards
points on a partner's trick and gives it the sheep. It reads every scoring
option of the rule set from its :class:`~gongzhu._core.config.Config` (heart
values, ``pig_value``, the sheep's values, the exposure factors) and decides
from what the acting seat may know: the face-up exposures and its own
face-down cards, never another seat's (:func:`choose_ints` takes exactly a
seat's view). It is the public ``RuleOfThumbStrategy``, the opponent model of
the search's importance weights (:func:`likelihood`) and its guess at the
exposures of the seats that have not decided, and it plays the search's
playouts outside the team game (:mod:`gongzhu._core.playout`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Protocol

from gongzhu._core.bits import (
    BIT,
    DIAMONDS,
    JACK_OF_DIAMONDS,
    KING_OF_SPADES,
    PIG_BIT,
    POP13,
    QUEEN_OF_SPADES,
    SHEEP_BIT,
    SPADES,
    SUIT_MASKS,
    TEN_BIT,
    TEN_OF_CLUBS,
    highest,
    lowest,
    popcount,
)
from gongzhu._core.board import Board, of_state
from gongzhu._core.config import Config
from gongzhu._core.infoset import Info
from gongzhu._core.rng import M32, next_random, random_card
from gongzhu._core.rules import factors
from gongzhu._core.state import State

if TYPE_CHECKING:  # annotations only (never evaluated): the pure build needs no mypy_extensions
    from mypy_extensions import i64

_HIGH_SPADES: Final = (1 << 50) | (1 << 51)
_LOW_SPADES: Final = SUIT_MASKS[3] & ((1 << 49) - 1)
_DIAMOND_HONOURS: Final = (1 << 23) | (1 << 24) | (1 << 25)
# How much a lead prefers a suit one card shorter than the other hands' mean (in ranks),
# over the first SHORT_LEADS tricks.
SHORT_WEIGHT: Final = 8
SHORT_LEADS: Final = 6


class Policy(Protocol):
    """Anything that chooses the card of the seat to act on a board."""

    def choose(self, b: Board) -> int: ...


class RandomPolicy:
    """Uniform random legal plays from a generator of its own (the library's random bot).

    ``x`` is the generator state (:func:`gongzhu._core.rollout.seed_state`);
    each decision draws once. ``policy(state, legal)`` serves the State loop.
    """

    __slots__ = ("x",)

    def __init__(self, x: int) -> None:
        self.x = x if x else 0x2545F491

    def __call__(self, state: State, legal: int) -> int:
        self.x = next_random(self.x)
        return random_card(legal, self.x)

    def choose(self, b: Board) -> int:
        self.x = next_random(self.x)
        return random_card(b.legal(), self.x)


# -- the rule-of-thumb policy ----------------------------------------------------------------


class RuleOfThumb:
    """The rule-of-thumb bot on a board (stateless: one instance serves every seat)."""

    __slots__ = ()

    def choose(self, b: Board) -> int:
        return choose_board(b, b.legal())

    def __call__(self, state: State, legal: int) -> int:
        # The State loop (when a Python strategy holds another seat).
        return choose_board(of_state(state), legal)


def choose_board(b: Board, legal: int) -> int:
    """The rule-of-thumb card among ``legal`` for the seat to act on ``b``."""
    if not legal & (legal - 1):
        return lowest(legal)
    cfg = b.cfg
    seat = (b.leader + len(b.trick)) % cfg.n
    # What the seat may know: the face-up exposures and its own face-down cards.
    known = b.up | b.down & b.dealt[seat]
    if known:
        fa, fq, fj, _ft = factors(cfg, b.up, b.down & b.dealt[seat], 0)
    else:
        fa = fq = fj = 1
    return choose_ints(
        cfg, legal, b.hands[seat], seat, b.leader, b.trick, b.played, b.capt, fa, fq, fj
    )


def card_value(cfg: Config, card: int, fa: int, fq: int, sheep: int) -> int:
    """What ``card`` adds to its taker's base score (``fa``/``fq``: the exposure factors of A♥
    and Q♠, ``sheep``: the sheep's worth); 10♣ adds nothing by itself."""
    if 26 <= card < 39:
        return cfg.heart_values[card - 26] * fa
    if card == QUEEN_OF_SPADES:
        return cfg.pig_value * fq
    if card == JACK_OF_DIAMONDS:
        return sheep
    return 0


def _pile(cfg: Config, mask: int, fa: int, fq: int, sheep: int) -> int:
    total = cfg.heart_sums[mask >> 26 & 0x1FFF] * fa
    if mask & PIG_BIT:
        total += cfg.pig_value * fq
    if mask & SHEEP_BIT:
        total += sheep
    return total


def choose_info(info: Info, legal: int) -> int:
    """The rule-of-thumb card among ``legal`` (a non-empty mask) from what ``info`` knows:
    the face-up exposures and its own face-down cards count, others' face-down ones not."""
    cfg = info.cfg
    fa, fq, fj, _ft = factors(cfg, info.exposed, info.own_down, 0)
    return choose_ints(
        cfg, legal, info.hand, info.seat, info.leader, list(info.trick), info.played,
        list(info.captured), fa, fq, fj,
    )  # fmt: skip


def choose_ints(
    cfg: Config,
    legal: int,
    hand: int,
    seat: int,
    leader: int,
    trick: list[int],
    played: int,
    capt: list[int],
    fa: int,
    fq: int,
    fj: int,
) -> int:
    """The rule-of-thumb card among ``legal`` (a non-empty mask) from one seat's knowledge.

    ``hand`` is the seat's hand, ``trick`` the cards of the trick in progress
    led by ``leader``, ``played`` every card played to a trick, ``capt`` the
    captured masks (only their point cards are read), ``fa``/``fq``/``fj`` the
    exposure factors of A♥, Q♠ and J♦ as the seat knows them.
    """
    if not legal & (legal - 1):
        return lowest(legal)
    n = cfg.n
    sheep = cfg.sheep_worth(fj)
    pig_out = not (played | hand) & PIG_BIT
    if not trick:
        return _lead(cfg, legal, hand, played, pig_out, fa)
    led = trick[0] // 13
    top = -1
    top_k = 0
    trick_val = 0
    trick_mask = 0
    for k in range(len(trick)):
        c = trick[k]
        trick_mask |= BIT[c]
        if c // 13 == led and c > top:
            top = c
            top_k = k
        if c in (QUEEN_OF_SPADES, JACK_OF_DIAMONDS) or 26 <= c < 39:
            trick_val += card_value(cfg, c, fa, fq, sheep)
    winner = (leader + top_k) % n
    team_of = cfg.team_of
    if not legal & SUIT_MASKS[led]:
        return _discard(cfg, legal, seat, winner, capt, pig_out, fa, fq, sheep)
    last = len(trick) == n - 1
    below = legal & (BIT[top] - 1)
    above = legal & ~below
    # The pig under a higher spade already on the trick: it cannot take the trick.
    if legal & PIG_BIT and top > QUEEN_OF_SPADES:
        return QUEEN_OF_SPADES
    if last:
        if above:
            win = above & ~PIG_BIT or above
            card = JACK_OF_DIAMONDS if win & SHEEP_BIT else highest(win)
            gain = trick_val + card_value(cfg, card, fa, fq, sheep)
            if trick_mask & TEN_BIT or card == TEN_OF_CLUBS:
                # The transformer doubles the taker's whole pile (or scores alone).
                mine = _pile(cfg, capt[seat], fa, fq, sheep) + gain
                gain = mine if mine else 25
            if team_of[winner] == team_of[seat] and cfg.nteams < n:
                gain = -gain  # the partner would take it anyway
            if gain >= 0 or not below:
                return card
        keep = below & ~SHEEP_BIT or below
        return highest(keep)
    if below:
        # Duck: the highest card that still loses to the trick's winner.
        keep = below & ~SHEEP_BIT or below
        return highest(keep)
    cand = above & ~PIG_BIT or above
    if led == SPADES and pig_out:
        cand = cand & ~_HIGH_SPADES or cand  # A♠/K♠ would catch the pig
    return lowest(cand)


def _discard(
    cfg: Config,
    legal: int,
    seat: int,
    winner: int,
    capt: list[int],
    pig_out: bool,
    fa: int,
    fq: int,
    sheep: int,
) -> int:
    # Void in the led suit: give the winner what hurts (the pig, hearts, A♠/K♠ while the
    # pig is out), or, to a partner, what helps (the sheep); the weights order the kinds.
    partner = cfg.team_of[winner] == cfg.team_of[seat] and cfg.nteams < cfg.n
    best = -1
    best_v = -(10**9)
    winner_pile = _pile(cfg, capt[winner], fa, fq, sheep)
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        rank = c % 13
        if c == QUEEN_OF_SPADES:
            v = -1000 if partner else 1000
        elif c == JACK_OF_DIAMONDS:
            v = 500 if partner else -500
        elif 26 <= c < 39:
            hv = -cfg.heart_values[c - 26] * fa
            v = -hv - 100 if partner else 100 + hv + rank
        elif c == TEN_OF_CLUBS:
            v = (250 if winner_pile < 0 else -50) * (-1 if partner else 1)
        elif c >= KING_OF_SPADES and pig_out:
            v = 300 + rank
        else:
            v = rank
        if v > best_v:
            best = c
            best_v = v
    return best


def _lead(cfg: Config, legal: int, hand: int, played: int, pig_out: bool, fa: int) -> int:
    # Lead low; keep the pig and the spades that guard it; a sheep only as the top diamond.
    outstanding = cfg.deck & ~played & ~hand
    holds_pig = hand & PIG_BIT != 0
    # The first leads come from short suits: a void sooner is a discard sooner.
    early = popcount(played) < SHORT_LEADS * cfg.n
    best = -1
    best_v = -(10**9)
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        rank = c % 13
        suit = c // 13
        v = -rank
        if early and not (suit == SPADES and holds_pig):
            v += short_suit_bonus(cfg, hand, played, suit, SHORT_WEIGHT)
        if c == QUEEN_OF_SPADES:
            v -= 200
        elif suit == SPADES:
            if pig_out:
                v += -100 if c > QUEEN_OF_SPADES else 8
            elif holds_pig:
                v -= 5
        elif 26 <= c < 39:
            v -= 4 - cfg.heart_values[c - 26] * fa // 5
        elif c == JACK_OF_DIAMONDS:
            # Led, the sheep is safe only as the highest diamond still out.
            v += 20 if not outstanding & SUIT_MASKS[DIAMONDS] & ~(BIT[c + 1] - 1) else -60
        elif c == TEN_OF_CLUBS:
            v -= 10
        if not outstanding & SUIT_MASKS[suit]:
            v -= 30  # nobody can follow: the trick is ours, with whatever is discarded
        if v > best_v:
            best = c
            best_v = v
    return best


def short_suit_bonus(cfg: Config, hand: int, played: int, suit: int, weight: int) -> int:
    """``weight`` for each card by which ``hand`` is shorter in ``suit`` than the other hands' mean.

    ``played`` is every card played to a trick; the bonus is negative for a long suit. The
    rule of thumb's leads and the greedy bot's both read it.
    """
    n = cfg.n
    theirs = POP13[(cfg.deck & ~played & ~hand) >> 13 * suit & 0x1FFF]
    mine = POP13[hand >> 13 * suit & 0x1FFF]
    return weight * (theirs - (n - 1) * mine) // (n - 1)


def choose_exposure(cfg: Config, hand: int) -> int:
    """The rule-of-thumb exposure of a hand: the pig with five lower spades; a strong sheep."""
    ex = cfg.exposable & hand
    out = 0
    if ex & PIG_BIT and popcount(hand & _LOW_SPADES) >= 5:
        out |= PIG_BIT
    if ex & SHEEP_BIT and cfg.exposed_sheep_value > 0:
        diamonds = hand & SUIT_MASKS[DIAMONDS]
        if popcount(diamonds) >= 4 and popcount(diamonds & _DIAMOND_HONOURS) >= 2:
            out |= SHEEP_BIT
    return out


# -- rollouts and the likelihood ---------------------------------------------------------------


def rollout(b: Board, policies: list[object], x: int) -> int:
    """Play ``b`` to the end: seat ``i`` by ``policies[i]`` (``None``: random from ``x``).

    Returns the generator state after the last draw.
    """
    n = b.cfg.n
    every_random = True
    for k in range(n):
        if policies[k] is not None:
            every_random = False
    if every_random:
        # Every seat random (Board.rollout, the search's rollouts): rng.next_random's
        # step inline (hot loop).
        r: i64 = x
        while not b.done:
            r ^= (r << 13) & M32
            r ^= r >> 17
            r ^= (r << 5) & M32
            b.play(random_card(b.legal(), r))
        return r
    while not b.done:
        p = policies[(b.leader + len(b.trick)) % n]
        if p is None:
            x = next_random(x)
            card = random_card(b.legal(), x)
        elif isinstance(p, RuleOfThumb):
            card = choose_board(b, b.legal())
        elif isinstance(p, RandomPolicy):
            card = p.choose(b)
        else:
            chooser: Policy = p  # type: ignore[assignment]  # any object with choose(board)
            card = chooser.choose(b)
            if not 0 <= card < 52 or not b.legal() & BIT[card]:
                raise ValueError(f"the policy chose card {card}, not a legal play")
        b.play(card)
    return x


def likelihood(b: Board, plays: list[int], me: int, beta: float) -> float:
    """``beta`` to the power of the plays among ``plays`` (from ``b``, in order) by seats other
    than ``me`` that the rule-of-thumb policy would not have made: the importance weight of
    a sampled deal (the search's determinization). Plays ``b`` forward (copy it first)."""
    w = 1.0
    for card in plays:
        if b.to_act() != me:
            legal = b.legal()
            if legal & (legal - 1) and legal & BIT[card] and choose_board(b, legal) != card:
                w *= beta
        b.play(card)
    return w
