"""A table's game, rebuilt from its seed, rules and log: :class:`Table`.

A :class:`Table` is what a saved game *is*: the rules, the match seed, the
game number and the log of what happened (each action, and each "deal the
next"); the match, the deals played and the deal in progress follow by
replaying the log through the library. It holds no seats, no names, no
connections and no store, so the web table's rooms (:mod:`gongzhu.web.rooms`,
which add seats, tokens, presence and persistence) and a terminal game's
save/resume can both use it.

Why here and not under :mod:`gongzhu.web`: it needs only the rules core
(dealing, :class:`~gongzhu.Round`, :class:`~gongzhu.Match`, records) — no
Starlette, no store, no strategy — and a terminal game has no business
importing a web package to resume a game.

A table never changes: :meth:`apply`, :meth:`next_deal` and
:meth:`new_game` return a new one (the old one stays valid), so a caller
can compute a change, store it, and only then keep it.

:meth:`to_dict` is the table's whole state as JSON (rules, seed, game, log) and
:meth:`from_dict` reads it back, checked: a log that does not replay, or any
field that is not what it should be, is a :class:`TableError` naming the
entry, never a half-built table. ``gongzhu play --human`` saves that object
(:mod:`gongzhu.cli._save`); a web room stores the same fields.

Deal ``k`` of game 1 is dealt as deal ``k`` of :func:`gongzhu.play_match`
with the same seed (:func:`gongzhu.dealing.match_deal_seed`); game ``n > 1``
uses the seed ``"<seed>/game<n>"``.

>>> from gongzhu import CardSet, Exposure, RuleSet
>>> t = Table.start(RuleSet.preset("online"), seed=7)
>>> t.deal_no, t.round.phase.name, len(t.log)
(1, 'EXPOSURE', 0)
>>> t2 = t.apply(Exposure(t.round.exposure_pending[0], CardSet()))
>>> len(t2.log), len(t.log)
(1, 0)
>>> Table.replay(t.rules, 7, 1, t2.log).round == t2.round
True
>>> Table.from_dict(t2.to_dict()).round == t2.round
True
>>> t2.dealt == t.round                 # the deal as dealt (what sealed decisions see)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import attrs

from gongzhu._base.seeds import check_seed
from gongzhu.actions import Action
from gongzhu.dealing import deal, match_deal_seed
from gongzhu.errors import GongzhuError, IllegalActionError, Reason
from gongzhu.match import Match
from gongzhu.record import GameRecord
from gongzhu.round import Round
from gongzhu.rules import RuleSet

if TYPE_CHECKING:
    from gongzhu.scoring import DealScore

__all__ = ["FirstDeal", "Table", "TableError"]


MAX_GAME: Final = 10**9
"""The highest game number a table's state may name."""
_FIELDS: Final = ("rules", "seed", "game", "log")


class TableError(GongzhuError, ValueError):
    """A table's state that does not read or replay (an entry unknown, out of place or
    refused by the rules; a field of :meth:`Table.from_dict` that is not what it should be)."""


@attrs.frozen
class FirstDeal:
    """A game's first deal given outright (a shared deal replayed): the deal's own seed
    (:func:`~gongzhu.dealing.match_deal_seed` of the game it came from), its leader
    (``None``: the opening card's holder) and dealer. Knowing it tells nothing of the
    other deals of that game: a deal's seed is a one-way function of the game's."""

    seed: int
    leader: int | None = None
    dealer: int = 0

    def to_dict(self) -> dict[str, object]:
        return {"seed": self.seed, "leader": self.leader, "dealer": self.dealer}

    @classmethod
    def from_dict(cls, data: object) -> FirstDeal:
        if not isinstance(data, Mapping) or set(data) != {"seed", "leader", "dealer"}:
            raise TableError("table: first: expected {seed, leader, dealer}")
        seed, leader, dealer = data["seed"], data["leader"], data["dealer"]
        if type(seed) is not int or not 0 <= seed < 2**64:
            raise TableError("table: first: seed must be an int 0 - 2**64")
        if leader is not None and (type(leader) is not int or not 0 <= leader < 4):
            raise TableError("table: first: leader must be null or a seat")
        if type(dealer) is not int or not 0 <= dealer < 4:
            raise TableError("table: first: dealer must be a seat")
        return cls(seed, leader, dealer)


