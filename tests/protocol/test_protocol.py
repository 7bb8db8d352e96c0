"""The client protocol (issue #13): JSON forms round-trip, match their schemas, refuse garbage.

Every dict the library writes — views at every step of random deals under
random rule sets, every action of their histories, refusals, scores, rule
sets and game records — is validated against the shipped JSON Schema, and
read back to an equal object.
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_round_laws import fresh_rounds, playout

from gongzhu import (
    PRESETS,
    Action,
    Card,
    Claim,
    ClaimResponse,
    DealError,
    DealScore,
    Exposure,
    GongzhuError,
    IllegalActionError,
    Phase,
    Play,
    PlayerView,
    ProtocolError,
    Round,
    RuleSet,
    deal,
    protocol,
    record,
)
from gongzhu.testing import finished_rounds, rounds_in_progress, rule_sets

jsonschema = pytest.importorskip("jsonschema")

_VALIDATORS = {
    name: jsonschema.Draft202012Validator(protocol.schema(name)) for name in protocol.SCHEMA_NAMES
}


def valid(name: str, data: Any) -> None:
    """Fail with the schema's own message when ``data`` does not match schema ``name``."""
    errors = sorted(_VALIDATORS[name].iter_errors(data), key=lambda e: list(e.path))
    assert not errors, f"{name}: {errors[0].message} at {list(errors[0].path)}"
    json.dumps(data, allow_nan=False)  # JSON-safe, no NaN


def roundtrip_view(rnd: Round) -> None:
    for seat in range(rnd.players):
        view = rnd.view(seat)
        data = view.to_dict()
        if seat == len(rnd.history) % rnd.players:  # schema checks are slow: one seat a state
            valid("view", data)
        assert PlayerView.from_dict(json.loads(json.dumps(data))) == view


# -- the schemas themselves ------------------------------------------------------------------


@pytest.mark.parametrize("name", protocol.SCHEMA_NAMES)
def test_every_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    schema = protocol.schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_the_shipped_schemas_are_what_the_schema_source_builds() -> None:
    # The rules schema lists RuleSet's options and the error schema Reason's members: a new
    # option or reason changes the source's output, and this test says to regenerate.
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import _schema_source

    for name in protocol.SCHEMA_NAMES:
        assert protocol.schema(name) == json.loads(_schema_source.text(name)), (
            f"run: python tests/_schema_source.py ({name}.json is stale)"
        )


def test_schema_refuses_unknown_names_with_a_protocol_error() -> None:
    with pytest.raises(ProtocolError):
        protocol.schema("../../etc/passwd")


def test_schema_gives_a_fresh_copy() -> None:
    protocol.schema("view")["required"].clear()
    assert protocol.schema("view")["required"]


# -- views -------------------------------------------------------------------------------------


@settings(max_examples=6)
@given(st.data())
def test_every_view_of_a_random_deal_round_trips_and_matches_the_schema(
    data: st.DataObject,
) -> None:
    rnd, _ = data.draw(fresh_rounds())
    playout(data, rnd, roundtrip_view)


@given(rounds_in_progress())
def test_views_of_rounds_in_progress_round_trip(rnd: Round) -> None:
    roundtrip_view(rnd)


def test_a_view_holds_what_a_client_draws() -> None:
    rnd = deal(seed=11)
    holder = next(s for s, h in enumerate(rnd.hands) if rnd.rules.exposable & h)
    d = rnd.view(holder).to_dict()
    assert d["phase"] == "exposure"
    assert d["exposure_previews"], "the exposure panel: what each exposable card would change"
    assert all(p["card"] in d["hand"] for p in d["exposure_previews"])
    for s in range(4):
        rnd = rnd.expose([], seat=s) if s not in rnd.exposure_decided else rnd
    for _ in range(6):
        rnd = rnd.play(rnd.legal_plays[0])
    d = rnd.view(0).to_dict()
    assert d["trick_number"] == 2
    assert d["current_trick"]["seats"] == [(rnd.leader + i) % 4 for i in range(2)]
    assert [t["winner"] for t in d["tricks"]] == [t.winner for t in rnd.tricks]
    assert d["running_totals"] is not None
    assert len(d["running_totals"]) == 4


@given(finished_rounds(rules=RuleSet(queen_of_diamonds_bonus=50)))
def test_a_finished_views_running_totals_are_the_deal_score(rnd: Round) -> None:
    for seat in range(rnd.players):
        ds = rnd.view(seat).deal_score()
        if ds is not None:
            assert ds.totals == rnd.score().totals


