"""The engine's rules of play, on ints: the state's slots, legal plays, refusal reasons, one play.

Private to :mod:`gongzhu.round`, which wraps these in the immutable
:class:`~gongzhu.Round`: a state is a pair of plain tuples (laid out below) and
every function here reads or builds one. Nothing here raises: refusing an
action with an error is the job of :class:`~gongzhu.Round`.
"""

from __future__ import annotations

from typing import Any, Final

from gongzhu._tables import ACE_BIT, HEARTS, POINT_CARDS, SUIT_MASKS
from gongzhu.cards import Card, Suit
from gongzhu.errors import Reason
from gongzhu.rules import (
    ExposureKind,
    ExposureOrder,
    ExposureRestriction,
    RuleSet,
)


class _Config:
    """Per-rule-set facts the engine reads on every move (built once per deal)."""

    __slots__ = (
        "blood_lock",
        "claims",
        "end_when_points_out",
        "exposable",
        "face_up_factor",
        "force_fourth",
        "hand_size",
        "hearts_rule",
        "in_turn",
        "n",
        "opening_card",
        "point_cards",
        "restriction",
        "rules",
    )

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.n: int = rules.players
        self.hand_size: int = rules.hand_size
        self.restriction: int = {
            ExposureRestriction.NONE: 0,
            ExposureRestriction.FIRST_TRICK_OF_SUIT: 1,
            ExposureRestriction.FIRST_TRICK_OF_DEAL: 2,
        }[rules.exposure_restriction]
        self.hearts_rule: bool = rules.hearts_must_be_broken
        self.blood_lock: bool = rules.hearts_locked_by_exposed_ace
        self.end_when_points_out: bool = rules.end_when_points_out
        self.point_cards: int = POINT_CARDS & rules.deck.mask
        self.claims: bool = rules.claims
        self.exposable: int = rules.exposable.mask
        self.in_turn: bool = rules.exposure_order is ExposureOrder.IN_TURN
        self.face_up_factor: int = 4 if rules.exposure_kind is ExposureKind.FACE_DOWN_UP else 2
        self.force_fourth: bool = rules.three_exposed_force_fourth
        self.opening_card: int = rules.opening_card.mask


_CONFIGS: dict[int, tuple[RuleSet, _Config]] = {}


def _config(rules: RuleSet) -> _Config:
    # Keyed by id with the rule set kept alive, so no RuleSet hash is computed per deal.
    hit = _CONFIGS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    cfg = _Config(rules)
    if len(_CONFIGS) > 256:
        _CONFIGS.clear()
    _CONFIGS[id(rules)] = (rules, cfg)
    return cfg


# The state is two tuples. The per-card one is rebuilt by every play; its first
# slot is the shared one, which holds what changes rarely (only exposures and
# claims replace it), so a play copies a few slots and successive states share
# the rest. Hands are not stored per state: a seat's hand is its dealt cards
# minus ``gone`` (every card no longer in a hand). Slots are module constants
# so the hot paths index the tuples directly.
#
# Per card: the shared tuple, gone, captures per seat, leader, current trick
# (``led suit << 3 | cards played``, 0 before the lead: the cards themselves are
# the last plays in the log), completed tricks ((leader, cards, winner)), flags (bit s
# for each suit led so far, _HEARTS_BROKEN once a heart is played), done and the
# history log. ``done`` is False while cards may be played, True once the deal
# is over, and the pending claim ``(claimer, accepted seats mask)`` meanwhile,
# so one truth test tells whether a card may be played.
_SH, _GONE, _CAPT, _LEADER, _TRICK, _TRICKS, _FLAGS, _DONE, _LOG = range(9)
# Shared: the config, the number of seats, each seat's dealt mask, their union,
# dealt order, dealer, opening flag, seed, then exposed (face up), face-down,
# blind, seats that declared (mask), and cards shown by a claim.
_CFG, _N, _INIT, _ALL, _DEALT, _DEALER, _OPENING, _SEED = range(8)
_EXPOSED, _FACEDOWN, _BLIND, _DECLARED, _SHOWN = range(8, 13)
_HEARTS_BROKEN: Final = 16
# The log entry of a play is ``seat << 6 | index``; most are above CPython's
# small-int cache, so they come from this table rather than one new int per state.
_ENTRIES: Final = tuple(range(8 << 6))


def _played(s: tuple[Any, ...]) -> int:
    played = 0
    for _lead, cards, _winner in s[_TRICKS]:
        for i in cards:
            played |= 1 << i
    for i in _trick_cards(s):
        played |= 1 << i
    return played


def _trick_cards(s: tuple[Any, ...]) -> tuple[int, ...]:
    """The cards of the trick in progress, in play order: the last plays in the log."""
    count = s[_TRICK] & 7
    cards: list[int] = []
    log = s[_LOG]
    while len(cards) < count:
        log, entry = log
        if entry.__class__ is int:  # a play (claims and responses are tuples)
            cards.append(entry & 63)
    cards.reverse()
    return tuple(cards)


# -- the rules of play, on ints ------------------------------------------------------


