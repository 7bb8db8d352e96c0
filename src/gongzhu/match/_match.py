"""The :class:`Match` class and :class:`EndReason`. Part of :mod:`gongzhu.match`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import islice
from typing import Any, Final

import attrs

from gongzhu._base.frozen import guard_setstate, refuse_reinit
from gongzhu._base.text import brief
from gongzhu.errors import GongzhuError, MatchError, MatchTypeError
from gongzhu.match._end import (
    _MAX_SEATS,
    _TOTAL_LIMIT,
    EndReason,
    _as_deal_score,
    _deal_from_totals,
    _end_reason,
    _losers,
)
from gongzhu.rules import GrandSlamOutcome, LaterLeader, RuleSet, TiedWinners
from gongzhu.scoring import DealScore

__all__ = ["EndReason", "Match"]

_DEFAULT_RULES: Final = RuleSet()


def _rules_converter(value: RuleSet | str) -> RuleSet:
    """A preset's name as its rule set (an unknown name is a :class:`MatchError` listing the
    presets); anything else is kept for ``__attrs_post_init__`` to check."""
    if isinstance(value, str):
        try:
            return RuleSet.preset(value)
        except GongzhuError as exc:
            raise MatchError(str(exc)) from None
    return value


def _names_converter(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        raise MatchError("names must be a sequence of names, one per seat, not a single string")
    try:
        return tuple(islice(value, _MAX_SEATS + 1))
    except TypeError:
        raise MatchTypeError(
            f"names must be a sequence of names, one per seat; got {type(value).__name__}"
        ) from None


@attrs.frozen(repr=False)
class Match:
    """The running state of a match: totals after each deal, and who lost once it is over.

    ``Match(rules=RuleSet(), names=None, first_dealer=0)`` starts a match; ``rules``
    is a :class:`~gongzhu.RuleSet` or a preset's name (``Match("online")``). ``names``
    has one non-empty, distinct name per seat, in seat (play) order. Add finished deals with
    :meth:`add` (or :meth:`add_totals` when you only have the numbers); each
    returns a new :class:`Match`.

    >>> from gongzhu import RuleSet
    >>> m = Match(RuleSet.preset("online-quick"))       # seeds/001: ends at ±500
    >>> m = m.add_totals((250, -100, -50, 0)).add_totals((300, -150, 0, -50))
    >>> m.end_reason.name, m.winners, m.losers
    ('WIN_THRESHOLD', (0,), (1,))
    >>> m.add_totals((0, 0, 0, 0))
    Traceback (most recent call last):
    ...
    gongzhu.errors.MatchError: the match is over (win threshold after 2 deals); start a new Match
    """

    rules: RuleSet = attrs.field(default=_DEFAULT_RULES, converter=_rules_converter)
    names: tuple[str, ...] | None = attrs.field(default=None, converter=_names_converter)
    """One name per seat, or None (seats are then called "seat 0", "seat 1" …)."""
    first_dealer: int = attrs.field(default=0)
    """The dealer of the first deal."""
    deals: tuple[DealScore, ...] = attrs.field(init=False, default=(), hash=False)
    """The deals added so far, in order."""
    history: tuple[tuple[int, ...], ...] = attrs.field(init=False, default=())
    """The running totals after each deal (after rotations and flips)."""
    end_reason: EndReason | None = attrs.field(init=False, default=None)
    """Why the match ended; None while it is running."""
    flipped: tuple[int, ...] = attrs.field(init=False, default=())
    """Seats whose running total flipped after the last deal (``exact_threshold_flips``)."""
    losing_teams: tuple[int, ...] = attrs.field(init=False, default=())
    """The losing team numbers (indexes into ``rules.teams``; a team is one seat unless
    ``partnerships`` is on). Empty while the match is running."""
    winning_teams: tuple[int, ...] = attrs.field(init=False, default=())
    """The winning team numbers (indexes into ``rules.teams``); empty while running."""
    pigs_taken: tuple[int, ...] = attrs.field(init=False, default=())
    """Per seat, in how many deals it took the pig (Q♠); see :attr:`pig_kings`."""
    _totals: tuple[int, ...] = attrs.field(init=False, default=())
    _pending: EndReason | None = attrs.field(init=False, default=None)

    def __attrs_pre_init__(self) -> None:
        refuse_reinit(self, "rules", MatchError)

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.rules, RuleSet):
            raise MatchTypeError(
                f"rules must be a RuleSet or a preset's name, got {type(self.rules).__name__}"
            )
        n = self.rules.players
        if self.names is not None:
            if len(self.names) != n:
                raise MatchError(f"names: expected {n} names (one per seat), got {len(self.names)}")
            for seat, name in enumerate(self.names):
                if not isinstance(name, str):
                    raise MatchTypeError(f"names: seat {seat} needs a string, got {brief(name)}")
                if not name.strip():
                    raise MatchError(
                        f"names: seat {seat} needs a non-empty string, got {brief(name)}"
                    )
            if len(set(self.names)) != n:
                raise MatchError(f"names must be distinct, got {brief(self.names)}")
        fd = self.first_dealer
        if not isinstance(fd, int) or isinstance(fd, bool):
            raise MatchTypeError(f"first_dealer must be a seat 0-{n - 1}, got {brief(fd)}")
        if not 0 <= fd < n:
            raise MatchError(f"first_dealer must be a seat 0-{n - 1}, got {brief(fd)}")
        object.__setattr__(self, "_totals", (0,) * n)
        object.__setattr__(self, "pigs_taken", (0,) * n)

    @classmethod
    def new(
        cls,
        rules: RuleSet | str = _DEFAULT_RULES,
        names: Sequence[str] | None = None,
        first_dealer: int = 0,
    ) -> Match:
        """Start a match, as ``Match(rules, names, first_dealer)``; ``rules`` may be a
        :class:`~gongzhu.RuleSet` or a preset name.

        >>> Match.new("online").rules.max_deals
        30
        """
        return cls(rules, names, first_dealer)

    # -- adding deals -------------------------------------------------------------

    def add(self, deal: DealScore | Any) -> Match:
        """The match after one more finished deal; this match is unchanged.

        ``deal`` is a :class:`~gongzhu.DealScore` or a finished deal with a
        ``score()`` method returning one (a ``Round``; one whose
        ``is_over`` is false is refused). It must have one total per seat
        and be scored for the same number of players. The match's own rules
        decide how it ends; the deal's rules decided its scores.

        Raises :class:`~gongzhu.MatchError` when the match is over or the deal
        does not fit.

        >>> from gongzhu import score
        >>> m = Match().add(score(["QS 2H", "AH", "JD", "TC"]))   # seats 0-3 took these
        >>> m.totals, m.next_leader, m.dealer
        ((-100, -50, 100, 50), 0, 1)
        """
        if self.end_reason is not None:
            raise MatchError(
                f"the match is over ({self.end_reason.value} after {len(self.deals)} deals);"
                " start a new Match"
            )
        ds = _as_deal_score(deal)
        n = self.rules.players
        if len(ds.totals) != n:
            raise MatchError(
                f"the deal has {len(ds.totals)} totals but the match has {n} seats"
                " (score every seat, e.g. with empty piles for seats that took nothing)"
            )
        if ds.rules.players != n:
            raise MatchError(
                f"the deal was scored for {ds.rules.players} players, the match has {n}"
            )
        return self._next(ds)

    def add_totals(
        self,
        totals: Sequence[int],
        *,
        pig_taker: int | None = None,
        grand_slam_seat: int | None = None,
        all_hearts_seat: int | None = None,
    ) -> Match:
        """Add a deal known only by its totals, as a score-keeper at a real table would.

        ``pig_taker`` (who took Q♠; they lead the next deal under the usual
        rules), ``grand_slam_seat`` and ``all_hearts_seat`` record the deal's
        facts. The stored :class:`~gongzhu.DealScore` has no cards; each
        seat's sheet shows its total as the base line.

        >>> m = Match().add_totals((-100, 50, 0, 50), pig_taker=0)
        >>> m.totals, m.next_leader
        ((-100, 50, 0, 50), 0)
        """
        n = self.rules.players
        if isinstance(totals, (str, bytes)) or not isinstance(totals, Iterable):
            raise MatchError(f"totals must be {n} ints, one per seat; got {brief(totals)}")
        values = tuple(islice(totals, n + 1))
        # Bounded like RuleSet's ints (JSON-safe), so the table can always be printed.
        if len(values) != n or not all(
            isinstance(v, int) and not isinstance(v, bool) and abs(v) <= _TOTAL_LIMIT
            for v in values
        ):
            raise MatchError(
                f"totals must be {n} ints (at most 2**53 - 1 in size), one per seat;"
                f" got {brief(values)}"
            )
        for label, seat in (
            ("pig_taker", pig_taker),
            ("grand_slam_seat", grand_slam_seat),
            ("all_hearts_seat", all_hearts_seat),
        ):
            if seat is not None and (
                not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n
            ):
                raise MatchError(f"{label} must be a seat 0-{n - 1} or None, got {brief(seat)}")
        return self.add(
            _deal_from_totals(values, self.rules, pig_taker, grand_slam_seat, all_hearts_seat)
        )

    def extend(self, deals: Iterable[DealScore | Any]) -> Match:
        """The match after adding each deal in turn (:meth:`add` for each).

        >>> Match().extend([]).deal_count
        0
        """
        try:
            items = iter(deals)
        except TypeError:
            raise MatchError(
                f"extend() needs an iterable of finished deals, got {type(deals).__name__}"
            ) from None
        match = self
        for deal in items:
            match = match.add(deal)
        return match

    def _next(self, ds: DealScore) -> Match:
        """Trusted transition: ``ds`` fits; build the next state without re-validation."""
        rules = self.rules
        totals = tuple(a + b for a, b in zip(self._totals, ds.totals, strict=True))
        slam = ds.grand_slam_seat
        outcome = rules.grand_slam_outcome
        if slam is not None and outcome is GrandSlamOutcome.ROTATE:
            totals = (totals[-1], *totals[:-1])
        teams = rules.teams
        pairs = rules.partnerships
        units = (totals[0] + totals[2], totals[1] + totals[3]) if pairs else totals
        loss = rules.loss_threshold
        flipped_units: tuple[int, ...] = ()
        if rules.exact_threshold_flips and loss in units:
            flipped_units = tuple(u for u, t in enumerate(units) if t == loss)
            flip_seats = {s for u in flipped_units for s in teams[u]}
            totals = tuple(-t if s in flip_seats else t for s, t in enumerate(totals))
            units = (totals[0] + totals[2], totals[1] + totals[3]) if pairs else totals
        high = max(units)
        reason = _end_reason(rules, units, len(self.deals) + 1, slam, bool(flipped_units))
        if reason is None:
            # Playing on after a tie at the top: the match ends on the first
            # deal after which one unit alone has the highest total.
            reason = self._pending

        pigs = self.pigs_taken
        if ds.pig_taker is not None:
            pigs = tuple(c + (s == ds.pig_taker) for s, c in enumerate(pigs))
        new = object.__new__(Match)
        _set = object.__setattr__
        _set(new, "rules", rules)
        _set(new, "names", self.names)
        _set(new, "first_dealer", self.first_dealer)
        _set(new, "deals", (*self.deals, ds))
        _set(new, "history", (*self.history, totals))
        _set(new, "_totals", totals)
        _set(new, "pigs_taken", pigs)
        _set(new, "_pending", None)
        _set(new, "end_reason", reason)
        _set(new, "flipped", ())
        _set(new, "losing_teams", ())
        _set(new, "winning_teams", ())
        if reason is None:
            return new
        flipped = tuple(s for u in flipped_units for s in sorted(teams[u]))
        excluded = set(flipped_units)
        if reason is EndReason.GRAND_SLAM:
            assert slam is not None
            slam_unit = next(u for u, team in enumerate(teams) if slam in team)
            excluded.add(slam_unit)
            winning: tuple[int, ...] = (slam_unit,)
            losing = _losers(units, excluded, rules)
        else:
            if rules.tied_winners is TiedWinners.PLAY_ON and units.count(high) > 1:
                # duanap/gongzhu: "最高分并列时继续进行完整的一副牌，直到出现唯一最高分".
                _set(new, "end_reason", None)
                _set(new, "_pending", reason)
                _set(new, "flipped", flipped)
                return new
            losing = _losers(units, excluded, rules)
            others = [u for u in range(len(units)) if u not in losing]
            top = max((units[u] for u in others), default=None)
            winning = tuple(u for u in others if units[u] == top)
        _set(new, "flipped", flipped)
        _set(new, "losing_teams", losing)
        _set(new, "winning_teams", winning)
        return new

    # -- derived state ------------------------------------------------------------

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's running total (zeros before the first deal)."""
        return self._totals

    @property
    def team_totals(self) -> tuple[int, ...]:
        """Each team's running total, one per team of ``rules.teams``.

        With ``partnerships`` team 0 is seats 0+2 and team 1 seats 1+3; without
        them every player is a team of one and this equals :attr:`totals`
        (the units the thresholds apply to, either way).

        >>> Match().add_totals((-100, 50, 0, 50)).team_totals
        (-100, 50, 0, 50)
        """
        t = self._totals
        if not self.rules.partnerships:
            return t
        return (t[0] + t[2], t[1] + t[3])

    @property
    def playing_on(self) -> bool:
        """The match would have ended, but seats tied for the top play on
        (``tied_winners="play-on"``); it ends after the first deal that breaks the tie."""
        return self._pending is not None

    @property
    def pig_kings(self) -> tuple[int, ...]:
        """The seats that took the pig in the most deals (猪王, "pig king"); empty before any.

        The library's reading of the title: most deals with Q♠ taken, ties all
        named; it changes nothing in the match.

        >>> Match().add_totals((-100, 0, 0, 100), pig_taker=0).pig_kings
        (0,)
        """
        most = max(self.pigs_taken, default=0)
        if not most:
            return ()
        return tuple(s for s, c in enumerate(self.pigs_taken) if c == most)

    @property
    def deal_count(self) -> int:
        """How many deals have been added."""
        return len(self.deals)

    @property
    def is_over(self) -> bool:
        """Whether the match has ended (no more deals may be added)."""
        return self.end_reason is not None

    @property
    def losers(self) -> tuple[int, ...]:
        """The seats that lost ("the pig"; with partnerships both players of a team).

        Empty while the match is running.
        """
        teams = self.rules.teams
        return tuple(sorted(s for u in self.losing_teams for s in teams[u]))

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the highest total(s) once the match is over (the grand-slam taker
        under an instant win). Empty while running, or when every seat lost."""
        teams = self.rules.teams
        return tuple(sorted(s for u in self.winning_teams for s in teams[u]))

    @property
    def dealer(self) -> int:
        """The dealer of the next deal: ``first_dealer``, then one seat on each deal
        (specification §5).

        >>> Match(first_dealer=3).add_totals((0, 0, 0, 0)).dealer
        0
        """
        return (self.first_dealer + len(self.deals)) % self.rules.players

    @property
    def next_leader(self) -> int | None:
        """Who leads the next deal's first trick, or None: the opening-card holder leads.

        None for the first deal, under ``later_leader="opening-card"`` (seeds/003),
        and when nobody took Q♠ in the previous deal (e.g. a 5-player deal where
        it was not captured); otherwise the previous deal's pig taker
        (seeds/000, 001, 004). Under ``later_leader="rotate"`` (MrIfOffline) the
        seat after the next deal's dealer, for every deal including the first:
        pass it to :func:`~gongzhu.deal` as ``leader``.

        >>> from gongzhu import RuleSet
        >>> m = Match(RuleSet(later_leader="rotate"), first_dealer=3)
        >>> m.next_leader, m.add_totals((0, 0, 0, 0)).next_leader
        (0, 1)
        """
        later = self.rules.later_leader
        if later is LaterLeader.ROTATE:
            return (self.dealer + 1) % self.rules.players
        if not self.deals or later is LaterLeader.OPENING_CARD:
            return None
        return self.deals[-1].pig_taker

    def name(self, seat: int) -> str:
        """The seat's name, or ``"seat N"`` when the match has no names.

        >>> Match(names=("Ann", "Bob", "Cid", "Dee")).name(2), Match().name(2)
        ('Cid', 'seat 2')
        """
        if (
            not isinstance(seat, int)
            or isinstance(seat, bool)
            or not 0 <= seat < self.rules.players
        ):
            raise MatchError(f"no seat {brief(seat)} in a {self.rules.players}-player match")
        return self.names[seat] if self.names is not None else f"seat {seat}"

    def standings(self) -> tuple[int, ...]:
        """All seats, highest running total first; equal totals in seat order.

        >>> Match().add_totals((-100, 50, 0, 50)).standings()
        (1, 3, 2, 0)
        """
        t = self._totals
        return tuple(sorted(range(len(t)), key=lambda s: (-t[s], s)))

    # -- text ---------------------------------------------------------------------

    def table(self) -> str:
        """The score table: the running totals after each deal, then the state of the match.

        >>> print(Match().add_totals((-100, 50, 0, 50), pig_taker=0).table())
        deal seat 0 seat 1 seat 2 seat 3
           1   -100     50      0     50
        Next: deal 2, dealer seat 1, leader seat 0.
        """
        n = self.rules.players
        heads = [self.name(s) for s in range(n)]
        width = max(6, *(len(h) for h in heads))
        lines = ["deal " + " ".join(f"{h:>{width}}" for h in heads).rstrip()]
        for i, row in enumerate(self.history, 1):
            lines.append(f"{i:>4} " + " ".join(f"{v:>{width}}" for v in row))
        team = self.team_totals
        if self.rules.partnerships:
            lines.append(f"teams: {heads[0]}+{heads[2]} {team[0]}, {heads[1]}+{heads[3]} {team[1]}")
        lines.append(self._status())
        return "\n".join(lines)

    def _who(self, seats: Sequence[int]) -> str:
        return " and ".join(self.name(s) for s in seats) or "nobody"

    def _status(self) -> str:
        if self.end_reason is None:
            leader = self.next_leader
            lead = self.name(leader) if leader is not None else "the opening-card holder"
            tie = "Tied for first: playing on. " if self.playing_on else ""
            return (
                f"{tie}Next: deal {len(self.deals) + 1}, dealer {self.name(self.dealer)},"
                f" leader {lead}."
            )
        # Plainly who won and who lost the match: "the pig" (Gong Zhu's word for the loser)
        # reads as the taker of Q♠ next to the deals' scores.
        n = len(self.deals)
        text = (
            f"Over after {n} deal{'' if n == 1 else 's'} ({self.end_reason.value}):"
            f" {self._who(self.winners)} won the match; {self._who(self.losers)} lost it."
        )
        if self.flipped:
            text += f" Flipped: {self._who(self.flipped)}."
        return text

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        state = self.end_reason.name if self.end_reason is not None else "running"
        return f"<Match {len(self.deals)} deals totals={self._totals} {state}>"


guard_setstate(Match, "rules", MatchError)


# The methods' doctests run here (the package sets the classes' __module__ to its path).
__test__ = {"EndReason": EndReason, "Match": Match}
