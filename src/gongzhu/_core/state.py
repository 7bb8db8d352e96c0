"""The engine's state of one deal: typed records with named fields, on ints. Private.

Cards are indexes 0-51 (suit-major: ``suit * 13 + rank - 2``) and sets of
cards are 52-bit int masks. Nothing here imports from the public gongzhu
modules: :mod:`gongzhu.round` turns a :class:`~gongzhu.RuleSet` into a
:class:`Config` and wraps a :class:`State` in the public ``Round``.

A :class:`State` is immutable by convention (no code mutates one after it is
built), and successive states share structure: what changes rarely (the
dealt hands, exposures, a claim) lives in a :class:`Table` that every state of
the deal points to until an exposure or a claim replaces it; the history is a
persistent linked list (:data:`Log`), so a play adds one node.
"""

from __future__ import annotations

from typing import Final, cast

from gongzhu._core.bits import (
    ACE_OF_HEARTS,
    BIT,
    FULL,
    HEARTS,
    HIGH13,
    LOW13,
    POP13,
    QUEEN_OF_DIAMONDS,
    SUIT_MASKS,
    lowest,
    popcount,
)
from gongzhu._core.config import RESTRICT_DEAL, RESTRICT_NONE, RESTRICT_SUIT, Config
from gongzhu._core.rules import HEARTS_BROKEN  # State.flags: bits 0-3 the suits led so far

__all__ = [
    "ACE_OF_HEARTS",
    "BIT",
    "CLAIM",
    "CLAIMING",
    "COMPLETE",
    "EXPOSE",
    "FULL",
    "HEARTS",
    "HEARTS_BROKEN",
    "HIGH13",
    "LOW13",
    "PLAY",
    "PLAYING",
    "POP13",
    "QUEEN_OF_DIAMONDS",
    "RESPOND",
    "RESTRICT_DEAL",
    "RESTRICT_NONE",
    "RESTRICT_SUIT",
    "SUIT_MASKS",
    "Config",
    "State",
    "Table",
    "lowest",
    "popcount",
]

# -- State.done ------------------------------------------------------------------------------

PLAYING: Final = 0
CLAIMING: Final = 1  # a claim is pending (Table.claimer, Table.accepted)
COMPLETE: Final = 2


class Table:
    """What changes rarely in a deal; shared by successive states until replaced.

    ``hands`` are the dealt masks per seat (a seat's hand now is its dealt
    mask minus ``State.gone``), ``dealt`` the dealt order of each seat's cards
    (blind exposure needs the first). Exposures: ``up`` (face up), ``down``
    (face down), ``blind`` (exposed blind; also in ``up`` or ``down``);
    ``decided`` and ``blinded`` are seat masks. ``shown`` are cards shown by
    claims. ``claimer`` (``-1`` for none) and ``accepted`` (seat mask) describe
    the pending claim; ``refused`` (seat mask) are the seats whose claim was
    refused while ``refused_at`` tricks were complete (specification §9.7).
    """

    __slots__ = (
        "accepted",
        "blind",
        "blinded",
        "cfg",
        "claimer",
        "dealer",
        "dealt",
        "decided",
        "down",
        "every",
        "hands",
        "n",
        "opening",
        "refused",
        "refused_at",
        "seed",
        "shown",
        "up",
    )

    def __init__(
        self,
        cfg: Config,
        hands: tuple[int, ...],
        dealt: tuple[tuple[int, ...], ...],
        dealer: int,
        opening: bool,
        seed: int | str | None,
    ) -> None:
        self.cfg = cfg
        self.n: int = cfg.n
        self.hands = hands
        every = 0
        for hand in hands:
            every |= hand
        self.every: int = every
        self.dealt = dealt
        self.dealer = dealer
        self.opening = opening
        self.seed = seed
        self.up: int = 0
        self.down: int = 0
        self.blind: int = 0
        self.decided: int = 0
        self.blinded: int = 0
        self.shown: int = 0
        self.claimer: int = -1
        self.accepted: int = 0
        self.refused: int = 0
        self.refused_at: int = -1

    def copy(self) -> Table:
        """A copy to change (only while building the next state)."""
        t = Table(self.cfg, self.hands, self.dealt, self.dealer, self.opening, self.seed)
        t.up = self.up
        t.down = self.down
        t.blind = self.blind
        t.decided = self.decided
        t.blinded = self.blinded
        t.shown = self.shown
        t.claimer = self.claimer
        t.accepted = self.accepted
        t.refused = self.refused
        t.refused_at = self.refused_at
        return t


