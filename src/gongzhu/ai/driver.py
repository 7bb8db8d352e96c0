"""The turn driver: who decides next, and what a :class:`Strategy` decides there.

Every place that lets computer players act on a :class:`~gongzhu.Round` (the
arena, :func:`~gongzhu.bots.play_deal`, the RL adapters, and the CLI table and
the web table) asks the same three questions: which seats owe a decision now,
what does a strategy choose for one of them, and how does a deal run to its end.
This module answers them once:

* :func:`awaiting`: the seats a decision is awaited from now, in the order
  they are asked (specification §9.1: the exposure decisions, under the rule set's
  order; the answers to a pending claim; the seat to play);
* :func:`decide`: the :class:`~gongzhu.Action` a strategy takes for one seat
  (it is not applied);
* :func:`decide_exposures`: every seat that owes its exposure decision makes
  it, in turn or sealed as the rule set says;
* :func:`play_out`: the deal played to its end, one strategy per seat,
  with a callback that sees every action (and the CPU time its decision took).

The contract, for the CLI and the web table that drive seats one at a time:

* a strategy only ever sees its own seat's :meth:`Round.view
  <gongzhu.Round.view>`; under ``exposure_order="simultaneous"`` that view is
  sealed (it shows no other seat's choice until every seat has decided,
  specification §9.2), so a seat may decide before or after the others' choices are
  applied and it decides the same;
* an empty exposure declines; bots never claim; a claim pending is answered
  by the strategy's ``accept_claim(view)`` when it has one (the search bot
  does), else accepted;
* :func:`decide` refuses a seat that owes nothing now
  (:class:`~gongzhu.SimulationError`); a strategy's illegal choice is refused
  by the round when the action is applied (:class:`~gongzhu.IllegalActionError`).

>>> from gongzhu import deal
>>> from gongzhu.bots import RuleOfThumbStrategy
>>> r = deal(seed=7)
>>> awaiting(r)                         # simultaneous exposure: every seat, from the leader
(2, 3, 0, 1)
>>> decide(r, 2, RuleOfThumbStrategy())
Exposure(seat=2, cards=CardSet(''), face_down=False, blind=False)
>>> end = play_out(r, [RuleOfThumbStrategy()] * 4)
>>> end.is_over, awaiting(end)
(True, ())
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from gongzhu._base.text import brief as _brief
from gongzhu.actions import Action, ClaimResponse, Exposure, Play
from gongzhu.cards import Card, CardSet
from gongzhu.errors import SimulationError, SimulationTypeError
from gongzhu.phase import Phase
from gongzhu.round import Round
from gongzhu.rules import ExposureOrder, RuleSet
from gongzhu.view import PlayerView

__all__ = [
    "Strategy",
    "awaiting",
    "decide",
    "decide_exposures",
    "decide_view",
    "play_out",
    "team_of",
]


@runtime_checkable
class Strategy(Protocol):
    """A computer player: it decides from its own :class:`~gongzhu.PlayerView` only.

    ``choose_play`` returns one card of ``legal`` (never empty when called);
    ``choose_exposure`` returns the exposable cards of its hand it exposes
    (an empty set to expose nothing). Implementations may keep state (a random
    generator), but must not rely on anything but the views they are given.

    >>> from gongzhu.bots import RandomStrategy
    >>> isinstance(RandomStrategy(seed=1), Strategy)
    True
    """

    def choose_play(self, view: PlayerView, legal: CardSet) -> Card:
        """The card to play; one of ``legal``."""
        ...

    def choose_exposure(self, view: PlayerView) -> CardSet:
        """The cards to expose before the first trick (possibly none)."""
        ...


OnAction = Callable[[Round, Action, float], None]
"""``on_action(round, action, seconds)``: called by :func:`play_out` with the round before
``action`` is applied and the CPU seconds (``time.process_time``) its decision took."""


def check_strategies(strategies: object, players: int) -> tuple[Strategy, ...]:
    """``strategies`` as a tuple of one :class:`Strategy` per seat, or a
    :class:`~gongzhu.SimulationError` saying what is wrong."""
    if isinstance(strategies, (str, bytes)) or not isinstance(strategies, Sequence):
        raise SimulationTypeError(
            f"strategies must be a sequence of strategies, one per seat;"
            f" got {type(strategies).__name__}"
        )
    # Counted as read, not by len(), which a sequence may get wrong; one more is enough.
    checked = tuple(itertools.islice(strategies, players + 1))
    if len(checked) != players:
        got = "more" if len(checked) > players else len(checked)
        raise SimulationError(f"need {players} strategies (one per seat), got {got}")
    for seat, strategy in enumerate(checked):
        if not (callable(getattr(strategy, "choose_play", None))
                and callable(getattr(strategy, "choose_exposure", None))):  # fmt: skip
            raise SimulationError(
                f"seat {seat}: {type(strategy).__name__} is not a Strategy"
                " (it needs choose_play and choose_exposure)"
            )
    return checked


def team_of(rules: RuleSet | str, seat: int) -> tuple[int, ...]:
    """The seats whose summed deal scores ``seat`` plays for: its team under the rule set's
    ``teams`` (pairs), else itself alone. Every bot maximises that sum against the others'.
    ``rules`` is a :class:`~gongzhu.RuleSet` or a preset's name.

    >>> from gongzhu import RuleSet
    >>> team_of(RuleSet(), 1), team_of(RuleSet(partnerships=True), 1), team_of("classic", 2)
    ((1,), (1, 3), (2,))
    """
    if isinstance(rules, str):
        rules = RuleSet.preset(rules)
    for team in rules.teams:
        if seat in team:
            return team
    return (seat,)


def awaiting(rnd: Round) -> tuple[int, ...]:
    """The seats a decision is awaited from now, in the order they are asked.

    During exposure: :attr:`Round.exposure_pending <gongzhu.Round.exposure_pending>`
    (the next seat from the leader under ``"in-turn"``, every undecided seat
    under ``"simultaneous"``). While a claim is pending: the seats that have not
    answered it, in seat order after the claimer. In card play: the seat to
    act. Empty once the deal is complete.
    """
    phase = rnd.phase
    if phase is Phase.PLAY:
        to_act = rnd.to_act
        return () if to_act is None else (to_act,)
    if phase is Phase.EXPOSURE:
        return rnd.exposure_pending
    if phase is Phase.CLAIM:
        pending = rnd.claim_pending
        assert pending is not None  # the phase says a claim is pending
        claimer, accepted = pending
        n = rnd.players
        return tuple(
            seat for seat in ((claimer + k) % n for k in range(1, n)) if seat not in accepted
        )
    return ()


def decide(rnd: Round, seat: int, strategy: Strategy) -> Action:
    """The action ``strategy`` takes for ``seat`` now, decided from ``rnd.view(seat)``.

    An :class:`~gongzhu.Exposure` while the seat owes its exposure decision, a
    :class:`~gongzhu.Play` when it is to play, a
    :class:`~gongzhu.ClaimResponse` while it owes an answer to a claim (see
    the module doc). The action is not applied: ``rnd.apply(action)`` does.
    """
    if seat not in awaiting(rnd):
        raise SimulationError(f"seat {_brief(seat)} has no decision to make now")
    return decide_view(rnd.view(seat), strategy)


def decide_view(view: PlayerView, strategy: Strategy) -> Action:
    """:func:`decide` from the view of a seat that owes a decision (checked by the
    caller): what a process that is given only that seat's view can decide (the web
    table's computers think in worker processes that never see the hidden hands)."""
    seat = view.seat
    if view.phase is Phase.EXPOSURE:
        return Exposure(seat, strategy.choose_exposure(view))
    if view.phase is Phase.CLAIM:
        answer = getattr(strategy, "accept_claim", None)
        return ClaimResponse(seat, bool(answer(view)) if callable(answer) else True)
    return Play(seat, strategy.choose_play(view, view.legal_plays))


