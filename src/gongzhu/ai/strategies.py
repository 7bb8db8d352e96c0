"""Baseline computer players, and helpers that play whole deals and matches with them.

A :class:`Strategy` decides from a :class:`~gongzhu.PlayerView` only — what one
seat may know — so a bot can never peek at another hand. Two are provided:

* :class:`RandomStrategy` plays a uniformly random legal card (a floor to
  measure against; seeded, it is reproducible);
* :class:`RuleOfThumbStrategy` follows the tactics of seeds/001 ("Тактика в
  гунчжу", "Типичные ошибки новичков"): dump the pig early, duck under Q♠
  while the pig is out, take the sheep when it is safe, keep away from the
  transformer when already holding penalties, shed high hearts.

:func:`play_deal` and :func:`play_match` drive a :class:`~gongzhu.Round` or a
:class:`~gongzhu.Match` to the end with one strategy per seat.

>>> rnd = play_deal([RuleOfThumbStrategy()] * 4, seed=7)
>>> rnd.is_complete, sum(len(c) for c in rnd.captured)
(True, 52)
>>> rnd == play_deal([RuleOfThumbStrategy()] * 4, seed=7)   # bots are deterministic
True
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Final, Protocol, runtime_checkable

from gongzhu._core.rollout import RandomPolicy, seed_state
from gongzhu.cards import PIG, SHEEP, TRANSFORMER, Card, CardSet, Rank, Suit
from gongzhu.dealing import deal
from gongzhu.errors import MatchError, SimulationError, _brief
from gongzhu.match import Match
from gongzhu.round import Phase, PlayerView, Round
from gongzhu.rules import ExposureKind, ExposureOrder, RuleSet

__all__ = [
    "RandomStrategy",
    "RuleOfThumbStrategy",
    "Strategy",
    "play_deal",
    "play_match",
]

_DEFAULT_RULES: Final = RuleSet()
_ACE_OF_HEARTS: Final = Card(Suit.HEARTS, Rank.ACE)


@runtime_checkable
class Strategy(Protocol):
    """A computer player: it decides from its own :class:`~gongzhu.PlayerView` only.

    ``choose_play`` returns one card of ``legal`` (never empty when called);
    ``choose_exposure`` returns the exposable cards of its hand it exposes
    (an empty set to expose nothing). Implementations may keep state (a random
    generator), but must not rely on anything but the views they are given.

    >>> isinstance(RandomStrategy(seed=1), Strategy)
    True
    """

    def choose_play(self, view: PlayerView, legal: CardSet) -> Card:
        """The card to play; one of ``legal``."""
        ...

    def choose_exposure(self, view: PlayerView) -> CardSet:
        """The cards to expose before the first trick (possibly none)."""
        ...


_NO_LEGAL: Final = object()


def _check_decision(view: object, legal: object = _NO_LEGAL) -> None:
    """Refuse what is not a decision the engine could ask for (a strategy called by hand)."""
    if not isinstance(view, PlayerView):
        raise SimulationError(f"a strategy decides from a PlayerView, got {type(view).__name__}")
    if legal is not _NO_LEGAL and (not isinstance(legal, CardSet) or not legal):
        raise SimulationError(
            f"choose_play needs a non-empty CardSet of legal cards, got {_brief(legal)}"
        )


def _exposable_held(view: PlayerView) -> CardSet:
    """The cards this seat could still expose: exposable, in hand, not yet declared."""
    return (view.hand & view.rules.exposable) - view.exposed - view.own_face_down


class RandomStrategy:
    """Plays a uniformly random legal card; exposes each exposable card with ``expose_probability``.

    With a ``seed`` the choices are reproducible (one :class:`random.Random`
    per strategy, consumed in call order).

    >>> from gongzhu import deal
    >>> r = deal(seed=3).pass_exposure()
    >>> view = r.view(r.to_act)
    >>> a, b = RandomStrategy(seed=5), RandomStrategy(seed=5)
    >>> a.choose_play(view, view.legal_plays) == b.choose_play(view, view.legal_plays)
    True
    """

    def __init__(self, seed: int | str | None = None, expose_probability: float = 0.0) -> None:
        _check_seed(seed)
        p = expose_probability
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
            raise SimulationError(f"expose_probability must be a number in [0, 1], got {_brief(p)}")
        self.seed = seed
        self.expose_probability = expose_probability
        self._rng = random.Random(seed)

    def choose_play(self, view: PlayerView, legal: CardSet) -> Card:
        """A uniformly random card of ``legal``."""
        _check_decision(view, legal)
        cards = legal.cards
        return cards[self._rng.randrange(len(cards))]

    def choose_exposure(self, view: PlayerView) -> CardSet:
        """Each exposable card held, independently with ``expose_probability``."""
        _check_decision(view)
        if self.expose_probability == 0.0:
            return CardSet()
        held = _exposable_held(view)
        return CardSet(c for c in held if self._rng.random() < self.expose_probability)

    def _core_policy(self) -> RandomPolicy:
        # Round.rollout's hook: the same uniform random play, drawn inside the engine core
        # from a generator seeded by this strategy's own (reproducible with its seed).
        return RandomPolicy(seed_state(self._rng.getrandbits(64)))

    def __repr__(self) -> str:
        return f"RandomStrategy(seed={self.seed!r}, expose_probability={self.expose_probability})"


class RuleOfThumbStrategy:
    """A deterministic bot playing by the tactics of seeds/001 (no search, no randomness).

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
    >>> bot = RuleOfThumbStrategy()
    >>> str(bot.choose_exposure(r.view(0))), str(bot.choose_exposure(r.view(2)))
    ('Q♠', 'J♦')
    """

    def choose_exposure(self, view: PlayerView) -> CardSet:
        """The pig with five lower spades; the sheep with strong diamonds (see the class doc)."""
        _check_decision(view)
        held = _exposable_held(view)
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
        _check_decision(view, legal)
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
        return "RuleOfThumbStrategy()"


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
        face_up = 4 if rules.exposure_kind is ExposureKind.FACE_DOWN_UP else 2
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
        self.voids = _voids(view)
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


def _voids(view: PlayerView) -> list[frozenset[Suit]]:
    """The suits each seat is known to lack: it did not follow them."""
    voids: list[set[Suit]] = [set() for _ in range(view.rules.players)]
    for trick in (*view.tricks, view.current_trick):
        if not trick.cards:
            continue
        led = trick.cards[0].suit
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            if card.suit is not led:
                voids[seat].add(led)
    return [frozenset(v) for v in voids]


_MAX_SEED_DIGITS: Final = 80
_MAX_SEED_TEXT: Final = 1000


def _check_seed(seed: object) -> None:
    """Refuse a seed that would not reproduce, or that breaks the derivation of deal seeds.

    Seeds are formatted into text (``f"gongzhu-match:{seed}:…"``), which raises
    ``ValueError`` past 4300 digits and ``UnicodeEncodeError`` on a lone
    surrogate; any other object would be seeded by its ``id`` (#11 item 6).
    """
    if seed is None:
        return
    if isinstance(seed, int) and not isinstance(seed, bool):
        if abs(seed) >= 10**_MAX_SEED_DIGITS:
            raise SimulationError(f"a seed may have at most {_MAX_SEED_DIGITS} digits")
        return
    if isinstance(seed, str):
        if len(seed) > _MAX_SEED_TEXT:
            raise SimulationError(f"a text seed may have at most {_MAX_SEED_TEXT} characters")
        try:
            seed.encode("utf-8")
        except UnicodeEncodeError:
            raise SimulationError("a text seed must be valid Unicode (a lone surrogate)") from None
        return
    raise SimulationError(f"a seed is an int, text or None, got {type(seed).__name__}")


def _rules_of(rules: object) -> RuleSet:
    """A :class:`RuleSet`, or the preset named (as the CLI takes ``--rules classic``)."""
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        return RuleSet.preset(rules)
    raise SimulationError(f"rules must be a RuleSet or a preset name, got {type(rules).__name__}")


def _check_strategies(strategies: object, rules: RuleSet) -> Sequence[Strategy]:
    if isinstance(strategies, (str, bytes)) or not isinstance(strategies, Sequence):
        raise SimulationError(
            f"strategies must be a sequence of strategies, one per seat;"
            f" got {type(strategies).__name__}"
        )
    # Counted as read, not by len(), which a sequence may get wrong; one more is enough.
    checked = tuple(itertools.islice(strategies, rules.players + 1))
    if len(checked) != rules.players:
        got = "more" if len(checked) > rules.players else len(checked)
        raise SimulationError(f"need {rules.players} strategies (one per seat), got {got}")
    for seat, strategy in enumerate(checked):
        if not (callable(getattr(strategy, "choose_play", None))
                and callable(getattr(strategy, "choose_exposure", None))):  # fmt: skip
            raise SimulationError(
                f"seat {seat}: {type(strategy).__name__} is not a Strategy"
                " (it needs choose_play and choose_exposure)"
            )
    return checked


def play_deal(
    strategies: Sequence[Strategy],
    rules: RuleSet | str = _DEFAULT_RULES,
    *,
    seed: int | str | None = None,
    leader: int | None = None,
    dealer: int = 0,
) -> Round:
    """Deal (with ``seed``) and play one deal to the end, one strategy per seat.

    ``rules`` is a :class:`~gongzhu.RuleSet` or a preset name. When the rules
    play exposure, every seat decides first (RULES.md §9.1; a strategy's empty
    choice declines): under ``exposure_order="simultaneous"`` every seat
    decides from the same initial view and then all decisions are applied in
    seat order; under ``"in-turn"`` the seats decide one after the other from
    the leader, each seeing the earlier exposures. Then each seat to act plays
    the card its strategy picks from its own view. Returns the complete
    :class:`~gongzhu.Round`. Bad arguments raise
    :class:`~gongzhu.SimulationError` (or the engine's error for a bad seed,
    leader or dealer); a strategy's illegal choice raises the engine's
    :class:`~gongzhu.IllegalActionError`.

    >>> r = play_deal([RandomStrategy(seed=s) for s in range(4)], seed=1)
    >>> len(r.tricks), r.score().totals == play_deal(
    ...     [RandomStrategy(seed=s) for s in range(4)], seed=1).score().totals
    (13, True)
    """
    rules = _rules_of(rules)
    checked = _check_strategies(strategies, rules)
    rnd = deal(rules, seed=seed, leader=leader, dealer=dealer)
    return _play_out(rnd, checked)


def _decide_exposures(rnd: Round, strategies: Sequence[Strategy]) -> Round:
    """Every seat that has not decided on exposure decides now (RULES.md §9.1).

    An empty choice is recorded too: it is the seat's decision to decline, and
    the first lead waits for every seat's. In-turn, the seats decide in play
    order from the leader, each from its own view of the earlier decisions;
    simultaneous, every seat decides from the view it has before anybody's
    choice is applied (sealed, §9.2), and the choices are applied in seat order.
    """
    if rnd.phase is not Phase.EXPOSURE:
        return rnd
    n = rnd.players
    decided = set(rnd.exposure_decided)
    if rnd.rules.exposure_order is ExposureOrder.IN_TURN:
        for seat in ((rnd.leader + k) % n for k in range(n)):
            if seat not in decided:
                rnd = rnd.expose(strategies[seat].choose_exposure(rnd.view(seat)), seat=seat)
        return rnd
    waiting = [seat for seat in range(n) if seat not in decided]
    chosen = [(seat, strategies[seat].choose_exposure(rnd.view(seat))) for seat in waiting]
    for seat, cards in chosen:
        rnd = rnd.expose(cards, seat=seat)
    return rnd


def _play_out(rnd: Round, strategies: Sequence[Strategy]) -> Round:
    rnd = _decide_exposures(rnd, strategies)
    while not rnd.is_complete:
        acting = rnd.to_act
        assert acting is not None  # bots never claim, so a running deal has a seat to act
        view = rnd.view(acting)
        rnd = rnd.play(strategies[acting].choose_play(view, view.legal_plays), acting)
    return rnd


def _deal_seed(seed: int | str, number: int) -> int:
    """The seed of deal ``number`` of a match seeded with ``seed`` (stable across runs)."""
    return random.Random(f"gongzhu-match:{seed}:{number}").getrandbits(48)


def play_match(
    strategies: Sequence[Strategy],
    rules: RuleSet | str = _DEFAULT_RULES,
    *,
    seed: int | str | None = None,
    max_deals: int | None = None,
) -> tuple[Match, tuple[Round, ...]]:
    """Play a match to its end among ``strategies``; return the match and its deals.

    Deal ``k``'s seed is derived from ``seed`` and ``k`` (so a seeded match
    with deterministic or seeded strategies replays exactly). Each deal is
    led by :attr:`Match.next_leader` (the opening-card holder when None) and
    dealt by :attr:`Match.dealer`. Play stops when the match is over, or after
    ``max_deals`` deals as a safety cap. A match whose rules can never end it
    (no threshold and no deal cap) needs ``max_deals``.

    >>> from gongzhu import RuleSet
    >>> match, deals = play_match([RuleOfThumbStrategy()] * 4, RuleSet.preset("online-quick"),
    ...                           seed=3)
    >>> match.is_over, len(deals) == match.deal_count
    (True, True)
    """
    rules = _rules_of(rules)
    checked = _check_strategies(strategies, rules)
    _check_seed(seed)
    if max_deals is not None and (
        isinstance(max_deals, bool) or not isinstance(max_deals, int) or max_deals < 0
    ):
        raise SimulationError(f"max_deals must be None or an int >= 0, got {_brief(max_deals)}")
    if max_deals is None and (
        rules.loss_threshold is None and rules.win_threshold is None and rules.max_deals is None
    ):
        raise MatchError("these rules never end a match: pass max_deals")
    match = Match(rules)
    rounds: list[Round] = []
    while not match.is_over and (max_deals is None or len(rounds) < max_deals):
        number = len(rounds) + 1
        deal_seed = None if seed is None else _deal_seed(seed, number)
        rnd = play_deal(
            checked, rules, seed=deal_seed, leader=match.next_leader, dealer=match.dealer
        )
        rounds.append(rnd)
        match = match.add(rnd)
    return match, tuple(rounds)


# The public path of these names is gongzhu.bots (0.2's module, now a stub): repr,
# pickles and the API reference keep showing it.
for _public in (Strategy, RandomStrategy, RuleOfThumbStrategy, play_deal, play_match):
    _public.__module__ = "gongzhu.bots"
