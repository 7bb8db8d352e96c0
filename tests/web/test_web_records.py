"""``GET /api/rooms/<id>/record``: built once per finished deal (off the loop), rate-limited."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient
from test_web_server import WS, connect, new_room, play_out_deal

from gongzhu import record
from gongzhu.web import Limits, create_app
from gongzhu.web.rooms import Room


def test_the_record_is_built_once_per_finished_deal_and_rate_limited(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    builds: list[str] = []
    build = Room.record_text

    def counted(self: Room) -> str:
        builds.append(self.id)
        return build(self)

    monkeypatch.setattr(Room, "record_text", counted)
    limits = Limits(records_burst=5, records_per_minute=0.001)
    with TestClient(create_app(bot_delay=0, seed=4, limits=limits)) as client:
        data = new_room(client, exposure=False)
        url = f"/api/rooms/{data['room']}/record"
        assert client.get(url).status_code == 404  # no finished deal yet
        with connect(client, data["room"]) as session:
            ws = WS(session)
            ws.hello(data["token"])
            end = play_out_deal(ws, 0)
            first = [client.get(url) for _ in range(3)]
            assert [r.status_code for r in first] == [200, 200, 200]
            assert len({r.text for r in first}) == 1
            assert len(builds) == 2  # the 404, then one build for three requests
            assert len(record.loads(first[0].text).rounds) == 1
            ws.send({"type": "next", "event": end["event"]})
            ws.until(lambda m: m["type"] == "state" and m["last_score"] is None)
            play_out_deal(ws, 0)
            second = client.get(url)
            assert len(record.loads(second.text).rounds) == 2  # a new deal: built again
            assert len(builds) == 3
            refused = client.get(url)  # the sixth request of this address
            assert refused.status_code == 429
            assert refused.json()["code"] == "rate-limited"
            other = TestClient(client.app, client=("198.51.100.3", 4000))
            assert other.get(url).status_code == 200  # another address has its own budget
            assert len(builds) == 3
