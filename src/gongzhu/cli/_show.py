"""Text the commands print about deals and matches: headers, sheets, notes, tables, standings.

Everything goes through a :class:`~gongzhu.i18n.Translator`, and every name a
record or a user supplies goes through :func:`~gongzhu.cli._common.safe`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gongzhu.cli._common import pad, safe, width
from gongzhu.i18n import N_, Translator

if TYPE_CHECKING:
    from gongzhu.match import Match
    from gongzhu.round import Round
    from gongzhu.rules import RuleSet
    from gongzhu.scoring import DealScore


class Seats:
    """The names the output gives the seats (already safe for a terminal)."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(safe(name) for name in names)

    def __getitem__(self, seat: int) -> str:
        return self.names[seat]

    def __len__(self) -> int:
        return len(self.names)

    @classmethod
    def numbered(cls, t: Translator, players: int) -> Seats:
        return cls([t.seat(s) for s in range(players)])

    @classmethod
    def of(
        cls,
        t: Translator,
        players: int,
        names: Sequence[str] | None,
        *,
        rules: RuleSet | None = None,
    ) -> Seats:
        """The given names, else (given ``rules``) compass names with seat 0 South."""
        if names:
            return cls(names)
        if rules is not None:
            return cls(compass_names(t, rules, 0))
        return cls.numbered(t, players)


# Compass seats around a four-player table, starting from the anchor (who sits South)
# and going round in the direction of play: counter-clockwise South → East → North →
# West (seeds/000, 002); clockwise South → West → North → East (seeds/001: "Вы →
# Запад → Север → Восток").
_COMPASS = {
    "counter-clockwise": (N_("South"), N_("East"), N_("North"), N_("West")),
    "clockwise": (N_("South"), N_("West"), N_("North"), N_("East")),
}


# The rule set's direction words, as the output shows them.
_DIRECTIONS = (N_("clockwise"), N_("counter-clockwise"))


def compass_names(t: Translator, rules: RuleSet, anchor: int) -> list[str]:
    """A name per seat, the anchor seat South, the others by the rule set's direction of play.

    With other than four players the seats are numbered instead.
    """
    n = rules.players
    if n != 4:
        return [t.seat(s) for s in range(n)]
    order = _COMPASS[rules.direction.value]
    return [t.gettext(order[(s - anchor) % n]) for s in range(n)]


def exposure_text(t: Translator, rnd: Round, seats: Seats) -> str:
    parts = [
        t.gettext("{cards} by {who}").format(cards=t.cards(cards), who=seats[seat])
        for seat, cards in enumerate(rnd.exposures)
        if cards
    ]
    if rnd.face_down:
        # How many each seat declared face down is public; which cards is not (specification §9.3).
        for seat, hidden in enumerate(rnd.view(0).face_down_counts):
            if hidden:
                parts.append(
                    t.ngettext("{n} face down by {who}", "{n} face down by {who}", hidden).format(
                        n=hidden, who=seats[seat]
                    )
                )
    return t.gettext(", ").join(parts) if parts else t.gettext("nothing")


def deal_header(t: Translator, number: int, rnd: Round, seats: Seats) -> str:
    leader = rnd.tricks[0].leader if rnd.tricks else rnd.leader
    seed = rnd.seed
    text = t.gettext("== Deal {number}: dealer {dealer}, lead {leader}").format(
        number=number, dealer=seats[rnd.dealer], leader=seats[leader]
    )
    if seed is not None:
        text += t.gettext(", seed {seed}").format(seed=_short(safe(seed)))
    return text + t.gettext("; exposed: {exposed}").format(exposed=exposure_text(t, rnd, seats))


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def sheets(t: Translator, score: DealScore, before: Sequence[int], seats: Seats) -> str:
    """Every seat's seven-line sheet, each headed by the seat's name and captured cards."""
    return "\n".join(t.sheet(p, before[p.seat], seats[p.seat]) for p in score.players)


def sheets_side_by_side(
    t: Translator, score: DealScore, before: Sequence[int], seats: Seats
) -> str:
    """The sheets as one table, a column per seat (fits 100 columns for 4–5 seats)."""
    players = score.players
    columns = [t.sheet_lines(p, before[p.seat]) for p in players]
    labels = [label for label, _ in columns[0]]
    for col in columns[1:]:
        for label, _ in col:
            if label not in labels:
                labels.insert(len(labels) - 2, label)
    values = [dict(col) for col in columns]
    head_width = max(width(label) for label in labels) + 1
    col_width = max(10, *(width(seats[p.seat]) + 2 for p in players))
    lines = [pad("", head_width) + "".join(_rjust(seats[p.seat], col_width) for p in players)]
    for label in labels:
        cells = "".join(_rjust(v.get(label, ""), col_width) for v in values)
        lines.append(pad(label, head_width) + cells)
    return "\n".join(lines)


