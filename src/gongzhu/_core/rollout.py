"""Playing a deal to its end inside the core: the engine of :meth:`Round.rollout`. Private.

The random generator
    :mod:`gongzhu._core.rng` (re-exported here): :func:`seed_state` turns any
    int into the state of a 32-bit xorshift generator, :func:`next_random`
    steps it, and a random play is :func:`random_card`: card number ``r % k``
    (in index order) of the ``k`` legal cards, ``r`` being the next draw.

The policy hook (for search code; documented-private, no public objects per card)
    A *policy* is any callable ``policy(state, legal) -> card`` taking the
    core :class:`~gongzhu._core.state.State` (the seat to act is
    ``gongzhu._core.state.to_act(state)``) and the non-empty legal-play mask
    (a 52-bit int), and returning the index (0-51) of one legal card. It may
    read the state's fields (see :mod:`gongzhu._core.state`) and call the
    functions of :mod:`gongzhu._core.play`, and must not change the state.

    :func:`rollout` takes one entry per seat, ``None`` meaning uniform random
    plays from the shared generator. The public facade does the same with
    ``Round.rollout(strategy)``; from search code, call the core directly::

        from gongzhu._core.rollout import rollout, seed_state
        end = rollout(rnd.engine_state, (my_policy,) * rnd.players, seed_state(7))
        finished = Round.from_engine_state(end)

    A returned card that is not legal raises ``ValueError`` (the facade turns
    it into ``IllegalActionError``). Exposure decisions are not the policy's:
    a rollout declines for every seat that has not decided. Under a pending
    claim the seats that have not answered refuse it.

When every seat is random, the loop runs on local ints and builds one state
at the end (with the whole history); otherwise it advances state by state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, cast

from gongzhu._core.bits import SEL6, SEL7, nth_card
from gongzhu._core.board import of_state, to_state
from gongzhu._core.play import (
    advance,
    binding_exposed,
    decline_all,
    legal,
    next_to_respond,
    respond,
)
from gongzhu._core.policy import RandomPolicy, RuleOfThumb
from gongzhu._core.policy import rollout as _rollout_board
from gongzhu._core.rng import M32, next_random, random_card, seed_state
from gongzhu._core.rules import legal_mask
from gongzhu._core.state import (
    ACE_OF_HEARTS,
    BIT,
    COMPLETE,
    HEARTS_BROKEN,
    PLAY_ENTRIES,
    PLAYING,
    POP13,
    Log,
    State,
    Trick,
    trick_cards,
)

if TYPE_CHECKING:  # annotations only (never evaluated): the pure build needs no mypy_extensions
    from mypy_extensions import i64

__all__ = [
    "Policy",
    "RandomPolicy",
    "RuleOfThumb",
    "next_random",
    "nth_card",
    "random_card",
    "rollout",
    "rollout_random",
    "seed_state",
    "settle",
]

Policy = Callable[[State, int], int]  # or a core policy (gongzhu._core.policy)
"""``policy(state, legal_mask) -> card index`` (see the module docstring)."""

SHIFTS: Final = (0, 13, 26, 39)  # a suit's first card index


def settle(s: State) -> State:
    """``s`` with every seat's exposure decided (undecided seats decline) and no claim pending."""
    s = decline_all(s)
    while s.done != PLAYING and s.done != COMPLETE:
        s = respond(s, next_to_respond(s), False)
    return s


def rollout(s: State, policies: Sequence[Policy | None], x: int) -> State:
    """Play ``s`` to the end: seat ``i`` by ``policies[i]`` (``None``: random, drawing from ``x``).

    Exposures still open are declined and a pending claim is refused first
    (:func:`settle`). ``x`` is a generator state from :func:`seed_state`.
    The core's own policies (random, rule of thumb) play on a
    :class:`~gongzhu._core.board.Board`; any other policy is called with each
    state and its legal mask.
    """
    s = settle(s)
    native = True
    every_random = True
    for p in policies:
        if p is not None:
            every_random = False
            if not isinstance(p, (RandomPolicy, RuleOfThumb)):
                native = False
    if every_random:
        # The inlined loop: the Board loop measured 6-9% slower compiled and about 40%
        # slower interpreted (interleaved, one process); both draw the same cards.
        return _rollout_random(s, x)
    if native:
        if s.done != PLAYING:
            return s
        b = of_state(s)
        _rollout_board(b, list(policies), x)
        return to_state(s, b)
    return _rollout_policies(s, policies, x)


