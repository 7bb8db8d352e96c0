"""The rules of play for every option, as typed functions over :class:`State`. Private.

Nothing here raises for a refused action: the ``*_reason`` functions return
a reason code (``OK`` when allowed; the facade turns codes into
:class:`~gongzhu.Reason` and errors), and the transitions trust that their
action was checked. Sources are cited as in the rules
specification (``docs/specification.md``).
"""

from __future__ import annotations

from typing import Final, cast

from gongzhu._core.rules import (
    deal_over,
    factors,
    forced_fourth,
    legal_mask,
    queen_counts,
    trick_winner,
)
from gongzhu._core.scoring import score_masks
from gongzhu._core.state import (
    ACE_OF_HEARTS,
    BIT,
    CLAIM,
    CLAIMING,
    COMPLETE,
    HEARTS,
    HEARTS_BROKEN,
    LOW13,
    PLAY_ENTRIES,
    PLAYING,
    RESPOND,
    SUIT_MASKS,
    Log,
    State,
    Table,
    Trick,
    chain,
    decision_entry,
    entries,
    expose_entry,
    popcount,
    trick_cards,
)

# Reason codes, in the order of gongzhu.errors.Reason.
OK: Final = 0
NOT_YOUR_TURN: Final = 1
NOT_IN_HAND: Final = 2
MUST_FOLLOW_SUIT: Final = 3
EXPOSED_CARD_HELD_BACK: Final = 4
MUST_LEAD_OPENING_CARD: Final = 5
HEARTS_NOT_BROKEN: Final = 6
HEARTS_LOCKED: Final = 7
WRONG_PHASE: Final = 8
EXPOSURE_OFF: Final = 9
NOT_EXPOSABLE: Final = 10
ALREADY_EXPOSED: Final = 11
EXPOSURE_OUT_OF_TURN: Final = 12
NOT_FIRST_DEALT_CARD: Final = 13
CLAIMS_OFF: Final = 14
NO_SUCH_SEAT: Final = 15
INVALID_CHOICE: Final = 16
EXPOSURE_PENDING: Final = 17
ALREADY_DECIDED: Final = 18
CLAIM_REFUSED: Final = 19
# Details the facade words differently (sub-reasons of NOT_EXPOSABLE / WRONG_PHASE).
FACE_DOWN_OFF: Final = 100
BLIND_OFF: Final = 101
EXPOSURE_CLOSED: Final = 102


# -- legal plays ------------------------------------------------------------------------------


def binding_exposed(s: State) -> int:
    """The face-up exposures that restrict play now (with the forced fourth before the lead)."""
    t = s.table
    if not s.trick and not s.tricks and t.cfg.force_fourth:
        return force_fourth(t)
    return t.up


def force_fourth(t: Table) -> int:
    """The face-up exposures once "three exposed force the fourth" applies (see
    :func:`gongzhu._core.rules.forced_fourth`); the library applies it when the
    exposure window closes, i.e. with the first card played."""
    return forced_fourth(t.cfg, t.up)


def legal(s: State) -> int:
    """The legal-play mask of the seat to act (0 when no card may be played).

    Cached on the state (``State.lm``): computed on first use.
    """
    lm = s.lm
    if lm >= 0:
        return lm
    lm = _legal(s)
    s.lm = lm
    return lm


def mask_ids(mask: int) -> list[int]:
    """The card indexes of ``mask``, ascending (a play's action id is its card index)."""
    ids: list[int] = []
    base = 0
    while mask:
        part = mask & 0x1FFF
        while part:
            ids.append(base + LOW13[part])
            part &= part - 1
        mask >>= 13
        base += 13
    return ids


def legal_ids(s: State) -> list[int]:
    """The legal plays of the seat to act as action ids (card indexes 0-51), ascending.

    Card plays only: exposure, claim and response ids belong to the protocol's scheme.
    """
    return mask_ids(legal(s))


def legal_uncached(s: State) -> int:
    """:func:`legal` without storing it on the state: for a play that moves on from ``s``
    (a line of states kept alive keeps no cached mask per state; the pure build's
    ``State.lm`` holds an int object once set)."""
    lm = s.lm
    return lm if lm >= 0 else _legal(s)


def play_ids(s: State) -> list[int] | None:
    """:func:`legal_ids` when the seat to act plays a card, exposure is over and the rules
    have no claims (the integer lane's common case, one call from the facade); ``None``
    otherwise (the facade then works out who decides what)."""
    if s.done == PLAYING and (s.trick or s.tricks) and not s.table.cfg.claims:
        return mask_ids(legal(s))
    return None


def try_play(s: State, card: int) -> State | None:
    """The state after the seat to act plays ``card`` if that is a legal play now (any
    int), else ``None`` (the facade then explains the refusal)."""
    if 0 <= card < 52:
        lm = s.lm
        if lm < 0:
            lm = _legal(s)  # not cached: the state is left behind
        if lm >> card & 1:
            return advance(s, card)
    return None


