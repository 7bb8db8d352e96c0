"""Issue 22 item 1 (redteam-2026-12 finding 1): the search bot refuses a bad decision at once.

It used to loop forever on an empty legal set (any seat not to act has one) and
to accept a seed it could not use. Each refusal is a typed
:class:`~gongzhu.ai.search.LimitError` (a GongzhuError), raised before any search.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from gongzhu import CardSet, deal
from gongzhu.ai.search import Limit, LimitError, SearchStrategy
from gongzhu.errors import GongzhuError

BOT = SearchStrategy(Limit(simulations=400), seed=1)


def _position() -> Any:
    rnd = deal(seed=5).pass_exposure()
    for _ in range(5):
        rnd = rnd.play(rnd.legal_plays.cards[0])
    return rnd


def _refused_fast(call: Any) -> LimitError:
    started = time.perf_counter()
    with pytest.raises(LimitError) as info:
        call()
    assert time.perf_counter() - started < 1.0
    assert isinstance(info.value, GongzhuError)
    return info.value


def test_item_1_an_empty_legal_set_is_refused_at_once() -> None:
    rnd = _position()
    idle = next(s for s in range(4) if s != rnd.to_act)
    view = rnd.view(idle)
    assert not view.legal_plays
    error = _refused_fast(lambda: BOT.choose_play(view, view.legal_plays))
    assert "nothing to play" in str(error)
    _refused_fast(lambda: BOT.analyse(view))
    _refused_fast(lambda: BOT.choose_play(rnd.view(rnd.to_act), CardSet()))


def test_item_1_cards_not_in_the_hand_are_refused() -> None:
    rnd = _position()
    view = rnd.view(rnd.to_act)
    others = CardSet(c for c in rnd.hands[(rnd.to_act + 1) % 4].cards[:2])
    error = _refused_fast(lambda: BOT.choose_play(view, others))
    assert "not in seat" in str(error)


def test_item_1_a_list_instead_of_a_cardset_is_refused() -> None:
    rnd = _position()
    view = rnd.view(rnd.to_act)
    as_list: Any = list(view.legal_plays)
    error = _refused_fast(lambda: BOT.choose_play(view, as_list))
    assert "CardSet" in str(error)
    not_a_view: Any = {"seat": 0}
    _refused_fast(lambda: BOT.choose_play(not_a_view, view.legal_plays))
    _refused_fast(lambda: BOT.analyse(not_a_view))


def test_item_1_a_seed_it_cannot_use_is_refused_when_the_bot_is_made() -> None:
    with pytest.raises(LimitError, match="valid Unicode"):
        SearchStrategy(seed="\ud800")
    # A usable text seed still works, and plays a legal card.
    rnd = _position()
    view = rnd.view(rnd.to_act)
    card = SearchStrategy(Limit(simulations=20), seed="ок").choose_play(view, view.legal_plays)
    assert card in view.legal_plays
