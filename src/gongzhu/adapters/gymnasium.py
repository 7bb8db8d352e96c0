"""Gong Zhu as a single-agent Gymnasium environment, ``gongzhu/Gongzhu-v0`` (``rl`` extra).

The agent plays one seat; library bots play the others. Importing this module
registers the id, with :class:`~gongzhu.vector.GongzhuVectorEnv` as its vector entry
point (``gymnasium.make_vec("gongzhu/Gongzhu-v0", num_envs=64)`` steps 64 deals as
one batch):

>>> import gymnasium
>>> import gongzhu.adapters.gymnasium
>>> env = gymnasium.make("gongzhu/Gongzhu-v0", opponents="random")
>>> observation, info = env.reset(seed=7)
>>> done = False
>>> while not done:
...     action = int(info["action_mask"].nonzero()[0][-1])       # the last legal id
...     observation, reward, terminated, truncated, info = env.step(action)
...     done = terminated or truncated
>>> env.unwrapped.round.is_over, reward == env.unwrapped.round.score().totals[0]
(True, True)

The observation is the seat's :meth:`PlayerView.observation
<gongzhu.PlayerView.observation>` (``information_state=True``: the information
state), float32; ``info["action_mask"]`` marks the legal action ids (int8 over
:data:`gongzhu.protocol.NUM_ACTIONS`). The reward is the seat's deal score at
the end (``shaped_rewards=True``: each change of its running score, as
captures happen). An illegal action ends the episode with ``illegal_reward``
(``info["illegal_action"]`` is True), so unmasked sampling is safe.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from gongzhu._base.finite import finite_float
from gongzhu._base.text import brief
from gongzhu.adapters import _driver
from gongzhu.ai.strategies import RandomStrategy, RuleOfThumbStrategy, Strategy, rules_of
from gongzhu.dealing import deal
from gongzhu.errors import GongzhuError, ProtocolError, ProtocolTypeError
from gongzhu.protocol import NUM_ACTIONS, information_state_size, observation_size
from gongzhu.round import Round
from gongzhu.rules import RuleSet

__all__ = ["ENV_ID", "GongzhuEnv"]

ENV_ID = "gongzhu/Gongzhu-v0"
_BOUND = 64.0


class GongzhuEnv(gymnasium.Env):  # type: ignore[misc,unused-ignore]
    """One deal per episode, from seat ``seat``; ``opponents`` plays the other seats.

    ``opponents``: ``"rule-of-thumb"`` (default), ``"random"``, one
    :class:`~gongzhu.Strategy` for every other seat, or a sequence of them (one
    per other seat, in seat order). Random opponents are seeded from the deal's
    seed, so a seeded reset replays exactly.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 (gymnasium's)

    def __init__(
        self,
        *,
        rules: RuleSet | str | None = None,
        seat: int = 0,
        opponents: str | Strategy | Sequence[Strategy] = "rule-of-thumb",
        render_mode: str | None = None,
        shaped_rewards: bool = False,
        information_state: bool = False,
        illegal_reward: float = -1000.0,
    ) -> None:
        self.rules = rules_of(rules)
        n = self.rules.players
        if type(seat) is not int or not 0 <= seat < n:
            error = ProtocolError if type(seat) is int else ProtocolTypeError
            raise error(f"seat must be 0-{n - 1}, got {brief(seat)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.seat = seat
        self.render_mode = render_mode
        self.shaped_rewards = shaped_rewards
        self.information_state = information_state
        self.illegal_reward = finite_float(
            illegal_reward, error=ProtocolError, type_error=ProtocolTypeError, what="illegal_reward"
        )
        self._opponents = opponents
        size = information_state_size(n) if information_state else observation_size(n)
        self.observation_space = spaces.Box(-_BOUND, _BOUND, (size,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.round: Round = deal(rules=self.rules, seed=0)
        self._strategies = self._bots(0)
        self._paid = 0

    def _bots(self, deal_seed: int) -> list[Strategy | None]:
        n = self.rules.players
        others = [s for s in range(n) if s != self.seat]
        chosen = self._opponents
        bots: list[Strategy | None] = [None] * n
        if isinstance(chosen, str):
            if chosen not in ("rule-of-thumb", "random"):
                raise ProtocolError(f"opponents must be 'rule-of-thumb', 'random' or strategies, "
                                 f"got {chosen!r}")  # fmt: skip
            for s in others:
                bots[s] = (
                    RuleOfThumbStrategy()
                    if chosen == "rule-of-thumb"
                    else RandomStrategy(seed=f"{deal_seed}:{s}")
                )
        elif isinstance(chosen, Sequence):
            if len(chosen) != len(others):
                raise ProtocolError(f"opponents: one strategy per other seat ({len(others)})")
            for k, s in enumerate(others):
                bots[s] = cast(Strategy, chosen[k])  # narrowing leaves Sequence[str] in
        else:
            for s in others:
                bots[s] = chosen
        for bot in bots:  # checked now, not as a raw AttributeError at its first turn
            if bot is not None and not (
                callable(getattr(bot, "choose_play", None))
                and callable(getattr(bot, "choose_exposure", None))
            ):
                raise ProtocolTypeError(
                    "opponents must be 'rule-of-thumb', 'random', a Strategy or one per"
                    f" other seat, got {type(bot).__name__}"
                )
        return bots

    def _play_bots(self) -> None:
        rnd = self.round
        while not rnd.is_over:
            acting = _driver.actor(rnd)
            assert acting is not None
            if acting == self.seat:
                break
            bot = self._strategies[acting]
            assert bot is not None
            rnd = _driver.step(rnd, acting, _driver.bot_action(rnd, acting, bot))
        self.round = rnd

    def _observe(self) -> tuple[Any, dict[str, Any]]:
        view = self.round.view(self.seat)
        vector = view.information_state() if self.information_state else view.observation()
        mask = np.zeros(NUM_ACTIONS, np.int8)
        mask[_driver.legal_ids(self.round, self.seat)] = 1
        return vector, {"action_mask": mask}

    def _reward(self) -> float:
        rnd = self.round
        if not (rnd.is_over or self.shaped_rewards):
            return 0.0
        total = _driver.running_totals(rnd)[self.seat]
        reward, self._paid = float(total - self._paid), total
        return reward

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Deal ``deal(rules, seed=seed)`` (a fresh seed from the env's generator when unseeded)."""
        seed = _driver.seed_int(seed)
        if seed is not None and seed < 0:  # gymnasium's own generator takes no negative seed
            raise ProtocolError(f"a seed must be >= 0 (gymnasium's seeds), got {brief(seed)}")
        super().reset(seed=seed)
        deal_seed = seed if seed is not None else int(self.np_random.integers(2**48))
        self.round = deal(rules=self.rules, seed=deal_seed)
        self._strategies = self._bots(deal_seed)
        self._paid = 0
        self._play_bots()
        return self._observe()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        action = _driver.action_int(action)  # 6.99, "32", None, NaN: a ProtocolError
        if self.round.is_over:  # stepping a finished episode pays nothing more
            observation, info = self._observe()
            return observation, 0.0, True, False, info
        try:
            self.round = _driver.step(self.round, self.seat, action)
        except GongzhuError:
            observation, info = self._observe()
            return observation, self.illegal_reward, True, False, {**info, "illegal_action": True}
        self._play_bots()
        reward = self._reward()
        observation, info = self._observe()
        if self.render_mode == "human":
            self.render()
        return observation, reward, self.round.is_over, False, info

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"`` returns it, ``"human"`` prints it)."""
        if self.render_mode is None:
            return None
        text = _driver.render(self.round)
        if self.render_mode == "human":
            print(text)
            return None
        return text


if ENV_ID not in gymnasium.registry:
    # make_vec builds the batched engine's native vector environment (it needs NumPy
    # only, as gymnasium does); vectorization_mode="sync" steps copies of this one.
    gymnasium.register(
        id=ENV_ID,
        entry_point="gongzhu.adapters.gymnasium:GongzhuEnv",
        vector_entry_point="gongzhu.vector:GongzhuVectorEnv",
    )