def decide_exposures(
    rnd: Round,
    strategies: Sequence[Strategy | None],
    *,
    sealed: bool | None = None,
    on_action: OnAction | None = None,
) -> Round:
    """Every seat that owes its exposure decision and has a strategy makes it (specification §9.1).

    ``strategies`` holds one entry per seat; a ``None`` entry (a human, say)
    is left undecided. An empty choice is recorded too: it is the seat's
    decision to decline, and the first lead waits for every seat's.

    ``sealed`` (default: the rule set's ``exposure_order`` is
    ``"simultaneous"``): every waiting seat decides, in seat order, from the
    round as it is before anybody's choice is applied; then the choices are
    applied. Not sealed: the seats decide one after the other in the order of
    :attr:`Round.exposure_pending <gongzhu.Round.exposure_pending>` (from the
    leader), each choice applied before the next seat decides, so under
    ``"in-turn"`` each seat sees the earlier exposures. Under
    ``"simultaneous"`` both give the same round (the views are sealed, and the
    round records sealed decisions in its own order); only the order in which
    the strategies are asked differs. ``on_action`` is :func:`play_out`'s.
    """
    if rnd.phase is not Phase.EXPOSURE:
        return rnd
    if isinstance(strategies, (str, bytes)) or not isinstance(strategies, Sequence):
        raise SimulationError(f"strategies are one per seat, got {type(strategies).__name__}")
    if len(strategies) != rnd.players:
        raise SimulationError(f"need {rnd.players} strategies (None for a seat left out)")
    if sealed is None:
        sealed = rnd.rules.exposure_order is ExposureOrder.SIMULTANEOUS
    clock = time.process_time
    while True:
        pending = [s for s in rnd.exposure_pending if strategies[s] is not None]
        if not pending:
            return rnd
        # decide() without its second look at who is awaited (these seats are), and with
        # nobody watching, without the clock (reading CPU time is a system call) and the
        # action record when the choice is a plain CardSet (which the record would pass).
        chosen: list[tuple[int, CardSet | Exposure, float]] = []
        for seat in sorted(pending) if sealed else pending[:1]:
            strategy = strategies[seat]
            assert strategy is not None  # pending holds seats with a strategy only
            if on_action is None:
                cards = strategy.choose_exposure(rnd.view(seat))
                plain = cards.__class__ is CardSet
                chosen.append((seat, cards if plain else Exposure(seat, cards), 0.0))
            else:
                t0 = clock()
                exposure = decide_view(rnd.view(seat), strategy)
                assert isinstance(exposure, Exposure)  # the view is in the exposure phase
                chosen.append((seat, exposure, clock() - t0))
        for seat, choice, seconds in chosen:
            if isinstance(choice, CardSet):
                rnd = rnd.expose(choice, seat=seat)  # what rnd.apply(Exposure(seat, choice)) does
                continue
            if on_action is not None:
                on_action(rnd, choice, seconds)
            rnd = rnd.apply(choice)


