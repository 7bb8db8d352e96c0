"""What one seat may know about a deal: :class:`PlayerView`, from :meth:`Round.view`.

A view is built from public facts and the seat's own hand only, so it is safe to
send to that player: as JSON (:meth:`PlayerView.to_dict`, schema ``view`` in
:mod:`gongzhu.protocol`) to a client, or as a fixed-size vector
(:meth:`PlayerView.observation`) and action mask to a learning agent.
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from gongzhu._base.display import svg as _svg
from gongzhu._base.frozen import guard_setstate, refuse_reinit
from gongzhu._base.text import brief as _brief
from gongzhu._codec import encoding as _encoding
from gongzhu._codec import wire as _wire
from gongzhu._codec.view_fields import claim_pending_of as _claim_pending
from gongzhu._codec.view_fields import decode_field as _decode
from gongzhu._codec.view_fields import encode_value as _encode
from gongzhu._codec.view_fields import same_json as _same_json
from gongzhu._core.bits import POINT_CARDS
from gongzhu._core.play import exposure_open as _exposure_open
from gongzhu._core.play import next_to_expose as _next_to_expose
from gongzhu._core.play import respond_reason as _respond_reason
from gongzhu._core.rules import queen_counts as _queen_counts
from gongzhu._core.state import COMPLETE, PLAYING, State, played
from gongzhu.cards import Card, CardSet, Suit, _suit
from gongzhu.cards import unchecked_cardset as _from_mask
from gongzhu.errors import GongzhuError
from gongzhu.phase import Pending, Phase
from gongzhu.rules import RuleSet
from gongzhu.scoring import DealScore, ExposurePreview, exposure_preview, score
from gongzhu.trick import Trick

__all__ = ["Pending", "PlayerView"]

_new: Final = object.__new__
_CARDS: Final = tuple(Card.from_index(i) for i in range(52))


@attrs.frozen
class PlayerView:
    """What one seat may know about a :class:`Round`: its own hand and the public facts.

    It never holds another seat's unplayed cards (except cards exposed face up
    or shown by a claim, which are public).

    >>> from gongzhu import deal
    >>> v = deal(seed=1).view(2)
    >>> v.seat, len(v.hand), v.hand_sizes, v.to_act, v.legal_plays
    (2, 13, (13, 13, 13, 13), 0, CardSet(''))
    """

    def __attrs_pre_init__(self) -> None:
        refuse_reinit(self, "seat", GongzhuError)  # no re-initialising a view (#11 item 9)

    seat: int
    rules: RuleSet = attrs.field(repr=False)
    phase: Phase
    hand: CardSet
    first_dealt: Card | None
    """The first card dealt to this seat (for blind exposure)."""
    to_act: int | None
    leader: int
    dealer: int
    exposures: tuple[CardSet, ...]
    """Each seat's face-up exposed cards."""
    own_face_down: CardSet
    """This seat's face-down declarations."""
    face_down_counts: tuple[int, ...]
    """How many cards each seat declared face down (which ones is hidden)."""
    current_trick: Trick
    tricks: tuple[Trick, ...]
    captured_points: tuple[CardSet, ...]
    """Each seat's captured point cards (they lie face up: 000 §03, 004)."""
    hand_sizes: tuple[int, ...]
    shown: CardSet
    """Unplayed cards shown by a claim."""
    legal_plays: CardSet
    """This seat's legal plays if it is to act, else empty."""
    pending: Pending | None = None
    """What this seat is asked to do now: play, decide on exposure, answer a claim, or
    nothing (``None``). During exposure :attr:`to_act` is the leader, whoever still
    decides; this field says whether *this* seat still owes its decision."""

    @classmethod
    def _of_state(
        cls,
        s: State,
        seat: int,
        current_trick: Trick,
        tricks: tuple[Trick, ...],
        legal_plays: CardSet,
    ) -> PlayerView:
        """The view of the core state ``s`` for ``seat`` (:meth:`Round.view`; trusted input).

        A private named constructor: every value comes from the core state, already
        consistent, so it is built without attrs' keyword handling (the public
        constructor still checks its arguments). ``current_trick``, ``tricks`` and
        ``legal_plays`` are the Round's own (it caches them).
        """
        t = s.table
        n = t.n
        hands = t.hands
        gone = s.gone
        up, down = t.up, t.down
        done = s.done
        if done == COMPLETE:
            phase = Phase.COMPLETE
        elif done != PLAYING:
            phase = Phase.CLAIM
        elif not s.trick and not s.tricks and _exposure_open(s):
            phase = Phase.EXPOSURE
            if not t.cfg.in_turn:  # RULES.md §9.2: only the seat's own choice shows till all decide
                up &= hands[seat]
                down &= hands[seat]
        else:
            phase = Phase.PLAY
        to_act = (s.leader + (s.trick & 7)) % n if done == PLAYING else None
        # Built without attrs' keyword handling: every value below comes from the core
        # state, already consistent (the public constructor still checks its arguments).
        v = _new(cls)
        _v_seat(v, seat)
        _v_rules(v, t.cfg.owner)
        _v_phase(v, phase)
        _v_hand(v, _from_mask(hands[seat] & ~gone))
        dealt = t.dealt[seat]
        _v_first_dealt(v, _CARDS[dealt[0]] if dealt else None)
        _v_to_act(v, to_act)
        _v_leader(v, s.leader)
        _v_dealer(v, t.dealer)
        _v_exposures(v, tuple([_from_mask(up & h) for h in hands]) if up else _NONE_EACH[n])
        if down:
            _v_own_face_down(v, _from_mask(down & hands[seat]))
            _v_face_down_counts(v, tuple([(down & h).bit_count() for h in hands]))
        else:
            _v_own_face_down(v, _EMPTY)
            _v_face_down_counts(v, _ZEROS[n])
        _v_current_trick(v, current_trick)
        _v_tricks(v, tricks)
        _v_captured_points(v, _captured_points(s.capt))
        _v_hand_sizes(v, tuple([(h & ~gone).bit_count() for h in hands]))
        _v_shown(v, _from_mask(t.shown & ~played(s)) if t.shown else _EMPTY)
        _v_legal_plays(v, legal_plays)
        if phase is Phase.PLAY:  # the common case, inline
            _v_pending(v, Pending.PLAY if to_act == seat else None)
        else:
            _v_pending(v, _pending_of(s, seat, phase, to_act))
        return v

    @property
    def exposed(self) -> CardSet:
        """All face-up exposed cards."""
        mask = 0
        for cards in self.exposures:
            mask |= cards.mask
        return _from_mask(mask)

    @property
    def played(self) -> CardSet:
        """Every card played so far (completed tricks and the current one)."""
        mask = 0
        for trick in (*self.tricks, self.current_trick):
            for card in trick.cards:
                mask |= card.mask
        return _from_mask(mask)

    def unseen(self) -> CardSet:
        """Cards this seat has not seen: not in its hand, not played, not exposed, not shown."""
        deck = self.rules.deck.mask
        seen = self.hand.mask | self.played.mask | self.exposed.mask | self.shown.mask
        return _from_mask(deck & ~seen)

    def unseen_in(self, suit: Suit) -> CardSet:
        """Unseen cards of one suit (e.g. to count the spades still out)."""
        return _from_mask(self.unseen().mask & _suit(suit).mask)

    def _repr_html_(self) -> str:
        """The view as HTML, built from the view's own fields only (no hidden card can leak).

        The hand comes first, legal plays underlined; then one row per seat:
        cards left, face-up exposures, captured point cards; then the trick.

        >>> from gongzhu import deal
        >>> html = deal(seed=1).pass_exposure().view(0)._repr_html_()
        >>> html.count("<tr>"), "<u>" in html        # a header and 4 seats; seat 0 leads
        (5, True)
        """
        legal = self.legal_plays
        hand = " ".join(
            f"<u>{c._repr_html_()}</u>" if c in legal else c._repr_html_() for c in self.hand
        )
        rows = []
        for s, size in enumerate(self.hand_sizes):
            who = f"seat {s}" + (" (you)" if s == self.seat else "")
            who += " ▶" if s == self.to_act else ""
            down = self.face_down_counts[s]
            exposed = self.exposures[s]._repr_html_() + (f" +{down} face down" if down else "")
            rows.append(
                f"<tr><td>{who}</td><td>{size}</td><td>{exposed}</td>"
                f"<td>{self.captured_points[s]._repr_html_()}</td></tr>"
            )
        shown = f"<p>shown: {self.shown._repr_html_()}</p>" if self.shown else ""
        trick = self.current_trick._repr_html_() if self.current_trick.cards else ""
        return (
            f'<div class="gongzhu-view"><p>seat {self.seat}, {self.phase.value}: {hand}</p>'
            "<table><tr><th>seat</th><th>cards</th><th>exposed</th><th>points taken</th></tr>"
            f"{''.join(rows)}</table>{shown}{trick}</div>"
        )

    def _repr_svg_(self) -> str | None:
        """The seat's table as a picture (hidden cards as backs), drawn by :mod:`gongzhu.svg`."""
        return _svg(self)

    # -- what a client draws, beyond the fields -------------------------------------------

    @property
    def trick_number(self) -> int:
        """1-based number of the trick in progress (of the last trick once complete)."""
        return len(self.tricks) + (0 if self.phase is Phase.COMPLETE else 1)

    @property
    def known_voids(self) -> tuple[frozenset[Suit], ...]:
        """For each seat, the suits it has shown it holds no more of (it did not follow)."""
        voids: list[set[Suit]] = [set() for _ in self.hand_sizes]
        for trick in (*self.tricks, self.current_trick):
            led = trick.led_suit
            for s, c in zip(trick.seats, trick.cards, strict=True):
                if c.suit is not led and led is not None:
                    voids[s].add(led)
        return tuple(frozenset(v) for v in voids)

    @property
    def exposure_previews(self) -> tuple[ExposurePreview, ...]:
        """While exposure is open: what exposing each exposable card this seat holds would change.

        >>> from gongzhu import deal
        >>> [str(p) for p in deal(seed=3).view(1).exposure_previews]
        ['Transformer ×2 → ×4 (alone +50 → +100)']
        """
        if self.phase is not Phase.EXPOSURE:
            return ()
        taken = self.own_face_down.mask | self.exposures[self.seat].mask
        free = self.hand.mask & self.rules.exposable.mask & ~taken
        return tuple(exposure_preview(c, self.rules) for c in _from_mask(free))

    def deal_score(self) -> DealScore | None:
        """The deal's score if it ended now, when this seat can know it; else ``None``.

        Captured point cards and face-up exposures are public, so the running
        score is too, unless another seat holds face-down declarations (their
        factor is hidden) or blind exposure is played (a view does not say
        which exposure was blind). Once the deal is complete it is the final
        score.

        >>> from gongzhu import RuleSet, deal
        >>> r = deal(RuleSet(exposable=""), seed=4)
        >>> while not r.is_over:
        ...     r = r.play(r.legal_plays[0])
        >>> r.view(0).deal_score().totals == r.score().totals
        True
        """
        rules = self.rules
        if any(n for s, n in enumerate(self.face_down_counts) if s != self.seat):
            return None
        up = self.exposed
        if rules.blind_exposure and (up or self.own_face_down):
            return None
        factors = dict.fromkeys(up, rules.face_up_factor)
        factors.update(dict.fromkeys(self.own_face_down, 2))
        piles = list(self.captured_points)
        queen = None
        if rules.queen_of_diamonds_bonus:
            # Counted by the core, as for Round.score: the tricks the Q♦ taker wins after
            # taking it (the bonus needs the Q♦ in the taker's pile; it is not a point card).
            tricks = self.tricks
            raw = tuple([(t.leader, t.winner or 0, tuple([c.index for c in t.cards]))
                         for t in tricks])  # fmt: skip
            counts = list(_queen_counts(rules.players, raw))
            taker = next((t.winner for t in tricks if _QUEEN_OF_DIAMONDS in t.cards), None)
            if taker is not None:
                piles[taker] = _from_mask(piles[taker].mask | _QUEEN_OF_DIAMONDS.mask)
            elif self.phase is Phase.COMPLETE:
                return None  # swept up by an accepted claim: the view does not say by whom
            queen = counts
        return score(piles, factors, rules, queen_bonus_tricks=queen)

    @property
    def running_totals(self) -> tuple[int, ...] | None:
        """:meth:`deal_score`'s totals (``None`` when this seat cannot know them)."""
        ds = self.deal_score()
        return ds.totals if ds is not None else None

    # -- JSON (the client protocol) -------------------------------------------------------

    def to_dict(self, *, include_rules: bool = True) -> dict[str, Any]:
        """The view as a JSON-safe dict (schema ``view`` in :mod:`gongzhu.protocol`).

        One key per field (cards as codes, tricks as objects, the full rule
        set, ``pending``: what this seat is asked to do), plus what a client
        draws but need not compute: ``trick_number``, ``known_voids``,
        ``exposure_previews`` and ``running_totals``. :meth:`from_dict` reads it
        back to an equal view. ``include_rules=False`` leaves the rule set out
        (about 1.9 KB), for a connection that sent it once: ``from_dict(d,
        rules=...)`` reads such a view.

        >>> from gongzhu import deal
        >>> d = deal(seed=1).view(0).to_dict()
        >>> d["phase"], d["hand"][:3], d["to_act"], d["current_trick"]
        ('exposure', ['8C', 'TC', 'QC'], 0, {'leader': 0, 'cards': [], 'seats': [], 'winner': None})
        >>> PlayerView.from_dict(d) == deal(seed=1).view(0)
        True
        >>> d["pending"], "rules" in deal(seed=1).view(0).to_dict(include_rules=False)
        ('expose', False)
        """
        out = {f.name: _encode(getattr(self, f.name)) for f in _FIELDS}
        if not include_rules:
            del out["rules"]
        out["trick_number"] = self.trick_number
        out["known_voids"] = [sorted(s.name for s in v) for v in self.known_voids]
        out["exposure_previews"] = [
            {
                "card": p.card.code,
                "name": p.name,
                "before": p.before,
                "after": p.after,
                "text": str(p),
            }
            for p in self.exposure_previews
        ]
        totals = self.running_totals
        out["running_totals"] = list(totals) if totals is not None else None
        return out

    @classmethod
    def from_dict(cls, data: Any, *, rules: RuleSet | None = None) -> PlayerView:
        """Read :meth:`to_dict`'s output back, checking it (:class:`~gongzhu.errors.ProtocolError`).

        The computed keys (``trick_number`` …) may be left out; when present they
        must be what the view computes. A view that no deal can have (a card in two
        places, a captured card that scores nothing, hand sizes that do not add up,
        voids that leave the other hands unfillable) is refused too (#22 item 9).
        ``rules`` reads a view written without them (``to_dict(include_rules=False)``);
        ``pending`` may be left out (a view written before it existed).
        """
        d = _wire.obj(data, "", _REQUIRED, _OPTIONAL)
        if "rules" not in d:
            if not isinstance(rules, RuleSet):
                _wire.fail("missing field (or pass rules=)", "rules")
            d = {**d, "rules": rules.to_dict()}
        raw_rules = d["rules"]
        if isinstance(raw_rules, dict):  # the schema: a view states every option
            missing = [name for name in _RULE_OPTIONS if name not in raw_rules]
            if missing:
                _wire.fail("missing option", f"rules.{missing[0]}")
        rules = _wire.rules(raw_rules, "rules")
        n = rules.players
        values = {
            f.name: _decode(f.name, f.type, d[f.name], n)
            for f in _FIELDS
            if f.name != "rules" and f.name in d
        }
        view = cls(rules=rules, **values)
        hand = view.hand
        if not view.legal_plays <= hand:
            _wire.fail("legal plays must be cards in the hand", "legal_plays")
        if hand & view.played:
            _wire.fail(f"{hand & view.played} both in the hand and played", "hand")
        if view.hand_sizes[view.seat] != len(hand):
            _wire.fail("this seat's hand size must be the number of cards in its hand",
                       "hand_sizes")  # fmt: skip
        _check_consistent(view)
        stated = [k for k in _COMPUTED if k in d]
        if stated:  # not read, but not taken on trust either: they must be the view's own
            computed = view.to_dict()
            for key in stated:
                if not _same_json(d[key], computed[key]):
                    _wire.fail(f"does not match the view ({_brief(computed[key])})", key)
        return view

    # -- agents: action ids, masks and observations (docs/agents.rst) ---------------------

    def legal_actions(
        self,
        *,
        exposure_pending: bool | None = None,
        claim_pending: tuple[int, tuple[int, ...]] | None = None,
    ) -> list[int]:
        """This seat's legal action ids, ascending (:mod:`gongzhu.protocol` lists the ids).

        In :attr:`Phase.EXPOSURE` a seat that still has to decide gets the
        exposure ids only (``exposure_pending``; by default: while it has
        exposed nothing). While a claim is pending, pass
        :attr:`Round.claim_pending <gongzhu.Round.claim_pending>` as
        ``claim_pending`` (a view does not say who claimed or who answered;
        without it every seat whose hand is not shown may answer). A claim id,
        when claims are played, may still be refused after a refused claim in
        the same trick (RULES.md §9.7).

        >>> from gongzhu import deal
        >>> deal(seed=3).view(1).legal_actions()        # decline, or expose 10♣
        [52, 53]
        """
        if exposure_pending is None:
            exposure_pending = not (self.exposures[self.seat] or self.own_face_down)
        _wire.boolean(exposure_pending, "exposure_pending")
        if claim_pending is not None:
            claimer, answered = _claim_pending(claim_pending, self.rules.players)
            responder = self.seat != claimer and self.seat not in answered
        else:
            responder = not self.hand <= self.shown
        return _encoding.legal_ids(self, exposure_pending=exposure_pending, responder=responder)

    def action_mask(
        self,
        *,
        exposure_pending: bool | None = None,
        claim_pending: tuple[int, tuple[int, ...]] | None = None,
    ) -> Any:
        """:meth:`legal_actions` as a 0/1 vector of ``protocol.NUM_ACTIONS`` entries.

        An int8 NumPy array when NumPy is installed, else a tuple of ints.
        """
        ids = self.legal_actions(exposure_pending=exposure_pending, claim_pending=claim_pending)
        return _encoding.mask_of(ids)

    def observation(self) -> Any:
        """A fixed-size vector of what this seat knows (layout: ``docs/agents.rst``).

        Seats are relative: position 0 is this seat, 1 the next to play, …. A
        float32 NumPy array when NumPy is installed, else a tuple of floats.
        Its length is ``protocol.observation_size(players)``.
        """
        return _encoding.as_vector(_encoding.observation_values(self))

    def information_state(self) -> Any:
        """:meth:`observation` followed by the whole play history (every trick's cards by
        position, and its leader), for imperfect-information algorithms.
        """
        values = _encoding.observation_values(self)
        values += _encoding.history_values(self)
        return _encoding.as_vector(values)


