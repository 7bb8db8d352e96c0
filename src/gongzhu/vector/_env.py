"""Gong Zhu as a Gymnasium vector environment on :class:`~gongzhu.vector.VectorDeal`.

``GongzhuVectorEnv(num_envs)`` is ``num_envs`` copies of the single-agent
``gongzhu/Gongzhu-v0`` (:mod:`gongzhu.adapters.gymnasium`) stepped as one
batch: the agent plays one seat, the other seats are played inside the batch
by the vectorised rule of thumb (or uniformly random cards). Observations are
the single environment's (``PlayerView.observation``), one row an environment;
``info["action_mask"]`` marks the legal action ids (int8, ``(num_envs,
NUM_ACTIONS)``: card ids 0-51; the deals start with exposure declined and
claims are not offered). The reward is the agent's deal score at the end of
its deal. An illegal action ends that environment's episode with
``illegal_reward`` (``info["illegal_action"]``). Finished environments reset
on the next step (Gymnasium's ``NEXT_STEP`` autoreset: that step's action is
ignored, its reward is 0).
"""

from __future__ import annotations

import numbers
from typing import Any, Final

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from gongzhu._base.finite import finite_float
from gongzhu._base.seeds import check_seed
from gongzhu._base.text import brief
from gongzhu.errors import ProtocolError, ProtocolTypeError
from gongzhu.protocol import NUM_ACTIONS, observation_size
from gongzhu.rules import RuleSet
from gongzhu.vector._checks import check_int_array, check_rules
from gongzhu.vector._engine import VectorDeal
from gongzhu.vector._playout import random_cards
from gongzhu.vector._policy import rule_of_thumb

__all__ = ["GongzhuVectorEnv"]

_BOUND = 64.0
MAX_ENVS: Final = 1 << 16
"""The most environments one ``GongzhuVectorEnv`` steps (65,536: the observations alone
take 2.5 KB an environment); more are refused before anything is allocated."""


