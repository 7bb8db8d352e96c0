"""Tests for gongzhu.record: the JSON game record (docs/records.rst: what PGN is to chess;
RULES.md §4–§6).

Round trips use a small local random driver (random legal exposures, plays and
claims); hand-written records check the format itself; every rejection names
its deal, move or field. A record is exact: it holds ``Round.history`` as it
happened (exposure order, refused claims, cards swept up by a claim).
"""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gongzhu
from gongzhu import (
    PIG,
    PRESETS,
    Card,
    CardSet,
    ExposureKind,
    ExposureOrder,
    IllegalActionError,
    Match,
    Reason,
    RecordError,
    Round,
    RuleSet,
    RuleSetError,
    deal,
    score,
)
from gongzhu.actions import Claim, ClaimResponse, Exposure, Play
from gongzhu.record import GameRecord, dump, dumps, load, loads

SUITED = [
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
]


# -- a tiny random driver -------------------------------------------------------------


def random_exposures(rng: random.Random, r: Round) -> Round:
    """Random legal exposure decisions, one per seat (RULES.md §9.1): passes, blind, face down."""
    rules = r.rules
    if not rules.exposable:
        return r
    n = r.players
    seats = [(r.leader + k) % n for k in range(n)]
    if rules.exposure_order is not ExposureOrder.IN_TURN:
        rng.shuffle(seats)
    for seat in seats:
        held = [
            c
            for c in r.hands[seat]
            if c in rules.exposable and c not in r.exposed and c not in r.face_down
        ]
        first = r.dealt[seat][0]
        if rules.blind_exposure and first in held and rng.random() < 0.4:
            # A blind exposure comes first and is not the seat's decision (§9.4).
            r = r.expose([first], seat=seat, blind=True)
            held.remove(first)
        cards = [c for c in held if rng.random() < 0.5]
        face_down = rules.exposure_kind is ExposureKind.FACE_DOWN_UP and rng.random() < 0.5
        r = r.expose(cards, seat=seat, face_down=face_down)
    return r


def random_claim(rng: random.Random, r: Round, *, finish: bool = True) -> Round:
    """The seat to act claims; the others answer at random (some answers may be left out)."""
    r = r.claim()
    claimer = r.claim_pending[0]  # type: ignore[index]
    others = [s for s in range(r.players) if s != claimer]
    rng.shuffle(others)
    for seat in others:
        if not finish and rng.random() < 0.3:
            return r
        accept = rng.random() < 0.6
        r = r.respond(accept, seat=seat)
        if not accept:
            break
    return r


def play_random(rng: random.Random, r: Round, stop_after: int | None = None) -> Round:
    """Play random legal actions until the deal is complete (or ``stop_after`` plays)."""
    r = random_exposures(rng, r)
    plays = 0
    while not r.is_over:
        if stop_after is not None and plays >= stop_after:
            if r.can_claim() and rng.random() < 0.5:
                r = random_claim(rng, r, finish=False)
            return r
        if r.can_claim() and rng.random() < 0.06:  # bounded by RULES.md §9.7
            r = random_claim(rng, r)
            continue
        r = r.play(rng.choice(list(r.legal_plays)))
        plays += 1
    return r


def random_match(
    rules: RuleSet, rng: random.Random, deals: int, unfinished: bool
) -> tuple[list[Round], Match]:
    """Up to ``deals`` random deals of one match, maybe followed by an unfinished one."""
    match = Match(rules, first_dealer=rng.randrange(rules.players))
    rounds: list[Round] = []
    while not match.is_over and len(rounds) < deals:
        seed: int | str | None = rng.choice([rng.randrange(10**12), f"s{rng.random()}", None])
        if seed is None:
            # A deal without a seed, but drawn from rng so that the test is repeatable.
            cards = list(rules.deck)
            rng.shuffle(cards)
            n = rules.players
            hands = [cards[(seat - match.dealer - 1) % n :: n] for seat in range(n)]
            r = Round.from_hands(hands, rules=rules, leader=match.next_leader, dealer=match.dealer)
        else:
            r = deal(rules=rules, seed=seed, leader=match.next_leader, dealer=match.dealer)
        r = play_random(rng, r)
        rounds.append(r)
        match = match.add(r)
    if unfinished and not match.is_over:
        r = deal(
            rules=rules, seed=rng.randrange(1000), leader=match.next_leader, dealer=match.dealer
        )
        rounds.append(play_random(rng, r, stop_after=rng.randrange(52)))
    return rounds, match


