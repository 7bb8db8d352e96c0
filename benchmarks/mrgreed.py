"""gongzhu bots against the published MrGreed and MrIf (Gongzhu-Society/MrIfOffline).

The peer's code is not part of gongzhu: give the path of a checkout of
https://github.com/Gongzhu-Society/MrIfOffline with ``--peer``, and of its
scenario sampler https://github.com/Gongzhu-Society/ScenarioGenerator with
``--scenario`` (default: ``PEER/ScenarioGenerator``, where the peer's imports
expect it). MrGreed imports ``torch`` without using it; when torch is not
installed, an empty module stands in for it. numpy is needed (the peer uses it).

The match is the peer's own benchmark format (``Manually_test.py``
``benchmark``, ``OfflineInterface.play_a_test`` with ``n2=2``): 2 against 2,
partners opposite, the gongzhu bot at seats 0 and 2, the peer's bot at 1 and 3;
each deal of the peer's hand file is played twice, the second time with the
hands moved one seat on (``cards[39:52] + cards[0:39]``) and seat 1 leading;
a deal's figure is the mean over its two games of ``s0 + s2 - s1 - s3``; the
report is the mean over deals ± its standard error, as the peer's README tables.
The rules are the peer's: gongzhu's ``flat-pig`` preset (no exposure, the pig
stays -100 for the all-hearts taker, the leader moves one seat a deal) with
``partnerships=True``: the peer's game is a team game (its benchmark scores the
partners' sum, and MrGreed plays for its partner), so our bots play for their
team too. ``--individual`` drops the partnerships (each gongzhu seat then plays
for itself, as in gongzhu's own ``mrif`` arena); the deal scores are the same.

The peer's referee (``OfflineInterface``) runs the game. A gongzhu ``Round``
follows it card by card; before every move the set of legal cards of the seat to
play is checked against the peer's ``judge_legal``, every card played is checked
by both, the trick winners must agree, and at the end of each game every seat's
score must equal the peer's ``calc_score``. Any disagreement stops the run.

Bots are seeded from ``--seed``, the deal and the seat; the peer's bots draw from
the global ``random`` and ``numpy.random``, which are seeded before every game.
The peer also iterates Python sets of card names, whose order depends on the
interpreter's hash seed: the harness runs under ``PYTHONHASHSEED=0`` (it
restarts itself with it when another value or none is set), so a run is
reproducible, deal for deal.

    python benchmarks/mrgreed.py --peer ~/MrIfOffline --ours search \\
        --limit simulations=300 --opponent MrGreed --deals 256

Prints the figure and writes, with ``--json``, every deal's figure and each game's
hands and cards in play order (``played``: what ``benchmarks/margin.py`` reads).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import io
import json
import math
import os
import random
import sys
import time
import types
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import attrs

from gongzhu.ai.arena import _factory
from gongzhu.ai.search import Limit
from gongzhu.cards import Card
from gongzhu.round import Round
from gongzhu.rules import RuleSet

TEAM_RULES = attrs.evolve(RuleSet.preset("flat-pig"), partnerships=True)
INDIVIDUAL_RULES = RuleSet.preset("flat-pig")
OPPONENTS = ("MrGreed", "MrIf", "MrRandom")


class HarnessError(RuntimeError):
    """The peer and gongzhu disagree, or the peer's checkout is unusable."""


# -- cards ---------------------------------------------------------------------------


def to_gongzhu(card: str) -> Card:
    """The peer's ``'S10'`` / ``'HA'`` as a gongzhu card (``10♠``, ``A♥``)."""
    return Card.parse(card[1:] + card[0])


def to_peer(card: Card) -> str:
    """A gongzhu card as the peer spells it (``'S10'``, ``'HA'``)."""
    code = card.code  # "TS", "AH"
    return code[1] + ("10" if code[0] == "T" else code[0])


# -- the peer ------------------------------------------------------------------------


