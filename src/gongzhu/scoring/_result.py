"""The result of scoring one deal: :class:`DealScore` and each seat's :class:`PlayerScore`,
built from the engine core's integer totals and lines.

Part of :mod:`gongzhu.scoring` (import the names from there).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from functools import cached_property
from html import escape as _esc
from itertools import islice
from typing import TYPE_CHECKING, Any, Final

import attrs

from gongzhu._base.display import svg as _svg
from gongzhu._base.frozen import FrozenMap, adopt_map, guard_setstate, refuse_reinit
from gongzhu._base.text import brief
from gongzhu._base.totals import running_total as _running_total
from gongzhu._base.totals import running_totals as _running_totals
from gongzhu._core.config import Config
from gongzhu._core.play import score_of as _core_score_of
from gongzhu._core.play import totals as _core_totals
from gongzhu._core.rules import card_factor as _card_factor
from gongzhu._core.scoring import first_bad_mask as _bad_masks
from gongzhu._core.scoring import score_masks as _score_masks
from gongzhu._core.state import State
from gongzhu.cards import ACE_OF_HEARTS, PIG, SHEEP, TRANSFORMER, Card, CardSet, unchecked_cardset
from gongzhu.errors import DealError, DealTypeError
from gongzhu.rules import RuleSet
from gongzhu.scoring._input import (
    _SCORE_KEYS,
    _as_cardset,
    _check_deal_score,
    _frozen_factors,
    _same,
    _score_field,
    _score_inputs,
    exposure_factors,
)

__all__ = ["DealScore", "PlayerScore", "TransformerEffect"]

_NO_EXPOSURE: Final[FrozenMap[Card, int]] = FrozenMap()


class TransformerEffect(enum.Enum):
    """What the 10♣ did to a player's deal (line ⑤ of the sheet).

    >>> from gongzhu import score
    >>> [p.transformer.name for p in score(["TC", "QS"]).players]   # seeds/000 §04
    ['LONE_BONUS', 'NONE']
    >>> score("TC QS")[0].transformer.name, score("TC QS")[0].multiplier
    ('MULTIPLIER', 2)
    """

    NONE = "none"
    """The player did not take 10♣."""
    LONE_BONUS = "lone bonus"
    """10♣ and no other point card: +50 (+100 exposed)."""
    MULTIPLIER = "multiplier"
    """10♣ with other point cards: the base × 2 (× 4 exposed); see ``multiplier``."""


@attrs.frozen
class PlayerScore:
    """One seat's score sheet for one deal (specification §3, the lines of seeds/001).

    ``hearts``, ``pig`` and ``sheep`` are lines ①–③ (exposure included),
    ``base`` is ④, ``transformer``/``multiplier`` is ⑤, ``bonus`` the Q♦
    trick bonus (0 unless that option is on) and ``total`` ⑥.

    >>> from gongzhu import score
    >>> p = score("10C QS 7H")[0]            # seeds/000 §07: 2 × (−100 − 10)
    >>> p.hearts, p.pig, p.sheep, p.base, p.transformer_line, p.total
    (-10, -100, 0, -110, '×2', -220)
    """

    seat: int
    cards: CardSet
    """The seat's captured cards (``Q♠ in cards`` says whether this seat took the pig)."""
    hearts: int
    pig: int
    sheep: int
    base: int
    transformer: TransformerEffect
    multiplier: int
    """1 unless ``transformer`` is MULTIPLIER: then 2, 4, 8 …"""
    bonus: int
    total: int
    all_hearts: bool
    """The seat took all 13 hearts (small slam, 全红)."""
    grand_slam: bool
    """The seat took every grand-slam card (满贯)."""
    lone_transformer: bool
    """The seat took 10♣ and no other point card."""
    fixed: bool
    """The deal total is the rule set's fixed grand-slam value."""

    def __attrs_pre_init__(self) -> None:
        refuse_reinit(self, "seat", DealError)

    @property
    def transformer_line(self) -> str:
        """Line ⑤ as text: ``'none'``, ``'+50'`` (lone bonus) or ``'×2'``/``'×4'``…"""
        if self.transformer is TransformerEffect.MULTIPLIER:
            return f"×{self.multiplier}"
        if self.transformer is TransformerEffect.LONE_BONUS:
            return f"{self.total - self.bonus:+d}" if not self.fixed else "lone"
        return "none"

    def lines(self, running_before: int = 0) -> list[tuple[str, str]]:
        """The sheet's lines as (label, value) pairs; ``running_before`` feeds line ⑦."""
        running_before = _running_total(running_before)
        rows = [
            ("① hearts", str(self.hearts)),
            ("② pig", str(self.pig)),
            ("③ sheep", str(self.sheep)),
            ("④ base", str(self.base)),
            ("⑤ transformer", self.transformer_line),
        ]
        if self.bonus:
            rows.append(("Q♦ bonus", f"{self.bonus:+d}"))
        deal = str(self.total) + (" (grand slam, fixed)" if self.fixed else "")
        rows.append(("⑥ deal", deal))
        rows.append(("⑦ total", str(running_before + self.total)))
        return rows

    def sheet(self, running_before: int = 0) -> str:
        """The 7-line score sheet as text."""
        head = f"seat {self.seat}: {self.cards or '-'}"
        body = [f"  {label:15}{value:>6}" for label, value in self.lines(running_before)]
        return "\n".join([head, *body])

    def _repr_html_(self) -> str:
        """The sheet as an HTML table (Jupyter shows it instead of the repr).

        >>> from gongzhu import score
        >>> "<td>-840</td>" in score("10C QS 7H", exposed="QS TC")[0]._repr_html_()
        True
        """
        rows = "".join(
            f"<tr><th>{_esc(label)}</th><td>{_esc(value)}</td></tr>"
            for label, value in self.lines()
        )
        return (
            f'<table class="gongzhu-sheet"><caption>seat {self.seat}: '
            f"{self.cards._repr_html_()}</caption>{rows}</table>"
        )

    def to_dict(self) -> dict[str, Any]:
        """The sheet as a JSON-safe dict (part of schema ``score`` in :mod:`gongzhu.protocol`).

        >>> from gongzhu import score
        >>> d = score("10C QS 7H")[0].to_dict()
        >>> d["cards"], d["transformer"], d["multiplier"], d["total"]
        (['TC', '7H', 'QS'], 'MULTIPLIER', 2, -220)
        """
        return {
            "seat": self.seat,
            "cards": [c.code for c in self.cards],
            "hearts": self.hearts,
            "pig": self.pig,
            "sheep": self.sheep,
            "base": self.base,
            "transformer": self.transformer.name,
            "multiplier": self.multiplier,
            "bonus": self.bonus,
            "total": self.total,
            "all_hearts": self.all_hearts,
            "grand_slam": self.grand_slam,
            "lone_transformer": self.lone_transformer,
            "fixed": self.fixed,
        }