OVERRIDES = st.fixed_dictionaries(
    {},
    optional={
        "claims": st.booleans(),
        "exposure_order": st.sampled_from(["simultaneous", "in-turn"]),
        "three_exposed_force_fourth": st.booleans(),
        "blind_exposure": st.booleans(),
        "exposure_kind": st.sampled_from(["open", "face-down-up"]),
        "end_when_points_out": st.booleans(),
        "must_lead_opening_card": st.booleans(),
        "players": st.sampled_from([3, 4, 5]),
        "hearts_must_be_broken": st.booleans(),
        "loss_threshold": st.sampled_from([-1000, -300]),
    },
)


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    """A preset with random overrides (combinations the RuleSet refuses are redrawn)."""
    base = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    changes = draw(OVERRIDES)
    try:
        return base.replace(**changes)
    except RuleSetError:
        return base


# -- round trips ------------------------------------------------------------------------


@settings(max_examples=40)
@given(rules=rule_sets(), seed=st.integers(0, 2**32), deals=st.integers(1, 4),
       unfinished=st.booleans())  # fmt: skip
def test_reading_a_written_match_replays_equal_rounds_and_the_same_match(
    rules: RuleSet, seed: int, deals: int, unfinished: bool
) -> None:
    rounds, _match = random_match(rules, random.Random(seed), deals, unfinished)
    text = dumps(rounds)
    rec = loads(text)
    assert rec.rounds == tuple(rounds)
    assert rec.rules == rules
    # The last deal may have been finished by a claim even when cut short.
    complete = [r for r in rounds if r.is_over]
    match = Match(rules, first_dealer=rounds[0].dealer).extend(complete)
    assert rec.match == (match if complete else None)
    assert dumps(rec) == text
    assert rec.to_dict() == json.loads(text)
    assert loads(dumps(rounds, indent=None)) == rec


@settings(max_examples=40)
@given(rules=rule_sets(), seed=st.integers(0, 2**32), stop=st.integers(0, 52))
def test_every_state_of_a_deal_round_trips_exactly(rules: RuleSet, seed: int, stop: int) -> None:
    rng = random.Random(seed)
    r = play_random(rng, deal(rules=rules, seed=seed), stop_after=stop)
    text = dumps(r)
    assert loads(text).rounds == (r,)
    assert dumps(loads(text)) == text


def written_actions(r: Round) -> list[Any]:
    """The exposures and actions of the record of ``r`` (one deal), in order."""
    (data,) = json.loads(dumps(r))["deals"]
    return [*data["exposures"], *data["actions"]]


def as_json(action: Any) -> Any:
    """An action of ``Round.history`` as the format spells it (module docs of gongzhu.record)."""
    if isinstance(action, Play):
        return action.card.code
    if isinstance(action, Claim):
        return {"claim": action.seat}
    if isinstance(action, ClaimResponse):
        return {"respond": action.seat, "accept": action.accept}
    assert isinstance(action, Exposure)
    return {"cards": [c.code for c in action.cards], "face_down": action.face_down,
            "blind": action.blind}  # fmt: skip


@settings(max_examples=30)
@given(rules=rule_sets(), seed=st.integers(0, 2**32), stop=st.integers(0, 52))
def test_a_record_lists_every_action_of_the_history_in_order(
    rules: RuleSet, seed: int, stop: int
) -> None:
    r = play_random(random.Random(seed), deal(rules=rules, seed=seed), stop_after=stop)
    written = written_actions(r)
    assert len(written) == len(r.history)
    for action, item in zip(r.history, written, strict=True):
        expected = as_json(action)
        if isinstance(action, Exposure):
            seat = item.pop("seat", None)
            seat = item.pop("expose", seat)
            assert seat == action.seat
        assert item == expected
    assert loads(dumps(r)).rounds[0].history == r.history


