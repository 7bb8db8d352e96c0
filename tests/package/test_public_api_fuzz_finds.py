"""Regression tests for what ``tools/fuzz_public_api.py`` found (issue #11).

Each case is a reproducer the fuzzer reported as a raw exception (or a slow or
memory-hungry call); each must now raise the typed :class:`GongzhuError`
subclass named, quickly, with a short message.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from typing import Any

import pytest

import gongzhu.protocol as protocol
from gongzhu import (
    Action,
    Card,
    GongzhuError,
    Play,
    RuleSet,
    deal,
    parse_cards,
    score,
    svg,
)
from gongzhu.ai import Limit, SearchStrategy
from gongzhu.ai.arena import ArenaError, arena
from gongzhu.ai.search import LimitError
from gongzhu.errors import (
    CardParseError,
    DealError,
    IllegalActionError,
    ProtocolError,
    RuleSetError,
)
from gongzhu.i18n import LanguageError


class _Liar(list[int]):
    def __len__(self) -> int:
        return 2


class _Hostile:
    def __repr__(self) -> str:
        raise RuntimeError("hostile repr")

    def __len__(self) -> int:
        return -1

    def __index__(self) -> int:
        raise RuntimeError("hostile index")


_DS = score(["QS 7H", "AC"])
_VIEW = deal(seed=1).view(0)


def _a_trick() -> Any:
    r = deal(rules=RuleSet(exposable=""), seed=1)
    r = r.play(r.legal_plays[0])
    return r.current_trick


CASES: list[tuple[str, Callable[[], Any], type[GongzhuError]]] = [
    # rules / scoring
    ("DealScore.sheet(10**30)", lambda: _DS.sheet(10**30), DealError),  # type: ignore[arg-type]
    ("DealScore.sheet(['x', 0])", lambda: _DS.sheet(["x", 0]), DealError),  # type: ignore[list-item]
    ("DealScore.sheet((1,))", lambda: _DS.sheet((1,)), DealError),
    ("DealScore.sheet(Liar())", lambda: _DS.sheet(_Liar()), DealError),
    ("PlayerScore.sheet(10**5000)", lambda: _DS[0].sheet(10**5000), DealError),
    ("PlayerScore.lines('x')", lambda: _DS[0].lines("x"), DealError),  # type: ignore[arg-type]
    ("RuleSet(players=3).diff({})", lambda: RuleSet(players=3).diff({}), RuleSetError),  # type: ignore[arg-type]
    (
        "RuleSet.to_dict(only_changes_from=3)",
        lambda: RuleSet().to_dict(only_changes_from=3),  # type: ignore[arg-type]
        RuleSetError,
    ),
    # protocol
    ("Round.apply({})", lambda: deal(seed=1).apply({}), IllegalActionError),  # type: ignore[arg-type]
    ("Action.from_dict(())", lambda: Action.from_dict(()), ProtocolError),
    (
        "view.action_mask(exposure_pending=3)",
        lambda: _VIEW.action_mask(exposure_pending=3),  # type: ignore[arg-type]
        ProtocolError,
    ),
    (
        "view.legal_actions(claim_pending=5)",
        lambda: _VIEW.legal_actions(claim_pending=5),  # type: ignore[arg-type]
        ProtocolError,
    ),
    (
        "view.legal_actions(claim_pending=(0, range(10**12)))",
        lambda: _VIEW.legal_actions(claim_pending=(0, range(10**12))),  # type: ignore[arg-type]
        ProtocolError,
    ),
    (
        "view.legal_actions(claim_pending=(9, ()))",
        lambda: _VIEW.legal_actions(claim_pending=(9, ())),
        ProtocolError,
    ),
    ("information_state_size(0)", lambda: protocol.information_state_size(0), ProtocolError),
    ("observation_size('x')", lambda: protocol.observation_size("x"), ProtocolError),  # type: ignore[arg-type]
    ("observation_size(10**30)", lambda: protocol.observation_size(10**30), ProtocolError),
    ("action_for(0, 'x')", lambda: protocol.action_for(0, "x"), ProtocolError),  # type: ignore[arg-type]
    ("describe_action(10**5000)", lambda: protocol.describe_action(10**5000), GongzhuError),
    ("describe_action(1.5)", lambda: protocol.describe_action(1.5), GongzhuError),  # type: ignore[arg-type]
    # svg
    ("svg.card('QS')", lambda: svg.card("QS"), CardParseError),  # type: ignore[arg-type]
    ("svg.card(exposed=1)", lambda: svg.card(Card("QS"), exposed=1), ProtocolError),  # type: ignore[arg-type]
    ("svg.cards(5)", lambda: svg.cards(5), CardParseError),  # type: ignore[arg-type]
    ("svg.cards(range(10**12))", lambda: svg.cards(range(10**12)), CardParseError),  # type: ignore[arg-type]
    ("svg.cards(itertools.count())", lambda: svg.cards(itertools.count()), CardParseError),  # type: ignore[arg-type]
    (
        "svg.cards(itertools.repeat(QS))",
        lambda: svg.cards(itertools.repeat(Card("QS"))),
        CardParseError,
    ),
    ("svg.cards(exposed=object())", lambda: svg.cards((), exposed=object()), CardParseError),  # type: ignore[arg-type]
    ("svg.cards(layout=10**5000)", lambda: svg.cards([Card("QS")], layout=10**5000), ProtocolError),  # type: ignore[arg-type]
    ("svg.trick(())", lambda: svg.trick(()), DealError),  # type: ignore[arg-type]
    ("svg.trick(anchor=10**30)", lambda: svg.trick(_a_trick(), anchor=10**30), ProtocolError),
    ("svg.trick(names=5)", lambda: svg.trick(_a_trick(), names=5), ProtocolError),  # type: ignore[arg-type]
    ("svg.view(())", lambda: svg.view(()), ProtocolError),  # type: ignore[arg-type]
    ("svg.view(names=Liar())", lambda: svg.view(_VIEW, names=_Liar()), ProtocolError),  # type: ignore[arg-type]
    ("svg.sheet(running_before=Liar())", lambda: svg.sheet(_DS, running_before=_Liar()), DealError),
    ("svg.card(lang=bytearray())", lambda: svg.card(Card("QS"), lang=bytearray()), LanguageError),  # type: ignore[arg-type]
    ("svg.cards(lang=[[]])", lambda: svg.cards((), lang=[[]]), LanguageError),  # type: ignore[arg-type]
    ("svg.view(lang=[[]])", lambda: svg.view(_VIEW, lang=[[]]), LanguageError),  # type: ignore[arg-type]
    ("svg.view(names=Hostile())", lambda: svg.view(_VIEW, names=_Hostile()), ProtocolError),  # type: ignore[arg-type]
    ("svg.sheet(range(10**12))", lambda: svg.sheet(range(10**12)), DealError),  # type: ignore[arg-type]
    ("svg.sheet(running_before=10**30)", lambda: svg.sheet(_DS, running_before=10**30), DealError),  # type: ignore[arg-type]
    # search
    ("Limit('x' * 100000)", lambda: Limit("x" * 100000), LimitError),  # type: ignore[arg-type]
    ("Limit(10**5000)", lambda: Limit(10**5000), LimitError),
    ("Limit(simulations=10**5000)", lambda: Limit(simulations=10**5000), LimitError),
    ("Limit.parse(5)", lambda: Limit.parse(5), LimitError),  # type: ignore[arg-type]
    (
        "Limit.parse('simulations=' + '9' * 5000)",
        lambda: Limit.parse("simulations=" + "9" * 5000),
        LimitError,
    ),
    ("SearchStrategy(beta=10**5000)", lambda: SearchStrategy(beta=10**5000), LimitError),
    ("SearchStrategy(prune=Hostile())", lambda: SearchStrategy(prune=_Hostile()), LimitError),  # type: ignore[arg-type]
    ("SearchStrategy(seed=10**5000)", lambda: SearchStrategy(seed=10**5000), LimitError),
    ("SearchStrategy(seed=Hostile())", lambda: SearchStrategy(seed=_Hostile()), LimitError),  # type: ignore[arg-type]
    ("SearchStrategy().analyse(())", lambda: SearchStrategy().analyse(()), LimitError),  # type: ignore[arg-type]
    ("arena(0, 1)", lambda: arena(0, 1), ArenaError),  # type: ignore[arg-type]
    (
        "arena(rotations=10**5000)",
        lambda: arena("random", "random", rotations=10**5000),
        ArenaError,
    ),
    ("arena(deals=-10**5000)", lambda: arena("random", "random", deals=-(10**5000)), ArenaError),
    (
        "arena(deals=10**12, seed=1)",
        lambda: arena("random", "random", deals=10**12, seed=1),
        ArenaError,
    ),
    ("arena(limit=3)", lambda: arena("random", "random", limit=3), ArenaError),  # type: ignore[arg-type]
    ("arena(deal_file=3)", lambda: arena("random", "random", deal_file=3), ArenaError),  # type: ignore[arg-type]
    ("arena(progress=3)", lambda: arena("random", "random", progress=3), ArenaError),  # type: ignore[arg-type]
    ("arena('x' * 100000, ...)", lambda: arena("x" * 100000, "random"), ArenaError),
]


@pytest.mark.parametrize(("call", "thunk", "error"), CASES, ids=[c[0] for c in CASES])
def test_the_fuzzer_find_raises_a_typed_error(
    call: str, thunk: Callable[[], Any], error: type[GongzhuError]
) -> None:
    started = time.perf_counter()
    with pytest.raises(error) as info:
        thunk()
    assert time.perf_counter() - started < 2.0, call
    assert len(str(info.value)) < 300, call


def test_limit_error_and_arena_error_are_gongzhu_errors() -> None:
    assert issubclass(LimitError, GongzhuError)
    assert issubclass(ArenaError, GongzhuError)


def test_valid_calls_still_work() -> None:
    # The new checks refuse only bad arguments (source: the docstrings' own examples).
    assert "⑦ total" in _DS.sheet([10, -20])
    assert protocol.information_state_size(4) > protocol.observation_size(4) > 0
    assert protocol.action_for(0, 2) == Play(2, Card.from_index(0))
    assert svg.cards(iter(parse_cards("QS TC"))).startswith("<svg")
    assert svg.sheet(_DS, names=["A", "B"], running_before=(5, 6)).startswith("<svg")
    assert Limit.parse("time=0.5") == Limit(time=0.5)
