"""The integer lane (``Round.legal_actions`` / ``Round.apply(id)``), mixed exposure decisions
(RULES.md §9.1) in every public form, and determinism across builds and hash seeds (issue #18).
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gongzhu
from gongzhu import (
    PRESETS,
    Action,
    Card,
    CardSet,
    Exposure,
    IllegalActionError,
    Phase,
    Reason,
    Round,
    RuleSet,
    deal,
    protocol,
    record,
)
from gongzhu.testing import rounds_in_progress

CATCH = PRESETS["catch-the-pig"]  # face-down ×2, face-up ×4


def _actor(rnd: Round) -> int | None:
    """The seat that decides next, read from the public API only."""
    if rnd.phase is Phase.EXPOSURE:
        n = rnd.players
        return next(
            (rnd.leader + k) % n
            for k in range(n)
            if (rnd.leader + k) % n not in rnd.exposure_decided
        )
    if rnd.phase is Phase.CLAIM:
        pending = rnd.claim_pending
        assert pending is not None
        claimer, accepted = pending
        n = rnd.players
        return next((claimer + k) % n for k in range(1, n) if (claimer + k) % n not in accepted)
    return rnd.to_act


@given(rounds_in_progress())
def test_legal_actions_are_the_views_ids_and_apply_does_what_the_record_does(
    rnd: Round,
) -> None:
    seat = _actor(rnd)
    ids = rnd.legal_actions()
    if seat is None:
        assert ids == []
        return
    view_ids = rnd.view(seat).legal_actions(
        exposure_pending=rnd.phase is Phase.EXPOSURE and seat not in rnd.exposure_decided,
        claim_pending=rnd.claim_pending,
    )
    if protocol.CLAIM in view_ids and not rnd.can_claim(seat):
        view_ids.remove(protocol.CLAIM)  # the round knows a refused claimer waits (§9.7)
    assert ids == view_ids == rnd.legal_actions(seat)
    assert ids == sorted(set(ids))
    if rnd.phase is Phase.PLAY:
        assert [i for i in ids if i < 52] == [c.index for c in rnd.legal_plays]
    for i in ids:
        assert rnd.apply(i) == rnd.apply(protocol.action_for(i, seat))
        assert rnd.apply(i, seat) == rnd.apply(i)


@settings(max_examples=40)
@given(rounds_in_progress())
def test_every_other_id_is_refused_with_a_typed_error(rnd: Round) -> None:
    legal = set(rnd.legal_actions())
    for i in range(protocol.NUM_ACTIONS):
        if i not in legal:
            with pytest.raises(IllegalActionError):
                rnd.apply(i)


@pytest.mark.parametrize("bad", [-1, protocol.NUM_ACTIONS, 10**20, True, 1.0, None, "52"])
def test_malformed_ids_are_refused(bad: object) -> None:
    rnd = deal(seed=1).pass_exposure()
    with pytest.raises(IllegalActionError):
        rnd.apply(bad)  # type: ignore[arg-type]


def test_an_int_too_long_to_print_is_refused_with_a_short_message() -> None:
    rnd = deal(seed=1).pass_exposure()
    big = 10 ** int("5000")  # computed when run: no constant to print at import
    for bad in (big, -big):
        with pytest.raises(IllegalActionError) as err:
            rnd.apply(bad)
        assert len(str(err.value)) < 200


def test_other_seats_get_no_ids_and_a_record_keeps_its_own_seat() -> None:
    rnd = deal(seed=4).pass_exposure()
    seat = rnd.to_act
    assert seat is not None
    others = [s for s in range(4) if s != seat]
    assert all(rnd.legal_actions(s) == [] for s in others)
    card = rnd.legal_plays[0]
    with pytest.raises(IllegalActionError) as err:
        rnd.apply(card.index, others[0])
    assert err.value.reason is Reason.NOT_YOUR_TURN
    with pytest.raises(IllegalActionError):
        rnd.apply(gongzhu.Play(seat, card), seat=others[0])


def test_a_whole_deal_in_the_integer_lane_matches_the_card_lane() -> None:
    for seed in range(5):
        by_id = by_card = deal(rules=RuleSet(claims=True), seed=seed)
        while not by_id.is_over:
            ids = by_id.legal_actions()
            pick = ids[seed % len(ids)]
            if pick == protocol.CLAIM:
                pick = ids[0]
            by_card = by_card.apply(protocol.action_for(pick, _actor(by_card)))  # type: ignore[arg-type]
            by_id = by_id.apply(pick)
            assert by_id == by_card
        assert by_id.score() == by_card.score()


# -- mixed exposure (RULES.md §9.1) ------------------------------------------------------


def _holder(rnd: Round, *codes: str) -> int | None:
    return next((s for s, h in enumerate(rnd.hands) if all(Card(c) in h for c in codes)), None)


def _mixed_deal() -> tuple[Round, int]:
    for seed in range(500):
        rnd = deal(rules=CATCH, seed=seed)
        seat = _holder(rnd, "QS", "TC")
        if seat is not None:
            return rnd, seat
    raise AssertionError("no deal with Q♠ and 10♣ in one hand")


def test_one_decision_shows_one_card_and_hides_another() -> None:
    rnd, seat = _mixed_deal()
    after = rnd.expose("QS TC", seat=seat, face_down="TC")
    assert after.exposed == CardSet([Card("QS")])
    assert after.face_down == CardSet([Card("TC")])
    assert seat in after.exposure_decided
    last = after.history[-1]
    assert last == Exposure(seat, CardSet([Card("QS"), Card("TC")]), CardSet([Card("TC")]))
    assert isinstance(last, Exposure)
    assert last.face_up == CardSet([Card("QS")])
    assert last.face_down_cards == CardSet([Card("TC")])
    # The same decision by its id, by its record, by its JSON form.
    mixed = protocol.exposure_action_id(up="QS", down="TC")
    assert mixed in rnd.legal_actions(seat)
    assert rnd.apply(mixed, seat) == after
    assert rnd.apply(last) == after
    message = last.to_dict()
    assert message["face_down"] == ["TC"]
    assert Action.from_dict(json.loads(json.dumps(message))) == last
    assert rnd.apply(Action.from_dict(message)) == after
    assert protocol.action_id(last) == mixed
    assert pickle.loads(pickle.dumps(after)) == after


def test_a_mixed_decision_is_priced_card_by_card_and_hidden_from_the_others() -> None:
    rnd, seat = _mixed_deal()
    rnd = rnd.expose("QS TC", seat=seat, face_down="TC").pass_exposure()
    assert rnd.exposure_factors == {Card("TC"): 2, Card("QS"): 4}
    other = (seat + 1) % 4
    theirs = rnd.view(other)
    assert theirs.exposures[seat] == CardSet([Card("QS")])
    assert theirs.face_down_counts[seat] == 1
    assert Card("TC") not in theirs.exposed
    assert not theirs.own_face_down
    mine = rnd.view(seat)
    assert mine.own_face_down == CardSet([Card("TC")])
    end = rnd.rollout(seed=3)
    assert end.score().exposed == {Card("TC"): 2, Card("QS"): 4}
    # The record keeps the decision and replays to the same deal and score.
    text = record.dumps(end, indent=None)
    assert '"face_down": ["TC"]' in text
    (replayed,) = record.loads(text).rounds
    assert replayed == end
    assert replayed.score() == end.score()


def test_mixed_exposure_is_refused_where_it_makes_no_sense() -> None:
    rnd, seat = _mixed_deal()
    with pytest.raises(IllegalActionError) as err:
        rnd.expose("QS", seat=seat, face_down="TC")  # a face-down card not exposed
    assert err.value.reason is Reason.INVALID_CHOICE
    for bad in (None, 1, 0.5):
        with pytest.raises(IllegalActionError):
            rnd.expose("QS TC", seat=seat, face_down=bad)  # type: ignore[arg-type]
    classic = deal(rules=RuleSet(), seed=0)
    holder = _holder(classic, "QS")
    assert holder is not None
    with pytest.raises(IllegalActionError) as err:
        classic.expose("QS", seat=holder, face_down="QS")
    assert err.value.reason is Reason.NOT_EXPOSABLE  # face-down exposure is not played
    assert all(i < protocol.EXPOSE_FACE_DOWN for i in classic.legal_actions())


def test_every_mixed_id_is_an_exposure_of_two_disjoint_non_empty_parts() -> None:
    pairs = protocol.MIXED_PAIRS
    assert len(pairs) == len(set(pairs)) == 50  # 3**4 - 2 * 2**4 + 1
    assert protocol.NUM_ACTIONS == protocol.EXPOSE_MIXED + 50
    for k, (up, down) in enumerate(pairs):
        action = protocol.action_for(protocol.EXPOSE_MIXED + k, seat=0)
        assert isinstance(action, Exposure)
        assert up
        assert down
        assert not up & down
        assert action.face_up
        assert action.face_down_cards
        assert not action.face_up & action.face_down_cards
        assert protocol.action_id(action) == protocol.EXPOSE_MIXED + k


@settings(max_examples=30)
@given(st.integers(0, 2**32), st.data())
def test_a_seat_holding_k_exposable_cards_has_3_to_the_k_decisions(
    seed: int, data: st.DataObject
) -> None:
    rnd = deal(rules=CATCH, seed=seed)
    seat = _actor(rnd)
    assert seat is not None
    held = len(rnd.hands[seat] & CATCH.exposable)
    ids = rnd.legal_actions()
    assert len(ids) == 3**held  # each card: kept, face up or face down
    after = rnd.apply(data.draw(st.sampled_from(ids)))
    assert seat in after.exposure_decided


# -- determinism across builds and hash seeds -----------------------------------------

_SCRIPT = r"""
import hashlib, json, random, sys
import gongzhu
from gongzhu import PRESETS, RuleSet, deal
out = []
for name in ("classic", "catch-the-pig", "online"):
    rules = PRESETS[name] if name in PRESETS else RuleSet()
    for seed in range(6):
        pick = random.Random(seed)
        r = deal(rules=rules, seed=seed)
        while not r.is_over:
            ids = r.legal_actions()
            if not ids:
                break
            r = r.apply(ids[pick.randrange(len(ids))])
        out.append([a.to_dict() for a in r.history])
        out.append(list(r.score().totals) if r.is_over else None)
        mid = deal(rules=rules, seed=seed).pass_exposure()
        out.append([a.to_dict() for a in mid.rollout(seed=seed).history])
