"""Baseline bots: they finish deals and matches under every rule set, see only their view,
and the rule-of-thumb bot plays the tactics of seeds/001 ("Тактика в гунчжу")."""

from __future__ import annotations

import itertools
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gongzhu import (
    DECK,
    PIG,
    PRESETS,
    Card,
    CardSet,
    Phase,
    PlayerView,
    Round,
    RuleSet,
    parse_cards,
)
from gongzhu.bots import (
    RandomStrategy,
    RuleOfThumbStrategy,
    Strategy,
    make_strategy,
    play_deal,
    play_match,
)
from gongzhu.dealing import deal
from gongzhu.errors import MatchError
from gongzhu.rules import ExposureOrder


def _five_player(rules: RuleSet) -> RuleSet:
    # 2♣ and 2♦ leave the 5-player deck (seeds/003, 004), so presets opening
    # with 2♣ (seeds/001, 002) open with 3♣ instead.
    if rules.opening_card.code in ("2C", "2D"):
        return rules.replace(players=5, opening_card="3C")
    return rules.replace(players=5)


def _all_rule_sets() -> list[tuple[str, RuleSet]]:
    out = []
    for name, rules in PRESETS.items():
        out.append((name, rules))
        out.append((f"{name}/5p", _five_player(rules)))
        if rules.exposable:
            out.append((f"{name}/in-turn", rules.replace(exposure_order=ExposureOrder.IN_TURN)))
    out.append(("classic/pairs", RuleSet(partnerships=True)))
    out.append(("classic/points-out", RuleSet(end_when_points_out=True)))
    return out


RULE_SETS = _all_rule_sets()


def _table(rules: RuleSet, seed: int) -> list[Strategy]:
    return [
        RuleOfThumbStrategy() if seat % 2 else RandomStrategy(seed * 10 + seat, 0.5)
        for seat in range(rules.players)
    ]


@pytest.mark.parametrize(("name", "rules"), RULE_SETS, ids=[n for n, _ in RULE_SETS])
def test_bots_finish_deals_under_every_rule_set(name: str, rules: RuleSet) -> None:
    for seed in range(6):
        rnd = play_deal(_table(rules, seed), rules=rules, seed=seed)
        assert rnd.is_over
        captured = CardSet()
        for pile in rnd.captured:
            assert captured.isdisjoint(pile)
            captured |= pile
        if not rules.end_when_points_out:
            assert captured == rules.deck
            assert len(rnd.tricks) == rules.hand_size
        assert len(rnd.score().totals) == rules.players


@pytest.mark.parametrize(("name", "rules"), RULE_SETS, ids=[n for n, _ in RULE_SETS])
def test_bots_finish_matches_under_every_rule_set(name: str, rules: RuleSet) -> None:
    match, rounds = play_match(_table(rules, 1), rules=rules, seed=1, max_deals=40)
    assert len(rounds) == match.deal_count
    assert match.is_over or match.deal_count == 40
    # RULES.md §5: the dealer moves one seat per deal; later deals are led by the pig taker.
    for k, rnd in enumerate(rounds):
        assert rnd.dealer == k % rules.players


def test_match_deals_are_led_by_the_previous_pig_taker() -> None:
    # seeds/001 "Типичные ошибки" (5th): from the second deal the pig taker leads.
    _match, rounds = play_match([RuleOfThumbStrategy()] * 4, rules=RuleSet(), seed=5)
    for before, after in itertools.pairwise(rounds):
        taker = before.score().pig_taker
        if taker is not None:
            assert after.tricks[0].leader == taker


def test_play_match_is_reproducible_and_seed_sensitive() -> None:
    rules = RuleSet.preset("online-quick")
    a = play_match([RuleOfThumbStrategy()] * 4, rules=rules, seed=11)
    b = play_match([RuleOfThumbStrategy()] * 4, rules=rules, seed=11)
    c = play_match([RuleOfThumbStrategy()] * 4, rules=rules, seed=12)
    assert a[1] == b[1]
    assert a[0].totals == b[0].totals
    assert a[1][0].dealt != c[1][0].dealt


def test_play_match_refuses_rules_that_never_end() -> None:
    endless = RuleSet(loss_threshold=None)
    with pytest.raises(MatchError, match="max_deals"):
        play_match([RuleOfThumbStrategy()] * 4, rules=endless, seed=1)
    match, rounds = play_match([RuleOfThumbStrategy()] * 4, rules=endless, seed=1, max_deals=3)
    assert len(rounds) == 3
    assert not match.is_over