def _legal(s: tuple[Any, ...]) -> int:
    """The legal-play mask of the seat to act (the state is not complete)."""
    sh = s[_SH]
    cfg: _Config = sh[_CFG]
    trick = s[_TRICK]
    seat = (s[_LEADER] + (trick & 7)) % cfg.n
    hand: int = sh[_INIT][seat] & ~s[_GONE]
    exposed = sh[_EXPOSED]
    flags = s[_FLAGS]
    if not trick and not s[_TRICKS] and cfg.force_fourth:
        # The forced fourth card is exposed as the window closes, before the first lead.
        exposed = _force_fourth(sh, exposed)
    if trick:
        led = trick >> 3
        follow = hand & SUIT_MASKS[led]
        if not follow:
            legal = hand
        else:
            legal = follow
            if cfg.restriction == 1 and exposed & follow and not flags >> led & 1:
                free = follow & ~exposed
                if free:
                    legal = free
    else:
        if sh[_OPENING] and not s[_TRICKS]:
            opening = cfg.opening_card
            if hand & opening:
                return opening
        legal = hand
        if (cfg.hearts_rule or (cfg.blood_lock and exposed & ACE_BIT)) and not (
            flags & _HEARTS_BROKEN
        ):
            other = legal & ~HEARTS
            if other:
                legal = other
        if cfg.restriction == 1 and exposed & hand:
            for suit in range(4):
                held = exposed & hand & SUIT_MASKS[suit]
                if held and not flags >> suit & 1 and hand & SUIT_MASKS[suit] & ~held:
                    legal &= ~held
            if not legal:
                legal = hand
    if cfg.restriction == 2 and not s[_TRICKS] and legal & exposed:
        free = legal & ~exposed
        if free:
            legal = free
    return legal


def _reason(s: tuple[Any, ...], card: Card, seat: int | None) -> Reason | None:
    """Why ``card`` may not be played; mirrors :func:`_legal` step by step."""
    sh = s[_SH]
    cfg: _Config = sh[_CFG]
    if seat is not None and (
        not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < cfg.n
    ):
        return Reason.NO_SUCH_SEAT
    if s[_DONE]:
        return Reason.WRONG_PHASE
    trick = s[_TRICK]
    acting = (s[_LEADER] + (trick & 7)) % cfg.n
    if seat is not None and seat != acting:
        return Reason.NOT_YOUR_TURN
    hand: int = sh[_INIT][acting] & ~s[_GONE]
    bit = card.mask
    if not hand & bit:
        return Reason.NOT_IN_HAND
    if _legal(s) & bit:
        return None
    exposed = sh[_EXPOSED]
    if not trick and not s[_TRICKS] and cfg.force_fourth:
        exposed = _force_fourth(sh, exposed)
    if trick:
        if hand & SUIT_MASKS[trick >> 3] and card.index // 13 != trick >> 3:
            return Reason.MUST_FOLLOW_SUIT
        return Reason.EXPOSED_CARD_HELD_BACK
    if sh[_OPENING] and not s[_TRICKS] and hand & cfg.opening_card:
        return Reason.MUST_LEAD_OPENING_CARD
    if bit & HEARTS and not s[_FLAGS] & _HEARTS_BROKEN and hand & ~HEARTS:
        if cfg.hearts_rule:
            return Reason.HEARTS_NOT_BROKEN
        if cfg.blood_lock and exposed & ACE_BIT:
            return Reason.HEARTS_LOCKED
    return Reason.EXPOSED_CARD_HELD_BACK


def _detail(s: tuple[Any, ...], reason: Reason, card: Card) -> str:
    if reason is Reason.MUST_FOLLOW_SUIT:
        return f"{Suit(s[_TRICK] >> 3).name.lower()} were led"
    if reason is Reason.MUST_LEAD_OPENING_CARD:
        return f"lead {s[_SH][_CFG].rules.opening_card}"
    if reason is Reason.EXPOSED_CARD_HELD_BACK:
        return f"{card} was exposed; play another {card.suit.name.lower()[:-1]} first"
    return ""


def _advance(s: tuple[Any, ...], index: int) -> tuple[Any, ...]:
    """The state after the seat to act plays card ``index`` (already checked legal)."""
    # One unpacking instead of a subscript per field: this runs for every card played.
    sh, gone, capt, leader, trick, tricks, flags, _done, log = s
    n = sh[_N]
    seat = (leader + (trick & 7)) % n
    gone |= 1 << index
    if 26 <= index < 39:  # a heart (HEARTS is bits 26-38)
        flags |= _HEARTS_BROKEN
    if not trick:
        trick = (index // 13) << 3
        if not tricks and sh[_CFG].force_fourth:
            exposed = _force_fourth(sh, sh[_EXPOSED])
            if exposed != sh[_EXPOSED]:
                sh = (*sh[:_EXPOSED], exposed, *sh[_EXPOSED + 1 :])
    trick += 1
    entry = _ENTRIES[seat << 6 | index]
    if trick & 7 < n:
        return (sh, gone, capt, leader, trick, tricks, flags, False, (log, entry))
    # The trick is complete: its other cards are the previous plays in the log.
    led = trick >> 3
    cards = [index]
    taken = 1 << index
    top = index if index // 13 == led else -1
    winner = seat
    node = log
    while len(cards) < n:
        node, previous = node
        if previous.__class__ is int:  # a play (claims and responses are tuples)
            card = previous & 63
            cards.append(card)
            taken |= 1 << card
            if card > top and card // 13 == led:
                top, winner = card, previous >> 6
    cards.reverse()
    capt = list(capt)
    capt[winner] |= taken
    done = gone == sh[_ALL]
    if not done:
        cfg: _Config = sh[_CFG]
        if cfg.end_when_points_out:
            all_capt = 0
            for c in capt:
                all_capt |= c
            done = all_capt & cfg.point_cards == cfg.point_cards
    return (
        sh, gone, tuple(capt), winner, 0, (*tricks, (leader, tuple(cards), winner)),
        flags | 1 << led, done, (log, entry),
    )  # fmt: skip


def _force_fourth(sh: tuple[Any, ...], exposed: int) -> int:
    # "Three exposed force the fourth" (Chinese app rules): the library applies it
    # when the window closes, i.e. with the first card played.
    cfg: _Config = sh[_CFG]
    declared = (exposed | sh[_FACEDOWN]) & cfg.exposable
    if declared.bit_count() == 3:
        exposed |= cfg.exposable & ~declared
    return exposed
