"""A Monte-Carlo bot of your own, measured in the arena (docs: "Write your own bot").

For each legal card the bot samples deals that agree with everything it sees
(gongzhu.ai.Worlds), plays the card in each, lets every seat finish the deal
by the rule of thumb (Board.rollout) and keeps the card with the best
weighted mean: its team's deal score against the other seats'.

Run it: python examples/my_bot.py [DEALS]   (6 deals a match by default)
"""

import random
import sys

from gongzhu import Card, CardSet, PlayerView, arena
from gongzhu.ai import Worlds
from gongzhu.ai.driver import team_of
from gongzhu.bots import RuleOfThumbStrategy


class MonteCarloBot:
    """Sample ``worlds`` deals a decision, roll each card out in every one."""

    def __init__(self, seed: int | None = None, worlds: int = 12) -> None:
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.exposer = RuleOfThumbStrategy()  # exposure is not this bot's business

    def choose_exposure(self, view: PlayerView) -> CardSet:
        return self.exposer.choose_exposure(view)

    def choose_play(self, view: PlayerView, legal: CardSet) -> Card:
        cards = legal.cards
        if len(cards) == 1:
            return cards[0]
        team = team_of(view.rules, view.seat)
        worlds = Worlds(view)  # every deal consistent with this view
        value = dict.fromkeys(cards, 0.0)
        for _ in range(self.worlds):
            world = worlds.sample(self.rng)
            weight = worlds.weight(world)  # how natural the others' plays look in it
            board = worlds.board(world)
            for card in cards:
                b = board.copy()
                b.push(card.index)
                totals = b.rollout(policy="rule-of-thumb")
                ours = sum(totals[s] for s in team) / len(team)
                theirs = (sum(totals) - ours * len(team)) / (len(totals) - len(team))
                value[card] += weight * (ours - theirs)
        return max(cards, key=lambda card: value[card])


if __name__ == "__main__":
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    for opponent in ("easy", "greedy"):
        # The class is the factory: a fresh bot, seeded from the game, at each seat.
        print(arena(MonteCarloBot, opponent, deals=deals), end="\n\n")
