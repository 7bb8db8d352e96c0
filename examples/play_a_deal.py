"""Play one Gong Zhu deal step by step: views, legal plays, an illegal click explained.

Run it with ``python examples/play_a_deal.py``. Seat 0 is "you" (a
:class:`~gongzhu.bots.RuleOfThumbStrategy` bot decides for every seat). Every decision is
made from a :class:`~gongzhu.PlayerView` — what that seat may know — and a
refused card is explained with :meth:`Round.why_illegal` (RULES.md §2).
"""

from __future__ import annotations

from gongzhu import IllegalActionError, Phase, RuleOfThumbStrategy, Suit, deal

SEED = 11


def main() -> None:
    bot = RuleOfThumbStrategy()
    rnd = deal(seed=SEED)  # classic rules (seeds/000): the 2♠ holder leads
    print(f"Deal with seed {SEED}; seat {rnd.to_act} holds 2♠ and leads.\n")
    you = rnd.view(0)
    for suit in reversed(Suit):
        print(f"  your {suit.name.lower():8} {you.hand.of_suit(suit) or '-'}")

    # The exposure window (seeds/000 §06): every seat decides from its own view.
    assert rnd.phase is Phase.EXPOSURE
    print(f"\nExposable cards: {rnd.rules.exposable}. What exposing would change for you:")
    for p in you.exposure_previews:
        print(f"  {p.card}: {p}")
    if not you.exposure_previews:
        print("  -: you hold none")
    decisions = [(seat, bot.choose_exposure(rnd.view(seat))) for seat in range(4)]
    for seat, cards in decisions:  # every seat decides, an empty exposure declines
        rnd = rnd.expose(cards, seat=seat)
    print(f"Exposed: {rnd.exposed or 'nothing'}\n")

    # The first trick, one seat at a time.
    illegal_shown = False
    while rnd.trick_number == 1 and not rnd.is_over:
        seat = rnd.to_act
        assert seat is not None
        view = rnd.view(seat)
        table = " ".join(map(str, view.current_trick.cards)) or "nothing yet"
        print(f"seat {seat} to act; on the table: {table}")
        print(f"  hand:  {view.hand}")
        print(f"  legal: {view.legal_plays}")
        refused = view.hand - view.legal_plays
        if refused and not illegal_shown:
            wrong = refused.cards[-1]
            reason = rnd.why_illegal(wrong)
            assert reason is not None
            print(f"  clicking {wrong}? why_illegal says: {reason.value}")
            try:
                rnd.play(wrong)
            except IllegalActionError as exc:
                print(f"  and play() refuses it, changing nothing: {exc}")
            illegal_shown = True
        card = bot.choose_play(view, view.legal_plays)
        print(f"  plays {card}")
        rnd = rnd.play(card)
    print(f"Trick 1: {rnd.tricks[0]}\n")

    # The bots play the rest; each trick goes to the highest card of the led suit.
    while not rnd.is_over:
        seat = rnd.to_act
        assert seat is not None
        view = rnd.view(seat)
        rnd = rnd.play(bot.choose_play(view, view.legal_plays))
        if not rnd.current_trick.cards:
            trick = rnd.tricks[-1]
            points = f"   points: {trick.points}" if trick.points else ""
            print(f"Trick {len(rnd.tricks):>2}: {trick}{points}")

    print("\nThe score sheets (seeds/001's seven lines):")
    print(rnd.score().sheet())


if __name__ == "__main__":
    main()
