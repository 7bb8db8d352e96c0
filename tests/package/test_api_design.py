"""The API decisions of docs/api_design.rst (issue 28 item 2), each checked once.

One name per job (``is_over``), the verify/can/do triplet for every action kind, a preset's
name wherever a rule set is taken, typed errors that repeat the bad input and turn into
JSON, the face-up factor's one home, and what a view asks of its seat.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from gongzhu import (
    Card,
    CardParseError,
    IllegalActionError,
    Play,
    ProtocolError,
    RuleSet,
    RuleSetError,
    deal,
    exposure_factors,
    exposure_preview,
    score,
)
from gongzhu.errors import DealNotOverError, GongzhuError
from gongzhu.phase import Pending
from gongzhu.round import Round
from gongzhu.view import PlayerView

HANDS = [
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
]


# -- one name per job, and no old names kept beside it -------------------------------------


def test_a_round_says_is_over_and_has_no_old_name_for_it() -> None:
    end = deal(seed=3).rollout(seed=1)
    assert end.is_over
    assert not deal(seed=3).is_over
    assert not hasattr(end, "is_complete")


def test_an_action_is_applied_by_the_round_only() -> None:
    r = deal(seed=5).pass_exposure()
    play = Play(seat=r.to_act, card=r.legal_plays[0])
    assert not hasattr(play, "apply")
    assert r.apply(play) == r.play(play.card)
    assert not hasattr(r, "exposure_preview")  # scoring's exposure_preview, a view's previews


# -- verify / can / do for every action kind ----------------------------------------------


def test_every_action_kind_has_check_can_and_do() -> None:
    r = deal(seed=3)
    holder = next(s for s, h in enumerate(r.hands) if Card("QS") in h)
    other = (holder + 1) % 4
    assert r.can_expose("QS", seat=holder)
    assert not r.can_expose("QS", seat=other)
    r.check_expose("QS", seat=holder)  # accepted: nothing raised
    with pytest.raises(IllegalActionError) as refused:
        r.check_expose("QS", seat=other)
    with pytest.raises(IllegalActionError) as done:
        r.expose("QS", seat=other)
    assert refused.value.reason is done.value.reason
    playing = r.pass_exposure()
    assert not playing.can_claim()
    assert not playing.can_respond(True, seat=1)
    with pytest.raises(IllegalActionError):
        playing.check_claim()
    with pytest.raises(IllegalActionError):
        playing.check_respond(True, seat=1)
    claiming = deal(rules=RuleSet(claims=True, exposable=""), seed=2)
    claiming = claiming.claim() if claiming.can_claim() else claiming
    if claiming.claim_pending is not None:
        answer = (claiming.claim_pending[0] + 1) % 4
        assert claiming.can_respond(False, seat=answer)
        claiming.check_respond(False, seat=answer)


def test_check_expose_changes_nothing() -> None:
    r = deal(seed=3)
    before = r
    r.check_expose("", seat=0)
    assert r == before
    assert r.exposure_decided == ()


# -- a preset's name wherever a rule set is taken --------------------------------------------


def test_a_preset_name_is_taken_wherever_a_rule_set_is() -> None:
    online = RuleSet.preset("online")
    assert score("10C 3H", rules="online") == score("10C 3H", rules=online)
    assert exposure_factors("QS", rules="catch-the-pig") == {Card("QS"): 4}
    assert str(exposure_preview("QS", rules="catch-the-pig")) == "Pig -100 → -400"
    assert deal(rules="online", seed=4) == deal(rules=online, seed=4)
    assert Round.from_hands(HANDS, rules="online") == Round.from_hands(HANDS, rules=online)
    with pytest.raises(RuleSetError, match="known: classic"):
        score("QS", rules="onlne")


def test_a_preset_name_is_taken_by_the_match_the_table_the_view_and_the_bots_too() -> None:
    from gongzhu.ai.driver import team_of
    from gongzhu.dealing import shuffled_deck
    from gongzhu.match import Match
    from gongzhu.parallel import play_task
    from gongzhu.table import Table

    pairs = RuleSet.preset("online").replace(partnerships=True)
    online = RuleSet.preset("online")
    assert Match("online") == Match(online) == Match.new("online")
    table = Table.start("online", seed=7)
    assert table.rules == online
    assert table.to_dict() == Table.start(online, seed=7).to_dict()
    assert Table.replay("online", 7, 1, []).round == table.round
    view = table.round.view(0)
    lean = view.to_dict(include_rules=False)
    assert PlayerView.from_dict(lean, rules="online") == view
    with pytest.raises(ProtocolError, match="unknown preset 'onlne'; known: classic") as caught:
        PlayerView.from_dict(lean, rules="onlne")
    assert caught.value.path == "rules"
    assert team_of("online", 1) == team_of(online, 1) == (1,) != team_of(pairs, 1)
    assert shuffled_deck("online", 3) == shuffled_deck(online, 3)

    def bots(seed: int) -> list[Any]:
        from gongzhu.bots import RandomStrategy

        return [RandomStrategy(seed=seed + s) for s in range(4)]

    assert play_task("online", bots, 1, 0, False) == play_task(online, bots, 1, 0, False)


# -- errors --------------------------------------------------------------------------------


def test_illegal_action_error_is_a_value_error() -> None:
    r = deal(seed=1).pass_exposure()
    with pytest.raises(ValueError):
        r.play(r.legal_plays[0], seat=(r.to_act + 1) % 4)


def test_scoring_an_unfinished_deal_is_its_own_error_and_still_an_illegal_action() -> None:
    with pytest.raises(DealNotOverError) as caught:
        deal(seed=1).score()
    assert isinstance(caught.value, IllegalActionError)
    assert pickle.loads(pickle.dumps(caught.value)).reason is caught.value.reason


@pytest.mark.parametrize("text", ["1X", "Q♠♠", "11H"])
def test_a_card_error_repeats_the_bad_text(text: str) -> None:
    with pytest.raises(CardParseError) as caught:
        Card(text)
    assert repr(text) in str(caught.value)


def test_a_bad_option_value_lists_the_allowed_values() -> None:
    with pytest.raises(RuleSetError) as caught:
        RuleSet(direction="left")
    assert "'clockwise'" in str(caught.value)
    assert "'counter-clockwise'" in str(caught.value)
    assert "'left'" in str(caught.value)


def test_every_error_a_client_can_receive_has_to_dict() -> None:
    errors: list[GongzhuError] = []
    for attempt in (
        lambda: RuleSet(players=7),
        lambda: Card("1X"),
        lambda: PlayerView.from_dict({}),
        lambda: deal(seed=1).score(),
    ):
        try:
            attempt()
        except GongzhuError as error:
            errors.append(error)
    assert [type(e).__name__ for e in errors] == [
        "RuleSetError",
        "CardParseError",
        "ProtocolError",
        "DealNotOverError",
    ]
    for error in errors:
        d = error.to_dict()
        assert d["message"] == str(error)
    assert isinstance(errors[2], ProtocolError)
    assert errors[2].to_dict()["path"] == errors[2].path


# -- the face-up factor's one home -----------------------------------------------------------


def test_the_face_up_factor_is_read_from_the_rule_set() -> None:
    for name in ("classic", "catch-the-pig"):
        rules = RuleSet.preset(name)
        assert rules.engine.face_up_factor == rules.face_up_factor
        assert exposure_factors("QS", rules=rules) == {Card("QS"): rules.face_up_factor}


# -- what a view asks of its seat --------------------------------------------------------------


def test_a_view_says_what_its_seat_is_asked() -> None:
    r = deal(seed=1)
    assert {r.view(s).pending for s in range(4)} == {Pending.EXPOSE}  # simultaneous
    r = r.expose("", seat=2)
    assert r.view(2).pending is None
    assert r.view(0).pending is Pending.EXPOSE
    r = r.pass_exposure()
    assert [r.view(s).pending for s in range(4)] == [
        Pending.PLAY if s == r.to_act else None for s in range(4)
    ]
    assert r.view(r.to_act).to_dict()["pending"] == "play"
    assert deal(seed=1).rollout(seed=2).view(0).pending is None
    in_turn = deal(rules=RuleSet(exposure_order="in-turn"), seed=1)
    asked = [s for s in range(4) if in_turn.view(s).pending is Pending.EXPOSE]
    assert asked == [in_turn.exposure_pending[0]]


def test_a_claim_asks_the_other_seats_to_respond() -> None:
    r = deal(rules=RuleSet(claims=True, exposable=""), seed=2)
    while not r.can_claim() and not r.is_over:
        r = r.play(r.legal_plays[0])
    if r.is_over:
        pytest.skip("no claim was possible in this deal")
    claimer = r.to_act
    r = r.claim()
    asked = {s for s in range(4) if r.view(s).pending is Pending.RESPOND}
    assert claimer not in asked
    assert asked


def test_a_view_without_its_rules_reads_back_with_them() -> None:
    view = deal(seed=1).pass_exposure().view(0)
    lean = view.to_dict(include_rules=False)
    assert "rules" not in lean
    assert view.to_dict()["rules"] == view.rules.to_dict()
    assert PlayerView.from_dict(lean, rules=view.rules) == view
    with pytest.raises(ProtocolError, match="rules"):
        PlayerView.from_dict(lean)
    old = view.to_dict()
    del old["pending"]  # written before the field existed: read, with no pending
    assert PlayerView.from_dict(old).pending is None
