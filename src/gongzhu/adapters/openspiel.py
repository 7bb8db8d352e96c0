"""Gong Zhu as the OpenSpiel game ``python_gongzhu`` (needs the ``rl`` extra's ``open_spiel``).

Importing this module registers the game. Its parameters are the rule options
(:class:`~gongzhu.RuleSet`'s fields, with the defaults of the classic rules;
:func:`parameters_of` converts a rule set): ``heart_values`` as ints separated
by spaces, 0 for a ``loss_threshold``, ``win_threshold`` or ``max_deals`` of
None, ``NAME_is_none=True`` for another optional int option (``all_hearts_value``
…) of None, and ``grand_slam`` as the int 16 or 15. The deal is dealt by chance nodes, one card
at a time round the table (card ``k`` to seat ``k % players``); then every
seat decides on exposure and play goes on as in :mod:`gongzhu.adapters.pettingzoo`
(the same action ids).

>>> import pyspiel
>>> import gongzhu.adapters.openspiel as gz
>>> game = pyspiel.load_game("python_gongzhu", {"claims": False})
>>> state = game.new_initial_state()
>>> for action in gz.deal_actions(game, seed=7):      # the deal of gongzhu.deal(seed=7)
...     state.apply_action(action)
>>> while not state.is_terminal():
...     state.apply_action(state.legal_actions()[0])
>>> from gongzhu import deal
>>> state.round.dealt == deal(seed=7).dealt, state.returns() == list(state.round.score().totals)
(True, True)

:meth:`GongzhuState.resample_from_infostate` deals the cards a seat has not
seen at random, consistent with everything its view shows (its own cards, the
cards played, face-up exposures and face-down counts once public, cards shown
by a claim, the suits a seat has shown it is void in), with the library's one
sampler, and replays the history: OpenSpiel's IS-MCTS works on it. A sealed
exposure decision of another seat is never read: the world gets the library
bot's decision for its sampled hand instead.

OpenSpiel's own ``serialize_game_and_state`` text of a Python game carries a
pickle, which ``deserialize_game_and_state`` loads: :func:`state_to_text` and
:func:`state_from_text` write and read the rules and the action list instead,
every action checked.
"""

from __future__ import annotations

import json
import random
from typing import Any, Final

import attrs
import numpy as np
import pyspiel

from gongzhu._base.text import brief
from gongzhu._codec import wire as _wire
from gongzhu.actions import Claim, Exposure
from gongzhu.adapters import _driver
from gongzhu.ai.registry import make_strategy
from gongzhu.ai.strategies import rules_of
from gongzhu.ai.worlds import Worlds
from gongzhu.cards import Card, CardSet
from gongzhu.dealing import deal
from gongzhu.errors import (
    GongzhuError,
    ProtocolError,
    ProtocolTypeError,
    RuleSetError,
    SimulationError,
)
from gongzhu.phase import Phase
from gongzhu.protocol import (
    NUM_ACTIONS,
    action_id,
    describe_action,
    information_state_size,
    observation_size,
)
from gongzhu.record import parse_json
from gongzhu.round import Round
from gongzhu.rules import ExposureOrder, RuleSet

__all__ = [
    "GongzhuGame",
    "GongzhuState",
    "deal_actions",
    "parameters_of",
    "rules_from_parameters",
    "state_from_text",
    "state_to_text",
]

_DEFAULTS: Final = RuleSet().to_dict()
# OpenSpiel parameters are ints, floats, bools or text, and a game string reads text that
# looks like a number back as a number. So None is 0 for the thresholds (0 is never valid
# there) and, for the other optional ints, a bool parameter NAME_is_none beside NAME.
_ZERO_IS_NONE: Final = ("loss_threshold", "win_threshold", "max_deals")
_NONE_FLAGGED: Final = tuple(
    f.name
    for f in attrs.fields(RuleSet)
    if f.metadata.get("optional") and f.metadata.get("type") is int and f.name not in _ZERO_IS_NONE
)
# Options whose text values are numbers (grand_slam: "16" or "15") are int parameters.
_NUMERIC_TEXT: Final = frozenset(
    name for name, v in _DEFAULTS.items() if isinstance(v, str) and v.lstrip("-").isdigit()
)


