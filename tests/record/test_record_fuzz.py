"""Fuzzing gongzhu.record.loads: broken and hostile records fail with RecordError, quickly.

Every input here either reads (it happens to be a valid record) or raises
:class:`~gongzhu.RecordError`; nothing else may escape, and no input may take
long (docs/api_design.rst, "Errors"; python-chess fuzzes its PGN reader the same way).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu import Match, RecordError, Round, RuleSet, deal
from gongzhu.record import MAX_DEALS, MAX_TEXT, GameRecord, dumps, loads

SECONDS = 2.0
"""The most one input may take to read or refuse (a 1 MB valid match takes well under)."""


def read(text: str | bytes) -> GameRecord | None:
    """Read ``text``; a RecordError is fine, anything else fails; so does slowness."""
    start = time.perf_counter()
    try:
        return loads(text)
    except RecordError as exc:
        message = str(exc)
        return None if message else pytest.fail("a RecordError without a message")
    finally:
        elapsed = time.perf_counter() - start
        assert elapsed < SECONDS, f"took {elapsed:.2f}s"


def _play(rng: random.Random, r: Round) -> Round:
    rules = r.rules
    holders = [s for s in range(r.players) if r.hands[s] & rules.exposable]
    for seat in holders[:2]:
        r = r.expose(list(r.hands[seat] & rules.exposable)[:1], seat=seat)
    r = r.pass_exposure()  # the others decline (RULES.md §9.1)
    while not r.is_over:
        if rules.claims and len(r.tricks) == 9 and not r.current_trick.cards:
            claimer = r.to_act
            assert claimer is not None
            r = r.claim()
            for seat in range(r.players):
                if seat != claimer:
                    r = r.respond(True, seat=seat)
            continue
        r = r.play(rng.choice(list(r.legal_plays)))
    return r


def _match_text(rules: RuleSet, seed: int, deals: int, unfinished: bool) -> str:
    rng = random.Random(seed)
    match = Match(rules)
    rounds = []
    for _ in range(deals):
        if match.is_over:
            break
        r = _play(
            rng,
            deal(
                rules=rules,
                seed=rng.randrange(10**6),
                leader=match.next_leader,
                dealer=match.dealer,
            ),
        )
        rounds.append(r)
        match = match.add(r)
    if unfinished and not match.is_over:
        r = deal(rules=rules, seed=5, leader=match.next_leader, dealer=match.dealer)
        for _ in range(9):
            r = r.play(r.legal_plays[0])
        rounds.append(r)
    return dumps(rounds, names=["Ann", "Bob", "Cid", "Dee", "Eve"][: rules.players])


def _claims_text() -> str:
    """A deal with a face-down exposure, refused claims and a swept trick."""
    r = deal(rules=RuleSet(claims=True, exposure_kind="face-down-up"), seed=4)
    holders = [s for s in range(4) if r.hands[s] & r.rules.exposable]
    r = r.expose([], seat=holders[0])
    r = r.expose(
        list(r.hands[holders[-1]] & r.rules.exposable)[:1], seat=holders[-1], face_down=True
    )
    # Claims come after every exposure decision (RULES.md §9.1).
    r = r.pass_exposure().claim().respond(False, seat=(r.leader + 1) % 4)
    for _ in range(6):
        r = r.play(r.legal_plays[0])
    claimer = r.to_act
    assert claimer is not None
    r = r.claim().respond(True, seat=(claimer + 2) % 4).respond(False, seat=(claimer + 3) % 4)
    r = r.play(r.legal_plays[0])
    claimer = r.to_act
    assert claimer is not None
    r = r.claim()
    for seat in range(4):
        if seat != claimer:
            r = r.respond(True, seat=seat)
    assert r.is_over
    return dumps(r)


VALID = [
    _match_text(RuleSet(), 1, 2, False),
    _claims_text(),
    _match_text(RuleSet(claims=True, exposure_order="in-turn"), 2, 2, True),
    _match_text(RuleSet(players=5, exposure_kind="face-down-up"), 3, 1, True),
]


def test_the_fuzzing_seeds_are_valid_records() -> None:
    for text in VALID:
        assert read(text) is not None


# -- structural mutations ----------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(["QS", "TC", "2S", "AH", "classic", "gongzhu", "claim", "respond"])
    | st.integers(-2, 6),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=10,
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, (*path, i))
    return found


def _parent(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path[:-1]:
        data = data[step]
    return data


def _mutate(data: Any, path: tuple[Any, ...], op: str, new: Any, rng: random.Random) -> Any:
    if not path:
        return new if op == "replace" else [data]
    parent, key = _parent(data, path), path[-1]
    if op == "delete":
        del parent[key]
    elif op == "replace":
        parent[key] = new
    elif op == "duplicate" and isinstance(parent, list):
        parent.insert(key, json.loads(json.dumps(parent[key])))
    elif op == "wrap":
        parent[key] = [parent[key]]
    elif op == "rename" and isinstance(parent, dict):
        parent[str(new)] = parent.pop(key)
    elif op == "nudge" and isinstance(parent[key], int) and not isinstance(parent[key], bool):
        parent[key] += rng.choice([-1, 1, 2**70, -(2**70)])
    elif op == "swap":
        # Swap this value with another one of the record (two cards, two seats, …).
        others = [p for p in _paths(data) if p and p[: len(path)] != path]
        other = rng.choice(others) if others else path
        if path[: len(other)] != other:
            a, b = _parent(data, other), other[-1]
            parent[key], a[b] = a[b], parent[key]
    return data


@given(
    which=st.sampled_from(range(len(VALID))),
    pick=st.integers(0, 10**6),
    op=st.sampled_from(["delete", "replace", "duplicate", "wrap", "rename", "nudge", "swap"]),
    new=JSON_VALUES,
    seed=st.integers(0, 2**16),
)
@settings(max_examples=300)
def test_a_mutated_record_reads_or_raises_record_error(
    which: int, pick: int, op: str, new: Any, seed: int
) -> None:
    data = json.loads(VALID[which])
    paths = _paths(data)
    path = paths[pick % len(paths)]
    data = _mutate(data, path, op, new, random.Random(seed))
    read(json.dumps(data))


@given(
    which=st.sampled_from(range(len(VALID))),
    cut=st.integers(0, 10**6),
    junk=st.text(max_size=20),
    op=st.sampled_from(["truncate", "insert", "overwrite"]),
)
def test_damaged_text_reads_or_raises_record_error(
    which: int, cut: int, junk: str, op: str
) -> None:
    text = VALID[which]
    at = cut % (len(text) + 1)
    if op == "truncate":
        text = text[:at]
    elif op == "insert":
        text = text[:at] + junk + text[at:]
    else:
        text = text[:at] + junk + text[at + len(junk) :]
    read(text)


@given(st.binary(max_size=200))
def test_random_bytes_read_or_raise_record_error(data: bytes) -> None:
    read(data)


# -- hostile inputs ------------------------------------------------------------------------

DEPTH = 100_000


def _in_field(field: str, value: str) -> str:
    """A valid record with one field's JSON text replaced by ``value``."""
    data = json.loads(VALID[0])
    marker = "__HOSTILE__"
    target = data["deals"][0] if field in data["deals"][0] else data
    target[field] = marker
    return json.dumps(data).replace(json.dumps(marker), value)


