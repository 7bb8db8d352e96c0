"""A mutable position of one deal in play, for bulk loops (rollouts, search). Private.

:class:`~gongzhu._core.state.State` is persistent (what ``Round`` wraps; every
play builds a new state); a :class:`Board` changes in place: :meth:`Board.play`
for a trusted play, :meth:`Board.push` / :meth:`Board.pop` to make and unmake
one, :meth:`Board.copy` to branch (a few hundred nanoseconds compiled). Both
ask the same rules kernel (:mod:`gongzhu._core.rules`) and the same scoring
kernel; ``tests/core/test_board_agrees_with_state.py`` checks that from any position they
agree on the legal set, on every play and on the totals.

A board starts with every exposure decided and no claim pending (the card
play only): :func:`of_state` settles a state first, :func:`of_world` takes a
sampled deal (the search's determinization). :func:`to_state` turns the plays
made on a board from a state back into the state they reach (with the
history), so ``Round.rollout`` can run on a board and return a ``Round``.
"""

from __future__ import annotations

from gongzhu._core.bits import BIT, HEARTS, QUEEN_OF_DIAMONDS_BIT, SUIT_MASKS
from gongzhu._core.config import Config
from gongzhu._core.rules import (
    HEARTS_BROKEN,
    deal_over,
    factors,
    forced_fourth,
    legal_mask,
    queen_counts,
    trick_winner,
)
from gongzhu._core.scoring import score_masks
from gongzhu._core.state import (
    COMPLETE,
    PLAY_ENTRIES,
    PLAYING,
    Log,
    State,
    Trick,
    played,
    trick_cards,
)


