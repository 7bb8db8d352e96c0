"""Deals consistent with what one seat knows: :class:`Worlds`, for bots that search.

A seat does not see the other hands, so a Monte-Carlo bot plays its
candidate cards in *worlds*: complete deals that agree with everything its
:class:`~gongzhu.PlayerView` shows. ``Worlds(view)`` reads the view once;
:meth:`Worlds.sample` then draws one :class:`World` (every seat's hand now,
and the face-down cards), uniformly among the deals that agree with

* the seat's own hand, and every card played (by whom, in which trick);
* voids: a seat that did not follow a suit holds none of it;
* cards exposed face up, and cards shown by a claim, in their holder's hand;
* face-down declarations (a seat that declared ``k`` cards face down holds,
  or has played, at least ``k`` exposable cards);
* the rule set's deck and every seat's hand size.

This is the sampler the library's own search, IS-MCTS and greedy bots use
(exact counts per suit, integer arithmetic). :meth:`Worlds.weight` is a
world's importance weight: how natural the other seats' past plays and
exposure decisions look in it under the rule-of-thumb model (a choice the
model would have made counts 1, any other ``beta``). :meth:`Worlds.board`
and :meth:`Worlds.round` turn a world into a :class:`~gongzhu.Board` (to
search or roll out, :meth:`Board.rollout(policy=...) <gongzhu.Board.rollout>`)
or a :class:`~gongzhu.Round` in the view's position.

>>> import random
>>> from gongzhu import deal
>>> from gongzhu.bots import RuleOfThumbStrategy
>>> r = deal(seed=7).pass_exposure()
>>> for _ in range(6):                              # six cards played: one trick and a half
...     r = r.apply(r.legal_actions()[0])
>>> view = r.view(r.to_act)
>>> worlds = Worlds(view)
>>> world = worlds.sample(random.Random(1))
>>> world.hands[view.seat] == view.hand, [len(h) for h in world.hands]
(True, [12, 11, 11, 12])
>>> board = worlds.board(world)
>>> board.to_round().view(view.seat) == view     # the world is the seat's position
True
>>> rnd = worlds.round(world)                     # the same position, as a Round
>>> board.rollout(policy="rule-of-thumb") == rnd.rollout(RuleOfThumbStrategy()).score().totals
True
>>> 0 < worlds.weight(world) <= 1, worlds.count > 10**10
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping

import attrs

from gongzhu._base.text import brief as _brief
from gongzhu.ai._determinize import Worlds as _Sampler
from gongzhu.board import Board, round_of_world
from gongzhu.cards import CardSet
from gongzhu.cards import unchecked_cardset as _from_mask
from gongzhu.errors import GongzhuError, SimulationError
from gongzhu.round import Round
from gongzhu.view import PlayerView

__all__ = ["World", "Worlds"]


@attrs.frozen
class World:
    """One deal consistent with a view: every seat's hand now, and the face-down cards."""

    hands: tuple[CardSet, ...]
    """Each seat's cards now (the viewing seat's own hand among them), in seat order."""
    face_down: CardSet = CardSet()
    """The cards declared face down in this deal (the viewing seat knows its own)."""


