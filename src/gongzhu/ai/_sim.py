"""A mutable, int-level copy of one deal for search rollouts. Private.

The public :class:`~gongzhu.Round` is immutable and builds objects for its
callers; a search plays tens of thousands of throw-away cards per decision, so
it works on this plain mutable state instead: hands, captures and exposures
as 52-bit masks, the trick in progress as a short list of card indexes.

The rules of play here mirror the engine's (``gongzhu._play._legal``) option
by option; ``tests/test_ai_sim.py`` plays seeded random deals under random rule
sets through both and requires the same legal plays and scores at every step.
Scoring takes the engine's own fast path for the usual deal (nobody took every
heart) and hands anything rarer to :func:`gongzhu.score`.
"""

from __future__ import annotations

from typing import Final

from gongzhu.cards import ACE_OF_HEARTS, PIG, SHEEP, TRANSFORMER, Card, _from_mask
from gongzhu.rules import ExposureKind, ExposureRestriction, RuleSet
from gongzhu.rules._tables import ACE_BIT, HEARTS, PIG_BIT, SHEEP_BIT, SUIT_MASKS, TEN_BIT
from gongzhu.scoring import score

__all__: list[str] = []

_QUEEN_OF_DIAMONDS: Final = 13 + 10
_SPECIAL: Final = (
    (ACE_BIT, ACE_OF_HEARTS),
    (PIG_BIT, PIG),
    (SHEEP_BIT, SHEEP),
    (TEN_BIT, TRANSFORMER),
)
BITS: Final = tuple(1 << i for i in range(52))


class SimRules:
    """Per-rule-set facts a simulation reads on every card (built once per rule set)."""

    __slots__ = (
        "blood_lock",
        "deck",
        "end_when_points_out",
        "exposable",
        "exposed_sheep_value",
        "face_up",
        "force_fourth",
        "hand_size",
        "heart_sums",
        "heart_values",
        "hearts_rule",
        "lone_blockers",
        "n",
        "opening_card",
        "pig_value",
        "point_cards",
        "queen_bonus",
        "restriction",
        "rules",
        "sheep_value",
        "team_of",
        "teams",
        "transformer_bonus",
    )

    def __init__(self, rules: RuleSet) -> None:
        t = rules._tables
        self.rules = rules
        self.n: int = rules.players
        self.hand_size: int = rules.hand_size
        self.deck: int = t.deck
        self.restriction: int = {
            ExposureRestriction.NONE: 0,
            ExposureRestriction.FIRST_TRICK_OF_SUIT: 1,
            ExposureRestriction.FIRST_TRICK_OF_DEAL: 2,
        }[rules.exposure_restriction]
        self.hearts_rule: bool = rules.hearts_must_be_broken
        self.blood_lock: bool = rules.hearts_locked_by_exposed_ace
        self.force_fourth: bool = rules.three_exposed_force_fourth
        self.end_when_points_out: bool = rules.end_when_points_out
        self.point_cards: int = (HEARTS | PIG_BIT | SHEEP_BIT | TEN_BIT) & t.deck
        self.exposable: int = t.exposable
        self.opening_card: int = rules.opening_card.mask
        self.face_up: int = 4 if rules.exposure_kind is ExposureKind.FACE_DOWN_UP else 2
        self.heart_sums: tuple[int, ...] = t.heart_sums
        self.heart_values: tuple[int, ...] = tuple(rules.heart_values)
        self.lone_blockers: int = t.lone_blockers
        self.exposed_sheep_value: int = rules.effective_exposed_sheep_value
        self.pig_value: int = rules.pig_value
        self.sheep_value: int = rules.sheep_value
        self.transformer_bonus: int = rules.transformer_bonus
        self.queen_bonus: bool = bool(rules.queen_of_diamonds_bonus)
        self.teams: tuple[tuple[int, ...], ...] = rules.teams
        team_of = [0] * self.n
        for k, team in enumerate(self.teams):
            for seat in team:
                team_of[seat] = k
        self.team_of: tuple[int, ...] = tuple(team_of)


_RULES: dict[int, tuple[RuleSet, SimRules]] = {}


def sim_rules(rules: RuleSet) -> SimRules:
    """The cached :class:`SimRules` of ``rules`` (keyed by identity, the rule set kept alive)."""
    hit = _RULES.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    made = SimRules(rules)
    if len(_RULES) > 64:
        _RULES.clear()
    _RULES[id(rules)] = (rules, made)
    return made