def test_wrong_number_of_strategies_is_refused() -> None:
    with pytest.raises(ValueError, match="need 4 strategies"):
        play_deal([RuleOfThumbStrategy()] * 3, seed=1)


@given(seed=st.integers(0, 2**32), bot_seed=st.integers(0, 2**32))
def test_seeded_random_strategy_replays_the_same_deal(seed: int, bot_seed: int) -> None:
    def table() -> list[Strategy]:
        return [RandomStrategy(bot_seed + s, expose_probability=0.3) for s in range(4)]

    assert play_deal(table(), seed=seed) == play_deal(table(), seed=seed)


def test_random_strategies_with_different_seeds_play_differently() -> None:
    plays = {
        tuple(t.cards for t in play_deal([RandomStrategy(b)] * 4, seed=1).tricks) for b in range(5)
    }
    assert len(plays) > 1


def test_random_strategy_rejects_a_bad_probability() -> None:
    with pytest.raises(ValueError, match="expose_probability"):
        RandomStrategy(expose_probability=1.5)


def test_make_strategy_names() -> None:
    assert isinstance(make_strategy("random", 3), RandomStrategy)
    assert isinstance(make_strategy("rule-of-thumb"), RuleOfThumbStrategy)


class _Recorder:
    """Wraps a strategy and keeps every view and legal set it is given."""

    def __init__(self, inner: Strategy) -> None:
        self.inner = inner
        self.calls: list[tuple[PlayerView, CardSet | None]] = []

    def choose_play(self, view: PlayerView, legal: CardSet) -> Card:
        self.calls.append((view, legal))
        return self.inner.choose_play(view, legal)

    def choose_exposure(self, view: PlayerView) -> CardSet:
        self.calls.append((view, None))
        return self.inner.choose_exposure(view)


def _cards_in(view: PlayerView) -> CardSet:
    """Every card mentioned anywhere in a view."""
    out = view.hand | view.exposed | view.own_face_down | view.shown | view.legal_plays
    out |= CardSet(view.current_trick.cards)
    for trick in view.tricks:
        out |= CardSet(trick.cards)
    for pile in view.captured_points:
        out |= pile
    return out


@pytest.mark.parametrize("seed", range(4))
def test_bots_are_only_given_their_own_view(seed: int) -> None:
    # A view's contract (gongzhu.view): it never holds another seat's unplayed cards unless
    # exposed or shown.
    rules = RuleSet()
    recorders = [_Recorder(RandomStrategy(seed + s, expose_probability=0.5)) for s in range(4)]
    rnd = play_deal(recorders, rules=rules, seed=seed)
    dealt = [CardSet(cards) for cards in rnd.dealt]
    for seat, rec in enumerate(recorders):
        assert rec.calls, "every seat is asked at least once"
        for view, legal in rec.calls:
            assert view.seat == seat
            played = view.played
            assert view.hand == dealt[seat] - played
            if legal is not None:
                assert view.to_act == seat
                assert legal == view.legal_plays
                assert legal <= view.hand
            public = view.exposed | view.shown
            for other in range(4):
                if other != seat:
                    hidden = dealt[other] - played - public
                    assert _cards_in(view).isdisjoint(hidden)


def test_simultaneous_exposure_decisions_see_no_exposures() -> None:
    # seeds/001: everyone decides at once, so no decision sees another's exposure.
    recorders = [_Recorder(RandomStrategy(s, expose_probability=1.0)) for s in range(4)]
    rnd = play_deal(recorders, rules=RuleSet(), seed=2)
    assert rnd.exposed == RuleSet().exposable  # all four were exposed
    for rec in recorders:
        view, legal = rec.calls[0]
        assert legal is None
        assert view.phase is Phase.EXPOSURE
        assert not view.exposed


def test_in_turn_exposure_decisions_see_the_earlier_ones() -> None:
    rules = RuleSet(exposure_order=ExposureOrder.IN_TURN)
    recorders = [_Recorder(RandomStrategy(s, expose_probability=1.0)) for s in range(4)]
    rnd = play_deal(recorders, rules=rules, seed=2)
    first = rnd.tricks[0].leader
    seen_before: CardSet = CardSet()
    for k in range(4):
        seat = (first + k) % 4
        view, legal = recorders[seat].calls[0]
        assert legal is None
        assert view.exposed == seen_before
        seen_before |= rnd.exposures[seat]