def _check_consistent(view: PlayerView) -> None:
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


def _check_fillable(view: PlayerView, played: int, played_by: list[int]) -> None:
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
                allowed |= _suit(suit).mask
        if (unseen & allowed).bit_count() < k:
            _wire.fail(f"seat {s}'s voids leave too few cards for its hand", "tricks")


_FIELDS: Final = attrs.fields(PlayerView)
_FIELD_NAMES: Final = tuple(f.name for f in _FIELDS)
_REQUIRED: Final = tuple(n for n in _FIELD_NAMES if n not in ("rules", "pending"))
_RULE_OPTIONS: Final = tuple(f.name for f in attrs.fields(RuleSet))
_COMPUTED: Final = ("trick_number", "known_voids", "exposure_previews", "running_totals")
_OPTIONAL: Final = ("rules", "pending", *_COMPUTED)
_QUEEN_OF_DIAMONDS: Final = Card("QD")


# Nor re-stated: pickle's __setstate__ on a finished view would rewrite it (#11 item 9).
guard_setstate(PlayerView, "seat", GongzhuError)


# Trusted constructors of the public records a Round hands out (the values come from
# the core, consistent by construction): no attrs keyword handling, no re-validation.
_v_seat, _v_rules, _v_phase, _v_hand, _v_first_dealt, _v_to_act, _v_leader, _v_dealer = (
    PlayerView.__dict__[a.name].__set__ for a in attrs.fields(PlayerView)[:8]
)
(
    _v_exposures,
    _v_own_face_down,
    _v_face_down_counts,
    _v_current_trick,
    _v_tricks,
    _v_captured_points,
    _v_hand_sizes,
    _v_shown,
    _v_legal_plays,
    _v_pending,
) = (PlayerView.__dict__[a.name].__set__ for a in attrs.fields(PlayerView)[8:])
assert [a.name for a in attrs.fields(PlayerView)][-1] == "pending"  # the order above
_EMPTY: Final = _from_mask(0)  # immutable: one shared empty set
_NONE_EACH: Final = {n: tuple([_EMPTY] * n) for n in range(1, 9)}
_ZEROS: Final = {n: (0,) * n for n in range(1, 9)}


