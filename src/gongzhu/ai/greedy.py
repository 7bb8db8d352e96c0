"""A greedy sampling bot, :class:`GreedyStrategy`: the arena's sparring partner, the "normal" level.

For each legal card the bot samples deals consistent with its
:class:`~gongzhu.PlayerView` (uniformly, with the search bot's sampler,
:mod:`gongzhu.ai._determinize`), plays the card and lets the seats after it
finish the current trick greedily, each playing what is best for itself in
that deal assuming the seats after it do the same (the core's one-trick
look-ahead, :mod:`gongzhu._core.greedy`, the published MrGreed's scheme). A
card's value in a deal is what the trick moved the seat's (team's) deal
score against the other seats' mean, as the engine scores the piles, plus
the relief of giving the card up (a positional prior: high cards, the pig's
guards while the pig is out, ...); on the first three leads, short suits are
preferred. The card with the best mean over the sampled deals wins; every
card is tried in the same deals, so the comparison is paired. It looks no
further than the current trick: that is what makes it cheap (about 2 ms a
decision compiled) and what the search bot has to beat.

Ties (cards of equal rank burden that lose the same clean trick) go to the
``fallback`` strategy's choice among the tied cards, and exposure decisions
are the ``fallback``'s; :func:`gongzhu.bots.make_strategy` gives ``greedy``
and ``normal`` the rule-of-thumb bot as fallback. Without one, ties go to
the highest card (shedding high cards while it is safe) and the bot exposes
nothing.

With a ``seed`` the bot is deterministic: each decision's random numbers are
derived from the seed and the position, not from the calls before it.

>>> from gongzhu import RuleSet, deal
>>> r = deal(rules=RuleSet(exposable=""), seed=4)
>>> view = r.view(r.to_act)
>>> bot = GreedyStrategy(seed=1)
>>> card = bot.choose_play(view, view.legal_plays)
>>> card in view.legal_plays, card == GreedyStrategy(seed=1).choose_play(view, view.legal_plays)
(True, True)
"""

from __future__ import annotations

import random
from typing import Protocol

from gongzhu._base.seeds import check_seed
from gongzhu._base.text import brief as _brief
from gongzhu._core.greedy import trick_values
from gongzhu._core.infoset import Info
from gongzhu._core.policy import short_suit_bonus
from gongzhu.ai._determinize import Worlds
from gongzhu.board import GREEDY_SHORT_PREFERENCE as _SHORT_PREFERENCE
from gongzhu.board import GREEDY_SHORT_TRICKS as _SHORT_TRICKS
from gongzhu.cards import Card, CardSet
from gongzhu.errors import GongzhuError
from gongzhu.view import PlayerView

__all__ = ["GreedyError", "GreedyStrategy"]


class GreedyError(GongzhuError, ValueError):
    """Bad arguments for :class:`GreedyStrategy` or one of its decisions."""


class _Fallback(Protocol):
    """What :class:`GreedyStrategy` asks its fallback (any :class:`~gongzhu.Strategy` does)."""

    def choose_play(self, view: PlayerView, legal: CardSet) -> Card: ...

    def choose_exposure(self, view: PlayerView) -> CardSet: ...


_MAX_WORLDS = 10_000


class GreedyStrategy:
    """Picks the card with the best expected outcome of the current trick (see the module doc).

    ``worlds`` deals are sampled a decision (20 by default); ``fallback``
    breaks ties and decides exposure; ``seed`` makes the bot reproducible.
    """

    def __init__(
        self,
        seed: int | str | None = None,
        *,
        worlds: int = 20,
        fallback: _Fallback | None = None,
        tolerance: float = 0.0,
    ) -> None:
        if (
            isinstance(worlds, bool)
            or not isinstance(worlds, int)
            or not 1 <= worlds <= _MAX_WORLDS
        ):
            raise GreedyError(f"worlds must be an int 1-{_MAX_WORLDS}, got {_brief(worlds)}")
        check_seed(seed, error=GreedyError)
        if fallback is not None and not (
            callable(getattr(fallback, "choose_play", None))
            and callable(getattr(fallback, "choose_exposure", None))
        ):
            raise GreedyError(f"fallback must be a Strategy, got {type(fallback).__name__}")
        if (
            isinstance(tolerance, bool)
            or not isinstance(tolerance, (int, float))
            or not 0 <= tolerance <= 1000
        ):
            raise GreedyError(f"tolerance must be a number 0-1000, got {_brief(tolerance)}")
        self.seed = seed
        self.worlds = worlds
        self.tolerance = float(tolerance)
        self.fallback = fallback

    def __repr__(self) -> str:
        return f"GreedyStrategy(seed={self.seed!r}, worlds={self.worlds})"

    def _rng(self, info: Info) -> random.Random:
        plays = ",".join(str(c) for _lead, _won, cards in (*info.tricks, (0, 0, info.trick))
                         for c in cards)  # fmt: skip
        return random.Random(
            f"gongzhu-greedy:{self.seed}:{info.seat}:{info.hand}:{info.exposed}:{plays}"
        )

    def choose_exposure(self, view: PlayerView) -> CardSet:
        """The fallback's exposure (nothing without a fallback)."""
        if not isinstance(view, PlayerView):
            raise GreedyError(f"a strategy decides from a PlayerView, got {type(view).__name__}")
        if self.fallback is None:
            return CardSet()
        return self.fallback.choose_exposure(view)

    def choose_play(self, view: PlayerView, legal: CardSet) -> Card:
        """The legal card with the best expected trick outcome."""
        if not isinstance(view, PlayerView):
            raise GreedyError(f"a strategy decides from a PlayerView, got {type(view).__name__}")
        if not isinstance(legal, CardSet) or not legal:
            raise GreedyError(f"choose_play needs a non-empty CardSet, got {_brief(legal)}")
        cards = legal.cards
        if len(cards) == 1:
            return cards[0]
        values = self.trick_values(view, legal)
        best = max(values)
        tied = [c for c, v in zip(cards, values, strict=True) if v >= best - self.tolerance - 1e-9]
        if len(tied) == 1:
            return tied[0]
        if self.fallback is not None:
            choice = self.fallback.choose_play(view, CardSet(tied))
            if choice in tied:
                return choice
        return max(tied, key=lambda c: (c.rank, c.index))

    def trick_values(self, view: PlayerView, legal: CardSet) -> list[float]:
        """Each card of ``legal`` (in order): its mean one-trick value over the sampled deals.

        A card's value in one deal is what the current trick, answered
        greedily by the seats after it, adds to the seat's (team's) deal
        score minus what it adds to the other seats' on average, plus the
        relief of giving the card up (:mod:`gongzhu._core.greedy`); on an
        early lead, short suits are preferred.
        """
        info = view.info
        worlds = Worlds(info)
        rng = self._rng(info)
        cards = legal.cards
        ids = [c.index for c in cards]
        sums = [0.0] * len(cards)
        for _ in range(self.worlds):
            hands, facedown = worlds.sample(rng)
            values = trick_values(worlds.start(hands, facedown), ids)
            for k in range(len(ids)):
                sums[k] += values[k]
        means = [s / self.worlds for s in sums]
        if not info.trick and len(info.tricks) < _SHORT_TRICKS:
            cfg, hand, played = info.cfg, info.hand, info.played
            for k, card in enumerate(cards):
                means[k] += short_suit_bonus(cfg, hand, played, card.index // 13, _SHORT_PREFERENCE)
        return means