def _mean_scores(rules: RuleSet, deals: int, rot_seats: int) -> tuple[float, float]:
    """Mean deal score of rule-of-thumb seats and of random seats, seats rotating by deal."""
    rot: list[int] = []
    rnd: list[int] = []
    for i in range(deals):
        smart = {(i + k) % 4 for k in range(rot_seats)}
        table: list[Strategy] = [
            RuleOfThumbStrategy() if s in smart else RandomStrategy(1000 * i + s) for s in range(4)
        ]
        totals = play_deal(table, rules=rules, seed=i).score().totals
        for s, t in enumerate(totals):
            (rot if s in smart else rnd).append(t)
    return statistics.mean(rot), statistics.mean(rnd)


@pytest.mark.parametrize(
    ("preset", "rot_seats"), [("classic", 2), ("classic", 1), ("online", 2), ("czech", 3)]
)
def test_rule_of_thumb_beats_random_on_average(preset: str, rot_seats: int) -> None:
    # Measured over 400 deals: about -10 vs -100 per seat (classic, 2 vs 2), a
    # 90-point gap with a standard error near 10. 150 deals and a 40-point
    # margin keep the test quick and far from flaky while still failing for a
    # bot that plays no better than chance.
    smart, chance = _mean_scores(RuleSet.preset(preset), 150, rot_seats)
    assert smart > chance + 40, (smart, chance)


# -- the tactics of seeds/001, one position each -------------------------------------


def _hands(fixed: dict[int, str], void: dict[int, str] | None = None) -> list[list[Card]]:
    """Four 13-card hands: ``fixed`` cards where given, the rest dealt in deck order
    to the seats that still need cards and are not void in the card's suit."""
    void = void or {}
    given_cards = {s: list(parse_cards(t)) for s, t in fixed.items()}
    out = [list(given_cards.get(s, [])) for s in range(4)]
    used = CardSet(c for cards in out for c in cards)
    # Seats with voids choose first so they are not left with only their void suit.
    order = sorted(range(4), key=lambda s: -len(void.get(s, "")))
    for card in DECK - used:
        seat = next(
            s for s in order if len(out[s]) < 13 and card.suit.letter not in void.get(s, "")
        )
        out[seat].append(card)
    return out


def _choose(rnd: Round) -> Card:
    seat = rnd.to_act
    assert seat is not None
    view = rnd.view(seat)
    return RuleOfThumbStrategy().choose_play(view, view.legal_plays)


def _after(hands: list[list[Card]], leader: int, plays: str, rules: RuleSet | None = None) -> Round:
    rnd = Round.from_hands(hands, rules=rules or RuleSet(), leader=leader).pass_exposure()  # §9.1
    for card in plays.split():
        rnd = rnd.play(card)
    return rnd


def test_the_pig_is_discarded_at_the_first_chance_when_void() -> None:
    # seeds/001 "Тактика": with the pig and few spades, drop it at the first chance.
    hands = _hands({1: "QS 2S AH KH 2D 3D"}, void={1: "C"})
    rnd = _after(hands, 0, "2C")
    assert _choose(rnd) == PIG


def test_the_pig_goes_under_a_higher_spade() -> None:
    hands = _hands({0: "3S", 1: "AS", 2: "QS 5S"})
    rnd = _after(hands, 0, "3S AS")
    assert _choose(rnd) == PIG


def test_a_follower_plays_under_the_queen_while_the_pig_is_out() -> None:
    # seeds/001 "Тактика": when spades are led, play lower than the queen.
    hands = _hands({0: "3S", 1: "KS 4S", 3: "QS"})
    rnd = _after(hands, 0, "3S")
    assert _choose(rnd) == Card("4S")


def test_the_last_player_takes_the_sheep_with_a_high_diamond() -> None:
    # seeds/001 "Тактика": last to play, no pig and no big hearts: take the sheep.
    hands = _hands({0: "5D", 1: "JD", 2: "3D", 3: "AD 2D"}, void={1: "", 2: ""})
    rnd = _after(hands, 0, "5D JD 3D")
    assert _choose(rnd) == Card("AD")


def test_the_last_player_takes_pig_and_sheep_together_at_face_value() -> None:
    # The core policy scores a trick of pig and sheep at face value (−100 + 100 = 0)
    # and takes it with a high diamond.
    hands = _hands({0: "5D", 1: "JD KH", 2: "QS", 3: "AD 2D"}, void={2: "D"})
    rnd = _after(hands, 0, "5D JD QS")
    assert _choose(rnd) == Card("AD")