def _parameter(name: str, value: Any) -> Any:
    if name in _ZERO_IS_NONE or name in _NONE_FLAGGED:
        return 0 if value is None else value
    if isinstance(value, list):
        return " ".join(str(v) for v in value)  # a comma would split the game string
    if name in _NUMERIC_TEXT:
        return int(value)
    return value


def parameters_of(rules: RuleSet | str) -> dict[str, Any]:
    """The game parameters for ``rules``, a :class:`~gongzhu.RuleSet` or a preset's name
    (``pyspiel.load_game("python_gongzhu", parameters_of("online"))``)."""
    rules = rules_of(rules)
    params = {name: _parameter(name, v) for name, v in rules.to_dict().items()}
    for name in _NONE_FLAGGED:
        params[f"{name}_is_none"] = getattr(rules, name) is None
    return params


_PARAMETERS: Final = parameters_of(RuleSet())


def rules_from_parameters(params: dict[str, Any]) -> RuleSet:
    """The :class:`~gongzhu.RuleSet` that a game's parameters describe."""
    options: dict[str, Any] = {}
    flags = {f"{name}_is_none": name for name in _NONE_FLAGGED}
    for name, value in params.items():
        if name in _ZERO_IS_NONE:
            options[name] = None if value == 0 else value
        elif name == "heart_values":
            parts = str(value).replace(",", " ").split()
            if not all(p.lstrip("-").isdigit() and len(p) < 20 for p in parts):
                raise RuleSetError(f"heart_values: ints separated by spaces, got {brief(value)}")
            options[name] = [int(v) for v in parts]
        elif name in _NUMERIC_TEXT:
            options[name] = str(value)
        elif name not in flags:
            options[name] = value
    for flag, name in flags.items():
        if params.get(flag):
            options[name] = None
    return RuleSet.from_dict(options)