def test_the_cards_of_a_trick_swept_up_by_an_accepted_claim_are_kept() -> None:
    # RULES.md §7 claims (002 glossary): the claimer takes every card still in play,
    # the unfinished trick's too; the record keeps which cards were played to it.
    rules = RuleSet(claims=True)
    r = deal(rules=rules, seed=11).pass_exposure()
    for _ in range(6):
        r = r.play(r.legal_plays[0])
    on_table = [c.code for c in r.current_trick.cards]
    assert len(on_table) == 2
    claimer = r.to_act
    assert claimer is not None
    r = r.claim()
    for seat in (2, 0, 3, 1):  # answers in a non-seat order, kept as given
        if seat != claimer:
            r = r.respond(True, seat=seat)
    assert r.is_over
    assert r.current_trick.cards == ()
    actions = json.loads(dumps(r))["deals"][0]["actions"]
    assert actions[4:6] == on_table
    assert [a["respond"] for a in actions if isinstance(a, dict) and "respond" in a] == [
        s for s in (2, 0, 3, 1) if s != claimer
    ]
    assert loads(dumps(r)).rounds == (r,)


def test_every_refused_claim_and_every_answer_round_trips() -> None:
    # A refused claim leaves the claimer's hand shown (002 glossary); the same seat may
    # claim again once another trick is complete (RULES.md §9.7), and acceptances
    # before a refusal are part of the history.
    r = deal(rules=RuleSet(claims=True), seed=21).pass_exposure()
    for _ in range(5):
        r = r.play(r.legal_plays[0])
    first = r.to_act
    assert first is not None
    r = r.claim().respond(True, seat=(first + 2) % 4).respond(False, seat=(first + 1) % 4)
    assert not r.can_claim()
    for _ in range(3):  # the trick completes
        r = r.play(r.legal_plays[0])
    r = r.claim().respond(False, seat=(r.to_act + 1) % 4)  # type: ignore[operator]
    for _ in range(4):
        r = r.play(r.legal_plays[0])
    second = r.to_act
    assert second is not None
    r = r.claim().respond(True, seat=(second + 2) % 4)  # pending: one answer so far
    actions = json.loads(dumps(r))["deals"][0]["actions"]
    assert actions[5:8] == [
        {"claim": first},
        {"respond": (first + 2) % 4, "accept": True},
        {"respond": (first + 1) % 4, "accept": False},
    ]
    assert actions[-2:] == [{"claim": second}, {"respond": (second + 2) % 4, "accept": True}]
    rec = loads(dumps(r))
    assert rec.rounds == (r,)
    assert rec.rounds[0].claim_pending == r.claim_pending
    assert GameRecord.from_rounds([r]) == rec


def test_sealed_exposure_calls_keep_their_split_in_one_order_whatever_order_they_came_in() -> None:
    # RULES.md §4, §9.1: under simultaneous exposure the seats decide in any order, once each;
    # §9.2: sealed, so no order can be seen. Once all have decided, the history (and so the
    # record) holds the decisions in play order from the leader: a web room's human and its
    # computers race, and the same game must write the same record (CI found the race).
    rules = RuleSet(exposure_kind="face-down-up")
    r = Round.from_hands(SUITED, rules=rules)  # seat 0 holds Q♠, 1 A♥, 2 J♦, 3 10♣
    leader = r.leader
    r = r.expose(["TC"], seat=3).expose([], seat=2, face_down=False)
    r = r.expose(["QS"], seat=0, face_down=True)
    assert [a.seat for a in r.history] == [3, 2, 0]  # still sealed: as they came
    r = r.expose(["AH"], seat=1)
    calls = json.loads(dumps(r))["deals"][0]["exposures"]
    split = {3: (["TC"], False), 2: ([], False), 0: (["QS"], True), 1: (["AH"], False)}
    order = [(leader + k) % 4 for k in range(4)]
    assert [(c["seat"], c["cards"], c["face_down"]) for c in calls] == [
        (s, *split[s]) for s in order
    ]
    assert [a.seat for a in r.history] == order
    assert loads(dumps(r)).rounds == (r,)
    swapped = Round.from_hands(SUITED, rules=rules).expose([], seat=2).expose(["TC"], seat=3)
    swapped = swapped.expose(["AH"], seat=1).expose(["QS"], seat=0, face_down=True)
    assert swapped == r  # the same sealed decisions in another order: the same position
    assert dumps(swapped) == dumps(r)
    other = Round.from_hands(SUITED, rules=rules).expose([], seat=2).expose(["TC"], seat=3)
    other = other.expose(["AH"], seat=1).expose(["QS"], seat=0)  # Q♠ face up this time
    assert other != r
    assert dumps(other) != dumps(r)


