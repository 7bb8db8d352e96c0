"""The integer information state (gongzhu._core.infoset): what one seat knows, as ints.

Laws: a view built from the core (``Round.view``: its ``Info`` first, the cards and
tricks on first read) equals the view built field by field with the public
constructor, and both give the same ``Info``; an ``Info`` holds no other seat's
hidden cards; known voids are the suits a seat did not follow (one rule, read by
``PlayerView.known_voids``, the sampler and the bots); a spectator's ``Info`` has
no hand, is asked nothing, and shows each seat's exposures once the other seats may
see them (what the web's spectator view shows).
"""

from __future__ import annotations

import pickle

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gongzhu import CardSet, PlayerView, Round, Suit
from gongzhu._core import infoset
from gongzhu._core.infoset import Info, info_of, public_info
from gongzhu.testing import rounds_in_progress

_FIELDS = [
    *("seat", "phase", "asked", "hand", "first", "to_act", "leader", "dealer", "up"),
    *("exposed", "own_down", "down_counts", "trick", "tricks", "captured", "sizes"),
    *("shown", "legal", "played_by", "voids", "played", "unseen"),
]


def ints(info: Info) -> dict[str, object]:
    return {name: getattr(info, name) for name in _FIELDS}


def rebuilt(view: PlayerView) -> PlayerView:
    """The same view through the public constructor (every field given)."""
    return PlayerView(**{f.name: getattr(view, f.name) for f in attrs.fields(PlayerView)})


@given(rounds_in_progress(), st.data())
def test_a_view_from_the_core_is_the_view_of_its_fields(rnd: Round, data: st.DataObject) -> None:
    seat = data.draw(st.integers(0, rnd.players - 1))
    fresh = rnd.view(seat)  # nothing read yet: equality, hash and pickle build the rest
    public = rebuilt(rnd.view(seat))
    assert fresh == public
    assert public == fresh
    assert hash(rnd.view(seat)) == hash(public)
    assert pickle.loads(pickle.dumps(rnd.view(seat))) == public
    assert repr(rnd.view(seat)) == repr(public)
    assert rnd.view(seat).to_dict() == public.to_dict()
    assert ints(rnd.view(seat).info) == ints(public.info)


@given(rounds_in_progress(), st.data())
def test_an_info_holds_the_seat_s_own_hand_and_public_facts(
    rnd: Round, data: st.DataObject
) -> None:
    seat = data.draw(st.integers(0, rnd.players - 1))
    info = info_of(rnd.engine_state, seat)
    assert info.hand == rnd.hands[seat].mask
    assert info.sizes == tuple(len(h) for h in rnd.hands)
    assert info.exposed & ~rnd.exposed.mask == 0
    for s in range(rnd.players):
        if s != seat:  # nothing of another hand but what is public
            hidden = rnd.hands[s].mask & ~rnd.exposed.mask & ~info.shown
            assert hidden & (info.hand | info.own_down | info.exposed | info.legal) == 0
    assert info.legal == (rnd.legal_plays.mask if rnd.to_act == seat else 0)
    playing = info.phase == infoset.PLAY and rnd.to_act == seat
    assert (info.asked == infoset.ASK_PLAY) == playing


@given(rounds_in_progress(), st.data())
def test_known_voids_are_the_suits_a_seat_did_not_follow(rnd: Round, data: st.DataObject) -> None:
    view = rnd.view(data.draw(st.integers(0, rnd.players - 1)))
    expected: list[set[Suit | None]] = [set() for _ in range(rnd.players)]
    played = [0] * rnd.players
    for trick in (*view.tricks, view.current_trick):
        for s, card in zip(trick.seats, trick.cards, strict=True):
            played[s] |= card.mask
            if card.suit is not trick.led_suit:
                expected[s].add(trick.led_suit)
    assert [set(v) for v in view.known_voids] == expected
    assert [{Suit(u) for u in range(4) if m >> u & 1} for m in view.info.voids] == expected
    assert list(view.info.played_by) == played
    assert rebuilt(view).known_voids == view.known_voids


@given(rounds_in_progress())
def test_a_spectator_knows_no_hand_and_sees_what_every_other_seat_sees(rnd: Round) -> None:
    n = rnd.players
    spectator = public_info(rnd.engine_state)
    seats = [info_of(rnd.engine_state, s) for s in range(n)]
    assert (spectator.seat, spectator.hand, spectator.own_down, spectator.legal) == (-1, 0, 0, 0)
    assert (spectator.first, spectator.asked) == (-1, infoset.ASK_NOTHING)
    # A seat's exposures as the next seat sees them (sealed ones show once all decided).
    assert spectator.up == tuple(seats[(s + 1) % n].up[s] for s in range(n))
    assert spectator.down_counts == tuple(seats[(s + 1) % n].down_counts[s] for s in range(n))
    same = ["phase", "to_act", "leader", "dealer", "trick", "tricks", "captured", "sizes"]
    for name in [*same, "shown", "voids", "played_by"]:
        assert getattr(spectator, name) == getattr(seats[0], name), name


def _spectator_from_seat_views(rnd: Round) -> dict[str, object]:
    """The spectator's JSON as the web built it before Round.view(None): from every seat's
    view, each seat's exposures as the next seat sees them, the private fields emptied."""
    n = rnd.players
    views = [rnd.view(s) for s in range(n)]
    others = [views[(s + 1) % n] for s in range(n)]
    counts = tuple(others[s].face_down_counts[s] for s in range(n))
    empty = CardSet()
    public = attrs.evolve(
        views[0],
        hand=empty,
        first_dealt=None,
        own_face_down=empty,
        legal_plays=empty,
        exposures=tuple(others[s].exposures[s] for s in range(n)),
        face_down_counts=counts,
        pending=None,
    )
    out = public.to_dict(include_rules=False)
    out["seat"] = None
    out["exposure_previews"] = []
    if any(counts):
        out["running_totals"] = None
    return out


@given(rounds_in_progress())
def test_the_spectator_view_is_the_public_info_and_what_the_seats_see(rnd: Round) -> None:
    # Round.view(None) is the core's spectator Info as a view; the web sends its JSON
    # (web/room_client.public_view), which is what the seats' views show of the others.
    spectator = rnd.view(None)
    assert ints(spectator.info) == ints(public_info(rnd.engine_state))
    out = spectator.to_dict(include_rules=False)
    assert out == _spectator_from_seat_views(rnd)
    room_client = pytest.importorskip("gongzhu.web.room_client")
    assert room_client.public_view(rnd) == out