class Sim:
    """One deal in progress, mutable. ``copy()`` before playing into a shared one."""

    __slots__ = (
        "blind",
        "capt",
        "cfg",
        "done",
        "exposed",
        "facedown",
        "hands",
        "hearts_broken",
        "leader",
        "led",
        "ntricks",
        "opening",
        "played",
        "qd_counts",
        "qd_taker",
        "suits_led",
        "trick",
    )

    def __init__(self, cfg: SimRules, hands: list[int], leader: int) -> None:
        self.cfg = cfg
        self.hands = hands
        self.capt = [0] * cfg.n
        self.leader = leader
        self.trick: list[int] = []
        self.led = -1
        self.suits_led = 0
        self.hearts_broken = False
        self.ntricks = 0
        self.exposed = 0
        self.facedown = 0
        self.blind = 0
        self.opening = False
        self.played = 0
        self.done = False
        self.qd_taker = -1
        self.qd_counts = [0] * cfg.n

    def copy(self) -> Sim:
        s = Sim.__new__(Sim)
        s.cfg = self.cfg
        s.hands = self.hands[:]
        s.capt = self.capt[:]
        s.leader = self.leader
        s.trick = self.trick[:]
        s.led = self.led
        s.suits_led = self.suits_led
        s.hearts_broken = self.hearts_broken
        s.ntricks = self.ntricks
        s.exposed = self.exposed
        s.facedown = self.facedown
        s.blind = self.blind
        s.opening = self.opening
        s.played = self.played
        s.done = self.done
        s.qd_taker = self.qd_taker
        s.qd_counts = self.qd_counts[:]
        return s

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % self.cfg.n

    def _exposed_now(self) -> int:
        exposed = self.exposed
        if self.cfg.force_fourth and not self.ntricks and not self.trick:
            exposed = self._force_fourth(exposed)
        return exposed

    def _force_fourth(self, exposed: int) -> int:
        # "Three exposed force the fourth": applied when the first card is played.
        ex = self.cfg.exposable
        declared = (exposed | self.facedown) & ex
        if declared.bit_count() == 3:
            exposed |= ex & ~declared
        return exposed

    def legal(self) -> int:
        """The legal-play mask of the seat to act (mirrors ``gongzhu._play._legal``)."""
        cfg = self.cfg
        trick = self.trick
        hand = self.hands[(self.leader + len(trick)) % cfg.n]
        exposed = self._exposed_now()
        if trick:
            led = self.led
            follow = hand & SUIT_MASKS[led]
            if not follow:
                legal = hand
            else:
                legal = follow
                if cfg.restriction == 1 and exposed & follow and not self.suits_led >> led & 1:
                    free = follow & ~exposed
                    if free:
                        legal = free
        else:
            if self.opening and not self.ntricks and hand & cfg.opening_card:
                return cfg.opening_card
            legal = hand
            if (cfg.hearts_rule or (cfg.blood_lock and exposed & ACE_BIT)) and (
                not self.hearts_broken
            ):
                other = legal & ~HEARTS
                if other:
                    legal = other
            if cfg.restriction == 1 and exposed & hand:
                for suit in range(4):
                    held = exposed & hand & SUIT_MASKS[suit]
                    if held and not self.suits_led >> suit & 1 and hand & SUIT_MASKS[suit] & ~held:
                        legal &= ~held
                if not legal:
                    legal = hand
        if cfg.restriction == 2 and not self.ntricks and legal & exposed:
            free = legal & ~exposed
            if free:
                legal = free
        return legal

    def play(self, card: int) -> None:
        """The seat to act plays ``card`` (trusted: the caller picked it from :meth:`legal`)."""
        cfg = self.cfg
        n = cfg.n
        trick = self.trick
        seat = (self.leader + len(trick)) % n
        bit = BITS[card]
        self.hands[seat] &= ~bit
        self.played |= bit
        if bit & HEARTS:
            self.hearts_broken = True
        if not trick:
            self.led = card // 13
            if not self.ntricks:
                if cfg.force_fourth:
                    self.exposed = self._force_fourth(self.exposed)
                self.opening = False
        trick.append(card)
        if len(trick) < n:
            return
        led = self.led
        top = -1
        winner = 0
        taken = 0
        for k, c in enumerate(trick):
            taken |= BITS[c]
            if c // 13 == led and c > top:
                top, winner = c, k
        winner = (self.leader + winner) % n
        self.capt[winner] |= taken
        if cfg.queen_bonus:
            if self.qd_taker >= 0 and winner == self.qd_taker:
                self.qd_counts[winner] += 1
            if self.qd_taker < 0 and taken & BITS[_QUEEN_OF_DIAMONDS]:
                self.qd_taker = winner
        self.leader = winner
        self.suits_led |= 1 << led
        self.ntricks += 1
        self.trick = []
        self.led = -1
        if not any(self.hands):
            self.done = True
        elif cfg.end_when_points_out:
            every = 0
            for c in self.capt:
                every |= c
            if every & cfg.point_cards == cfg.point_cards:
                self.done = True

    def factors(self) -> tuple[int, int, int, int]:
        """Exposure factors of A♥, Q♠, J♦, 10♣ (1 when not exposed)."""
        out = []
        up, down, blind, face_up = self.exposed, self.facedown, self.blind, self.cfg.face_up
        for bit, _card in _SPECIAL:
            f = face_up if up & bit else 2 if down & bit else 1
            if blind & bit and f > 1:
                f *= 2
            out.append(f)
        return out[0], out[1], out[2], out[3]

    def totals(self) -> tuple[int, ...]:
        """Each seat's deal score (the deal must be complete)."""
        cfg = self.cfg
        capt = self.capt
        fa, fq, fj, ft = self.factors()
        if cfg.queen_bonus or any(m & HEARTS == HEARTS for m in capt):
            # Slams, sign swaps and the Q♦ bonus: rare; the library's scorer decides.
            factors: dict[Card, int] = {}
            for (_bit, card), f in zip(_SPECIAL, (fa, fq, fj, ft), strict=True):
                if f > 1:
                    factors[card] = f
            return score(
                [_from_mask(m) for m in capt],
                factors,
                cfg.rules,
                queen_bonus_tricks=self.qd_counts if cfg.queen_bonus else None,
            ).totals
        heart_sums = cfg.heart_sums
        lone = cfg.lone_blockers
        pig_value = cfg.pig_value * fq
        sheep_value = cfg.sheep_value if fj == 1 else cfg.exposed_sheep_value * fj // 2
        out = []
        for mask in capt:
            base = heart_sums[mask >> 26 & 0x1FFF] * fa
            if mask & PIG_BIT:
                base += pig_value
            if mask & SHEEP_BIT:
                base += sheep_value
            if mask & TEN_BIT:
                out.append(base * 2 * ft if mask & lone else cfg.transformer_bonus * ft)
            else:
                out.append(base)
        return tuple(out)