class Board:
    """One deal in play, mutable. Seats act in turn from ``leader``.

    ``hands`` are the cards each seat holds now, ``dealt`` what it held
    before the first trick (its hand plus what it has played; the seat knows
    its own face-down cards among them), ``capt`` the captured masks,
    ``trick`` the cards of the trick in progress (in play order), ``led`` its
    suit (``-1`` before the lead), ``flags`` the suits led (bits 0-3) and
    ``HEARTS_BROKEN``, ``ntricks`` the completed tricks, ``played`` every card
    played to a trick, ``every`` every card of the deal. Exposures: ``up``,
    ``down``, ``blind`` (masks). ``opening``: the opening card must be led.
    ``tricks`` holds the tricks completed on this board and ``plays`` the
    cards played on it (what :func:`to_state` replays).
    """

    cfg: Config
    hands: list[int]
    dealt: list[int]
    capt: list[int]
    leader: int
    trick: list[int]
    led: int
    flags: int
    ntricks: int
    played: int
    every: int
    up: int
    down: int
    blind: int
    opening: bool
    done: bool
    qd_taker: int
    qd_counts: list[int]
    tricks: list[Trick]
    plays: list[int]
    undo: list[tuple[int, int, int, int, int, int, int, bool, list[int], tuple[int, ...]]]

    def __init__(self, cfg: Config, hands: list[int], leader: int) -> None:
        n = cfg.n
        self.cfg = cfg
        self.hands = hands
        self.dealt = hands[:]
        self.capt = [0] * n
        self.leader = leader
        self.trick = []
        self.led = -1
        self.flags = 0
        self.ntricks = 0
        self.played = 0
        every = 0
        for h in hands:
            every |= h
        self.every = every
        self.up = 0
        self.down = 0
        self.blind = 0
        self.opening = False
        self.done = False
        self.qd_taker = -1
        self.qd_counts = [0] * n
        self.tricks = []
        self.plays = []
        self.undo = []

    def copy(self) -> Board:
        """An independent board in the same position (its undo stack starts empty)."""
        b = Board(self.cfg, self.hands[:], self.leader)  # (mypyc: no bare __new__)
        b.dealt = self.dealt  # never changed after the board is built
        b.capt = self.capt[:]
        b.trick = self.trick[:]
        b.led = self.led
        b.flags = self.flags
        b.ntricks = self.ntricks
        b.played = self.played
        b.every = self.every
        b.up = self.up
        b.down = self.down
        b.blind = self.blind
        b.opening = self.opening
        b.done = self.done
        b.qd_taker = self.qd_taker
        b.qd_counts = self.qd_counts[:]
        b.tricks = self.tricks[:]
        b.plays = self.plays[:]
        return b

    def to_act(self) -> int:
        """The seat to play next."""
        return (self.leader + len(self.trick)) % self.cfg.n

    def is_over(self) -> bool:
        return self.done

    def between(self, seat: int) -> int:
        """The cards that may fall between two of ``seat``'s: others' still held, and the trick's.

        What :func:`~gongzhu._core.rules.card_classes` reads as ``between`` for the seat.
        """
        live = self.every & ~self.played & ~self.hands[seat]
        for c in self.trick:
            live |= BIT[c]
        return live

    def exposed(self) -> int:
        """The face-up exposures that bind play now (with the forced fourth before the lead)."""
        if self.ntricks == 0 and not self.trick and self.cfg.force_fourth:
            return forced_fourth(self.cfg, self.up)
        return self.up

    def legal(self) -> int:
        """The legal-play mask of the seat to act (0 once the deal is over)."""
        if self.done:
            return 0
        cfg = self.cfg
        count = len(self.trick)
        hand = self.hands[(self.leader + count) % cfg.n]
        exposed = self.up
        if self.ntricks == 0 and not count and cfg.force_fourth:
            exposed = forced_fourth(cfg, exposed)
        if count and not exposed:
            # A follower with nothing exposed: the led suit, or the whole hand when void
            # (what legal_mask answers then; the common case, kept cheap interpreted).
            return hand & SUIT_MASKS[self.led] or hand
        return legal_mask(
            cfg, hand, self.led << 3 | count if count else 0, self.flags, exposed,
            self.ntricks == 0, self.opening,
        )  # fmt: skip

    def play(self, card: int) -> None:
        """The seat to act plays ``card`` (trusted: one of :meth:`legal`)."""
        cfg = self.cfg
        n = cfg.n
        trick = self.trick
        seat = (self.leader + len(trick)) % n
        bit = BIT[card]
        hands = self.hands
        hands[seat] = hands[seat] & ~bit  # typed (the in-place form goes through Python)
        self.played |= bit
        self.plays.append(card)
        if bit & HEARTS:
            self.flags |= HEARTS_BROKEN
        if not trick:
            self.led = card // 13
            if self.ntricks == 0 and cfg.force_fourth:
                up = forced_fourth(cfg, self.up)
                if up != self.up:
                    self.up = up
                    self.down &= ~up
        trick.append(card)
        if len(trick) < n:
            return
        taken = 0
        for c in trick:
            taken |= BIT[c]
        leader = self.leader
        winner = (leader + trick.index(trick_winner(self.led, taken))) % n
        capt = self.capt
        capt[winner] |= taken
        if cfg.queen_bonus:
            if self.qd_taker >= 0:
                if winner == self.qd_taker:
                    self.qd_counts[winner] += 1
            elif taken & QUEEN_OF_DIAMONDS_BIT:
                self.qd_taker = winner
        self.tricks.append((leader, winner, tuple(trick)))
        self.flags |= BIT[self.led]
        self.leader = winner
        self.ntricks += 1
        self.trick = []
        self.led = -1
        every_capt = 0
        if cfg.end_when_points_out:
            for c in capt:
                every_capt |= c
        self.done = deal_over(cfg, self.played, self.every, every_capt)

    def push(self, card: int) -> None:
        """:meth:`play` ``card``, remembering how to :meth:`pop` it."""
        self.undo.append(
            (
                card,
                self.leader,
                self.flags,
                self.up,
                self.down,
                self.led,
                self.qd_taker,
                self.done,
                self.trick,
                tuple(self.capt) + tuple(self.qd_counts),
            )
        )
        self.play(card)

    def pop(self) -> int:
        """Unmake the last :meth:`push`; returns its card."""
        card, leader, flags, up, down, led, qd_taker, done, trick, counts = self.undo.pop()
        n = self.cfg.n
        if not self.trick:  # the play completed a trick: it is in progress again
            self.trick = trick
            self.ntricks -= 1
            self.tricks.pop()
            for k in range(n):
                self.capt[k] = counts[k]
                self.qd_counts[k] = counts[n + k]
        trick.pop()
        self.leader = leader
        self.flags = flags
        self.up = up
        self.down = down
        self.led = led
        self.qd_taker = qd_taker
        self.done = done
        bit = BIT[card]
        self.hands[(leader + len(trick)) % n] |= bit
        self.played &= ~bit
        self.plays.pop()
        return card

    def factors(self) -> tuple[int, int, int, int]:
        """The exposure factors of A♥, Q♠, J♦ and 10♣."""
        return factors(self.cfg, self.up, self.down, self.blind)

    def totals(self) -> tuple[int, ...]:
        """Each seat's deal score (the deal must be over)."""
        cfg = self.cfg
        fa, fq, fj, ft = factors(cfg, self.up, self.down, self.blind)
        queen = tuple(self.qd_counts) if cfg.queen_bonus else None
        return score_masks(tuple(self.capt), fa, fq, fj, ft, cfg, queen, False)[0]


