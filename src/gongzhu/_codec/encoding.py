"""Actions as ints, legal-action masks and fixed-size observation vectors (for agents).

The layouts are documented in ``docs/agents.rst``; :mod:`gongzhu.protocol`
re-exports the constants. Everything here works on what one seat may know (a
:class:`~gongzhu.PlayerView`), so an agent's input never holds a hidden card.

Action ids (the same for every rule set, so an agent's output layer is fixed):

* 0–51: play the card with that :attr:`~gongzhu.Card.index`;
* 52 + m: expose, face up, the subset ``m`` (a 4-bit mask) of 10♣, J♦, A♥, Q♠
  (bit 0 = 10♣ … bit 3 = Q♠); 52 itself declines (an empty exposure);
* 68 + m (m ≥ 1): the same subsets declared face down (``exposure_kind="face-down-up"``);
* 84: claim the remaining tricks; 85: accept the pending claim; 86: refuse it;
* 87 + k (k = 0–49): one decision holding both kinds (specification §9.1): the k-th
  pair ``(up, down)`` of non-empty disjoint subsets, in :data:`MIXED_PAIRS` order.

NumPy is imported lazily, only by :func:`observation` and friends, and only if
it is installed: without it they return tuples.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Protocol

from gongzhu._base.text import brief
from gongzhu._core.bits import POINT_CARDS
from gongzhu.cards import (
    ACE_OF_HEARTS,
    PIG,
    SHEEP,
    TRANSFORMER,
    Card,
    CardSet,
    Suit,
    unchecked_cardset,
)
from gongzhu.errors import IllegalActionError, Reason
from gongzhu.phase import Phase
from gongzhu.rules import ExposureKind, RuleSet
from gongzhu.trick import Trick

EXPOSABLE_ORDER: Final = (TRANSFORMER, SHEEP, ACE_OF_HEARTS, PIG)
"""The cards of an exposure subset id, bit 0 first: 10♣, J♦, A♥, Q♠ (card index order)."""
EXPOSE: Final = 52
"""Id of "expose nothing" (decline); ``EXPOSE + m`` exposes subset ``m`` face up."""
EXPOSE_FACE_DOWN: Final = 68
"""``EXPOSE_FACE_DOWN + m`` declares subset ``m`` (m ≥ 1) face down."""
CLAIM: Final = 84
ACCEPT: Final = 85
REFUSE: Final = 86
EXPOSE_MIXED: Final = 87
"""``EXPOSE_MIXED + k`` exposes ``MIXED_PAIRS[k]``: subset ``up`` face up, ``down`` face down."""
MIXED_PAIRS: Final = tuple(
    (up, down) for down in range(1, 16) for up in range(1, 16) if not up & down
)
"""The 50 mixed decisions ``(up, down)`` (4-bit subsets, disjoint, both non-empty), ordered by
``down`` then ``up``: every way to show some exposable cards and hide others in one decision."""
_MIXED_ID: Final = {pair: EXPOSE_MIXED + k for k, pair in enumerate(MIXED_PAIRS)}
NUM_ACTIONS: Final = EXPOSE_MIXED + len(MIXED_PAIRS)
"""Ids run 0 to ``NUM_ACTIONS - 1`` (137)."""

_POINT_ORDER: Final = tuple(unchecked_cardset(POINT_CARDS))  # 16 cards, index order
_POINT_SLOT: Final = {c.index: k for k, c in enumerate(_POINT_ORDER)}
OBSERVED_PHASES: Final = (Phase.EXPOSURE, Phase.PLAY, Phase.CLAIM, Phase.COMPLETE)
"""The phases of the observation's one-hot phase block, in its order."""
SCORE_SCALE: Final = 1000.0
"""The observation's running totals are points divided by this."""


class ViewLike(Protocol):
    """The fields of a :class:`~gongzhu.PlayerView` the encodings read (named, not imported)."""

    @property
    def seat(self) -> int: ...
    @property
    def rules(self) -> RuleSet: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def hand(self) -> CardSet: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def exposures(self) -> tuple[CardSet, ...]: ...
    @property
    def own_face_down(self) -> CardSet: ...
    @property
    def face_down_counts(self) -> tuple[int, ...]: ...
    @property
    def current_trick(self) -> Trick: ...
    @property
    def tricks(self) -> tuple[Trick, ...]: ...
    @property
    def captured_points(self) -> tuple[CardSet, ...]: ...
    @property
    def shown(self) -> CardSet: ...
    @property
    def legal_plays(self) -> CardSet: ...
    @property
    def known_voids(self) -> tuple[frozenset[Suit], ...]: ...
    @property
    def running_totals(self) -> tuple[int, ...] | None: ...


