"""Playing a deal to its end inside the core: the engine of :meth:`Round.rollout`. Private.

The random generator
    :func:`seed_state` turns any int into the state of a 32-bit xorshift
    generator (Marsaglia 2003, shifts 13/17/5) through splitmix64;
    :func:`next_random` steps it. Both are plain int arithmetic with masks,
    so the interpreted and the compiled builds draw the same numbers bit for
    bit, on every platform. A random play is card number ``r % k`` (in index
    order) of the ``k`` legal cards, ``r`` being the next draw.

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
        end = rollout(rnd._core, (my_policy,) * rnd.players, seed_state(7))
        finished = Round._from_core(end)

    A returned card that is not legal raises ``ValueError`` (the facade turns
    it into ``IllegalActionError``). Exposure decisions are not the policy's:
    a rollout declines for every seat that has not decided. Under a pending
    claim the seats that have not answered refuse it.

When every seat is random, the loop runs on local ints and builds one state
at the end (with the whole history); otherwise it advances state by state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from gongzhu._core.bits import nth_card
from gongzhu._core.board import of_state, to_state
from gongzhu._core.play import (
    advance,
    binding_exposed,
    decline_all,
    legal,
    next_to_respond,
    respond,
)
from gongzhu._core.policy import RandomPolicy, RuleOfThumb, next_random, random_card
from gongzhu._core.policy import rollout as _rollout_board
from gongzhu._core.rules import deal_over, legal_mask, trick_winner
from gongzhu._core.state import (
    ACE_OF_HEARTS,
    BIT,
    COMPLETE,
    HEARTS_BROKEN,
    LOW13,
    PLAY_ENTRIES,
    PLAYING,
    POP13,
    Log,
    State,
    Trick,
    trick_cards,
)

__all__ = [
    "Policy",
    "RandomPolicy",
    "RuleOfThumb",
    "next_random",
    "nth_card",
    "random_card",
    "rollout",
    "seed_state",
    "settle",
]

Policy = Callable[[State, int], int]  # or a core policy (gongzhu._core.policy)
"""``policy(state, legal_mask) -> card index`` (see the module docstring)."""

M32: Final = 0xFFFFFFFF


SHIFTS: Final = (0, 13, 26, 39)  # a suit's first card index
M64: Final = 0xFFFFFFFFFFFFFFFF


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def seed_state(seed: int) -> int:
    """The generator state for an int ``seed`` (any size or sign; ``k`` and ``-k`` differ)."""
    x = 0 if seed >= 0 else 0x5EED
    v = seed if seed >= 0 else -seed
    x = _splitmix64(x ^ (v & M64))
    v >>= 64
    while v:
        x = _splitmix64(x ^ (v & M64))
        v >>= 64
    x &= M32
    return x if x else 0x2545F491


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


def _rollout_random(s: State, x: int) -> State:
    """The all-random rollout on local ints; one state (and the log) built at the end."""
    if s.done != PLAYING:
        return s
    t = s.table
    cfg = t.cfg
    n = t.n
    hands = t.hands
    every = t.every
    opening = t.opening
    points_out = cfg.end_when_points_out
    gone = s.gone
    leader = s.leader
    trick = s.trick
    flags = s.flags
    exposed = binding_exposed(s)
    if exposed != t.up:  # the forced fourth card, exposed as the first card is played
        t = t.copy()
        t.up = exposed
        t.down &= ~exposed
    # Leads that legal_mask would answer with the whole hand (no restriction applies)
    # are drawn inline; the rest ask legal_mask.
    hearts_gate = cfg.hearts_rule or (cfg.blood_lock and exposed & ACE_OF_HEARTS != 0)
    tricks: list[Trick] = list(s.tricks)
    capt = list(s.capt)
    table_cards = list(trick_cards(s))
    taken = 0
    for c in table_cards:
        taken |= BIT[c]
    log: Log | None = s.log
    done = PLAYING
    while True:
        count = trick & 7
        seat = (leader + count) % n
        hand = hands[seat] & ~gone
        x ^= (x << 13) & M32
        x ^= x >> 17
        x ^= (x << 5) & M32
        if trick:
            # The common case inline: a follower with cards of the led suit and no
            # exposed card among them plays one of those (as legal_mask would say).
            shift = SHIFTS[trick >> 3]
            part = hand >> shift & 0x1FFF
            if part and not part << shift & exposed:
                k = x % POP13[part]
                while k:
                    part &= part - 1
                    k -= 1
                card = shift + LOW13[part]
            else:
                card = random_card(
                    legal_mask(cfg, hand, trick, flags, exposed, not tricks, opening), x
                )
        else:
            if (
                hand & exposed
                or (opening and not tricks)
                or (hearts_gate and not flags & HEARTS_BROKEN)
            ):
                mask = legal_mask(cfg, hand, trick, flags, exposed, not tricks, opening)
            else:
                mask = hand
            # random_card inline: card number x % k of the k cards, in index order.
            p0 = mask & 0x1FFF
            p1 = mask >> 13 & 0x1FFF
            p2 = mask >> 26 & 0x1FFF
            k = x % (POP13[p0] + POP13[p1] + POP13[p2] + POP13[mask >> 39 & 0x1FFF])
            c0 = POP13[p0]
            if k < c0:
                part = p0
                base = 0
            else:
                k -= c0
                c1 = POP13[p1]
                if k < c1:
                    part = p1
                    base = 13
                else:
                    k -= c1
                    c2 = POP13[p2]
                    if k < c2:
                        part = p2
                        base = 26
                    else:
                        k -= c2
                        part = mask >> 39 & 0x1FFF
                        base = 39
            while k:
                part &= part - 1
                k -= 1
            card = base + LOW13[part]
            trick = (card // 13) << 3
        bit = BIT[card]
        gone |= bit
        taken |= bit
        log = (log, PLAY_ENTRIES[card << 5 | seat << 2])
        table_cards.append(card)
        if 26 <= card < 39:
            flags |= 16
        trick += 1
        if count + 1 < n:
            continue
        # The trick is complete: the highest card of the led suit takes it.
        led = trick >> 3
        winner = (leader + table_cards.index(trick_winner(led, taken))) % n
        capt[winner] |= taken
        tricks.append((leader, winner, tuple(table_cards)))
        table_cards = []
        taken = 0
        flags |= BIT[led]
        leader = winner
        trick = 0
        every_capt = 0
        if points_out:
            for c in capt:
                every_capt |= c
        if deal_over(cfg, gone, every, every_capt):
            done = COMPLETE
        if done == COMPLETE:
            break
    return State(t, gone, tuple(capt), leader, 0, tuple(tricks), flags, done, log)
