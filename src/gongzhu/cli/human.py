"""A person plays one seat of a whole match against the library's bots (``play --human SEAT``).

On a terminal it reads what is typed; otherwise it reads one answer a line
(a card code, ``pass`` at the exposure question), echoing each answer so a
transcript reads like a session. The seats are named by compass direction,
the human sitting South and the others following the rule set's direction
of play.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from gongzhu.cli._common import UsageError, bot_table, pad, safe, write_record
from gongzhu.cli._hints import search_exposure_hint, search_hint
from gongzhu.cli._show import (
    Seats,
    compass_names,
    notes,
    sheets_side_by_side,
    standings,
    table,
    trick_line,
)
from gongzhu.i18n import Translator

_MAX_LINE = 4096  # an answer is a few characters; a huge line is not read whole

_QUIT = frozenset({"quit", "q", "exit", "退出"})
_PASS = frozenset({"pass", "p", "none", "no", "-", "不亮", "过"})
_HINT = frozenset({"hint", "h", "提示"})
_HAND = frozenset({"hand", "cards", "手牌"})
_HELP = frozenset({"help", "?", "帮助"})
_AUTO = frozenset({"auto", "a", "自动"})
_SCORE = frozenset({"score", "scores", "totals", "分数"})
_DOWN = frozenset({"down", "face-down", "暗"})
_YES = frozenset({"yes", "y", "是"})


class _Quit(Exception):
    """The person quit (``quit``) or the input ended."""

    def __init__(self, ended: bool) -> None:
        super().__init__("end of input" if ended else "quit")
        self.ended = ended


class _Console:
    def __init__(self, interactive: bool) -> None:
        self.interactive = interactive
        # Red suits in red on a terminal (NO_COLOR=1 turns colour off: no-color.org).
        self.colour = (
            interactive
            and sys.stdout is not None
            and sys.stdout.isatty()
            and not os.environ.get("NO_COLOR")
        )

    def paint(self, text: str, red: bool) -> str:
        return f"\x1b[31m{text}\x1b[0m" if self.colour and red else text

    def say(self, text: str = "") -> None:
        print(text, flush=True)

    def ask(self, prompt: str) -> str:
        if self.interactive:
            try:
                line = input(prompt)
            except EOFError:
                print()
                raise _Quit(ended=True) from None
        else:
            print(prompt, end="", flush=True)
            line = sys.stdin.readline(_MAX_LINE) if sys.stdin is not None else ""
            if not line:
                print()
                raise _Quit(ended=True)
            line = line.rstrip("\r\n")
            print(safe(line[:80]), flush=True)  # echoed, so the transcript shows the answer
        word = line.strip()
        if word.lower() in _QUIT:
            raise _Quit(ended=False)
        return word


def _other_bots(spec: str, players: int, human: int) -> list[str]:
    """One bot name per seat (the human's entry unused): 1, players − 1 or players names."""
    names = [part.strip() for part in spec.split(",") if part.strip()]
    if len(names) == players - 1 and players > 2:
        names.insert(human, names[0])
    return list(bot_table(",".join(names), players))


def play_human(
    args: argparse.Namespace,
    t: Translator,
    rules: Any,
    names: Sequence[str] | None,
    seed: int,
) -> int:
    from gongzhu.ai.registry import make_strategy

    n = rules.players
    human = args.human
    if not 0 <= human < n:
        raise UsageError(f"--human must be a seat 0-{n - 1}, got {human}")
    bots = _other_bots(args.bots, n, human)
    strategies = [make_strategy(name, seed * 16 + seat) for seat, name in enumerate(bots)]
    shown = list(names) if names else compass_names(t, rules, human)
    place = safe(shown[human])
    shown[human] = t.gettext("{name} (you)").format(name=shown[human])
    interactive = sys.stdin is not None and sys.stdin.isatty()
    game = _Game(t, rules, Seats(shown), human, strategies, _Console(interactive))
    game.place = place
    return game.play_match(args, seed, names, bots)


class _Game:
    def __init__(
        self,
        t: Translator,
        rules: Any,
        seats: Seats,
        human: int,
        strategies: Sequence[Any],
        console: _Console,
    ) -> None:
        from gongzhu.ai.strategies import RuleOfThumbStrategy

        self.t = t
        self.rules = rules
        self.seats = seats
        self.human = human
        self.strategies = strategies
        self.console = console
        self.say = console.say
        self.advisor = RuleOfThumbStrategy()
        self.place = seats[human]

    # -- the match -----------------------------------------------------------------

    def play_match(
        self, args: argparse.Namespace, seed: int, names: Sequence[str] | None, bots: list[str]
    ) -> int:
        from gongzhu.ai.strategies import _deal_seed
        from gongzhu.dealing import deal
        from gongzhu.match import Match

        t, rules = self.t, self.rules
        from gongzhu.cli._common import bots_text

        others = [b for s, b in enumerate(bots) if s != self.human]
        self.say(
            t.gettext(
                "Gong Zhu (拱猪): you sit {you}, against {bots}; rules {rules}, seed {seed}."
            ).format(you=self.place, bots=bots_text(others), rules=rules, seed=seed)
        )
        self.say(
            t.gettext("Play goes {direction}: {order}.").format(
                direction=t.gettext(rules.direction.value),
                order=" → ".join(
                    self.seats[(self.human + k) % rules.players] for k in range(rules.players)
                ),
            )
        )
        self.say(t.gettext("Type a card (QS, 10h, Q♠), or hint, hand, score, help, quit."))
        match = Match(rules, names)
        rounds: list[Any] = []
        quit_early = False
        try:
            while not match.is_over and len(rounds) < args.max_deals:
                number = len(rounds) + 1
                rnd = deal(
                    rules,
                    seed=_deal_seed(seed, number),
                    leader=match.next_leader,
                    dealer=match.dealer,
                )
                rnd = self.play_deal(rnd, number)
                before = match.totals
                match = match.add(rnd)
                rounds.append(rnd)
                self.deal_over(rnd, before, match)
        except _Quit as stop:
            quit_early = True
            self.say()
            message = (
                t.gettext("Input ended after {n} complete deals.")
                if stop.ended
                else t.gettext("You left the match after {n} complete deals.")
            )
            self.say(message.format(n=len(rounds)))
            if rounds:
                self.say(table(t, match, self.seats))
        if not quit_early and not match.is_over:
            self.say(t.gettext("(stopped after {n} deals: --max-deals)").format(n=len(rounds)))
        if args.record and rounds:
            write_record(t, args.record, rounds, names)
        return 0

    def deal_over(self, rnd: Any, before: Sequence[int], match: Any) -> None:
        t = self.t
        score = rnd.score()
        self.say()
        self.say(t.gettext("Deal {n} is over. The score sheets:").format(n=match.deal_count))
        self.say(sheets_side_by_side(t, score, before, self.seats))
        for line in notes(t, score, self.seats):
            self.say("  * " + line)
        self.say()
        self.say(table(t, match, self.seats))
        self.say(standings(t, match, self.seats))
        self.say()

    # -- one deal -----------------------------------------------------------------------

    def play_deal(self, rnd: Any, number: int) -> Any:
        from gongzhu.phase import Phase

        t, seats = self.t, self.seats
        self.say()
        self.say(
            t.gettext("== Deal {number}: {dealer} deals, {leader} leads.").format(
                number=number, dealer=seats[rnd.dealer], leader=seats[rnd.leader]
            )
        )
        if rnd.phase is Phase.EXPOSURE:
            rnd = self.exposure(rnd)
        while not rnd.is_complete:
            seat = rnd.to_act
            done = len(rnd.tricks)
            if seat == self.human:
                rnd = self.human_turn(rnd)
            else:
                view = rnd.view(seat)
                card = self.strategies[seat].choose_play(view, view.legal_plays)
                rnd = rnd.play(card, seat=seat)
            if len(rnd.tricks) > done:
                trick = rnd.tricks[-1]
                self.say(
                    t.gettext("  Trick {k}: {trick}").format(
                        k=len(rnd.tricks), trick=trick_line(t, trick, seats)
                    )
                )
        return rnd

    # -- exposure ------------------------------------------------------------------------

    def exposure(self, rnd: Any) -> Any:
        """Every seat decides once (RULES.md §9.1): the bots from their views, the person asked."""
        from gongzhu.rules import ExposureOrder

        n = rnd.players
        order = [(rnd.leader + k) % n for k in range(n)]
        in_turn = self.rules.exposure_order is ExposureOrder.IN_TURN
        # Simultaneous means sealed (§9.2): every bot decides from the view before any
        # decision, and the person does not see theirs until all have decided.
        sealed = {
            seat: self.strategies[seat].choose_exposure(rnd.view(seat))
            for seat in order
            if seat != self.human and not in_turn
        }
        for seat in order:
            if seat in rnd.exposure_decided:
                continue
            if seat == self.human:
                rnd = self.ask_exposure(rnd)
                continue
            cards = (
                sealed[seat]
                if not in_turn
                else self.strategies[seat].choose_exposure(rnd.view(seat))
            )
            rnd = rnd.expose(cards, seat=seat)
            if in_turn:
                self.say(self._decision_text(seat, cards))
        self.say(self._exposed_text(rnd))
        return rnd

    def _decision_text(self, seat: int, cards: Any) -> str:
        t = self.t
        if cards:
            return "  " + t.gettext("{who} exposes {cards}.").format(
                who=self.seats[seat], cards=t.cards(cards)
            )
        return "  " + t.gettext("{who} exposes nothing.").format(who=self.seats[seat])

    def _exposed_text(self, rnd: Any) -> str:
        from gongzhu.cli._show import exposure_text

        return "  " + self.t.gettext("Exposed: {what}").format(
            what=exposure_text(self.t, rnd, self.seats)
        )

    def ask_exposure(self, rnd: Any) -> Any:
        from gongzhu.cards import parse_cards
        from gongzhu.errors import CardParseError, IllegalActionError
        from gongzhu.rules import ExposureKind
        from gongzhu.scoring import exposure_preview

        t, rules, human = self.t, self.rules, self.human
        view = rnd.view(human)
        if rules.blind_exposure and view.first_dealt in rules.exposable and not rnd.exposed:
            rnd = self.ask_blind(rnd)
            view = rnd.view(human)
        self.show_hand(view, legal=None)
        held = (view.hand & rules.exposable) - view.exposed - view.own_face_down
        if not held:
            self.say(
                "  "
                + t.gettext("You hold none of the cards that may be exposed ({cards}).").format(
                    cards=t.cards(rules.exposable)
                )
            )
            return rnd.expose((), seat=human)
        face_down_up = rules.exposure_kind is ExposureKind.FACE_DOWN_UP
        self.say("  " + t.gettext("You may expose, doubling the card's effect:"))
        for card in held:
            effect = t.preview(exposure_preview(card, rules))
            line = f"    {card.code:3} {t.card_name(card)}: {effect}"
            if face_down_up:
                down = t.preview(exposure_preview(card, rules, factor=2))
                line += "; " + t.gettext("face down: {preview}").format(preview=down)
            self.say(line)
        if face_down_up:
            self.say("  " + t.gettext("Face up ×4, or put 'down' first to declare face down ×2."))
        prompt = t.gettext("Expose which cards? (e.g. {example}, or pass) > ").format(
            example=" ".join(c.code for c in held)
        )
        while True:
            answer = self.console.ask(prompt)
            word = answer.lower()
            if word in _HINT:
                self.say("  " + self.exposure_hint(view))
                continue
            if word in _HAND:
                self.show_hand(view, legal=None)
                continue
            if word in _HELP or not word:
                self.say("  " + t.gettext("Type the cards to expose (e.g. QS), or pass for none."))
                continue
            face_down = False
            if word in _PASS:
                chosen: Any = ()
            elif word in _AUTO:
                chosen = self.advisor.choose_exposure(view)
            else:
                first, _, rest = answer.partition(" ")
                if first.lower() in _DOWN:
                    face_down, answer = True, rest
                try:
                    chosen = parse_cards(answer)
                except CardParseError as exc:
                    self.say(
                        "  "
                        + t.gettext("{text} is not a card: type cards like QS JD, or pass.").format(
                            text=repr(safe(exc.token)[:24])
                        )
                    )
                    continue
            try:
                rnd = rnd.expose(chosen, seat=human, face_down=face_down)
            except IllegalActionError as exc:
                self.say("  " + t.refusal(exc, who=t.gettext("you")))
                continue
            return rnd

    def ask_blind(self, rnd: Any) -> Any:
        from gongzhu.errors import IllegalActionError

        t = self.t
        self.say("  " + t.gettext("Your first card dealt may be exposed blind (×2 more)."))
        while True:
            answer = self.console.ask(t.gettext("Expose it blind, unseen? (yes or pass) > "))
            word = answer.lower()
            if word in _PASS:
                return rnd
            if word in _YES:
                first = rnd.view(self.human).first_dealt
                try:
                    rnd = rnd.expose((first,), seat=self.human, blind=True)
                except IllegalActionError as exc:
                    self.say("  " + t.refusal(exc, who=t.gettext("you")))
                    return rnd
                self.say("  " + t.gettext("It was {card}.").format(card=t.card_name(first)))
                return rnd
            self.say("  " + t.gettext("Answer yes or pass."))

    def exposure_hint(self, view: Any) -> str:
        """The search bot's exposure analysis when the library has one; else the rule of thumb."""
        import gongzhu

        search = getattr(gongzhu, "SearchStrategy", None)
        if search is not None:
            text = search_exposure_hint(self.t, search, getattr(gongzhu, "Limit", None), view)
            if text:
                return text
        return self._hint_exposure(self.advisor.choose_exposure(view))

    def _hint_exposure(self, advice: Any) -> str:
        t = self.t
        if advice:
            return t.gettext("hint: the rule-of-thumb bot would expose {cards}").format(
                cards=t.cards(advice)
            )
        return t.gettext("hint: the rule-of-thumb bot would expose nothing")

    # -- a card --------------------------------------------------------------------------

    def human_turn(self, rnd: Any) -> Any:
        from gongzhu.cards import Card
        from gongzhu.errors import CardParseError, IllegalActionError

        t = self.t
        view = rnd.view(self.human)
        legal = view.legal_plays
        self.show_table(view)
        self.show_hand(view, legal=legal)
        prompt = t.gettext("Your card > ")
        while True:
            answer = self.console.ask(prompt)
            word = answer.lower()
            if word in _HINT:
                self.say("  " + self.hint(view))
                continue
            if word in _HAND:
                self.show_table(view)
                self.show_hand(view, legal=legal)
                continue
            if word in _SCORE:
                self.show_points(view)
                continue
            if word in _HELP or not word:
                self.say(
                    "  "
                    + t.gettext(
                        "Type a card: rank then suit (QS, 10h, TC, Q♠). Legal cards are in "
                        "[brackets]. Also: hint, hand, score, auto, quit."
                    )
                )
                continue
            if word in _AUTO:
                card = self.advisor.choose_play(view, legal)
            elif word in _PASS:
                self.say("  " + t.gettext("There is no passing in play: choose a card."))
                continue
            else:
                try:
                    card = Card.parse(answer)
                except CardParseError:
                    self.say(
                        "  "
                        + t.gettext(
                            "{text} is not a card: type rank then suit, e.g. QS or 10h."
                        ).format(text=repr(safe(answer[:24])))
                    )
                    continue
            try:
                return rnd.play(card, seat=self.human)
            except IllegalActionError as exc:
                # One line: the refusal with its reason, and what may be played instead.
                allowed = t.gettext(" (you may play {cards})").format(cards=t.cards(legal))
                self.say("  " + t.refusal(exc, who=t.gettext("you")) + allowed)

    def hint(self, view: Any) -> str:
        """The search bot's analysis when the library has one; else the rule-of-thumb bot's card."""
        import gongzhu

        t = self.t
        search = getattr(gongzhu, "SearchStrategy", None)
        if search is not None:
            text = search_hint(t, search, getattr(gongzhu, "Limit", None), view)
            if text:
                return text
        card = self.advisor.choose_play(view, view.legal_plays)
        return t.gettext("hint: the rule-of-thumb bot would play {card}").format(
            card=t.card_name(card)
        )

    # -- what the person sees ------------------------------------------------------------------

    def show_table(self, view: Any) -> None:
        t, seats = self.t, self.seats
        trick = view.current_trick
        number = len(view.tricks) + 1
        if not trick.cards:
            self.say(t.gettext("Trick {k}: you lead.").format(k=number))
            return
        played = ", ".join(
            f"{seats[s]} {self.console.paint(t.card(c), c.suit.is_red)}"
            for s, c in zip(trick.seats, trick.cards, strict=True)
        )
        winning = trick.winning_seat
        self.say(
            t.gettext("Trick {k}: {played}; {who} is winning; your turn.").format(
                k=number, played=played, who=seats[winning] if winning is not None else "?"
            )
        )

    def show_points(self, view: Any) -> None:
        t, seats = self.t, self.seats
        for seat, cards in enumerate(view.captured_points):
            pile = t.cards(cards) if cards else t.gettext("no point cards yet")
            self.say(f"  {seats[seat]}: {pile}")

    def show_hand(self, view: Any, legal: Any) -> None:
        from gongzhu.cards import Suit

        t = self.t
        exposed = view.exposed | view.own_face_down
        if legal is None:
            self.say("  " + t.gettext("Your hand:"))
        else:
            self.say("  " + t.gettext("Your hand (legal cards in [brackets]):"))
        for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS):
            cards = sorted(view.hand.of_suit(suit), key=lambda c: -c.index)
            if not cards:
                continue
            shown = []
            for card in cards:
                text = card.rank.symbol
                if card in exposed:
                    text += "!"
                if legal is not None and card in legal:
                    text = f"[{text}]"
                shown.append(self.console.paint(text, suit.is_red))
            label = pad(f"{suit.symbol} {t.suit(suit)}", 12)
            self.say(f"    {label} " + " ".join(shown))
        if exposed & view.hand:
            self.say("    " + t.gettext("(! marks your exposed cards)"))