# -- action ids ----------------------------------------------------------------------------


def subset_cards(m: int) -> CardSet:
    """The cards of exposure subset ``m`` (0–15)."""
    mask = 0
    for bit, card in enumerate(EXPOSABLE_ORDER):
        if m >> bit & 1:
            mask |= card.mask
    return unchecked_cardset(mask)


def subset_of(cards: CardSet) -> int:
    """The subset number of a set of exposable cards."""
    return sum(1 << bit for bit, card in enumerate(EXPOSABLE_ORDER) if card in cards)


def subset_bits(mask: int) -> int:
    """The subset number of a card mask (its exposable cards only)."""
    m = 0
    for bit, card in enumerate(EXPOSABLE_ORDER):
        if mask & card.mask:
            m |= 1 << bit
    return m


def exposure_id(up: int, down: int) -> int:
    """The id of the decision that shows subset ``up`` and hides subset ``down`` (disjoint)."""
    if not down:
        return EXPOSE + up
    if not up:
        return EXPOSE_FACE_DOWN + down
    return _MIXED_ID[(up, down)]


def exposure_subsets(action_id: int) -> tuple[int, int]:
    """``(up, down)`` subsets of an exposure id (the inverse of :func:`exposure_id`)."""
    if action_id < EXPOSE_FACE_DOWN:
        return action_id - EXPOSE, 0
    if action_id < CLAIM:
        return 0, action_id - EXPOSE_FACE_DOWN
    return MIXED_PAIRS[action_id - EXPOSE_MIXED]


def is_exposure_id(action_id: int) -> bool:
    """True for the ids of an exposure decision (a decline included)."""
    return (EXPOSE <= action_id < CLAIM and action_id != EXPOSE_FACE_DOWN) or (
        EXPOSE_MIXED <= action_id < NUM_ACTIONS
    )


def exposure_ids_of(free: int, face_down: bool) -> list[int]:
    """The exposure ids of a seat whose exposable, unexposed cards are the mask ``free``.

    Face up only, or (``face_down``) every split of every subset into face-up
    and face-down cards (specification §9.1: one decision may hold both kinds).
    """
    held = subset_bits(free)
    subsets = [m for m in range(16) if not m & ~held]
    ids = [EXPOSE + m for m in subsets]
    if face_down:
        ids += [EXPOSE_FACE_DOWN + m for m in subsets if m]
        ids += [_MIXED_ID[(u, d)] for d in subsets for u in subsets if u and d and not u & d]
        ids.sort()
    return ids


def exposure_ids(rules: RuleSet, hand: CardSet, taken: CardSet) -> list[int]:
    """The exposure ids a seat holding ``hand`` may choose (``taken``: already exposed cards)."""
    free = rules.exposable.mask & hand.mask & ~taken.mask
    return exposure_ids_of(free, rules.exposure_kind is ExposureKind.FACE_DOWN_UP)


def describe(action_id: int) -> str:
    """A short text for an action id: ``'QS'``, ``'expose TC QS'``, ``'decline'``, ``'claim'``."""
    if not isinstance(action_id, int) or isinstance(action_id, bool):
        raise IllegalActionError(Reason.INVALID_CHOICE, None, detail=f"id {brief(action_id)}")
    if 0 <= action_id < 52:
        return Card.from_index(action_id).code
    if action_id == EXPOSE:
        return "decline"
    if EXPOSE < action_id < EXPOSE_FACE_DOWN:
        return f"expose {subset_cards(action_id - EXPOSE).code}"
    if EXPOSE_FACE_DOWN < action_id < CLAIM:
        return f"expose face down {subset_cards(action_id - EXPOSE_FACE_DOWN).code}"
    names = {CLAIM: "claim", ACCEPT: "accept", REFUSE: "refuse"}
    if action_id in names:
        return names[action_id]
    if EXPOSE_MIXED <= action_id < NUM_ACTIONS:
        up, down = MIXED_PAIRS[action_id - EXPOSE_MIXED]
        return f"expose {subset_cards(up).code}, face down {subset_cards(down).code}"
    raise IllegalActionError(Reason.INVALID_CHOICE, None, detail=f"no action id {brief(action_id)}")


def legal_ids(view: ViewLike, *, exposure_pending: bool, responder: bool) -> list[int]:
    """The legal action ids of ``view.seat``, ascending.

    ``exposure_pending``: the seat still has its exposure decision to make (in
    :attr:`Phase.EXPOSURE`, only exposure ids are offered then). ``responder``:
    the seat may answer the pending claim (phase CLAIM).
    """
    seat = view.seat
    phase = view.phase
    if phase is Phase.EXPOSURE and exposure_pending:
        taken = view.own_face_down
        for cards in view.exposures:
            taken = taken | cards
        return exposure_ids(view.rules, view.hand, taken)
    if phase is Phase.CLAIM:
        return [ACCEPT, REFUSE] if responder else []
    if view.to_act != seat or phase is Phase.COMPLETE:
        return []
    ids = [c.index for c in view.legal_plays]
    if view.rules.claims:
        ids.append(CLAIM)
    return ids


