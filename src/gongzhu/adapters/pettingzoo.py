"""Gong Zhu as a PettingZoo AEC environment: one agent per seat (needs the ``rl`` extra).

>>> from gongzhu.adapters.pettingzoo import env
>>> e = env(seed=None)
>>> e.reset(seed=7)
>>> for agent in e.agent_iter():
...     observation, reward, termination, truncation, info = e.last()
...     if termination or truncation:
...         action = None
...     else:
...         action = int(observation["action_mask"].nonzero()[0][0])   # the first legal id
...     e.step(action)
>>> sorted(e.unwrapped.round.score().totals) == sorted(e.unwrapped.final_totals)
True

Agents are ``"player_0"`` … (seat order). An observation is a dict:
``"observation"``, the seat's :meth:`PlayerView.observation
<gongzhu.PlayerView.observation>` (or :meth:`~gongzhu.PlayerView.information_state`
with ``information_state=True``) as float32, and ``"action_mask"``, 0/1 int8 over
the :data:`gongzhu.protocol.NUM_ACTIONS` action ids (all zero for a seat not
to act). Every seat first makes its exposure decision (when the rules play
exposure), then play goes as the rules say. Rewards are the deal's scores,
given when the deal ends; with ``shaped_rewards=True`` each change of the
running score (as trick captures happen) is given at once instead, summing to
the same totals.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from gongzhu.adapters import _driver
from gongzhu.ai.strategies import rules_of
from gongzhu.dealing import deal
from gongzhu.protocol import NUM_ACTIONS, information_state_size, observation_size
from gongzhu.round import Round
from gongzhu.rules import RuleSet

__all__ = ["GongzhuAEC", "env", "raw_env"]

_BOUND = 64.0  # observations are 0/1 flags, fractions and scores / 1000: all well inside


class GongzhuAEC(AECEnv):  # type: ignore[misc,unused-ignore]
    """One deal of Gong Zhu per episode; :func:`env` makes one."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "gongzhu_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        *,
        rules: RuleSet | str | None = None,
        render_mode: str | None = None,
        shaped_rewards: bool = False,
        information_state: bool = False,
        seed: int | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.rules = rules_of(rules)
        self.render_mode = render_mode
        self.shaped_rewards = shaped_rewards
        self.information_state = information_state
        n = self.rules.players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agents = self.possible_agents[:]
        size = information_state_size(n) if information_state else observation_size(n)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-_BOUND, _BOUND, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._seats = {a: s for s, a in enumerate(self.possible_agents)}
        self._rewarded = False
        self._seeds = random.Random(seed)
        self.round: Round = deal(rules=self.rules, seed=0)
        self.final_totals: tuple[int, ...] | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new deal: ``deal(rules, seed=seed)`` when seeded, so a seed is a deal."""
        seed = _driver.seed_int(seed)
        if seed is not None:
            self._seeds = random.Random(seed)
            deal_seed = seed
        else:
            deal_seed = self._seeds.getrandbits(48)
        self.round = deal(rules=self.rules, seed=deal_seed)
        self.final_totals = None
        self._paid = (0,) * self.rules.players
        self._rewarded = False
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        seat = _driver.actor(self.round)
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seats[agent]
        view = self.round.view(seat)
        vector = view.information_state() if self.information_state else view.observation()
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if agent == self.agent_selection and not self.terminations[agent]:
            mask[_driver.legal_ids(self.round, seat)] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seats[agent]
        # Refused before anything changes: a bad step leaves the env as it was (#22 item 19).
        rnd = _driver.step(self.round, seat, _driver.action_int(action))
        self.round = rnd
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # the hot path skips the dict work when nobody was paid
            for a in self.rewards:
                self.rewards[a] = 0.0
            self._rewarded = False
        complete = rnd.is_over
        if complete or (self.shaped_rewards and not rnd.current_trick.cards):
            totals = _driver.running_totals(rnd)
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] = float(totals[s] - self._paid[s])
            self._paid = totals
            self._rewarded = True
        if complete:
            self.final_totals = rnd.score().totals
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[(seat + 1) % len(self.possible_agents)]
        else:
            nxt = _driver.actor(rnd)
            assert nxt is not None
            self.agent_selection = self.possible_agents[nxt]
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text: returned under ``render_mode="ansi"``, printed under ``"human"``."""
        if self.render_mode is None:
            return None
        text = _driver.render(self.round, self.possible_agents)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(
    *, rules: RuleSet | str | None = None, render_mode: str | None = None, **kwargs: Any
) -> GongzhuAEC:
    """The environment without PettingZoo's wrappers."""
    return GongzhuAEC(rules=rules, render_mode=render_mode, **kwargs)


def env(
    *, rules: RuleSet | str | None = None, render_mode: str | None = None, **kwargs: Any
) -> Any:
    """The AEC environment, wrapped in PettingZoo's order-enforcing wrapper.

    ``rules``: a :class:`~gongzhu.RuleSet` or a preset name (default: classic);
    keywords: ``shaped_rewards``, ``information_state``, ``seed`` (of the deal
    seeds used by unseeded resets).
    """
    return wrappers.OrderEnforcingWrapper(raw_env(rules=rules, render_mode=render_mode, **kwargs))
