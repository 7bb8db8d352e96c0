"""Policy-based inference: a sampled deal's weight from a model of the other seats' play.

The search samples deals uniformly among those consistent with its view, then
weights each by how likely a model of play makes what the other seats were
seen to do in it (Rebstock, Solinas, Buro and Sturtevant, "Policy Based
Inference in Trick-Taking Card Games", 2019). ``SearchStrategy(inference=...)``
picks the model (:data:`INFERENCES`):

``"rule-of-thumb"`` (the default)
   the sampler's own weight (:meth:`gongzhu.ai.Worlds.weight`): a past play
   or exposure decision the rule-of-thumb policy would have made counts 1,
   any other ``beta``.
``"greedy"``
   the greedy bot of the published MrGreed kind as a soft model of the
   opponents' follows: in the sampled deal, each past play of an opponent (a
   seat outside the searcher's team) that followed to a trick and had a choice
   has probability
   ``(1 - ε) · softmax(values / τ)[card] + ε / |legal|``, where ``values`` are
   the greedy bot's values of the seat's legal cards there (its one-trick
   look-ahead with every hand of the deal known:
   :func:`gongzhu.board.greedy_values`), ``τ`` is :data:`TEMPERATURE` points and
   ``ε`` is :data:`EPSILON`. Each factor is divided by the largest probability of
   its decision, so a deal where every follow is the model's first choice weighs
   exactly one. Leads, and a partner's plays (``partner=True``: the greedy model
   too), are weighed by the rule-of-thumb law (``beta``): the greedy look-ahead
   of a lead nests every later seat's answers and costs many rollouts' time, a
   follow's much less. Exposure decisions are not evidence under this model
   (the greedy bot exposes nothing). Against MrGreed it bought nothing
   measurable at 2.5 times the CPU (the Bots page), so it is an option, off by
   default and in every level.

Every weight is positive, and a deal depends only on the view and the sampled
hands: the search stays deterministic for a seed.
"""

from __future__ import annotations

import math
from typing import Final

from gongzhu._core.bits import BIT
from gongzhu._core.board import of_world
from gongzhu._core.play import mask_ids
from gongzhu._core.policy import choose_board
from gongzhu.ai.driver import team_of
from gongzhu.board import greedy_values
from gongzhu.view import PlayerView

__all__: list[str] = []

INFERENCES: Final = ("rule-of-thumb", "greedy")
"""``SearchStrategy(inference=...)``: the model of the other seats' play that weights deals."""

TEMPERATURE: Final = 10.0
"""The greedy model's softmax temperature, in deal points (a card 10 points worse than the
greedy choice is ``e`` times less likely)."""

EPSILON: Final = 0.1
"""The greedy model's mixture with a uniformly random legal card (no play rules a deal out)."""


class PlayModel:
    """The greedy model's weight of sampled deals for one view (see the module doc)."""

    __slots__ = (
        "beta",
        "cfg",
        "epsilon",
        "first",
        "me",
        "modelled",
        "opening",
        "order",
        "played",
        "temperature",
        "up",
    )

    def __init__(
        self,
        view: PlayerView,
        beta: float = 0.6,
        *,
        temperature: float = TEMPERATURE,
        epsilon: float = EPSILON,
        partner: bool = False,
    ) -> None:
        self.cfg = view.rules.engine
        self.me = view.seat
        # The greedy model plays for the opponents; a partner (the same bot as the searcher,
        # in a team game) is weighed by the rule-of-thumb law unless ``partner``.
        mine = team_of(view.rules, view.seat)
        self.modelled = 0
        for s in range(view.rules.players):
            if s != view.seat and (partner or s not in mine):
                self.modelled |= 1 << s
        self.beta = beta
        self.temperature = temperature
        self.epsilon = epsilon
        self.up = view.exposed.mask
        played = [0] * view.rules.players
        order: list[tuple[int, int]] = []
        for trick in (*view.tricks, view.current_trick):
            for s, c in zip(trick.seats, trick.cards, strict=True):
                played[s] |= c.mask
                order.append((s, c.index))
        self.played = played
        self.order = order
        self.first = view.tricks[0].leader if view.tricks else view.current_trick.leader
        # The opening card must be led by its holder when the rules say so (RULES.md §9.6).
        self.opening = bool(view.rules.must_lead_opening_card)

    def weight(self, hands: list[int], facedown: int) -> float:
        """The weight of the deal where seat ``s`` holds ``hands[s]`` now (positive)."""
        me = self.me
        if not any(s != me for s, _c in self.order):
            return 1.0
        cfg = self.cfg
        dealt = [h | p for h, p in zip(hands, self.played, strict=True)]
        opening = self.opening and bool(dealt[self.first] & cfg.opening_card)
        b = of_world(cfg, dealt[:], dealt, self.first, [], [], self.up, facedown, 0, opening)
        beta = self.beta
        tau = self.temperature
        eps = self.epsilon
        w = 1.0
        log_w = 0.0
        for seat, card in self.order:
            if seat != me:
                legal = b.legal()
                if legal & (legal - 1) and legal & BIT[card]:
                    if b.trick and self.modelled >> seat & 1:  # a follow: the greedy model
                        ids = mask_ids(legal)
                        log_w += _log_relative(greedy_values(b, ids), ids, card, tau, eps)
                    elif choose_board(b, legal) != card:  # a lead, a partner: the rule of thumb
                        w *= beta
            b.play(card)
        return w * math.exp(log_w)


def _log_relative(values: list[float], ids: list[int], card: int, tau: float, eps: float) -> float:
    """log of the model's probability of ``card`` over its largest probability among ``ids``."""
    top = max(values)
    exps = [math.exp((v - top) / tau) for v in values]
    total = sum(exps)
    k = ids.index(card)
    mix = eps / len(ids)
    p = (1.0 - eps) * exps[k] / total + mix
    p_max = (1.0 - eps) / total + mix
    return math.log(p / p_max)
