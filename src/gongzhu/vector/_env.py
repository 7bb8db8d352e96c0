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
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from gongzhu.ai.strategies import rules_of
from gongzhu.errors import ProtocolError
from gongzhu.protocol import NUM_ACTIONS, observation_size
from gongzhu.rules import RuleSet
from gongzhu.vector._engine import VectorDeal
from gongzhu.vector._playout import random_cards
from gongzhu.vector._policy import rule_of_thumb

__all__ = ["GongzhuVectorEnv"]

_BOUND = 64.0


class GongzhuVectorEnv(gymnasium.vector.VectorEnv):  # type: ignore[misc,unused-ignore]
    """``num_envs`` deals of ``rules`` with the agent at ``seat``; ``opponents`` is
    ``"rule-of-thumb"`` (default) or ``"random"``, for every other seat.

    >>> import numpy as np
    >>> from gongzhu.vector import GongzhuVectorEnv
    >>> envs = GongzhuVectorEnv(num_envs=8)
    >>> obs, info = envs.reset(seed=1)
    >>> obs.shape, info["action_mask"].shape
    ((8, 643), (8, 137))
    >>> returns = np.zeros(8)
    >>> for _ in range(13):      # 13 tricks: every deal ends on the 13th step
    ...     actions = info["action_mask"].argmax(axis=1)      # the lowest legal card
    ...     obs, reward, terminated, truncated, info = envs.step(actions)
    ...     returns += reward
    >>> bool(terminated.all())
    True
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
    ) -> None:
        self.rules = rules_of(rules)
        n = self.rules.players
        if type(num_envs) is not int or num_envs < 1:
            raise ProtocolError(f"num_envs must be a positive int, got {num_envs!r}")
        if type(seat) is not int or not 0 <= seat < n:
            raise ProtocolError(f"seat must be 0-{n - 1}, got {seat!r}")
        if opponents not in ("rule-of-thumb", "random"):
            raise ProtocolError(f"opponents must be 'rule-of-thumb' or 'random', got {opponents!r}")
        self.num_envs = num_envs
        self.seat = seat
        self.opponents = opponents
        self.illegal_reward = float(illegal_reward)
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
            waiting = ~batch.done & (batch.to_act != self.seat)
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
        mine = ~self.batch.done & (self.batch.to_act == self.seat)
        mask[:, :52] = self.batch.legal_mask() & mine[:, None]
        return obs, {"action_mask": mask, "_action_mask": np.ones(self.num_envs, np.bool_)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Fresh deals for every environment (from ``seed`` when given)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
                raise ProtocolError(f"a seed is an integer or None, got {type(seed).__name__}")
            self._rng = np.random.default_rng(int(seed))
        self.batch = VectorDeal.random(self.rules, self.num_envs, self._rng)
        self._ended[:] = False
        self._opponents_play()
        return self._observe()

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        batch = self.batch
        acts = np.asarray(actions).reshape(-1)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise ProtocolError(
                f"actions must be {self.num_envs} ints, got {acts.dtype} {acts.shape}"
            )
        acts = acts.astype(np.int64)
        rewards = np.zeros(self.num_envs, np.float64)
        restart = self._ended.copy()
        if restart.any():  # NEXT_STEP autoreset: these rows start a new deal, action ignored
            batch.replace(restart, self._rng)
            self._ended[:] = False
        playing = ~restart & ~batch.done & (batch.to_act == self.seat)
        legal = batch.legal_bits()
        inside = (acts >= 0) & (acts < 52)
        ok = inside & ((legal >> np.where(inside, acts, 0).astype(np.uint64)) & np.uint64(1) != 0)
        illegal = playing & ~ok
        batch.step(np.where(ok, acts, 0), where=playing & ok)
        self._opponents_play()
        over = ~restart & (batch.done | illegal)
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
