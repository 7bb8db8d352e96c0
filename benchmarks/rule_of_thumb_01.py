"""The 0.1.0 rule-of-thumb bot, a baseline for the arena (not part of the package).

:class:`~gongzhu.RuleOfThumbStrategy` is now the engine core's policy; this is
the bot it replaced (a probabilistic valuation over ``CardSet``s), kept here so
the older arena figures of the Bots page and the lab notes (``rule-of-thumb-0.1``)
can be reproduced. It reads the default pig value (−100) and ignores face-down
and blind exposure, as 0.1 did. Play it as ``module:factory``::

    PYTHONPATH=benchmarks gongzhu arena rule-of-thumb rule_of_thumb_01:bot --deals 1024 --rules mrif
"""

from __future__ import annotations

from typing import Final

from gongzhu.cards import PIG, SHEEP, TRANSFORMER, Card, CardSet, Rank, Suit
from gongzhu.round import PlayerView

__all__ = ["RuleOfThumb01Strategy", "bot"]

_ACE_OF_HEARTS: Final = Card(Suit.HEARTS, Rank.ACE)


class RuleOfThumb01Strategy:
    """The 0.1 rule-of-thumb bot: tactics of seeds/001 by a valuation of every legal card.

    For every legal card it estimates the chance of winning the trick (from
    the cards still unseen and the seats known to be void in the led suit) and
    what the trick would be worth to its own deal score — the transformer
    doubling whatever it already holds — and adds what getting rid of the
    card is worth. In effect (seeds/001 "Тактика в гунчжу", "Типичные ошибки"):

    * the pig is discarded at the first chance when void in the led suit, and
      dropped under a higher spade; K♠/A♠ are shed while the pig is out, and
      a following player plays under Q♠ when spades are led;
    * the last player takes the sheep with a high diamond when the trick
      holds no pig and no big hearts;
    * a trick with 10♣ is avoided when the bot already holds penalties, and
      once it holds 10♣ it avoids all points (they would count double);
    * high hearts are shed on other players' tricks; the sheep is not thrown
      away.

    Exposure is conservative: it exposes the sheep when it holds J♦ with at
    least four diamonds including two of A♦ K♦ Q♦ (and only when the exposed
    sheep is positive), and the pig when it holds Q♠ with at least five lower
    spades (it can then always play under the pig). It never exposes A♥ or
    10♣.

    >>> from gongzhu import Round
    >>> r = Round.from_hands(["2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ...     "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    ...     "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"])
    >>> bot = RuleOfThumb01Strategy()
    >>> str(bot.choose_exposure(r.view(0))), str(bot.choose_exposure(r.view(2)))
    ('Q♠', 'J♦')
    """

    def choose_exposure(self, view: PlayerView) -> CardSet:
        """The pig with five lower spades; the sheep with strong diamonds (see the class doc)."""
        held = (view.hand & view.rules.exposable) - view.exposed - view.own_face_down
        chosen = []
        hand = view.hand
        if PIG in held:
            low_spades = sum(1 for c in hand.of_suit(Suit.SPADES) if c.rank < Rank.QUEEN)
            if low_spades >= 5:
                chosen.append(PIG)
        if SHEEP in held and view.rules.effective_exposed_sheep_value > 0:
            diamonds = hand.of_suit(Suit.DIAMONDS)
            honours = sum(1 for c in diamonds if c.rank > Rank.JACK)
            if len(diamonds) >= 4 and honours >= 2:
                chosen.append(SHEEP)
        return CardSet(chosen)

    def choose_play(self, view: PlayerView, legal: CardSet) -> Card:
        """The legal card with the best estimated value (ties: the lowest card)."""
        cards = legal.cards
        if len(cards) == 1:
            return cards[0]
        ctx = _Context(view)
        best = cards[0]
        best_value = ctx.value(best)
        for card in cards[1:]:
            value = ctx.value(card)
            if value > best_value:
                best, best_value = card, value
        return best

    def __repr__(self) -> str:
        return "RuleOfThumb01Strategy()"


