"""Issue #22 items 5, 10, 18 and 19 (adapters): sealed exposures stay sealed in OpenSpiel,
actions and seeds are integers only, state text without pickle, typed errors in the corners."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

import gongzhu.adapters.openspiel as gz  # noqa: E402
from gongzhu import Card, CardSet, GongzhuError, RuleSet  # noqa: E402
from gongzhu.actions import Exposure  # noqa: E402
from gongzhu.errors import ProtocolError, ProtocolTypeError  # noqa: E402
from gongzhu.protocol import EXPOSE, action_id  # noqa: E402
from gongzhu.rules import ExposureOrder  # noqa: E402

CATCH = RuleSet(exposure_kind="face-down-up")  # simultaneous, face down allowed


def _state(rules: RuleSet, hands: list[list[Card]]) -> Any:
    game = pyspiel.load_game("python_gongzhu", gz.parameters_of(rules))
    s = game.new_initial_state()
    n = rules.players
    for k in range(len(hands[0])):
        for seat in range(n):
            s.apply_action(hands[seat][k].index)
    return s


def _hands(rules: RuleSet, seed: int) -> list[list[Card]]:
    from gongzhu import deal

    return [list(h) for h in deal(rules=rules, seed=seed).dealt]


def _decide(s: Any, upto: int, choose: Any) -> None:
    """Exposure decisions until ``upto`` is to act: ``choose(seat, hand)`` gives an action id."""
    while s.current_player() != upto:
        seat = s.current_player()
        s.apply_action(choose(seat, s.round.dealt[seat]))


def _worlds(s: Any, me: int, count: int = 12) -> list[tuple[Any, ...]]:
    out = []
    for k in range(count):
        w = s.resample_from_infostate(me, random.Random(k).random)
        out.append((tuple(tuple(h) for h in w.round.dealt), tuple(w.round.history)))
    return out


def _last_decider(rules: RuleSet, hands: list[list[Card]]) -> int:
    s = _state(rules, hands)
    return (s.round.leader + rules.players - 1) % rules.players


def _first_holder(s: Any, me: int, exposable: CardSet) -> tuple[int, Card]:
    n = s.rules.players
    for k in range(n):
        seat = (s.round.leader + k) % n
        mine = [c for c in s.round.dealt[seat] if c in exposable]
        if seat != me and mine:
            return seat, mine[0]
    raise AssertionError("no other seat holds an exposable card")


@pytest.mark.parametrize("face_down", [False, True], ids=["face-up", "face-down"])
def test_item_5_a_sealed_decision_changes_neither_the_information_state_nor_the_worlds(
    face_down: bool,
) -> None:
    rules = CATCH if face_down else RuleSet()
    hands = _hands(rules, 11)
    me = _last_decider(rules, hands)
    probe = _state(rules, hands)
    who, card = _first_holder(probe, me, rules.exposable)

    def declines(seat: int, hand: Any) -> int:
        return EXPOSE

    def exposes(seat: int, hand: Any) -> int:
        if seat == who:
            return action_id(Exposure(seat, CardSet([card]), face_down=face_down))
        return EXPOSE

    a, b = _state(rules, hands), _state(rules, hands)
    _decide(a, me, declines)
    _decide(b, me, exposes)
    assert a.round.history != b.round.history
    assert a.information_state_string(me) == b.information_state_string(me)
    assert a.information_state_tensor(me) == b.information_state_tensor(me)
    # Before: every world of b reproduced the exposure (60 of 60 in the review).
    assert _worlds(a, me) == _worlds(b, me)


def test_item_5_other_seats_hidden_cards_change_no_resampled_world() -> None:
    rules = RuleSet()
    hands = _hands(rules, 5)
    me = _last_decider(rules, hands)
    x, y = [s for s in range(4) if s != me][:2]
    opening = rules.opening_card
    i = next(k for k, c in enumerate(hands[x]) if c != opening)
    j = next(k for k, c in enumerate(hands[y]) if c != opening)
    swapped = [h[:] for h in hands]
    swapped[x][i], swapped[y][j] = hands[y][j], hands[x][i]
    a, b = _state(rules, hands), _state(rules, swapped)
    _decide(a, me, lambda seat, hand: EXPOSE)
    _decide(b, me, lambda seat, hand: EXPOSE)
    assert a.information_state_string(me) == b.information_state_string(me)
    assert _worlds(a, me) == _worlds(b, me)


def test_item_5_the_information_state_string_does_not_tell_a_sealed_face_down_declaration() -> None:
    hands = _hands(CATCH, 11)
    me = _last_decider(CATCH, hands)
    probe = _state(CATCH, hands)
    who, card = _first_holder(probe, me, CATCH.exposable)
    s = _state(CATCH, hands)

    def down(seat: int, hand: Any) -> int:
        return action_id(Exposure(seat, CardSet([card]), face_down=True)) if seat == who else EXPOSE

    _decide(s, me, down)
    text = s.information_state_string(me)
    assert f"{who}:down" not in text
    assert f"{who}:decided" in text
    assert s.round.view(me).face_down_counts == (0,) * 4


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(),
        CATCH,
        RuleSet(exposure_order=ExposureOrder.IN_TURN, exposure_kind="face-down-up"),
        RuleSet(claims=True),
        RuleSet(players=5),
    ],
    ids=["classic", "catch", "in-turn", "claims", "five"],
)
def test_item_5_a_resampled_world_looks_the_same_to_the_seat(rules: RuleSet) -> None:
    game = pyspiel.load_game("python_gongzhu", gz.parameters_of(rules))
    rng = random.Random(3)
    s = game.new_initial_state()
    for a in gz.deal_actions(game, seed=2):
        s.apply_action(a)
    steps = 0
    while not s.is_terminal() and steps < 30:
        me = s.current_player()
        w = s.resample_from_infostate(me, rng.random)
        assert w.information_state_string(me) == s.information_state_string(me)
        assert w.observation_tensor(me) == s.observation_tensor(me)
        assert sorted(w.legal_actions()) == sorted(s.legal_actions())
        s.apply_action(rng.choice(s.legal_actions()))
        steps += 1


# -- item 18: state text without pickle ----------------------------------------------------


def test_item_18_state_text_round_trips_without_pickle() -> None:
    game = pyspiel.load_game("python_gongzhu", gz.parameters_of(CATCH))
    s = game.new_initial_state()
    for a in gz.deal_actions(game, seed=4):
        s.apply_action(a)
    rng = random.Random(0)
    for _ in range(20):
        s.apply_action(rng.choice(s.legal_actions()))
    text = gz.state_to_text(s)
    assert "__dict__" not in text
    back = gz.state_from_text(text)
    assert str(back) == str(s)
    assert back.round == s.round


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[" * 100_000,
        '{"format": "gongzhu-openspiel-state"}',
        "x" * 100_000,
        '{"format": "gongzhu-openspiel-state", "version": 1, "rules": {}, "actions": [99]}',
        '{"format": "gongzhu-openspiel-state", "version": 1, "rules": {}, "actions": [0, 0]}',
        '{"format": "gongzhu-openspiel-state", "version": 1, "rules": {}, "actions": [1.5]}',
        '{"format": "gongzhu-openspiel-state", "version": 1, "rules": [], "actions": []}',
    ],
)
def test_item_18_hostile_state_text_is_a_typed_error(text: str) -> None:
    with pytest.raises(GongzhuError):
        gz.state_from_text(text)


def test_item_18_openspiels_own_state_string_is_refused_by_the_safe_reader() -> None:
    game = pyspiel.load_game("python_gongzhu")
    s = game.new_initial_state()
    with pytest.raises(ProtocolError):
        gz.state_from_text(pyspiel.serialize_game_and_state(game, s))


# -- item 19: OpenSpiel corners ------------------------------------------------------------


@pytest.mark.parametrize("player", [9, -5, 1.5, "0", True])
def test_item_19_openspiel_bad_players_are_typed(player: Any) -> None:
    game = pyspiel.load_game("python_gongzhu")
    s = game.new_initial_state()
    for a in gz.deal_actions(game, seed=1):
        s.apply_action(a)
    with pytest.raises(ProtocolError):
        s.information_state_string(player)
    with pytest.raises(ProtocolError):
        s.resample_from_infostate(player, random.random)


@pytest.mark.parametrize("value", [math.nan, 1e300, -0.5, math.inf, "0.5", None])
def test_item_19_openspiel_a_bad_sampler_value_is_typed(value: Any) -> None:
    game = pyspiel.load_game("python_gongzhu")
    s = game.new_initial_state()
    for a in gz.deal_actions(game, seed=1):
        s.apply_action(a)
    with pytest.raises(ProtocolError):
        s.resample_from_infostate(0, lambda: value)


def test_item_19_openspiel_bad_heart_values_are_typed() -> None:
    with pytest.raises(GongzhuError):
        gz.rules_from_parameters({**gz.parameters_of(RuleSet()), "heart_values": "x"})
    with pytest.raises(Exception) as info:  # through pyspiel: the same message
        pyspiel.load_game("python_gongzhu(heart_values=x)")
    assert "heart_values" in str(info.value)


# -- item 10 and 19: Gymnasium and PettingZoo ----------------------------------------------

BAD_ACTIONS = [6.99, "32", True, None, math.nan, math.inf, np.array([5]), np.float64(3.0),
               np.bool_(True), 10**30 + 0.5]  # fmt: skip


@pytest.mark.parametrize("action", BAD_ACTIONS, ids=repr)
def test_item_10_gymnasium_takes_integers_only(action: Any) -> None:
    from gongzhu.adapters.gymnasium import GongzhuEnv

    env = GongzhuEnv(rules=RuleSet(exposable=""))
    env.reset(seed=3)
    before = env.unwrapped.round
    with pytest.raises(ProtocolError):
        env.step(action)
    assert env.unwrapped.round is before


@pytest.mark.parametrize("action", BAD_ACTIONS, ids=repr)
def test_item_10_pettingzoo_takes_integers_only(action: Any) -> None:
    from gongzhu.adapters.pettingzoo import raw_env

    env = raw_env(rules=RuleSet(exposable=""))
    env.reset(seed=3)
    before = env.round
    with pytest.raises(ProtocolError):
        env.step(action)
    assert env.round is before


def test_item_10_numpy_integers_work_as_actions_and_seeds() -> None:
    from gongzhu.adapters.gymnasium import GongzhuEnv
    from gongzhu.adapters.pettingzoo import raw_env

    pz = raw_env(rules=RuleSet(exposable=""))
    pz.reset(seed=np.int64(5))
    plain = raw_env(rules=RuleSet(exposable=""))
    plain.reset(seed=5)
    assert pz.round == plain.round
    legal = int(pz.observe(pz.agent_selection)["action_mask"].nonzero()[0][0])
    pz.step(np.int64(legal))
    plain.step(legal)
    assert pz.round == plain.round
    env = GongzhuEnv(rules=RuleSet(exposable=""))
    _obs, info = env.reset(seed=np.int32(5))
    env.step(np.int16(info["action_mask"].nonzero()[0][0]))
    with pytest.raises(ProtocolError):
        pz.reset(seed=5.0)
    with pytest.raises(ProtocolError):
        env.reset(seed="5")  # type: ignore[arg-type]


def test_item_19_gymnasium_refuses_bad_opponents_and_rewards_at_construction() -> None:
    from gongzhu.adapters.gymnasium import GongzhuEnv

    with pytest.raises(ProtocolError):
        GongzhuEnv(opponents=[1, 2, 3])  # type: ignore[list-item]
    with pytest.raises(ProtocolError):
        GongzhuEnv(illegal_reward=math.nan)
    with pytest.raises(ProtocolError):
        GongzhuEnv(illegal_reward="x")  # type: ignore[arg-type]


def test_item_19_gymnasium_pays_nothing_more_after_termination() -> None:
    from gongzhu.adapters.gymnasium import GongzhuEnv

    env = GongzhuEnv(rules=RuleSet(exposable=""), illegal_reward=-7.0)
    env.reset(seed=1)
    _obs, reward, terminated, _t, _info = env.step(999)
    assert terminated
    assert reward == -7.0
    env2 = GongzhuEnv(rules=RuleSet(exposable=""), opponents="random")
    _obs, info = env2.reset(seed=2)
    done = False
    while not done:
        action = int(info["action_mask"].nonzero()[0][0])
        _obs, reward, done, _t, info = env2.step(action)
    _obs, reward, terminated, _t, _info = env2.step(0)
    assert terminated
    assert reward == 0.0


def test_item_19_pettingzoo_a_refused_step_changes_nothing() -> None:
    from gongzhu.adapters.pettingzoo import raw_env

    env = raw_env(rules=RuleSet(exposable=""), shaped_rewards=True)
    env.reset(seed=3)
    rng = random.Random(1)
    while True:  # until some agent has a pending reward
        agent = env.agent_selection
        if any(env._cumulative_rewards.values()):
            break
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(list(mask.nonzero()[0]))))
    before = dict(env._cumulative_rewards)
    with pytest.raises(GongzhuError):
        env.step(999)
    assert env._cumulative_rewards == before


def test_fuzz_find_state_text_with_rules_openspiel_cannot_hold_is_typed() -> None:
    text = json.dumps({"format": "gongzhu-openspiel-state", "version": 1,
                       "rules": {"pig_value": -(2**40)}, "actions": []})  # fmt: skip
    with pytest.raises(GongzhuError):
        gz.state_from_text(text)


def test_fuzz_find_a_huge_int_action_is_refused_typed() -> None:
    from gongzhu.adapters.gymnasium import GongzhuEnv
    from gongzhu.adapters.pettingzoo import raw_env

    pz = raw_env(rules=RuleSet(exposable=""))
    pz.reset(seed=1)
    with pytest.raises(GongzhuError):
        pz.step(10**5000)
    env = GongzhuEnv(rules=RuleSet(exposable=""))
    env.reset(seed=1)
    _obs, _reward, terminated, _t, info = env.step(10**5000)
    assert terminated
    assert info["illegal_action"]


# -- wrong types are TypeErrors too (ProtocolTypeError); bad values are not ------------------


def _played_state() -> Any:
    game = pyspiel.load_game("python_gongzhu")
    s = game.new_initial_state()
    for a in gz.deal_actions(game, seed=1):
        s.apply_action(a)
    return s


def _adapter_calls() -> list[tuple[str, Any, bool]]:
    from gongzhu.adapters.gymnasium import GongzhuEnv
    from gongzhu.adapters.pettingzoo import raw_env

    def gym_step(action: Any) -> Any:
        env = GongzhuEnv(rules=RuleSet(exposable=""))
        env.reset(seed=3)
        return env.step(action)

    def pz_step(action: Any) -> Any:
        env = raw_env(rules=RuleSet(exposable=""))
        env.reset(seed=3)
        return env.step(action)

    return [
        ("gymnasium step('32')", lambda: gym_step("32"), True),
        ("gymnasium step(6.99)", lambda: gym_step(6.99), True),
        ("pettingzoo step(None)", lambda: pz_step(None), True),
        ("gymnasium reset(seed='5')", lambda: GongzhuEnv().reset(seed="5"), True),
        ("gymnasium reset(seed=-1)", lambda: GongzhuEnv().reset(seed=-1), False),
        ("GongzhuEnv(seat='0')", lambda: GongzhuEnv(seat="0"), True),
        ("GongzhuEnv(seat=9)", lambda: GongzhuEnv(seat=9), False),
        ("GongzhuEnv(opponents=3)", lambda: GongzhuEnv(opponents=3), True),
        ("GongzhuEnv(opponents='greedy')", lambda: GongzhuEnv(opponents="greedy"), False),
        ("GongzhuEnv(illegal_reward='x')", lambda: GongzhuEnv(illegal_reward="x"), True),
        ("GongzhuEnv(illegal_reward=nan)", lambda: GongzhuEnv(illegal_reward=math.nan), False),
        ("openspiel player '0'", lambda: _played_state().information_state_string("0"), True),
        ("openspiel player 9", lambda: _played_state().information_state_string(9), False),
        ("openspiel sampler '0.5'", lambda: _played_state().resample_from_infostate(
            0, lambda: "0.5"), True),
        ("openspiel sampler 1.5", lambda: _played_state().resample_from_infostate(
            0, lambda: 1.5), False),
        ("state_to_text(3)", lambda: gz.state_to_text(3), True),
        ("state_from_text(b'')", lambda: gz.state_from_text(b""), True),
        ("state_from_text(huge)", lambda: gz.state_from_text("x" * 100_000), False),
    ]


@pytest.mark.parametrize(
    ("call", "type_error"),
    [(c, t) for _, c, t in _adapter_calls()],
    ids=[name for name, _, _ in _adapter_calls()],
)
def test_a_wrong_type_is_a_protocol_type_error_and_a_bad_value_is_not(
    call: Any, type_error: bool
) -> None:
    with pytest.raises(ProtocolError) as caught:
        call()
    assert isinstance(caught.value, ProtocolTypeError) is type_error
    assert isinstance(caught.value, TypeError) is type_error



def test_parameters_of_takes_a_preset_name() -> None:
    online = RuleSet.preset("online")
    assert gz.parameters_of("online") == gz.parameters_of(online)
    assert gz.rules_from_parameters(gz.parameters_of("online")) == online
    with pytest.raises(GongzhuError, match="unknown preset 'onlne'; known: classic"):
        gz.parameters_of("onlne")
