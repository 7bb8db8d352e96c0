"""A finished deal reviewed for one seat: its tricks, and where that seat lost points.

:func:`review` replays a finished :class:`~gongzhu.Round` from its start and,
at every card the seat chose among two or more legal ones, asks the search
bot (:class:`~gongzhu.ai.search.SearchStrategy`, PIMC over deals sampled
from that seat's :class:`~gongzhu.PlayerView` by :class:`~gongzhu.ai.Worlds`)
what each legal card was worth *from what the seat could know then*, never
from the hidden hands. A card the bot judges worse than its own choice by a
clear margin is a :class:`Loss`: the trick, the card played, the card the bot
prefers (legal then), and the expected points lost.

The seat's exposure decision is judged the same way, before the cards: if it
held an exposable card and exposed face up or declined, the bot values every
face-up subset of its exposable cards and declining on its view at that moment
(:meth:`~gongzhu.ai.search.SearchStrategy.analyse_exposure`), and a choice
clearly worse than the bot's is an :class:`ExposureLoss` (exposing the pig
doubles what it costs: often the deal's biggest decision). Face-down and blind
exposures (rule sets that have them) are not valued by the search and not
judged (a seat that exposed blind has its decision left unjudged too), nor is a
rule set without exposure; under face-down-up exposure a face-up choice is
judged among the face-up ones only.

"Clear" means all of: the bot chose otherwise, by at least :data:`MIN_LOSS`
points, and by more than the noise of the two estimates (their standard errors
added). Every judgement is deterministic: the bot searches a fixed number of
rollouts (:data:`REVIEW_LIMIT`) from a seed derived from the position.

The points are the search's objective, for cards and exposure alike: the
seat's deal score against the other seats' mean (its own points less their
mean; under pairs, its team's less the other team's), so giving the pig to
another seat rather than taking it is worth more than the 100 points the seat
avoids, and exposing A♥ counts the hearts it doubles for the others too.
The same function serves the library, ``gongzhu review FILE`` and the web
table's review panel.

>>> from gongzhu import deal, RuleSet
>>> r = deal(rules=RuleSet(exposable=""), seed=4)
>>> while not r.is_over:
...     r = r.play(r.legal_plays[0])
>>> rv = review(r, 0, limit=Limit(simulations=40))
>>> [t.number for t in rv.tricks] == list(range(1, 14)), rv.score == r.score().totals[0]
(True, True)
>>> all(loss.better in loss.legal and loss.points > 0 for loss in rv.losses)
True
>>> rv.exposure is None    # this rule set has no exposure
True
"""

from __future__ import annotations

from typing import Final

import attrs

from gongzhu.actions import Exposure, Play
from gongzhu.ai.search import Analysis, ExposureAnalysis, Limit, SearchStrategy
from gongzhu.cards import Card, CardSet
from gongzhu.errors import GongzhuError
from gongzhu.round import Round, deal
from gongzhu.trick import Trick

__all__ = [
    "MIN_LOSS",
    "REVIEW_LIMIT",
    "Decision",
    "ExposureDecision",
    "ExposureLoss",
    "Loss",
    "Review",
    "ReviewError",
    "TrickReview",
    "review",
    "start_of",
]

REVIEW_LIMIT: Final = Limit(simulations=480)
"""Rollouts per decision reviewed: 13 decisions stay within a few seconds of plain Python."""
MIN_LOSS: Final = 10
"""The smallest loss shown (points): one low heart."""


class ReviewError(GongzhuError, ValueError):
    """A round that cannot be reviewed (not finished, or a seat that does not exist)."""


@attrs.frozen
class TrickReview:
    """One trick of the deal: its number (1–13), who led, the cards by seat, the winner."""

    number: int
    leader: int
    cards: tuple[tuple[int, Card], ...]
    """(seat, card) in play order."""
    winner: int