def load_peer(peer: Path, scenario: Path | None) -> types.SimpleNamespace:
    """Import the peer's modules from its checkout (not copied; nothing is written there)."""
    peer = peer.resolve()
    if not (peer / "MrGreed.py").is_file() or not (peer / "OfflineInterface.py").is_file():
        raise HarnessError(f"{peer} is not a MrIfOffline checkout (no MrGreed.py)")
    scen = (scenario or peer / "ScenarioGenerator").resolve()
    if not (scen / "ScenarioGen.py").is_file():
        raise HarnessError(
            f"no ScenarioGen.py in {scen}: clone Gongzhu-Society/ScenarioGenerator there "
            "or pass --scenario"
        )
    if (
        "torch" not in sys.modules and importlib.util.find_spec("torch") is None
    ):  # MrGreed imports torch but never uses it
        sys.modules.setdefault("torch", types.ModuleType("torch"))
    package = types.ModuleType("ScenarioGenerator")
    package.__path__ = [str(scen)]
    sys.modules["ScenarioGenerator"] = package
    if str(peer) not in sys.path:
        sys.path.insert(0, str(peer))
    util = importlib.import_module("Util")
    util.LOGFILE = "/dev/null"  # the peer's log() appends to <argv[0]>.log otherwise
    return types.SimpleNamespace(
        util=util,
        offline=importlib.import_module("OfflineInterface"),
        greed=importlib.import_module("MrGreed").MrGreed,
        mrif=importlib.import_module("MrIf").MrIf,
        mrrandom=importlib.import_module("MrRandom").MrRandom,
    )


def read_hands(peer: types.SimpleNamespace, path: Path) -> list[list[str]]:
    """The peer's hand file, read by the peer's own reader (its log output silenced)."""
    with contextlib.redirect_stdout(io.StringIO()):
        hands = peer.offline.read_std_hands(str(path))
    return [list(cards) for _, cards in hands]


# -- one game ------------------------------------------------------------------------


class _Ours:
    """A seat of the peer's table played by a gongzhu strategy through a shadow ``Round``."""

    def __init__(self, game: _Game, place: int, strategy: Any) -> None:
        self.game, self.place, self.strategy = game, place, strategy
        self.name = f"gongzhu{place}"
        self.cards_list: list[str] = []
        self.history: list[Any] = []
        self.cards_on_table: list[Any] = []
        self.scores: list[list[str]] = [[], [], [], []]

    def pick_a_card(self) -> str:
        rnd = self.game.rnd
        view = rnd.view(self.place)
        t0 = time.process_time()
        card = self.strategy.choose_play(view, view.legal_plays)
        self.game.secs[0] += time.process_time() - t0
        self.game.moves[0] += 1
        return to_peer(card)

    @staticmethod
    def family_name() -> str:
        return "gongzhu"


class _Timed:
    """A peer robot, timed."""

    def __init__(self, game: _Game, robot: Any) -> None:
        self.__dict__["_robot"] = robot
        self.__dict__["_game"] = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["_robot"], name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.__dict__["_robot"], name, value)

    def pick_a_card(self) -> str:
        t0 = time.process_time()
        card: str = self._robot.pick_a_card()
        self._game.secs[1] += time.process_time() - t0
        self._game.moves[1] += 1
        return card


class _Game:
    def __init__(self) -> None:
        self.rnd: Round
        self.moves = [0, 0]
        self.secs = [0.0, 0.0]


