"""An independent, deliberately plain reference scorer (RULES.md §3 and §7).

Written straight from the text of RULES.md (and the RuleSet field docs where
RULES.md leaves a reading to the library), without looking at
``gongzhu.scoring``: sets of :class:`Card`, plain dicts, no bitmasks. The
property test in ``test_reference_scorer.py`` checks that ``gongzhu.score``
agrees with it line by line; a disagreement is a bug in one of the two.

Every rule is applied per player, in the order of seeds/000 §08: hearts (with
the small slam), the A♥ exposure, pig, sheep, base, then the transformer
(multiplier or lone bonus), then the grand-slam outcome and the Q♦ bonus.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from gongzhu import Card, Rank, RuleSet, Suit
from gongzhu.rules import GrandSlam, GrandSlamOutcome, PigWithAllHearts

PIG = Card(Suit.SPADES, Rank.QUEEN)
SHEEP = Card(Suit.DIAMONDS, Rank.JACK)
TEN_OF_CLUBS = Card(Suit.CLUBS, Rank.TEN)
ACE_OF_HEARTS = Card(Suit.HEARTS, Rank.ACE)
QUEEN_OF_DIAMONDS = Card(Suit.DIAMONDS, Rank.QUEEN)
ALL_HEARTS = frozenset(Card(Suit.HEARTS, rank) for rank in Rank)


@dataclass
class RefLine:
    """One player's sheet as the reference computes it."""

    hearts: int = 0
    pig: int = 0
    sheep: int = 0
    base: int = 0
    multiplier: int = 1
    """2 × the 10♣ exposure factor if the player took 10♣ with other point cards, else 1."""
    lone_bonus: int = 0
    """The lone-transformer bonus (0 unless the player took 10♣ and no other point card)."""
    queen_bonus: int = 0
    total: int = 0
    took_all_hearts: bool = False
    grand_slam: bool = False
    lone_transformer: bool = False
    notes: list[str] = field(default_factory=list)


@dataclass
class RefScore:
    """The whole deal."""

    lines: list[RefLine]
    all_hearts_seat: int | None
    grand_slam_seat: int | None
    pig_taker: int | None

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(line.total for line in self.lines)


def heart_value(card: Card, rules: RuleSet) -> int:
    """The value of one heart under the rule set's table (2♥ first)."""
    return rules.heart_values[int(card.rank) - 2]


def is_point_card_for_lone_ten(card: Card, rules: RuleSet) -> bool:
    """RULES.md §3 step 6: hearts (zero ones too, unless the 001 option), Q♠, J♦."""
    if card.suit is Suit.HEARTS:
        if rules.zero_hearts_are_point_cards:
            return True
        return heart_value(card, rules) != 0
    return card in (PIG, SHEEP)