def notes(t: Translator, score: DealScore, seats: Seats) -> list[str]:
    """One line per thing that made a seat's deal unusually big: exposures, all hearts, slams."""
    rules = score.rules
    out = []
    for p in score.players:
        who = seats[p.seat]
        if not p.cards:
            out.append(t.gettext("{who} took no cards: nothing to score").format(who=who))
        if p.grand_slam:
            out.append(
                t.gettext("{who} made a grand slam (满贯): every point card, {total}").format(
                    who=who, total=p.total
                )
            )
        elif p.all_hearts:
            text = t.gettext("{who} took all the hearts (全红): the hearts line is {hearts}")
            text = text.format(who=who, hearts=p.hearts)
            if rules.sign_swap and (p.pig or p.sheep):
                text += t.gettext("; the pig and the sheep changed sign (猪羊变色)")
            out.append(text)
        for card, factor in sorted(score.exposed.items(), key=lambda kv: kv[0].index):
            if card in p.cards and factor > 1:
                out.append(
                    t.gettext("{who} took the exposed {card}: its effect ×{factor}").format(
                        who=who, card=t.card_name(card), factor=factor
                    )
                )
        if p.multiplier > 1 and p.total:
            out.append(
                t.gettext("{who} took the transformer with points: the deal ×{m}").format(
                    who=who, m=p.multiplier
                )
            )
    return out


def table(t: Translator, match: Match, seats: Seats) -> str:
    """The running totals after each deal, then the state of the match (like Match.table)."""
    n = match.rules.players
    heads = [seats[s] for s in range(n)]
    col = max(6, *(width(h) + 1 for h in heads))
    deal_word = t.gettext("after deal")
    first = max(4, width(deal_word))
    lines = [pad(deal_word, first) + " " + " ".join(_rjust(h, col) for h in heads).rstrip()]
    for i, row in enumerate(match.history, 1):
        lines.append(f"{i:>{first}} " + " ".join(f"{v:>{col}}" for v in row))
    if match.rules.partnerships:
        # Only under pairs: without them team_totals is the per-seat totals (issue P1).
        team = match.team_totals
        lines.append(
            t.gettext("teams: {a}+{c} {x}, {b}+{d} {y}").format(
                a=heads[0], c=heads[2], x=team[0], b=heads[1], d=heads[3], y=team[1]
            )
        )
    lines.append(status(t, match, seats))
    return "\n".join(lines)


def _rjust(text: str, columns: int) -> str:
    return " " * max(0, columns - width(text)) + text


_END_REASONS = {
    "GRAND_SLAM": N_("grand slam"),
    "LOSS_THRESHOLD": N_("loss threshold"),
    "EXACT_FLIP": N_("exact flip"),
    "WIN_THRESHOLD": N_("win threshold"),
    "DEAL_CAP": N_("deal cap"),
}


def _points(value: int) -> str:
    return f"{value:+d}".replace("-", "−")


def threshold_text(t: Translator, rules: RuleSet) -> str:
    """When the match ends: ``Match ends at −1000 or +1000 points, or after 30 deals.``"""
    points = [_points(v) for v in (rules.loss_threshold, rules.win_threshold) if v is not None]
    limit = t.gettext(" or ").join(points)
    deals = rules.max_deals
    if points and deals is not None:
        return t.ngettext(
            "The match ends at {points} points, or after {n} deal.",
            "The match ends at {points} points, or after {n} deals.",
            deals,
        ).format(points=limit, n=deals)
    if points:
        return t.gettext("The match ends at {points} points.").format(points=limit)
    if deals is not None:
        return t.ngettext(
            "The match ends after {n} deal.", "The match ends after {n} deals.", deals
        ).format(n=deals)
    return t.gettext("The match has no end score: play as long as you like.")


def threshold_gap(t: Translator, rules: RuleSet, totals: Sequence[int], seats: Seats) -> str | None:
    """How far the seat nearest the loss (or win) threshold is from it, or None."""
    for threshold in (rules.loss_threshold, rules.win_threshold):
        if threshold is None:
            continue
        seat = min(range(len(totals)), key=lambda s: abs(threshold - totals[s]))
        return t.gettext("Nearest to {points}: {who}, {gap} points away.").format(
            points=_points(threshold), who=seats[seat], gap=abs(threshold - totals[seat])
        )
    return None


def status(t: Translator, match: Match, seats: Seats) -> str:
    def who(group: Sequence[int]) -> str:
        return t.gettext(" and ").join(seats[s] for s in group) or t.gettext("nobody")

    if match.end_reason is None:
        leader = match.next_leader
        lead = seats[leader] if leader is not None else t.gettext("the opening-card holder")
        return t.gettext("Next: deal {number}, dealer {dealer}, leader {leader}.").format(
            number=match.deal_count + 1, dealer=seats[match.dealer], leader=lead
        )
    reason = t.gettext(_END_REASONS.get(match.end_reason.name, match.end_reason.value))
    # Plainly who won and who lost the match, as Match's own text says it ("the pig", the
    # game's word for the loser, reads as the deal's Q♠ taker beside the score sheets).
    text = t.ngettext(
        "Over after {n} deal ({reason}): {winners} won the match; {losers} lost it.",
        "Over after {n} deals ({reason}): {winners} won the match; {losers} lost it.",
        match.deal_count,
    ).format(
        n=match.deal_count, reason=reason, losers=who(match.losers), winners=who(match.winners)
    )
    if match.flipped:
        text += " " + t.gettext("Flipped: {who}.").format(who=who(match.flipped))
    return text


