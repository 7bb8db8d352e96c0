"""Train the learned evaluation: ``python -m gongzhu.ai.train`` (needs numpy: the ``rl`` extra).

Regenerates the weights :func:`gongzhu.ai.evaluation.load_evaluation` reads,
from a seed, in three steps:

1. **data**: ``--deals`` deals (``gongzhu.deal(rules, seed="gongzhu-train:SEED:k")``)
   played out by the rule-of-thumb policy at every seat, a card chosen at random
   instead with probability ``--epsilon`` (for positions the policy would not
   reach). At every trick boundary each seat's inputs
   (:func:`gongzhu._core.evaluation.features`) are recorded with the target: how
   much that seat's deal score changed from there to the end (the final score
   minus what its captures were worth at that point): regression on self-play outcomes.
2. **training**: the network (``--hidden`` rectified units) by Adam on the mean
   squared error, ``--epochs`` passes in mini-batches, 5 % of the deals held out.
3. **evaluation**: the held-out root-mean-square error, beside that of predicting
   the mean change (printed and stored in the weights file's ``meta``).

``--work DIR`` keeps the data (``data.npz``) and a checkpoint after every epoch
(``checkpoint.npz``); a run with the same arguments resumes from them. Progress is
printed to standard error, a line an epoch (no progress-bar dependency).

    python -m gongzhu.ai.train --out src/gongzhu/ai/eval-weights.json

The defaults are the shipped weights' settings (see the Bots page for the cost).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gongzhu._core.evaluation import INPUTS, SCALE, Net, features
from gongzhu._core.policy import choose_board
from gongzhu.ai._determinize import Worlds
from gongzhu.ai.evaluation import net_to_json
from gongzhu.dealing import deal
from gongzhu.errors import GongzhuError
from gongzhu.round import Round
from gongzhu.rules import RuleSet

if TYPE_CHECKING:
    import numpy as np

__all__ = ["TrainError", "generate", "main", "train"]

ACTIVE = 53  # inputs on in every position: 52 card places and the seat to act


class TrainError(GongzhuError, ValueError):
    """Bad training arguments (or numpy missing)."""


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise TrainError("training needs numpy: pip install 'gongzhu[rl]'") from None
    return numpy


def generate(
    rules: RuleSet, deals: int, seed: int, epsilon: float
) -> tuple[list[list[int]], list[float], list[int]]:
    """Self-play positions: (active inputs, target = (final score − score now) / SCALE,
    deal number) each."""
    xs: list[list[int]] = []
    ys: list[float] = []
    ds: list[int] = []
    for d in range(deals):
        rnd = Round.from_hands(
            deal(rules=rules, seed=f"gongzhu-train:{seed}:{d}").dealt, rules=rules
        )
        view = rnd.view(0)  # every hand is known here: the deal itself is the "sampled" one
        b = Worlds(view).start([sum(c.mask for c in h) for h in rnd.dealt], 0)
        rng = random.Random(f"gongzhu-train:{seed}:{d}:play")
        n = b.cfg.n
        snaps: list[tuple[list[list[int]], tuple[int, ...]]] = []
        while not b.done:
            if not b.trick:
                snaps.append(([features(b, s) for s in range(n)], b.totals()))
            legal = b.legal()
            if rng.random() < epsilon:
                cards = [c for c in range(52) if legal >> c & 1]
                card = cards[rng.randrange(len(cards))]
            else:
                card = choose_board(b, legal)
            b.play(card)
        totals = b.totals()
        for snap, now in snaps:
            for s in range(n):
                xs.append(snap[s])
                ys.append((totals[s] - now[s]) / SCALE)
                ds.append(d)
    return xs, ys, ds


def _dense(np: Any, idx: Any) -> Any:
    x = np.zeros((idx.shape[0], INPUTS), dtype=np.float32)
    np.put_along_axis(x, idx, 1.0, axis=1)
    return x


def forward(np: Any, params: dict[str, Any], idx: Any) -> Any:
    """The numpy reference of :func:`gongzhu._core.evaluation.value` (rows of active inputs)."""
    x = _dense(np, idx).astype(np.float64)
    h = np.maximum(x @ params["w1"] + params["b1"], 0.0)
    return h @ params["w2"] + params["b2"]


def _init(np: Any, hidden: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    return {
        "w1": rng.normal(0.0, 1.0 / np.sqrt(ACTIVE), (INPUTS, hidden)),
        "b1": np.zeros(hidden),
        "w2": rng.normal(0.0, 1.0 / np.sqrt(hidden), hidden),
        "b2": np.zeros(1),
    }


def train(
    idx: np.ndarray[Any, Any],
    y: np.ndarray[Any, Any],
    *,
    hidden: int,
    epochs: int,
    seed: int,
    lr: float = 3e-3,
    batch: int = 512,
    checkpoint: Path | None = None,
    log: Any = None,
) -> dict[str, Any]:
    """Adam on the mean squared error; resumes from ``checkpoint`` when it holds earlier epochs."""
    np = _numpy()
    params = _init(np, hidden, seed)
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    step = start = 0
    if checkpoint is not None and checkpoint.exists():
        z = np.load(checkpoint)
        if int(z["hidden"]) == hidden and int(z["epoch"]) <= epochs:
            start, step = int(z["epoch"]), int(z["step"])
            for k in params:
                params[k] = z[k]
                moments[k] = (z["m_" + k], z["v_" + k])
    b1_, b2_, eps = 0.9, 0.999, 1e-8
    for epoch in range(start, epochs):
        order = np.random.default_rng([seed, epoch]).permutation(len(y))
        total = 0.0
        for i in range(0, len(y), batch):
            sel = order[i : i + batch]
            x = _dense(np, idx[sel]).astype(np.float64)
            pre = x @ params["w1"] + params["b1"]
            h = np.maximum(pre, 0.0)
            out = h @ params["w2"] + params["b2"]
            err = out - y[sel]
            total += float(err @ err)
            g_out = 2.0 * err / len(sel)
            g_h = np.outer(g_out, params["w2"]) * (pre > 0)
            grads = {
                "w1": x.T @ g_h,
                "b1": g_h.sum(0),
                "w2": h.T @ g_out,
                "b2": g_out.sum(keepdims=True),
            }
            step += 1
            for k, g in grads.items():
                m, v = moments[k]
                m *= b1_
                m += (1 - b1_) * g
                v *= b2_
                v += (1 - b2_) * g * g
                params[k] -= lr * (m / (1 - b1_**step)) / (np.sqrt(v / (1 - b2_**step)) + eps)
        if log:
            rmse = SCALE * (total / len(y)) ** 0.5
            log(f"epoch {epoch + 1}/{epochs}: training RMSE {rmse:.1f} points")
        if checkpoint is not None:
            extra = {f"{p}_{k}": moments[k][j] for k in params for j, p in enumerate("mv")}
            np.savez(checkpoint, epoch=epoch + 1, step=step, hidden=hidden, **params, **extra)
    return params


def to_net(params: dict[str, Any]) -> Net:
    """The core's network from numpy parameters."""
    hidden = int(params["b1"].shape[0])
    return Net(
        hidden,
        [float(v) for v in params["w1"].reshape(-1)],
        [float(v) for v in params["b1"]],
        [float(v) for v in params["w2"]],
        float(params["b2"][0]),
    )


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m gongzhu.ai.train", description=__doc__.split("\n\n")[0]
    )
    ap.add_argument(
        "--rules", default="flat-pig", help="a rule-set preset (default flat-pig: MrIf's rules)"
    )
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--epsilon", type=float, default=0.1)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--work", help="a directory for the data and the checkpoint (resumable)")
    ap.add_argument("--out", required=True, help="the weights file to write")
    args = ap.parse_args(argv)
    np = _numpy()
    if args.deals < 2 or args.hidden < 1 or args.epochs < 0 or not 0 <= args.epsilon <= 1:
        raise TrainError("need --deals >= 2, --hidden >= 1, --epochs >= 0, 0 <= --epsilon <= 1")
    rules = RuleSet.preset(args.rules)

    def log(msg: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)

    work = Path(args.work) if args.work else None
    key = f"{args.rules}:{args.deals}:{args.seed}:{args.epsilon}"
    data = work / "data.npz" if work else None
    if data is not None and data.exists() and str(np.load(data)["key"]) == key:
        z = np.load(data)
        idx, y, ds = z["idx"], z["y"], z["ds"]
        log(f"data: {len(y)} positions from {data}")
    else:
        t0 = time.process_time()
        xs, ys, dl = generate(rules, args.deals, args.seed, args.epsilon)
        idx = np.array(xs, dtype=np.int64)
        y, ds = np.array(ys), np.array(dl)
        log(f"data: {len(y)} positions of {args.deals} deals, {time.process_time() - t0:.0f} s CPU")
        if work is not None and data is not None:
            work.mkdir(parents=True, exist_ok=True)
            np.savez(data, key=key, idx=idx, y=y, ds=ds)
    held = ds >= args.deals - max(1, args.deals // 20)
    ckpt = work / f"checkpoint-{args.hidden}-{args.seed}.npz" if work else None
    t0 = time.process_time()
    params = train(idx[~held], y[~held], hidden=args.hidden, epochs=args.epochs, seed=args.seed,
                   checkpoint=ckpt, log=log)  # fmt: skip
    log(f"training: {time.process_time() - t0:.0f} s CPU")
    pred = forward(np, params, idx[held])
    rmse = SCALE * float(np.sqrt(np.mean((pred - y[held]) ** 2)))
    base = SCALE * float(np.sqrt(np.mean((y[held] - y[~held].mean()) ** 2)))
    log(f"held-out RMSE {rmse:.1f} points (the mean: {base:.1f}), {int(held.sum())} positions")
    meta = {k: getattr(args, k) for k in ("rules", "deals", "epsilon", "hidden", "epochs", "seed")}
    meta.update(held_out_rmse=round(rmse, 2), mean_rmse=round(base, 2))
    Path(args.out).write_text(
        json.dumps(net_to_json(to_net(params), meta), separators=(",", ":")) + "\n"
    )
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except GongzhuError as exc:
        print(f"gongzhu.ai.train: {exc}", file=sys.stderr)
        sys.exit(2)
