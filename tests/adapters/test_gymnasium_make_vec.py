"""``gymnasium.make_vec`` on the library's id: the batched engine's native vector
environment by default (the id's vector entry point), copies of the single one on request."""

from __future__ import annotations

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

import gongzhu.adapters.gymnasium  # noqa: E402
from gongzhu.errors import ProtocolError  # noqa: E402
from gongzhu.vector import GongzhuVectorEnv  # noqa: E402


def test_make_vec_builds_the_native_vector_env() -> None:
    for mode in (None, "vector_entry_point"):
        envs = gymnasium.make_vec(
            gongzhu.adapters.gymnasium.ENV_ID, num_envs=4, vectorization_mode=mode,
            rules="online", opponents="random",
        )  # fmt: skip
        assert isinstance(envs.unwrapped, GongzhuVectorEnv)
        assert envs.unwrapped.spec is not None
        assert envs.unwrapped.spec.id == "gongzhu/Gongzhu-v0"
        obs, info = envs.reset(seed=2)
        assert obs.shape == (4, envs.single_observation_space.shape[0])
        assert info["action_mask"].shape == (4, 137)
        envs.step(info["action_mask"].argmax(axis=1))


def test_make_vec_sync_steps_copies_of_the_single_env() -> None:
    envs = gymnasium.make_vec(
        gongzhu.adapters.gymnasium.ENV_ID, num_envs=2, vectorization_mode="sync",
        shaped_rewards=True,
    )  # fmt: skip
    assert isinstance(envs, gymnasium.vector.SyncVectorEnv)
    obs, _ = envs.reset(seed=1)
    assert obs.shape[0] == 2


def test_an_option_only_the_single_env_has_points_to_sync() -> None:
    with pytest.raises(ProtocolError, match="vectorization_mode='sync'"):
        gymnasium.make_vec(gongzhu.adapters.gymnasium.ENV_ID, num_envs=2, shaped_rewards=True)


@pytest.mark.parametrize("seed", [-1, -(10**5000), np.int64(-2)], ids=["-1", "-10**5000", "np"])
def test_the_single_env_refuses_a_negative_seed_typed(seed: object) -> None:
    env = gymnasium.make(gongzhu.adapters.gymnasium.ENV_ID)
    with pytest.raises(ProtocolError, match="must be >= 0"):
        env.reset(seed=seed)


_REWARDS = [10**400, float("nan"), "x", True]


@pytest.mark.parametrize("reward", _REWARDS, ids=["1e400", "nan", "x", "True"])
def test_the_single_env_refuses_an_illegal_reward_that_is_no_finite_number(reward: object) -> None:
    with pytest.raises(ProtocolError, match="illegal_reward must be a finite number"):
        gymnasium.make(gongzhu.adapters.gymnasium.ENV_ID, illegal_reward=reward)