Log = tuple[object, object]
"""One action of the history and the history before it: ``(previous node or None, entry)``.

A persistent linked list of plain tuples (a tuple costs far less to build
than an object in the interpreted build; nothing ever hashes or compares the
nested nodes: :func:`entries` walks them iteratively). An entry is an int:
bits 0-1 the kind (``PLAY``, ``EXPOSE``, ``CLAIM``, ``RESPOND``), bits 2-4
the seat, the rest the argument: the card index of a play,
``mask << 2 | blind << 1 | face_down`` of an exposure, ``accept`` (0/1) of a
response.

A *run* node holds a tuple of play entries (oldest first) instead of one
entry: the core's random rollout ends its deal with one such node rather
than one node per card (building and freeing a tuple per card was the
largest cost of a rollout after the loop itself). Only a complete deal's
log starts with a run (nothing is added to it afterwards); :func:`entries`
and :func:`trick_cards` read runs too.
"""


def previous(node: Log) -> Log | None:
    """The node before ``node``."""
    return cast("Log | None", node[0])


PLAY: Final = 0
EXPOSE: Final = 1
CLAIM: Final = 2
RESPOND: Final = 3

# Play entries come from this table: most are above CPython's small-int cache, and a
# table entry costs no allocation per play in the interpreted build.
PLAY_ENTRIES: Final = tuple(range(64 << 5))


def play_entry(seat: int, card: int) -> int:
    return PLAY_ENTRIES[card << 5 | seat << 2]


def expose_entry(seat: int, mask: int, face_down: bool, blind: bool) -> int:
    return (mask << 2 | (2 if blind else 0) | (1 if face_down else 0)) << 5 | seat << 2 | EXPOSE


def decision_entry(seat: int, up: int, down: int, blind: bool) -> int:
    """The log entry of one exposure decision with face-up ``up`` and face-down ``down`` cards.

    An all-up or all-down decision is a plain :func:`expose_entry` (``mask << 2 |
    blind << 1 | face_down``, its cards in bits 0–51 of the mask). A mixed one
    (specification §9.1) has all its cards in bits 0–51, ``face_down`` clear, and its
    face-down cards again from bit 52 of the mask on. :func:`decision_parts` reads either.
    """
    if up and down:
        return ((down << 52 | up | down) << 2 | (2 if blind else 0)) << 5 | seat << 2 | EXPOSE
    if down:
        return expose_entry(seat, down, True, blind)
    return expose_entry(seat, up, False, blind)


def decision_parts(entry: int) -> tuple[int, int, int, bool]:
    """``(seat, face-up mask, face-down mask, blind)`` of an exposure entry."""
    arg = entry >> 5
    mask = arg >> 2 & FULL
    extra = arg >> 54
    blind = arg & 2 != 0
    seat = entry >> 2 & 7
    if extra:
        return seat, mask & ~extra, extra, blind
    if arg & 1:
        return seat, 0, mask, blind
    return seat, mask, 0, blind


def entries(log: Log | None) -> tuple[int, ...]:
    """The history's entries, oldest first (iterative: any length)."""
    out: list[int] = []
    while log is not None:
        item = log[1]
        if isinstance(item, int):
            out.append(item)
        else:  # a run of plays, oldest first
            run = cast("tuple[int, ...]", item)
            for k in range(len(run) - 1, -1, -1):
                out.append(run[k])
        log = previous(log)
    out.reverse()
    return tuple(out)


def chain(items: tuple[int, ...]) -> Log | None:
    """The log of the given entries, oldest first."""
    log: Log | None = None
    for entry in items:
        log = (log, entry)
    return log


Trick = tuple[int, int, tuple[int, ...]]
"""A completed trick: ``(leader, winner, card indexes in play order)``."""