class _Deferred:
    """A slot outside DealScore's fields: the finished deal whose score
    :meth:`Round.score <gongzhu.Round.score>` has not built yet.

    A search scores thousands of finished deals and reads only ``totals``:
    the capture piles (four ``CardSet``), the exposure map, the sheets' lines
    and the deal's seats were most of ``Round.score()``. Such a DealScore holds
    ``totals`` and ``rules``, and the core state here; its other fields are
    unset until the first read of any of them (``__getattr__``, which Python
    calls for an unset slot) builds them all from the state. Equality,
    hashing, ``repr`` and pickling read the fields, so they see the same
    object as one built at once.
    """

    __slots__ = ("_pending",)


_DEFERRED_FIELDS: Final = frozenset(
    ("captures", "exposed", "all_hearts_seat", "grand_slam_seat", "pig_taker", "_lines")
)


@attrs.frozen
class DealScore(_Deferred):
    """The result of :func:`score`: every seat's :class:`PlayerScore` and the deal's facts.

    ``totals`` is cheap (ints computed directly); the per-seat sheets are built
    on first access.

    >>> from gongzhu import score
    >>> all_hearts = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
    >>> ds = score([all_hearts + " QS", "JD"])    # seeds/002 case 4: 200 + 100
    >>> ds.totals, ds.all_hearts_seat, ds.pig_taker, ds[1].sheep
    ((300, 100), 0, 0, 100)
    """

    totals: tuple[int, ...]
    """Each seat's deal score, in seat order."""
    rules: RuleSet = attrs.field(repr=False)
    captures: tuple[CardSet, ...] = attrs.field(repr=False)
    exposed: Mapping[Card, int] = attrs.field(repr=False, hash=False, converter=_frozen_factors)
    """Exposed card → exposure factor (2 for an ordinary exposure); read-only."""
    all_hearts_seat: int | None
    """The seat that took all 13 hearts, if any."""
    grand_slam_seat: int | None
    """The seat that made a grand slam, if any."""
    pig_taker: int | None
    """The seat that took Q♠ in this deal (the deal's pig; it leads the next deal
    under most rules), or None if nobody captured it."""
    _lines: tuple[tuple[int, ...], ...] = attrs.field(repr=False, alias="lines")

    def __attrs_pre_init__(self) -> None:
        refuse_reinit(self, "totals", DealError)

    def __attrs_post_init__(self) -> None:
        # Only the public constructor gets here (score() builds its results
        # directly): check what a caller handed in, so a Match never adds a
        # text or NaN total or a seat that does not exist.
        _check_deal_score(
            self.rules,
            self.totals,
            self.captures,
            self.exposed,
            {
                "all_hearts_seat": self.all_hearts_seat,
                "grand_slam_seat": self.grand_slam_seat,
                "pig_taker": self.pig_taker,
            },
            self._lines,
        )

    if not TYPE_CHECKING:  # every field stays typed for mypy

        def __getattr__(self, name: str) -> Any:
            # Only an unset slot gets here: the fields Round.score deferred (see _Deferred).
            if name in _DEFERRED_FIELDS:
                try:
                    pending = object.__getattribute__(self, "_pending")
                except AttributeError:
                    pending = None
                if pending is not None:
                    _fill(self, pending)
                    return object.__getattribute__(self, name)
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @cached_property
    def players(self) -> tuple[PlayerScore, ...]:
        """Each seat's :class:`PlayerScore`."""
        return tuple(self._player(seat) for seat in range(len(self.totals)))

    def _player(self, seat: int) -> PlayerScore:
        h, p, s, b, kind, mult, bonus, total, flags = self._lines[seat]
        return PlayerScore(
            seat=seat,
            cards=self.captures[seat],
            hearts=h,
            pig=p,
            sheep=s,
            base=b,
            transformer=_KINDS[kind],
            multiplier=mult,
            bonus=bonus,
            total=total,
            all_hearts=bool(flags & 1),
            grand_slam=bool(flags & 2),
            lone_transformer=bool(flags & 4),
            fixed=bool(flags & 8),
        )

    def __getitem__(self, seat: int) -> PlayerScore:
        return self.players[seat]

    def __len__(self) -> int:
        return len(self.totals)

    @property
    def team_totals(self) -> tuple[int, ...]:
        """Each team's deal score, one per team of ``rules.teams``.

        With partnerships team 0 is seats 0 and 2, team 1 seats 1 and 3;
        without them every player is a team of one, so this equals ``totals``
        (never None: the same code serves both).

        >>> from gongzhu import score, RuleSet
        >>> score(["QS", "JD", "AH", "TC"], rules=RuleSet(partnerships=True)).team_totals
        (-150, 150)
        >>> score(["QS", "JD"]).team_totals
        (-100, 100)
        """
        t = self.totals
        if self.rules.partnerships and len(t) == 4:
            return (t[0] + t[2], t[1] + t[3])
        return t

    def sheet(self, running_before: Sequence[int] | None = None) -> str:
        """Every seat's sheet, one after the other."""
        before = _running_totals(running_before, len(self.totals))
        return "\n".join(p.sheet(before[p.seat]) for p in self.players)

    def _repr_html_(self) -> str:
        """Every seat's sheet side by side as one HTML table (one column per seat).

        >>> from gongzhu import score
        >>> html = score(["10C QS 7H", "AC JD"])._repr_html_()
        >>> html.count("<th>seat "), "<td>-220</td>" in html
        (2, True)
        """
        players = self.players
        columns = [dict(p.lines()) for p in players]
        labels = [label for label, _ in players[0].lines() if label != "⑦ total"]
        if any(p.bonus for p in players) and "Q♦ bonus" not in labels:
            labels.insert(labels.index("⑥ deal"), "Q♦ bonus")
        head = "".join(f"<th>seat {p.seat}</th>" for p in players)
        cards = "".join(f"<td>{p.cards._repr_html_()}</td>" for p in players)
        body = "".join(
            f"<tr><th>{_esc(label)}</th>"
            + "".join(f"<td>{_esc(col.get(label, ''))}</td>" for col in columns)
            + "</tr>"
            for label in labels
        )
        return (
            f'<table class="gongzhu-sheet"><tr><th></th>{head}</tr>'
            f"<tr><th>cards</th>{cards}</tr>{body}</table>"
        )

    def to_dict(self) -> dict[str, Any]:
        """The score as a JSON-safe dict (schema ``score`` in :mod:`gongzhu.protocol`).

        What it was scored from (``rules`` in full, ``captures``, ``exposed``
        card → factor, ``queen_bonus_tricks``), the deal's facts and every
        seat's sheet (:meth:`PlayerScore.to_dict`). :meth:`from_dict` reads it
        back to an equal score.

        >>> from gongzhu import score
        >>> d = score(["10C QS 7H", "JD"], exposed="QS").to_dict()
        >>> d["totals"], d["exposed"], d["pig_taker"], d["players"][1]["sheep"]
        ([-420, 100], {'QS': 2}, 0, 100)
        >>> DealScore.from_dict(d) == score(["10C QS 7H", "JD"], exposed="QS")
        True
        """
        per_trick = self.rules.queen_of_diamonds_bonus
        players = self.players
        return {
            "totals": list(self.totals),
            "team_totals": list(self.team_totals) if self.team_totals is not None else None,
            "all_hearts_seat": self.all_hearts_seat,
            "grand_slam_seat": self.grand_slam_seat,
            "pig_taker": self.pig_taker,
            "rules": self.rules.to_dict(),
            "captures": [[c.code for c in pile] for pile in self.captures],
            "exposed": {c.code: f for c, f in sorted(self.exposed.items())},
            "queen_bonus_tricks": [p.bonus // per_trick for p in players] if per_trick else None,
            "players": [p.to_dict() for p in players],
        }

    @classmethod
    def from_dict(cls, data: Any) -> DealScore:
        """Read :meth:`to_dict`'s output back: re-scored from its inputs, and checked against
        the totals and sheets it states (:class:`~gongzhu.DealError` naming the field).

        >>> from gongzhu import score
        >>> d = score("10C QS 7H").to_dict()
        >>> d["totals"] = [0]
        >>> DealScore.from_dict(d)
        Traceback (most recent call last):
        ...
        gongzhu.errors.DealError: score field 'totals': [0] does not match the cards ([-220])
        """

        rules, captures, exposed, queen = _score_inputs(data)
        piles = tuple(_as_cardset(p, f"seat {i}") for i, p in enumerate(captures))
        result = _score_piles(piles, dict(exposed), rules, queen)
        stated = result.to_dict()
        for key in _SCORE_KEYS:
            if (
                key in data
                and key not in ("rules", "captures", "exposed")
                and not _same(data[key], stated[key])
            ):
                _score_field(key, f"{brief(data[key])} does not match the cards ({stated[key]})")
        return result

    def _repr_svg_(self) -> str | None:
        """The score sheet as a picture (Jupyter shows it), drawn by :mod:`gongzhu.svg`."""
        return _svg(self)


guard_setstate(PlayerScore, "seat", DealError)
guard_setstate(DealScore, "totals", DealError)

_KINDS: Final = (TransformerEffect.NONE, TransformerEffect.LONE_BONUS, TransformerEffect.MULTIPLIER)


def _score_piles(
    piles: tuple[CardSet, ...],
    exposed: Any,
    rules: RuleSet,
    queen_bonus_tricks: Any,
    mask_list: list[int] | None = None,
) -> DealScore:
    """Score checked piles (``score()`` and ``DealScore.from_dict`` end here)."""
    if mask_list is None:
        mask_list = [p.mask for p in piles]
    masks = tuple(mask_list)
    tables = rules.engine
    if _bad_masks(masks, tables.deck) >= 0:
        _refuse_masks(masks, tables.deck, rules)
    exposure = None
    if exposed.__class__ is CardSet and not exposed.mask & ~tables.exposable:
        # The common case, a CardSet of exposable cards: its factors and read-only
        # mapping come from a small cache instead of the general normalisation.
        exposure = _CARDSET_EXPOSURES.get((exposed.mask, tables.face_up_factor))
    elif exposed.__class__ is tuple and not exposed:
        exposure = _NO_EXPOSURE_FACTORS
    if queen_bonus_tricks is not None:
        try:
            counts = tuple(islice(queen_bonus_tricks, len(piles) + 1))
        except TypeError:
            raise DealTypeError("queen_bonus_tricks needs one count 0-52 per pile") from None
        if len(counts) != len(piles) or not all(
            isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 52 for c in counts
        ):
            raise DealError("queen_bonus_tricks needs one count 0-52 per pile")
    else:
        counts = None
    if exposure is None:
        exposure = _factor_ints(adopt_map(exposure_factors(exposed, rules=rules)))
        if exposed.__class__ is CardSet and len(_CARDSET_EXPOSURES) < 64:
            _CARDSET_EXPOSURES[(exposed.mask, tables.face_up_factor)] = exposure
    return _finish(masks, exposure, rules, tables, counts, piles)


_Exposure = tuple[FrozenMap[Card, int], int, int, int, int]
"""An exposure as DealScore keeps it and as the kernel takes it: (mapping, A♥ Q♠ J♦ 10♣)."""


def _factor_ints(factors: FrozenMap[Card, int]) -> _Exposure:
    fa = fq = fj = ft = 1
    # At most four entries: comparing identities is cheaper than hashing Cards
    # (Card.__hash__ is Python code).
    for card, factor in factors.items():
        if card is ACE_OF_HEARTS:
            fa = factor
        elif card is PIG:
            fq = factor
        elif card is SHEEP:
            fj = factor
        elif card is TRANSFORMER:
            ft = factor
    return factors, fa, fq, fj, ft


_NO_EXPOSURE_FACTORS: Final[_Exposure] = (_NO_EXPOSURE, 1, 1, 1, 1)
# (exposed mask, face-up factor) → its exposure: at most 16 sets × 2 factors in use.
_CARDSET_EXPOSURES: dict[tuple[int, int], _Exposure] = {}


def _refuse_masks(masks: tuple[int, ...], deck: int, rules: RuleSet) -> None:
    seen = 0
    for seat, mask in enumerate(masks):
        if mask & seen:
            dup = CardSet.from_mask(mask & seen)
            raise DealError(f"seat {seat}: {dup} also in an earlier pile")
        seen |= mask
    extra = CardSet.from_mask(seen & ~deck)
    raise DealError(f"{extra} not in the {rules.players}-player deck")


def _finish(
    masks: tuple[int, ...],
    exposure: _Exposure,
    rules: RuleSet,
    t: Config,
    queen_tricks: tuple[int, ...] | None,
    piles: tuple[CardSet, ...] | None,
) -> DealScore:
    frozen, fa, fq, fj, ft = exposure
    totals, lines, all_hearts, slam, pig = _score_masks(
        masks, fa, fq, fj, ft, t, queen_tricks if rules.queen_of_diamonds_bonus else None
    )
    if piles is None:
        piles = tuple([unchecked_cardset(m) for m in masks])
    ds: DealScore = _new(DealScore)
    _set_totals(ds, totals)
    _set_rules(ds, rules)
    _set_captures(ds, piles)
    _set_exposed(ds, frozen)
    _set_all_hearts(ds, all_hearts if all_hearts >= 0 else None)
    _set_grand_slam(ds, slam if slam >= 0 else None)
    _set_pig_taker(ds, pig if pig >= 0 else None)
    _set_lines(ds, lines)
    return ds


# (face-up factor, up, down, blind) → the exposure mapping a DealScore keeps.
_ROUND_EXPOSURES: dict[tuple[int, int, int, int], FrozenMap[Card, int]] = {}


def score_of_state(state: State) -> DealScore:
    """The score of a finished core ``state``, for the engine layer (``Round.score``).

    Trusted: the state came from the core and its deal is over.
    Only the totals are computed now (the core's kernel, no lines); the other
    fields are built on first read (see :class:`_Deferred`).
    """
    ds: DealScore = _new(DealScore)
    _set_totals(ds, _core_totals(state))
    _set_rules(ds, state.table.cfg.owner)
    _set_pending(ds, state)
    return ds


def _fill(ds: DealScore, state: State) -> None:
    """Set the fields :func:`score_of_state` deferred, from the core's result for ``state``."""
    t = state.table
    cfg = t.cfg
    up, down, blind = t.up, t.down, t.blind
    _totals, lines, all_hearts, slam, pig = _core_score_of(state)
    if up | down:
        key = (cfg.face_up_factor, up, down, blind)
        exposed = _ROUND_EXPOSURES.get(key)
        if exposed is None:
            exposed = adopt_map(
                {
                    c: _card_factor(cfg, c.mask, up, down, blind)
                    for c in unchecked_cardset(up | down)
                }
            )
            if len(_ROUND_EXPOSURES) < 1024:
                _ROUND_EXPOSURES[key] = exposed
    else:
        exposed = _NO_EXPOSURE
    _set_captures(ds, tuple([unchecked_cardset(m) for m in state.capt]))
    _set_exposed(ds, exposed)
    _set_all_hearts(ds, all_hearts if all_hearts >= 0 else None)
    _set_grand_slam(ds, slam if slam >= 0 else None)
    _set_pig_taker(ds, pig if pig >= 0 else None)
    _set_lines(ds, lines)
    _set_pending(ds, None)


_new: Final = object.__new__
# The slots' own setters, in DealScore's field order: a trusted constructor that
# skips attrs' keyword handling (the values come from the kernel, already checked).
_DEAL_SCORE_SETTERS: Final = tuple(
    DealScore.__dict__[a.name].__set__ for a in attrs.fields(DealScore)
)
(
    _set_totals,
    _set_rules,
    _set_captures,
    _set_exposed,
    _set_all_hearts,
    _set_grand_slam,
    _set_pig_taker,
    _set_lines,
) = _DEAL_SCORE_SETTERS
_set_pending: Final = _Deferred.__dict__["_pending"].__set__

# The methods' doctests run here, in their own module (the package sets the classes'
# __module__ to its public path, where a doctest finder would skip them).
__test__ = {"DealScore": DealScore, "PlayerScore": PlayerScore}