_GAME_TYPE: Final = pyspiel.GameType(
    short_name="python_gongzhu",
    long_name="Python Gong Zhu (Chase the Pig)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


def _utility_bound(rules: RuleSet) -> float:
    # Generous: every scoring line at its largest, times the largest exposure factors.
    hearts = sum(abs(v) for v in rules.heart_values) + abs(rules.all_hearts_value or 0)
    cards = abs(rules.pig_value) + 2 * abs(rules.sheep_value) + abs(rules.transformer_bonus)
    cards += abs(rules.exposed_sheep_value or 0)
    lines = hearts + cards + abs(rules.grand_slam_value)
    return float(64 * lines + 52 * abs(rules.queen_of_diamonds_bonus))


class GongzhuGame(pyspiel.Game):  # type: ignore[misc,unused-ignore]
    """``pyspiel.load_game("python_gongzhu", {option: value, ...})``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        self.rules = rules_from_parameters({**_PARAMETERS, **given})
        n = self.rules.players
        bound = _utility_bound(self.rules)
        claims = (52 // n) * n * n if self.rules.claims else 0
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=n,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=len(self.rules.deck) + n + claims,
        )
        super().__init__(_GAME_TYPE, info, params or {})

    def new_initial_state(self) -> GongzhuState:
        return GongzhuState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(self.rules, perfect_recall)


class GongzhuState(pyspiel.State):  # type: ignore[misc,unused-ignore]
    """A deal in progress: the chance actions so far, then a :class:`~gongzhu.Round`."""

    def __init__(self, game: GongzhuGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self._deck = len(self.rules.deck)
        self._dealt: list[int] = []
        self._moves: list[tuple[int, int]] = []  # (seat, action id) after the deal
        self.round: Round | None = None
        self._first_leader = -1

    # -- the pyspiel.State protocol ----------------------------------------------------

    def current_player(self) -> int:
        rnd = self.round
        if rnd is None:
            return int(pyspiel.PlayerId.CHANCE)
        if rnd.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = _driver.actor(rnd)
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self.round is not None
        return _driver.legal_ids(self.round, player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [c.index for c in self.rules.deck if c.index not in self._dealt]
        p = 1.0 / len(left)
        return [(i, p) for i in left]

    def _apply_action(self, action: int) -> None:
        if self.round is None:
            self._dealt.append(int(action))
            if len(self._dealt) == self._deck:
                n = self.rules.players
                hands = [[Card.from_index(i) for i in self._dealt[s::n]] for s in range(n)]
                self.round = Round.from_hands(hands, rules=self.rules)
                self._first_leader = self.round.leader
            return
        seat = self.current_player()
        self.round = _driver.step(self.round, seat, int(action))
        self._moves.append((seat, int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card.from_index(action).code}"
        return describe_action(action)

    def is_terminal(self) -> bool:
        return self.round is not None and self.round.is_over

    def returns(self) -> list[float]:
        if self.round is None or not self.round.is_over:
            return [0.0] * self.rules.players
        return [float(t) for t in self.round.score().totals]

    def __str__(self) -> str:
        if self.round is None:
            return f"dealing: {len(self._dealt)} of {self._deck} cards"
        return _driver.render(self.round)

    # -- imperfect information ------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GongzhuState:
        """A state ``player_id`` cannot tell from this one, the unseen cards dealt at random.

        It depends only on what the seat's :class:`~gongzhu.PlayerView` shows (#22
        item 5): the hidden cards come from the library's one sampler
        (:class:`gongzhu.ai.Worlds`, uniform over the deals that fit the view, told
        the hands that claimers showed), with its face-down cards; another seat's
        exposure decision still sealed (simultaneous exposure) is replaced by the
        library's rule-of-thumb decision for the sampled hand.
        """
        me = self._player(player_id)
        rng = random.Random(_sampler_seed(probability_sampler))
        rnd = self.round
        if rnd is None:
            return self._resample_dealing(me, rng)
        # Whose hand each shown card was in is public (everyone saw the claimer show it);
        # the view keeps only their union, so the sampler is told the claimers' hands.
        played = [
            sum(c.mask for c in rnd.dealt[s]) & ~rnd.hands[s].mask for s in range(rnd.players)
        ]
        out = 0
        for p in played:
            out |= p
        claimed: dict[int, CardSet] = {}
        for action in rnd.history:
            if isinstance(action, Claim) and action.seat != me:
                c = action.seat
                dealt_c = sum(card.mask for card in rnd.dealt[c])
                claimed[c] = CardSet.from_mask(rnd.shown.mask & dealt_c & ~out)
        worlds = Worlds(rnd.view(me), known=claimed)
        for _ in range(_RESAMPLE_TRIES):
            world = self._sample_world(rnd, me, worlds, played, rng)
            if world is not None:
                return world
        raise SimulationError(
            f"no deal consistent with seat {me}'s view was found in {_RESAMPLE_TRIES} tries"
        )

    def _resample_dealing(self, me: int, rng: random.Random) -> GongzhuState:
        """While dealing: the seat's own cards where they fell, the others' cards at random."""
        n = self.rules.players
        mine = {i for k, i in enumerate(self._dealt) if k % n == me}
        rest = [c.index for c in self.rules.deck if c.index not in mine]
        rng.shuffle(rest)
        state = GongzhuState(self.get_game())
        for k, i in enumerate(self._dealt):
            state.apply_action(i if k % n == me else rest.pop())
        return state

    def _sample_world(
        self, rnd: Round, me: int, worlds: Worlds, played: list[int], rng: random.Random
    ) -> GongzhuState | None:
        n = self.rules.players
        sampled = worlds.sample(rng)
        hands = [h.mask for h in sampled.hands]
        facedown = sampled.face_down.mask
        dealt = [h | p for h, p in zip(hands, played, strict=True)]
        dealt[me] = sum(c.mask for c in rnd.dealt[me])
        if any(d.bit_count() != len(rnd.dealt[s]) for s, d in enumerate(dealt)):
            return None
        state = GongzhuState(self.get_game())
        order = [[c.index for c in rnd.dealt[me]] if s == me else [] for s in range(n)]
        for s in range(n):
            if s != me:
                order[s] = [c.index for c in CardSet.from_mask(dealt[s])]
                rng.shuffle(order[s])
        for k in range(len(rnd.dealt[0])):
            for s in range(n):
                state.apply_action(order[s][k])
        assert state.round is not None
        if state.round.leader != self._first_leader:
            return None  # the first leader is public: it holds the opening card
        sealed = _sealed(rnd, me)
        model = make_strategy("rule-of-thumb")
        try:
            for action in rnd.history:
                if isinstance(action, Exposure) and action.seat != me:
                    s = action.seat
                    assert state.round is not None
                    if sealed:  # what it decided is not known yet: the model decides
                        cards = model.choose_exposure(state.round.view(s))
                        action = Exposure(s, cards)
                    elif action.face_down_cards:  # known: how many; drawn: which
                        down = CardSet.from_mask(facedown & dealt[s])
                        if len(down) != len(action.face_down_cards):
                            return None
                        up = action.face_up
                        action = Exposure(s, up | down, down if up else True, action.blind)
                state.apply_action(action_id(action))
        except (GongzhuError, pyspiel.SpielError):
            return None  # a play the sampled hands do not allow (held-back rules, hearts)
        assert state.round is not None
        if state.round.view(me) != worlds.view:
            return None  # the seat could tell this world from its own (a claim's shown cards)
        return state

    def information_state_string(self, player: int | None = None) -> str:
        return _Observer(self.rules, True).string_from(self, self._player(player))

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        observer = _Observer(self.rules, True)
        observer.set_from(self, self._player(player))
        return list(observer.tensor)

    def observation_string(self, player: int | None = None) -> str:
        return _Observer(self.rules, False).string_from(self, self._player(player))

    def observation_tensor(self, player: int | None = None) -> list[float]:
        observer = _Observer(self.rules, False)
        observer.set_from(self, self._player(player))
        return list(observer.tensor)

    def _player(self, player: int | None) -> int:
        if player is None:
            player = self.current_player()
        if isinstance(player, (bool, np.bool_)) or not isinstance(player, (int, np.integer)):
            raise ProtocolTypeError(f"a player is an int, got {brief(player)}")
        if not 0 <= player < self.rules.players:
            raise ProtocolError(f"player must be 0-{self.rules.players - 1}, got {brief(player)}")
        return int(player)


class _Observer:
    """OpenSpiel's observer protocol: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, rules: RuleSet, perfect_recall: bool) -> None:
        self.rules = rules
        self.perfect_recall = perfect_recall
        n = rules.players
        size = information_state_size(n) if perfect_recall else observation_size(n)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: GongzhuState, player: int) -> None:
        rnd = state.round
        if rnd is None:
            self.tensor.fill(0)
            mine = state._dealt[player :: self.rules.players]
            self.tensor[list(mine)] = 1.0  # the hand block comes first
            return
        view = rnd.view(player)
        values = view.information_state() if self.perfect_recall else view.observation()
        self.tensor[:] = values

    def string_from(self, state: GongzhuState, player: int) -> str:
        n = self.rules.players
        rnd = state.round
        if rnd is None:
            mine = CardSet(Card.from_index(i) for i in state._dealt[player::n])
            return f"p{player} dealing {len(state._dealt)}: {mine.code}"
        if not self.perfect_recall:
            view = rnd.view(player)
            trick = " ".join(f"{s}:{c.code}" for s, c in zip(view.current_trick.seats,
                             view.current_trick.cards, strict=True))  # fmt: skip
            return (
                f"p{player} {view.phase.value} hand {view.hand.code} | trick {trick} | "
                f"exposed {[e.code for e in view.exposures]} down {list(view.face_down_counts)}"
                f" | taken {[c.code for c in view.captured_points]} | shown {view.shown.code}"
                f" | to act {_driver.actor(rnd)}"
            )
        # Perfect recall: the seat's own dealt cards, then every action as it may know it.
        # A sealed decision (simultaneous exposure, specification §9.2) shows nothing of itself,
        # not even whether it was face down (#22 item 5).
        sealed = _sealed(rnd, player)
        parts = [f"p{player} dealt {' '.join(c.code for c in rnd.dealt[player])}"]
        for action in rnd.history:
            if isinstance(action, Exposure) and action.seat != player:
                k = len(action.face_down_cards)
                if sealed:
                    parts.append(f"{action.seat}:decided")
                elif k and not action.face_up:
                    parts.append(f"{action.seat}:down{k}")
                else:
                    down = f" down{k}" if k else ""
                    parts.append(f"{action.seat}:expose {action.face_up.code or '-'}{down}")
            else:
                parts.append(f"{action.seat}:{describe_action(action_id(action))}")
        return " | ".join(parts)