HOSTILE: dict[str, Callable[[], str | bytes]] = {
    "deep lists": lambda: "[" * DEPTH + "]" * DEPTH,
    "deep objects": lambda: '{"a": ' * DEPTH + "1" + "}" * DEPTH,
    "deep actions": lambda: _in_field("actions", "[" * DEPTH + "]" * DEPTH),
    "deep overrides": lambda: _in_field("rules", '{"preset": "classic", "overrides": '
                                        + '{"x": ' * DEPTH + "1" + "}" * (DEPTH + 1)),
    "unclosed nesting": lambda: "[" * DEPTH,
    "huge integer": lambda: _in_field("dealer", "9" * 100_000),
    "huge negative integer": lambda: _in_field("seed", "-" + "9" * 5_000),
    "huge exponent": lambda: _in_field("dealer", "1e999999"),
    "long float": lambda: _in_field("version", "1." + "0" * 100_000),
    "big seat": lambda: _in_field("dealer", str(2**64)),
    "NaN": lambda: _in_field("dealer", "NaN"),
    "Infinity in a result": lambda: _in_field("result", "[Infinity, 0, 0, 0]"),
    "long name": lambda: _in_field("players", json.dumps(["A" * 3_000_000, "B", "C", "D"])),
    "long card": lambda: _in_field("actions", json.dumps(["Q" * 1_000_000])),
    "long preset": lambda: _in_field("rules", json.dumps({"preset": "x" * 1_000_000})),
    "long key": lambda: _in_field("dealer", "0, " + json.dumps("k" * 1_000_000) + ": 1"),
    "long seed": lambda: _in_field("seed", json.dumps("s" * 1_000_000)),
    "long override list": lambda: _in_field(
        "rules", json.dumps({"preset": "classic", "overrides": {"heart_values": [0] * 500_000}})
    ),
    "too many deals": lambda: _in_field("deals", json.dumps([{}] * (MAX_DEALS + 1))),
    "too many actions": lambda: _in_field("actions", json.dumps(["2S"] * 200_000)),
    "many claims": lambda: _in_field(
        "actions", json.dumps(["2S"] + [{"claim": 1}, {"respond": 2, "accept": False}] * 10_000)
    ),
    "many exposures in actions": lambda: _in_field(
        "actions", json.dumps(["2S"] + [{"expose": 1, "cards": []}] * 10_000)
    ),
    "deep exposure cards": lambda: _in_field(
        "actions", '[{"claim": 0}, {"expose": 1, "cards": ' + "[" * DEPTH + "]" * DEPTH + "}]"
    ),
    "too long": lambda: VALID[0] + " " * MAX_TEXT,
    "too long bytes": lambda: (VALID[0] + " " * MAX_TEXT).encode(),
    "duplicate keys": lambda: VALID[0].replace('"version": 1,', '"version": 1, "version": 1,'),
    "duplicate deal keys": lambda: _in_field("dealer", '0, "dealer": 0'),
    "not UTF-8": lambda: b'{"format": "\xff"}',
    "byte order mark": lambda: "\ufeff" + VALID[0],
    "lone surrogate": lambda: _in_field("seed", '"\\ud800"'),
    "null": lambda: "null",
    "a number": lambda: "1",
    "empty": lambda: "",
    "whitespace": lambda: " \n\t ",
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_raises_record_error_quickly(name: str) -> None:
    text = HOSTILE[name]()
    assert read(text) is None


@pytest.mark.parametrize("value", [None, 5, 1.5, ["{}"], {"format": "gongzhu"}, object()])
def test_values_that_are_not_text_raise_record_error(value: Any) -> None:
    with pytest.raises(RecordError, match="a record is text"):
        loads(value)