def mask_of(ids: Sequence[int]) -> Any:
    """A 0/1 vector of length :data:`NUM_ACTIONS` (int8 NumPy array, else a tuple)."""
    mask = [0] * NUM_ACTIONS
    for i in ids:
        mask[i] = 1
    np = _numpy()
    return np.array(mask, dtype=np.int8) if np is not None else tuple(mask)


# -- observations --------------------------------------------------------------------------


def observation_size(players: int) -> int:
    """Length of :func:`observation` for ``players`` seats."""
    p = players
    return 52 + p * 52 + p * 52 + p + p * 4 + 4 + p + p * 16 + 52 + p * 4 + 1 + p + 1 + 4 + p + 1


def history_size(players: int, tricks: int) -> int:
    """Length of the history block :func:`information_state` appends."""
    return tricks * players * 52 + tricks * players


def observation_values(view: ViewLike) -> list[float]:
    """The observation as a list of floats (layout: ``docs/agents.rst``)."""
    p = view.rules.players
    me = view.seat
    out = [0.0] * observation_size(p)
    # Each block is written by setting the few non-zero entries at their offsets.
    for c in view.hand:
        out[c.index] = 1.0
    at = 52
    trick = view.current_trick
    for t in (*view.tricks, trick):
        for s, c in zip(t.seats, t.cards, strict=True):
            out[at + (s - me) % p * 52 + c.index] = 1.0
    at += p * 52
    for k, c in enumerate(trick.cards):
        out[at + k * 52 + c.index] = 1.0
    at += p * 52
    out[at + (trick.leader - me) % p] = 1.0
    at += p
    for s in range(p):
        exposed = view.exposures[s]
        base = at + (s - me) % p * 4
        for bit, c in enumerate(EXPOSABLE_ORDER):
            if c in exposed:
                out[base + bit] = 1.0
    at += p * 4
    for bit, c in enumerate(EXPOSABLE_ORDER):
        if c in view.own_face_down:
            out[at + bit] = 1.0
    at += 4
    for s in range(p):
        out[at + (s - me) % p] = view.face_down_counts[s] / 4.0
    at += p
    for s in range(p):
        base = at + (s - me) % p * 16
        for c in view.captured_points[s]:
            out[base + _POINT_SLOT[c.index]] = 1.0
    at += p * 16
    for c in view.shown:
        out[at + c.index] = 1.0
    at += 52
    for s, voids in enumerate(view.known_voids):
        for suit in voids:
            out[at + (s - me) % p * 4 + suit] = 1.0
    at += p * 4
    out[at] = len(view.tricks) / (52 // p)
    at += 1
    totals = view.running_totals
    if totals is not None:
        for s in range(p):
            out[at + (s - me) % p] = totals[s] / SCORE_SCALE
        out[at + p] = 1.0
    at += p + 1
    out[at + OBSERVED_PHASES.index(view.phase)] = 1.0
    at += 4
    if view.to_act is not None:
        out[at + (view.to_act - me) % p] = 1.0
    at += p
    if any(c.suit is Suit.HEARTS for t in (*view.tricks, trick) for c in t.cards):
        out[at] = 1.0
    return out


def history_values(view: ViewLike) -> list[float]:
    """Every trick's cards by position in play order, then each trick's leader (relative)."""
    p = view.rules.players
    tricks = 52 // p
    out = [0.0] * history_size(p, tricks)
    every = [*view.tricks, view.current_trick] if view.current_trick.cards else list(view.tricks)
    for t, trick in enumerate(every[:tricks]):
        for k, c in enumerate(trick.cards):
            out[(t * p + k) * 52 + c.index] = 1.0
        out[tricks * p * 52 + t * p + (trick.leader - view.seat) % p] = 1.0
    return out


def as_vector(values: list[float]) -> Any:
    """A float32 NumPy array when NumPy is installed, else a tuple."""
    np = _numpy()
    return np.array(values, dtype=np.float32) if np is not None else tuple(values)


_NUMPY: list[Any] = []


def _numpy() -> Any:
    """NumPy if it is installed (imported on first use only), else None."""
    if not _NUMPY:
        try:
            import numpy
        except ImportError:  # the core never needs it
            _NUMPY.append(None)
        else:
            _NUMPY.append(numpy)
    return _NUMPY[0]
