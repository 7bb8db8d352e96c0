"""What one seat knows of a deal, as ints: :class:`Info`. Private to the package.

:func:`info_of` reads a :class:`~gongzhu._core.state.State` for one seat (its
own hand, and the public facts); :func:`public_info` for a spectator (no
hand, and sealed exposures hidden until every seat may see them).
:class:`~gongzhu.PlayerView` is built from an :class:`Info` and the bots
read it directly
(:attr:`PlayerView.info <gongzhu.PlayerView.info>`), so a bot's decision
no longer turns ``CardSet`` s back into ints.

An :class:`Info` holds no reference to the state: nothing hidden can be
reached through it. :func:`plays_of` is the one place the seats' known voids
(a seat that did not follow a led suit holds none of it) are computed.
"""

from __future__ import annotations

from typing import Final, cast

from gongzhu._core.bits import BIT, POINT_CARDS, popcount
from gongzhu._core.config import Config
from gongzhu._core.play import exposure_open, legal, next_to_expose, respond_reason
from gongzhu._core.state import (
    COMPLETE,
    PLAYING,
    Log,
    State,
    Trick,
    played,
    previous,
    trick_cards,
)

# -- Info.phase ------------------------------------------------------------------------------

EXPOSURE: Final = 0  # some seat has not decided on exposure; no lead yet
PLAY: Final = 1
CLAIM: Final = 2  # a claim is pending
DONE: Final = 3  # the deal is complete

# -- Info.asked: what this seat is asked to do now -------------------------------------------

ASK_NOTHING: Final = 0
ASK_PLAY: Final = 1
ASK_EXPOSE: Final = 2
ASK_RESPOND: Final = 3

_ZEROS: Final = tuple([tuple([0] * n) for n in range(9)])


class Info:
    """What one seat knows of a deal (``seat`` ``-1``: a spectator), as ints.

    Cards are indexes 0-51 and sets of cards 52-bit masks (as in
    :mod:`gongzhu.cards`); suits are 0-3 (clubs, diamonds, hearts, spades) and a
    set of suits is a 4-bit mask.

    ``cfg`` the rule set (its ``owner`` is the :class:`~gongzhu.RuleSet`);
    ``phase`` one of ``EXPOSURE``, ``PLAY``, ``CLAIM``, ``DONE``; ``asked``
    what this seat must do now (``ASK_*``); ``hand`` its cards; ``first`` the
    first card dealt to it (``-1`` for none); ``to_act`` the seat to play
    (``-1`` while a claim is pending or once the deal is over); ``leader`` the
    leader of the trick in progress; ``up`` each seat's face-up exposed cards
    as the seat may see them and ``exposed`` their union; ``own_down`` this
    seat's face-down cards and ``down_counts`` how many each seat declared
    face down; ``trick`` the cards of the trick in progress, in play order;
    ``tricks`` the completed tricks as ``(leader, winner, cards)``;
    ``captured`` each seat's captured point cards; ``sizes`` each seat's
    number of cards in hand; ``shown`` the unplayed cards shown by a claim;
    ``legal`` this seat's legal plays (0 unless it is to play); ``played`` every card
    played so far; ``decided`` the seats that have made their exposure decision (a
    seat mask: public even while the choices are sealed); ``moves`` the number of
    actions in the deal's history (a client tells a stale view by it).
    :attr:`played_by` and :attr:`voids` are read from the tricks on first use.

    Read-only by convention, like a :class:`~gongzhu._core.state.State`: views and bots
    share one ``Info``; nothing may change it after :func:`info_of` returns it.
    """

    __slots__ = (
        "_played_by",
        "_voids",
        "asked",
        "captured",
        "cfg",
        "dealer",
        "decided",
        "down_counts",
        "exposed",
        "first",
        "hand",
        "leader",
        "legal",
        "moves",
        "n",
        "own_down",
        "phase",
        "played",
        "seat",
        "shown",
        "sizes",
        "to_act",
        "trick",
        "tricks",
        "up",
    )

    def __init__(
        self,
        cfg: Config,
        seat: int,
        phase: int,
        asked: int,
        hand: int,
        first: int,
        to_act: int,
        leader: int,
        dealer: int,
        up: tuple[int, ...],
        exposed: int,
        own_down: int,
        down_counts: tuple[int, ...],
        trick: tuple[int, ...],
        tricks: tuple[Trick, ...],
        captured: tuple[int, ...],
        sizes: tuple[int, ...],
        shown: int,
        legal: int,
        played: int,
        decided: int = 0,
        moves: int = 0,
    ) -> None:
        self.cfg = cfg
        self.n: int = cfg.n
        self.seat = seat
        self.phase = phase
        self.asked = asked
        self.hand = hand
        self.first = first
        self.to_act = to_act
        self.leader = leader
        self.dealer = dealer
        self.up = up
        self.exposed = exposed
        self.own_down = own_down
        self.down_counts = down_counts
        self.trick = trick
        self.tricks = tricks
        self.captured = captured
        self.sizes = sizes
        self.shown = shown
        self.legal = legal
        self.played = played
        self.decided = decided
        self.moves = moves
        self._played_by: tuple[int, ...] | None = None
        self._voids: tuple[int, ...] = ()

    @property
    def played_by(self) -> tuple[int, ...]:
        """Each seat's cards played so far (completed tricks and the trick in progress)."""
        if self._played_by is None:
            self._played_by, self._voids = plays_of(self.n, self.tricks, self.leader, self.trick)
        return self._played_by

    @property
    def voids(self) -> tuple[int, ...]:
        """Each seat's known voids (a suit mask): the suits it did not follow."""
        if self._played_by is None:
            self._played_by, self._voids = plays_of(self.n, self.tricks, self.leader, self.trick)
        return self._voids

    @property
    def unseen(self) -> int:
        """The deck's cards this seat has not seen: not in its hand, not played, not
        exposed face up, not shown (its own face-down cards are in its hand or played)."""
        return self.cfg.deck & ~(self.hand | self.played | self.exposed | self.shown)