def _legal(s: State) -> int:
    if s.done != PLAYING:
        return 0
    t = s.table
    trick = s.trick
    exposed = t.up
    if trick:
        # A follower: the led suit, or the whole hand when void. Every restriction on a
        # follower only ever holds back an exposed card, so without one that is all.
        hand = t.hands[(s.leader + (trick & 7)) % t.n] & ~s.gone
        candidates = hand & SUIT_MASKS[trick >> 3] or hand
        if not candidates & exposed:
            return candidates
    elif not s.tricks:
        if t.decided != t.cfg.all_seats and t.cfg.exposable:
            return 0  # specification §9.1: every seat decides before the first lead
        if t.cfg.force_fourth:
            exposed = force_fourth(t)
    return legal_mask(
        t.cfg, t.hands[(s.leader + (trick & 7)) % t.n] & ~s.gone, trick, s.flags, exposed,
        not s.tricks, t.opening,
    )  # fmt: skip


def play_reason(s: State, card: int, seat: int) -> int:
    """Why the seat to act (or ``seat``, when not ``-1``) may not play ``card``; ``OK`` if it may.

    Mirrors :func:`legal_mask` step by step.
    """
    t = s.table
    cfg = t.cfg
    if s.done != PLAYING:
        return WRONG_PHASE
    trick = s.trick
    if exposure_open(s):
        return EXPOSURE_PENDING
    acting = (s.leader + (trick & 7)) % t.n
    if seat >= 0 and seat != acting:
        return NOT_YOUR_TURN
    hand = t.hands[acting] & ~s.gone
    bit = BIT[card]
    if not hand & bit:
        return NOT_IN_HAND
    if legal(s) & bit:
        return OK
    exposed = binding_exposed(s)
    if trick:
        if hand & SUIT_MASKS[trick >> 3] and card // 13 != trick >> 3:
            return MUST_FOLLOW_SUIT
        return EXPOSED_CARD_HELD_BACK
    if t.opening and not s.tricks and hand & cfg.opening_card:
        return MUST_LEAD_OPENING_CARD
    if bit & HEARTS and not s.flags & HEARTS_BROKEN and hand & ~HEARTS:
        if cfg.hearts_rule:
            return HEARTS_NOT_BROKEN
        if cfg.blood_lock and exposed & ACE_OF_HEARTS:
            return HEARTS_LOCKED
    return EXPOSED_CARD_HELD_BACK


# -- transitions ------------------------------------------------------------------------------