print(gongzhu.compiled, hashlib.sha256(json.dumps(out).encode()).hexdigest())
"""


def _run(hash_seed: str, pythonpath: str | None) -> tuple[str, str]:
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = hash_seed
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT], env=env, capture_output=True, text=True, check=True
    )
    build, digest = out.stdout.split()
    return build, digest


def test_same_seed_and_actions_give_the_same_history_across_hash_seeds_and_builds(
    tmp_path: object,
) -> None:
    here = os.path.dirname(os.path.dirname(os.path.abspath(gongzhu.__file__)))
    path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)
    runs = {_run(seed, path) for seed in ("0", "1", "20261201")}
    if gongzhu.compiled:  # and a pure copy of the same sources beside it
        from gongzhu.build import _pure_copy

        runs.add(_run("7", _pure_copy(str(tmp_path))))
        assert {build for build, _ in runs} == {"True", "False"}
    assert len({digest for _, digest in runs}) == 1, runs


@pytest.mark.parametrize("order", ["in-turn", "simultaneous"])
def test_openspiel_resampling_keeps_a_mixed_decisions_information(order: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import random

    gz = pytest.importorskip("gongzhu.adapters.openspiel")
    game = pyspiel.load_game(
        "python_gongzhu", {"exposure_kind": "face-down-up", "exposure_order": order}
    )
    mixed_seen = 0
    for seed in range(12):
        state = game.new_initial_state()
        for a in gz.deal_actions(game, seed):
            state.apply_action(a)
        rng = random.Random(seed)
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        while not state.is_terminal():
            p = state.current_player()
            world = state.resample_from_infostate(p, sampler)
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.legal_actions() == state.legal_actions()
            legal = state.legal_actions()
            mixed = [a for a in legal if a >= protocol.EXPOSE_MIXED]
            if mixed:
                mixed_seen += 1
            state.apply_action(rng.choice(mixed or legal))
    assert mixed_seen  # some seat held two exposable cards and decided both ways