class State:
    """One position of a deal.

    ``gone`` holds every card no longer in a hand, ``capt`` each seat's
    captured mask, ``leader`` the seat that leads the trick in progress;
    ``trick`` is ``led suit << 3 | cards played`` (0 before the lead; the cards
    themselves are the last plays in ``log``), ``tricks`` the completed tricks,
    ``flags`` the suits led (bits 0-3) and ``HEARTS_BROKEN``, ``done`` one of
    ``PLAYING``, ``CLAIMING``, ``COMPLETE``. ``lm`` caches the legal-play mask
    of the seat to act (``-1`` until :func:`gongzhu._core.play.legal` first
    computes it; a cache, not part of the position).
    """

    __slots__ = ("capt", "done", "flags", "gone", "leader", "lm", "log", "table", "trick", "tricks")

    def __init__(
        self,
        table: Table,
        gone: int,
        capt: tuple[int, ...],
        leader: int,
        trick: int,
        tricks: tuple[Trick, ...],
        flags: int,
        done: int,
        log: Log | None,
    ) -> None:
        self.table = table
        self.gone = gone
        self.capt = capt
        self.leader = leader
        self.trick = trick
        self.tricks = tricks
        self.flags = flags
        self.done = done
        self.log = log
        self.lm: int = -1


def start(table: Table, leader: int) -> State:
    """The state before any action."""
    return State(table, 0, tuple([0 for _ in range(table.n)]), leader, 0, (), 0, PLAYING, None)


def begin(
    cfg: Config,
    hands: tuple[int, ...],
    dealt: tuple[tuple[int, ...], ...],
    dealer: int,
    seed: int | str | None,
    leader: int,
) -> State:
    """The state before any action of a new deal (one call from the facade's deal).

    ``leader`` ``-1``: the holder of the rule set's opening card leads, and
    must lead it if the rules say so.
    """
    opening = False
    if leader < 0:
        n = cfg.n
        card = cfg.opening_card
        leader = 0
        while leader < n and not hands[leader] & card:
            leader += 1
        if leader == n:
            raise ValueError("no seat holds the opening card")
        opening = cfg.must_lead_opening
    return start(Table(cfg, hands, dealt, dealer, opening, seed), leader)


def to_act(s: State) -> int:
    """The seat to play next (meaningful while ``done`` is ``PLAYING``)."""
    return (s.leader + (s.trick & 7)) % s.table.n


def hand(s: State, seat: int) -> int:
    return s.table.hands[seat] & ~s.gone


def trick_cards(s: State) -> tuple[int, ...]:
    """The cards of the trick in progress, in play order: the last plays in the log."""
    count = s.trick & 7
    cards: list[int] = []
    log = s.log
    while len(cards) < count and log is not None:
        item = log[1]
        if isinstance(item, int):
            if item & 3 == PLAY:  # claims and responses can come mid-trick
                cards.append(item >> 5)
        else:  # a run of plays, oldest first
            run = cast("tuple[int, ...]", item)
            for k in range(len(run) - 1, -1, -1):
                if len(cards) < count:
                    cards.append(run[k] >> 5)
        log = previous(log)
    cards.reverse()
    return tuple(cards)


def played(s: State) -> int:
    """Every card played to a trick so far (completed or in progress)."""
    mask = 0
    for _lead, _winner, cards in s.tricks:
        for i in cards:
            mask |= BIT[i]
    for i in trick_cards(s):
        mask |= BIT[i]
    return mask


def key(s: State) -> tuple[object, ...]:
    """Everything that tells two states of the same rules apart, flat (no recursion)."""
    t = s.table
    return (
        t.hands, t.dealt, t.dealer, t.opening, t.seed, t.up, t.down, t.blind, t.decided,
        t.blinded, t.shown, t.claimer, t.accepted, t.refused, t.refused_at,
        s.gone, s.capt, s.leader, s.trick, s.tricks, s.flags, s.done, entries(s.log),
    )  # fmt: skip


def restore(
    cfg: Config,
    hands: tuple[int, ...],
    dealt: tuple[tuple[int, ...], ...],
    dealer: int,
    opening: bool,
    seed: int | str | None,
    up: int,
    down: int,
    blind: int,
    decided: int,
    blinded: int,
    shown: int,
    claimer: int,
    accepted: int,
    refused: int,
    refused_at: int,
    gone: int,
    capt: tuple[int, ...],
    leader: int,
    trick: int,
    tricks: tuple[Trick, ...],
    flags: int,
    done: int,
    log: tuple[int, ...],
) -> State:
    """The state whose :func:`key` is the arguments after ``cfg`` (the facade's unpickling)."""
    t = Table(cfg, hands, dealt, dealer, opening, seed)
    t.up = up
    t.down = down
    t.blind = blind
    t.decided = decided
    t.blinded = blinded
    t.shown = shown
    t.claimer = claimer
    t.accepted = accepted
    t.refused = refused
    t.refused_at = refused_at
    return State(t, gone, capt, leader, trick, tricks, flags, done, chain(log))
