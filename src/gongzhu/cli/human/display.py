"""What the table shows: exposures, the table, points, the card count and the hand.
Part of :mod:`gongzhu.cli.human`: the game holds one :class:`_Display`, built with what it
shows through (the translator, the seats' names, the console).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from gongzhu.cli._common import pad
from gongzhu.cli._show import Seats, exposure_text, threshold_gap
from gongzhu.cli.human.console import _Console
from gongzhu.i18n import Translator

if TYPE_CHECKING:
    from gongzhu.cards import Card, CardSet
    from gongzhu.round import Round
    from gongzhu.rules import RuleSet
    from gongzhu.table import Table
    from gongzhu.view import PlayerView


class _Display:
    """The game's output: what it shows of a round, a view or the match, on the console."""

    def __init__(
        self, t: Translator, rules: RuleSet, seats: Seats, human: int, console: _Console
    ) -> None:
        self.t = t
        self.rules = rules
        self.seats = seats
        self.human = human
        self.console = console
        self.say: Callable[..., None] = console.say
        # Set when the exposures were just listed: the first table need not repeat them.
        self.exposures_shown = False

    def decision_text(self, seat: int, cards: Iterable[Card]) -> str:
        t = self.t
        if cards:
            return "  " + t.gettext("{who} exposes {cards}.").format(
                who=self.seats[seat], cards=t.cards(cards)
            )
        return "  " + t.gettext("{who} exposes nothing.").format(who=self.seats[seat])

    def exposed_text(self, rnd: Round) -> str:
        return "  " + self.t.gettext("Exposed: {what}").format(
            what=exposure_text(self.t, rnd, self.seats)
        )

    def restriction_text(self) -> str | None:
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

    def show_table(self, view: PlayerView) -> None:
        t, seats = self.t, self.seats
        trick = view.current_trick
        number = len(view.tricks) + 1
        # Exposed cards stay on the table all deal (as on source 001's plates).
        just_shown, self.exposures_shown = self.exposures_shown, False
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

    def _exposed_text_view(self, view: PlayerView) -> str:
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

    def show_points(self, view: PlayerView, table: Table) -> None:
        """Each seat's point cards with what they are worth so far, the totals before this
        deal (``table``'s match) and the threshold."""
        t, seats = self.t, self.seats
        so_far = view.deal_score()
        self.say("  " + t.gettext("This deal so far (point cards taken, their value):"))
        for seat, cards in enumerate(view.captured_points):
            pile = t.cards(cards) if cards else t.gettext("no point cards yet")
            value = "" if so_far is None else f"  {so_far.totals[seat]:+d}"
            line = t.gettext("{who}: {cards}").format(who=seats[seat], cards=pile)
            self.say("    " + line + value)
        match = table.match  # the deal in progress is not in it yet
        if not table.round.is_over:
            totals = t.gettext(", ").join(
                t.gettext("{who} {total}").format(who=seats[s], total=match.totals[s])
                for s in range(len(seats))
            )
            self.say("  " + t.gettext("Totals before this deal: {totals}").format(totals=totals))
            gap = threshold_gap(t, self.rules, match.totals, seats)
            if gap:
                self.say("  " + gap)

    def show_count(self, view: PlayerView) -> None:
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

    def show_hand(self, view: PlayerView, legal: CardSet | None) -> None:
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