def test_in_turn_exposure_calls_keep_the_order_they_were_made_in() -> None:
    rules = RuleSet(exposure_order="in-turn")
    r = Round.from_hands(SUITED, rules=rules)
    seats = [(r.leader + k) % 4 for k in range(4)]
    for s in seats:
        r = r.expose([], seat=s)
    assert [c["seat"] for c in json.loads(dumps(r))["deals"][0]["exposures"]] == seats


def test_a_claim_before_the_first_card_waits_for_every_exposure_decision() -> None:
    # RULES.md §9.1: nothing is led or claimed until every seat has decided, so every
    # exposure comes before the first action and belongs in "exposures".
    rules = RuleSet(claims=True)
    r = Round.from_hands(SUITED, rules=rules).expose(["JD"], seat=2)
    first = r.leader
    with pytest.raises(IllegalActionError) as info:
        r.claim()
    assert info.value.reason is Reason.EXPOSURE_PENDING
    r = r.pass_exposure().claim().respond(False, seat=3)
    data = json.loads(dumps(r))["deals"][0]
    # Seat 2 decided first, the others then declined; the closed window is kept in play order.
    assert [e["seat"] for e in data["exposures"]] == [(first + k) % 4 for k in range(4)]
    assert data["actions"] == [{"claim": 0}, {"respond": 3, "accept": False}]
    assert loads(dumps(r)).rounds == (r,)
    assert dumps(loads(dumps(r))) == dumps(r)


def test_an_exposure_action_is_refused_where_the_exposures_field_belongs_or_too_late() -> None:
    expose = {"expose": 0, "cards": ["QS"]}
    rejects(record(suited_deal(actions=[expose, "2S"])), deal=1, move=1, words="'exposures'")
    rejects(record(suited_deal(actions=["2S", expose])), deal=1, move=2,
            words="first card is played")  # fmt: skip
    rejects(record(suited_deal(actions=["2S", {"expose": 0, "cards": ["QS"], "up": True}])),
            deal=1, move=2, words="unknown field 'up'")  # fmt: skip


def test_a_refused_claimer_cannot_grow_the_history_without_bound() -> None:
    # RULES.md §9.7: once refused, the claimer waits for another completed trick, so a
    # deal's history is bounded and always fits a record.
    r = deal(rules=RuleSet(claims=True), seed=1).pass_exposure()
    r = r.claim().respond(False, seat=1)
    with pytest.raises(IllegalActionError) as info:
        r.claim()
    assert info.value.reason is Reason.CLAIM_REFUSED
    assert loads(dumps(r)).rounds == (r,)


def test_in_turn_exposures_and_their_passes_are_recorded_in_turn() -> None:
    # Under in-turn exposure (RULES.md §4) seats decide once each from the leader.
    rules = RuleSet(exposure_order="in-turn")
    r = deal(rules=rules, seed=5)
    order = [(r.leader + k) % 4 for k in range(4)]
    for seat in order[:3]:
        r = r.expose([c for c in r.hands[seat] if c in rules.exposable][:1], seat=seat)
    calls = json.loads(dumps(r))["deals"][0]["exposures"]
    assert [c["seat"] for c in calls] == order[:3]
    rec = loads(dumps(r))
    assert rec.rounds == (r,)
    assert rec.rounds[0].exposure_decided == r.exposure_decided == tuple(sorted(order[:3]))