@attrs.frozen(eq=False)
class Table:
    """One table's game: rules, seed, game number, log → match and deals (see the module)."""

    rules: RuleSet
    seed: int | str
    game: int
    match: Match
    rounds: tuple[Round, ...]
    """The finished deals of this game, in order."""
    round: Round
    """The deal in progress (or the last one, finished, until the next is dealt)."""
    deal_no: int
    log: tuple[Mapping[str, Any], ...]
    """The game's entries: ``{"a": <action dict>}`` or ``{"next": 1}`` (plus any stamp)."""
    dealt: Round
    """The deal in progress as dealt, before any action: what a seat deciding its sealed
    exposure sees (specification §9.2), whoever decided before it."""
    first: FirstDeal | None = None
    """The first deal given outright (a shared deal replayed), else ``None``."""

    # -- making ----------------------------------------------------------------------

    @classmethod
    def start(
        cls, rules: RuleSet | str, seed: int | str, game: int = 1, first: FirstDeal | None = None
    ) -> Table:
        """Game ``game`` of the match seeded ``seed``, its first deal dealt, nothing played.
        ``rules``: a :class:`~gongzhu.RuleSet` or a preset's name. ``first``: deal that
        first deal instead (a shared deal replayed)."""
        match = Match(rules)
        rules = match.rules  # a preset's name read once, by the match
        dealt = _deal(rules, seed, game, 1, match, first)
        return cls(rules, seed, game, match, (), dealt, 1, (), dealt, first)

    @classmethod
    def replay(
        cls,
        rules: RuleSet | str,
        seed: int | str,
        game: int,
        log: Iterable[Mapping[str, Any]],
        first: FirstDeal | None = None,
    ) -> Table:
        """The table after ``log`` (:class:`TableError`, naming the entry, if one does not
        replay)."""
        table = cls.start(rules, seed, game, first)
        rules = table.rules
        match, rnd, deal_no = table.match, table.round, 1
        dealt = rnd
        rounds: list[Round] = []
        entries: list[Mapping[str, Any]] = []
        for number, entry in enumerate(log, 1):
            try:
                if not isinstance(entry, Mapping):
                    raise TableError(f"expected an object, got {type(entry).__name__}")
                if "a" in entry:
                    rnd = rnd.apply(Action.from_dict(entry["a"]))
                    if rnd.is_over:
                        rounds.append(rnd)
                        match = match.add(rnd)
                elif entry.get("next"):
                    if not rnd.is_over or match.is_over:
                        raise TableError("'next' before the deal ended")
                    deal_no += 1
                    rnd = dealt = _deal(rules, seed, game, deal_no, match, first)
                else:
                    raise TableError(f"unknown entry {sorted(map(str, entry))[:4]}")
            except (GongzhuError, KeyError, TypeError, ValueError) as exc:
                raise TableError(f"log entry {number}: {str(exc)[:300]}") from None
            entries.append(entry)
        return cls(
            rules, seed, game, match, tuple(rounds), rnd, deal_no, tuple(entries), dealt, first
        )

    def to_dict(self) -> dict[str, object]:
        """The table's state as JSON: ``{"rules", "seed", "game", "log"}``
        (:meth:`from_dict` reads it back)."""
        out: dict[str, object] = {
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "game": self.game,
            "log": [dict(entry) for entry in self.log],
        }
        if self.first is not None:
            out["first"] = self.first.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: object) -> Table:
        """The table whose state :meth:`to_dict` wrote, checked and replayed
        (:class:`TableError` saying what is wrong)."""
        if not isinstance(data, Mapping):
            raise TableError(f"a table is an object, got {type(data).__name__}")
        missing = [k for k in _FIELDS if k not in data]
        unknown = sorted(str(k) for k in data if k not in (*_FIELDS, "first"))
        if missing or unknown:
            what = f"missing field {missing[0]!r}" if missing else f"unknown field {unknown[0]!r}"
            raise TableError(f"table: {what}")
        rules_data, seed, game, log = (data[k] for k in _FIELDS)
        if not isinstance(rules_data, Mapping):
            raise TableError(f"table: rules: expected an object, got {type(rules_data).__name__}")
        try:
            rules = RuleSet.from_dict(rules_data)
        except (GongzhuError, TypeError, ValueError, KeyError, AttributeError) as exc:
            raise TableError(f"table: rules: {exc}") from None
        check_seed(seed, error=TableError, none=False, what="table: seed")
        if type(game) is not int or not 1 <= game <= MAX_GAME:
            raise TableError(f"table: game: expected a number 1-{MAX_GAME}, got {game!r:.40}")
        if not isinstance(log, list):
            raise TableError(f"table: log: expected a list, got {type(log).__name__}")
        first = FirstDeal.from_dict(data["first"]) if "first" in data else None
        return cls.replay(rules, seed, game, log, first)

    # -- facts -------------------------------------------------------------------------

    @property
    def match_seed(self) -> int | str:
        """The seed this game's deals derive from (``seed``, or ``"<seed>/game<n>"``)."""
        return _match_seed(self.seed, self.game)

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    @property
    def last_score(self) -> DealScore | None:
        """The finished deal's :class:`~gongzhu.DealScore` until the next deal, else ``None``."""
        return self.round.score() if self.round.is_over else None

    # -- changes (each returns a new table) ----------------------------------------------

    def apply(self, action: Action, stamp: Mapping[str, Any] | None = None) -> Table:
        """The table after ``action`` (:class:`~gongzhu.IllegalActionError`: refused).
        ``stamp``: extra fields kept with the log entry (the web table's event number)."""
        rnd = self.round.apply(action)
        rounds, match = self.rounds, self.match
        if rnd.is_over:
            rounds, match = (*rounds, rnd), match.add(rnd)
        entry = {"a": action.to_dict(), **(stamp or {})}
        return attrs.evolve(self, round=rnd, rounds=rounds, match=match, log=(*self.log, entry))

    @property
    def deal_start(self) -> int:
        """Where the deal in progress begins in :attr:`log` (after the last "next")."""
        for index in range(len(self.log) - 1, -1, -1):
            if self.log[index].get("next"):
                return index + 1
        return 0

    def take_back(self, cut: int) -> Table:
        """The table as it was before log entry ``cut`` (an index of :attr:`log`, an action
        of the deal in progress), every later entry undone: the deal is replayed from its
        start (:attr:`dealt`) through its :attr:`Round.history <gongzhu.Round.history>`
        before that action, by :meth:`Round.apply <gongzhu.Round.apply>`; the finished deals
        stay as they are. Refused (:class:`TableError`) once the deal is over (its score is
        in the match) or for an entry outside the deal in progress.

        >>> from gongzhu import CardSet, Exposure, Play, RuleSet
        >>> t = Table.start(RuleSet.preset("online"), seed=7)
        >>> while t.round.exposure_pending:
        ...     t = t.apply(Exposure(t.round.exposure_pending[0], CardSet()))
        >>> before = t
        >>> for _ in range(3):
        ...     t = t.apply(Play(t.round.to_act, t.round.legal_plays[0]))
        >>> back = t.take_back(len(before.log))
        >>> back.round == before.round, back.log == before.log
        (True, True)
        """
        begin = self.deal_start
        if self.round.is_over:
            raise TableError("the deal is over: its score is final")
        if not begin <= cut < len(self.log):
            raise TableError(f"entry {cut} is not an action of the deal in progress")
        history = self.round.history
        if len(history) != len(self.log) - begin:
            raise TableError("the log and the deal's history disagree")
        rnd = self.dealt
        for action in history[: cut - begin]:
            rnd = rnd.apply(action)
        return attrs.evolve(self, round=rnd, log=self.log[:cut])

    def next_deal(self, seat: int = 0, stamp: Mapping[str, Any] | None = None) -> Table:
        """After a finished deal: the next one dealt (refused during a deal or after the game)."""
        if self.match.is_over:
            raise IllegalActionError(
                Reason.WRONG_PHASE, seat, detail="the game is over", action="next"
            )
        if not self.round.is_over:
            raise IllegalActionError(
                Reason.WRONG_PHASE, seat, detail="the deal is not over", action="next"
            )
        number = self.deal_no + 1
        rnd = _deal(self.rules, self.seed, self.game, number, self.match, self.first)
        entry = {"next": 1, **(stamp or {})}
        return attrs.evolve(self, round=rnd, deal_no=number, log=(*self.log, entry), dealt=rnd)

    def new_game(self, seat: int = 0) -> Table:
        """After game over: the next game of the same seed and rules (an empty log)."""
        if not self.match.is_over:
            raise IllegalActionError(
                Reason.WRONG_PHASE, seat, detail="the game is not over", action="new_game"
            )
        return Table.start(self.rules, self.seed, self.game + 1)

    def record(self, names: Sequence[str] | None = None) -> GameRecord:
        """The finished deals of this game as a :class:`~gongzhu.record.GameRecord`
        (only finished deals: an unfinished one would show every hand)."""
        if not self.rounds:
            raise TableError("no finished deal yet")
        return GameRecord.from_rounds(self.rounds, names=names)


def _match_seed(seed: int | str, game: int) -> int | str:
    return seed if game == 1 else f"{seed}/game{game}"


def _deal(
    rules: RuleSet,
    seed: int | str,
    game: int,
    number: int,
    match: Match,
    first: FirstDeal | None = None,
) -> Round:
    if number == 1 and first is not None:
        return deal(rules=rules, seed=first.seed, leader=first.leader, dealer=first.dealer)
    return deal(
        rules=rules,
        seed=match_deal_seed(_match_seed(seed, game), number),
        leader=match.next_leader,
        dealer=match.dealer,
    )
