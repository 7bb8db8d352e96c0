"""Fit the search's playout policy to a player's decisions; write its weights.

The search values a sampled deal by playing it out (:mod:`gongzhu._core.playout`);
this fits the policy that plays those playouts: a conditional-logit (softmax)
choice model over each legal card's features, fitted to a player's decisions
on the peer's rules as a team game (MrIf's rules, ``flat-pig`` with pairs).
The shipped weights are fitted to MrGreed's decisions in ``hard``'s games
against it on the tuning half (deals 0-511 of the peer's hand file), a
harness run committed with the tool::

    python tools/train_playout.py --games tools/data/hard-mrgreed-0-511.json.gz \
        --out src/gongzhu/_core/playout_weights.py

(``--games`` reads any ``benchmarks/mrgreed.py --json`` runs; the peer sits at
seats 1 and 3.) Without the peer's games, ``--deals 4000 --seed 0`` fits the
greedy bot (MrGreed's kind) playing itself on deals no benchmark uses: the
first shipped fit, which scores less against MrGreed (docs: "bots").

needs numpy (the ``rl`` extra) and takes seconds on the committed run and a few
CPU minutes of self-play, compiled; the same command writes the same weights.
Every decision with two or more legal cards is a sample, the last 5 % of the
deals are held out; the fit is full-batch Adam on the mean negative
log-likelihood with a small L2 penalty, from zero, for a fixed number of
steps. It prints how often the fitted policy and the rule of thumb pick the
player's card, on the deals fitted and on the held-out ones. Rebuild
(``pip install .``) for the compiled core to carry new weights.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from gongzhu import Round, RuleSet, deal
from gongzhu._core.board import of_state
from gongzhu._core.playout import NFEATURES, feature_rows
from gongzhu._core.policy import choose_board
from gongzhu.ai.greedy import GreedyStrategy
from gongzhu.cards import Card

RULES = RuleSet.preset("flat-pig").replace(partnerships=True)
# Deal seeds far from the ones the arena and the benchmarks use (0, 1, 2, ...).
SEED_BASE = 10**9
STEPS = 800
RATE = 0.05
L2 = 1e-4
HELD_OUT = 0.05  # the last 5 % of the deals are held out


@attrs.frozen
class Samples:
    """Decisions as ragged rows: each candidate's features, where each decision starts,
    the chosen candidate's row and the rule of thumb's."""

    x: np.ndarray
    starts: np.ndarray
    chosen: np.ndarray
    thumb: np.ndarray


class _Collector:
    """Decisions gathered as ragged rows (what :class:`Samples` holds, as lists)."""

    def __init__(self) -> None:
        self.rows: list[list[float]] = []
        self.starts: list[int] = []
        self.chosen: list[int] = []
        self.thumb: list[int] = []

    def add(self, rnd: Round, card: int) -> None:
        """The decision of the seat to act in ``rnd``, which played ``card``, if it had a
        choice."""
        board = of_state(rnd.engine_state)
        legal = board.legal()
        if not legal & (legal - 1):
            return
        cards = [c for c in range(52) if legal >> c & 1]  # card order, as feature_rows
        at = len(self.rows)
        self.starts.append(at)
        self.chosen.append(at + cards.index(card))
        self.thumb.append(at + cards.index(choose_board(board, legal)))
        self.rows.extend(feature_rows(board, legal))

    def samples(self) -> Samples:
        return Samples(
            np.array(self.rows, dtype=np.float64).reshape(-1, NFEATURES),
            np.array(self.starts, dtype=np.int64),
            np.array(self.chosen, dtype=np.int64),
            np.array(self.thumb, dtype=np.int64),
        )


def self_play(first: int, count: int, seed: int) -> Samples:
    """The greedy bot's decisions with a choice over ``count`` deals of self-play."""
    out = _Collector()
    for number in range(first, first + count):
        deal_seed = SEED_BASE + seed * 10**6 + number
        rnd = deal(rules=RULES, seed=deal_seed)
        bots = [GreedyStrategy(seed=deal_seed * 4 + s) for s in range(4)]
        while (seat := rnd.to_act) is not None:
            view = rnd.view(seat)
            legal = view.legal_plays
            card = bots[seat].choose_play(view, legal) if len(legal) > 1 else legal.cards[0]
            out.add(rnd, card.index)
            rnd = rnd.play(card, seat=seat)
    return out.samples()


def runs(paths: Sequence[Path]) -> list[dict[str, Any]]:
    """The deals of ``benchmarks/mrgreed.py --json`` runs, in order (``.gz`` files are
    read through gzip)."""
    entries: list[dict[str, Any]] = []
    for path in paths:
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
        entries.extend(json.loads(data)["deals"])
    return entries


