"""Regression tests for the engine items of issue #11 and the decisions of RULES.md §9.

Each test failed on 0.1.0 (the item it guards is named) and passes now.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import inspect
import pickle
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

import gongzhu.errors as errors_module
from gongzhu import (
    PIG,
    Card,
    CardParseError,
    CardSet,
    DealError,
    GongzhuError,
    IllegalActionError,
    Phase,
    Reason,
    Round,
    RuleSet,
    Trick,
    deal,
    parse_cards,
    record,
)
from gongzhu._core.state import State, chain, entries

TABLE = [
    "2S 3S 4S 5S 2C 3C 4C 5C 2D 3D 4D 5D 2H",
    "QS 6S 7S 6C 7C 8C 9C 3H 4H 5H 6H 7H 8H",
    "KS AS TC JC 6D 7D 8D 9D TD JD 9H TH JH",
    "8S 9S TS JS QC KC AC QD KD AD QH KH AH",
]
SUITS = [
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
]


def refusal(action: Any) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        action()
    return info.value


# -- #11 item 1: bounded histories, non-recursive hash/eq/pickle/deepcopy ------------------------


def test_a_refused_claimer_may_not_claim_again_until_a_trick_is_complete() -> None:
    # RULES.md §9.7; on 0.1.0 claim/refuse cycles grew the history without bound.
    r = deal(rules=RuleSet(claims=True), seed=1).pass_exposure()
    c = r.to_act
    assert c is not None
    r = r.claim(c).respond(False, seat=(c + 1) % 4)
    assert refusal(lambda: r.claim(c)).reason is Reason.CLAIM_REFUSED
    assert not r.can_claim(c)
    while r.trick_number == 1:
        r = r.play(r.legal_plays[0])
    assert r.can_claim()  # another trick is complete: the seat to act may claim
    # Another seat may claim in the same trick as a refused one.
    r2 = r.claim().respond(False, seat=(r.to_act + 1) % 4)  # type: ignore[operator]
    r2 = r2.play(r2.legal_plays[0])
    assert r2.can_claim()


def test_a_seat_may_not_decline_exposure_again_and_again() -> None:
    # RULES.md §9.1: one decision per seat (0.1.0 accepted repeated declines).
    r = deal(seed=1).expose((), seat=2)
    assert refusal(lambda: r.expose((), seat=2)).reason is Reason.ALREADY_DECIDED


def test_the_longest_reachable_history_stays_bounded() -> None:
    # Every seat claims at every trick and is refused: the most actions a deal can hold.
    r = deal(rules=RuleSet(claims=True), seed=3).pass_exposure()
    while not r.is_over:
        if r.can_claim():
            claimer = r.to_act
            assert claimer is not None
            r = r.claim().respond(False, seat=(claimer + 1) % 4)
            continue
        r = r.play(r.legal_plays[0])
    assert len(r.history) <= 4 + 52 + 2 * 52
    assert pickle.loads(pickle.dumps(r)) == r
    assert copy.deepcopy(r) == r
    assert record.loads(record.dumps(r)).rounds == (r,)


def test_hash_eq_pickle_and_deepcopy_do_not_recurse_on_a_long_history() -> None:
    # #11 item 1: hash() segfaulted and ==, pickle, deepcopy hit RecursionError. The public
    # API can no longer reach such a history, so build one in the core: 20,000 exposure
    # entries (a kind the log stores like any other).
    start = deal(seed=1).engine_state
    long_log = chain(tuple(1 | (s % 4) << 2 for s in range(20_000)))
    s = State(
        start.table, start.gone, start.capt, start.leader, start.trick, start.tricks,
        start.flags, start.done, long_log,
    )  # fmt: skip
    r = Round.from_engine_state(s)
    assert len(entries(r.engine_state.log)) == 20_000
    hash(r)
    assert r == Round.from_engine_state(s)
    back = pickle.loads(pickle.dumps(r))
    assert back == r
    assert hash(back) == hash(r)
    assert copy.deepcopy(r) is r  # immutable: a copy is the round itself
    assert copy.copy(r) is r
    assert len(r.history) == 20_000


# -- #11 item 5: every error round-trips through pickle and copy ------------------------------


def _error_examples() -> Iterator[GongzhuError]:
    yield IllegalActionError(Reason.NOT_IN_HAND, 2, Card("QS"), "detail", action="expose")
    yield IllegalActionError(Reason.WRONG_PHASE, None)
    yield errors_module.ActionTypeError(Reason.INVALID_CHOICE, None, detail="x", action="rollout")
    yield errors_module.CardParseError("not a card", token="1X", position=1)
    yield errors_module.RuleSetError("bad", options=("players", "partnerships"))
    yield errors_module.RecordError("bad move", deal=2, move=5, field="actions")
    for name in errors_module.__all__:
        cls = getattr(errors_module, name)
        if inspect.isclass(cls) and issubclass(cls, GongzhuError):
            with contextlib.suppress(TypeError):  # needs more arguments: covered above
                yield cls("a message")


@pytest.mark.parametrize("error", list(_error_examples()), ids=lambda e: type(e).__name__)
def test_every_error_pickles_and_copies_with_its_attributes(error: GongzhuError) -> None:
    for back in (pickle.loads(pickle.dumps(error)), copy.copy(error), copy.deepcopy(error)):
        assert type(back) is type(error)
        assert str(back) == str(error)
        assert back.args == error.args
        assert vars(back) == vars(error)


def test_every_error_class_is_covered() -> None:
    covered = {type(e) for e in _error_examples()}
    classes = {
        getattr(errors_module, n)
        for n in errors_module.__all__
        if inspect.isclass(getattr(errors_module, n))
        and issubclass(getattr(errors_module, n), GongzhuError)
    }
    assert classes <= covered


def test_errors_do_not_import_cards() -> None:
    # #10 item 4: errors sits below cards (no cards <-> errors import circle).
    tree = ast.parse(inspect.getsource(errors_module))
    imported = [
        node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
    ]
    # Only the shared leaf helpers below every layer (gongzhu._base) may be imported.
    assert not [
        m for m in imported if m and m.startswith("gongzhu") and not m.startswith("gongzhu._base.")
    ]


# -- #11 item 6: raw exceptions ---------------------------------------------------------------


def test_a_trick_with_no_players_is_a_deal_error() -> None:
    with pytest.raises(DealError):
        Trick(0, (PIG,), None, 0)
    with pytest.raises(DealError):
        Trick(5, (PIG,), None, 4)
    with pytest.raises(DealError):
        Trick(0, (PIG, PIG, PIG, PIG, PIG), None, 4)
    assert Trick(3, (PIG,), None, 4).seats == (3,)


class _LyingHands(Sequence[str]):
    """A Sequence whose len() says 4 but which holds only three hands."""

    def __init__(self, hands: list[str], claimed: int) -> None:
        self.hands = hands
        self.claimed = claimed

    def __len__(self) -> int:
        return self.claimed

    def __getitem__(self, i: Any) -> Any:
        return self.hands[i]

    def __iter__(self) -> Iterator[str]:
        return iter(self.hands)


def test_from_hands_counts_the_hands_it_reads_not_what_len_says() -> None:
    with pytest.raises(DealError, match="expected 4 hands"):
        Round.from_hands(_LyingHands(TABLE[:3], 4))
    with pytest.raises(DealError, match="expected 4 hands"):
        Round.from_hands(_LyingHands([*TABLE, TABLE[0]], 4))
    assert Round.from_hands(_LyingHands(TABLE, 3)).players == 4


def test_the_seed_domain_is_documented_and_every_accepted_seed_can_be_recorded() -> None:
    for seed in (10**5000, 10**80, -(10**80)):
        with pytest.raises(DealError, match="10\\*\\*80"):
            deal(seed=seed)
    with pytest.raises(DealError, match="1000 characters"):
        deal(seed="x" * 1001)
    for seed in (2**64, -(2**64), 2**64 + 1, 10**80 - 1, -(10**80) + 1, 0, "x" * 1000, "é"):
        r = deal(seed=seed)
        assert record.loads(record.dumps(r)).rounds == (r,)


# -- #11 item 12 / RULES.md §9.3: face-down cards stay unknown -----------------------------------


def test_a_face_down_card_does_not_count_towards_three_exposed_force_the_fourth() -> None:
    # Two face up and one face down forced the fourth face up on 0.1.0, so every seat
    # knew the face-down card was the one left over.
    rules = RuleSet.preset("catch-the-pig").replace(three_exposed_force_fourth=True)
    r = Round.from_hands(TABLE, rules=rules)  # seat 1 Q♠, seat 2 J♦ 10♣, seat 3 A♥
    r = r.expose("QS", seat=1, face_down=True).expose("JD", seat=2).expose("AH", seat=3)
    r = r.pass_exposure().play("2S")
    assert r.exposed == parse_cards("JD AH")
    assert r.face_down == parse_cards("QS")
    # Three face up do force the fourth, even one declared face down (it turns face up).
    r = Round.from_hands(TABLE, rules=rules).expose("QS", seat=1, face_down=True)
    r = r.expose("JD TC", seat=2).expose("AH", seat=3).pass_exposure().play("2S")
    assert r.exposed == parse_cards("QS JD TC AH")
    assert r.face_down == CardSet()
    assert r.exposure_factors[Card("QS")] == 4


def test_a_face_down_ace_of_hearts_does_not_lock_hearts() -> None:
    rules = RuleSet.preset("catch-the-pig").replace(hearts_locked_by_exposed_ace=True)
    r = Round.from_hands(TABLE, rules=rules, leader=1).expose("AH", seat=3, face_down=True)
    r = r.pass_exposure()
    assert r.can_play("3H")


# -- #11 item 13 / RULES.md §9.1-9.6 -------------------------------------------------------------


def test_the_first_lead_waits_for_every_exposure_decision() -> None:
    r = Round.from_hands(TABLE)
    assert r.phase is Phase.EXPOSURE
    assert r.legal_plays == CardSet()
    assert refusal(lambda: r.play("2S")).reason is Reason.EXPOSURE_PENDING
    for seat in (3, 1, 0):
        r = r.expose((), seat=seat)
        assert refusal(lambda r=r: r.play("2S")).reason is Reason.EXPOSURE_PENDING  # type: ignore[misc]
    assert r.exposure_pending == (2,)
    r = r.expose((), seat=2)
    assert r.phase is Phase.PLAY
    assert r.play("2S").to_act == 1
    # Without exposure in the rules there is nothing to wait for.
    assert Round.from_hands(TABLE, rules=RuleSet(exposable="")).phase is Phase.PLAY


def test_in_turn_exposure_offers_one_seat_at_a_time() -> None:
    r = Round.from_hands(TABLE, rules=RuleSet(exposure_order="in-turn"), leader=2)
    assert r.exposure_pending == (2,)
    r = r.expose(())  # the seat may be left out: it is known
    assert r.exposure_pending == (3,)
    assert r.expose("AH").exposed == parse_cards("AH")  # in turn: public at once
    assert r.expose("AH").view(0).exposures[3] == parse_cards("AH")


def test_simultaneous_choices_are_sealed_until_all_have_decided() -> None:
    # RULES.md §9.2 (001: "the choices are shown together").
    r = Round.from_hands(TABLE).expose("QS", seat=1).expose("AH", seat=3)
    for seat in (0, 2):
        view = r.view(seat)
        assert view.exposures == (CardSet(),) * 4
        assert Card("QS") in r.unseen(seat)
        assert "Q" not in repr(r)
        assert "♠" not in repr(r)
    assert r.view(1).exposures[1] == parse_cards("QS")
    assert r.view(1).exposures[3] == CardSet()
    assert r.exposure_decided == (1, 3)  # who has decided is public
    # Face-down declarations are sealed too (not even their count shows).
    pig = Round.from_hands(TABLE, rules=RuleSet.preset("catch-the-pig"))
    pig = pig.expose("QS", seat=1, face_down=True)
    assert pig.view(0).face_down_counts == (0, 0, 0, 0)
    assert pig.view(1).own_face_down == parse_cards("QS")
    # All decided: revealed together.
    done = r.pass_exposure()
    assert done.view(0).exposures == (CardSet(), parse_cards("QS"), CardSet(), parse_cards("AH"))
    assert Card("QS") not in done.unseen(0)


def test_blind_exposure_is_the_first_act_of_its_seat_and_not_its_decision() -> None:
    # RULES.md §9.4: only the first dealt card, before any other exposure, once.
    rules = RuleSet(blind_exposure=True)
    r = Round.from_hands(TABLE, rules=rules)  # seat 1 was dealt Q♠ first
    blind = r.expose("QS", seat=1, blind=True)
    assert 1 not in blind.exposure_decided
    assert blind.exposure_factors == {Card("QS"): 4}
    assert refusal(lambda: blind.expose("QS", seat=1, blind=True)).reason in (
        Reason.ALREADY_EXPOSED,
        Reason.NOT_FIRST_DEALT_CARD,
    )
    decided = blind.expose((), seat=1)
    assert 1 in decided.exposure_decided
    # After its ordinary decision a seat may not expose blind.
    after = r.expose((), seat=1)
    assert refusal(lambda: after.expose("QS", seat=1, blind=True)).reason is (
        Reason.ALREADY_DECIDED
    )


def test_follow_suit_beats_the_literal_first_trick_restriction() -> None:
    # RULES.md §9.5: an exposed card that is the only card of the led suit must follow.
    rules = RuleSet(exposure_restriction="first-trick-of-deal")
    hands = [
        "2S 3S 4S 5S 2C 3C 4C 5C 2D 3D 4D 5D 2H",
        "QS 6C 7C 8C 9C QC 3H 4H 5H 6H 7H 8H KC",
        "KS AS TC JC 6D 7D 8D 9D TD JD 9H TH JH",
        "6S 7S 8S 9S TS JS AC QD KD AD QH KH AH",
    ]
    r = Round.from_hands(hands, rules=rules).expose("QS", seat=1).pass_exposure().play("2S")
    assert r.legal_plays == parse_cards("QS")


def test_the_opening_card_is_led_even_when_exposed() -> None:
    # RULES.md §9.6: the opening card when it must be led never gives way.
    rules = RuleSet(opening_card="QS", must_lead_opening_card=True)
    r = Round.from_hands(TABLE, rules=rules).expose("QS", seat=1).pass_exposure()
    assert r.to_act == 1
    assert r.legal_plays == parse_cards("QS")


def test_restrictions_give_way_in_order_when_they_leave_no_card() -> None:
    # RULES.md §9.6 (its example): a lead from exposed A♥ and other hearts only, hearts
    # not broken, the blood lock on: hearts-broken and the blood lock excuse a leader who
    # holds only hearts, so the exposure restriction alone is left and holds A♥ back.
    rules = RuleSet(hearts_locked_by_exposed_ace=True, hearts_must_be_broken=True)
    r = Round.from_hands(SUITS, rules=rules, leader=1).expose("AH", seat=1).pass_exposure()
    assert r.legal_plays == r.hands[1] - parse_cards("AH")
    assert r.why_illegal("AH") is Reason.EXPOSED_CARD_HELD_BACK
    # With another suit in hand the hearts rules hold, and the restriction holds A♥ back.
    hands = [
        "2S 3S 4S 2H 3H 4H 5H 6H 7H 8H 9H TH JH",
        "QS 5S 6S 7S 8S 9S TS JS KS AS 2C 3C 4C",
        "JD 2D 3D 4D 5D 6D 7D 8D 9D TD QD KD AD",
        "TC AH QH KH 5C 6C 7C 8C 9C JC QC KC AC",
    ]
    r = Round.from_hands(hands, rules=rules, leader=3).expose("AH", seat=3).pass_exposure()
    assert r.legal_plays == parse_cards("TC 5C 6C 7C 8C 9C JC QC KC AC")
    assert r.why_illegal("AH") is Reason.HEARTS_NOT_BROKEN


# -- #11 item 15 ------------------------------------------------------------------------------


def test_a_seed_and_its_negation_deal_differently() -> None:
    # RULES.md §9.8 (random.Random seeds an int by its absolute value).
    for k in (1, 5, 12345, 2**64):
        assert deal(seed=k).dealt != deal(seed=-k).dealt
    assert deal(seed=-3).dealt == deal(seed=-3).dealt


def test_a_refusal_after_the_deal_is_a_sensible_sentence() -> None:
    r = deal(seed=1).rollout(seed=1)
    error = refusal(lambda: r.play("2S"))
    assert "nobody" not in str(error)
    assert str(error) == "play 2♠ refused: not allowed in this phase"


def test_claims_off_names_the_seat_that_tried_to_claim() -> None:
    r = deal(seed=1).pass_exposure()
    error = refusal(lambda: r.claim(seat=3))
    assert (error.reason, error.seat) == (Reason.CLAIMS_OFF, 3)
    assert str(error).startswith("seat 3 may not claim")


# -- issue 28 (the library user's review, item 6): wrong argument types are TypeErrors ------


def _wrong_types() -> list[tuple[str, Callable[[], object], type[GongzhuError]]]:
    from gongzhu import Board, play_deal, score
    from gongzhu.parallel import simulate

    r = deal(seed=1).pass_exposure()
    bad: Any = 3.5  # the wrong type, given on purpose
    return [
        ("Round.rollout(name)", lambda: r.rollout("rule-of-thumb"), IllegalActionError),
        ("Round.rollout(seed=text)", lambda: r.rollout(seed="x"), IllegalActionError),
        ("Board(number)", lambda: Board(bad), IllegalActionError),
        ("Board.rollout(seed=text)", lambda: Board(r).rollout(seed="x"), IllegalActionError),
        ("Board.rollout(policy=number)", lambda: Board(r).rollout(policy=bad), IllegalActionError),
        ("Board.push(text)", lambda: Board(r).push(bad), IllegalActionError),
        ("Board.push_card(number)", lambda: Board(r).push_card(bad), CardParseError),
        ("score(number)", lambda: score(bad), DealError),
        ("score([number])", lambda: score([bad]), DealError),
        ("score(exposed=number)", lambda: score(["QS"], exposed=bad), DealError),
        ("score(queen_bonus_tricks=n)", lambda: score(["QS"], queen_bonus_tricks=bad), DealError),
        ("deal(seed=float)", lambda: deal(seed=bad), DealError),
        ("Round.from_hands(number)", lambda: Round.from_hands(bad), DealError),
        ("RuleSet(players=text)", lambda: RuleSet(players=bad), errors_module.RuleSetError),
        ("RuleSet(direction=number)", lambda: RuleSet(direction=bad), errors_module.RuleSetError),
        ("Card(number)", lambda: Card(bad), CardParseError),
        ("Card.parse(number)", lambda: Card.parse(bad), CardParseError),
        ("parse_cards(number)", lambda: parse_cards(bad), CardParseError),
        ("CardSet(number)", lambda: CardSet(bad), CardParseError),
        ("Round.play(number)", lambda: r.play(bad), CardParseError),
        ("Round.view(number)", lambda: r.view(bad), IllegalActionError),
        ("Round.view(bool)", lambda: r.view(True), IllegalActionError),
        ("Round.play(seat=text)", lambda: r.play(r.legal_plays[0], seat="0"), IllegalActionError),
        ("simulate(text)", lambda: simulate(bad), errors_module.SimulationError),
        ("play_deal(number)", lambda: play_deal(bad), errors_module.SimulationError),
    ]


@pytest.mark.parametrize(("call", "area"), [(c, a) for _, c, a in _wrong_types()],
                         ids=[name for name, _, _ in _wrong_types()])  # fmt: skip
def test_a_wrong_argument_type_is_a_type_error_and_still_its_area_s_error(
    call: Callable[[], object], area: type[GongzhuError]
) -> None:
    with pytest.raises(errors_module.ArgumentTypeError) as caught:
        call()
    assert isinstance(caught.value, TypeError)
    assert isinstance(caught.value, area)  # an existing `except` clause keeps working


def test_a_seat_that_is_no_int_is_still_no_such_seat() -> None:
    with pytest.raises(errors_module.ActionTypeError) as caught:
        deal(seed=1).view(1.5)  # type: ignore[arg-type]
    assert caught.value.reason is Reason.NO_SUCH_SEAT
    assert str(caught.value) == "view refused: no such seat (seat 1.5 of 4)"


def test_a_bad_value_of_the_right_type_is_not_a_type_error() -> None:
    from gongzhu import Board, score
    from gongzhu.parallel import simulate

    r = deal(seed=1).pass_exposure()
    for call in (
        lambda: RuleSet(players=7),
        lambda: RuleSet(direction="left"),
        lambda: Card("1X"),
        lambda: r.rollout(seed=10**90),
        lambda: Board(r).rollout(policy="nonsense"),
        lambda: Board(r).push(99),
        lambda: r.view(7),
        lambda: r.play(r.legal_plays[0], seat=-1),
        lambda: simulate(-1),
        lambda: score(["QS 1X"]),
    ):
        with pytest.raises(GongzhuError) as caught:
            call()
        assert not isinstance(caught.value, TypeError), caught.value