def test_a_pass_under_in_turn_exposure_is_a_call_with_no_cards() -> None:
    rules = RuleSet(exposure_order="in-turn")
    r = deal(rules=rules, seed=5)
    r = r.expose([], seat=r.leader)
    data = json.loads(dumps(r))
    assert data["deals"][0]["exposures"] == [
        {"seat": r.leader, "cards": [], "face_down": False, "blind": False}
    ]
    assert loads(dumps(r)).rounds == (r,)


def test_a_forced_fourth_exposure_is_not_written_as_a_call() -> None:
    # "Three exposed force the fourth" (Chinese app rules): the engine exposes it at the lead.
    rules = RuleSet(three_exposed_force_fourth=True)
    for seed in range(200):
        r = deal(rules=rules, seed=seed)
        holders = {c: next(s for s in range(4) if c in r.hands[s]) for c in rules.exposable}
        if len(set(holders.values())) == 4:
            break
    forced = PIG
    for card, seat in holders.items():
        if card != forced:
            r = r.expose([card], seat=seat)
    r = r.pass_exposure()
    r = r.play(r.legal_plays[0])
    assert forced in r.exposed
    calls = json.loads(dumps(r))["deals"][0]["exposures"]
    assert all("QS" not in call["cards"] for call in calls)
    assert loads(dumps(r)).rounds == (r,)


def test_an_explicit_leader_who_holds_the_opening_card_is_kept_explicit() -> None:
    # With must_lead_opening_card (seeds/001) a given leader need not lead 2♣.
    rules = PRESETS["online"]
    r = Round.from_hands(SUITED, rules=rules)
    holder = r.leader
    explicit = Round.from_hands(SUITED, rules=rules, leader=holder)
    assert r != explicit
    assert json.loads(dumps(r))["deals"][0]["leader"] is None
    assert json.loads(dumps(explicit))["deals"][0]["leader"] == holder
    assert loads(dumps(explicit)).rounds == (explicit,)
    # Once cards are played the difference stays in the state, whatever was led.
    for card in ("2C", "AC"):
        played = explicit.pass_exposure().play(card).play("2S")
        assert json.loads(dumps(played))["deals"][0]["leader"] == holder
        assert loads(dumps(played)).rounds == (played,)
    assert json.loads(dumps(r.pass_exposure().play("2C")))["deals"][0]["leader"] is None


def test_dump_and_load_use_files() -> None:
    r = deal(seed=2)
    buffer = io.StringIO()
    dump(r, buffer, names=["A", "B", "C", "D"])
    buffer.seek(0)
    rec = load(buffer)
    assert rec.names == ("A", "B", "C", "D")
    assert rec.rounds == (r,)
    assert load(io.BytesIO(buffer.getvalue().encode())) == rec


def test_names_come_from_the_record_unless_given() -> None:
    rec = loads(dumps(deal(seed=2), names=["A", "B", "C", "D"]))
    assert json.loads(dumps(rec))["players"] == ["A", "B", "C", "D"]
    assert json.loads(dumps(rec, names=["W", "X", "Y", "Z"]))["players"] == ["W", "X", "Y", "Z"]


def test_the_package_exports_the_record_api() -> None:
    assert gongzhu.GameRecord is GameRecord
    assert gongzhu.record.loads is loads


# -- the format, by hand ------------------------------------------------------------------


def record(*deals: dict[str, Any], **top: Any) -> str:
    data: dict[str, Any] = {"format": "gongzhu", "version": 1, "rules": {"preset": "classic"}}
    data.update(top)
    data["deals"] = list(deals)
    return json.dumps(data)


SPADES_RUN = [f"{r}{s}" for r in "23456789TJQKA" for s in "SHDC"]
"""Seat 0 leads each spade, the others discard one card of their suit in rank order."""