def advance(s: State, card: int) -> State:
    """The state after the seat to act plays ``card`` (already checked legal)."""
    t = s.table
    n = t.n
    trick = s.trick
    flags = s.flags
    seat = (s.leader + (trick & 7)) % n
    if 26 <= card < 39:  # a heart
        flags |= HEARTS_BROKEN
    log = (s.log, PLAY_ENTRIES[card << 5 | seat << 2])
    if trick:
        trick += 1
        if trick & 7 < n:  # the common case: a card follows, the trick goes on
            return State(t, s.gone | BIT[card], s.capt, s.leader, trick, s.tricks, flags, 0, log)
    else:
        trick = (card // 13) << 3 | 1
        if not s.tricks and t.cfg.force_fourth:
            up = force_fourth(t)
            if up != t.up:
                t = t.copy()
                t.up = up
                t.down &= ~up
        if n > 1:
            return State(t, s.gone | BIT[card], s.capt, s.leader, trick, s.tricks, flags, 0, log)
    gone = s.gone | BIT[card]
    tricks = s.tricks
    # The trick is complete: its other cards are the previous plays in the log.
    led = trick >> 3
    cards = [card]
    taken = BIT[card]
    node = s.log
    while len(cards) < n and node is not None:
        entry = cast(int, node[1])  # never a run: a run only ends a complete deal
        if entry & 3 == 0:  # a play (claims and responses can come mid-trick)
            cards.append(entry >> 5)
            taken |= BIT[entry >> 5]
        node = node[0]  # type: ignore[assignment]  # a Log or None (no cast call per card)
    cards.reverse()
    # Card k of the trick was played by the leader's k-th follower.
    winner = (s.leader + cards.index(trick_winner(led, taken))) % n
    capt = list(s.capt)
    capt[winner] |= taken
    every_capt = 0
    if t.cfg.end_when_points_out:
        for c in capt:
            every_capt |= c
    done = COMPLETE if deal_over(t.cfg, gone, t.every, every_capt) else PLAYING
    done_trick: Trick = (s.leader, winner, tuple(cards))
    return State(
        t, gone, tuple(capt), winner, 0, (*tricks, done_trick), flags | BIT[led], done, log
    )


# -- exposure ---------------------------------------------------------------------------------


def exposure_open(s: State) -> bool:
    """True while some seat has not decided on exposure (no card may be led yet)."""
    t = s.table
    return (
        t.decided != t.cfg.all_seats
        and t.cfg.exposable != 0
        and s.done == PLAYING
        and not s.trick
        and not s.tricks
    )


def sealed(s: State) -> bool:
    """True while exposures are hidden from the other seats (simultaneous order,
    specification §9.2)."""
    return not s.table.cfg.in_turn and exposure_open(s)


def next_to_expose(s: State) -> int:
    """The seat that decides next under in-turn exposure (``-1`` when all have, or simultaneous)."""
    t = s.table
    if not t.cfg.in_turn:
        return -1
    for i in range(t.n):
        seat = (s.leader + i) % t.n
        if not t.decided >> seat & 1:
            return seat
    return -1


def expose_reason(s: State, seat: int, mask: int, face_down: bool, blind: bool) -> tuple[int, int]:
    """``(reason code, card index or -1)``: why ``seat`` may not expose ``mask`` now.

    specification §9.1: each seat decides once (an empty mask declines), before the
    first lead; in turn from the leader under in-turn order. §9.4: a blind
    exposure is the seat's first act, of its first dealt card only, once; it
    does not count as the decision.
    """
    t = s.table
    cfg = t.cfg
    if not cfg.exposable:
        return EXPOSURE_OFF, -1
    if s.done != PLAYING or s.tricks or s.trick:
        return EXPOSURE_CLOSED, -1
    if t.decided >> seat & 1:
        return ALREADY_DECIDED, -1
    hand = t.hands[seat] & ~s.gone
    rest = mask
    while rest:
        low = rest & -rest
        card = popcount(low - 1)
        if not hand & low:
            return NOT_IN_HAND, card
        if not cfg.exposable & low:
            return NOT_EXPOSABLE, card
        if (t.up | t.down) & low:
            return ALREADY_EXPOSED, card
        rest ^= low
    if cfg.in_turn and next_to_expose(s) != seat:
        return EXPOSURE_OUT_OF_TURN, -1
    if face_down and not cfg.face_down:
        return FACE_DOWN_OFF, -1
    if blind:
        if not cfg.blind:
            return BLIND_OFF, -1
        dealt = t.dealt[seat]
        if not dealt or mask != BIT[dealt[0]] or t.blinded >> seat & 1:
            first = -1
            if mask:
                low = mask & -mask
                first = popcount(low - 1)
            return NOT_FIRST_DEALT_CARD, first
    return OK, -1


def decision_reason(s: State, seat: int, up: int, down: int, blind: bool) -> tuple[int, int]:
    """``(reason code, card index or -1)``: why ``seat`` may not decide to expose ``up``
    face up and ``down`` face down now (one decision may hold both, specification §9.1)."""
    if up & down:
        low = up & down & -(up & down)
        return INVALID_CHOICE, popcount(low - 1)
    if up and down and blind:
        return NOT_FIRST_DEALT_CARD, -1  # a blind exposure is one card (§9.4)
    code, card = expose_reason(s, seat, up | down, False, blind)
    if code == OK and down and not s.table.cfg.face_down:
        return FACE_DOWN_OFF, -1
    return code, card


def decide(s: State, seat: int, up: int, down: int, blind: bool) -> State:
    """The state after ``seat`` exposes ``up`` face up and ``down`` face down (already checked).

    Both empty declines. A blind exposure leaves the seat undecided: its
    ordinary decision follows.
    """
    t = s.table.copy()
    t.up |= up
    t.down |= down
    if blind:
        t.blind |= up | down
        t.blinded |= BIT[seat]
    else:
        t.decided |= BIT[seat]
    log: Log | None = (s.log, decision_entry(seat, up, down, blind))
    if not t.cfg.in_turn and t.decided == t.cfg.all_seats:
        log = _unseal(log, s.leader, t.n)
    return State(t, s.gone, s.capt, s.leader, s.trick, s.tricks, s.flags, s.done, log)


def _unseal(log: Log | None, leader: int, n: int) -> Log | None:
    """The log of a simultaneous exposure window that has just closed, in play order.

    Sealed decisions (specification §9.2) have no order anyone could see, only the
    order in which they reached the table (in a web room, a human and the
    computers race). Kept in play order from the leader, the order in-turn
    exposure, :func:`decline_all` and the turn-based adapters use (stable: a
    seat's blind exposure stays before its decision), every way of reaching the
    same decisions is the same position, with the same history and record.
    """
    window = list(entries(log))  # nothing but exposure entries precede the first lead
    window.sort(key=lambda entry: ((entry >> 2 & 7) - leader) % n)
    return chain(tuple(window))


def expose(s: State, seat: int, mask: int, face_down: bool, blind: bool) -> State:
    """:func:`decide` with every card of ``mask`` face down, or every card face up."""
    if face_down:
        return decide(s, seat, 0, mask, blind)
    return decide(s, seat, mask, 0, blind)


def decline_all(s: State) -> State:
    """The state after every undecided seat declines, in turn from the leader (one step)."""
    if not exposure_open(s):
        return s
    t = s.table.copy()
    log = s.log
    for i in range(t.n):
        seat = (s.leader + i) % t.n
        if not t.decided >> seat & 1:
            log = (log, expose_entry(seat, 0, False, False))
            t.decided |= BIT[seat]
    if not t.cfg.in_turn:
        log = _unseal(log, s.leader, t.n)
    return State(t, s.gone, s.capt, s.leader, s.trick, s.tricks, s.flags, s.done, log)


# -- claims -----------------------------------------------------------------------------------


def claim_reason(s: State, seat: int) -> int:
    """Why ``seat`` (``-1``: the seat to act) may not claim the remaining tricks now."""
    t = s.table
    if not t.cfg.claims:
        return CLAIMS_OFF
    if s.done != PLAYING:
        return WRONG_PHASE
    if exposure_open(s):
        return EXPOSURE_PENDING
    acting = (s.leader + (s.trick & 7)) % t.n
    if seat >= 0 and seat != acting:
        return NOT_YOUR_TURN
    # specification §9.7: a refused claimer waits for another completed trick, which
    # bounds a deal's history by the number of tricks.
    if t.refused_at == len(s.tricks) and t.refused >> acting & 1:
        return CLAIM_REFUSED
    return OK


def claim(s: State) -> State:
    """The seat to act shows its hand and claims every remaining trick (already checked)."""
    t = s.table.copy()
    seat = (s.leader + (s.trick & 7)) % t.n
    t.shown |= t.hands[seat] & ~s.gone
    t.claimer = seat
    t.accepted = 0
    log = (s.log, seat << 2 | CLAIM)
    return State(t, s.gone, s.capt, s.leader, s.trick, s.tricks, s.flags, CLAIMING, log)


def next_to_respond(s: State) -> int:
    """The first seat after the claimer that has not answered (``-1`` without a claim)."""
    t = s.table
    if s.done != CLAIMING:
        return -1
    for i in range(1, t.n):
        seat = (t.claimer + i) % t.n
        if not t.accepted >> seat & 1:
            return seat
    return -1


def respond_reason(s: State, seat: int) -> int:
    if s.done != CLAIMING:
        return WRONG_PHASE
    t = s.table
    if seat == t.claimer or t.accepted >> seat & 1:
        return NOT_YOUR_TURN
    return OK


def respond(s: State, seat: int, accept: bool) -> State:
    """The state after ``seat`` answers the pending claim (already checked)."""
    t = s.table.copy()
    log = (s.log, (1 if accept else 0) << 5 | seat << 2 | RESPOND)
    if not accept:
        if t.refused_at != len(s.tricks):
            t.refused = 0
            t.refused_at = len(s.tricks)
        t.refused |= BIT[t.claimer]
        t.claimer = -1
        t.accepted = 0
        return State(t, s.gone, s.capt, s.leader, s.trick, s.tricks, s.flags, PLAYING, log)
    t.accepted |= BIT[seat]
    if t.accepted | BIT[t.claimer] != BIT[t.n] - 1:
        return State(t, s.gone, s.capt, s.leader, s.trick, s.tricks, s.flags, CLAIMING, log)
    rest = t.every & ~s.gone
    for i in trick_cards(s):
        rest |= BIT[i]
    capt = list(s.capt)
    capt[t.claimer] |= rest
    return State(t, t.every, tuple(capt), s.leader, 0, s.tricks, s.flags, COMPLETE, log)


# -- the result -------------------------------------------------------------------------------


def score_of(
    s: State, with_lines: bool = True
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], int, int, int]:
    """The scoring kernel's answer for a finished deal: ``(totals, lines, all_hearts_seat,
    grand_slam_seat, pig_taker)`` (see :func:`gongzhu._core.scoring.score_masks`; without
    ``with_lines`` the lines are ``()``)."""
    t = s.table
    cfg = t.cfg
    p = cfg
    fa, fq, fj, ft = factors(cfg, t.up, t.down, t.blind)
    queen = queen_counts(t.n, s.tricks) if p.queen_bonus else None
    return score_masks(s.capt, fa, fq, fj, ft, p, queen, with_lines)


def totals(s: State) -> tuple[int, ...]:
    """The integer totals of a finished deal (exposure factors and the Q♦ bonus included)."""
    return score_of(s, False)[0]
