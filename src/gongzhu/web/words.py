"""A refused card in a player's words: "Follow suit: play a club", "Lead the 2♣ first".

The engine refuses with a machine-readable :class:`~gongzhu.Reason` (and the
seat and card); :meth:`Translator.refusal <gongzhu.i18n.Translator.refusal>`
renders it for logs and the terminal ("seat 0 may not play 4♠: must follow
suit"). The web table speaks to the person at the seat: it never names a seat
number, it names the suit to follow or the opening card, and it speaks in the
page's language. The sentences live in the same gettext catalogues as every
other message (``tools/i18n.sh``).

>>> from gongzhu import RuleSet, deal
>>> r = deal(rules=RuleSet.preset("online"), seed=1).pass_exposure()
>>> seat = r.to_act
>>> other = next(c for c in r.hands[seat] if c.code != "2C")
>>> try:
...     r.play(other, seat=seat)
... except IllegalActionError as error:
...     print(player_refusal(error, r, "en"))
...     print(player_refusal(error, r, "zh"))
Lead the 2♣ first.
第一墩必须先出梅花2。
"""

from __future__ import annotations

from typing import Any, Final

from gongzhu.cards import Card, Suit
from gongzhu.errors import IllegalActionError, Reason
from gongzhu.i18n import N_, translator

__all__ = ["player_refusal"]

_FOLLOW: Final = {
    Suit.CLUBS: N_("Follow suit: play a club (not the {card})."),
    Suit.DIAMONDS: N_("Follow suit: play a diamond (not the {card})."),
    Suit.HEARTS: N_("Follow suit: play a heart (not the {card})."),
    Suit.SPADES: N_("Follow suit: play a spade (not the {card})."),
}
_HELD_BACK: Final = {
    Suit.CLUBS: N_(
        "Your exposed {card} cannot go on the first club trick while you hold other clubs."
    ),
    Suit.DIAMONDS: N_(
        "Your exposed {card} cannot go on the first diamond trick while you hold other diamonds."
    ),
    Suit.HEARTS: N_(
        "Your exposed {card} cannot go on the first heart trick while you hold other hearts."
    ),
    Suit.SPADES: N_(
        "Your exposed {card} cannot go on the first spade trick while you hold other spades."
    ),
}
_LEAD_OPENING: Final = N_("Lead the {card} first.")
_WORDS: Final = {
    Reason.NOT_YOUR_TURN: N_("Wait for your turn."),
    Reason.NOT_IN_HAND: N_("That card is not in your hand."),
    Reason.HEARTS_NOT_BROKEN: N_("Hearts have not been broken yet: lead another suit."),
    Reason.HEARTS_LOCKED: N_("The exposed A♥ locks the hearts: lead another suit."),
    Reason.WRONG_PHASE: N_("You cannot do that now."),
    Reason.EXPOSURE_OFF: N_("Exposure is not played at this table."),
    Reason.NOT_EXPOSABLE: N_("That card may not be exposed."),
    Reason.ALREADY_EXPOSED: N_("That card is already exposed."),
    Reason.EXPOSURE_OUT_OF_TURN: N_("It is not your turn to expose."),
    Reason.EXPOSURE_PENDING: N_("Wait: everyone decides on exposure first."),
    Reason.ALREADY_DECIDED: N_("You have already decided on exposure."),
}


def player_refusal(error: IllegalActionError, rnd: Any, lang: str = "en") -> str:
    """``error`` as the person at its seat reads it, in ``lang``; ``rnd`` is the round it was
    refused in (its trick says which suit was led, its rules which card opens)."""
    t = translator(lang)
    card = Card.from_index(error.card.index) if error.card is not None else None
    shown = t.card(card) if card is not None else ""
    reason = error.reason
    if reason is Reason.MUST_FOLLOW_SUIT:
        led = getattr(rnd, "led_suit", None)
        if isinstance(led, Suit):
            return t.gettext(_FOLLOW[led]).format(card=shown)
    elif reason is Reason.EXPOSED_CARD_HELD_BACK and card is not None:
        return t.gettext(_HELD_BACK[card.suit]).format(card=shown)
    elif reason is Reason.MUST_LEAD_OPENING_CARD:
        opening = rnd.rules.opening_card
        return t.gettext(_LEAD_OPENING).format(card=t.card(opening) if opening else "")
    elif reason in _WORDS:
        return t.gettext(_WORDS[reason])
    phrase = t.reason(reason)
    return phrase[:1].upper() + phrase[1:] + ("" if phrase.endswith(".") else ".")