def of_state(s: State) -> Board:
    """The board of a state whose exposures are all decided and no claim is pending."""
    t = s.table
    cfg = t.cfg
    n = t.n
    gone = s.gone
    hands = [t.hands[k] & ~gone for k in range(n)]
    b = Board(cfg, hands, s.leader)
    b.dealt = list(t.hands)
    b.every = t.every
    b.capt = list(s.capt)
    b.trick = list(trick_cards(s))
    b.led = s.trick >> 3 if s.trick else -1
    b.flags = s.flags
    b.ntricks = len(s.tricks)
    b.played = played(s)
    b.up = t.up
    b.down = t.down
    b.blind = t.blind
    b.opening = t.opening
    b.done = s.done == COMPLETE
    if cfg.queen_bonus:
        b.qd_counts = list(queen_counts(n, s.tricks))
        for _lead, winner, cards in s.tricks:
            for c in cards:
                if BIT[c] == QUEEN_OF_DIAMONDS_BIT:
                    b.qd_taker = winner
    return b


def of_world(
    cfg: Config,
    hands: list[int],
    dealt: list[int],
    leader: int,
    trick: list[int],
    tricks: list[Trick],
    up: int,
    down: int,
    blind: int,
    opening: bool,
) -> Board:
    """A board of a sampled deal: current ``hands``, ``dealt`` hands (hand plus played
    cards), the completed ``tricks`` and the ``trick`` in progress led by ``leader``,
    the exposures, and whether the opening card must be led (before the first trick)."""
    n = cfg.n
    b = Board(cfg, hands, leader)
    b.dealt = dealt
    every = 0
    for h in dealt:
        every |= h
    b.every = every
    flags = 0
    played_mask = 0
    for _lead, winner, cards in tricks:
        taken = 0
        for c in cards:
            taken |= BIT[c]
        b.capt[winner] |= taken
        played_mask |= taken
        flags |= BIT[cards[0] // 13]
    for c in trick:
        played_mask |= BIT[c]
    if played_mask & HEARTS:
        flags |= HEARTS_BROKEN
    b.flags = flags
    b.played = played_mask
    b.trick = trick[:]
    b.led = trick[0] // 13 if trick else -1
    b.ntricks = len(tricks)
    b.up = up
    b.down = down
    b.blind = blind
    b.opening = opening
    if cfg.queen_bonus:
        b.qd_counts = list(queen_counts(n, tuple(tricks)))
        for _lead, winner, cards in tricks:
            for c in cards:
                if BIT[c] == QUEEN_OF_DIAMONDS_BIT:
                    b.qd_taker = winner
    return b


def to_state(s: State, b: Board) -> State:
    """The state ``s`` reaches by the plays made on ``b`` (a board of ``s``), history included.

    ``s`` must be settled (every exposure decided, no claim pending) and ``b``
    made by :func:`of_state` from it.
    """
    plays = b.plays
    if not plays:
        return s
    t = s.table
    n = t.n
    if t.up != b.up:  # the forced fourth card, exposed as the first card was played
        t = t.copy()
        t.up = b.up
        t.down = b.down
    log: Log | None = s.log
    leader = s.leader
    count = s.trick & 7
    gone = s.gone
    done_tricks = b.tricks  # the tricks completed on the board (since s), in order
    k = 0
    for card in plays:
        seat = (leader + count) % n
        log = (log, PLAY_ENTRIES[card << 5 | seat << 2])
        gone |= BIT[card]
        count += 1
        if count == n:
            count = 0
            leader = done_tricks[k][1]
            k += 1
    tricks = s.tricks + tuple(done_tricks)
    trick = (b.led << 3 | len(b.trick)) if b.trick else 0
    done = COMPLETE if b.done else PLAYING
    return State(t, gone, tuple(b.capt), b.leader, trick, tricks, b.flags, done, log)