@settings(max_examples=30)
@given(finished_rounds())
def test_running_totals_are_public_unless_face_down_or_blind_exposure_hides_them(
    rnd: Round,
) -> None:
    for seat in range(rnd.players):
        view = rnd.view(seat)
        hidden = (
            any(n for s, n in enumerate(view.face_down_counts) if s != seat)
            or (rnd.rules.blind_exposure and bool(rnd.exposed | rnd.face_down))
            or (  # the Q♦ swept up by an accepted claim: the view does not say by whom
                rnd.rules.queen_of_diamonds_bonus
                and not any(Card("QD") in t.cards for t in rnd.tricks)
            )
        )
        assert (view.deal_score() is None) == hidden
        if not hidden:
            assert view.running_totals == rnd.score().totals


def test_view_from_dict_refuses_a_hidden_card_and_names_the_field() -> None:
    rnd = deal(seed=2)
    d = rnd.view(0).to_dict()
    d["legal_plays"] = [rnd.hands[1][0].code]
    with pytest.raises(ProtocolError) as info:
        PlayerView.from_dict(d)
    assert info.value.path == "legal_plays"


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d.update(seat=9), "seat"),
        (lambda d: d.update(phase="dancing"), "phase"),
        (lambda d: d["hand"].append("XX"), "hand[13]"),
        (lambda d: d["hand"].append(d["hand"][0]), "hand[13]"),
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d.pop("tricks"), "tricks"),
        (lambda d: d["exposures"].pop(), "exposures"),
        (lambda d: d["current_trick"].update(winner=0), "current_trick.winner"),
        (lambda d: d["rules"].update(players="four"), "rules"),
        (lambda d: d.update(hand_sizes=[True, 13, 13, 13]), "hand_sizes[0]"),
    ],
)
def test_view_from_dict_names_the_bad_field(change: Any, path: str) -> None:
    d = deal(seed=2).view(0).to_dict()
    change(d)
    with pytest.raises(ProtocolError) as info:
        PlayerView.from_dict(d)
    assert info.value.path == path
    assert isinstance(info.value, ValueError)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(_JSON)
def test_from_dict_of_any_json_value_raises_only_a_protocol_error(value: Any) -> None:
    for read in (PlayerView.from_dict, Action.from_dict):
        with contextlib.suppress(ProtocolError):
            read(value)


@given(
    st.sampled_from(["play", "expose", "claim", "respond"]),
    st.dictionaries(st.sampled_from(["seat", "card", "cards", "accept", "face_down", "blind"]),
                    _JSON, max_size=6),
)  # fmt: skip
def test_action_from_dict_of_any_field_values_gives_an_action_or_a_protocol_error(
    kind: str, fields: dict[str, Any]
) -> None:
    try:
        action = Action.from_dict({"type": kind, **fields})
    except ProtocolError:
        return
    assert Action.from_dict(action.to_dict()) == action


@given(st.data())
def test_view_from_dict_of_a_mutated_view_raises_only_a_protocol_error(data: st.DataObject) -> None:
    d = deal(seed=data.draw(st.integers(0, 50))).view(data.draw(st.integers(0, 3))).to_dict()
    key = data.draw(st.sampled_from(sorted(d)))
    d[key] = data.draw(_JSON)
    with contextlib.suppress(ProtocolError):
        PlayerView.from_dict(d)


# -- actions -----------------------------------------------------------------------------------


@settings(max_examples=15)
@given(st.data())
def test_every_action_round_trips_and_a_server_replays_a_deal_from_the_messages(
    data: st.DataObject,
) -> None:
    # The table server's loop: rnd = rnd.apply(Action.from_dict(message)), from the start.
    start, _ = data.draw(fresh_rounds())
    end = playout(data, start, lambda r: None)
    replay = start
    for action in end.history:
        message = json.loads(json.dumps(action.to_dict()))
        valid("action", message)
        assert Action.from_dict(message) == action == type(action).from_dict(message)
        replay = replay.apply(Action.from_dict(message))
    assert replay == end


