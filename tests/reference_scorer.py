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

from hypothesis import strategies as st

from gongzhu import Card, CardSet, Rank, RuleSet, Suit
from gongzhu.rules import (
    FACE_VALUE_HEARTS,
    STANDARD_HEARTS,
    ExposureKind,
    GrandSlam,
    GrandSlamOutcome,
    PigWithAllHearts,
)

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
        if pile >= ALL_HEARTS:
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
            # pig_value is negative; a turned pig counts its opposite.
            pig = -rules.pig_value * factor(PIG)
            line.pig = pig if pig_positive_for(seat) else -pig
            if swap_slam:
                line.pig = abs(line.pig)

        # 4. sheep
        if SHEEP in pile:
            if factor(SHEEP) == 1:
                sheep = rules.sheep_value
            else:
                # exposed_sheep_value is the ×2 value (None: twice the sheep); other
                # factors scale it
                doubled = rules.exposed_sheep_value
                if doubled is None:
                    doubled = 2 * rules.sheep_value
                sheep = doubled * factor(SHEEP) // 2
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
                line.lone_bonus = rules.transformer_bonus * factor(TEN_OF_CLUBS)
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


# -- Hypothesis strategies shared by the scoring tests (private to tests/) -----

POINT_CARDS = frozenset(ALL_HEARTS | {PIG, SHEEP, TEN_OF_CLUBS})
SLAM_SHAPES = (
    "none",
    "none",
    "all-hearts",
    "all-hearts",
    "near-all-hearts",
    "grand-15",
    "grand-16",
)
"""How a generated deal is biased: plain random, or one seat sweeping (nearly) all points."""


@st.composite
def partitions(
    draw: st.DrawFn, rules: RuleSet | None = None, shape: str | None = None
) -> list[CardSet]:
    """A random partition of the rule set's deck into one pile per seat.

    A ``shape`` other than "none" sends (nearly) every heart — and for the
    grand-slam shapes Q♠, J♦ (and 10♣) — to one seat, so small and grand
    slams occur in a good share of examples instead of almost never.
    """
    rules = rules or RuleSet()
    deck = list(rules.deck)
    n = rules.players
    owners = draw(st.lists(st.integers(0, n - 1), min_size=len(deck), max_size=len(deck)))
    owner = dict(zip(deck, owners, strict=True))
    shape = shape or draw(st.sampled_from(SLAM_SHAPES))
    if shape != "none":
        sweeper = draw(st.integers(0, n - 1))
        for card in ALL_HEARTS:
            owner[card] = sweeper
        if shape == "all-hearts":
            # each special card independently: the slam options hinge on which one the
            # all-hearts taker also holds
            for card in (PIG, SHEEP, TEN_OF_CLUBS):
                if draw(st.booleans()):
                    owner[card] = sweeper
        if shape == "near-all-hearts":
            missing = draw(st.sampled_from(sorted(ALL_HEARTS)))
            owner[missing] = draw(st.sampled_from([s for s in range(n) if s != sweeper]))
        if shape in ("grand-15", "grand-16"):
            owner[PIG] = owner[SHEEP] = sweeper
        if shape == "grand-16":
            owner[TEN_OF_CLUBS] = sweeper
    piles: list[set[Card]] = [set() for _ in range(n)]
    for card, seat in owner.items():
        piles[seat].add(card)
    return [CardSet(p) for p in piles]


@st.composite
def scoring_rules(draw: st.DrawFn) -> RuleSet:
    """A random valid rule set over every option that affects scoring."""
    players = draw(st.sampled_from([4, 4, 4, 5, 3]))
    all_hearts_value = draw(st.sampled_from([200, 200, 400, None, 300]))
    slam_options = all_hearts_value is not None
    exposable = draw(st.sets(st.sampled_from([ACE_OF_HEARTS, PIG, SHEEP, TEN_OF_CLUBS])))
    heart_values = draw(
        st.one_of(
            st.sampled_from([STANDARD_HEARTS, FACE_VALUE_HEARTS]),
            st.lists(st.sampled_from([0, 0, -5, -10, -20, 10]), min_size=13, max_size=13).map(
                tuple
            ),
        )
    )
    return RuleSet(
        players=players,
        partnerships=players == 4 and draw(st.booleans()),
        heart_values=heart_values,
        zero_hearts_are_point_cards=draw(st.booleans()),
        all_hearts_value=all_hearts_value,
        pig_with_all_hearts=draw(st.sampled_from(list(PigWithAllHearts))),
        sign_swap=slam_options and draw(st.booleans()),
        pig_sheep_together=slam_options and draw(st.booleans()),
        pig_sheep_zero_sum=slam_options and draw(st.booleans()),
        grand_slam=draw(st.sampled_from(["16", "15"])),
        grand_slam_outcome=draw(st.sampled_from(list(GrandSlamOutcome))),
        grand_slam_value=draw(st.sampled_from([1000, 500])),
        queen_of_diamonds_bonus=draw(st.sampled_from([0, 10])),
        exposable=CardSet(exposable),
        exposure_kind=(
            draw(st.sampled_from(list(ExposureKind))) if exposable else ExposureKind.OPEN
        ),
        blind_exposure=bool(exposable) and draw(st.booleans()),
        exposed_sheep_value=draw(st.sampled_from([None, 200, -200, -400])),
        pig_value=draw(st.sampled_from([-100, -100, -200, -30])),
        sheep_value=draw(st.sampled_from([100, 100, 200, 70])),
        transformer_bonus=draw(st.sampled_from([50, 50, 0, 100])),
    )


@st.composite
def exposures(draw: st.DrawFn, rules: RuleSet) -> dict[Card, int]:
    """Exposed cards → factor: 2 open; 2 or 4 under "Chyťte prase"; blind doubles again."""
    cards = draw(st.sets(st.sampled_from(sorted(rules.exposable)))) if rules.exposable else set()
    factors = [2, 4] if rules.exposure_kind is ExposureKind.FACE_DOWN_UP else [2]
    if rules.blind_exposure:
        factors = sorted({f * m for f in factors for m in (1, 2)})
    return {card: draw(st.sampled_from(factors)) for card in sorted(cards)}
