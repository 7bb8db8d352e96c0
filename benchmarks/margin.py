"""Where a team's margin comes from, from the games of a ``benchmarks/mrgreed.py`` run.

Reads the ``--json`` file of a run (each game's hands and cards in play order),
replays every game with gongzhu's rules (the peer's team game) and prints, per
game, our team's score less the other team's split by what made it: the pig,
the sheep, hearts outside a slam, slams (all the hearts), the transformer
(what 10♣ added to its taker's score) — each with its standard error over games
— and who took the pig, the sheep and 10♣ from whose hand. With ``--agreement``
it also replays every decision with two or more legal cards and counts how
often the rule-of-thumb bot (the search's rollout policy) would have played the
card each side played, and with ``--greedy`` the greedy bot too (slower).

    python benchmarks/margin.py run.json --agreement --greedy

Our team sits at seats 0 and 2, the peer's at 1 and 3 (as in the harness).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from gongzhu.ai.greedy import GreedyStrategy
from gongzhu.ai.strategies import RuleOfThumbStrategy
from gongzhu.cards import Card, CardSet
from gongzhu.round import Round
from gongzhu.rules import RuleSet
from gongzhu.scoring import score

TEAM_RULES = attrs.evolve(RuleSet.preset("flat-pig"), partnerships=True)
SOLO = RuleSet.preset("flat-pig")  # one pile's score, without the team's sum
PARTS = ("pig", "sheep", "hearts", "slam", "transformer")
PIG, SHEEP, TEN = Card.parse("QS"), Card.parse("JD"), Card.parse("TC")


def replay(game: dict[str, Any]) -> Round:
    """The finished game: the hands as dealt, then every card in the order played."""
    leader = int(game["leader"])
    rnd = Round.from_hands(
        list(game["dealt"]), rules=TEAM_RULES, leader=leader, dealer=(leader - 1) % 4
    )
    for code in str(game["plays"]).split():
        rnd = rnd.play(Card.parse(code), seat=rnd.to_act)
    return rnd


def _pile_score(cards: Sequence[Card]) -> int:
    return score(CardSet(cards), rules=SOLO).totals[0] if cards else 0


def parts(rnd: Round) -> dict[str, int]:
    """Our team's score less the other team's, split by what made it."""
    out = dict.fromkeys(PARTS, 0)
    for seat, pile in enumerate(rnd.captured):
        sign = 1 if seat % 2 == 0 else -1
        cards = list(pile)
        base = [c for c in cards if c != TEN]
        hearts = [c for c in cards if c.suit.name == "HEARTS"]
        out["transformer"] += sign * (_pile_score(cards) - _pile_score(base))
        out["pig"] += sign * _pile_score([c for c in cards if c == PIG])
        out["sheep"] += sign * _pile_score([c for c in cards if c == SHEEP])
        out["slam" if len(hearts) == 13 else "hearts"] += sign * _pile_score(hearts)
    return out


def _who(rnd: Round, card: Card) -> tuple[str, str]:
    holder = next(s for s, hand in enumerate(rnd.dealt) if card in hand)
    taker = next(s for s, pile in enumerate(rnd.captured) if card in pile)
    side = "ours" if holder % 2 == 0 else "theirs"
    if taker == holder:
        return side, "kept"
    return side, "partner" if taker % 2 == holder % 2 else "opponent"


def agreement(rnd: Round, bots: dict[str, Any], counts: Counter[tuple[str, str]]) -> None:
    """Count, per side, the decisions with a choice and how often each bot agreed."""
    state = Round.from_hands(
        rnd.dealt, rules=TEAM_RULES, leader=rnd.tricks[0].leader, dealer=rnd.dealer
    )
    for trick in rnd.tricks:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            view = state.view(seat)
            legal = view.legal_plays
            if len(legal) > 1:
                side = "ours" if seat % 2 == 0 else "theirs"
                counts[side, "decisions"] += 1
                for name, bot in bots.items():
                    counts[side, name] += bot.choose_play(view, legal) == card
            state = state.play(card, seat=seat)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", help="--json files of benchmarks/mrgreed.py")
    ap.add_argument("--agreement", action="store_true", help="replay the decisions too")
    ap.add_argument("--greedy", action="store_true", help="with --agreement: the greedy bot too")
    args = ap.parse_args(argv)
    games = [
        game
        for path in args.runs
        for row in json.loads(Path(path).read_text("utf-8"))["deals"]
        for game in row.get("played", ())
    ]
    if not games:
        print("margin: no games (runs before the harness kept them have no 'played')")
        return 2
    values: dict[str, list[int]] = {p: [] for p in (*PARTS, "total")}
    taken: Counter[tuple[str, str, str]] = Counter()
    counts: Counter[tuple[str, str]] = Counter()
    bots: dict[str, Any] = {"rule of thumb": RuleOfThumbStrategy()}
    if args.greedy:
        bots["greedy"] = GreedyStrategy(seed=1)
    for game in games:
        rnd = replay(game)
        split = parts(rnd)
        for p in PARTS:
            values[p].append(split[p])
        values["total"].append(sum(split.values()))
        for name, card in (("pig", PIG), ("sheep", SHEEP), ("10♣", TEN)):
            taken[(name, *_who(rnd, card))] += 1
        if args.agreement:
            agreement(rnd, bots, counts)
    n = len(games)
    print(f"{n} games; ours − theirs a game, ± its standard error:")
    for p, xs in values.items():
        mean = sum(xs) / n
        se = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n) if n > 1 else 0.0
        print(f"  {p:12s} {mean:+7.1f} ± {se:4.1f}")
    for name in ("pig", "sheep", "10♣"):
        for side in ("ours", "theirs"):
            row = {k: taken[name, side, k] for k in ("kept", "partner", "opponent")}
            held = sum(row.values())
            shares = ", ".join(f"{k} {v / held:.1%}" for k, v in row.items()) if held else "-"
            print(f"  {name} held by {side} ({held} games): {shares}")
    if args.agreement:
        for side in ("ours", "theirs"):
            d = counts[side, "decisions"]
            for name in bots:
                print(f"  {side}: the {name} bot agrees on {counts[side, name] / d:.1%} of {d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