def test_round_apply_takes_an_action_read_from_a_message() -> None:
    rnd = deal(rules=RuleSet(exposable=""), seed=3)
    message = {"type": "play", "seat": rnd.to_act, "card": rnd.legal_plays[0].code}
    assert rnd.apply(Action.from_dict(message)) == rnd.play(rnd.legal_plays[0])


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"type": "play", "seat": 0}, "card"),
        ({"type": "play", "seat": -1, "card": "QS"}, "seat"),
        ({"type": "play", "seat": True, "card": "QS"}, "seat"),
        ({"type": "play", "seat": 0, "card": "Q♠"}, "card"),
        ({"type": "play", "seat": 0, "card": "QS", "x": 1}, "x"),
        ({"type": "expose", "seat": 0, "cards": ["QS", "QS"]}, "cards[1]"),
        ({"type": "expose", "seat": 0, "cards": ["QS"] * 10_000}, "cards"),
        ({"type": "expose", "seat": 0, "cards": [], "blind": "yes"}, "blind"),
        ({"type": "respond", "seat": 1, "accept": 1}, "accept"),
        ({"type": "fold", "seat": 1}, "type"),
        ({"seat": 1}, "type"),
        ([], ""),
    ],
)
def test_action_from_dict_names_the_bad_field(data: Any, path: str) -> None:
    with pytest.raises(ProtocolError) as info:
        Action.from_dict(data)
    assert info.value.path == path


def test_action_records_share_a_base_class_and_their_json_forms_are_stable() -> None:
    assert all(issubclass(k, Action) for k in (Play, Exposure, Claim, ClaimResponse))
    assert Exposure.from_dict({"type": "expose", "seat": 2, "cards": []}).to_dict() == {
        "type": "expose", "seat": 2, "cards": [], "face_down": False, "blind": False,
    }  # fmt: skip
    assert Claim(3).to_dict() == {"type": "claim", "seat": 3}
    assert ClaimResponse(0, False).to_dict() == {"type": "respond", "seat": 0, "accept": False}


# -- refusals ------------------------------------------------------------------------------


@settings(max_examples=30)
@given(rounds_in_progress(), st.data())
def test_every_refusal_has_a_language_free_reason_and_matches_the_schema(
    rnd: Round, data: st.DataObject
) -> None:
    card = data.draw(st.sampled_from(list(rnd.rules.deck)))
    seat = data.draw(st.none() | st.integers(-1, 5))
    try:
        rnd.play(card, seat=seat)
    except IllegalActionError as exc:
        refused = exc
    else:
        return
    d = refused.to_dict()
    valid("error", d)
    assert d["reason"] == refused.reason.name
    assert d["message"] == str(refused)


def test_an_illegal_action_from_a_message_gives_the_client_the_reason() -> None:
    rnd = deal(rules=RuleSet(exposable=""), seed=3)
    other = (rnd.to_act + 1) % 4
    message = {"type": "play", "seat": other, "card": rnd.hands[other][0].code}
    with pytest.raises(IllegalActionError) as info:
        rnd.apply(Action.from_dict(message))
    assert info.value.to_dict()["reason"] == "NOT_YOUR_TURN"
    assert info.value.to_dict()["card"] == message["card"]


# -- scores, rules, records ----------------------------------------------------------------


@given(finished_rounds())
def test_every_deal_score_round_trips_and_matches_the_schema(rnd: Round) -> None:
    ds = rnd.score()
    d = ds.to_dict()
    valid("score", d)
    assert DealScore.from_dict(json.loads(json.dumps(d))) == ds


@given(finished_rounds(rules=RuleSet(queen_of_diamonds_bonus=50, partnerships=True)))
def test_deal_scores_with_the_queen_bonus_and_teams_round_trip(rnd: Round) -> None:
    d = rnd.score().to_dict()
    valid("score", d)
    assert DealScore.from_dict(d) == rnd.score()


@pytest.mark.parametrize("key", ["totals", "players", "pig_taker"])
def test_deal_score_from_dict_refuses_a_stated_result_the_cards_do_not_give(key: str) -> None:
    d = DealScore.to_dict(record_round().score())
    d[key] = [] if key != "pig_taker" else 3 - (d["pig_taker"] or 0)
    with pytest.raises(DealError):
        DealScore.from_dict(d)


def record_round() -> Round:
    r = deal(rules=RuleSet(exposable=""), seed=7)
    while not r.is_over:
        r = r.play(r.legal_plays[0])
    return r


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_matches_the_rules_schema(name: str) -> None:
    valid("rules", PRESETS[name].to_dict())
    valid("rules", PRESETS[name].to_dict(only_changes_from=RuleSet()))


@given(rule_sets())
def test_random_rule_sets_match_the_rules_schema(rules: RuleSet) -> None:
    valid("rules", rules.to_dict())


@settings(max_examples=20)
@given(finished_rounds(), st.booleans())
def test_every_game_record_written_matches_the_record_schema(rnd: Round, names: bool) -> None:
    text = record.dumps(
        rnd, names=["Ann", "Bob", "Cid", "Dee", "Eve"][: rnd.players] if names else None
    )
    valid("record", json.loads(text))


