# ruff: noqa: E501
"""The new surfaces of issue #22, fuzzed: a part of ``tools/fuzz_public_api.py``.

Four campaigns, each a stream of short bounded attempts that report any exception
that is not a :class:`gongzhu.GongzhuError` (OpenSpiel's own ``SpielError`` is
allowed where the binding raises it):

* ``readers``: one-field and structural mutants of real JSON objects (actions,
  views, scores, rules, records, deal files, OpenSpiel state text) fed to their
  readers; an accepted view must then survive its methods;
* ``adapters``: PettingZoo, Gymnasium and OpenSpiel driven with hostile actions,
  seeds, players and samplers at random points of random deals;
* ``search``: the search and greedy bots asked about hostile views and legal sets
  (accepted mutants, other seats' views, empty, not-in-hand, lists);
* ``server``: ``examples/server.py`` on 127.0.0.1 (ephemeral port, short
  timeouts) with one hostile client and three bot clients: the deal must end for
  the bots, and the server must log no exception.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import importlib.util
import json
import math
import os
import random
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gongzhu import GongzhuError

ROOT = Path(__file__).resolve().parent.parent
CODES = [r + s for s in "CDHS" for r in "23456789TJQKA"]
HOSTILE_VALUES: list[Any] = [
    True, False, 0, 1, -1, 4, 5, 13, 52, 87, 2**31, 2**63, 10**30, -(10**30), 1.5, 6.99,
    math.nan, math.inf, -math.inf, None, "", "x", "32", "qs", "10♣", "\ud800", "QS" * 1000,
    [], {}, [1], {"a": 1}, ["QS", "QS"], [[[[[]]]]],
]  # fmt: skip

Report = Callable[[str, BaseException, str], None]
_WEIGHTS = {"readers": 40.0, "adapters": 4.0, "search": 6.0, "server": 0.15}


def _allowed(exc: BaseException) -> bool:
    if isinstance(exc, GongzhuError):
        return True
    # OpenSpiel's own: its errors, and its binding's refusal of a non-int action.
    return type(exc).__name__ == "SpielError" or (
        isinstance(exc, TypeError) and "incompatible function arguments" in str(exc)
    )


def _mutants(value: Any, rng: random.Random) -> Any:
    """One random mutant of a JSON value (a scalar swapped, a key dropped or doubled...)."""
    value = copy.deepcopy(value)
    path: list[Any] = []
    node = value
    while isinstance(node, (dict, list)) and node and rng.random() < 0.7:
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        path.append(key)
        node = node[key]
    if not path:
        choice = rng.random()
        if choice < 0.3:
            return rng.choice(HOSTILE_VALUES)
        if isinstance(value, dict) and value:
            value.pop(rng.choice(list(value)))
        elif isinstance(value, list):
            value.append(rng.choice(HOSTILE_VALUES))
        return value
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    roll = rng.random()
    if roll < 0.6:
        parent[last] = rng.choice(HOSTILE_VALUES)
    elif roll < 0.75:
        parent[last] = rng.choice(CODES)
    elif roll < 0.85 and isinstance(parent, dict):
        parent.pop(last)
    elif isinstance(parent[last], list):
        parent[last].append(rng.choice(CODES + HOSTILE_VALUES[:8]))
    else:
        parent[last] = [parent[last]] * rng.randrange(0, 3)
    return value


class Surfaces:
    """The campaigns; :meth:`step` runs one short attempt of one of them."""

    def __init__(self, rng: random.Random, report: Report, names: list[str]) -> None:
        self.rng = rng
        self.report = report
        self.names = names
        self.attempts = dict.fromkeys(names, 0)
        self._samples: dict[str, list[Any]] | None = None
        self._tmp = tempfile.mkdtemp(prefix="gongzhu-fuzz-")

    # -- samples ---------------------------------------------------------------------------

    def samples(self) -> dict[str, list[Any]]:
        if self._samples is not None:
            return self._samples
        from gongzhu import RuleSet, deal, record
        from gongzhu.adapters import _driver

        rng = random.Random(5)
        views, actions, scores, rounds = [], [], [], []
        for rules in (RuleSet(), RuleSet(claims=True), RuleSet(players=5),
                      RuleSet(exposure_kind="face-down-up")):  # fmt: skip
            for seed in range(3):
                r = deal(rules=rules, seed=seed)
                while not r.is_over:
                    if rng.random() < 0.15:
                        views.append(r.view(rng.randrange(rules.players)).to_dict())
                    a = _driver.actor(r)
                    assert a is not None
                    r = _driver.step(r, a, rng.choice(_driver.legal_ids(r, a)))
                actions += [x.to_dict() for x in r.history[:6]]
                scores.append(r.score().to_dict())
                rounds.append(r)
        self._samples = {
            "view": views,
            "action": actions,
            "score": scores,
            "rules": [RuleSet().to_dict(), RuleSet(players=5, claims=True).to_dict()],
            "record": [json.loads(record.dumps(rounds[0]))],
        }
        return self._samples

    # -- the driver ------------------------------------------------------------------------

    def step(self) -> None:
        # A server session takes seconds, a reader call microseconds: weighted so each
        # campaign gets a fair share of the time.
        weights = [_WEIGHTS.get(n, 1.0) for n in self.names]
        name = self.rng.choices(self.names, weights)[0]
        self.attempts[name] += 1
        getattr(self, f"_{name}")()

    def _guard(self, label: str, thunk: Callable[[], Any], reproducer: str) -> Any:
        try:
            return thunk()
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt) or type(exc).__name__ == "_Slow":
                raise
            if not _allowed(exc):
                self.report(label, exc, reproducer)
            return None

    # -- readers ---------------------------------------------------------------------------

    def _readers(self) -> None:
        from gongzhu import Action, DealScore, PlayerView, RuleSet, record
        from gongzhu.ai.arena import load_deals

        rng = self.rng
        kind = rng.choice(["view", "action", "score", "rules", "record", "deals", "state"])
        if kind == "deals":
            text = rng.choice([
                "[" * rng.randrange(1, 200_000), '{"format": "gongzhu-deals", "format": 1}',
                json.dumps({"format": "gongzhu-deals", "version": 1, "players": 4,
                            "deals": [[rng.choice(CODES)] * 4]}),
                "NaN", "\ud800".encode("utf-8", "surrogatepass").decode("latin-1"),
            ])  # fmt: skip
            path = os.path.join(self._tmp, "deals.json")
            with open(path, "w", encoding="utf-8", errors="surrogatepass") as f:
                f.write(text)
            self._guard("load_deals", lambda: load_deals(path), f"load_deals(<{text[:60]!r}>)")
            return
        if kind == "state":
            self._state_text()
            return
        base = rng.choice(self.samples()[kind])
        mutant = _mutants(base, rng)
        for _ in range(rng.randrange(3)):
            mutant = _mutants(mutant, rng)
        readers: dict[str, Callable[[Any], Any]] = {
            "view": PlayerView.from_dict,
            "action": Action.from_dict,
            "score": DealScore.from_dict,
            "rules": RuleSet.from_dict,
            "record": lambda d: record.loads(json.dumps(d)),
        }
        shown = json.dumps(mutant, default=repr)[:400]
        result = self._guard(f"{kind} reader", lambda: readers[kind](mutant), shown)
        if kind == "view" and result is not None:
            for method in ("observation", "information_state", "to_dict", "legal_actions",
                           "unseen", "deal_score", "_repr_html_"):  # fmt: skip
                fn = getattr(result, method, None)
                if callable(fn):
                    self._guard(f"accepted view .{method}", fn, shown)
            self._search(result)

    def _state_text(self) -> None:
        try:
            import pyspiel

            import gongzhu.adapters.openspiel as gz
        except ImportError:
            return
        game = pyspiel.load_game("python_gongzhu")
        s = game.new_initial_state()
        for a in gz.deal_actions(game, seed=self.rng.randrange(50)):
            s.apply_action(a)
        data = json.loads(gz.state_to_text(s))
        mutant = _mutants(data, self.rng)
        text = json.dumps(mutant, default=repr)
        self._guard("state_from_text", lambda: gz.state_from_text(text), text[:300])

    # -- adapters --------------------------------------------------------------------------

    def _hostile_action(self) -> Any:
        import numpy as np

        return self.rng.choice([*HOSTILE_VALUES, np.int64(3), np.float32(2.0), np.array([5]),
                                np.bool_(True), np.uint8(200), self.rng.randrange(-5, 100)])  # fmt: skip

    def _adapters(self) -> None:
        try:
            import numpy  # noqa: F401
        except ImportError:
            return
        which = self.rng.choice(["pettingzoo", "gymnasium", "openspiel"])
        with contextlib.suppress(ImportError):
            getattr(self, f"_{which}")()

    def _pettingzoo(self) -> None:
        from gongzhu.adapters.pettingzoo import raw_env

        rng = self.rng
        env = raw_env(rng.choice(["classic", "catch-the-pig", "online"]))
        seed = rng.choice([rng.randrange(1000), *HOSTILE_VALUES[:6]])
        if (
            self._guard(
                "pettingzoo reset", lambda: env.reset(seed=seed) or True, f"reset({seed!r})"
            )
            is None
        ):
            return
        for _ in range(rng.randrange(1, 60)):
            agent = env.agent_selection
            if env.terminations.get(agent, True):
                break
            if rng.random() < 0.15:
                action = self._hostile_action()
            else:
                legal = env.observe(agent)["action_mask"].nonzero()[0]
                action = int(rng.choice(list(legal))) if len(legal) else 0
            self._guard("pettingzoo step", lambda a=action: env.step(a), f"step({action!r})")

    def _gymnasium(self) -> None:
        from gongzhu.adapters.gymnasium import GongzhuEnv

        rng = self.rng
        env = GongzhuEnv(rng.choice(["classic", "catch-the-pig"]), opponents="random")
        got = self._guard("gymnasium reset", lambda: env.reset(seed=rng.randrange(1000)), "")
        if got is None:
            return
        _obs, info = got
        for _ in range(rng.randrange(1, 40)):
            if rng.random() < 0.15:
                action = self._hostile_action()
            else:
                legal = info["action_mask"].nonzero()[0]
                action = int(rng.choice(list(legal))) if len(legal) else 0
            out = self._guard("gymnasium step", lambda a=action: env.step(a), f"step({action!r})")
            if out is None:
                continue
            _obs, _r, done, _t, info = out
            if done:
                break

    def _openspiel(self) -> None:
        import pyspiel

        import gongzhu.adapters.openspiel as gz

        rng = self.rng
        rules = rng.choice(["classic", "catch-the-pig", "online"])
        from gongzhu import RuleSet

        game = pyspiel.load_game("python_gongzhu", gz.parameters_of(RuleSet.preset(rules)))
        s = game.new_initial_state()
        for a in gz.deal_actions(game, seed=rng.randrange(1000)):
            s.apply_action(a)
        for _ in range(rng.randrange(1, 40)):
            if s.is_terminal():
                break
            roll = rng.random()
            if roll < 0.1:
                action = self._hostile_action()
                self._guard("openspiel apply_action", lambda a=action: s.apply_action(a),
                            f"apply_action({action!r})")  # fmt: skip
                continue
            if roll < 0.2:
                player = rng.choice([*HOSTILE_VALUES[:10], 0, 1, 2, 3])
                self._guard("openspiel information_state_string",
                            lambda p=player: s.information_state_string(p), f"({player!r})")  # fmt: skip
                value = rng.choice([rng.random(), *HOSTILE_VALUES[:20]])
                self._guard("openspiel resample_from_infostate",
                            lambda p=player, v=value: s.resample_from_infostate(p, lambda: v),
                            f"resample_from_infostate({player!r}, lambda: {value!r})")  # fmt: skip
                continue
            me = s.current_player()
            w = self._guard("openspiel resample", lambda m=me: s.resample_from_infostate(m, rng.random),
                            f"{rules}: resample at {s.history()}")  # fmt: skip
            if w is not None and w.information_state_string(me) != s.information_state_string(me):
                self.report("openspiel resample", AssertionError("the seat can tell the world"),
                            f"{rules}: {s.history()}")  # fmt: skip
            s.apply_action(rng.choice(s.legal_actions()))

    # -- the search bot --------------------------------------------------------------------

    def _search(self, view: Any = None) -> None:
        from gongzhu import CardSet, Limit, PlayerView, RuleSet, SearchStrategy, deal
        from gongzhu.ai.registry import make_strategy

        rng = self.rng
        if view is None:
            r = deal(rules=RuleSet(exposable=rng.choice(["", "QS"])), seed=rng.randrange(500))
            r = r.pass_exposure() if r.rules.exposable else r
            for _ in range(rng.randrange(0, 40)):
                if r.is_over:
                    break
                r = r.play(r.legal_plays[0])
            view = r.view(rng.randrange(r.players))
            if rng.random() < 0.5:
                mutant = _mutants(view.to_dict(), rng)
                got = self._guard("view reader", lambda: PlayerView.from_dict(mutant), "")
                if got is None:
                    return
                view = got
        legal = rng.choice([view.legal_plays, CardSet(), view.hand, CardSet(list(view.hand)[:1]),
                            list(view.legal_plays), view.unseen(), "QS", None])  # fmt: skip
        bot = rng.choice([lambda: SearchStrategy(Limit(time=0.05), seed=rng.randrange(9)),
                          lambda: make_strategy("greedy", rng.randrange(9))])()  # fmt: skip
        shown = f"{type(bot).__name__}.choose_play({view.to_dict()!r:.300}, {legal!r:.100})"
        self._guard("search bot", lambda: bot.choose_play(view, legal), shown)
        if rng.random() < 0.2:
            self._guard("search bot exposure", lambda: bot.choose_exposure(view), shown)

    # -- the example server ----------------------------------------------------------------

    def _server(self) -> None:
        server = _example_server()
        try:
            asyncio.run(asyncio.wait_for(self._session(server), 45))
        except (TimeoutError, asyncio.TimeoutError) as exc:
            self.report("example server", exc, f"session {self.attempts['server']}: no end")

    async def _session(self, server: Any) -> None:
        from gongzhu import RuleSet

        rng = self.rng
        loop = asyncio.get_running_loop()
        errors: list[str] = []
        loop.set_exception_handler(lambda _l, ctx: errors.append(str(ctx.get("message"))
                                                                 + repr(ctx.get("exception"))))  # fmt: skip
        table = server.Table(RuleSet(), seed=rng.randrange(100), join_timeout=1.0,
                             send_timeout=5.0, idle_timeout=5.0)  # fmt: skip
        srv = await asyncio.start_server(table.serve, "127.0.0.1", 0, limit=server.MAX_LINE)
        port = srv.sockets[0].getsockname()[1]
        attack = rng.choice(["garbage", "nest", "flood", "leave", "long", "half", "idle",
                             "duplicate", "wrong-seat", "binary"])  # fmt: skip
        hostile = asyncio.create_task(self._hostile_client(port, attack))
        await asyncio.sleep(0.2)  # it connects (and joins) first
        # A client that never joins takes no seat: then a fourth bot is needed.
        count = 4 if attack in ("half", "idle") else 3
        bots = [asyncio.create_task(server.bot_client(port, f"b{k}")) for k in range(count)]
        try:
            results = await asyncio.wait_for(asyncio.gather(*bots), 40)
        except (TimeoutError, asyncio.TimeoutError) as exc:
            self.report("example server", exc, f"attack {attack}: the bots' deal did not end")
            results = []
        except Exception as exc:  # a well-behaved client must never be cut off
            self.report("example server", exc, f"attack {attack}: a bot client failed")
            results = []
        hostile.cancel()
        with contextlib.suppress(BaseException):
            await hostile
        srv.close()
        await table.close()
        await srv.wait_closed()
        for r in results:
            if not r["score"]:
                self.report("example server", AssertionError("no score"), f"attack {attack}")
        for handler_error in errors:
            self.report("example server", RuntimeError(handler_error[:300]), f"attack {attack}")

    async def _hostile_client(self, port: int, attack: str) -> None:
        rng = self.rng
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            if attack == "half":
                writer.write(b'{"type": "jo')
                await writer.drain()
                writer.close()
                return
            if attack == "idle":
                await asyncio.sleep(30)
                return
            writer.write(b'{"type": "join", "name": "h"}\n')
            await writer.drain()
            while True:  # attack once the deal is on (a seat left before it is free again)
                message = json.loads(await asyncio.wait_for(reader.readline(), 20))
                if message["type"] == "view":
                    break
            lines = {
                "garbage": [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
                            .replace(b"\n", b" ") for _ in range(50)],
                "nest": [b"[" * rng.randrange(1000, 60000), b'{"a":' * 20000],
                "flood": [b"x"] * 30000,
                "long": [b"y" * 70000],
                "duplicate": [b'{"type": "play", "seat": 1, "seat": 0, "card": "2C"}'] * 5,
                "wrong-seat": [json.dumps({"type": "play", "seat": s, "card": c}).encode()
                               for s in range(5) for c in ("2C", "QS")],
                "binary": [b"\xff\xfe\x00" * 100],
                "leave": [],
            }[attack]  # fmt: skip
            writer.write(b"\n".join(lines) + b"\n")
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer.drain(), 5)
            if attack in ("flood",):
                await asyncio.sleep(30)  # and never read
            elif attack != "leave":
                while await asyncio.wait_for(reader.readline(), 30):
                    pass
        except (OSError, TimeoutError, asyncio.TimeoutError, ValueError):
            pass
        finally:
            writer.transport.abort()


_SERVER: Any = None


def _example_server() -> Any:
    global _SERVER
    if _SERVER is None:
        spec = importlib.util.spec_from_file_location("gongzhu_example_server",
                                                      ROOT / "examples" / "server.py")  # fmt: skip
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["gongzhu_example_server"] = module
        spec.loader.exec_module(module)
        _SERVER = module
    return _SERVER


def format_exception(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc))[-3000:]
