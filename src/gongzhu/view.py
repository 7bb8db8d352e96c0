"""What one seat may know about a deal: :class:`PlayerView`, from :meth:`Round.view`.

A view is built from public facts and the seat's own hand only, so it is safe to
send to that player: as JSON (:meth:`PlayerView.to_dict`, schema ``view`` in
:mod:`gongzhu.protocol`) to a client, or as a fixed-size vector
(:meth:`PlayerView.observation`) and action mask to a learning agent.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, Final

import attrs

from gongzhu._base.display import svg as _svg
from gongzhu._base.frozen import guard_setstate, refuse_reinit
from gongzhu._base.text import brief as _brief
from gongzhu._codec import encoding as _encoding
from gongzhu._codec import wire as _wire
from gongzhu._codec.view_checks import check_consistent as _check_consistent
from gongzhu._codec.view_fields import claim_pending_of as _claim_pending
from gongzhu._codec.view_fields import decode_field as _decode
from gongzhu._codec.view_fields import encode_value as _encode
from gongzhu._codec.view_fields import same_json as _same_json
from gongzhu._core import infoset as _infoset
from gongzhu._core.infoset import Info
from gongzhu._core.infoset import info_of as _info_of
from gongzhu._core.rules import queen_counts as _queen_counts
from gongzhu._core.state import State
from gongzhu.cards import Card, CardSet, Suit
from gongzhu.cards import unchecked_cardset as _from_mask
from gongzhu.errors import GongzhuError
from gongzhu.phase import Pending, Phase
from gongzhu.rules import RuleSet
from gongzhu.scoring import DealScore, ExposurePreview, exposure_preview, score
from gongzhu.trick import Trick, trusted_trick, trusted_tricks

__all__ = ["Pending", "PlayerView"]

_new: Final = object.__new__
_CARDS: Final = tuple(Card.from_index(i) for i in range(52))


@attrs.frozen
class PlayerView:
    """What one seat may know about a :class:`Round`: its own hand and the public facts.

    It never holds another seat's unplayed cards (except cards exposed face up
    or shown by a claim, which are public). :attr:`info` holds the same facts as
    the engine's ints, for bots that compute on card masks.

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
    # Who decided and how many actions were taken say where the view stands in the deal's
    # stream of views (a client's freshness check), not what the seat decides from: they
    # are left out of == and hash, so the view a bot rebuilds from a sampled world (which
    # cannot know the sealed choices of the others) still equals the view it sampled from.
    exposure_decided: tuple[int, ...] = attrs.field(default=(), eq=False)
    """The seats that have made their exposure decision, in seat order (public even while
    the choices are sealed: :attr:`Round.exposure_decided <gongzhu.Round.exposure_decided>`)."""
    history_length: int = attrs.field(default=0, eq=False)
    """How many actions the deal has seen (``len(Round.history)``): it grows with every
    action, so of two views of one deal the one with the larger number is the newer, and
    a view with the number a client already has tells it nothing new."""

    @classmethod
    def from_engine_state(cls, state: State, seat: int) -> PlayerView:
        """What ``seat`` sees of an engine core state (:attr:`Round.engine_state
        <gongzhu.Round.engine_state>`), or the spectator's view for a seat of ``-1``; as
        :meth:`Round.view <gongzhu.Round.view>`, without building the Round. Nothing is
        checked: give it only states that came from the engine."""
        return cls._of_info(_info_of(state, seat))

    @classmethod
    def _of_info(cls, info: Info) -> PlayerView:
        """The view of what a seat knows (a private named constructor; trusted input).

        Every value comes from the core, already consistent, so it is built without
        attrs' keyword handling (the public constructor still checks its arguments).
        The cards and tricks are built at once: what does not change between
        successive states (the completed tricks, the captured points, no exposure) is
        shared, not rebuilt. (Built on first read instead, through ``__getattr__``, a
        view that is read whole costs 2.5 times as much: each first read of an unset
        slot raises and catches an AttributeError.)
        """
        n = info.n
        v = _new(cls)
        _v_seat(v, info.seat)
        _v_rules(v, info.cfg.owner)
        _v_phase(v, _PHASES[info.phase])
        _v_hand(v, _from_mask(info.hand))
        first = info.first
        _v_first_dealt(v, _CARDS[first] if first >= 0 else None)
        to_act = info.to_act
        _v_to_act(v, to_act if to_act >= 0 else None)
        _v_leader(v, info.leader)
        _v_dealer(v, info.dealer)
        _v_exposures(v, tuple([_from_mask(m) for m in info.up]) if info.exposed else _NONE_EACH[n])
        _v_own_face_down(v, _from_mask(info.own_down) if info.own_down else _EMPTY)
        _v_face_down_counts(v, info.down_counts)
        _v_current_trick(v, trusted_trick(info.leader, info.trick, None, n))
        _v_tricks(v, trusted_tricks(info.tricks, n))
        _v_captured_points(v, _captured_points(info.captured))
        _v_hand_sizes(v, info.sizes)
        _v_shown(v, _from_mask(info.shown) if info.shown else _EMPTY)
        _v_legal_plays(v, _from_mask(info.legal) if info.legal else _EMPTY)
        _v_pending(v, _ASKED[info.asked])
        _v_exposure_decided(v, _SEATS_OF[info.decided])
        _v_history_length(v, info.moves)
        _v_info(v, info)
        return v

    @property
    def info(self) -> Info:
        """What this seat knows, as the engine's ints: the bots' input (an :class:`Info
        <gongzhu._core.infoset.Info>`: the hand and each seat's exposures as 52-bit masks,
        the tricks as card indexes, each seat's played cards and known voids, …).

        The same facts as the view's fields, without a :class:`~gongzhu.CardSet` or a
        :class:`~gongzhu.Trick`: a bot that computes on masks reads them here instead of
        turning the view's cards back into ints. Its layout is the engine's, like
        :attr:`RuleSet.engine <gongzhu.RuleSet.engine>`: fields may change between
        minor versions.

        >>> from gongzhu import deal
        >>> info = deal(seed=1).pass_exposure().view(0).info
        >>> info.seat, info.hand == deal(seed=1).hands[0].mask, info.legal.bit_count()
        (0, True, 13)
        """
        return self._info

    @cached_property
    def _info(self) -> Info:
        # A slot (attrs makes a cached property one): set by _of_info, or read from the
        # fields on first use for a view built by the public constructor.
        return _info_of_view(self)

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
        return self.unseen().of_suit(suit)

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
        return tuple([_SUIT_SETS[m] for m in self.info.voids])

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
        return tuple(exposure_preview(c, rules=self.rules) for c in _from_mask(free))

    def deal_score(self) -> DealScore | None:
        """The deal's score if it ended now, when this seat can know it; else ``None``.

        Captured point cards and face-up exposures are public, so the running
        score is too, unless another seat holds face-down declarations (their
        factor is hidden) or blind exposure is played (a view does not say
        which exposure was blind). Once the deal is complete it is the final
        score.

        >>> from gongzhu import RuleSet, deal
        >>> r = deal(rules=RuleSet(exposable=""), seed=4)
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
        return score(piles, factors, rules=rules, queen_bonus_tricks=queen)

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
        if self.seat < 0:
            out["seat"] = None  # a spectator's view (Round.view(None)): no seat
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
    def from_dict(cls, data: Any, *, rules: RuleSet | str | None = None) -> PlayerView:
        """Read :meth:`to_dict`'s output back, checking it (:class:`~gongzhu.errors.ProtocolError`).

        The computed keys (``trick_number`` …) may be left out; when present they
        must be what the view computes. A view that no deal can have (a card in two
        places, a captured card that scores nothing, hand sizes that do not add up,
        voids that leave the other hands unfillable) is refused too (#22 item 9).
        ``rules`` (a :class:`~gongzhu.RuleSet` or a preset's name) reads a view written
        without them (``to_dict(include_rules=False)``);
        ``pending``, ``exposure_decided`` and ``history_length`` may be left out (a view
        written before they existed).
        """
        d = _wire.obj(data, "", _REQUIRED, _OPTIONAL)
        if "rules" not in d:
            if isinstance(rules, str):
                try:
                    rules = RuleSet.preset(rules)
                except GongzhuError as exc:  # an unknown preset (the message lists them)
                    _wire.fail(str(exc), "rules")
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
        _check_consistent(view)  # a view no deal can have is refused (#22 item 9)
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
        the same trick (specification §9.7).

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


_FIELDS: Final = attrs.fields(PlayerView)
_FIELD_NAMES: Final = tuple(f.name for f in _FIELDS)
# Views written before a field existed leave it out: pending, who decided, the history length.
_LATER_FIELDS: Final = ("pending", "exposure_decided", "history_length")
_REQUIRED: Final = tuple(n for n in _FIELD_NAMES if n not in ("rules", *_LATER_FIELDS))
_RULE_OPTIONS: Final = tuple(f.name for f in attrs.fields(RuleSet))
_COMPUTED: Final = ("trick_number", "known_voids", "exposure_previews", "running_totals")
_OPTIONAL: Final = ("rules", *_LATER_FIELDS, *_COMPUTED)
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
    _v_exposure_decided,
    _v_history_length,
) = (PlayerView.__dict__[a.name].__set__ for a in attrs.fields(PlayerView)[8:])
assert [a.name for a in attrs.fields(PlayerView)][-1] == "history_length"  # the order above
_v_info = PlayerView.__dict__["_info"].__set__  # attrs made the cached property a slot
_EMPTY: Final = _from_mask(0)  # immutable: one shared empty set
_NONE_EACH: Final = {n: tuple([_EMPTY] * n) for n in range(1, 9)}
_PHASES: Final = {
    _infoset.EXPOSURE: Phase.EXPOSURE,
    _infoset.PLAY: Phase.PLAY,
    _infoset.CLAIM: Phase.CLAIM,
    _infoset.DONE: Phase.COMPLETE,
}
_PHASE_CODES: Final = {phase: code for code, phase in _PHASES.items()}
_ASKED: Final = {
    _infoset.ASK_NOTHING: None,
    _infoset.ASK_PLAY: Pending.PLAY,
    _infoset.ASK_EXPOSE: Pending.EXPOSE,
    _infoset.ASK_RESPOND: Pending.RESPOND,
}
_ASK_CODES: Final = {pending: code for code, pending in _ASKED.items()}

# The seats of each seat mask (at most 5 seats: 32 masks).
_SEATS_OF: Final = tuple(tuple(s for s in range(5) if mask >> s & 1) for mask in range(32))
_SUIT_SETS: Final = tuple(frozenset(u for u in Suit if m >> u & 1) for m in range(16))


_CAPTURED_POINTS: dict[int, tuple[tuple[int, ...], tuple[CardSet, ...]]] = {}


def _captured_points(capt: tuple[int, ...]) -> tuple[CardSet, ...]:
    # The core shares one captured tuple between the views of successive states until a
    # trick completes: build the point-card sets once per tuple (keyed by id, the tuple
    # kept alive in the value).
    hit = _CAPTURED_POINTS.get(id(capt))
    if hit is not None and hit[0] is capt:
        return hit[1]
    built = tuple([_from_mask(c) for c in capt])
    if len(_CAPTURED_POINTS) >= 1024:
        _CAPTURED_POINTS.clear()
    _CAPTURED_POINTS[id(capt)] = (capt, built)
    return built


def _raw_trick(t: Trick) -> tuple[int, int, tuple[int, ...]]:
    return (t.leader, t.winner if t.winner is not None else 0, tuple([c.index for c in t.cards]))


def _info_of_view(view: PlayerView) -> Info:
    """The :class:`Info` of a view built by the public constructor (or :meth:`from_dict`)."""
    cur = view.current_trick
    down_counts = view.face_down_counts
    exposed = 0
    for cards in view.exposures:
        exposed |= cards.mask
    to_act = view.to_act
    return Info(
        view.rules.engine,
        view.seat,
        _PHASE_CODES[view.phase],
        _ASK_CODES[view.pending],
        view.hand.mask,
        view.first_dealt.index if view.first_dealt is not None else -1,
        to_act if to_act is not None else -1,
        cur.leader,
        view.dealer,
        tuple([cards.mask for cards in view.exposures]),
        exposed,
        view.own_face_down.mask,
        down_counts,
        tuple([c.index for c in cur.cards]),
        tuple([_raw_trick(t) for t in view.tricks]),
        tuple([cards.mask for cards in view.captured_points]),
        view.hand_sizes,
        view.shown.mask,
        view.legal_plays.mask,
        view.played.mask,
        sum(1 << seat for seat in set(view.exposure_decided)),
        view.history_length,
    )
