"""Determinization: deals consistent with what one seat knows, sampled uniformly, then weighted.

:class:`Worlds` reads a :class:`~gongzhu.PlayerView` once and then draws
complete deals (one hand per seat) that agree with every fact the seat has:

* its own hand, and every card played (by whom, in which trick);
* voids: a seat that did not follow a suit holds none of it;
* cards exposed face up, and cards shown by a claim, are in their holder's hand;
* face-down declarations: a seat that declared ``k`` cards face down holds (or
  has played) at least ``k`` exposable cards; the seat's own are known;
* the rule set's deck (5 players: no 2♣ or 2♦) and every seat's hand size.

Sampling is **uniform** over the deals that satisfy the suit constraints: a
dynamic programme over the four suits counts, for every way of splitting a
suit's free cards among the seats that may hold it, the deals that complete
it, and draws a split with probability proportional to that count (exact
integer arithmetic). Cards within a suit are then shuffled into the chosen
counts. The face-down condition, rarely binding, is met by rejection; when
64 draws miss it, the free exposable cards are placed first (a placement
drawn by the number of deals that complete it), then the rest: the same
uniform distribution, and never a deal without the declarations.

:meth:`Worlds.weight` is the importance weight of a sampled deal: the
likelihood of every past play of the other seats under the rule-of-thumb policy
(a play the policy would have made counts 1, any other ``beta``), so worlds
in which the opponents' plays look natural count more. Exposure decisions
count as evidence the same way (once card play has begun, every seat has
decided): a seat whose face-up exposure differs from what the opponent model
(the core's rule-of-thumb exposure) would have shown with its hand in the
sampled deal multiplies the weight by ``beta`` — a seat that held Q♠ with five
lower spades and did not expose it is unlikely under the model.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from functools import lru_cache
from itertools import combinations, product
from typing import Final

from gongzhu._core.bits import BIT as BITS
from gongzhu._core.bits import SUIT_MASKS
from gongzhu._core.board import Board, of_world
from gongzhu._core.deal import deal_out
from gongzhu._core.infoset import PLAY, Info
from gongzhu._core.policy import choose_exposure, likelihood
from gongzhu.board import world_board
from gongzhu.view import PlayerView

__all__: list[str] = []

_FACT: Final[tuple[int, ...]] = tuple(math.factorial(k) for k in range(60))


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class WeightedStats:
    """Running sums of a candidate's scores over sampled deals, each weighted by the deal's
    importance weight: the weighted mean and its standard error (effective sample size)."""

    __slots__ = ("n", "sw", "sw2", "swx", "swx2")

    def __init__(self) -> None:
        self.n = 0
        self.sw = self.sw2 = self.swx = self.swx2 = 0.0

    def add(self, x: float, w: float) -> None:
        self.n += 1
        self.sw += w
        self.sw2 += w * w
        self.swx += w * x
        self.swx2 += w * x * x

    def mean(self) -> float:
        return self.swx / self.sw if self.sw else 0.0

    def stderr(self) -> float:
        if self.n < 2 or not self.sw:
            return 0.0
        mean = self.swx / self.sw
        var = max(0.0, self.swx2 / self.sw - mean * mean)
        ess = self.sw * self.sw / self.sw2
        return math.sqrt(var / max(1.0, ess - 1.0))


@lru_cache(maxsize=4096)
def _splits(
    m: int, caps: tuple[int, ...], allowed: tuple[bool, ...]
) -> tuple[tuple[int, ...], ...]:
    """Every way to give ``m`` cards to the seats (``a_i <= caps_i``, 0 where not allowed)."""
    out: list[tuple[int, ...]] = []
    k = len(caps)

    def rec(i: int, left: int, acc: list[int]) -> None:
        if i == k - 1:
            if left <= (caps[i] if allowed[i] else 0):
                out.append((*acc, left))
            return
        top = min(left, caps[i]) if allowed[i] else 0
        for a in range(top + 1):
            acc.append(a)
            rec(i + 1, left - a, acc)
            acc.pop()

    if k:
        rec(0, m, [])
    elif m == 0:
        out.append(())
    return tuple(out)


class _Pool:
    """Cards to share among some seats, each seat taking ``caps[i]``, none of a suit it lacks.

    ``count`` is the exact number of ways; :meth:`draw` picks one uniformly. Only
    suits some seat lacks need the dynamic programme; the cards of the other
    suits are exchangeable among all the seats, so they are counted with one
    multinomial at the end and dealt by a shuffle.
    """

    def __init__(self, cards: int, seats: list[int], caps: tuple[int, ...], voids: list[int]):
        self.seats = seats
        self.caps = caps
        self.suit_cards: list[list[int]] = []
        self.allowed: list[tuple[bool, ...]] = []
        self.open_cards: list[int] = []
        for u in range(4):
            allowed = tuple(not voids[s] >> u & 1 for s in seats)
            suit = _cards(cards & SUIT_MASKS[u])
            if all(allowed):
                self.open_cards.extend(suit)
            elif suit:
                self.suit_cards.append(suit)
                self.allowed.append(allowed)
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.count = self._count(0, caps) if sum(caps) == cards.bit_count() else 0

    def _count(self, u: int, caps: tuple[int, ...]) -> int:
        if u == len(self.suit_cards):
            if sum(caps) != len(self.open_cards) or min(caps, default=0) < 0:
                return 0
            mult = _FACT[len(self.open_cards)]
            for a in caps:
                mult //= _FACT[a]
            return mult
        key = (u, caps)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        m = len(self.suit_cards[u])
        total = 0
        for split in _splits(m, caps, self.allowed[u]):
            sub = self._count(u + 1, tuple(c - a for c, a in zip(caps, split, strict=True)))
            if sub:
                mult = _FACT[m]
                for a in split:
                    mult //= _FACT[a]
                total += mult * sub
        self._memo[key] = total
        return total

    def draw(self, rng: random.Random, hands: list[int]) -> None:
        """Add one uniformly drawn share-out to ``hands`` (``count`` must be positive)."""
        caps = self.caps
        for u, cards in enumerate(self.suit_cards):
            m = len(cards)
            splits = _splits(m, caps, self.allowed[u])
            pick = rng.randrange(self._count(u, caps))
            chosen = splits[-1]
            for split in splits:
                sub = self._count(u + 1, tuple(c - a for c, a in zip(caps, split, strict=True)))
                if not sub:
                    continue
                mult = _FACT[m]
                for a in split:
                    mult //= _FACT[a]
                pick -= mult * sub
                if pick < 0:
                    chosen = split
                    break
            self._deal(rng, cards, chosen, hands)
            caps = tuple(c - a for c, a in zip(caps, chosen, strict=True))
        self._deal(rng, self.open_cards, caps, hands)

    def _deal(
        self, rng: random.Random, cards: list[int], counts: tuple[int, ...], hands: list[int]
    ) -> None:
        if cards:  # rng.shuffle's own draws, in the core (the compiled build's hot loop)
            deal_out(cards, self.seats, counts, hands, rng.getrandbits)


class Worlds:
    """The deals consistent with ``view`` (see the module doc); draw them with :meth:`sample`.

    ``extra`` adds cards known to be in another seat's hand beyond what the view
    shows (seat -> mask): a table that saw who claimed knows the claimer's hand.
    """

    def __init__(self, view: PlayerView | Info, extra: Mapping[int, int] | None = None) -> None:
        info = view.info if isinstance(view, PlayerView) else view
        self.info = info
        cfg = info.cfg
        self.cfg = cfg
        n = cfg.n
        me = info.seat
        self.me = me
        played = list(info.played_by)
        self.played = played
        self.voids = info.voids
        # Every play in order, as (seat, card): the evidence Worlds.weight reads.
        order: list[tuple[int, int]] = []
        for leader, _winner, cards in (*info.tricks, (info.leader, 0, info.trick)):
            order.extend(((leader + k) % n, c) for k, c in enumerate(cards))
        self.order = order
        all_played = 0
        for m in played:
            all_played |= m
        known = [0] * n
        known[me] = info.hand
        for s in range(n):
            if s != me:
                known[s] = info.up[s] & ~all_played
        for s, mask in (extra or {}).items():
            if s != me:
                known[s] |= mask & ~all_played
        self.known = known
        others = [s for s in range(n) if s != me]
        self.others = others
        unseen = cfg.deck & ~all_played
        for m in known:
            unseen &= ~m
        shown = info.shown & unseen
        caps = {s: info.sizes[s] - known[s].bit_count() for s in others}
        if any(c < 0 for c in caps.values()) or sum(caps.values()) != unseen.bit_count():
            raise ValueError("the view's hand sizes do not match its unseen cards")
        # A seat whose face-up exposure is among the shown cards showed its hand: a claimer.
        showed = [s for s in others if known[s] & info.shown]
        self.pools = self._pools(unseen, shown, others, caps, list(info.voids), showed)
        self._facts = (unseen, shown, caps, showed)  # for _placements
        self._placed: list[tuple[int, list[int], list[_Pool]]] | None = None
        self.total = 1
        for pool in self.pools:
            self.total *= pool.count
        # Exposure decisions are evidence too (once every seat has decided, in card play):
        # each other seat's face-up exposure, set against what the opponent model would show.
        self.exposure_facts: list[tuple[int, int]] = (
            [(s, info.up[s] & cfg.exposable) for s in others]
            if cfg.exposable and info.phase == PLAY
            else []
        )
        # Face-down declarations of other seats: how many exposable cards each must hold.
        up = info.exposed
        self.face_down_need = [(s, info.down_counts[s], up) for s in others if info.down_counts[s]]

    @staticmethod
    def _pools(
        unseen: int,
        shown: int,
        others: list[int],
        caps: dict[int, int],
        voids: list[int],
        showed: list[int],
        barred: list[int] | None = None,
    ) -> list[_Pool]:
        if not shown:
            return [_Pool(unseen, others, tuple(caps[s] for s in others), voids)]
        # A claim shows the claimer's whole hand, so every claimer holds only shown
        # cards (besides its exposures); the view does not say who claimed. Take the
        # fewest seats whose hands the shown cards can fill exactly.
        free = unseen & ~shown
        for size in range(1, len(others) + 1):
            for claimers in combinations(others, size):
                if any(s not in claimers for s in showed) or any(
                    s in claimers for s in barred or ()
                ):
                    continue
                rest = [s for s in others if s not in claimers]
                a = _Pool(shown, list(claimers), tuple(caps[s] for s in claimers), voids)
                if not a.count:
                    continue
                b = _Pool(free, rest, tuple(caps[s] for s in rest), voids)
                if b.count:
                    return [a, b]
        no_voids = [0] * len(voids)
        return [_Pool(unseen, others, tuple(caps[s] for s in others), no_voids)]

    def sample(self, rng: random.Random) -> tuple[list[int], int]:
        """One consistent deal: (every seat's current hand, face-down mask of the deal).

        Uniform among the deals that agree with the view. The face-down declarations are
        met by rejection first (they rarely bind); when 64 draws miss them, the deal is
        drawn by :meth:`_placements` instead, from the same distribution: the free
        exposable cards placed first, in a way chosen by how many deals complete it.
        """
        for _attempt in range(64):
            hands = self.known[:]
            for pool in self.pools:
                pool.draw(rng, hands)
            facedown = self._face_down(rng, hands)
            if facedown >= 0:
                return hands, facedown
        placements = self._placements()
        pick = rng.randrange(sum(p[0] for p in placements))
        k = 0
        while pick >= placements[k][0]:
            pick -= placements[k][0]
            k += 1
        _count, placed, pools = placements[k]
        hands = placed[:]
        for pool in pools:
            pool.draw(rng, hands)
        facedown = self._face_down(rng, hands)
        assert facedown >= 0  # every placement meets the declarations
        return hands, facedown

    def _placements(self) -> list[tuple[int, list[int], list[_Pool]]]:
        """Every way to give the free exposable cards to the other seats that meets their
        face-down declarations: ``(deals that complete it, hands with it, pools of the rest)``.

        Each deal that meets the declarations completes exactly one placement, so drawing
        a placement by its count and the rest uniformly is uniform over those deals. A
        seat given a card shown by a claim is a claimer, one given another card is not.
        Built once, on first need (at most 4 exposable cards: a few hundred placements).
        """
        if self._placed is not None:
            return self._placed
        unseen, shown, caps, showed = self._facts
        cfg = self.cfg
        up = self.info.exposed
        need = {}
        for s, k, _up in self.face_down_need:
            have = ((self.known[s] | self.played[s]) & cfg.exposable & ~up).bit_count()
            need[s] = k - have
        free = _cards(unseen & cfg.exposable & ~up)
        holders = [[s for s in self.others if not self.voids[s] >> (c // 13) & 1] for c in free]
        placed: list[tuple[int, list[int], list[_Pool]]] = []
        for owners in product(*holders):
            got = dict.fromkeys(self.others, 0)
            for s in owners:
                got[s] += 1
            if any(got[s] < k for s, k in need.items()) or any(
                got[s] > caps[s] for s in self.others
            ):
                continue
            hands = self.known[:]
            for c, s in zip(free, owners, strict=True):
                hands[s] |= BITS[c]
            rest = unseen
            for c in free:
                rest &= ~BITS[c]
            left = {s: caps[s] - got[s] for s in self.others}
            claimers = [s for c, s in zip(free, owners, strict=True) if shown & BITS[c]]
            others = [s for c, s in zip(free, owners, strict=True) if not shown & BITS[c]]
            if set(claimers) & set(others):
                continue  # a claimer holds shown cards only
            if not shown & rest and any(left[s] for s in (*showed, *claimers)):
                continue  # ... and there are none left for it
            pools = self._pools(
                rest, shown & rest, self.others, left, list(self.voids), showed + claimers, others
            )
            count = 1
            for pool in pools:
                count *= pool.count
            if count:
                placed.append((count, hands, pools))
        if not placed:
            raise ValueError("no deal fits the face-down declarations")
        self._placed = placed
        return placed

    def _face_down(self, rng: random.Random, hands: list[int]) -> int:
        facedown = self.info.own_down
        for s, k, up in self.face_down_need:
            cards = _cards((hands[s] | self.played[s]) & self.cfg.exposable & ~up)
            if len(cards) < k:
                return -1
            for c in rng.sample(cards, k):
                facedown |= BITS[c]
        return facedown

    def _opening(self, hands: list[int], leader: int) -> bool:
        # The opening card must be led by its holder when the rules say so (specification §9.6).
        cfg = self.cfg
        tricks = self.info.tricks
        return bool(cfg.must_lead_opening and not tricks and hands[leader] & cfg.opening_card)

    def start(self, hands: list[int], facedown: int) -> Board:
        """The position of the view, in the sampled deal (its current state, a core Board)."""
        return world_board(self.info, hands, facedown)

    def weight(self, hands: list[int], facedown: int, beta: float) -> float:
        """The likelihood of the other seats' past plays and exposure decisions in this deal
        under the core's rule-of-thumb policy: a play or decision it would have
        made counts 1, any other ``beta``."""
        if beta >= 1.0:
            return 1.0
        dealt = [h | p for h, p in zip(hands, self.played, strict=True)]
        w = 1.0
        for s, up in self.exposure_facts:
            if choose_exposure(self.cfg, dealt[s]) != up:
                w *= beta  # the seat did not expose what the model would have
        if not self.order:
            return w
        info = self.info
        first = info.tricks[0][0] if info.tricks else info.leader
        b = of_world(
            self.cfg, dealt[:], dealt, first, [], [],
            info.exposed, facedown, 0, self._opening(dealt, first),
        )  # fmt: skip
        return w * likelihood(b, [card for _seat, card in self.order], self.me, beta)