class _Context:
    """The facts about one decision that every candidate card's valuation shares."""

    def __init__(self, view: PlayerView) -> None:
        rules = view.rules
        self.view = view
        self.n = rules.players
        self.seat = view.seat
        trick = view.current_trick
        self.trick = trick.cards
        self.position = len(self.trick)
        self.later = [(self.seat + k) % self.n for k in range(1, self.n - self.position)]
        self.unseen = view.unseen()
        self.unseen_count = max(1, len(self.unseen))
        exposed = view.exposed
        face_up = rules.face_up_factor
        self.pig_factor = face_up if PIG in exposed else 1
        self.sheep_value = (
            rules.effective_exposed_sheep_value if SHEEP in exposed else rules.sheep_value
        )
        self.hearts_factor = face_up if _ACE_OF_HEARTS in exposed else 1
        self.transformer_factor = 2 * (face_up if TRANSFORMER in exposed else 1)
        self.heart_values = rules.heart_values
        played = view.played
        self.pig_out = PIG not in played and PIG not in view.hand
        self.pig_holder: int | None = None
        for s, cards in enumerate(view.exposures):
            if PIG in cards and self.pig_out:
                self.pig_holder = s
        self.hearts_out = bool(self.unseen.of_suit(Suit.HEARTS))
        self.voids = view.known_voids
        self.mine = view.captured_points[self.seat]
        self.holding_penalties = self._base(self.mine) < 0 or PIG in view.hand

    def _base(self, cards: CardSet) -> int:
        """The captured pile's base score, roughly (hearts, pig, sheep; no slams)."""
        total = 0
        hearts = 0
        for card in cards:
            if card.suit is Suit.HEARTS:
                hearts += self.heart_values[card.rank - 2]
            elif card is PIG:
                total -= 100 * self.pig_factor
            elif card is SHEEP:
                total += self.sheep_value
        return total + hearts * self.hearts_factor

    def _estimate(self, cards: CardSet) -> float:
        """Roughly the deal score of a pile: the base, doubled by the transformer."""
        base = self._base(cards)
        if TRANSFORMER in cards:
            if base == 0:
                return 25.0  # the lone bonus, discounted: later points would double
            return float(base * self.transformer_factor)
        return float(base)

    def _share(self, seat: int) -> float:
        """The chance that ``seat`` holds a given unseen card."""
        return self.view.hand_sizes[seat] / self.unseen_count

    def value(self, card: Card) -> float:
        trick = (*self.trick, card)
        led = trick[0].suit
        top = max((c for c in trick if c.suit is led), key=lambda c: c.rank)
        win_now = top is card
        dumps = 0.0
        if not win_now:
            p_win = 0.0
        elif not self.later:
            p_win = 1.0
        else:
            suit = self.unseen.of_suit(led)
            higher = sum(1 for c in suit if c.rank > card.rank)
            following = [s for s in self.later if led not in self.voids[s]]
            if higher and self._base(CardSet(trick)) < 0:
                # Nobody wants this trick: a follower only goes over when all
                # its cards of the suit are higher.
                ratio = higher / len(suit)
                p_win = 1.0
                for s in following:
                    p_win *= 1.0 - ratio ** max(1.0, len(suit) * self._share(s))
            else:
                frac = min(1.0, sum(self._share(s) for s in following))
                p_win = (1.0 - frac) ** higher
            # Fewer unseen cards of the suit than followers: some follower is void too.
            implied = max(0, len(following) - len(suit))
            for s in self.later:
                void = 1.0 if led in self.voids[s] else 0.0
                if not void and implied:
                    void = implied / len(following)
                if void:
                    if self.pig_out and (self.pig_holder is None or self.pig_holder == s):
                        share = 1.0 if self.pig_holder == s else self._share(s)
                        dumps -= 100 * self.pig_factor * share * void
                    if self.hearts_out:
                        dumps -= 15 * void
            if led is Suit.SPADES and card.rank > Rank.QUEEN and self.pig_out:
                # Whoever holds the pig drops it under a higher spade.
                if self.pig_holder is not None:
                    risk = 1.0 if self.pig_holder in following else 0.0
                else:
                    risk = min(1.0, sum(self._share(s) for s in following))
                dumps -= 100 * self.pig_factor * risk
        value = 0.0
        if p_win > 0.0:
            pile = self.mine | CardSet(trick)
            gain = self._estimate(pile) - self._estimate(self.mine)
            if PIG in pile and PIG not in self.mine:
                # Beyond its points, a taken pig makes every later 10♣ and
                # exposure costly: seeds/001 takes the sheep only without it.
                gain -= 20
            if TRANSFORMER in pile:
                dumps *= self.transformer_factor
            value += p_win * (gain + dumps)
        if p_win < 1.0:
            value += (1.0 - p_win) * self._shed(card, beaten=not win_now)
        # Between otherwise equal cards, play the higher: high cards win later tricks.
        return value + card.rank * 0.5

    def _shed(self, card: Card, *, beaten: bool) -> float:
        """What getting rid of ``card`` on someone else's trick is worth.

        ``beaten``: the card already lies under a higher one (or is discarded),
        so it surely goes to someone else.
        """
        if card is PIG:
            return 100.0 * self.pig_factor
        if card is SHEEP:
            return -40.0
        if card is TRANSFORMER:
            return 30.0 if self.holding_penalties else 10.0
        if card.suit is Suit.HEARTS:
            return -self.heart_values[card.rank - 2] * self.hearts_factor * 0.8 + 2
        if card.suit is Suit.SPADES and card.rank > Rank.QUEEN and self.pig_out:
            # Shedding K♠/A♠ by following spades invites the pig (seeds/001):
            # only a card already beaten is safely gone.
            return 40.0 if beaten else 0.0
        return 0.0


def bot(seed: int | None = None) -> RuleOfThumb01Strategy:
    """The arena's factory of a seed (the bot uses no randomness)."""
    return RuleOfThumb01Strategy()