@given(rounds_in_progress())
def test_records_of_unfinished_deals_match_the_record_schema(rnd: Round) -> None:
    try:
        text = record.dumps(rnd)
    except GongzhuError:  # more actions than a record holds
        return
    valid("record", json.loads(text))


# -- the import promise --------------------------------------------------------------------


def test_import_gongzhu_imports_no_optional_package() -> None:
    code = (
        "import sys, gongzhu, gongzhu.protocol, gongzhu.adapters; v = gongzhu.deal(seed=1).view(0);"
        " v.to_dict(); v.legal_actions(); "
        "print(sorted(m for m in ('numpy', 'pettingzoo', 'gymnasium', 'pyspiel', 'jsonschema',"
        " 'open_spiel') if m in sys.modules))"
    )
    src = str(Path(__file__).resolve().parents[2] / "src")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True,
        env={"PYTHONPATH": src},
    )  # fmt: skip
    assert out.stdout.strip() == "[]"


def test_every_phase_value_is_in_the_view_schema() -> None:
    assert protocol.schema("view")["properties"]["phase"]["enum"] == [p.value for p in Phase]


_CODE_TEXT = re.compile(r'"([2-9TJQKA][CDHS])"')


@given(rounds_in_progress())
def test_a_json_view_names_no_card_its_seat_may_not_see(rnd: Round) -> None:
    # A view goes over the wire as is: no other seat's unplayed card may appear in it unless
    # it is public (exposed face up, shown by a claim).
    public = rnd.exposed | rnd.shown
    for seat in range(rnd.players):
        data = rnd.view(seat).to_dict()
        del data["rules"]  # the rule set names cards (the opening card), not anyone's hand
        named = {Card(code) for code in _CODE_TEXT.findall(json.dumps(data))}
        for other in range(rnd.players):
            if other != seat:
                hidden = rnd.hands[other] - public
                assert not named & set(hidden), f"seat {seat} sees {named & set(hidden)}"


def test_every_reason_name_fits_the_error_schema() -> None:
    from gongzhu import Reason

    for reason in Reason:
        error = IllegalActionError(reason, 0, Card("QS"))
        valid("error", error.to_dict())
        assert error.to_dict()["card"] == "QS"


def test_the_wire_form_is_read_by_the_protocol_and_round_apply_refuses_a_dict() -> None:
    # A server is ``round = round.apply(Action.from_dict(message))``: the wire form is the
    # protocol's, and the engine facade takes records and ids only.
    from gongzhu import Action, IllegalActionError, ProtocolError, deal

    r = deal(seed=5).pass_exposure()
    seat = r.to_act
    assert seat is not None
    card = r.legal_plays[0]
    message = {"type": "play", "seat": seat, "card": card.code}
    assert r.apply(Action.from_dict(message)) == r.play(card, seat=seat)
    with pytest.raises(IllegalActionError, match="not an action id or record: dict"):
        r.apply(message)  # type: ignore[arg-type]
    with pytest.raises(ProtocolError):
        Action.from_dict({"type": "play", "seat": seat})
    with pytest.raises(ProtocolError):
        Action.from_dict({"type": "dance"})


# -- a view says who has decided on exposure and how far the deal has gone -------------------


def test_a_view_says_who_has_decided_on_exposure_even_while_sealed() -> None:
    rnd = deal(rules=RuleSet(exposure_order="simultaneous"), seed=3)
    before = rnd.view(1).to_dict()
    rnd = rnd.expose([], seat=0)
    after = rnd.view(1).to_dict()
    assert before["exposure_decided"] == []
    assert after["exposure_decided"] == [0]
    assert after["history_length"] == before["history_length"] + 1
    assert before != after  # a client can tell the stale view from the fresh one
    valid("view", after)
    assert PlayerView.from_dict(after).exposure_decided == (0,)


@settings(max_examples=30, deadline=None)
@given(rounds_in_progress(rules=rule_sets()))
def test_the_history_length_of_a_view_is_the_rounds(rnd: Round) -> None:
    view = rnd.view(0)
    assert view.history_length == len(rnd.history)
    assert view.exposure_decided == rnd.exposure_decided
    data = view.to_dict()
    valid("view", data)
    back = PlayerView.from_dict(data)
    assert (back.history_length, back.exposure_decided) == (len(rnd.history), rnd.exposure_decided)


def test_a_view_written_before_the_freshness_fields_still_reads() -> None:
    data = deal(seed=2).view(0).to_dict()
    del data["exposure_decided"], data["history_length"]
    view = PlayerView.from_dict(data)
    assert (view.exposure_decided, view.history_length) == ((), 0)