def plays_of(
    n: int, tricks: tuple[Trick, ...], leader: int, trick: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each seat's played cards and known voids (suit masks), from the completed ``tricks``
    and the trick in progress (``trick``, led by ``leader``): the one void rule."""
    played_by = [0] * n
    voids = [0] * n
    for lead, _winner, cards in tricks:
        _note(played_by, voids, n, lead, cards)
    if trick:
        _note(played_by, voids, n, leader, trick)
    return tuple(played_by), tuple(voids)


def _note(
    played_by: list[int], voids: list[int], n: int, leader: int, cards: tuple[int, ...]
) -> None:
    led = cards[0] // 13
    seat = leader
    for card in cards:
        played_by[seat] |= BIT[card]
        if card // 13 != led:
            voids[seat] |= BIT[led]
        seat += 1
        if seat == n:
            seat = 0


_CAPTURED: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}


def _captured(capt: tuple[int, ...]) -> tuple[int, ...]:
    # Successive states share the capture tuple until a trick completes: mask it once per
    # tuple (keyed by id, the tuple kept alive in the value), and views share the result.
    hit = _CAPTURED.get(id(capt))
    if hit is not None and hit[0] is capt:
        return hit[1]
    built = tuple([c & POINT_CARDS for c in capt])
    if len(_CAPTURED) >= 1024:
        _CAPTURED.clear()
    _CAPTURED[id(capt)] = (capt, built)
    return built


def info_of(s: State, seat: int) -> Info:
    """What ``seat`` knows in ``s`` (``seat`` ``-1``: what a spectator knows, see
    :func:`public_info`). The seat is trusted (a seat of the deal, or ``-1``)."""
    t = s.table
    cfg = t.cfg
    n = t.n
    hands = t.hands
    gone = s.gone
    up = t.up
    down = t.down
    done = s.done
    if done == COMPLETE:
        phase = DONE
    elif done != PLAYING:
        phase = CLAIM
    elif not s.trick and not s.tricks and exposure_open(s):
        phase = EXPOSURE
        if not cfg.in_turn:  # specification §9.2: only the seat's own choice shows till all decide
            if seat < 0:
                up = 0
                down = 0
            else:
                up &= hands[seat]
                down &= hands[seat]
    else:
        phase = PLAY
    to_act = (s.leader + (s.trick & 7)) % n if done == PLAYING else -1
    # Until the deal is complete the cards gone from the hands are the cards played
    # (an accepted claim sweeps the rest into the piles).
    gone_by_play = gone if done != COMPLETE else played(s)
    hand = 0
    first = -1
    own_down = 0
    lm = 0
    asked = ASK_NOTHING
    if seat >= 0:
        hand = hands[seat] & ~gone
        dealt = t.dealt[seat]
        if dealt:
            first = dealt[0]
        own_down = down & hands[seat]
        if to_act == seat:
            lm = legal(s)
            if phase == PLAY:
                asked = ASK_PLAY
        if phase == EXPOSURE:
            if not (t.decided >> seat & 1 or (cfg.in_turn and next_to_expose(s) != seat)):
                asked = ASK_EXPOSE
        elif phase == CLAIM and not respond_reason(s, seat):
            asked = ASK_RESPOND
    return Info(
        cfg,
        seat,
        phase,
        asked,
        hand,
        first,
        to_act,
        s.leader,
        t.dealer,
        tuple([up & h for h in hands]) if up else _ZEROS[n],
        up,
        own_down,
        tuple([popcount(down & h) for h in hands]) if down else _ZEROS[n],
        trick_cards(s) if s.trick else (),
        s.tricks,
        _captured(s.capt),
        _sizes(s, n) if done != COMPLETE else tuple([popcount(h & ~gone) for h in hands]),
        t.shown & ~gone_by_play if t.shown else 0,
        lm,
        gone_by_play,
        t.decided,
        _moves(s.log),
    )


def _moves(log: Log | None) -> int:
    """The number of actions in a history (a run node holds several plays)."""
    count = 0
    while log is not None:
        item = log[1]
        count += 1 if isinstance(item, int) else len(cast("tuple[int, ...]", item))
        log = previous(log)
    return count


def _sizes(s: State, n: int) -> tuple[int, ...]:
    # Each seat's cards in hand before the deal is complete: every hand is dealt
    # hand_size cards and loses one a trick (no popcount: this runs once a view).
    left = s.table.cfg.hand_size - len(s.tricks)
    count = s.trick & 7
    if not count:
        return _SAME[n][left]
    sizes = [left] * n
    seat = s.leader
    for _ in range(count):
        sizes[seat] -= 1
        seat += 1
        if seat == n:
            seat = 0
    return tuple(sizes)


_SAME: Final = tuple([tuple([tuple([k] * n) for k in range(53)]) for n in range(9)])


def public_info(s: State) -> Info:
    """What a spectator knows in ``s``: no hand, nothing asked of it, and each seat's
    face-up and face-down exposures once the other seats may see them (specification §9.2)."""
    return info_of(s, -1)