_RESAMPLE_TRIES: Final = 500


def _sealed(rnd: Round, seat: int) -> bool:
    """True while the other seats' exposure decisions are sealed for ``seat``."""
    return (
        rnd.rules.exposure_order is ExposureOrder.SIMULTANEOUS
        and rnd.phase is Phase.EXPOSURE
        and len(rnd.exposure_decided) < rnd.players
    )


def _sampler_seed(probability_sampler: Any) -> int:
    """A seed from OpenSpiel's sampler: one float in [0, 1], refused typed otherwise."""
    if not callable(probability_sampler):
        raise ProtocolTypeError(
            f"probability_sampler must be callable, got {type(probability_sampler).__name__}"
        )
    value = probability_sampler()
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (int, float, np.integer, np.floating)
    ):
        raise ProtocolTypeError(f"the sampler must return a number in [0, 1], got {brief(value)}")
    x = float(value)
    if not 0.0 <= x <= 1.0:  # NaN fails this too
        raise ProtocolError(f"the sampler must return a number in [0, 1], got {brief(value)}")
    return int(x * 2**53)


_MAX_STATE_TEXT: Final = 64 * 1024


def state_to_text(state: GongzhuState) -> str:
    """``state`` as JSON text: its game's parameters and its action list (no pickle).

    :func:`state_from_text` reads it back by replaying the actions, each checked
    by the engine. Use this pair, not ``pyspiel.serialize_game_and_state``, for
    state strings that cross a trust boundary: OpenSpiel's own deserialiser runs
    ``pickle.loads`` on them (see the docs page "Agents and clients").

    >>> import pyspiel
    >>> game = pyspiel.load_game("python_gongzhu", {"claims": False})
    >>> s = game.new_initial_state()
    >>> for action in deal_actions(game, seed=3)[:10]:
    ...     s.apply_action(action)
    >>> str(state_from_text(state_to_text(s))) == str(s)
    True
    """
    if not isinstance(state, GongzhuState):
        raise ProtocolTypeError(f"a GongzhuState, got {type(state).__name__}")
    actions = [*state._dealt, *(a for _seat, a in state._moves)]
    return json.dumps({"format": "gongzhu-openspiel-state", "version": 1,
                       "rules": state.rules.to_dict(), "actions": actions})  # fmt: skip


