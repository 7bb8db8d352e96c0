"""A small Gong Zhu game in the terminal: you (seat 0) against three bots.

Run it with ``python examples/terminal_game.py [SEED]``. Type a card to play
it (``QS``, ``10h``, ``Q♠``), an empty line or ``auto`` to let a bot choose
for you, ``hand`` to see your hand again, ``quit`` to stop. Before the first
trick you may expose cards (seeds/000 §06): type them (``QS JD``), or an empty
line for none. At the end of input (Ctrl-D) the game stops cleanly, so the
script can be driven from a file: ``python examples/terminal_game.py <
examples/terminal_game.stdin``.
"""

from __future__ import annotations

import sys

from gongzhu import (
    CardParseError,
    CardSet,
    IllegalActionError,
    Phase,
    Round,
    RuleOfThumbStrategy,
    Suit,
    deal,
    parse_cards,
)

YOU = 0
NAMES = ("You", "West", "North", "East")


class _Quit(Exception):
    pass


def ask(prompt: str) -> str:
    """One line of input; EOF and ``quit`` end the game. Echoed when not typed at a terminal."""
    try:
        line = input(prompt)
    except EOFError:
        print()
        raise _Quit from None
    if not sys.stdin.isatty():
        print(line)
    if line.strip().lower() in ("quit", "q", "exit"):
        raise _Quit
    return line.strip()


def show_hand(hand: CardSet) -> None:
    for suit in reversed(Suit):
        print(f"    {suit.symbol} {' '.join(c.rank.symbol for c in hand.of_suit(suit)) or '-'}")


def exposure_window(rnd: Round, bot: RuleOfThumbStrategy) -> Round:
    you = rnd.view(YOU)
    print("Your hand:")
    show_hand(you.hand)
    preview = {p.card: str(p) for p in you.exposure_previews}
    if preview:
        print("You may expose (it doubles the card's effect):")
        for card, effect in preview.items():
            print(f"    {card}: {effect}")
        while True:
            line = ask("Expose which cards? (empty: none, auto: the bot's advice) > ")
            try:
                chosen = bot.choose_exposure(you) if line.lower() == "auto" else parse_cards(line)
                rnd = rnd.expose(chosen, seat=YOU)
                break
            except (CardParseError, IllegalActionError) as exc:
                print(f"  {exc}")
    else:
        rnd = rnd.expose((), seat=YOU)  # every seat decides; an empty exposure declines
    for seat in range(1, 4):
        rnd = rnd.expose(bot.choose_exposure(rnd.view(seat)), seat=seat)
    print(f"Exposed: {describe_exposures(rnd)}\n")
    return rnd


def describe_exposures(rnd: Round) -> str:
    parts = [f"{cards} ({NAMES[seat]})" for seat, cards in enumerate(rnd.exposures) if cards]
    return ", ".join(parts) or "nothing"


def your_turn(rnd: Round, bot: RuleOfThumbStrategy) -> Round:
    view = rnd.view(YOU)
    table = " ".join(
        f"{NAMES[s]}:{c}"
        for s, c in zip(view.current_trick.seats, view.current_trick.cards, strict=True)
    )
    print(f"Trick {rnd.trick_number}. On the table: {table or 'nothing (you lead)'}")
    print(f"  your legal plays: {view.legal_plays}")
    while True:
        line = ask("Your card (empty: auto) > ")
        if line.lower() == "hand":
            show_hand(view.hand)
            continue
        if line == "" or line.lower() == "auto":
            card = bot.choose_play(view, view.legal_plays)
            print(f"  the bot plays {card} for you")
            return rnd.play(card, YOU)
        try:
            return rnd.play(line, YOU)
        except (CardParseError, IllegalActionError) as exc:
            print(f"  not that one: {exc}")


def play(seed: int) -> None:
    bot = RuleOfThumbStrategy()
    rnd = deal(seed=seed)
    print(f"Gong Zhu, classic rules, deal seed {seed}. You are seat 0 ({NAMES[0]}).")
    leader = rnd.to_act
    who = "You hold" if leader == YOU else f"{NAMES[leader or 0]} holds"
    print(f"{who} {rnd.rules.opening_card} and lead{'' if leader == YOU else 's'}.\n")
    if rnd.phase is Phase.EXPOSURE:
        rnd = exposure_window(rnd, bot)
    while not rnd.is_over:
        seat = rnd.to_act
        assert seat is not None
        if seat == YOU:
            rnd = your_turn(rnd, bot)
        else:
            view = rnd.view(seat)
            rnd = rnd.play(bot.choose_play(view, view.legal_plays), seat)
        if not rnd.current_trick.cards and rnd.tricks:
            trick = rnd.tricks[-1]
            points = f", points {trick.points}" if trick.points else ""
            winner = NAMES[trick.winner] if trick.winner is not None else "?"
            cards = " ".join(
                f"{NAMES[s]}:{c}" for s, c in zip(trick.seats, trick.cards, strict=True)
            )
            print(f"  {cards} → {winner}{points}\n")
    result = rnd.score()
    print("The deal is over.")
    for player in result.players:
        print(player.sheet().replace(f"seat {player.seat}:", f"{NAMES[player.seat]}:", 1))
    ranking = sorted(range(4), key=lambda s: -result.totals[s])
    print("Deal scores: " + ", ".join(f"{NAMES[s]} {result.totals[s]}" for s in ranking))


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    try:
        while True:
            play(seed)
            if ask("Another deal? [y/N] > ").lower() not in ("y", "yes"):
                break
            seed += 1
    except _Quit:
        pass
    print("Bye!")


if __name__ == "__main__":
    main()