def _whole(value: object, name: str, low: int, high: int) -> int:
    """An int argument (NumPy's too) from ``low`` to ``high``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ProtocolTypeError(f"{name} must be an int {low}-{high}, got {brief(value)}")
    if not low <= int(value) <= high:
        raise ProtocolError(f"{name} must be {low}-{high}, got {brief(value)}")
    return int(value)


def _seed(seed: object) -> int:
    """A reset seed: an int (NumPy's too) >= 0 of at most 80 digits, NumPy's seeds."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
        raise ProtocolTypeError(f"a seed is an integer or None, got {brief(seed)}")
    check_seed(int(seed), error=ProtocolError)
    if seed < 0:
        raise ProtocolError(f"a seed must be >= 0 (NumPy's seeds), got {brief(seed)}")
    return int(seed)


class GongzhuVectorEnv(gymnasium.vector.VectorEnv):  # type: ignore[misc,unused-ignore]
    """``num_envs`` deals of ``rules`` with the agent at ``seat``; ``opponents`` is
    ``"rule-of-thumb"`` (default) or ``"random"``, for every other seat.

    >>> import numpy as np
    >>> from gongzhu.vector import GongzhuVectorEnv
    >>> envs = GongzhuVectorEnv(num_envs=8)
    >>> obs, info = envs.reset(seed=1)
    >>> obs.shape, info["action_mask"].shape
    ((8, 643), (8, 137))
    >>> returns, finished = np.zeros(8), np.zeros(8, bool)
    >>> while not finished.all():    # a deal may end early (end_when_points_out)
    ...     actions = info["action_mask"].argmax(axis=1)      # the lowest legal card
    ...     obs, reward, terminated, truncated, info = envs.step(actions)
    ...     returns += np.where(finished, 0, reward)          # each env's first deal
    ...     finished |= terminated | truncated
    >>> bool((returns < 0).any())
    True

    ``gymnasium.make_vec("gongzhu/Gongzhu-v0", num_envs=...)`` builds this class
    (the id's vector entry point; ``vectorization_mode="sync"`` steps copies of
    the single environment instead, with its every option). The single
    environment's options that this one has not (``shaped_rewards``,
    ``information_state``, ``render_mode``, strategies as ``opponents``) are
    refused unless left at their defaults; ``num_envs`` is at most ``MAX_ENVS``
    (65,536). ``batch`` is the
    :class:`~gongzhu.vector.VectorDeal` of the current deals (a new one at each
    :meth:`reset`): ``rule_of_thumb(envs.batch)`` is the rule of thumb's card in
    the agent's seat. The action space is the library's ``NUM_ACTIONS`` ids, as
    the single environment's, so that a policy fits both; only the card ids
    0-51 are ever legal here (exposure is declined).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 (gymnasium's)

    def __init__(
        self,
        num_envs: int = 64,
        rules: RuleSet | str | None = None,
        seat: int = 0,
        opponents: str = "rule-of-thumb",
        *,
        illegal_reward: float = -1000.0,
        render_mode: None = None,
        shaped_rewards: bool = False,
        information_state: bool = False,
    ) -> None:
        self.rules = RuleSet() if rules is None else check_rules(rules)
        n = self.rules.players
        num_envs = _whole(num_envs, "num_envs", 1, MAX_ENVS)
        seat = _whole(seat, "seat", 0, n - 1)
        if not isinstance(opponents, str) or opponents not in ("rule-of-thumb", "random"):
            raise (ProtocolError if isinstance(opponents, str) else ProtocolTypeError)(
                f"opponents must be 'rule-of-thumb' or 'random', got {brief(opponents)}"
                " (strategies: gymnasium.make_vec(..., vectorization_mode='sync'))"
            )
        for name, value in (
            ("render_mode", render_mode), ("shaped_rewards", shaped_rewards),
            ("information_state", information_state),
        ):  # fmt: skip
            if value is not None and value is not False:
                raise ProtocolError(
                    f"the vector environment has no {name} (got {brief(value)}); the single"
                    " environment has: gymnasium.make_vec(..., vectorization_mode='sync')"
                )
        self.num_envs = num_envs
        self.seat = seat
        self.opponents = opponents
        self.illegal_reward = finite_float(
            illegal_reward, error=ProtocolError, type_error=ProtocolTypeError, what="illegal_reward"
        )
        size = observation_size(n)
        self.single_observation_space = spaces.Box(-_BOUND, _BOUND, (size,), np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rng = np.random.default_rng()
        self.batch = VectorDeal.random(self.rules, num_envs, self._rng)
        self._ended = np.zeros(num_envs, np.bool_)  # the episode ended at the last step

    def _opponents_play(self) -> None:
        """The other seats play until it is the agent's turn (or the deal is over)."""
        batch = self.batch
        while True:
            waiting = ~batch.is_over & (batch.to_act != self.seat)
            if not waiting.any():
                return
            if self.opponents == "random":
                cards = random_cards(batch.legal_bits(), self._rng)
            else:
                cards = rule_of_thumb(batch)
            batch.step(cards, where=waiting)

    def _observe(self) -> tuple[Any, dict[str, Any]]:
        obs = self.batch.observation(self.seat)
        mask = np.zeros((self.num_envs, NUM_ACTIONS), np.int8)
        mine = ~self.batch.is_over & (self.batch.to_act == self.seat)
        mask[:, :52] = self.batch.legal_mask() & mine[:, None]
        return obs, {"action_mask": mask, "_action_mask": np.ones(self.num_envs, np.bool_)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Fresh deals for every environment (from ``seed`` when given)."""
        if seed is not None:
            self._rng = np.random.default_rng(_seed(seed))
        self.batch = VectorDeal.random(self.rules, self.num_envs, self._rng)
        self._ended[:] = False
        self._opponents_play()
        return self._observe()

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        batch = self.batch
        acts = np.asarray(actions).reshape(-1)
        check_int_array(
            acts, (self.num_envs,), f"actions must be {self.num_envs} ints, got {acts.dtype}"
            f" {acts.shape}"
        )
        acts = acts.astype(np.int64)
        rewards = np.zeros(self.num_envs, np.float64)
        restart = self._ended.copy()
        if restart.any():  # NEXT_STEP autoreset: these rows start a new deal, action ignored
            batch.replace(restart, self._rng)
            self._ended[:] = False
        playing = ~restart & ~batch.is_over & (batch.to_act == self.seat)
        legal = batch.legal_bits()
        inside = (acts >= 0) & (acts < 52)
        ok = inside & ((legal >> np.where(inside, acts, 0).astype(np.uint64)) & np.uint64(1) != 0)
        illegal = playing & ~ok
        batch.step(np.where(ok, acts, 0), where=playing & ok)
        self._opponents_play()
        over = ~restart & (batch.is_over | illegal)
        finished = over & ~illegal
        if finished.any():
            rewards[finished] = batch.totals()[finished, self.seat]
        rewards[illegal] = self.illegal_reward
        self._ended = over
        obs, info = self._observe()
        if illegal.any():
            info["illegal_action"] = illegal
            info["_illegal_action"] = illegal.copy()
        return obs, rewards, over, np.zeros(self.num_envs, np.bool_), info
