"""The Gymnasium vector environment on the batched engine.

Gymnasium 1.x ships no checker for vector environments (``env_checker.check_env``
takes a single ``Env``), so the checks it makes of a single environment are made
here per batch: observations in the spaces (its passive checker on every row),
reset and step determinism under a seed, data not reused between steps; and the
environment's own contract: the action mask is the agent's legal cards, the reward is
the agent's deal score, illegal actions end an episode with ``illegal_reward``, and
finished episodes reset on the next step (``NEXT_STEP`` autoreset).
"""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.utils.passive_env_checker import check_obs
from gymnasium.vector import AutoresetMode

from gongzhu import RuleSet
from gongzhu.errors import ProtocolError, ProtocolTypeError
from gongzhu.vector import GongzhuVectorEnv


def play_lowest(envs: GongzhuVectorEnv, info: dict, steps: int) -> list[tuple]:
    out = []
    for _ in range(steps):
        actions = info["action_mask"].argmax(axis=1)
        result = envs.step(actions)
        info = result[4]
        out.append(result)
    return out


@pytest.mark.parametrize("opponents", ["rule-of-thumb", "random"])
@pytest.mark.parametrize("rules", [RuleSet(), RuleSet(players=5), RuleSet.preset("taiwan")])
def test_the_spaces_masks_rewards_and_autoreset(rules: RuleSet, opponents: str) -> None:
    envs = GongzhuVectorEnv(num_envs=6, rules=rules, seat=1, opponents=opponents)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    obs, info = envs.reset(seed=5)
    assert envs.observation_space.contains(obs)
    episodes = 0
    for _ in range(2 * rules.hand_size + 2):
        batch = envs.batch
        mine = ~batch.is_over & (batch.to_act == 1)
        mask = info["action_mask"]
        assert mask.dtype == np.int8
        assert mask.shape == (6, 137)
        for i in range(6):
            check_obs(obs[i], envs.single_observation_space, "step")
            rnd = batch.round(i)
            expected = np.zeros(137, np.int8)
            if mine[i]:
                expected[[c.index for c in rnd.legal_plays]] = 1
            assert (mask[i] == expected).all()
            assert np.array_equal(obs[i], rnd.view(1).observation())
        actions = np.where(mine, mask.argmax(axis=1), 0)
        obs, reward, terminated, truncated, info = envs.step(actions)
        assert envs.observation_space.contains(obs)
        assert not truncated.any()
        for i in np.flatnonzero(terminated):
            assert reward[i] == envs.batch.round(int(i)).score().totals[1]
        assert (reward[~terminated] == 0).all()
        episodes += int(terminated.sum())
        if terminated.any():  # the next step starts fresh deals there, whatever the action
            ended = terminated.copy()
            obs, reward, terminated, truncated, info = envs.step(np.zeros(6, np.int64))
            assert (reward[ended] == 0).all()
            assert not terminated[ended].any()
            assert (envs.batch.trick_number[ended] == 0).all()
    assert episodes >= 6


def test_reset_and_step_are_deterministic_under_a_seed() -> None:
    a, b = GongzhuVectorEnv(num_envs=8), GongzhuVectorEnv(num_envs=8)
    obs_a, info_a = a.reset(seed=11)
    obs_b, info_b = b.reset(seed=11)
    assert data_equivalence((obs_a, info_a), (obs_b, info_b), exact=True)
    run_a = play_lowest(a, info_a, 20)
    run_b = play_lowest(b, info_b, 20)
    assert data_equivalence(run_a, run_b, exact=True)
    obs_c, _ = a.reset(seed=12)
    assert not np.array_equal(obs_a, obs_c)
    # The arrays returned are not reused by the next step.
    first = run_a[0][0].copy()
    assert np.array_equal(run_a[0][0], first)


def test_an_illegal_action_ends_the_episode_with_the_illegal_reward() -> None:
    envs = GongzhuVectorEnv(num_envs=4, opponents="random", illegal_reward=-7.0)
    _, info = envs.reset(seed=2)
    actions = info["action_mask"].argmax(axis=1)
    actions[2] = 136  # not a card
    _, reward, terminated, _, info = envs.step(actions)
    assert terminated[2]
    assert reward[2] == -7.0
    assert info["illegal_action"][2]
    assert not info["illegal_action"][[0, 1, 3]].any()
    _, reward, terminated, _, info = envs.step(info["action_mask"].argmax(axis=1))
    assert not terminated[2]
    assert reward[2] == 0


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ProtocolError):
        GongzhuVectorEnv(num_envs=0)
    with pytest.raises(ProtocolError):
        GongzhuVectorEnv(seat=4)
    with pytest.raises(ProtocolError):
        GongzhuVectorEnv(opponents="greedy")
    envs = GongzhuVectorEnv(num_envs=2)
    envs.reset(seed=0)
    with pytest.raises(ProtocolError):
        envs.step(np.zeros(3, np.int64))