def standings(t: Translator, match: Match, seats: Seats) -> str:
    name_width = max(10, *(width(seats[s]) for s in range(len(seats))))
    rows = [
        f"  {place}. {pad(seats[seat], name_width)} {match.totals[seat]:>6}"
        for place, seat in enumerate(match.standings(), 1)
    ]
    return t.gettext("Standings:") + "\n" + "\n".join(rows)


def trick_line(t: Translator, trick: Any, seats: Seats) -> str:
    """``2♠ South, 5♠ East, … → East`` (the winner, and the point cards taken)."""
    played = t.gettext(", ").join(
        t.gettext("{who} {card}").format(who=seats[s], card=t.card(c))
        for s, c in zip(trick.seats, trick.cards, strict=True)
    )
    text = played
    if trick.winner is not None:
        text += " → " + seats[trick.winner]
    if trick.points:
        text += f"  ({t.cards(trick.points)})"
    return text


def show_match(
    t: Translator,
    rounds: Sequence[Round],
    rules: RuleSet,
    seats: Seats,
    names: Sequence[str] | None,
    *,
    tricks: bool,
    quiet: bool,
    write: Any,
) -> Match:
    """Print each deal (header, tricks if asked, sheets, notes), then the table and standings."""
    from gongzhu.match import Match

    match = Match(rules, names)
    for number, rnd in enumerate(rounds, 1):
        if not rnd.is_over:
            if not quiet:
                write(deal_header(t, number, rnd, seats))
                write(t.gettext("   unfinished: {n} tricks played").format(n=len(rnd.tricks)))
            break
        before = match.totals
        match = match.add(rnd)
        if quiet:
            continue
        write(deal_header(t, number, rnd, seats))
        if tricks:
            for k, trick in enumerate(rnd.tricks, 1):
                write(f"  {k:>2} {trick_line(t, trick, seats)}")
        score = rnd.score()
        write(sheets(t, score, before, seats))
        for line in notes(t, score, seats):
            write("  * " + line)
        write("")
    if match.deal_count:
        write(table(t, match, seats))
        write(standings(t, match, seats))
    return match


def _pct(count: int, total: int) -> str:
    return f"{100 * count / total:.0f}%" if total else "-"


def simulation_summary(t: Translator, sim: Any) -> str:
    """:meth:`Simulation.summary <gongzhu.parallel.Simulation.summary>` in ``t``'s language.

    English is the library's own text; another language is built from the same
    counts (and falls back to the library's text if they are not there).
    """
    if t.lang == "en":
        return str(sim.summary())
    try:
        n, deals = sim.players, sim.deals
        head = t.ngettext("{n} deal", "{n} deals", deals).format(n=deals)
        if sim.matches:
            head = t.ngettext(
                "{m} match ({n} deals)", "{m} matches ({n} deals)", sim.matches
            ).format(m=sim.matches, n=deals)
        lines = [
            t.gettext("{head}, rules {rules}, seed {seed}").format(
                head=head, rules=sim.rules, seed=sim.seed
            )
        ]
        label_width = 16

        def row(label: str, values: Any) -> None:
            lines.append(pad(label, label_width) + "".join(f"{v:>8}" for v in values))

        row(t.gettext("seat"), range(n))
        row(t.gettext("mean score"), (f"{m:.1f}" for m in sim.mean_scores))
        row(t.gettext("pig taken"), (_pct(c, deals) for c in sim.pig_taken))
        row(t.gettext("sheep taken"), (_pct(c, deals) for c in sim.sheep_taken))
        row(t.gettext("10♣ taken"), (_pct(c, deals) for c in sim.transformer_taken))
        if sim.matches:
            row(t.gettext("matches lost"), sim.losses)
            row(t.gettext("matches won"), sim.wins)
        lines.append(
            t.gettext(
                "the sheep's taker won the deal in {sheep} of the deals where it was taken;"
            ).format(sheep=_pct(sim.sheep_taker_won, sim.sheep_deals))
        )
        lines.append(
            t.gettext("the pig's taker came last in {pig} of all deals").format(
                pig=_pct(sim.pig_taker_last, deals)
            )
        )
        lines.append(
            t.gettext("all hearts {a}, grand slams {g}, exposed cards {e}").format(
                a=sim.all_hearts, g=sim.grand_slams, e=sim.exposed_cards
            )
        )
        return "\n".join(lines)
    except (AttributeError, TypeError):
        return str(sim.summary())
