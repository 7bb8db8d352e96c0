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
>>> rnd.is_over, sum(len(c) for c in rnd.captured)
(True, 52)
>>> rnd == play_deal([RuleOfThumbStrategy()] * 4, seed=7)   # bots are deterministic
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from gongzhu._base.seeds import check_seed
from gongzhu._base.text import brief as _brief
from gongzhu._core import policy as _policy
from gongzhu._core.policy import RandomPolicy
from gongzhu._core.rng import seed_state
from gongzhu.ai.driver import Strategy, check_strategies, play_out
from gongzhu.cards import Card, CardSet
from gongzhu.cards import unchecked_cardset as _from_mask
from gongzhu.dealing import deal, match_deal_seed
from gongzhu.errors import MatchError, SimulationError
from gongzhu.match import Match
from gongzhu.round import PlayerView, Round
from gongzhu.rules import RuleSet

__all__ = [
    "RandomStrategy",
    "RuleOfThumbStrategy",
    "Strategy",
    "play_deal",
    "play_match",
    "rules_of",
]

_DEFAULT_RULES: Final = RuleSet()


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

    It is the engine core's rule-of-thumb policy (:mod:`gongzhu._core.policy`),
    asked with what the view shows, so the same bot plays inside
    :meth:`Round.rollout <gongzhu.Round.rollout>` (compiled, on the core's
    board) and as the search bot's opponent model. Its tactics
    (seeds/001 "Тактика в гунчжу", "Типичные ошибки новичков"):

    * following, it ducks under the card winning the trick (keeping the sheep),
      and drops the pig under a higher spade; it keeps A♠/K♠ back while the
      pig is out;
    * playing last, it takes a trick that is worth taking (the sheep first),
      counting what a captured 10♣ would double;
    * void in the led suit, it discards the pig, then high hearts, then A♠/K♠
      while the pig is out (with pairs it gives the partner's trick the sheep
      and never points);
    * it leads low, avoids leading into the pig, and leads the sheep only as
      the highest diamond still out.

    Every value comes from the rule set (heart values, ``pig_value``, the
    sheep's values, exposure factors as the seat knows them).

    Exposure is conservative: the sheep when it holds J♦ with at least four
    diamonds including two of A♦ K♦ Q♦ (and only when the exposed sheep is
    positive), the pig with at least five lower spades. Never A♥ or 10♣.
    (The 0.1 bot it replaced is ``benchmarks/rule_of_thumb_01.py``, an arena baseline.)

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
        return _from_mask(_policy.choose_exposure(view.rules.engine, view.hand.mask) & held.mask)

    def choose_play(self, view: PlayerView, legal: CardSet) -> Card:
        """The core policy's card among ``legal``, from what ``view`` shows."""
        _check_decision(view, legal)
        if len(legal) == 1:
            return legal.cards[0]
        # What the seat knows, as ints: the face-up exposures and its own face-down ones.
        index = _policy.choose_info(view.info, legal.mask)
        return Card.from_index(index)

    def _core_policy(self) -> _policy.RuleOfThumb:
        # Round.rollout's hook: the same choices, made inside the engine core on its board.
        return _policy.RuleOfThumb()

    def __repr__(self) -> str:
        return "RuleOfThumbStrategy()"


def _check_seed(seed: object) -> None:
    """Refuse a seed that would not reproduce: the library's one seed check.

    Seeds are formatted into text (``f"gongzhu-match:{seed}:…"``), which raises
    ``ValueError`` past 4300 digits and ``UnicodeEncodeError`` on a lone
    surrogate; any other object would be seeded by its ``id`` (#11 item 6).
    """
    check_seed(seed, error=SimulationError)


def rules_of(rules: RuleSet | str | None) -> RuleSet:
    """A :class:`RuleSet`, the preset named (as the CLI takes ``--rules classic``), or
    the classic rules for ``None``; anything else is a :class:`~gongzhu.SimulationError`.

    >>> rules_of("online") == RuleSet.preset("online"), rules_of(None) == RuleSet()
    (True, True)
    """
    if rules is None:
        return _DEFAULT_RULES
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        return RuleSet.preset(rules)
    raise SimulationError(f"rules must be a RuleSet or a preset name, got {type(rules).__name__}")


def play_deal(
    strategies: Sequence[Strategy],
    *,
    rules: RuleSet | str = _DEFAULT_RULES,
    seed: int | str | None = None,
    leader: int | None = None,
    dealer: int = 0,
) -> Round:
    """Deal (with ``seed``) and play one deal to the end, one strategy per seat.

    ``rules`` is a :class:`~gongzhu.RuleSet` or a preset name. When the rules
    play exposure, every seat decides first (specification §9.1; a strategy's empty
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
    rules = rules_of(rules)
    checked = check_strategies(strategies, rules.players)
    rnd = deal(rules=rules, seed=seed, leader=leader, dealer=dealer)
    return play_out(rnd, checked)


def play_match(
    strategies: Sequence[Strategy],
    *,
    rules: RuleSet | str = _DEFAULT_RULES,
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
    >>> match, deals = play_match([RuleOfThumbStrategy()] * 4, rules=RuleSet.preset("online-quick"),
    ...                           seed=3)
    >>> match.is_over, len(deals) == match.deal_count
    (True, True)
    """
    rules = rules_of(rules)
    checked = check_strategies(strategies, rules.players)
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
        deal_seed = None if seed is None else match_deal_seed(seed, number)
        rnd = play_deal(
            checked, rules=rules, seed=deal_seed, leader=match.next_leader, dealer=match.dealer
        )
        rounds.append(rnd)
        match = match.add(rnd)
    return match, tuple(rounds)


# The public path of these names is gongzhu.bots (a module that re-exports them): repr,
# pickles and the API reference keep showing it.
for _public in (Strategy, RandomStrategy, RuleOfThumbStrategy, play_deal, play_match):
    _public.__module__ = "gongzhu.bots"