def test_gymnasiums_vector_wrappers_run_on_it() -> None:
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(GongzhuVectorEnv(num_envs=4))
    _, info = envs.reset(seed=3)
    for _ in range(14):
        _, _, terminated, _, info = envs.step(info["action_mask"].argmax(axis=1))
        if terminated.any():
            assert "episode" in info
            break
    else:
        raise AssertionError("no episode ended")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_envs": 10**9},  # refused before 2 TB of observations are asked for
        {"num_envs": 2.0},
        {"num_envs": True},
        {"seat": 1.5},
        {"opponents": ["random"]},
        {"illegal_reward": float("nan")},
        {"illegal_reward": "x"},
        {"illegal_reward": 10**400},  # past a float: refused, not an OverflowError
        {"shaped_rewards": True},
        {"information_state": True},
        {"render_mode": "human"},
    ],
)
def test_hostile_constructor_arguments_are_refused_typed(kwargs: dict) -> None:
    with pytest.raises(ProtocolError):
        GongzhuVectorEnv(**kwargs)


def test_numpy_integers_and_preset_names_are_taken() -> None:
    envs = GongzhuVectorEnv(num_envs=np.int64(3), rules="online", seat=np.int8(2))
    assert (envs.num_envs, envs.seat, envs.rules) == (3, 2, RuleSet.preset("online"))
    a, _ = envs.reset(seed=np.uint64(4))
    b, _ = envs.reset(seed=4)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("seed", [-1, np.int64(-3), 10**90, 1.5, "3", [1, 2], True])
def test_hostile_seeds_are_refused_typed(seed: object) -> None:
    envs = GongzhuVectorEnv(num_envs=2)
    with pytest.raises(ProtocolError):
        envs.reset(seed=seed)  # type: ignore[arg-type]


def test_hostile_actions_are_refused_or_end_the_episode() -> None:
    envs = GongzhuVectorEnv(num_envs=2, illegal_reward=-5)
    _, info = envs.reset(seed=3)
    before = envs.batch.state.nplays.copy()
    for bad in (
        np.array([np.nan, 1.0]), np.array(["a", "b"]), [None, None], np.array([True, False]),
        np.zeros(3, np.int64), [0, 2**70], np.array([1, 2], dtype=object),
    ):  # fmt: skip
        with pytest.raises(ProtocolError):
            envs.step(bad)
    assert (envs.batch.state.nplays == before).all()  # nothing played
    # Ints that are no legal card (wrapping uint64 included) end only that episode.
    for bad in (np.array([2**64 - 1, 0], np.uint64), np.array([-(2**63), 0]), np.array([99, 0])):
        _, info = envs.reset(seed=3)
        actions = info["action_mask"].argmax(axis=1).astype(bad.dtype)
        actions[0] = bad[0]
        _, reward, terminated, _, info = envs.step(actions)
        assert terminated[0]
        assert reward[0] == -5
        assert info["illegal_action"][0]
        assert not terminated[1]
        assert not info["illegal_action"][1]


@pytest.mark.parametrize(
    ("call", "type_error"),
    [
        (lambda: GongzhuVectorEnv(opponents=3), True),  # type: ignore[arg-type]
        (lambda: GongzhuVectorEnv(opponents="greedy"), False),
        (lambda: GongzhuVectorEnv(num_envs=2.0), True),  # type: ignore[arg-type]
        (lambda: GongzhuVectorEnv(num_envs=0), False),
        (lambda: GongzhuVectorEnv(seat="0"), True),  # type: ignore[arg-type]
        (lambda: GongzhuVectorEnv(seat=4), False),
        (lambda: GongzhuVectorEnv(illegal_reward="x"), True),  # type: ignore[arg-type]
        (lambda: GongzhuVectorEnv(illegal_reward=float("nan")), False),
        (lambda: GongzhuVectorEnv(num_envs=2).reset(seed="3"), True),  # type: ignore[arg-type]
        (lambda: GongzhuVectorEnv(num_envs=2).reset(seed=-1), False),
        (lambda: GongzhuVectorEnv(num_envs=2).step(np.array([0.0, 1.0])), True),
        (lambda: GongzhuVectorEnv(num_envs=2).step(np.zeros(3, np.int64)), False),
    ],
)
def test_a_wrong_type_is_a_protocol_type_error_and_a_bad_value_a_protocol_error(
    call: object, type_error: bool
) -> None:
    with pytest.raises(ProtocolError) as caught:
        call()  # type: ignore[operator]
    assert isinstance(caught.value, ProtocolTypeError) is type_error
    assert isinstance(caught.value, TypeError) is type_error