def play_out(
    rnd: Round, strategies: Sequence[Strategy], on_action: OnAction | None = None
) -> Round:
    """``rnd`` played to its end, one strategy per seat; the complete round.

    Exposure first (:func:`decide_exposures`, sealed as the rule set says),
    then a pending claim is answered, then every seat to act plays the card
    its strategy picks from its own view. ``on_action(round, action, seconds)``,
    when given, sees each action before it is applied, with the CPU seconds
    its strategy spent deciding it (the arena's timing). A strategy's illegal
    choice raises the round's :class:`~gongzhu.IllegalActionError`.
    """
    checked = check_strategies(strategies, rnd.players)
    rnd = decide_exposures(rnd, checked, on_action=on_action)
    clock = time.process_time
    while not rnd.is_over:
        if on_action is None and rnd.phase is Phase.PLAY:
            # The common steps, cards with nobody watching: what decide() and apply() do,
            # without the Action object and the second look at who acts (a match of fast
            # bots spends a third of its time there). A card leads to card play or to the
            # end, never to a claim (only a claim does): the phase is not asked again.
            while True:
                seat = rnd.to_act
                assert seat is not None  # in card play a seat is always to act
                view = rnd.view(seat)
                rnd = rnd.play(checked[seat].choose_play(view, view.legal_plays), seat)
                if rnd.is_over:
                    return rnd
        seat = awaiting(rnd)[0]
        t0 = clock()
        action = decide(rnd, seat, checked[seat])
        if on_action is not None:
            on_action(rnd, action, clock() - t0)
        rnd = rnd.apply(action)
    return rnd
