"""The facts every real deal's view has, checked when a view is read from JSON. Private.

:meth:`PlayerView.from_dict <gongzhu.PlayerView.from_dict>` refuses a view that no deal
can have (#22 item 9): the checks live here, on the fields they read (named, not imported).
"""

from __future__ import annotations

from typing import Protocol

from gongzhu._codec import wire as _wire
from gongzhu._codec.encoding import ViewLike
from gongzhu._core.bits import POINT_CARDS, SUIT_MASKS
from gongzhu.cards import CardSet, Suit
from gongzhu.cards import unchecked_cardset as _from_mask
from gongzhu.phase import Phase

__all__ = ["check_consistent"]


class CheckedView(ViewLike, Protocol):
    """What the checks read of a :class:`~gongzhu.PlayerView` beyond :class:`ViewLike`."""

    @property
    def hand_sizes(self) -> tuple[int, ...]: ...
    @property
    def exposed(self) -> CardSet: ...


def check_consistent(view: CheckedView) -> None:
    """The facts of a view that a real deal always has (#22 item 9): every card in the
    deck and in one place only, captured points are point cards, hand sizes add up, and
    the voids leave the other seats' hands fillable. Otherwise the methods and the bots
    would fail later, raw, on a view that was accepted."""
    n = view.rules.players
    deck = view.rules.deck.mask
    per_seat, rest = divmod(deck.bit_count(), n)
    played = 0
    played_by = [0] * n
    for k, trick in enumerate((*view.tricks, view.current_trick)):
        for s, c in zip(trick.seats, trick.cards, strict=True):
            if played & c.mask:
                _wire.fail(f"{c} is played twice", "tricks" if k < len(view.tricks) else
                           "current_trick")  # fmt: skip
            played |= c.mask
            played_by[s] |= c.mask
    everything = (view.hand.mask | played | view.exposed.mask | view.shown.mask
                  | view.own_face_down.mask)  # fmt: skip
    for group in view.captured_points:
        everything |= group.mask
    if everything & ~deck:
        _wire.fail(f"{_from_mask(everything & ~deck)} not in this rule set's deck", "")
    seen = 0
    for s, exposed in enumerate(view.exposures):
        if exposed.mask & seen:
            _wire.fail(f"{_from_mask(exposed.mask & seen)} exposed by two seats", "exposures")
        seen |= exposed.mask
        if exposed.mask & played & ~played_by[s]:
            _wire.fail(f"seat {s} exposed a card another seat played", "exposures")
        if s != view.seat and exposed.mask & view.hand.mask:
            _wire.fail(f"seat {s} exposed a card of this seat's hand", "exposures")
    taken = 0
    for s, group in enumerate(view.captured_points):
        if group.mask & ~POINT_CARDS:
            _wire.fail(f"{_from_mask(group.mask & ~POINT_CARDS)} are not point cards",
                       f"captured_points[{s}]")  # fmt: skip
        if group.mask & taken:
            _wire.fail("a card captured twice", f"captured_points[{s}]")
        taken |= group.mask
    if taken & view.hand.mask:
        _wire.fail("a card both captured and in the hand", "captured_points")
    if view.phase is not Phase.COMPLETE:  # an accepted claim sweeps hands into piles
        mine = view.hand.mask | played_by[view.seat]
        if view.exposures[view.seat].mask & ~mine or view.own_face_down.mask & ~mine:
            _wire.fail("this seat's exposures must be cards it holds or played", "exposures")
        if view.shown.mask & played:
            _wire.fail("shown cards are unplayed cards", "shown")
        trick_cards = 0
        for trick in view.tricks:
            for c in trick.cards:
                trick_cards |= c.mask
        if taken & ~trick_cards:
            _wire.fail("captured cards come from completed tricks", "captured_points")
        for s in range(n):
            if view.hand_sizes[s] + played_by[s].bit_count() != per_seat or rest:
                _wire.fail(f"seat {s}'s hand size and plays do not make a hand of "
                           f"{per_seat}", "hand_sizes")  # fmt: skip
        _check_fillable(view, played, played_by)


def _check_fillable(view: CheckedView, played: int, played_by: list[int]) -> None:
    """The unseen cards can go to the other seats: sizes add up, no seat needs more of the
    suits it may hold than there are (a necessary condition; the sampler checks the rest)."""
    n = view.rules.players
    voids = view.known_voids
    known = [0] * n
    for s in range(n):
        known[s] = (view.exposures[s].mask & ~played) if s != view.seat else view.hand.mask
    unseen = view.rules.deck.mask & ~played & ~view.hand.mask
    for s in range(n):
        unseen &= ~known[s]
    need = {s: view.hand_sizes[s] - known[s].bit_count() for s in range(n) if s != view.seat}
    if any(v < 0 for v in need.values()) or sum(need.values()) != unseen.bit_count():
        _wire.fail("the other seats' hand sizes do not match the unseen cards", "hand_sizes")
    for s, k in need.items():
        allowed = 0
        for suit in Suit:
            if suit not in voids[s]:
                allowed |= SUIT_MASKS[suit]
        if (unseen & allowed).bit_count() < k:
            _wire.fail(f"seat {s}'s voids leave too few cards for its hand", "tricks")