class Worlds:
    """The deals consistent with ``view``: draw them with :meth:`sample` (see the module doc).

    ``known`` adds cards known to be in another seat's hand beyond what the view
    shows (seat -> cards): a table that saw who claimed knows the claimer's
    whole hand, while the view keeps only the union of the shown cards. A view
    that contradicts itself or ``known`` (hand sizes that do not match the
    unseen cards) is a :class:`~gongzhu.SimulationError`.
    """

    __slots__ = ("_s", "view")

    def __init__(self, view: PlayerView, known: Mapping[int, CardSet] | None = None) -> None:
        if not isinstance(view, PlayerView):
            raise SimulationError(f"Worlds reads a PlayerView, got {type(view).__name__}")
        extra: dict[int, int] = {}
        if known is not None:
            if not isinstance(known, Mapping):
                raise SimulationError(f"known maps seats to CardSets, got {_brief(known)}")
            for seat, cards in known.items():
                if (
                    isinstance(seat, bool)
                    or not isinstance(seat, int)
                    or not 0 <= seat < view.rules.players
                    or not isinstance(cards, CardSet)
                ):
                    raise SimulationError(
                        f"known maps seats to CardSets, got {_brief(seat)}: {_brief(cards)}"
                    )
                extra[seat] = cards.mask
        try:
            self._s = _Sampler(view, extra)
        except ValueError as exc:
            raise SimulationError(f"no deal fits this view: {exc}") from None
        self.view = view

    @property
    def count(self) -> int:
        """How many deals agree with the view's hands, voids and shown cards (exact)."""
        return self._s.total

    def sample(self, rng: random.Random | int | None = None) -> World:
        """One consistent deal, uniformly (``rng``: a :class:`random.Random`, or a seed)."""
        if not isinstance(rng, random.Random):
            if rng is not None and (isinstance(rng, bool) or not isinstance(rng, int)):
                raise SimulationError(f"rng is a random.Random or an int seed, got {_brief(rng)}")
            rng = random.Random(rng)
        try:
            hands, facedown = self._s.sample(rng)
        except ValueError as exc:  # no deal meets the view's face-down declarations
            raise SimulationError(f"no deal fits this view: {exc}") from None
        return World(tuple(_from_mask(h) for h in hands), _from_mask(facedown))

    def samples(self, n: int, seed: int | None = None) -> Iterator[World]:
        """``n`` worlds drawn one after another from one generator seeded with ``seed``."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise SimulationError(f"n must be an int >= 0, got {_brief(n)}")
        rng = random.Random(seed)
        for _ in range(n):
            yield self.sample(rng)

    def weight(self, world: World, beta: float = 0.5) -> float:
        """The importance weight of ``world``: ``beta`` to the power of the other seats' past
        plays and exposure decisions the rule-of-thumb model would not have made (1 for
        ``beta=1``; the search bot uses 0.6)."""
        hands, facedown = self._ints(world)
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not 0 <= beta <= 1:
            raise SimulationError(f"beta must be a number in [0, 1], got {_brief(beta)}")
        return self._s.weight(hands, facedown, float(beta))

    def board(self, world: World) -> Board:
        """The view's position in ``world`` as a :class:`~gongzhu.Board`, in card play
        (:meth:`Board.from_view <gongzhu.Board.from_view>`).

        It is built straight from the world, as the search bot builds its own,
        without replaying the view's history: quick enough to make one per
        sample. :meth:`Board.to_round <gongzhu.Board.to_round>` replays the
        history when asked (see :meth:`round`).
        """
        self._ints(world)
        try:
            return Board.from_view(self.view, world.hands, world.face_down)
        except GongzhuError as exc:
            raise SimulationError(str(exc)) from None

    def round(self, world: World) -> Round:
        """The view's position in ``world`` as a :class:`~gongzhu.Round`: the dealt hands
        (hand plus cards played), the exposures, then every play of the view's tricks.

        The rebuilt round agrees with the view (``round.view(seat) == view``) except
        where the view does not say: exposure decisions still pending in the
        exposure phase are left undecided (a view does not show a seat's decline),
        a claim is not replayed, and no exposure is blind.

        The sampler draws worlds by hand sizes, voids and shown cards; a few
        facts a past play implies beyond a void are not drawn (a seat that
        played its exposed card in the first trick of that suit held no other
        card of it). Replaying such a world refuses that play: a
        :class:`~gongzhu.SimulationError`. Boards (:meth:`board`) do not replay.
        """
        hands, facedown = self._ints(world)
        try:
            return round_of_world(self.view, hands, facedown)
        except GongzhuError as exc:
            raise SimulationError(f"this world cannot replay the view's plays: {exc}") from None

    def _ints(self, world: World) -> tuple[list[int], int]:
        if not isinstance(world, World):
            raise SimulationError(f"expected a World, got {type(world).__name__}")
        hands = [h.mask for h in world.hands]
        s = self._s
        if len(hands) != len(s.known) or any(
            h & k != k for h, k in zip(hands, s.known, strict=True)
        ):
            raise SimulationError("the world does not hold the cards this view knows")
        return hands, world.face_down.mask

    def __repr__(self) -> str:
        return f"<Worlds of seat {self.view.seat}: {self.count} deals>"