@attrs.frozen
class Decision:
    """One card the seat chose among several, and what the bot made of it."""

    trick: int
    card: Card
    best: Card
    """The card the bot would have played (``card`` itself when they agree)."""
    legal: CardSet
    lost: float
    """Expected points lost against ``best`` (0.0 when the bot agrees)."""
    noise: float
    """The two estimates' standard errors, added."""


@attrs.frozen
class Loss:
    """A decision judged worse than the bot's choice by a clear margin (see the module)."""

    trick: int
    card: Card
    better: Card
    points: int
    """Expected points lost against ``better`` (a positive whole number)."""
    legal: CardSet

    def __str__(self) -> str:
        return (
            f"trick {self.trick}: {self.card} cost about {self.points} points; "
            f"{self.better} was better"
        )


def _exposing(cards: CardSet) -> str:
    return f"exposing {cards}" if cards else "declining"


@attrs.frozen
class ExposureDecision:
    """The seat's exposure decision (face up, or declining) and what the bot made of it."""

    chosen: CardSet
    """The cards the seat exposed (empty: it declined)."""
    best: CardSet
    """The exposure the bot would have made (``chosen`` itself when they agree)."""
    lost: float
    """Expected points lost against ``best`` (0.0 when the bot agrees)."""
    noise: float
    """The two estimates' standard errors, added."""


@attrs.frozen
class ExposureLoss:
    """An exposure decision judged worse than the bot's by a clear margin (see the module)."""

    chosen: CardSet
    better: CardSet
    """The exposure the bot prefers (empty: declining)."""
    points: int
    """Expected points lost against ``better`` (a positive whole number)."""

    def __str__(self) -> str:
        return (
            f"exposure: {_exposing(self.chosen)} cost about {self.points} points; "
            f"{_exposing(self.better)} was better"
        )


@attrs.frozen
class Review:
    """What :func:`review` found for ``seat``: the tricks, every decision, the losses."""

    seat: int
    score: int
    """The seat's score for the deal."""
    tricks: tuple[TrickReview, ...]
    decisions: tuple[Decision, ...]
    losses: tuple[Loss, ...]
    exposure: ExposureDecision | None = None
    """The seat's exposure decision, judged (``None``: none made, none to make, or one the
    review does not judge: see the module)."""
    exposure_loss: ExposureLoss | None = None
    """The exposure decision, if it was a clear loss."""

    @property
    def lost(self) -> int:
        """The points lost in all (the exposure's loss and the cards' added)."""
        exposure = self.exposure_loss.points if self.exposure_loss is not None else 0
        return exposure + sum(loss.points for loss in self.losses)

    def __str__(self) -> str:
        lines = [f"seat {self.seat}: {self.score:+d} this deal"]
        for t in self.tricks:
            cards = " ".join(f"{c}" for _, c in t.cards)
            lines.append(f"{t.number:2d}. {cards}  → seat {t.winner}")
        if self.exposure_loss is not None:
            lines.append(str(self.exposure_loss))
        lines.extend(str(loss) for loss in self.losses)
        if not self.losses and self.exposure_loss is None:
            lines.append("no clear loss: every card was as good as the computer's choice")
        return "\n".join(lines)


def start_of(rnd: Round) -> Round:
    """The deal ``rnd`` as dealt, before any action (its history replays onto it)."""
    first = rnd.tricks[0].leader if rnd.tricks else rnd.leader
    for leader in (None, first):
        try:
            if rnd.seed is not None:
                start = deal(rules=rnd.rules, seed=rnd.seed, leader=leader, dealer=rnd.dealer)
            else:
                start = Round.from_hands(
                    rnd.dealt, rules=rnd.rules, leader=leader, dealer=rnd.dealer
                )
            replayed = start
            for action in rnd.history:
                replayed = replayed.apply(action)
        except GongzhuError:
            continue
        if replayed == rnd:
            return start
    raise ReviewError("the round's start cannot be rebuilt from its history")