def state_from_text(text: str) -> GongzhuState:
    """The state :func:`state_to_text` wrote: the rules read, every action replayed and checked.

    Anything else is a :class:`~gongzhu.errors.ProtocolError` (or the engine's
    typed error for an action that is not legal there).
    """
    if not isinstance(text, str) or len(text) > _MAX_STATE_TEXT:
        error = ProtocolError if isinstance(text, str) else ProtocolTypeError
        raise error(f"a state text is a str of at most {_MAX_STATE_TEXT} characters")
    try:
        data = parse_json(text)
    except GongzhuError as exc:
        raise ProtocolError(str(exc)) from None
    d = _wire.obj(data, "", ("format", "version", "rules", "actions"))
    if d["format"] != "gongzhu-openspiel-state" or d["version"] != 1:
        _wire.fail("expected format 'gongzhu-openspiel-state', version 1", "format")
    rules = _wire.rules(d["rules"], "rules")
    actions = _wire.seq(d["actions"], "actions", 2000)
    try:
        game = pyspiel.load_game("python_gongzhu", parameters_of(rules))
    except (RuntimeError, pyspiel.SpielError, OverflowError) as exc:  # ints C++ cannot hold
        raise ProtocolError(f"OpenSpiel cannot load these rules: {brief(str(exc))}") from None
    state: GongzhuState = game.new_initial_state()
    for k, action in enumerate(actions):
        where = f"actions[{k}]"
        action = _wire.integer(action, where, 0, NUM_ACTIONS - 1)
        if state.is_terminal():
            _wire.fail("the deal is over before this action", where)
        if action not in state.legal_actions():
            _wire.fail(f"action {action} is not legal here", where)
        state.apply_action(action)
    return state


def deal_actions(game: GongzhuGame, seed: int | str) -> list[int]:
    """The chance actions that deal what ``gongzhu.deal(rules, seed=seed)`` deals."""
    dealt = deal(rules=game.rules, seed=seed).dealt
    return [dealt[s][k].index for k in range(len(dealt[0])) for s in range(len(dealt))]


pyspiel.register_game(_GAME_TYPE, GongzhuGame)