def rollout_random(s: State, x: int) -> State:
    """:func:`rollout` with every seat random (``Round.rollout(seed=k)``'s path)."""
    return _rollout_random(settle(s), x)


def _rollout_policies(s: State, policies: Sequence[Policy | None], x: int) -> State:
    n = s.table.n
    while s.done == PLAYING:
        mask = legal(s)
        policy = policies[(s.leader + (s.trick & 7)) % n]
        if policy is None:
            x = next_random(x)
            card = random_card(mask, x)
        elif isinstance(policy, RandomPolicy):
            policy.x = next_random(policy.x)
            card = random_card(mask, policy.x)
        else:
            card = policy(s, mask)
            if not 0 <= card < 52 or not mask & BIT[card]:
                raise ValueError(f"the policy chose card {card}, not a legal play")
        s = advance(s, card)
    return s


def _rollout_random(s: State, x0: int) -> State:
    """The all-random rollout on local ints; one state (and the log) built at the end.

    Per card: one xorshift step inline, the card number ``x % k`` of the ``k`` legal
    cards by table look-ups (:data:`SEL7`, :data:`SEL6`), the trick's winner tracked as
    its cards fall (the highest of the led suit so far) and the trick's cards in locals.
    The same draws and the same cards as :func:`random_card` over :func:`legal_mask`.
    """
    # The core's rollout hot loop, longer than 80 lines on purpose
    # (tests/package/test_source_shape.py lists it): every random rollout of the search
    # spends its time here, and one flat loop with its state in native locals is what makes
    # it fast; a helper called per card (for the step, the card or the trick) costs more
    # than the work it would hide.
    if s.done != PLAYING:
        return s
    t = s.table
    cfg = t.cfg
    n = t.n
    hands = t.hands
    every = t.every
    opening = t.opening
    points_out = cfg.end_when_points_out
    point_cards = cfg.point_cards
    # Native 64-bit locals in the compiled build (masks are 52 bits, draws 32).
    x: i64 = x0
    gone: i64 = s.gone
    leader: i64 = s.leader
    trick: i64 = s.trick
    flags: i64 = s.flags
    exposed: i64 = binding_exposed(s)
    every64: i64 = every
    n64: i64 = n
    if exposed != t.up:  # the forced fourth card, exposed as the first card is played
        t = t.copy()
        t.up = exposed
        t.down &= ~exposed
    # Leads that legal_mask would answer with the whole hand (no restriction applies)
    # are drawn inline; the rest ask legal_mask.
    hearts_gate = cfg.hearts_rule or (cfg.blood_lock and exposed & ACE_OF_HEARTS != 0)
    tricks: list[Trick] = list(s.tricks)
    first = not tricks
    capt = list(s.capt)
    # The trick's cards in native locals q0-q4 (3 to 5 players): no list per trick.
    q0: i64 = -1
    q1: i64 = -1
    q2: i64 = -1
    q3: i64 = -1
    q4: i64 = -1
    taken: i64 = 0
    led: i64 = trick >> 3
    best: i64 = -1  # the highest card of the led suit on the table, and its seat
    best_seat: i64 = leader
    seat: i64 = leader
    for placed, c in enumerate(trick_cards(s)):
        if placed == 0:
            q0 = c
        elif placed == 1:
            q1 = c
        elif placed == 2:
            q2 = c
        else:
            q3 = c  # a trick in progress holds at most n - 1 <= 4 cards
        taken |= BIT[c]
        if c // 13 == led and c > best:
            best = c
            best_seat = seat
        seat = seat + 1 if seat + 1 < n else 0
    count: i64 = trick & 7
    hand: i64 = 0
    part: i64 = 0
    k: i64 = 0
    card: i64 = 0
    shift: i64 = 0
    base: i64 = 0
    c0: i64 = 0
    lo: i64 = 0
    mask: i64 = 0
    p0: i64 = 0
    p1: i64 = 0
    p2: i64 = 0
    p3: i64 = 0
    c1: i64 = 0
    c2: i64 = 0
    # The log's nodes hold the table's entry objects as they are (typed object, the
    # compiled build neither unboxes nor re-boxes them: no int allocated per card).
    log: object = s.log
    run: list[object] = []  # the plays, one run node at the end (see Log)
    entries: tuple[object, ...] = PLAY_ENTRIES
    sel7 = SEL7
    sel6 = SEL6
    pop13 = POP13
    while True:
        hand = hands[seat] & ~gone
        # rng.next_random's step, inline (hot loop).
        x ^= (x << 13) & M32
        x ^= x >> 17
        x ^= (x << 5) & M32
        mask = 0  # set when the card is drawn from a whole mask below
        if count:
            # The common case inline: a follower with cards of the led suit and no
            # exposed card among them plays one of those (as legal_mask would say).
            shift = led * 13
            part = hand >> shift & 0x1FFF
            if part and not part << shift & exposed:
                k = x % pop13[part]
                lo = part & 0x7F
                c0 = pop13[lo]
                if k < c0:
                    card = shift + sel7[k << 7 | lo]
                else:
                    card = shift + sel6[(k - c0) << 6 | part >> 7]
            elif not part and not hand & exposed:
                mask = hand  # void, nothing exposed in hand: any card (as legal_mask says)
            else:
                card = random_card(legal_mask(cfg, hand, trick, flags, exposed, first, opening), x)
        elif hand & exposed or (opening and first) or (hearts_gate and not flags & HEARTS_BROKEN):
            mask = legal_mask(cfg, hand, trick, flags, exposed, first, opening)
        else:
            mask = hand  # a lead that no restriction applies to
        if mask:
            # random_card inline: card number x % k of the k cards, in index order.
            p0 = mask & 0x1FFF
            p1 = mask >> 13 & 0x1FFF
            p2 = mask >> 26 & 0x1FFF
            p3 = mask >> 39
            c0 = pop13[p0]
            c1 = pop13[p1]
            c2 = pop13[p2]
            k = x % (c0 + c1 + c2 + pop13[p3])
            if k < c0:
                part = p0
                base = 0
            elif k < c0 + c1:
                k -= c0
                part = p1
                base = 13
            elif k < c0 + c1 + c2:
                k -= c0 + c1
                part = p2
                base = 26
            else:
                k -= c0 + c1 + c2
                part = p3
                base = 39
            lo = part & 0x7F
            c0 = pop13[lo]
            if k < c0:
                card = base + sel7[k << 7 | lo]
            else:
                card = base + sel6[(k - c0) << 6 | part >> 7]
        if not count:
            led = card // 13
            shift = led * 13
            trick = led << 3
            best = card
            best_seat = seat
        # BIT, not 1 << card: compiled with i64 locals, 1 << card came out wrong for
        # high cards (mypyc 2.4; the deal never ended): a table look-up is safe.
        bit: i64 = BIT[card]
        gone |= bit
        taken |= bit
        run.append(entries[card << 5 | seat << 2])
        if count == 0:
            q0 = card
        elif count == 1:
            q1 = card
        elif count == 2:
            q2 = card
        elif count == 3:
            q3 = card
        else:
            q4 = card
        if 26 <= card < 39:
            flags |= 16
        if count and card > best and card < shift + 13 and card >= shift:
            best = card
            best_seat = seat
        trick += 1
        count += 1
        seat = seat + 1 if seat + 1 < n64 else 0
        if count < n64:
            continue
        # The trick is complete: the highest card of the led suit takes it.
        winner = best_seat
        capt[winner] |= taken
        if n64 == 4:
            tricks.append((leader, winner, (q0, q1, q2, q3)))
        elif n64 == 3:
            tricks.append((leader, winner, (q0, q1, q2)))
        else:
            tricks.append((leader, winner, (q0, q1, q2, q3, q4)))
        taken = 0
        flags |= BIT[led]
        leader = winner
        seat = winner
        trick = 0
        count = 0
        first = False
        if gone == every64:
            break
        if points_out:
            every_capt = 0
            for c in capt:
                every_capt |= c
            if every_capt & point_cards == point_cards:
                break
    log = (log, tuple(run))
    return State(
        t, gone, tuple(capt), leader, 0, tuple(tricks), flags, COMPLETE, cast("Log | None", log)
    )