def suited_deal(**fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "dealer": 3,
        "leader": None,
        "hands": [h.split() for h in SUITED],
        "actions": SPADES_RUN,
    }
    data.update(fields)
    return data


def test_a_hand_written_record_replays_trick_by_trick() -> None:
    # seeds/000 §03: the holder of 2♠ leads; the highest card of the suit led wins.
    rec = loads(record(suited_deal()))
    (r,) = rec.rounds
    assert r.is_over
    assert r.dealer == 3
    assert [t.winner for t in r.tricks] == [0] * 13
    assert r.tricks[11].cards == (Card("KS"), Card("KH"), Card("KD"), Card("KC"))
    assert r.score().totals == score([CardSet(gongzhu.DECK), "", "", ""]).totals
    assert rec.match is not None
    assert rec.match.totals == r.score().totals


def test_a_record_may_give_a_seed_without_hands_and_card_text_in_any_notation() -> None:
    r = deal(seed="abc", dealer=2).pass_exposure()  # a record may leave declines out
    card = r.legal_plays[0]
    rec = loads(record({"dealer": 2, "seed": "abc", "actions": [card.symbol]}))
    assert rec.rounds == (r.play(card),)


def test_exposures_claims_and_responses_in_a_hand_written_record() -> None:
    text = record(
        suited_deal(
            exposures=[{"seat": 0, "cards": ["QS"]}, {"seat": 1, "cards": ["AH"]}],
            actions=["2S", "2H", "2D", "2C", {"claim": 0}, {"respond": 1, "accept": True},
                     {"respond": 2, "accept": True}, {"respond": 3, "accept": True}],
        ),
        rules={"preset": "classic", "overrides": {"claims": True}},
    )  # fmt: skip
    (r,) = loads(text).rounds
    assert r.is_over
    assert r.exposed == CardSet([PIG, Card("AH")])
    assert r.captured[0] == CardSet(gongzhu.DECK)


def test_an_empty_record_has_rules_and_no_match() -> None:
    rec = loads(record(rules={"preset": "russian", "overrides": {"players": 5}}))
    assert rec.rules == PRESETS["russian"].replace(players=5)
    assert rec.rounds == ()
    assert rec.match is None


# -- rejections --------------------------------------------------------------------------


def two_deals() -> tuple[list[Round], dict[str, Any]]:
    rounds, _match = random_match(RuleSet(), random.Random(3), 2, unfinished=False)
    return rounds, json.loads(dumps(rounds))


def rejects(data: Any, *, deal: int | None = None, move: int | None = None,
            field: str | None = None, words: str = "") -> RecordError:  # fmt: skip
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(RecordError) as info:
        loads(text)
    error = info.value
    assert (error.deal, error.move, error.field) == (deal, move, field), str(error)
    assert words in str(error)
    return error


def test_an_illegal_move_is_refused_with_its_deal_and_move_number() -> None:
    _rounds, data = two_deals()
    actions = data["deals"][1]["actions"]
    actions[5] = actions[4]  # the next seat cannot play the card just played
    rejects(data, deal=2, move=6, words="card not in hand")


def test_a_card_that_does_not_follow_suit_is_refused() -> None:
    # seeds/000 §03: a player must follow the suit led when able.
    bad = suited_deal(actions=["2S", "3H"])
    bad["hands"][0][-1], bad["hands"][1][0] = "2H", "AS"  # seat 1 now holds a spade
    rejects(record(bad), deal=1, move=2, words="must follow suit")


def test_a_wrong_deal_score_is_refused() -> None:
    _rounds, data = two_deals()
    data["deals"][0]["result"][0] += 10
    rejects(data, deal=1, field="result", words="the replay scores")


def test_a_wrong_match_result_is_refused() -> None:
    _rounds, data = two_deals()
    data["result"]["totals"][1] -= 1
    rejects(data, field="result", words="totals")
    _rounds, data = two_deals()
    data["result"]["end_reason"] = "deal cap"
    rejects(data, field="result", words="end_reason")