def _tricks(tricks: tuple[Trick, ...]) -> tuple[TrickReview, ...]:
    out = []
    for number, t in enumerate(tricks, 1):
        assert t.winner is not None
        out.append(
            TrickReview(number, t.leader, tuple(zip(t.seats, t.cards, strict=True)), t.winner)
        )
    return tuple(out)


def _judge(analysis: Analysis, card: Card, trick: int, legal: CardSet) -> Decision:
    best = analysis.best
    mine = next(m for m in analysis.moves if m.card == card)
    lost = max(0.0, best.expected - mine.expected)
    return Decision(trick, card, best.card, legal, lost, best.stderr + mine.stderr)


def _judge_exposure(analysis: ExposureAnalysis, chosen: CardSet) -> ExposureDecision:
    best = analysis.best
    mine = next(o for o in analysis.options if o.cards == chosen)
    lost = max(0.0, best.expected - mine.expected)
    return ExposureDecision(chosen, best.cards, lost, best.stderr + mine.stderr)


def _exposure_at(bot: SearchStrategy, state: Round, action: Exposure) -> ExposureDecision | None:
    """The judgement of ``action``, the seat's exposure decision in ``state``: ``None`` for
    one the search does not value (face down, blind) or one without a choice."""
    if action.blind or action.face_down_cards:
        return None
    view = state.view(action.seat)
    held = view.hand & view.rules.exposable
    if not held - view.exposed - view.own_face_down:
        return None
    return _judge_exposure(bot.analyse_exposure(view), action.cards)


def _is_clear(best_differs: bool, lost: float, noise: float) -> bool:
    """A clear loss (see the module): the bot chose otherwise, by >= MIN_LOSS and the noise."""
    return best_differs and lost >= MIN_LOSS and lost > noise


def _exposure_loss(exposure: ExposureDecision | None) -> ExposureLoss | None:
    if exposure is None or not _is_clear(
        exposure.best != exposure.chosen, exposure.lost, exposure.noise
    ):
        return None
    return ExposureLoss(exposure.chosen, exposure.best, round(exposure.lost))


def review(
    rnd: Round,
    seat: int,
    *,
    limit: Limit = REVIEW_LIMIT,
    seed: int | str = "review",
) -> Review:
    """Review ``seat``'s exposure decision and cards in the finished deal ``rnd`` (see the
    module).

    ``limit`` bounds each decision's search (deterministic with ``simulations``);
    ``seed`` seeds the bot. A decision with one legal card is not judged, nor an
    exposure decision without an exposable card.
    """
    if not isinstance(rnd, Round) or not rnd.is_over:
        raise ReviewError("only a finished deal can be reviewed")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rnd.players:
        raise ReviewError(f"seat must be 0-{rnd.players - 1}, got {seat!r:.20}")
    bot = SearchStrategy(limit, seed=seed, solve=0)
    state = start_of(rnd)
    history = rnd.history
    decisions: list[Decision] = []
    mine = [a for a in history if isinstance(a, Exposure) and a.seat == seat]
    # A blind exposure is followed by the seat's ordinary decision: neither is judged.
    judged = mine[0] if len(mine) == 1 else None
    exposure: ExposureDecision | None = None
    for action in history:
        if isinstance(action, Play) and action.seat == seat:
            legal = state.legal_plays
            if len(legal) > 1:
                view = state.view(seat)
                found = bot.analyse(view)
                decisions.append(_judge(found, action.card, state.trick_number, legal))
        elif judged is not None and action is judged:
            exposure = _exposure_at(bot, state, judged)
        state = state.apply(action)
    losses = tuple(
        Loss(d.trick, d.card, d.best, round(d.lost), d.legal)
        for d in decisions
        if _is_clear(d.best != d.card, d.lost, d.noise)
    )
    return Review(
        seat,
        rnd.score().totals[seat],
        _tricks(rnd.tricks),
        tuple(decisions),
        losses,
        exposure,
        _exposure_loss(exposure),
    )