_CAPTURED_POINTS: dict[int, tuple[tuple[int, ...], tuple[CardSet, ...]]] = {}


def _captured_points(capt: tuple[int, ...]) -> tuple[CardSet, ...]:
    # Successive states share the capture tuple until a trick completes: build the
    # point-card sets once per tuple (keyed by id, the tuple kept alive in the value).
    hit = _CAPTURED_POINTS.get(id(capt))
    if hit is not None and hit[0] is capt:
        return hit[1]
    built = tuple([_from_mask(c & POINT_CARDS) for c in capt])
    if len(_CAPTURED_POINTS) >= 1024:
        _CAPTURED_POINTS.clear()
    _CAPTURED_POINTS[id(capt)] = (capt, built)
    return built


def _pending_of(s: State, seat: int, phase: Phase, to_act: int | None) -> Pending | None:
    """What the core state ``s`` asks of ``seat`` (the rules of the Round's own refusals)."""
    if phase is Phase.PLAY:
        return Pending.PLAY if to_act == seat else None
    if phase is Phase.EXPOSURE:
        t = s.table
        if t.decided >> seat & 1 or (t.cfg.in_turn and _next_to_expose(s) != seat):
            return None
        return Pending.EXPOSE
    if phase is Phase.CLAIM:
        return None if _respond_reason(s, seat) else Pending.RESPOND
    return None
