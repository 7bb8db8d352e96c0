"""Writing a record: the checked JSON data of rounds (the canonical form). Private to
:mod:`gongzhu.record`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, Protocol

from gongzhu.actions import Action, Claim, ClaimResponse, Exposure, Play
from gongzhu.errors import RecordError
from gongzhu.match import Match
from gongzhu.record._read import (
    FORMAT,
    MAX_DEALS,
    VERSION,
    _Any,
    _expected,
    _replay_deal,
    _step,
)
from gongzhu.record._schema import (
    _MAX_INT_DIGITS,
    _read_names,
    _result_dict,
)
from gongzhu.round import Round
from gongzhu.rules import PRESETS, RuleSet


class _Game(Protocol):
    """What writing reads of a :class:`~gongzhu.record.GameRecord`."""

    @property
    def rules(self) -> RuleSet: ...
    @property
    def names(self) -> tuple[str, ...] | None: ...
    @property
    def rounds(self) -> tuple[Round, ...]: ...
    @property
    def match(self) -> Match | None: ...


def _rounds_of(game: Any) -> tuple[RuleSet, tuple[Round, ...]]:
    if isinstance(game, Round):
        rounds: tuple[Round, ...] = (game,)
    elif isinstance(game, Sequence) and not isinstance(game, (str, bytes)):
        # One more than a record holds, whatever len() says: range(10**12) is refused, not read.
        rounds = tuple(itertools.islice(game, MAX_DEALS + 1))
    else:
        raise RecordError(
            f"expected a Round, a sequence of Rounds or a GameRecord, got {type(game).__name__}"
        )
    if not rounds:
        raise RecordError("no deals to record: pass at least one Round")
    if len(rounds) > MAX_DEALS:
        raise RecordError(f"a record holds at most {MAX_DEALS} deals, got more")
    for number, r in enumerate(rounds, 1):
        if not isinstance(r, Round):
            raise RecordError(f"expected a Round, got {type(r).__name__}", deal=number)
        if r.rules != rounds[0].rules:
            raise RecordError("every deal of a record must use the rules of deal 1", deal=number)
    return rounds[0].rules, rounds


def _build_record(
    game: _Game, names: Sequence[str] | None
) -> tuple[tuple[str, ...] | None, Match | None, dict[str, Any]]:
    """:func:`_build` for a record, which must be the record of its rounds."""
    if len(game.rounds) > MAX_DEALS:
        raise RecordError(f"a record holds at most {MAX_DEALS} deals, got {len(game.rounds)}")
    for number, r in enumerate(game.rounds, 1):
        if r.rules != game.rules:
            # Written as is, it would be refused when read, or read as another game (#11 item 11).
            raise RecordError("the round was not played under the record's rules", deal=number)
    built = _build(game.rules, names, game.rounds)
    mine, theirs = game.match, built[1]
    if (mine is None) != (theirs is None) or (
        mine is not None
        and theirs is not None
        and (
            (mine.rules, mine.first_dealer, mine.deals, mine.history, mine.end_reason)
            != (theirs.rules, theirs.first_dealer, theirs.deals, theirs.history, theirs.end_reason)
            or mine.names != game.names
        )
    ):
        raise RecordError("the record's match is not the match of its rounds", field="result")
    return built


def _build(
    rules: RuleSet, names: Sequence[str] | None, rounds: Sequence[Round]
) -> tuple[tuple[str, ...] | None, Match | None, dict[str, Any]]:
    """The checked record of ``rounds`` and its canonical JSON data."""
    if names is not None and (isinstance(names, str) or not isinstance(names, Sequence)):
        raise RecordError("names must be a sequence of names, one per seat", field="players")
    # One more than the seats, whatever the sequence's length: range(10**12) is not read.
    checked = (
        None
        if names is None
        else _read_names(list(itertools.islice(names, rules.players + 1)), rules)
    )
    preset = rules.closest_preset()[0]
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": {"preset": preset, "overrides": rules.to_dict(only_changes_from=PRESETS[preset])},
    }
    if checked is not None:
        data["players"] = list(checked)
    deals: list[dict[str, Any]] = []
    match: Match | None = None
    for number, r in enumerate(rounds, 1):
        dealer, leader = _expected(number, rounds[: number - 1], match)
        deals.append(_write_deal(r, number, dealer, leader))
        match = _step(match, r, rules, checked, number)
    data["deals"] = deals
    if match is not None and match.deals:
        data["result"] = _result_dict(match)
    else:
        match = None
    return checked, match, data


def _write_deal(
    r: Round, number: int, want_dealer: int | _Any, want_leader: int | _Any | None
) -> dict[str, Any]:
    """The deal's record from its history, checked by replaying it."""
    seed = r.seed
    # Compared, not str()-ed: str() of a 5000-digit int raises ValueError (#11 item 6).
    if isinstance(seed, int) and abs(seed) >= 10**_MAX_INT_DIGITS:
        raise RecordError(f"the seed has more than {_MAX_INT_DIGITS} digits", deal=number)
    history = r.history
    first = next((k for k, a in enumerate(history) if not isinstance(a, Exposure)), len(history))
    data: dict[str, Any] = {
        "dealer": r.dealer,
        "leader": None,
        "seed": seed,
        "hands": [[c.code for c in hand] for hand in r.dealt],
        "exposures": [_exposure(a, "seat") for a in history[:first] if isinstance(a, Exposure)],
        "actions": [_action(a) for a in history[first:]],
    }
    # Whether the leader was given or came from the opening card is not public
    # state when the first leader holds that card: the replay tells.
    leader = r.tricks[0].leader if r.tricks else r.leader
    holder = next(s for s, hand in enumerate(r.dealt) if r.rules.opening_card in hand)
    if isinstance(want_leader, _Any):
        leaders: list[int | None] = [None, leader] if leader == holder else [leader]
    elif leader == (holder if want_leader is None else want_leader):
        leaders = [want_leader]
    else:
        leaders = [leader]  # the replay refuses it, saying who should lead
    error = RecordError("the round cannot be written: its replay is another state", deal=number)
    for choice in leaders:
        data["leader"] = choice
        try:
            replayed = _replay_deal(data, r.rules, number, want_dealer, want_leader)
        except RecordError as exc:
            error = exc  # e.g. null where the opening card then had to be led
            continue
        if replayed == r:
            if r.is_over:
                data["result"] = list(r.score().totals)
            return data
    raise error


def _exposure(action: Exposure, key: str) -> dict[str, Any]:
    down = action.face_down
    return {key: action.seat, "cards": [c.code for c in action.cards],
            "face_down": down if isinstance(down, bool) else [c.code for c in down],
            "blind": action.blind}  # fmt: skip


def _action(action: Action) -> Any:
    if isinstance(action, Play):
        return action.card.code
    if isinstance(action, Claim):
        return {"claim": action.seat}
    if isinstance(action, ClaimResponse):
        return {"respond": action.seat, "accept": action.accept}
    assert isinstance(action, Exposure)  # the last of the four kinds of Action
    return _exposure(action, "expose")


# Nor re-stated: pickle's __setstate__ on a finished record would rewrite it (#11 item 9).
