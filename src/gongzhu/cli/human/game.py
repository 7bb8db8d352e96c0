"""One match at the terminal: deals, the bots' turns, the person's questions, hints and
saving. Part of :mod:`gongzhu.cli.human`.

The game is a :class:`~gongzhu.table.Table` (rules, seed, log: the match and the
deal in progress follow), the same object a web room plays through; every change
is an action applied to it (or "deal the next"), and the save is its state
(:mod:`gongzhu.cli._save`). :class:`_Game` keeps the console: what is shown, what
is asked, and which bot decides.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import gongzhu.cli._save as _save
from gongzhu.actions import Action, Exposure, Play
from gongzhu.ai.driver import decide
from gongzhu.cards import CardSet
from gongzhu.cli._common import bots_text, make_bot, safe, write_record
from gongzhu.cli._hints import analysis_hint, exposure_analysis_hint
from gongzhu.cli._show import (
    Seats,
    notes,
    sheets_side_by_side,
    standings,
    table,
    threshold_text,
    trick_line,
)
from gongzhu.cli.human.console import _Console, _Quit
from gongzhu.cli.human.display import _Display
from gongzhu.cli.human.words import (
    _AUTO,
    _AUTO_SHORT,
    _COUNT,
    _DOWN,
    _HAND,
    _HELP,
    _HINT,
    _PASS,
    _REST,
    _SCORE,
    _YES,
    parse_typed_card,
    parse_typed_cards,
    rules_title,
)
from gongzhu.i18n import Translator

if TYPE_CHECKING:
    from gongzhu.ai.search import Analysis
    from gongzhu.ai.strategies import Strategy
    from gongzhu.cards import Card
    from gongzhu.round import Round
    from gongzhu.table import Table
    from gongzhu.view import PlayerView


def decision_seed(seed: int | str, deal_number: int, moves: int, seat: int) -> int:
    """The seed of one bot decision: from the match seed, the deal, the move and the seat.

    A fresh, seeded bot per decision keeps no state between moves, so a match
    resumed from a save goes on exactly as the uninterrupted one.
    """
    return random.Random(f"gongzhu-cli:{seed}:{deal_number}:{moves}:{seat}").getrandbits(48)


class _Game:
    """One match at the terminal: the table, the bots, the person's turns; it shows
    through its :class:`_Display`."""

    def __init__(
        self,
        t: Translator,
        table: Table,
        seats: Seats,
        session: _save.Session,
        console: _Console,
    ) -> None:
        self.t = t
        self.table = table  # the game: every change is a new table (see the module)
        self.rules = table.rules
        self.seats = seats
        self.human = session.human
        self.session = session
        self.console = console
        self.say = console.say
        self.place = seats[self.human]
        self.display = _Display(t, self.rules, seats, self.human, console)
        self.path: Path | None = None
        self.autopilot = False  # "auto deal": the level's bot plays the rest of the deal
        self._analysis: tuple[PlayerView, Analysis | None] | None = (
            None  # (view, the advisor's analysis)
        )

    # -- bots and saving ---------------------------------------------------------------

    def bot(self, seat: int, rnd: Round) -> Strategy:
        """A fresh bot for this decision of ``seat`` in ``rnd`` (the level's bot for the
        person's seat), seeded by the match seed, the deal, the move and the seat."""
        name = self.session.level if seat == self.human else self.session.bots[seat]
        table = self.table
        return make_bot(
            name, decision_seed(table.match_seed, table.deal_no, len(rnd.history), seat)
        )

    def act(self, action: Action) -> None:
        """Apply ``action`` (:class:`~gongzhu.IllegalActionError`: refused, nothing changed)
        and save the game."""
        self.table = self.table.apply(action)
        self.save()

    def save(self) -> None:
        if self.path is None:
            return
        try:
            _save.write(self.path, self.session, self.table)
        except OSError as exc:
            self.path = None  # say it once, then play on unsaved
            self.say(
                "  "
                + self.t.gettext(
                    "Cannot save the match ({error}); playing on without saving."
                ).format(error=safe(exc.strerror or exc))
            )

    # -- the match -----------------------------------------------------------------

    def play_match(self, args: argparse.Namespace, resumed: bool) -> int:
        t = self.t
        self._greet()
        if self.path is not None:
            if resumed:
                self.say(
                    t.gettext("Resuming from {path}: deal {n}.").format(
                        path=safe(self.path), n=self.table.deal_no
                    )
                )
            else:
                self.say(t.gettext("Saving the match to {path}.").format(path=safe(self.path)))
        if self.table.is_over:
            # A save of a finished match: its end, as it was shown.
            self.say(table(t, self.table.match, self.seats))
            self.say(standings(t, self.table.match, self.seats))
        try:
            self._deals()
        except _Quit as stop:
            self._say_stopped(stop)
            if self.table.rounds:
                self.say(table(t, self.table.match, self.seats))
            self.resume_note()
        except KeyboardInterrupt:
            self.say()
            self.resume_note()
            raise
        else:
            if not self.table.is_over:
                n = len(self.table.rounds)
                self.say(
                    t.ngettext(
                        "(stopped after {n} deal: --max-deals)",
                        "(stopped after {n} deals: --max-deals)",
                        n,
                    ).format(n=n)
                )
        if args.record and self.table.rounds:
            names = self.session.record_names(self.table)
            write_record(t, args.record, self.table.rounds, names)
        return 0

    def _deals(self) -> None:
        """The deals to the match's end (or the deal limit): each dealt, played and shown."""
        while not self.table.is_over and len(self.table.rounds) < self.session.max_deals:
            if self.table.round.is_over:
                self.table = self.table.next_deal()
            self.save()
            before = self.table.match.totals
            self.play_deal()
            self.deal_over(self.table.round, before)

    def _greet(self) -> None:
        """The match's first lines: who plays, the rules, the direction, what to type."""
        t, rules, session = self.t, self.rules, self.session
        others = [b for s, b in enumerate(session.bots) if s != self.human]
        self.say(
            t.gettext(
                "Gong Zhu (拱猪): you sit {you}; opponents: {bots}; rules: {rules}; "
                "match number {seed}."
            ).format(
                you=self.place,
                bots=bots_text(others, t),
                rules=rules_title(t, rules),
                seed=self.table.match_seed,
            )
        )
        self.say(threshold_text(t, rules))
        self.say(
            t.gettext("Play goes {direction}: {order}.").format(
                direction=t.gettext(rules.direction.value),
                order=" → ".join(
                    self.seats[(self.human + k) % rules.players] for k in range(rules.players)
                ),
            )
        )
        self.say(
            t.gettext("Type a card (QS, 10h, Q♠), or hint, hand, score, count, auto, help, quit.")
        )

    def _say_stopped(self, stop: _Quit) -> None:
        """Why the match stopped early: the input ended, or the person left."""
        t = self.t
        self.say()
        n = len(self.table.rounds)
        message = (
            t.ngettext(
                "Input ended after {n} complete deal.",
                "Input ended after {n} complete deals.",
                n,
            )
            if stop.ended
            else t.ngettext(
                "You left the match after {n} complete deal.",
                "You left the match after {n} complete deals.",
                n,
            )
        )
        self.say(message.format(n=n))

    def resume_note(self) -> None:
        if self.path is None:
            return
        self.save()
        self.say(
            self.t.gettext("The match is saved: gongzhu play --resume {path}").format(
                path=safe(self.path)
            )
        )

    def deal_over(self, rnd: Round, before: Sequence[int]) -> None:
        t, match = self.t, self.table.match
        score = rnd.score()
        self.say()
        self.say(t.gettext("Deal {n} is over. The score sheets:").format(n=match.deal_count))
        self.say(sheets_side_by_side(t, score, before, self.seats))
        for line in notes(t, score, self.seats):
            self.say("  * " + line)
        self.say()
        self.say(table(t, match, self.seats))
        self.say(standings(t, match, self.seats))
        if self.path is not None:
            # The review searches for a second or so a deal: offered, not run in the game.
            self.say(
                t.gettext(
                    "Where you lost points: gongzhu review {path} --deal {n} --seat {seat}"
                ).format(path=safe(self.path), n=match.deal_count, seat=self.human)
            )
        self.say()

    # -- one deal -----------------------------------------------------------------------

    def play_deal(self) -> None:
        """The deal in progress played to its end: the bots' turns and the person's."""
        from gongzhu.phase import Phase

        t, seats = self.t, self.seats
        rnd = self.table.round
        self.autopilot = False
        self.say()
        self.say(
            t.gettext("== Deal {number}: {dealer} deals, {leader} leads.").format(
                number=self.table.deal_no, dealer=seats[rnd.dealer], leader=seats[rnd.leader]
            )
        )
        if rnd.phase is Phase.EXPOSURE:
            self.exposure()
        while not self.table.round.is_over:
            rnd = self.table.round
            seat = rnd.to_act
            assert seat is not None  # a deal in play has a seat to act
            done = len(rnd.tricks)
            if seat == self.human:
                self.human_turn()
            else:
                self.act(decide(rnd, seat, self.bot(seat, rnd)))
            tricks = self.table.round.tricks
            if len(tricks) > done:
                self.say(
                    t.gettext("  Trick {k}: {trick}").format(
                        k=len(tricks), trick=trick_line(t, tricks[-1], seats)
                    )
                )

    # -- exposure ------------------------------------------------------------------------

    def exposure(self) -> None:
        """Every seat decides once (specification §9.1): the bots from their views, the person
        asked."""
        from gongzhu.rules import ExposureOrder

        rnd, dealt = self.table.round, self.table.dealt
        n = rnd.players
        order = [(rnd.leader + k) % n for k in range(n)]
        in_turn = self.rules.exposure_order is ExposureOrder.IN_TURN
        # Simultaneous means sealed (§9.2): every bot decides from its view of the deal
        # as dealt (also when resumed half-way), and the person does not see theirs until
        # all have decided.
        sealed = {
            seat: decide(dealt, seat, self.bot(seat, dealt))
            for seat in order
            if seat != self.human and not in_turn and seat not in rnd.exposure_decided
        }
        for seat in order:
            rnd = self.table.round
            if seat in rnd.exposure_decided:
                continue
            if seat == self.human:
                self.ask_exposure()
                continue
            action = decide(rnd, seat, self.bot(seat, rnd)) if in_turn else sealed[seat]
            self.act(action)
            if in_turn:
                assert isinstance(action, Exposure)  # decide() in the exposure phase
                self.say(self.display.decision_text(seat, action.cards))
        self.say(self.display.exposed_text(self.table.round))
        self.display.exposures_shown = True  # the first table need not repeat them

    def ask_exposure(self) -> None:
        """The person's exposure decision (and first the blind one, where the rules offer it)."""
        from gongzhu.errors import CardParseError, IllegalActionError

        t, rules, human = self.t, self.rules, self.human
        view = self.table.round.view(human)
        if (
            rules.blind_exposure
            and view.first_dealt in rules.exposable
            and not self.table.round.exposed
        ):
            self.ask_blind()
            view = self.table.round.view(human)
        self.display.show_hand(view, legal=None)
        held = (view.hand & rules.exposable) - view.exposed - view.own_face_down
        if not held:
            self.say(
                "  "
                + t.gettext("You hold none of the cards that may be exposed ({cards}).").format(
                    cards=t.cards(rules.exposable)
                )
            )
            self.act(Exposure(human, CardSet()))
            return
        self._show_exposure_choices(held)
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
                self.display.show_hand(view, legal=None)
                continue
            if word in _HELP or not word:
                self.say("  " + t.gettext("Type the cards to expose (e.g. QS), or pass for none."))
                continue
            if word in _AUTO_SHORT:
                self.say("  " + t.gettext("Type auto in full to let the computer decide."))
                continue
            face_down = False
            if word in _PASS:
                chosen: Iterable[Card] = ()
            elif word in _AUTO or word in _REST:
                chosen = self.exposure_advice(view)
            else:
                first, _, rest = answer.partition(" ")
                if first.lower() in _DOWN:
                    face_down, answer = True, rest
                try:
                    chosen = parse_typed_cards(t, answer)
                except CardParseError as exc:
                    self.say(
                        "  "
                        + t.gettext("{text} is not a card: type cards like QS JD, or pass.").format(
                            text=repr(safe(exc.token)[:24])
                        )
                    )
                    continue
            try:
                self.act(Exposure(human, CardSet(chosen), face_down=face_down))
            except IllegalActionError as exc:
                self.say("  " + t.refusal(exc, who=t.gettext("you")))
                continue
            return

    def _show_exposure_choices(self, held: CardSet) -> None:
        """What exposing each card held would do, and the rule set's restriction."""
        from gongzhu.rules import ExposureKind
        from gongzhu.scoring import exposure_preview

        t, rules = self.t, self.rules
        face_down_up = rules.exposure_kind is ExposureKind.FACE_DOWN_UP
        self.say("  " + t.gettext("You may expose, doubling the card's effect:"))
        for card in held:
            effect = t.preview(exposure_preview(card, rules=rules))
            line = f"    {card.code:3} " + t.gettext("{card}: {effect}").format(
                card=t.card_name(card), effect=effect
            )
            if face_down_up:
                down = t.preview(exposure_preview(card, rules=rules, factor=2))
                line += t.gettext("; face down: {preview}").format(preview=down)
            self.say(line)
        restriction = self.display.restriction_text()
        if restriction:
            self.say("  " + restriction)
        if face_down_up:
            self.say("  " + t.gettext("Face up ×4, or put 'down' first to declare face down ×2."))

    def ask_blind(self) -> None:
        from gongzhu.errors import IllegalActionError

        t = self.t
        self.say("  " + t.gettext("Your first card dealt may be exposed blind (×2 more)."))
        while True:
            answer = self.console.ask(t.gettext("Expose it blind, unseen? (yes or pass) > "))
            word = answer.lower()
            if word in _PASS:
                return
            if word in _YES:
                first = self.table.round.view(self.human).first_dealt
                assert first is not None  # blind exposure is offered for a dealt card
                try:
                    self.act(Exposure(self.human, CardSet([first]), blind=True))
                except IllegalActionError as exc:
                    self.say("  " + t.refusal(exc, who=t.gettext("you")))
                    return
                self.say("  " + t.gettext("It was {card}.").format(card=t.card_name(first)))
                return
            self.say("  " + t.gettext("Answer yes or pass."))

    # -- the level's bot as adviser: hint and auto agree -------------------------------

    def advisor(self, view: PlayerView) -> Strategy:
        return self.bot(self.human, self.table.round)

    def _play_analysis(self, view: PlayerView) -> Analysis | None:
        """The advisor's analysis of ``view`` (cached: hint then auto computes it once)."""
        if self._analysis is not None and self._analysis[0] == view:
            return self._analysis[1]
        bot = self.advisor(view)
        analyse = getattr(bot, "analyse", None)
        analysis = analyse(view) if analyse is not None and len(view.legal_plays) > 1 else None
        self._analysis = (view, analysis)
        return analysis

    def play_advice(self, view: PlayerView) -> Card:
        """The card ``auto`` plays: the level's bot's choice (the top of its hint)."""
        analysis = self._play_analysis(view)
        if analysis is not None:
            return analysis.best.card
        return self.advisor(view).choose_play(view, view.legal_plays)

    def exposure_advice(self, view: PlayerView) -> Iterable[Card]:
        bot = self.advisor(view)
        analyse = getattr(bot, "analyse_exposure", None)
        if analyse is not None:
            cards: Iterable[Card] = analyse(view).best.cards
            return cards
        return bot.choose_exposure(view)

    def exposure_hint(self, view: PlayerView) -> str:
        t = self.t
        bot = self.advisor(view)
        analyse = getattr(bot, "analyse_exposure", None)
        if analyse is not None:
            text = exposure_analysis_hint(t, analyse(view))
            if text:
                return text
        advice = bot.choose_exposure(view)
        level = self.level_title()
        if advice:
            return t.gettext("hint: the {level} computer would expose {cards}").format(
                level=level, cards=t.cards(advice)
            )
        return t.gettext("hint: the {level} computer would expose nothing").format(level=level)

    def hint(self, view: PlayerView) -> str:
        """The level's bot's analysis if it has one (every card ranked), else its card."""
        t = self.t
        analysis = self._play_analysis(view)
        if analysis is not None:
            text = analysis_hint(t, analysis)
            if text:
                return text
        card = self.play_advice(view)
        return t.gettext("hint: the {level} computer would play {card}").format(
            level=self.level_title(), card=t.card_name(card)
        )

    def level_title(self) -> str:
        from gongzhu.cli._common import BOT_TITLES

        level = self.session.level
        return self.t.gettext(BOT_TITLES[level]) if level in BOT_TITLES else safe(level)

    # -- a card --------------------------------------------------------------------------

    def human_turn(self) -> None:
        """The person's card: asked for (with hint, hand, score, count, auto), or auto-played."""
        from gongzhu.errors import CardParseError, IllegalActionError

        t = self.t
        view = self.table.round.view(self.human)
        legal = view.legal_plays
        self.display.show_table(view)
        if self.autopilot or (self.session.auto_lone and len(legal) == 1):
            card = self.play_advice(view) if len(legal) > 1 else legal.cards[0]
            self.say("  " + t.gettext("You play {card}.").format(card=t.card(card)))
            self.act(Play(self.human, card))
            return
        self.display.show_hand(view, legal=legal)
        prompt = t.gettext("Your card > ")
        while True:
            answer = self.console.ask(prompt)
            word = answer.lower()
            if word in _HINT:
                self.say("  " + self.hint(view))
                continue
            if word in _HAND:
                self.display.show_table(view)
                self.display.show_hand(view, legal=legal)
                continue
            if word in _SCORE:
                self.display.show_points(view, self.table)
                continue
            if word in _COUNT:
                self.display.show_count(view)
                continue
            if word in _HELP or not word:
                self.say(
                    "  "
                    + t.gettext(
                        "Type a card: rank then suit (QS, 10h, TC, Q♠) or as shown (梅花9). "
                        "Legal cards are in [brackets]. Also: hint, hand, score, count, "
                        "auto (one card), auto deal (the rest of the deal), quit."
                    )
                )
                continue
            if word in _AUTO_SHORT:
                self.say("  " + t.gettext("Type auto in full to let the computer play."))
                continue
            if word in _REST:
                self.autopilot = True
                card = self.play_advice(view)
                self.say("  " + t.gettext("You play {card}.").format(card=t.card(card)))
            elif word in _AUTO:
                card = self.play_advice(view)
            elif word in _PASS:
                self.say("  " + t.gettext("There is no passing in play: choose a card."))
                continue
            else:
                try:
                    card = parse_typed_card(t, answer)
                except CardParseError:
                    self.say(
                        "  "
                        + t.gettext(
                            "{text} is not a card: type rank then suit, e.g. QS or 10h."
                        ).format(text=repr(safe(answer[:24])))
                    )
                    continue
            try:
                self.act(Play(self.human, card))
                return
            except IllegalActionError as exc:
                # One line: the refusal with its reason, and what may be played instead.
                allowed = t.gettext(" (you may play {cards})").format(cards=t.cards(legal))
                self.say("  " + t.refusal(exc, who=t.gettext("you")) + allowed)

    # -- what the person sees ------------------------------------------------------------------