def test_the_transformer_is_left_alone_when_holding_penalties() -> None:
    # seeds/001 "Типичные ошибки" (1st): with penalties taken, let someone else have 10♣.
    hands = _hands({0: "5H KD 2C", 1: "6H 3D TC", 2: "7H 4D 3C", 3: "8H 2D AC 4C"})
    # Seat 3 takes four hearts, then loses a diamond trick to seat 0, who leads clubs.
    rnd = _after(hands, 0, "5H 6H 7H 8H 2D KD 3D 4D 2C TC 3C")
    assert rnd.to_act == 3
    assert rnd.view(3).captured_points[3]
    assert _choose(rnd) == Card("4C")


def test_high_hearts_are_shed_on_another_players_trick() -> None:
    # seeds/001 "Тактика": get rid of high hearts.
    hands = _hands({0: "2D", 1: "AH 2H 5C"}, void={1: "DS"})
    rnd = _after(hands, 0, "2D")
    assert _choose(rnd) == Card("AH")


def test_rule_of_thumb_exposure_is_conservative() -> None:
    hands = _hands({0: "QS KS 2S JD 2D 5D", 1: "AH TC"})
    rnd = Round.from_hands(hands)
    bot = RuleOfThumbStrategy()
    # Two spades under the pig and one diamond honour: nothing is worth doubling.
    assert bot.choose_exposure(rnd.view(0)) == CardSet()
    # A♥ and 10♣ are never exposed.
    assert bot.choose_exposure(rnd.view(1)) == CardSet()


def test_rule_of_thumb_does_not_expose_a_negative_sheep() -> None:
    # seeds/004 variants: the exposed sheep may count −200.
    hands = _hands({2: "JD QD KD AD 3D"})
    rules = RuleSet(exposed_sheep_value=-200)
    bot = RuleOfThumbStrategy()
    assert bot.choose_exposure(Round.from_hands(hands, rules=rules).view(2)) == CardSet()
    assert bot.choose_exposure(Round.from_hands(hands).view(2)) == parse_cards("JD")


# -- the rule-of-thumb bot IS the core policy (issue 18 item 3) ----------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_rule_of_thumb_bot_plays_the_same_deal_through_its_protocol_and_in_the_core(
    preset: str,
) -> None:
    # Round.rollout runs the core policy on the core's board; play_deal asks the strategy
    # through its protocol, view by view: the same cards, so the same deal.
    rules = RuleSet.preset(preset)
    for seed in range(6):
        through_views = play_deal([RuleOfThumbStrategy()] * rules.players, rules=rules, seed=seed)
        # Round.rollout asks strategies for exposure through the protocol, as play_deal does.
        in_core = deal(rules=rules, seed=seed).rollout(RuleOfThumbStrategy(), seed=0)
        # (Simultaneous decisions are applied in another order; the exposures are the same.)
        assert (in_core.exposed, in_core.face_down) == (
            through_views.exposed,
            through_views.face_down,
        )
        assert in_core.tricks == through_views.tricks


@pytest.mark.parametrize(("pig_value", "card"), [(-1, "AD"), (-100, "AD"), (-300, "2D")])
def test_the_rule_of_thumb_bot_reads_pig_value(pig_value: int, card: str) -> None:
    # Last to play on 5♦ J♦ Q♠: the trick is worth the sheep (+100) plus the pig as this
    # rule set prices it. At −300 it costs 200, so the bot ducks with 2♦; at −100 or −1 it
    # is worth taking with A♦ (the 0.1 bot read −100 whatever the rules said).
    rules = RuleSet(pig_value=pig_value)
    hands = _hands({0: "5D", 1: "JD KH", 2: "QS", 3: "AD 2D"}, void={2: "D"})
    rnd = _after(hands, 0, "5D JD QS", rules)
    assert _choose(rnd) == Card(card)


def test_the_first_leads_come_from_the_shortest_suit() -> None:
    # Early in the deal the rule-of-thumb bot leads the singleton 3♦ rather than the 2♣ of
    # seven clubs, though it otherwise leads its lowest card: a void sooner is a discard
    # sooner (the short-suit preference of the published greedy bots).
    rules = RuleSet(must_lead_opening_card=False)
    hands = _hands({0: "2C 3C 4C 5C 6C 7C 8C 3D 9S TS 4H 5H 6H"})
    assert _choose(_after(hands, 0, "", rules)) == Card("3D")
