"""Friends at one table, over the protocol: a table that waits for its host to deal, quick
messages, the table's speed, and the numbers the rules prose quotes."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from test_web_server import WS, client, connect, error_of, is_state, new_room  # noqa: F401

from gongzhu import score
from gongzhu.web.settings import Settings


def test_a_waiting_table_deals_nothing_until_its_host_starts(client: Any) -> None:  # noqa: F811
    made = new_room(client, wait=True)
    with connect(client, made["room"]) as raw_ann, connect(client, made["room"]) as raw_bob:
        ann, bob = WS(raw_ann), WS(raw_bob)
        welcome = ann.hello(made["token"])
        assert welcome["room"]["lobby"] is True
        assert ann.last_state is not None
        assert ann.last_state["view"]["hand"] == []  # nobody is shown a card
        bob.hello()
        bob.send({"type": "sit", "seat": 2, "name": "Bob"})
        bob.until(lambda m: m["type"] == "welcome")
        state = bob.state()
        assert state["room"]["seats"][2]["name"] == "Bob"
        assert state["view"]["hand"] == []
        # Nothing may be played, and only the host deals.
        bob.send({"type": "start", "event": state["event"]})
        assert bob.until(error_of("bad-message"))
        ann.send({"type": "start", "event": ann.state()["event"]})
        dealt = bob.until(lambda m: is_state(m) and not m["room"]["lobby"])
        assert len(dealt["view"]["hand"]) == 13
        assert dealt["room"]["totals"] == [0, 0, 0, 0]


def test_quick_messages_reach_everyone_and_are_paced(client: Any) -> None:  # noqa: F811
    made = new_room(client)
    with connect(client, made["room"]) as raw_ann, connect(client, made["room"]) as raw_eve:
        ann, eve = WS(raw_ann), WS(raw_eve)
        ann.hello(made["token"])
        eve.hello()
        assert eve.last_state is not None
        ann.send({"type": "say", "phrase": "gg"})
        said = eve.until(lambda m: m["type"] == "said")
        assert (said["seat"], said["phrase"]) == (0, "gg")
        ann.send({"type": "say", "phrase": "hello"})
        assert ann.until(error_of("rate-limited"))
        eve.send({"type": "say", "phrase": "hello"})  # a watcher reads, does not talk
        assert eve.until(error_of("bad-message"))
        ann.send({"type": "say", "phrase": "anything I like"})
        assert ann.until(error_of("bad-message"))


def test_the_speed_is_the_tables_and_kept(client: Any) -> None:  # noqa: F811
    made = new_room(client)
    with connect(client, made["room"]) as raw:
        ann = WS(raw)
        ann.hello(made["token"])
        ann.send({"type": "speed", "pace": "slow"})
        ann.until(lambda m: is_state(m) and m["room"]["pace"] == "slow")
    assert client.get(f"/api/rooms/{made['room']}").json()["pace"] == "slow"


@pytest.mark.parametrize(
    "settings",
    [Settings(), Settings(all_hearts=400, sign_swap=False), Settings(exposure=False, deals=8)],
)
def test_the_rules_numbers_are_the_librarys_scores(client: Any, settings: Settings) -> None:  # noqa: F811
    made = new_room(
        client,
        sign_swap=settings.sign_swap,
        exposure=settings.exposure,
        all_hearts=settings.all_hearts,
        **({"deals": settings.deals} if settings.deals else {}),
    )
    with connect(client, made["room"]) as raw:
        numbers = WS(raw).hello(made["token"])["room"]["rule_numbers"]
    rules = settings.rules()
    hearts = " ".join(f"{r}H" for r in "23456789TJQKA")
    assert numbers["all_hearts"] == score(hearts, rules=rules).totals[0]
    assert numbers["slam"] == score(f"{hearts} QS JD TC", rules=rules).totals[0]
    assert ("slam_sheep_exposed" in numbers) == settings.exposure