def reference_score(
    captures: Sequence[Iterable[Card]],
    exposed: Mapping[Card, int],
    rules: RuleSet,
    queen_bonus_tricks: Sequence[int] | None = None,
) -> RefScore:
    """Score one deal.

    ``exposed`` maps each exposed card to its exposure factor (2 for an open
    exposure; 4 face-up in "Chyťte prase" or blind; 8 face-up and blind).
    ``queen_bonus_tricks`` gives, per seat, the tricks won after the trick in
    which that seat took Q♦ (only the Q♦ taker's count matters).
    """
    piles = [set(pile) for pile in captures]

    def factor(card: Card) -> int:
        return exposed.get(card, 1)

    def taker(card: Card) -> int | None:
        for seat, pile in enumerate(piles):
            if card in pile:
                return seat
        return None

    all_hearts_seat = None
    for seat, pile in enumerate(piles):
        if ALL_HEARTS <= pile:
            all_hearts_seat = seat

    slam_cards = set(ALL_HEARTS) | {PIG, SHEEP}
    if rules.grand_slam is GrandSlam.SIXTEEN:
        slam_cards.add(TEN_OF_CLUBS)
    grand_slam_seat = None
    for seat, pile in enumerate(piles):
        if slam_cards <= pile:
            grand_slam_seat = seat

    # Does the small slam take effect at all? Not when the option is off
    # (all_hearts_value None), and under 猪羊满圈 (004) only with J♦ as well.
    slam_effect = all_hearts_seat is not None and rules.all_hearts_value is not None
    if slam_effect and rules.pig_sheep_together:
        slam_effect = SHEEP in piles[all_hearts_seat]  # type: ignore[index]

    pig_taker = taker(PIG)

    # The pig's value for the all-hearts taker (RULES.md §3 step 3 and §7).
    def pig_positive_for(seat: int) -> bool:
        if not slam_effect:
            return False
        if rules.sign_swap:
            return True  # the swap turns the pig positive for whoever took it
        if seat != all_hearts_seat:
            return False
        if rules.pig_with_all_hearts is PigWithAllHearts.POSITIVE:
            return True
        if rules.pig_with_all_hearts is PigWithAllHearts.GRAND_SLAM_ONLY:
            return grand_slam_seat == seat
        return False

    # 004 bundle: the all-hearts taker's pig is +100, so the sheep turns −100.
    zero_sum_active = (
        rules.pig_sheep_zero_sum
        and slam_effect
        and pig_taker is not None
        and pig_taker == all_hearts_seat
        and pig_positive_for(pig_taker)
    )

    lines: list[RefLine] = []
    for seat, pile in enumerate(piles):
        line = RefLine()
        swap_slam = rules.sign_swap and grand_slam_seat == seat

        # 1–2. hearts
        if slam_effect and seat == all_hearts_seat:
            line.took_all_hearts = True
            hearts = rules.all_hearts_value
            assert hearts is not None
        else:
            line.took_all_hearts = seat == all_hearts_seat
            hearts = sum(heart_value(c, rules) for c in pile if c.suit is Suit.HEARTS)
        hearts *= factor(ACE_OF_HEARTS)
        if swap_slam:
            hearts = abs(hearts)
        line.hearts = hearts

        # 3. pig
        if PIG in pile:
            pig = 100 * factor(PIG)
            line.pig = pig if pig_positive_for(seat) else -pig
            if swap_slam:
                line.pig = abs(line.pig)

        # 4. sheep
        if SHEEP in pile:
            if factor(SHEEP) == 1:
                sheep = 100
            else:
                # exposed_sheep_value is the ×2 value; other factors scale it
                sheep = rules.exposed_sheep_value * factor(SHEEP) // 2
            negative = (rules.sign_swap and slam_effect) or zero_sum_active
            # "the sheep counts −100" (RULES.md §7): a sign, not a flip, so an
            # already negative exposed sheep (004) stays negative.
            line.sheep = -abs(sheep) if negative else sheep
            if swap_slam:
                line.sheep = abs(line.sheep)

        # 5. base
        line.base = line.hearts + line.pig + line.sheep

        # 6. transformer
        total = line.base
        if TEN_OF_CLUBS in pile:
            others = [c for c in pile if is_point_card_for_lone_ten(c, rules)]
            if not others:
                line.lone_transformer = True
                line.lone_bonus = 50 * factor(TEN_OF_CLUBS)
                total = line.lone_bonus
            else:
                line.multiplier = 2 * factor(TEN_OF_CLUBS)
                total = line.base * line.multiplier

        # grand slam outcome
        line.grand_slam = grand_slam_seat == seat
        if line.grand_slam and rules.grand_slam_outcome is GrandSlamOutcome.FIXED:
            total = rules.grand_slam_value

        # Q♦ bonus, after the transformer (rules.py's reading of 002 v7)
        if rules.queen_of_diamonds_bonus and queen_bonus_tricks and QUEEN_OF_DIAMONDS in pile:
            line.queen_bonus = rules.queen_of_diamonds_bonus * queen_bonus_tricks[seat]
            total += line.queen_bonus

        line.total = total
        lines.append(line)

    return RefScore(
        lines=lines,
        all_hearts_seat=all_hearts_seat,
        grand_slam_seat=grand_slam_seat,
        pig_taker=pig_taker,
    )
