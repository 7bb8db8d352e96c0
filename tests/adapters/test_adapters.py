"""The PettingZoo, Gymnasium and OpenSpiel adapters (issue #13): each passes its framework's
own conformance test, and one seed with one policy gives one trajectory through all three.
"""

from __future__ import annotations

from typing import Any

import pytest

from gongzhu import Card, CardSet, PlayerView, Round, RuleSet, deal
from gongzhu.adapters import _driver

_VARIANTS = [
    RuleSet(),
    RuleSet(claims=True, exposure_order="in-turn"),
    RuleSet.preset("catch-the-pig"),  # face-down exposure
    RuleSet(players=5, opening_card="3C"),
]


def smallest_legal(rnd: Round, seat: int) -> int:
    return _driver.legal_ids(rnd, seat)[0]


def bare_trajectory(rules: RuleSet, seed: int) -> Round:
    rnd = deal(rules=rules, seed=seed)
    while not rnd.is_over:
        seat = _driver.actor(rnd)
        assert seat is not None
        rnd = _driver.step(rnd, seat, smallest_legal(rnd, seat))
    return rnd


class _Smallest:
    """A library-style strategy that takes the smallest legal id (declines exposure)."""

    def choose_play(self, view: PlayerView, legal: CardSet) -> Card:
        return legal[0]

    def choose_exposure(self, view: PlayerView) -> CardSet:
        return CardSet()


# -- PettingZoo --------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", _VARIANTS, ids=str)
def test_pettingzoo_api_and_seed_tests(rules: RuleSet) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from gongzhu.adapters.pettingzoo import env

    api_test(env(rules=rules), num_cycles=100)
    seed_test(lambda: env(rules=rules), num_cycles=100)
    api_test(env(rules=rules, shaped_rewards=True, information_state=True), num_cycles=60)


def test_pettingzoo_rewards_are_the_deal_scores_and_shaped_rewards_sum_to_them() -> None:
    pytest.importorskip("pettingzoo")
    from gongzhu.adapters.pettingzoo import env

    for shaped in (False, True):
        e = env(shaped_rewards=shaped, render_mode="ansi")
        e.reset(seed=11)
        got = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            _obs, reward, termination, truncation, _info = e.last()
            got[agent] += reward
            e.step(None if termination or truncation else smallest_legal(e.unwrapped.round,
                   e.possible_agents.index(agent)))  # fmt: skip
        totals = bare_trajectory(RuleSet(), 11).score().totals
        assert [got[a] for a in e.possible_agents] == [float(t) for t in totals]
        assert "totals" in e.unwrapped.render()


# -- Gymnasium ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", _VARIANTS[:3], ids=str)
def test_gymnasium_env_checker(rules: RuleSet) -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from gongzhu.adapters.gymnasium import GongzhuEnv

    check_env(GongzhuEnv(rules=rules, opponents="random"), skip_render_check=True)
    check_env(GongzhuEnv(rules=rules, seat=2, shaped_rewards=True), skip_render_check=True)


def test_gymnasium_registers_the_env_and_gives_the_mask_in_info() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    import gongzhu.adapters.gymnasium  # noqa: F401  (registers the id)

    e = gymnasium.make("gongzhu/Gongzhu-v0", opponents="random")
    _obs, info = e.reset(seed=3)
    ids = list(info["action_mask"].nonzero()[0])
    assert ids == _driver.legal_ids(e.unwrapped.round, 0)
    _obs, reward, terminated, _trunc, info = e.step(86 if 86 not in ids else 0)
    assert terminated
    assert info["illegal_action"]
    assert reward == -1000.0


# -- OpenSpiel ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params",
    [{}, {"claims": True}, {"exposure_kind": "face-down-up", "exposure_order": "in-turn"},
     {"players": 3, "opening_card": "2D"}],
    ids=str,
)  # fmt: skip
def test_openspiel_random_sim_test(params: dict[str, Any]) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("gongzhu.adapters.openspiel")
    game = pyspiel.load_game("python_gongzhu", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["classic", "online", "catch-the-pig", "czech-variant"])
def test_openspiel_parameters_round_trip_every_preset(name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    gz = pytest.importorskip("gongzhu.adapters.openspiel")
    from gongzhu import PRESETS

    rules = PRESETS[name].replace(all_hearts_value=None, sign_swap=False, pig_sheep_together=False,
                                  pig_sheep_zero_sum=False)  # fmt: skip
    for r in (PRESETS[name], rules):
        game = pyspiel.load_game("python_gongzhu", gz.parameters_of(r))
        assert game.rules == r
        assert pyspiel.load_game(str(game)).rules == r  # through the game string


def test_openspiel_resampled_states_keep_the_information_state() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import random

    gz = pytest.importorskip("gongzhu.adapters.openspiel")
    game = pyspiel.load_game("python_gongzhu", {"claims": True})
    state = game.new_initial_state()
    for a in gz.deal_actions(game, 5):
        state.apply_action(a)
    rng = random.Random(5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    while not state.is_terminal():
        p = state.current_player()
        world = state.resample_from_infostate(p, sampler)
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.information_state_tensor(p) == state.information_state_tensor(p)
        assert world.legal_actions() == state.legal_actions()
        state.apply_action(rng.choice(state.legal_actions()))


def test_openspiel_ismcts_plays_a_deal() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    np = pytest.importorskip("numpy")
    gz = pytest.importorskip("gongzhu.adapters.openspiel")
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_gongzhu")
    state = game.new_initial_state()
    for a in gz.deal_actions(game, 2):
        state.apply_action(a)
    bots = [
        ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(s)), 1.5,
                         max_simulations=4, random_state=np.random.RandomState(s))
        for s in range(4)
    ]  # fmt: skip
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert state.round.is_over
    assert state.returns() == [float(t) for t in state.round.score().totals]


# -- one trajectory through every adapter --------------------------------------------------------


@pytest.mark.parametrize("rules", _VARIANTS[:2], ids=str)
@pytest.mark.parametrize("seed", [0, 7])
def test_one_seed_and_one_policy_give_one_trajectory_through_every_adapter(
    rules: RuleSet, seed: int
) -> None:
    want = bare_trajectory(rules, seed)
    got = []
    if _has("pettingzoo"):
        from gongzhu.adapters.pettingzoo import env

        e = env(rules=rules)
        e.reset(seed=seed)
        for _agent in e.agent_iter():
            obs, _r, term, trunc, _i = e.last()
            e.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
        got.append(e.unwrapped.round)
    if _has("gymnasium"):
        from gongzhu.adapters.gymnasium import GongzhuEnv

        g = GongzhuEnv(rules=rules, opponents=[_Smallest()] * (rules.players - 1))
        _obs, info = g.reset(seed=seed)
        done = False
        while not done:
            _obs, _r, done, _t, info = g.step(int(info["action_mask"].nonzero()[0][0]))
        got.append(g.round)
    if _has("pyspiel"):
        import pyspiel

        import gongzhu.adapters.openspiel as gz

        game = pyspiel.load_game("python_gongzhu", gz_params(rules))
        state = game.new_initial_state()
        for a in gz.deal_actions(game, seed):
            state.apply_action(a)
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        got.append(state.round)
    if not got:
        pytest.skip("no adapter package installed")
    for rnd in got:
        assert rnd.dealt == want.dealt
        assert rnd.history == want.history
        assert rnd.score() == want.score()


def gz_params(rules: RuleSet) -> dict[str, Any]:
    import gongzhu.adapters.openspiel as gz

    return gz.parameters_of(rules)


def _has(name: str) -> bool:
    try:
        __import__(name)
    except ImportError:
        return False
    return True