def test_a_result_for_an_unfinished_deal_is_refused() -> None:
    rejects(record(suited_deal(actions=["2S"], result=[0, 0, 0, 0])), deal=1, field="result")


def test_a_duplicate_card_in_the_hands_is_refused() -> None:
    bad = suited_deal()
    bad["hands"][3][0] = "2S"
    rejects(record(bad), deal=1, field="hands", words="2♠")


def test_hands_that_disagree_with_the_seed_are_refused() -> None:
    _rounds, data = two_deals()
    hands = data["deals"][1]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    data["deals"][1]["seed"] = data["deals"][1]["seed"] or 1
    rejects(data, deal=2, field="hands", words="seed")


def test_a_later_deal_must_be_led_by_the_previous_pig_taker() -> None:
    # RULES.md §5: later deals are led by whoever took Q♠ in the previous deal.
    rounds, data = two_deals()
    taker = rounds[0].score().pig_taker
    assert data["deals"][1]["leader"] == taker
    data["deals"][1]["leader"] = None
    rejects(data, deal=2, field="leader", words=f"seat {taker}")
    data["deals"][1]["leader"] = (taker + 1) % 4
    rejects(data, deal=2, field="leader", words="pig taker")


def test_a_later_deal_must_be_led_by_the_opening_card_holder_when_the_rules_say_so() -> None:
    # seeds/003 (preset "russian"): the 2♠ holder leads every deal.
    rules = PRESETS["russian"]
    rounds, _match = random_match(rules, random.Random(4), 2, unfinished=False)
    data = json.loads(dumps(rounds))
    assert data["deals"][1]["leader"] is None
    data["deals"][1]["leader"] = rounds[1].leader
    rejects(data, deal=2, field="leader", words="opening card")


def test_the_dealer_moves_one_seat_each_deal() -> None:
    _rounds, data = two_deals()
    data["deals"][1]["dealer"] = (data["deals"][0]["dealer"] + 2) % 4
    rejects(data, deal=2, field="dealer")


def test_no_deal_may_follow_an_unfinished_one() -> None:
    _rounds, data = two_deals()
    data["deals"][0]["actions"] = data["deals"][0]["actions"][:10]
    del data["deals"][0]["result"]
    rejects(data, deal=2, words="not complete")


def test_no_deal_may_follow_the_end_of_the_match() -> None:
    rules = RuleSet(max_deals=1)
    rounds, match = random_match(rules, random.Random(5), 1, unfinished=False)
    assert match.is_over
    data = json.loads(dumps(rounds))
    data["deals"].append(data["deals"][0])
    rejects(data, deal=2, words="the match ended after deal 1")


def test_an_illegal_exposure_is_refused() -> None:
    bad = suited_deal(exposures=[{"seat": 1, "cards": ["QS"]}])
    rejects(record(bad), deal=1, field="exposures", words="card not in hand")


def test_a_claim_when_claims_are_not_played_is_refused() -> None:
    rejects(record(suited_deal(actions=["2S", {"claim": 1}])), deal=1, move=2,
            words="claims are not played")  # fmt: skip


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"colour": "red"}, None, "unknown field 'colour'"),
        ({"version": "1"}, "version", "expected an integer"),
        ({"version": True}, "version", "expected an integer"),
        ({"format": "pgn"}, "format", "expected 'gongzhu'"),
        ({"rules": {"preset": "chess"}}, "rules.preset", "unknown preset"),
        ({"rules": {"preset": "classic", "extra": 1}}, "rules", "unknown field"),
        ({"rules": {"preset": "classic", "overrides": {"players": 6}}}, "rules.overrides", "3, 4"),
        ({"rules": {"preset": "classic", "overrides": {"fun": 1}}}, "rules.overrides", "fun"),
        ({"players": ["A", "B", "C"]}, "players", "expected 4 names"),
        ({"players": ["A", "A", "B", "C"]}, "players", "distinct"),
        ({"deals": {}}, "deals", "expected a list"),
    ],
)
def test_bad_top_level_fields_are_refused_by_name(
    change: dict[str, Any], field: str | None, words: str
) -> None:
    data = json.loads(record(suited_deal()))
    data.update(change)
    rejects(data, field=field, words=words)


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"dealer": "0"}, "dealer", "expected a seat"),
        ({"dealer": 4}, "dealer", "expected a seat 0-3"),
        ({"leader": True}, "leader", "expected a seat"),
        ({"seed": 1.5}, "seed", "expected an integer, text or null"),
        ({"hands": [["2S"]]}, "hands", "expected 4 hands"),
        ({"hands": "2S 3S"}, "hands", "expected a list"),
        ({"tricks": []}, None, "unknown field 'tricks'"),
        ({"exposures": [{"seat": 0, "cards": ["QS"], "open": True}]}, "exposures", "unknown"),
        ({"exposures": [{"seat": 0, "cards": "QS"}]}, "exposures", "expected a list"),
        ({"result": [0, 0, 0]}, "result", ""),
    ],
)
def test_bad_deal_fields_are_refused_by_name(
    change: dict[str, Any], field: str | None, words: str
) -> None:
    rejects(record(suited_deal(**change)), deal=1, field=field, words=words)


