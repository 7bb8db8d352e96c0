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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from gongzhu.actions import Action
from gongzhu.dealing import deal, match_deal_seed
from gongzhu.errors import GongzhuError, IllegalActionError, Reason
from gongzhu.match import Match
from gongzhu.record import GameRecord
from gongzhu.round import Round
from gongzhu.rules import RuleSet

__all__ = ["Table", "TableError"]


class TableError(GongzhuError, ValueError):
    """A log entry that does not replay (unknown, or out of place)."""


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

    # -- making ----------------------------------------------------------------------

    @classmethod
    def start(cls, rules: RuleSet, seed: int | str, game: int = 1) -> Table:
        """Game ``game`` of the match seeded ``seed``, its first deal dealt, nothing played."""
        match = Match(rules)
        return cls(rules, seed, game, match, (), _deal(rules, seed, game, 1, match), 1, ())

    @classmethod
    def replay(
        cls, rules: RuleSet, seed: int | str, game: int, log: Iterable[Mapping[str, Any]]
    ) -> Table:
        """The table after ``log`` (raises :class:`TableError` or the library's error if an
        entry does not replay)."""
        table = cls.start(rules, seed, game)
        match, rounds, rnd, deal_no = table.match, list(table.rounds), table.round, 1
        entries: list[Mapping[str, Any]] = []
        for entry in log:
            if not isinstance(entry, Mapping):
                raise TableError("a log entry is an object")
            if "a" in entry:
                rnd = rnd.apply(Action.from_dict(entry["a"]))
                if rnd.is_over:
                    rounds.append(rnd)
                    match = match.add(rnd)
            elif entry.get("next"):
                if not rnd.is_over or match.is_over:
                    raise TableError("'next' before the deal ended")
                deal_no += 1
                rnd = _deal(rules, seed, game, deal_no, match)
            else:
                raise TableError(f"unknown log entry {sorted(entry)}")
            entries.append(entry)
        return cls(rules, seed, game, match, tuple(rounds), rnd, deal_no, tuple(entries))

    # -- facts -------------------------------------------------------------------------

    @property
    def match_seed(self) -> int | str:
        """The seed this game's deals derive from (``seed``, or ``"<seed>/game<n>"``)."""
        return _match_seed(self.seed, self.game)

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    @property
    def last_score(self) -> Any:
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
        rnd = _deal(self.rules, self.seed, self.game, number, self.match)
        entry = {"next": 1, **(stamp or {})}
        return attrs.evolve(self, round=rnd, deal_no=number, log=(*self.log, entry))

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


def _deal(rules: RuleSet, seed: int | str, game: int, number: int, match: Match) -> Round:
    return deal(
        rules=rules,
        seed=match_deal_seed(_match_seed(seed, game), number),
        leader=match.next_leader,
        dealer=match.dealer,
    )
