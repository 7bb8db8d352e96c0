"""What the search finds: :class:`Analysis` of a play, :class:`ExposureAnalysis` of an exposure.

Import these names from :mod:`gongzhu.ai.search`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

import attrs

from gongzhu.ai._determinize import WeightedStats
from gongzhu.cards import Card, CardSet
from gongzhu.view import PlayerView

__all__ = ["Analysis", "ExposureAnalysis", "ExposureValue", "MoveValue"]


@attrs.frozen
class MoveValue:
    """One legal card's estimate: the seat's (team's) expected deal score after playing it,
    against the other seats' mean (under pairs: the team's total minus the other team's)."""

    card: Card
    expected: float
    samples: int
    """Rollouts that estimate it (equivalent cards share theirs)."""
    stderr: float
    """Standard error of ``expected`` (importance-weighted, over the sampled deals)."""

    def __str__(self) -> str:
        return f"{self.card}: {self.expected:+.0f} ± {self.stderr:.0f} ({self.samples} samples)"


@attrs.frozen
class Analysis(Sequence[MoveValue]):
    """What :meth:`SearchStrategy.analyse` found: every legal card, best first.

    It is a sequence of its :attr:`moves` (``analysis[0]`` is the best).
    """

    seat: int
    moves: tuple[MoveValue, ...]
    worlds: int
    """Deals sampled."""
    simulations: int
    """Rollouts played in all."""
    elapsed: float
    """Seconds spent."""

    @property
    def best(self) -> MoveValue:
        """The card the bot would play."""
        return self.moves[0]

    @overload
    def __getitem__(self, index: int) -> MoveValue: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[MoveValue, ...]: ...
    def __getitem__(self, index: int | slice) -> MoveValue | tuple[MoveValue, ...]:
        return self.moves[index]

    def __len__(self) -> int:
        return len(self.moves)

    def __str__(self) -> str:
        return "\n".join(str(m) for m in self.moves)


@attrs.frozen
class ExposureValue:
    """One exposure choice (``cards`` empty: decline) and the seat's expected deal score with it."""

    cards: CardSet
    expected: float
    samples: int
    stderr: float

    def __str__(self) -> str:
        what = f"exposing {self.cards}" if self.cards else "declining"
        return f"{what}: {self.expected:+.0f} ± {self.stderr:.0f} ({self.samples} samples)"


@attrs.frozen
class ExposureAnalysis:
    """Every exposure choice of :meth:`SearchStrategy.analyse_exposure`, best first.

    :meth:`gain` tells a client what one choice is worth against declining
    ("exposing Q♠ is worth −35 ± 8 here").
    """

    seat: int
    options: tuple[ExposureValue, ...]
    worlds: int
    elapsed: float
    gains: tuple[tuple[CardSet, float, float], ...] = ()
    """(cards, expected gain over declining, its standard error) per non-empty option."""

    @property
    def best(self) -> ExposureValue:
        return self.options[0]

    def gain(self, cards: CardSet) -> tuple[float, float]:
        """(expected gain of exposing ``cards`` over declining, its standard error)."""
        for c, g, se in self.gains:
            if c == cards:
                return g, se
        if not cards:
            return 0.0, 0.0
        raise KeyError(f"{cards} is not an option")


def _analysis(
    view: PlayerView,
    legal: int,
    reps: Sequence[int],
    stats: Sequence[WeightedStats],
    nworlds: int,
    sims: int,
    elapsed: float,
    active: Sequence[int] = (),
) -> Analysis:
    # Each legal card takes the statistics of its class's representative.
    owner: dict[int, int] = {}
    k = -1
    m = legal
    rep_set = {c: i for i, c in enumerate(reps)}
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        if c in rep_set:
            k = rep_set[c]
        owner[c] = k
    moves = [
        MoveValue(Card.from_index(c), stats[k].mean(), stats[k].n, stats[k].stderr())
        for c, k in owner.items()
    ]
    owner_rep = {c: reps[k] for c, k in owner.items()}
    # Best first (cards still searched at the end before the pruned ones); among
    # equals the lowest card (a representative is its class's lowest).
    live = {reps[k] for k in active} if active else set(reps)
    moves.sort(key=lambda mv: (owner_rep[mv.card.index] not in live, -mv.expected, mv.card.index))
    return Analysis(view.seat, tuple(moves), nworlds, sims, elapsed)


for _public in (Analysis, ExposureAnalysis, ExposureValue, MoveValue):
    _public.__module__ = "gongzhu.ai.search"  # documented and shown at the public path
