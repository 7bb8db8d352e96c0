"""Determinization (gongzhu.ai._determinize): sampled deals respect everything a seat knows.

Laws: every sampled deal gives the seat its own hand and every other seat its
hand size; no seat holds a suit it showed void in; exposed and shown cards
stay with their holders; a face-down declaration is backed by exposable cards
of the declarer; and the sampler's count of consistent deals is the true one
(checked by brute force on small endgames).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from gongzhu import Card, Phase, Round, RuleSet, deal
from gongzhu._core.bits import SUIT_MASKS
from gongzhu.ai._determinize import Worlds
from gongzhu.rules import ExposureKind
from gongzhu.testing import rule_sets
from gongzhu.view import PlayerView


def voids_of(view: PlayerView) -> list[int]:
    voids = [0] * view.rules.players
    for trick in (*view.tricks, view.current_trick):
        if trick.cards:
            for s, c in zip(trick.seats, trick.cards, strict=True):
                if c.suit is not trick.cards[0].suit:
                    voids[s] |= SUIT_MASKS[trick.cards[0].suit]
    return voids


@st.composite
def positions(draw: st.DrawFn) -> tuple[Round, int]:
    rules = draw(rule_sets())
    rnd = deal(rules=rules, seed=draw(st.integers(0, 10**6)))
    if rnd.phase is Phase.EXPOSURE:
        face_down = rules.exposure_kind is ExposureKind.FACE_DOWN_UP
        for k in range(rnd.players):
            seat = (rnd.leader + k) % rnd.players
            if seat in rnd.exposure_decided:
                continue
            held = [c for c in rnd.hands[seat] if c in rules.exposable and c not in rnd.exposed]
            chosen = [c for c in held if draw(st.booleans())]
            down = face_down and bool(chosen) and draw(st.booleans())
            rnd = rnd.expose(chosen, seat=seat, face_down=down)
    plays = draw(st.integers(0, rules.hand_size * rules.players - 1))
    rng = random.Random(draw(st.integers(0, 10**6)))
    for _ in range(plays):
        if rnd.to_act is None:
            break
        if rnd.can_claim() and rng.random() < 0.05:
            claimer = rnd.to_act
            rnd = rnd.claim()
            rnd = rnd.respond(False, seat=(claimer + 1) % rnd.players)
            continue
        rnd = rnd.play(rng.choice(rnd.legal_plays.cards))
    seat = draw(st.integers(0, rules.players - 1))
    return rnd, seat


@given(positions(), st.integers(0, 2**32))
def test_sampled_deals_respect_what_the_seat_knows(pos: tuple[Round, int], seed: int) -> None:
    rnd, me = pos
    if rnd.is_over:
        return
    view = rnd.view(me)
    worlds = Worlds(view)
    played = view.played.mask
    voids = voids_of(view)
    rng = random.Random(seed)
    for _ in range(5):
        hands, facedown = worlds.sample(rng)
        assert hands[me] == view.hand.mask
        every = 0
        for s, h in enumerate(hands):
            assert h.bit_count() == view.hand_sizes[s]
            assert not every & h
            every |= h
            assert not h & voids[s], f"seat {s} holds a suit it did not follow"
            assert view.exposures[s].mask & ~played & ~h == 0
        assert every == view.rules.deck.mask & ~played
        shown = view.shown.mask & ~played
        for s, h in enumerate(hands):
            if h & shown:
                # A claimer showed its whole hand: it holds shown or exposed cards only.
                assert h & ~shown & ~view.exposures[s].mask == 0 or s == me
        assert facedown & view.own_face_down.mask == view.own_face_down.mask
        assert facedown.bit_count() == sum(view.face_down_counts)
        for s, k in enumerate(view.face_down_counts):
            if k and s != me:
                pool = hands[s] | worlds.played[s]
                assert (facedown & pool).bit_count() == k
        # The position rebuilt in the sampled deal is the view's position.
        sim = worlds.start(hands, facedown)
        if view.legal_plays:
            assert sim.legal() == view.legal_plays.mask


def brute_force_count(
    view: PlayerView, meets: Callable[[list[int]], bool] = lambda hands: True
) -> int:
    """The deals that agree with ``view`` (and satisfy ``meets``), one by one."""
    played = view.played.mask
    n = view.rules.players
    others = [s for s in range(n) if s != view.seat]
    known = {s: view.exposures[s].mask & ~played for s in others}
    free = view.rules.deck.mask & ~played & ~view.hand.mask
    for m in known.values():
        free &= ~m
    cards = [i for i in range(52) if free >> i & 1]
    voids = voids_of(view)
    count = 0
    for owners in itertools.product(others, repeat=len(cards)):
        hands = dict(known)
        for c, s in zip(cards, owners, strict=True):
            hands[s] |= 1 << c
        if (
            all(hands[s].bit_count() == view.hand_sizes[s] for s in others)
            and not any(hands[s] & voids[s] for s in others)
            and meets([hands.get(s, view.hand.mask) for s in range(n)])
        ):
            count += 1
    return count


def test_the_count_of_consistent_deals_is_exact_on_endgames() -> None:
    rules = RuleSet(exposable="")
    checked = 0
    for seed in range(30):
        rnd = deal(rules=rules, seed=seed)
        rng = random.Random(seed)
        for _ in range(52 - 10 - seed % 3):
            rnd = rnd.play(rng.choice(rnd.legal_plays.cards))
        view = rnd.view((rnd.to_act or 0 + 1) % 4)
        total = Worlds(view).total
        assert total == brute_force_count(view)
        checked += total > 1
    assert checked > 20


def test_sampling_is_uniform_on_a_small_endgame() -> None:
    rules = RuleSet(exposable="")
    rnd = deal(rules=rules, seed=11)
    rng = random.Random(5)
    for _ in range(52 - 9):
        rnd = rnd.play(rng.choice(rnd.legal_plays.cards))
    view = rnd.view(rnd.to_act or 0)
    worlds = Worlds(view)
    assert 3 <= worlds.total <= 400
    draws = 200 * worlds.total
    seen: dict[tuple[int, ...], int] = {}
    sampler = random.Random(1)
    for _ in range(draws):
        hands, _fd = worlds.sample(sampler)
        seen[tuple(hands)] = seen.get(tuple(hands), 0) + 1
    assert len(seen) == worlds.total
    # Each deal expected 200 times; 5 standard deviations either side.
    assert all(200 - 5 * 14.2 < c < 200 + 5 * 14.2 for c in seen.values())


def test_a_seat_whose_exposed_card_was_shown_is_a_claimer() -> None:
    # Found by Hypothesis: seats 2 and 3 showed their hands in refused claims (RULES.md
    # §9.7); seat 2's exposed 10♣ is among the shown cards, so seat 2 is a claimer and
    # holds only shown cards. The sampler took seats 1 and 3 (the first pair whose hands
    # the unseen shown cards fill) and gave seat 2 cards nobody has seen.
    import re

    rules = RuleSet(opening_card="2S", must_lead_opening_card=False, claims=True)
    rules = rules.replace(zero_hearts_are_point_cards=True, loss_inclusive=True)
    rnd = Round.from_hands(
        [
            "2S 4D 5C 5D 7C 7H AH JC JD JS QC TD TS",
            "2H 3C 4S 5H 6C 6D 8C 8S AC AD KD KS QS",
            "2C 4C 4H 5S 6H 7S 9C 9S AS KH QD TC TH",
            "2D 3D 3H 3S 6S 7D 8D 8H 9D 9H JH KC QH",
        ],
        rules=rules,
        leader=2,
    )
    rnd = rnd.expose("TC", seat=2).pass_exposure()
    script = (
        "2:2C 3:KC 0:QC 1:8C claim3 3:8D 0:4D 1:AD 2:QD 1:6D 2:KH 3:3D claim0 0:5D 1:6C "
        "claim2 2:4C 3:3H 0:5C 1:KS 2:5S 3:3S 0:JS 1:5H 2:4H 3:JH 0:AH 0:TS 1:QS 2:AS 3:6S "
        "2:6H 3:9H 0:7H 1:2H 3:2D 0:JD 1:KD"
    )
    for step in script.split():
        if m := re.fullmatch(r"claim(\d)", step):
            claimer = int(m[1])
            rnd = rnd.claim(seat=claimer).respond(False, seat=(claimer + 1) % 4)
        else:
            seat, card = step.split(":")
            rnd = rnd.play(card, seat=int(seat))
    view = rnd.view(0)
    assert view.exposures[2].mask & view.shown.mask
    worlds = Worlds(view)
    shown = view.shown.mask
    for seed in range(20):
        hands, _ = worlds.sample(random.Random(seed))
        assert hands[2] & ~shown == 0


# -- Face-down declarations (the sampler met them by rejection only, and after 64 misses
# returned a deal without them: --hypothesis-seed=6 and =10 found such positions) ----------


def _face_down_position(seed: int, plays: int) -> Round:
    """A deal where every seat but 0 declares its first exposable card face down, then
    ``plays`` random cards."""
    rules = RuleSet(exposure_kind=ExposureKind.FACE_DOWN_UP)
    rnd = deal(rules=rules, seed=seed)
    for k in range(rnd.players):
        seat = (rnd.leader + k) % rnd.players
        held = [c for c in rnd.hands[seat] if c in rules.exposable]
        rnd = rnd.expose(held[:1] if seat else [], seat=seat, face_down=bool(held) and seat > 0)
    rng = random.Random(seed)
    for _ in range(plays):
        rnd = rnd.play(rng.choice(rnd.legal_plays.cards))
    return rnd


def _meets_face_down(view: PlayerView, worlds: Worlds, hands: list[int]) -> bool:
    up = view.exposed.mask
    return all(
        ((hands[s] | worlds.played[s]) & view.rules.exposable.mask & ~up).bit_count() >= k
        for s, k in enumerate(view.face_down_counts)
        if s != view.seat
    )


def test_a_sampled_deal_meets_the_face_down_declarations_when_rejection_misses() -> None:
    # Seats 2 and 3 declared J♦ and Q♠ face down; both cards are unseen by seat 1, and only
    # one deal in eight gives each of them one. With random.Random(1111) the first 64
    # uniform draws all miss: the sampler used to return the 64th anyway.
    rnd = _face_down_position(204, 32)
    view = rnd.view(1)
    assert view.face_down_counts == (0, 1, 1, 1)
    worlds = Worlds(view)
    rng = random.Random(1111)
    for _ in range(64):  # the rejection stage misses here (what this test is about)
        hands = worlds.known[:]
        for pool in worlds.pools:
            pool.draw(rng, hands)
        assert worlds._face_down(rng, hands) < 0
    for seed in (1111, 1, 2):
        hands, facedown = worlds.sample(random.Random(seed))
        assert _meets_face_down(view, worlds, hands)
        pair = {int(hands[2] & view.rules.exposable.mask).bit_length() - 1,
                int(hands[3] & view.rules.exposable.mask).bit_length() - 1}  # fmt: skip
        assert pair == {22, 49}  # J♦ and Q♠, one each
        assert facedown.bit_count() == 3


def test_the_face_down_placements_count_exactly_the_deals_that_meet_them() -> None:
    # Every deal that agrees with the view and its face-down declarations completes one
    # placement of the free exposable cards: the placements' counts add up to them all.
    binding = 0
    for seed in range(80):
        rnd = _face_down_position(seed, 52 - 8 - seed % 3)
        for me in range(rnd.players):
            view = rnd.view(me)
            worlds = Worlds(view)
            if not worlds.face_down_need:
                continue
            expected = brute_force_count(view, meets=lambda h, v=view, w=worlds: (
                _meets_face_down(v, w, h)))  # fmt: skip
            if not expected:
                continue
            assert sum(count for count, _h, _p in worlds._placements()) == expected
            binding += expected < worlds.total  # the declarations rule some deals out
    assert binding >= 10


def test_a_claimer_s_face_down_card_stays_in_its_shown_hand() -> None:
    # Found by Hypothesis (--hypothesis-seed=6): seat 1 declared J♦ face down, then claimed
    # (its hand, J♦ among it, was shown) and was refused. The view does not say who
    # claimed; the claim's pools gave the shown cards to another seat in every draw, so
    # all 64 draws missed seat 1's declaration and the sampler returned one anyway.
    rules = RuleSet(
        claims=True, exposure_kind="face-down-up", opening_card="2C",
        three_exposed_force_fourth=True, zero_hearts_are_point_cards=False,
        loss_inclusive=False, win_inclusive=False,
    )  # fmt: skip
    rnd = Round.from_hands(
        [
            "6D 9S KD 5D 3S TD 2S QH QS 7S 5H 4D 9C",
            "4S 6S 2C AS JD 3C 6H 8C KH 8D 8H 2D QD",
            "9D QC KS AC 2H 4H KC TH 5C TC AH 9H TS",
            "3D JH AD 4C 7H 7D 6C JC JS 5S 3H 7C 8S",
        ],
        rules=rules,
    )
    rnd = rnd.expose("JD", seat=1, face_down=True)
    for seat in (2, 3, 0):
        rnd = rnd.expose("", seat=seat)
    for card in ("2C", "5C", "6C", "9C", "QS"):
        rnd = rnd.play(card)
    rnd = rnd.claim().respond(False, seat=2).play("6S")
    view = rnd.view(2)
    assert view.face_down_counts == (0, 1, 0, 0)
    assert Card("JD") in view.shown
    worlds = Worlds(view)
    for seed in range(20):
        hands, facedown = worlds.sample(random.Random(seed))
        assert hands[1] & Card("JD").mask, "seat 1 holds the J♦ it declared face down"
        assert facedown == Card("JD").mask
        assert hands[1] & ~view.shown.mask == 0  # the claimer holds shown cards only
