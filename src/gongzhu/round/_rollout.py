"""Round.rollout's strategies around the core's rollout loop. Private.

:meth:`Round.rollout <gongzhu.Round.rollout>` checks its arguments here, lets
strategies decide on exposure through their protocol, turns each strategy
into a core policy (see :mod:`gongzhu._core.rollout`) and runs the core loop.
The round is passed in, typed by what the rollout reads of it (``_Table``: its
``from_engine_state`` builds the round of a core state, since :mod:`gongzhu.round`
imports this module); a seat's view of a core state comes straight from
:class:`~gongzhu.PlayerView`, a layer down. A strategy is typed by the protocol
the rollout asks (``_Decider``: :class:`gongzhu.bots.Strategy` lives a layer up).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NoReturn, Protocol, TypeVar, cast

from gongzhu._base.seeds import check_seed
from gongzhu._base.text import brief
from gongzhu._core import rng as _rng
from gongzhu._core import rollout as _ro
from gongzhu._core.play import decide
from gongzhu._core.state import State
from gongzhu.cards import Card, CardSet
from gongzhu.errors import ActionTypeError, IllegalActionError, Reason
from gongzhu.view import PlayerView

_R = TypeVar("_R", bound="_Table")


class _Table(Protocol):
    """What the rollout reads of the round it plays on (a :class:`~gongzhu.Round`)."""

    @property
    def players(self) -> int: ...
    @property
    def engine_state(self) -> State: ...
    @property
    def exposure_pending(self) -> tuple[int, ...]: ...
    def view(self, seat: int) -> PlayerView: ...
    def expose(self: _R, cards: CardSet, seat: int | None = None) -> _R: ...
    def check_play(self, card: Card, seat: int | None = None) -> None: ...
    def from_engine_state(self: _R, state: State) -> _R: ...


class _Decider(Protocol):
    """What the rollout asks a strategy (the :class:`gongzhu.bots.Strategy` protocol)."""

    def choose_play(self, view: PlayerView, legal: CardSet) -> Card: ...
    def choose_exposure(self, view: PlayerView) -> CardSet: ...


def _refuse_rollout(detail: str) -> NoReturn:
    raise IllegalActionError(Reason.INVALID_CHOICE, None, detail=detail, action="roll out")


def _refuse_type(detail: str) -> NoReturn:
    raise ActionTypeError(Reason.INVALID_CHOICE, None, detail=detail, action="roll out")


def _is_strategy(obj: object) -> bool:
    return callable(getattr(obj, "choose_play", None)) and callable(
        getattr(obj, "choose_exposure", None)
    )


def _protocol_policy(strategy: _Decider, rnd: _Table) -> _ro.Policy:
    """A core policy that asks ``strategy`` through its protocol, from its seat's view."""

    def policy(state: State, legal: int) -> int:
        seat = (state.leader + (state.trick & 7)) % state.table.n
        view = PlayerView.from_engine_state(state, seat)
        choice: object = strategy.choose_play(view, view.legal_plays)
        card = choice if isinstance(choice, Card) else Card.parse(choice)  # type: ignore[arg-type]
        if not legal & card.mask:
            rnd.from_engine_state(state).check_play(card, seat)  # the round's own refusal
        return card.index

    return policy


def rollout(rnd: _R, strategy: object, seed: object) -> _R:
    """The completed round; see Round.rollout."""
    n = rnd.players
    given: tuple[object, ...]
    if strategy is None or _is_strategy(strategy):
        given = (strategy,) * n
    elif isinstance(strategy, Sequence) and not isinstance(strategy, str):
        given = tuple(strategy[:n])
        if len(given) != n or len(strategy) != n:
            _refuse_rollout(f"give one strategy per seat ({n})")
    else:
        _refuse_type("strategy must be a Strategy, one per seat, or None")
    for entry in given:
        if entry is not None and not _is_strategy(entry):
            _refuse_type(f"not a Strategy: {brief(entry)}")
    strategies = cast(tuple[_Decider | None, ...], given)  # checked just above
    if seed is None:
        seed = random.getrandbits(64)
    else:
        check_seed(seed, error=_refuse_rollout, type_error=_refuse_type, text=False)
    assert isinstance(seed, int)  # check_seed refused anything else
    # Exposure: each seat that decides next, by the core's rule (Round.exposure_pending:
    # the next seat in turn, or the first undecided one from the leader when sealed),
    # asks its strategy through the protocol; a seat without one declines in the core.
    # Sealed views show no other seat's choice, so deciding one seat at a time gives every
    # seat the view it would have had. Without any strategy the core's rollout declines
    # for every seat at once (its settle).
    if strategy is not None and any(entry is not None for entry in strategies):
        while pending := rnd.exposure_pending:
            seat = pending[0]
            chosen = strategies[seat]
            if chosen is None:
                rnd = rnd.from_engine_state(decide(rnd.engine_state, seat, 0, 0, False))
            else:
                rnd = rnd.expose(chosen.choose_exposure(rnd.view(seat)), seat=seat)
    policies: list[_ro.Policy | None] = []
    for entry in strategies:
        hook = getattr(entry, "_core_policy", None)
        if entry is None:
            policies.append(None)
        elif callable(hook):  # the library's own strategies run inside the core
            policies.append(hook())
        else:
            policies.append(_protocol_policy(entry, rnd))
    return rnd.from_engine_state(_ro.rollout(rnd.engine_state, policies, _rng.seed_state(seed)))
