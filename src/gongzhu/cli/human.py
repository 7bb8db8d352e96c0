"""A person plays one seat of a whole match against the library's bots (``play --human SEAT``).

On a terminal it reads what is typed; otherwise it reads one answer a line
(a card, ``pass`` at the exposure question), echoing each answer so a
transcript reads like a session. The seats are named by compass direction,
the human sitting South and the others following the rule set's direction
of play. The match is saved after every action (:mod:`gongzhu.cli._save`),
and ``--resume FILE`` goes on from a save exactly where it stopped.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import sys
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gongzhu.cli._save as _save
from gongzhu.cli._common import (
    BOT_TITLES,
    UsageError,
    bot_table,
    bots_text,
    make_bot,
    pad,
    safe,
    write_record,
)
from gongzhu.cli._hints import analysis_hint, exposure_analysis_hint
from gongzhu.cli._show import (
    Seats,
    compass_names,
    exposure_text,
    notes,
    sheets_side_by_side,
    standings,
    table,
    threshold_gap,
    threshold_text,
    trick_line,
)
from gongzhu.i18n import Translator

_MAX_LINE = 4096  # an answer is a few characters; a huge line is not read whole

# The command words, in every shipped language (whatever --lang says: none is a card).
_QUIT = frozenset({"quit", "exit", "退出", "выход", "вихід", "konec"})
_PASS = frozenset({"pass", "p", "none", "no", "-", "不亮", "过", "пас", "pas"})
_HINT = frozenset({"hint", "h", "提示", "подсказка", "підказка", "nápověda", "rada"})
_HAND = frozenset({"hand", "cards", "手牌", "рука", "карты", "карти", "ruka", "karty"})
_HELP = frozenset({"help", "?", "帮助", "помощь", "допомога", "pomoc"})
_AUTO = frozenset({"auto", "自动", "авто"})
_REST = frozenset({"auto deal", "auto all", "rest", "自动打完", "авто все", "auto vše"})
_SCORE = frozenset(
    {"score", "scores", "totals", "分数", "分牌", "计分", "счёт", "счет", "очки", "рахунок"}
    | {"skóre"}
)
_COUNT = frozenset({"count", "记牌", "算牌", "подсчёт", "подсчет", "підрахунок", "počty"})
_DOWN = frozenset({"down", "face-down", "暗", "暗亮"})
_YES = frozenset({"yes", "y", "是", "да", "так", "ano"})
# Typed alone these are a slip (a queen? an ace?), not a command: ask or explain.
_QUIT_SHORT = frozenset({"q"})
_AUTO_SHORT = frozenset({"a"})


class _Quit(Exception):
    """The person quit (``quit``) or the input ended."""

    def __init__(self, ended: bool) -> None:
        super().__init__("end of input" if ended else "quit")
        self.ended = ended


class _Console:
    def __init__(self, interactive: bool, t: Translator | None = None) -> None:
        self.interactive = interactive
        self.t = t or Translator()
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

    def read(self, prompt: str) -> str:
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
        # Full-width letters and digits (Ｑ, １０) as typed with a Chinese input method.
        return unicodedata.normalize("NFKC", line).strip()

    def ask(self, prompt: str) -> str:
        t = self.t
        while True:
            word = self.read(prompt)
            lowered = word.lower()
            if lowered in _QUIT:
                raise _Quit(ended=False)
            if lowered in _QUIT_SHORT:
                sure = self.read(t.gettext("Leave the match? It is saved. (yes or no) > "))
                if sure.lower() in _YES:
                    raise _Quit(ended=False)
                continue
            return word


def _other_bots(spec: str, players: int, human: int) -> list[str]:
    """One bot name per seat (the human's entry unused): 1, players − 1 or players names."""
    names = [part.strip() for part in spec.split(",") if part.strip()]
    if len(names) == players - 1 and players > 2:
        names.insert(human, names[0])
    return list(bot_table(",".join(names), players))


def decision_seed(seed: int, deal_number: int, moves: int, seat: int) -> int:
    """The seed of one bot decision: from the match seed, the deal, the move and the seat.

    A fresh, seeded bot per decision keeps no state between moves, so a match
    resumed from a save goes on exactly as the uninterrupted one.
    """
    return random.Random(f"gongzhu-cli:{seed}:{deal_number}:{moves}:{seat}").getrandbits(48)


def play_human(
    args: argparse.Namespace,
    t: Translator,
    rules: Any,
    names: Sequence[str] | None,
    seed: int,
) -> int:
    n = rules.players
    human = args.human
    if not 0 <= human < n:
        raise UsageError(f"--human must be a seat 0-{n - 1}, got {human}")
    level = args.level or "normal"
    if getattr(args, "setup", False):
        interactive = sys.stdin is not None and sys.stdin.isatty()
        try:
            rules, level = setup_screen(_Console(interactive, t), t, rules, level)
        except _Quit:
            return 0
    bots = _other_bots(args.bots, n, human) if args.bots else [level] * n
    session = _save.Session(
        seed=seed,
        human=human,
        level=level,
        bots=tuple(bots),
        names=None if names is None else tuple(names),
        max_deals=args.max_deals,
        auto_lone=bool(args.auto_lone),
    )
    path = None if args.no_save else Path(args.save) if args.save else _save.default_path(seed)
    return _start(args, t, rules, session, path, ())


def resume_human(args: argparse.Namespace, t: Translator) -> int:
    """``gongzhu play --resume FILE``: the saved match, from where it stopped."""
    session, record = _save.read(args.resume)
    if args.auto_lone:
        session = _save.Session(**{**_asdict(session), "auto_lone": True})
    path = None if args.no_save else Path(args.save) if args.save else Path(args.resume)
    return _start(args, t, record.rules, session, path, record.rounds)


def _asdict(session: _save.Session) -> dict[str, Any]:
    import attrs

    return attrs.asdict(session, recurse=False)


def _start(
    args: argparse.Namespace,
    t: Translator,
    rules: Any,
    session: _save.Session,
    path: Path | None,
    rounds: Sequence[Any],
) -> int:
    human = session.human
    shown = list(session.names) if session.names else compass_names(t, rules, human)
    place = safe(shown[human])
    shown[human] = t.gettext("{name} (you)").format(name=shown[human])
    interactive = sys.stdin is not None and sys.stdin.isatty()
    game = _Game(t, rules, Seats(shown), human, session, _Console(interactive, t))
    game.place = place
    game.path = path
    game.record_names = session.names or tuple(compass_names(Translator(), rules, human))
    return game.play_match(args, rounds)


class _Game:
    def __init__(
        self,
        t: Translator,
        rules: Any,
        seats: Seats,
        human: int,
        session: _save.Session,
        console: _Console,
    ) -> None:
        self.t = t
        self.rules = rules
        self.seats = seats
        self.human = human
        self.session = session
        self.console = console
        self.say = console.say
        self.place = seats[human]
        self.path: Path | None = None
        self.record_names: Sequence[str] | None = None
        self.rounds: list[Any] = []  # the complete deals
        self.rnd: Any = None  # the deal being played
        self.number = 0
        self.autopilot = False  # "auto deal": the level's bot plays the rest of the deal
        self._analysis: tuple[Any, Any] | None = None  # (view, the advisor's analysis)
        self._exposures_shown = False

    # -- bots and saving ---------------------------------------------------------------

    def bot(self, seat: int, rnd: Any) -> Any:
        """A fresh bot for this decision of ``seat`` (the level's bot for the person's seat)."""
        name = self.session.level if seat == self.human else self.session.bots[seat]
        return make_bot(name, decision_seed(self.session.seed, self.number, len(rnd.history), seat))

    def advance(self, rnd: Any) -> Any:
        """``rnd`` is the state now: remember it and save the match."""
        self.rnd = rnd
        self.save()
        return rnd

    def save(self) -> None:
        if self.path is None or self.rnd is None:
            return
        rounds = [*self.rounds, self.rnd] if self.rnd is not None else self.rounds
        try:
            _save.write(self.path, self.session, rounds, self.record_names)
        except OSError as exc:
            self.path = None  # say it once, then play on unsaved
            self.say(
                "  "
                + self.t.gettext(
                    "Cannot save the match ({error}); playing on without saving."
                ).format(error=safe(exc.strerror or exc))
            )

    # -- the match -----------------------------------------------------------------

    def play_match(self, args: argparse.Namespace, resumed: Sequence[Any]) -> int:
        from gongzhu.ai.strategies import _deal_seed
        from gongzhu.dealing import deal
        from gongzhu.match import Match

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
                seed=session.seed,
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
        match = Match(rules, session.names)
        complete = [r for r in resumed if r.is_complete]
        match = match.extend(complete) if complete else match
        self.rounds = list(complete)
        unfinished = next((r for r in resumed if not r.is_complete), None)
        if self.path is not None:
            if resumed:
                self.say(
                    t.gettext("Resuming from {path}: deal {n}.").format(
                        path=safe(self.path), n=len(self.rounds) + (1 if unfinished else 0)
                    )
                )
            else:
                self.say(t.gettext("Saving the match to {path}.").format(path=safe(self.path)))
        quit_early = False
        if match.is_over and unfinished is None:
            # A save of a finished match: its end, as it was shown.
            self.say(table(t, match, self.seats))
            self.say(standings(t, match, self.seats))
        try:
            while not match.is_over and len(self.rounds) < session.max_deals:
                self.number = len(self.rounds) + 1
                start = deal(
                    rules,
                    seed=_deal_seed(session.seed, self.number),
                    leader=match.next_leader,
                    dealer=match.dealer,
                )
                rnd = unfinished if unfinished is not None else start
                unfinished = None
                self.rnd = rnd
                self.save()
                rnd = self.play_deal(rnd, start, match)
                before = match.totals
                match = match.add(rnd)
                self.rounds.append(rnd)
                self.rnd = None
                self.deal_over(rnd, before, match)
        except _Quit as stop:
            quit_early = True
            self.say()
            n = len(self.rounds)
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
            if self.rounds:
                self.say(table(t, match, self.seats))
        except KeyboardInterrupt:
            self.say()
            self.resume_note()
            raise
        if quit_early:
            self.resume_note()
        elif not match.is_over:
            n = len(self.rounds)
            self.say(
                t.ngettext(
                    "(stopped after {n} deal: --max-deals)",
                    "(stopped after {n} deals: --max-deals)",
                    n,
                ).format(n=n)
            )
        if args.record and self.rounds:
            write_record(t, args.record, self.rounds, self.record_names)
        return 0

    def resume_note(self) -> None:
        if self.path is None:
            return
        self.save()
        self.say(
            self.t.gettext("The match is saved: gongzhu play --resume {path}").format(
                path=safe(self.path)
            )
        )

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

    def play_deal(self, rnd: Any, start: Any, match: Any) -> Any:
        from gongzhu.phase import Phase

        t, seats = self.t, self.seats
        self.match = match
        self.autopilot = False
        self.say()
        self.say(
            t.gettext("== Deal {number}: {dealer} deals, {leader} leads.").format(
                number=self.number, dealer=seats[rnd.dealer], leader=seats[rnd.leader]
            )
        )
        if rnd.phase is Phase.EXPOSURE:
            rnd = self.exposure(rnd, start)
        while not rnd.is_complete:
            seat = rnd.to_act
            done = len(rnd.tricks)
            if seat == self.human:
                rnd = self.human_turn(rnd)
            else:
                view = rnd.view(seat)
                card = self.bot(seat, rnd).choose_play(view, view.legal_plays)
                rnd = rnd.play(card, seat=seat)
            self.advance(rnd)
            if len(rnd.tricks) > done:
                trick = rnd.tricks[-1]
                self.say(
                    t.gettext("  Trick {k}: {trick}").format(
                        k=len(rnd.tricks), trick=trick_line(t, trick, seats)
                    )
                )
        return rnd

    # -- exposure ------------------------------------------------------------------------

    def exposure(self, rnd: Any, start: Any) -> Any:
        """Every seat decides once (RULES.md §9.1): the bots from their views, the person asked."""
        from gongzhu.rules import ExposureOrder

        n = rnd.players
        order = [(rnd.leader + k) % n for k in range(n)]
        in_turn = self.rules.exposure_order is ExposureOrder.IN_TURN
        # Simultaneous means sealed (§9.2): every bot decides from its view of the deal
        # before any decision (the deal as dealt, also when resumed half-way), and the
        # person does not see theirs until all have decided.
        sealed = {
            seat: self.bot(seat, start).choose_exposure(start.view(seat))
            for seat in order
            if seat != self.human and not in_turn and seat not in rnd.exposure_decided
        }
        for seat in order:
            if seat in rnd.exposure_decided:
                continue
            if seat == self.human:
                rnd = self.advance(self.ask_exposure(rnd))
                continue
            cards = (
                sealed[seat] if not in_turn else self.bot(seat, rnd).choose_exposure(rnd.view(seat))
            )
            rnd = self.advance(rnd.expose(cards, seat=seat))
            if in_turn:
                self.say(self._decision_text(seat, cards))
        self.say(self._exposed_text(rnd))
        self._exposures_shown = True  # the first table need not repeat them
        return rnd

    def _decision_text(self, seat: int, cards: Any) -> str:
        t = self.t
        if cards:
            return "  " + t.gettext("{who} exposes {cards}.").format(
                who=self.seats[seat], cards=t.cards(cards)
            )
        return "  " + t.gettext("{who} exposes nothing.").format(who=self.seats[seat])

    def _exposed_text(self, rnd: Any) -> str:
        return "  " + self.t.gettext("Exposed: {what}").format(
            what=exposure_text(self.t, rnd, self.seats)
        )

    def _restriction_text(self) -> str | None:
        from gongzhu.rules import ExposureRestriction

        restriction = self.rules.exposure_restriction
        t = self.t
        if restriction is ExposureRestriction.FIRST_TRICK_OF_SUIT:
            return t.gettext(
                "An exposed card may not be played to the first trick of its suit while you "
                "hold another card of that suit."
            )
        if restriction is ExposureRestriction.FIRST_TRICK_OF_DEAL:
            return t.gettext("No exposed card may be played to the first trick of the deal.")
        return None

    def ask_exposure(self, rnd: Any) -> Any:
        from gongzhu.errors import CardParseError, IllegalActionError
        from gongzhu.rules import ExposureKind
        from gongzhu.scoring import exposure_preview

        t, rules, human = self.t, self.rules, self.human
        view = rnd.view(human)
        if rules.blind_exposure and view.first_dealt in rules.exposable and not rnd.exposed:
            rnd = self.advance(self.ask_blind(rnd))
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
            line = f"    {card.code:3} " + t.gettext("{card}: {effect}").format(
                card=t.card_name(card), effect=effect
            )
            if face_down_up:
                down = t.preview(exposure_preview(card, rules, factor=2))
                line += t.gettext("; face down: {preview}").format(preview=down)
            self.say(line)
        restriction = self._restriction_text()
        if restriction:
            self.say("  " + restriction)
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
            if word in _AUTO_SHORT:
                self.say("  " + t.gettext("Type auto in full to let the computer decide."))
                continue
            face_down = False
            if word in _PASS:
                chosen: Any = ()
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

    # -- the level's bot as adviser: hint and auto agree -------------------------------

    def advisor(self, view: Any) -> Any:
        return self.bot(self.human, self.rnd)

    def _play_analysis(self, view: Any) -> Any:
        """The advisor's analysis of ``view`` (cached: hint then auto computes it once)."""
        if self._analysis is not None and self._analysis[0] == view:
            return self._analysis[1]
        bot = self.advisor(view)
        analyse = getattr(bot, "analyse", None)
        analysis = analyse(view) if analyse is not None and len(view.legal_plays) > 1 else None
        self._analysis = (view, analysis)
        return analysis

    def play_advice(self, view: Any) -> Any:
        """The card ``auto`` plays: the level's bot's choice (the top of its hint)."""
        analysis = self._play_analysis(view)
        if analysis is not None:
            return analysis.best.card
        return self.advisor(view).choose_play(view, view.legal_plays)

    def exposure_advice(self, view: Any) -> Any:
        bot = self.advisor(view)
        analyse = getattr(bot, "analyse_exposure", None)
        if analyse is not None:
            return analyse(view).best.cards
        return bot.choose_exposure(view)

    def exposure_hint(self, view: Any) -> str:
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

    def hint(self, view: Any) -> str:
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

    def human_turn(self, rnd: Any) -> Any:
        from gongzhu.errors import CardParseError, IllegalActionError

        t = self.t
        view = rnd.view(self.human)
        legal = view.legal_plays
        self.show_table(view)
        if self.autopilot or (self.session.auto_lone and len(legal) == 1):
            card = self.play_advice(view) if len(legal) > 1 else legal.cards[0]
            self.say("  " + t.gettext("You play {card}.").format(card=t.card(card)))
            return rnd.play(card, seat=self.human)
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
            if word in _COUNT:
                self.show_count(view)
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
                return rnd.play(card, seat=self.human)
            except IllegalActionError as exc:
                # One line: the refusal with its reason, and what may be played instead.
                allowed = t.gettext(" (you may play {cards})").format(cards=t.cards(legal))
                self.say("  " + t.refusal(exc, who=t.gettext("you")) + allowed)

    # -- what the person sees ------------------------------------------------------------------

    def show_table(self, view: Any) -> None:
        t, seats = self.t, self.seats
        trick = view.current_trick
        number = len(view.tricks) + 1
        # Exposed cards stay on the table all deal (as on source 001's plates).
        just_shown, self._exposures_shown = self._exposures_shown, False
        if (view.exposed or any(view.face_down_counts)) and not just_shown:
            self.say(self._exposed_text_view(view))
        if not trick.cards:
            self.say(t.gettext("Trick {k}: you lead.").format(k=number))
            return
        played = t.gettext(", ").join(
            t.gettext("{who} {card}").format(
                who=seats[s], card=self.console.paint(t.card(c), c.suit.is_red)
            )
            for s, c in zip(trick.seats, trick.cards, strict=True)
        )
        winning = trick.winning_seat
        self.say(
            t.gettext("Trick {k}: {played}; {who} is winning; your turn.").format(
                k=number, played=played, who=seats[winning] if winning is not None else "?"
            )
        )

    def _exposed_text_view(self, view: Any) -> str:
        t, seats = self.t, self.seats
        parts = [
            t.gettext("{cards} by {who}").format(cards=t.cards(cards), who=seats[seat])
            for seat, cards in enumerate(view.exposures)
            if cards
        ]
        for seat, hidden in enumerate(view.face_down_counts):
            if hidden:
                parts.append(
                    t.ngettext("{n} face down by {who}", "{n} face down by {who}", hidden).format(
                        n=hidden, who=seats[seat]
                    )
                )
        return "  " + t.gettext("Exposed: {what}").format(what=t.gettext(", ").join(parts))

    def show_points(self, view: Any) -> None:
        """Each seat's point cards with what they are worth so far, the totals, the threshold."""
        t, seats = self.t, self.seats
        so_far = view.deal_score()
        self.say("  " + t.gettext("This deal so far (point cards taken, their value):"))
        for seat, cards in enumerate(view.captured_points):
            pile = t.cards(cards) if cards else t.gettext("no point cards yet")
            value = "" if so_far is None else f"  {so_far.totals[seat]:+d}"
            line = t.gettext("{who}: {cards}").format(who=seats[seat], cards=pile)
            self.say("    " + line + value)
        match = getattr(self, "match", None)
        if match is not None:
            totals = t.gettext(", ").join(
                t.gettext("{who} {total}").format(who=seats[s], total=match.totals[s])
                for s in range(len(seats))
            )
            self.say("  " + t.gettext("Totals before this deal: {totals}").format(totals=totals))
            gap = threshold_gap(t, self.rules, match.totals, seats)
            if gap:
                self.say("  " + gap)

    def show_count(self, view: Any) -> None:
        """The hearts not yet seen, and the suits each seat is known to be out of."""
        from gongzhu.cards import Suit

        t, seats = self.t, self.seats
        out = view.unseen_in(Suit.HEARTS)
        self.say(
            "  "
            + t.ngettext(
                "{n} heart still out: {cards}", "{n} hearts still out: {cards}", len(out)
            ).format(n=len(out), cards=t.cards(out) if out else "-")
        )
        voids = [
            t.gettext("{who}: no {suits}").format(
                who=seats[s],
                suits=t.gettext(", ").join(t.suit(x) for x in sorted(v, key=lambda x: x.value)),
            )
            for s, v in enumerate(view.known_voids)
            if v and s != self.human
        ]
        text = "; ".join(voids) if voids else t.gettext("none yet")
        self.say("  " + t.gettext("Known voids: {voids}").format(voids=text))

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


# -- the start screen (source 001's switches before the first deal) -------------------------


def setup_screen(console: _Console, t: Translator, rules: Any, level: str) -> tuple[Any, str]:
    """Let the player switch the end score, the sign swap, exposure and the level; then play.

    Each number cycles its line; an empty answer (or ``start``) starts the match.
    """
    from gongzhu.cli._common import LEVELS
    from gongzhu.cli._show import _points
    from gongzhu.rules import RuleSet

    base = rules
    ends = [(-1000, 1000), (-500, 500), (base.loss_threshold, base.win_threshold)]
    ends = list(dict.fromkeys(ends))
    end = ends.index((base.loss_threshold, base.win_threshold))
    exposing = bool(base.exposable)
    full_exposable = base.exposable if exposing else RuleSet().exposable

    def on_off(flag: bool) -> str:
        return t.gettext("on") if flag else t.gettext("off")

    while True:
        loss, win = ends[end]
        points = t.gettext(" or ").join(_points(v) for v in (loss, win) if v is not None)
        console.say(t.gettext("Before the match (type a number to change it, Enter to start):"))
        console.say("  1. " + t.gettext("end of the match: {points}").format(points=points or "-"))
        console.say(
            "  2. "
            + t.gettext("sign swap (猪羊变色): {state}").format(state=on_off(rules.sign_swap))
        )
        console.say("  3. " + t.gettext("exposure (亮牌): {state}").format(state=on_off(exposing)))
        console.say(
            "  4. "
            + t.gettext("computer players: {level}").format(level=t.gettext(BOT_TITLES[level]))
        )
        answer = console.ask(t.gettext("Change which (1-4), or Enter to start > ")).lower()
        if answer in ("", "start", "开始", "s"):
            return rules, level
        if answer == "1":
            end = (end + 1) % len(ends)
            loss, win = ends[end]
            rules = rules.replace(loss_threshold=loss, win_threshold=win)
        elif answer == "2":
            rules = rules.replace(sign_swap=not rules.sign_swap)
        elif answer == "3":
            exposing = not exposing
            rules = rules.replace(exposable=full_exposable if exposing else ())
        elif answer == "4":
            level = LEVELS[(LEVELS.index(level) + 1) % len(LEVELS)] if level in LEVELS else "normal"
        else:
            console.say("  " + t.gettext("Type 1, 2, 3 or 4, or just Enter to start."))


# -- cards as a player types them ----------------------------------------------------------


@functools.cache
def _card_words() -> dict[str, Any]:
    """Every way the output writes a card, lower-cased, in every shipped language."""
    from gongzhu.cards import DECK
    from gongzhu.i18n import LANGUAGES

    words: dict[str, Any] = {}
    for tr in (Translator(lang) for lang in LANGUAGES):
        for card in DECK:
            words[tr.card(card).lower()] = card
            words[tr.card_name(card).lower()] = card
            words[f"{tr.suit(card.suit)}{card.rank.symbol}".lower()] = card
            nickname = tr.nickname(card)
            if nickname:
                words[nickname.lower()] = card
    # The players' own short names for the special cards (猪 the pig, 羊 the sheep, ...).
    for word, code in _NICKNAMES.items():
        words[word] = code
    return words


_NICKNAMES = {
    "猪": "QS", "羊": "JD", "变压器": "10C", "豬": "QS", "變壓器": "10C",
    "pig": "QS", "sheep": "JD", "transformer": "10C",
}  # fmt: skip


def parse_typed_card(t: Translator, text: str) -> Any:
    """A card as typed: a code (QS, 10h, Q♠), as shown (梅花9, 黑桃Q) or a nickname (猪)."""
    from gongzhu.cards import Card
    from gongzhu.errors import CardParseError

    try:
        return Card.parse(text)
    except CardParseError:
        pass
    key = "".join(text.split()).lower()
    found = _card_words().get(key)
    if found is None:
        raise CardParseError(f"not a card: {text[:24]!r}", token=text[:24])
    return Card.parse(found) if isinstance(found, str) else found


def parse_typed_cards(t: Translator, text: str) -> Any:
    """Cards as typed, separated by spaces or commas (also ， and 、)."""
    from gongzhu.cards import CardSet

    parts = [p for p in text.replace("，", " ").replace("、", " ").replace(",", " ").split() if p]
    return CardSet(parse_typed_card(t, part) for part in parts)


def rules_title(t: Translator, rules: Any) -> str:
    """The rule set as the start line names it: the preset's title, with any changes."""
    from gongzhu.cli.rules import PRESET_TITLES

    name = rules.nearest_name()
    preset, sep, changes = name.partition(" + ")
    title = t.gettext(PRESET_TITLES[preset]) if preset in PRESET_TITLES else preset
    return title + (sep + changes if sep else "")
