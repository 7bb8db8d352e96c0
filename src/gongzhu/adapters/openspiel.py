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
seen at random, consistent with everything it knows (its own cards, the cards
played, face-up exposures, cards shown by a claim, the suits a seat has shown
it is void in), and replays the history: OpenSpiel's IS-MCTS works on it.
"""

from __future__ import annotations

import random
from typing import Any, Final

import attrs
import numpy as np
import pyspiel

from gongzhu.actions import Claim, Exposure
from gongzhu.adapters import _driver
from gongzhu.cards import Card, CardSet
from gongzhu.dealing import deal
from gongzhu.errors import GongzhuError
from gongzhu.phase import Phase
from gongzhu.protocol import (
    NUM_ACTIONS,
    action_id,
    describe_action,
    information_state_size,
    observation_size,
)
from gongzhu.round import Round
from gongzhu.rules import ExposureOrder, RuleSet

__all__ = [
    "GongzhuGame",
    "GongzhuState",
    "deal_actions",
    "parameters_of",
    "rules_from_parameters",
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


def parameters_of(rules: RuleSet) -> dict[str, Any]:
    """The game parameters for ``rules`` (``pyspiel.load_game("python_gongzhu", ...)``)."""
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
            options[name] = [int(v) for v in str(value).replace(",", " ").split()]
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

    # -- the pyspiel.State protocol ----------------------------------------------------

    def current_player(self) -> int:
        rnd = self.round
        if rnd is None:
            return int(pyspiel.PlayerId.CHANCE)
        if rnd.is_complete:
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
                self.round = Round.from_hands(hands, self.rules)
            return
        seat = self.current_player()
        self.round = _driver.step(self.round, seat, int(action))
        self._moves.append((seat, int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card.from_index(action).code}"
        return describe_action(action)

    def is_terminal(self) -> bool:
        return self.round is not None and self.round.is_complete

    def returns(self) -> list[float]:
        if self.round is None or not self.round.is_complete:
            return [0.0] * self.rules.players
        return [float(t) for t in self.round.score().totals]

    def __str__(self) -> str:
        if self.round is None:
            return f"dealing: {len(self._dealt)} of {self._deck} cards"
        return _driver.render(self.round)

    # -- imperfect information ------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GongzhuState:
        """A state ``player_id`` cannot tell from this one, the unseen cards dealt at random."""
        rnd = self.round
        if rnd is None:
            return self.clone()  # type: ignore[no-any-return]
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        for _ in range(200):
            world = self._sample_world(rnd, player_id, rng)
            if world is not None:
                return world
        return self.clone()  # type: ignore[no-any-return]  # every sample failed: rare

    def _sample_world(self, rnd: Round, me: int, rng: random.Random) -> GongzhuState | None:
        n = self.rules.players
        view = rnd.view(me)
        known = [0] * n  # cards each seat is known to hold or to have held
        for trick in (*rnd.tricks, rnd.current_trick):
            for s, c in zip(trick.seats, trick.cards, strict=True):
                known[s] |= c.mask
        for s in range(n):
            known[s] |= rnd.exposures[s].mask
        for action in rnd.history:
            if isinstance(action, Claim):  # the claimer's hand was shown
                known[action.seat] |= rnd.shown.mask & sum(c.mask for c in rnd.dealt[action.seat])
        # The first leader is public, and it holds the opening card (Round.from_hands).
        first_leader = rnd.tricks[0].leader if rnd.tricks else rnd.leader
        known[first_leader] |= self.rules.opening_card.mask
        mine = sum(c.mask for c in rnd.dealt[me])
        known[me] = mine
        taken = 0
        for m in known:
            taken |= m
        unseen = [c for c in self.rules.deck if not taken & c.mask]
        need = [len(rnd.dealt[s]) - known[s].bit_count() for s in range(n)]
        voids = view.known_voids
        rng.shuffle(unseen)
        hands = list(known)
        for c in unseen:
            seats = [s for s in range(n) if need[s] > 0 and c.suit not in voids[s]]
            if not seats:
                return None
            s = rng.choice(seats)
            hands[s] |= c.mask
            need[s] -= 1
        # Other seats' face-down declarations: any exposable cards of their sampled hands.
        swap: dict[int, int] = {}
        for k, action in enumerate(rnd.history):
            if isinstance(action, Exposure) and action.face_down and action.seat != me:
                # The face-up part of a mixed decision is known; only the face-down part
                # is sampled (RULES.md §9.1, §9.3).
                up = action.face_up
                hidden = len(action.face_down_cards)
                pool = [
                    c
                    for c in CardSet.from_mask(hands[action.seat] & self.rules.exposable.mask)
                    if c not in rnd.exposed and c not in up
                ]
                if len(pool) < hidden:
                    return None
                chosen = CardSet(rng.sample(pool, hidden))
                swap[k] = action_id(Exposure(action.seat, up | chosen, chosen if up else True))
        state = GongzhuState(self.get_game())
        order = [[c.index for c in rnd.dealt[me]] if s == me else [] for s in range(n)]
        for s in range(n):
            if s != me:
                order[s] = [c.index for c in CardSet.from_mask(hands[s])]
                rng.shuffle(order[s])
        for k in range(len(rnd.dealt[0])):
            for s in range(n):
                state.apply_action(order[s][k])
        try:
            for k, action in enumerate(rnd.history):
                state.apply_action(swap.get(k, action_id(action)))
        except (GongzhuError, pyspiel.SpielError):
            return None  # a play the sampled hands do not allow (held-back rules, hearts)
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
        return self.current_player() if player is None else int(player)


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
        sealed = (
            self.rules.exposure_order is ExposureOrder.SIMULTANEOUS
            and rnd.phase is Phase.EXPOSURE
            and len(rnd.exposure_decided) < n
        )
        parts = [f"p{player} dealt {' '.join(c.code for c in rnd.dealt[player])}"]
        for action in rnd.history:
            if isinstance(action, Exposure) and action.seat != player:
                if sealed:  # RULES.md §9.2: neither kind shows before every seat decides
                    parts.append(f"{action.seat}:decided")
                elif action.face_down:  # the face-up part shows, the face-down count only
                    up = action.face_up
                    shown = f"expose {up.code} " if up else ""
                    parts.append(f"{action.seat}:{shown}down{len(action.face_down_cards)}")
                else:
                    parts.append(f"{action.seat}:expose {action.cards.code or '-'}")
            else:
                parts.append(f"{action.seat}:{describe_action(action_id(action))}")
        return " | ".join(parts)


def deal_actions(game: GongzhuGame, seed: int | str) -> list[int]:
    """The chance actions that deal what ``gongzhu.deal(rules, seed=seed)`` deals."""
    dealt = deal(game.rules, seed=seed).dealt
    return [dealt[s][k].index for k in range(len(dealt[0])) for s in range(len(dealt))]


pyspiel.register_game(_GAME_TYPE, GongzhuGame)