def play_game(
    peer: types.SimpleNamespace,
    cards: Sequence[str],
    leader: int,
    ours: Sequence[Any],
    opponent: str,
    seed: str,
    rules: RuleSet = TEAM_RULES,
) -> tuple[list[int], _Game]:
    """One game on the peer's table: ``cards`` dealt 13 a seat from seat 0, ``leader`` first."""
    robot_class = {"MrGreed": peer.greed, "MrIf": peer.mrif, "MrRandom": peer.mrrandom}[opponent]
    game = _Game()
    hands = [list(cards[13 * s : 13 * s + 13]) for s in range(4)]
    game.rnd = Round.from_hands(
        [[to_gongzhu(c) for c in h] for h in hands],
        rules=rules,
        leader=leader,
        dealer=(leader - 1) % 4,
    )
    players: list[Any] = []
    for s in range(4):
        if s % 2 == 0:
            players.append(_Ours(game, s, ours[s // 2]))
        else:
            players.append(_Timed(game, robot_class(room=255, place=s, name=f"{opponent}{s}")))
    interface = peer.offline.OfflineInterface(players, print_flag=False)
    interface.reset(pstart=leader)
    interface.shuffle(cards=list(cards))
    random.seed(seed)
    import numpy

    numpy.random.seed(random.getrandbits(32))
    for _ in range(52):
        seat = interface.pnext
        if game.rnd.to_act != seat:
            raise HarnessError(f"peer says seat {seat} plays, gongzhu says {game.rnd.to_act}")
        theirs = {c for c in interface.cards_remain[seat] if interface.judge_legal(c)}
        mine = {to_peer(c) for c in game.rnd.view(seat).legal_plays}
        if theirs != mine:
            raise HarnessError(f"legal cards differ at seat {seat}: peer {theirs}, gongzhu {mine}")
        before = list(interface.cards_remain[seat])
        # The peer's step() waits on input() after an illegal card: _step checks it first.
        status = _step(interface, players, seat)
        if status != 0:
            raise HarnessError(f"the peer refused seat {seat}'s card")
        (played,) = set(before) - set(interface.cards_remain[seat])
        game.rnd = game.rnd.play(to_gongzhu(played), seat=seat)
    peer_scores = [int(x) for x in interface.clear()]
    ours_scores = list(game.rnd.score().totals)
    if peer_scores != ours_scores:
        raise HarnessError(f"scores differ: peer {peer_scores}, gongzhu {ours_scores}")
    return peer_scores, game


def _step(interface: Any, players: Sequence[Any], seat: int) -> int:
    robot = players[seat]
    original = robot.pick_a_card

    def checked() -> str:
        card = original()
        if card not in interface.cards_remain[seat] or not interface.judge_legal(card):
            raise HarnessError(f"seat {seat} ({robot.family_name()}) played illegal {card}")
        return card

    if isinstance(robot, _Ours):
        robot.pick_a_card = checked  # type: ignore[method-assign]
        try:
            return int(interface.step())
        finally:
            del robot.pick_a_card
    robot.__dict__["pick_a_card"] = checked
    try:
        return int(interface.step())
    finally:
        del robot.__dict__["pick_a_card"]


# -- a run ---------------------------------------------------------------------------


def _bot_seed(seed: str, deal_no: int, game: int, seat: int) -> int:
    return random.Random(f"mrgreed-bench:{seed}:{deal_no}:{game}:{seat}").getrandbits(48)


def play_deals(
    peer_path: str,
    scenario: str | None,
    ours: str,
    limit: str | None,
    opponent: str,
    seed: str,
    individual: bool,
    numbered: Sequence[tuple[int, Sequence[str]]],
) -> list[dict[str, Any]]:
    peer = load_peer(Path(peer_path), Path(scenario) if scenario else None)
    factory: Callable[[int], Any] = _factory(ours, Limit.parse(limit) if limit else None)
    out = []
    for number, cards in numbered:
        figures, moves, secs = [], [0, 0], [0.0, 0.0]
        played: list[dict[str, Any]] = []
        rotated = list(cards)
        for g in range(2):  # play_a_test(n2=2): the second game with the hands moved one seat on
            strategies = [factory(_bot_seed(seed, number, g, s)) for s in (0, 2)]
            scores, game = play_game(
                peer,
                rotated,
                g,
                strategies,
                opponent,
                f"mrgreed-bench:{seed}:{number}:{g}",
                INDIVIDUAL_RULES if individual else TEAM_RULES,
            )
            figures.append(scores[0] + scores[2] - scores[1] - scores[3])
            played.append(_game_record(game.rnd, g))
            rotated = rotated[39:52] + rotated[0:39]
            for k in (0, 1):
                moves[k] += game.moves[k]
                secs[k] += game.secs[k]
        out.append(
            {
                "deal": number,
                "games": figures,
                "figure": sum(figures) / 2,
                "moves": moves,
                "secs": secs,
                "played": played,
            }
        )
    return out


def _game_record(rnd: Round, leader: int) -> dict[str, Any]:
    """What ``benchmarks/margin.py`` replays: the hands as dealt, the first leader, the cards
    in the order played (gongzhu's codes)."""
    return {
        "leader": leader,
        "dealt": [" ".join(c.code for c in hand) for hand in rnd.dealt],
        "plays": " ".join(c.code for t in rnd.tricks for c in t.cards),
    }


def summary(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    xs = [r["figure"] for r in rows]
    n = len(xs)
    mean = sum(xs) / n if n else 0.0
    se = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n) if n > 1 else 0.0
    moves = [sum(r["moves"][k] for r in rows) for k in (0, 1)]
    secs = [sum(r["secs"][k] for r in rows) for k in (0, 1)]
    return {
        "deals": n,
        "mean": mean,
        "stderr": se,
        "wins": sum(1 for x in xs if x > 0),
        "draws": sum(1 for x in xs if x == 0),
        "losses": sum(1 for x in xs if x < 0),
        "ms_per_move": [1000 * secs[k] / moves[k] if moves[k] else 0.0 for k in (0, 1)],
    }


def _fixed_hash_seed() -> None:
    """Restart this script under ``PYTHONHASHSEED=0`` unless it already runs under it.

    The peer's bots iterate sets of card names; with a random hash seed the
    same deal, seed and bots can play differently from one run to the next.
    The worker processes inherit the setting.
    """
    if os.environ.get("PYTHONHASHSEED") == "0":
        return
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(
        sys.executable,
        [sys.executable, *sys.argv],
        {**os.environ, "PYTHONHASHSEED": "0"},
    )


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peer", required=True, help="a checkout of Gongzhu-Society/MrIfOffline")
    ap.add_argument("--scenario", help="a checkout of Gongzhu-Society/ScenarioGenerator")
    ap.add_argument("--ours", default="search", help="a gongzhu bot name, or module:factory")
    ap.add_argument("--limit", help="the search bot's limit, e.g. simulations=300")
    ap.add_argument("--opponent", default="MrGreed", choices=OPPONENTS)
    ap.add_argument("--hands", help="the peer's hand file (default StdHands/random_0_1024.hands)")
    ap.add_argument("--start", type=int, default=0, help="first deal of the file")
    ap.add_argument("--deals", type=int, default=64)
    ap.add_argument("--seed", default="0")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument(
        "--individual", action="store_true", help="no partnerships: our seats play for themselves"
    )
    ap.add_argument("--json", help="write the per-deal figures here")
    args = ap.parse_args(argv)
    try:
        peer = load_peer(Path(args.peer), Path(args.scenario) if args.scenario else None)
        hands_file = Path(args.hands or Path(args.peer) / "StdHands" / "random_0_1024.hands")
        hands = read_hands(peer, hands_file)
    except (HarnessError, OSError) as exc:
        print(f"mrgreed: {exc}", file=sys.stderr)
        return 2
    numbered = list(enumerate(hands))[args.start : args.start + args.deals]
    job = (
        args.peer,
        args.scenario,
        args.ours,
        args.limit,
        args.opponent,
        str(args.seed),
        args.individual,
    )
    rows: list[dict[str, Any]] = []
    chunks = [numbered[i : i + 4] for i in range(0, len(numbered), 4)]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            for part in pool.map(play_deals, *zip(*[(*job, c) for c in chunks], strict=False)):
                rows += part
                _progress(rows, len(numbered), args)
    else:
        for c in chunks:
            rows += play_deals(*job, c)
            _progress(rows, len(numbered), args)
    print(file=sys.stderr)
    s = summary(rows)
    print(
        f"{args.ours}{' ' + args.limit if args.limit else ''} vs {args.opponent}"
        f"{' (individual)' if args.individual else ''}, "
        f"{hands_file.name} deals {args.start}..{args.start + s['deals'] - 1}, seed {args.seed}: "
        f"{s['mean']:+.1f} ± {s['stderr']:.1f} a deal over {s['deals']} deals "
        f"({s['wins']}/{s['draws']}/{s['losses']}); CPU ms a move: "
        f"ours {s['ms_per_move'][0]:.1f}, {args.opponent} {s['ms_per_move'][1]:.1f}"
    )
    return 0


def _progress(rows: Sequence[dict[str, Any]], total: int, args: argparse.Namespace) -> None:
    """Report the deals so far; with ``--json``, rewrite the file (a stopped run keeps them)."""
    s = summary(rows)
    if args.json:
        meta = {k: v for k, v in vars(args).items() if k != "json"}
        Path(args.json).write_text(
            json.dumps({"args": meta, "summary": s, "deals": rows}, indent=1)
        )
    print(
        f"\r  {s['deals']}/{total} deals  {s['mean']:+.1f} ± {s['stderr']:.1f}",
        end="",
        file=sys.stderr,
    )
    sys.stderr.flush()


if __name__ == "__main__":
    _fixed_hash_seed()
    sys.exit(main())
