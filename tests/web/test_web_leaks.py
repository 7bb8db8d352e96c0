"""No frame the server sends shows a card its receiver may not know (issue #20, security).

A whole deal with two humans (one exposes, one declines; the exposures are
sealed until all have decided), the computers and a spectator: every frame
each connection received is scanned for card codes, and each code must be
one the receiver may know at that moment: its own hand, cards played, and
face-up exposures once the exposure window has closed. What may be known is
computed from the engine's full state at the frame's event (the room rebuilt
from the stored log), not from the views the server sends.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient
from test_web_server import WS, connect, drain, new_room, respond

from gongzhu import Phase, Round
from gongzhu.web import create_app
from gongzhu.web.rooms import Room

_CODE = re.compile(r"[2-9TJQKA][CDHS]")
_SKIP = frozenset({"rules", "rules_text"})  # the rule set names cards (opening card, exposable)


def codes_in(value: Any) -> set[str]:
    """Every card code in a frame (strings and object keys), outside the rule set."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key in _SKIP:
                continue
            if _CODE.fullmatch(key):
                found.add(key)
            found |= codes_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= codes_in(item)
    elif isinstance(value, str):
        found |= set(_CODE.findall(value)) if len(value) <= 3 else set()
    return found


def hidden_from(rnd: Round, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) may not know in ``rnd``: other hands' unplayed
    cards, less face-up exposures once every seat has decided (RULES.md §9.2)."""
    hidden = {c.code for x, hand in enumerate(rnd.hands) if x != seat for c in hand}
    if rnd.phase is not Phase.EXPOSURE:
        hidden -= {c.code for c in rnd.exposed}
    return hidden


def test_the_scanner_sees_cards_and_the_oracle_hides_others() -> None:
    # The check below must be able to fail: a frame with another seat's card is caught.
    from gongzhu import RuleSet, deal

    rnd = deal(rules=RuleSet.preset("online"), seed=1).pass_exposure()
    other = rnd.hands[1].cards[0].code
    frame = {"type": "state", "view": {"hand": [other]}, "rules": {"opening_card": "2C"}}
    assert other in codes_in(frame) & hidden_from(rnd, 0)
    assert not codes_in({"rules": {"exposable": "TC JD AH QS"}, "rules_text": "QS"})
    assert hidden_from(rnd, None) == {c.code for h in rnd.hands for c in h}


def counted_for(recipient: int | None, rid: str, meta: Any, log: list[Any]) -> list[int]:
    """Each log entry's number on ``recipient``'s own event counter: the store's event
    less the sealed exposure decisions of other seats made before (the counters start
    together; a sealed decision moves its maker's alone)."""
    out, hidden = [], 0
    for k, entry in enumerate(log):
        action = entry.get("a", {})
        if action.get("type") == "expose" and action.get("seat") != recipient:
            after = Room(None, rid, meta, log[: k + 1]).round
            if after.phase.name == "EXPOSURE":  # still open: sealed from the others
                hidden += 1
        out.append(entry["e"] - hidden)
    return out


def test_no_frame_to_a_seat_or_a_spectator_holds_a_card_it_may_not_know() -> None:
    with TestClient(create_app(bot_delay=0, seed=2024)) as client:
        data = new_room(client, exposure=True, level="normal")
        rid = data["room"]
        with (
            connect(client, rid) as s0,
            connect(client, rid) as s2,
            connect(client, rid) as s_spec,
        ):
            host, friend, spectator = WS(s0), WS(s2), WS(s_spec)
            host.hello(data["token"])
            spectator.hello(None)
            friend.hello(None)
            friend.send({"type": "sit", "seat": 2, "name": "Bob"})
            friend.until(lambda m: m["type"] == "welcome")
            acted = {0: -1, 2: -1}
            deadline = time.monotonic() + 90
            players = ((0, host, True), (2, friend, False))
            while not all(w.last_state and w.last_state["last_score"] for _, w, _ in players):
                assert time.monotonic() < deadline, "the deal did not end"
                for seat, ws, expose in players:
                    drain(ws)
                    st = ws.last_state
                    if st and st["event"] > acted[seat] and respond(ws, seat, st, expose=expose):
                        acted[seat] = st["event"]
            drain(spectator)
        meta, log = client.app.state.server.store.load(rid)

    seen_own = 0
    rebuilt: dict[tuple[int | None, int], Round] = {}
    for seat, ws in ((0, host), (2, friend), (None, spectator)):
        assert len(ws.frames) > 20
        counters = counted_for(seat, rid, meta, log)
        for text in ws.frames:
            frame = json.loads(text)
            event = frame["event"]  # the recipient's own counter
            if (seat, event) not in rebuilt:
                prefix = [e for e, counter in zip(log, counters, strict=True) if counter <= event]
                rebuilt[seat, event] = Room(None, rid, meta, prefix).round
            rnd = rebuilt[seat, event]
            leaked = codes_in(frame) & hidden_from(rnd, seat)
            assert not leaked, (seat, frame["type"], event, sorted(leaked))
            if seat is not None and frame["type"] == "state":
                seen_own += bool(codes_in(frame) & {c.code for c in rnd.hands[seat]})
    assert seen_own > 10  # the scan does see cards: the seats' own hands
    # The host exposed what it could: some exposure was made while sealed.
    assert any("a" in e and e["a"]["type"] == "expose" and e["a"]["cards"] for e in log)