@pytest.mark.parametrize(
    ("action", "words"),
    [
        (7, "expected a card code"),
        ("1X", "bad card"),
        ({"claim": 0, "accept": True}, "unknown field 'accept'"),
        ({"respond": 1}, "missing field 'accept'"),
        ({"pass": 1}, "an action object is"),
        ({"expose": 9, "cards": []}, "expected a seat 0-3"),
        ([], "expected a card code"),
    ],
)
def test_bad_actions_are_refused_with_their_move_number(action: Any, words: str) -> None:
    bad = suited_deal(actions=["2S", "2H", action])
    rejects(record(bad), deal=1, move=3, words=words)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[]", "expected an object"),
        ('"gongzhu"', "expected an object"),
        ("{", "not valid JSON"),
        ('{"format": "gongzhu", "format": "gongzhu"}', "duplicate key 'format'"),
        ('{"format": NaN}', "NaN is not allowed"),
        ('{"format": -Infinity}', "-Infinity is not allowed"),
        ('{"format": "gongzhu", "version": 1}', "missing field 'rules'"),
    ],
)
def test_text_that_is_not_a_record_is_refused(text: str, words: str) -> None:
    with pytest.raises(RecordError, match=words):
        loads(text)


# -- writing what cannot be a record ------------------------------------------------------


def test_deals_under_different_rules_cannot_share_a_record() -> None:
    with pytest.raises(RecordError, match="rules of deal 1") as info:
        dumps([deal(seed=1), deal(rules=RuleSet(claims=True), seed=2)])
    assert info.value.deal == 2


def test_unrelated_rounds_are_not_a_match() -> None:
    first = play_random(random.Random(1), deal(seed=1))
    with pytest.raises(RecordError) as info:
        dumps([first, deal(seed=2)])  # dealer 0 again, and the pig taker does not lead
    assert info.value.deal == 2


@pytest.mark.parametrize("game", [[], "text", 3, [deal(seed=1), "x"]])
def test_only_rounds_and_records_can_be_written(game: Any) -> None:
    with pytest.raises(RecordError):
        dumps(game)


def test_bad_names_are_refused_when_writing() -> None:
    with pytest.raises(RecordError, match="distinct"):
        dumps(deal(seed=1), names=["A", "A", "B", "C"])
    with pytest.raises(RecordError):
        dumps(deal(seed=1), names="ABCD")


def test_records_refuse_illegal_histories_before_the_engine_state_changes() -> None:
    # A RecordError for a bad move is the engine's IllegalActionError, located.
    bad = suited_deal(actions=["3S"])
    rules = RuleSet(must_lead_opening_card=True)
    with pytest.raises(IllegalActionError):
        Round.from_hands(SUITED, rules=rules).play("3S")
    rejects(
        record(bad, rules={"preset": "classic", "overrides": {"must_lead_opening_card": True}}),
        deal=1,
        move=1,
        words="opening card must be led",
    )