def recorded(entries: Sequence[dict[str, Any]], seats: tuple[int, ...]) -> Samples:
    """The decisions of ``seats`` in the games of these deals of harness runs (each
    game's hands, first leader and cards in play order; the peer sits at 1 and 3)."""
    out = _Collector()
    for entry in entries:
        for game in entry["played"]:
            rnd = Round.from_hands(
                [hand.split() for hand in game["dealt"]],
                rules=RULES,
                leader=int(game["leader"]),
                dealer=(int(game["leader"]) - 1) % 4,
            )
            for code in str(game["plays"]).split():
                card = Card.parse(code)
                seat = rnd.to_act
                if seat in seats:
                    out.add(rnd, card.index)
                rnd = rnd.play(card, seat=seat)
    return out.samples()


def _probabilities(s: Samples, w: np.ndarray) -> np.ndarray:
    score = s.x @ w
    top = np.maximum.reduceat(score, s.starts)
    sizes = np.diff(np.append(s.starts, len(score)))
    e = np.exp(score - np.repeat(top, sizes))
    p: np.ndarray = e / np.repeat(np.add.reduceat(e, s.starts), sizes)
    return p


def fit(s: Samples) -> np.ndarray:
    """The weights maximising the choices' likelihood (full-batch Adam from zero)."""
    w = np.zeros(NFEATURES)
    m = np.zeros(NFEATURES)
    v = np.zeros(NFEATURES)
    taken = s.x[s.chosen].sum(axis=0)
    n = len(s.starts)
    for step in range(1, STEPS + 1):
        p = _probabilities(s, w)
        grad = (p @ s.x - taken) / n + L2 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= RATE * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w


def agreement(s: Samples, w: np.ndarray) -> tuple[float, float]:
    """How often the fitted policy, and the rule of thumb, pick the chosen card."""
    score = s.x @ w
    best = np.empty(len(s.starts), dtype=np.int64)
    bounds = np.append(s.starts, len(score))
    for k in range(len(s.starts)):
        a, b = bounds[k], bounds[k + 1]
        best[k] = a + int(np.argmax(score[a:b]))  # the first highest, as the policy plays
    return float(np.mean(best == s.chosen)), float(np.mean(s.thumb == s.chosen))


def render(weights: np.ndarray, command: str) -> str:
    """The weights module's source."""
    numbers = "".join(f"    {float(x)!r},\n" for x in np.round(weights, 6))
    # One option a line past the first (a long path would pass the line limit); the
    # backslash is escaped, the docstring's text is the shell's continuation.
    parts = command.split(" --")
    shown = " --".join(parts[:2]) + "".join(f" \\\\\n        --{x}" for x in parts[2:])
    return (
        '"""The playout policy\'s weights (:mod:`gongzhu._core.playout`). Private.\n\n'
        f"Written by this command (do not edit by hand)::\n\n    {shown}\n"
        '"""\n\n'
        "from __future__ import annotations\n\n"
        f"WEIGHTS: tuple[float, ...] = (\n{numbers})\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=4000, help="deals of greedy self-play")
    ap.add_argument("--seed", type=int, default=0, help="which deals (and the bots' seeds)")
    ap.add_argument(
        "--games",
        type=Path,
        nargs="+",
        help="fit the peer's decisions (seats 1 and 3) in these benchmarks/mrgreed.py --json "
        "runs instead of the greedy bot's self-play (the last 5 %% of their deals are held out)",
    )
    ap.add_argument("--out", type=Path, help="write the weights module here")
    args = ap.parse_args(argv)
    started = time.process_time()
    # Either source gives the decisions of deals [a, b): the same split for both.
    if args.games:
        entries = runs(args.games)
        total, who = len(entries), "the peer's"
        command = "python tools/train_playout.py --games " + " ".join(map(str, args.games))

        def part(a: int, b: int) -> Samples:
            return recorded(entries[a:b], (1, 3))
    else:
        total, who = args.deals, "the greedy bot's"
        command = f"python tools/train_playout.py --deals {args.deals} --seed {args.seed}"

        def part(a: int, b: int) -> Samples:
            return self_play(a, b - a, args.seed)

    if total < 20:
        ap.error(f"{total} deals: the fit needs at least 20")
    held = max(1, int(total * HELD_OUT))
    train, test = part(0, total - held), part(total - held, total)
    print(
        f"samples: {len(train.starts)} decisions to fit, {len(test.starts)} held out "
        f"({time.process_time() - started:.0f} s CPU)",
        file=sys.stderr,
    )
    w = fit(train)
    for name, s in (("fitted", train), ("held out", test)):
        mine, thumb = agreement(s, w)
        print(f"{name}: the policy picks {who} card {mine:.1%}, the rule of thumb {thumb:.1%}")
    if args.out:
        command += f" --out {args.out}"
        args.out.write_text(render(w, command), encoding="utf-8")
        print(f"wrote {args.out} ({time.process_time() - started:.0f} s CPU in all)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
