"""The translator of :mod:`gongzhu.i18n` and its message tables; import from :mod:`gongzhu.i18n`."""

from __future__ import annotations

import gettext
import os
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Final

from gongzhu.cards import ACE_OF_HEARTS, PIG, SHEEP, TRANSFORMER, Card, Rank, Suit
from gongzhu.errors import GongzhuError, IllegalActionError, Reason
from gongzhu.phase import Phase
from gongzhu.scoring import ExposurePreview, PlayerScore, TransformerEffect

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "LanguageError",
    "Translator",
    "card_name",
    "negotiate",
    "refusal",
    "translator",
]

DOMAIN: Final = "gongzhu"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"

DEFAULT_LANGUAGE: Final = "en"
LANGUAGES: Final[Mapping[str, str]] = {
    "en": "English",
    "zh": "简体中文",
    "ru": "Русский",
    "uk": "Українська",
    "cs": "Čeština",
}
"""The shipped languages: code → the language's own name (English has no catalogue)."""


class LanguageError(GongzhuError, ValueError):
    """A language was asked for that is not shipped (or is not text), or a translator was
    given something it cannot render (a card that is not a :class:`~gongzhu.Card`).

    >>> Translator("xx")
    Traceback (most recent call last):
    ...
    gongzhu.i18n.LanguageError: unknown language 'xx'; known: en, zh, ru, uk, cs
    """


def _check_card(card: object) -> None:
    if not isinstance(card, Card):  # a list or a Round would fail raw further in (#22 item 16)
        raise LanguageError(f"a Card, got {type(card).__name__}")


def N_(message: str) -> str:
    """Mark ``message`` for extraction; it is translated where it is shown."""
    return message


# -- the words -------------------------------------------------------------------

_SUITS: Final = {
    Suit.CLUBS: N_("clubs"),
    Suit.DIAMONDS: N_("diamonds"),
    Suit.HEARTS: N_("hearts"),
    Suit.SPADES: N_("spades"),
}
# A card's written form: "{rank}{suit}" in English (Q♠); the sources' languages
# name the suit first (黑桃Q, ♠Q in 001's Russian).
_CARD_FORM: Final = N_("{rank}{symbol}")
_NICKNAMES: Final = {
    PIG: N_("the pig"),
    SHEEP: N_("the sheep"),
    TRANSFORMER: N_("the transformer"),
}
_NICKNAMED: Final = N_("{card} ({nickname})")

_PHASES: Final = {
    Phase.EXPOSURE: N_("exposure"),
    Phase.PLAY: N_("play"),
    Phase.CLAIM: N_("claim"),
    Phase.COMPLETE: N_("complete"),
}

# Keyed by name, so a reason added to the engine shows its English phrase until
# it is translated (and the catalogue test names it).
_REASONS: Final = {
    "NOT_YOUR_TURN": N_("not your turn"),
    "NOT_IN_HAND": N_("card not in hand"),
    "MUST_FOLLOW_SUIT": N_("must follow suit"),
    "EXPOSED_CARD_HELD_BACK": N_("exposed card held back in the first trick of its suit"),
    "MUST_LEAD_OPENING_CARD": N_("the opening card must be led"),
    "HEARTS_NOT_BROKEN": N_("hearts have not been broken"),
    "HEARTS_LOCKED": N_("hearts are locked by the exposed ace of hearts"),
    "WRONG_PHASE": N_("not allowed in this phase"),
    "EXPOSURE_OFF": N_("exposure is not played"),
    "NOT_EXPOSABLE": N_("card may not be exposed"),
    "ALREADY_EXPOSED": N_("card already exposed"),
    "EXPOSURE_OUT_OF_TURN": N_("not this seat's turn to expose"),
    "NOT_FIRST_DEALT_CARD": N_("only the first card dealt may be exposed blind"),
    "CLAIMS_OFF": N_("claims are not played"),
    "NO_SUCH_SEAT": N_("no such seat"),
    "INVALID_CHOICE": N_("not a valid choice"),
    # Reasons the hardened engine adds (specification §9.1, §9.7).
    "EXPOSURE_PENDING": N_("every seat must decide on exposure before the first lead"),
    "ALREADY_DECIDED": N_("this seat has already decided on exposure"),
    "CLAIM_REFUSED": N_("this seat's claim was refused; it may claim again after another trick"),
}

_ACTIONS: Final = {
    "play": N_("{who} may not play {card}: {reason}"),
    "expose": N_("{who} may not expose {card}: {reason}"),
    "claim": N_("{who} may not claim: {reason}"),
    "respond": N_("{who} may not answer the claim: {reason}"),
}
_ACTION_NO_CARD: Final = {
    "play": N_("{who} may not play: {reason}"),
    "expose": N_("{who} may not expose: {reason}"),
}
_REFUSED_OTHER: Final = N_("{who} may not do that: {reason}")
_SEAT: Final = N_("seat {seat}")
_NOBODY: Final = N_("nobody")

_PREVIEW_NAMES: Final = {
    PIG: N_("Pig"),
    SHEEP: N_("Sheep"),
    TRANSFORMER: N_("Transformer"),
    ACE_OF_HEARTS: N_("Ace of hearts"),
}
_PREVIEW_VALUE: Final = N_("{name} {before} → {after}")
# The ace's preview names no card: it is shown after the card ("A♥: hearts ×1 → ×2").
_PREVIEW_HEARTS: Final = N_("hearts ×{before} → ×{after}")
_PREVIEW_TRANSFORMER: Final = N_("{name} ×{before} → ×{after} (alone {lone_before} → {lone_after})")

_LINES: Final = (
    N_("① hearts"),
    N_("② pig"),
    N_("③ sheep"),
    N_("④ base"),
    N_("⑤ transformer"),
    N_("Q♦ bonus"),
    N_("⑥ deal"),
    N_("⑦ total"),
)
_NONE: Final = N_("none")
_LONE: Final = N_("lone")
_FIXED: Final = N_("{total} (grand slam, fixed)")
_EMPTY_PILE: Final = N_("took no cards")


def _signed(value: int) -> str:
    # Typographic minus, as the sources print it ("Свинья −100 → −200").
    return f"{value:+d}".replace("-", "−")


class Translator:
    """Everything the library shows to people, in one language (``"en"``, ``"zh"``, …).

    >>> from gongzhu.cards import Card, Suit
    >>> en, zh = Translator(), Translator("zh")
    >>> en.suit(Suit.HEARTS), zh.suit(Suit.HEARTS), zh.card(Card("10C"))
    ('hearts', '红桃', '梅花10')
    >>> zh.gettext("⑥ deal")
    '⑥ 本局'
    """

    __slots__ = ("_catalogue", "lang")

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        if not isinstance(lang, str):  # ["zh"] would be an unhashable TypeError (#22 item 16)
            raise LanguageError(f"a language is a code like 'zh', got {type(lang).__name__}")
        if lang not in LANGUAGES:
            known = ", ".join(LANGUAGES)
            shown = repr(lang)[:40] if isinstance(lang, str) else type(lang).__name__
            raise LanguageError(f"unknown language {shown}; known: {known}")
        self.lang: str = lang
        self._catalogue = _catalogue(lang)

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"

    # -- plain messages --------------------------------------------------------

    def gettext(self, message: str) -> str:
        """``message`` in this language (itself when it has no translation)."""
        return self._catalogue.gettext(message)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` under ``context`` (a ``msgctxt``) in this language, else ``message``."""
        return self._catalogue.pgettext(context, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The singular or plural form for ``n``, in this language."""
        return self._catalogue.ngettext(singular, plural, n)

    # -- cards ----------------------------------------------------------------

    def suit(self, suit: Suit) -> str:
        """The suit's name: ``'hearts'``, ``'红桃'``."""
        return self.gettext(_SUITS[suit])

    def card(self, card: Card) -> str:
        """The card as written in this language: ``'Q♠'``, ``'黑桃Q'``, ``'♠Q'``."""
        _check_card(card)
        return self.gettext(_CARD_FORM).format(
            rank=card.rank.symbol, symbol=card.suit.symbol, suit=self.suit(card.suit)
        )

    def nickname(self, card: Card) -> str | None:
        """The card's nickname (``'the pig'``, ``'猪'``), or ``None`` for an ordinary card."""
        _check_card(card)
        nickname = _NICKNAMES.get(card)
        return None if nickname is None else self.gettext(nickname)

    def card_name(self, card: Card) -> str:
        """The card with its nickname, if it has one: ``'Q♠ (the pig)'``, ``'黑桃Q（猪）'``."""
        _check_card(card)
        nickname = _NICKNAMES.get(card)
        if nickname is None:
            return self.card(card)
        return self.gettext(_NICKNAMED).format(
            card=self.card(card), nickname=self.gettext(nickname)
        )

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards separated by spaces, each as :meth:`card` writes it."""
        return " ".join(self.card(c) for c in cards)

    def rank(self, rank: Rank) -> str:
        """A rank as printed on the card (the same in every language)."""
        return rank.symbol

    # -- states and refusals -----------------------------------------------------

    def phase(self, phase: Phase) -> str:
        """A phase's name: ``'exposure'``, ``'亮牌'``."""
        return self.gettext(_PHASES.get(phase, phase.value))

    def reason(self, reason: Reason) -> str:
        """A refusal's reason as a phrase (the :class:`~gongzhu.Reason` stays the code)."""
        return self.gettext(_REASONS.get(reason.name, reason.value))

    def seat(self, seat: int | None) -> str:
        """``'seat 2'`` (or ``'nobody'``)."""
        if seat is None:
            return self.gettext(_NOBODY)
        return self.gettext(_SEAT).format(seat=seat)

    def refusal(self, error: IllegalActionError, who: str | None = None) -> str:
        """One sentence for a refused action, from the error's ``reason``, ``seat`` and ``card``.

        ``who`` names the seat (default ``'seat N'``).

        >>> from gongzhu import deal
        >>> r = deal(seed=1).pass_exposure()
        >>> try:
        ...     r.play("2S", seat=1)
        ... except IllegalActionError as error:
        ...     print(Translator("zh").refusal(error))
        座位1不能出黑桃2：还没轮到你
        """
        if not isinstance(error, IllegalActionError):
            kind = type(error).__name__
            raise LanguageError(f"refusal() renders an IllegalActionError, got {kind}")
        name = self.seat(error.seat) if who is None else who
        reason = self.reason(error.reason)
        action = getattr(error, "action", "play")
        card = error.card
        if card is not None and action in _ACTIONS:
            template = _ACTIONS[action]
            shown = self.card(Card.from_index(card.index))
            return self.gettext(template).format(who=name, card=shown, reason=reason)
        template = _ACTION_NO_CARD.get(action) or _ACTIONS.get(action) or _REFUSED_OTHER
        if "{card}" in template:
            template = _REFUSED_OTHER
        return self.gettext(template).format(who=name, reason=reason)

    # -- scoring -------------------------------------------------------------------

    def preview(self, preview: ExposurePreview) -> str:
        """What exposing a card changes: ``'Pig −100 → −200'``, ``'猪 −100 → −200'``."""
        name = self.gettext(_PREVIEW_NAMES.get(preview.card, preview.name))
        if preview.card is TRANSFORMER:
            return self.gettext(_PREVIEW_TRANSFORMER).format(
                name=name,
                before=preview.before,
                after=preview.after,
                lone_before=_signed(preview.lone_before or 0),
                lone_after=_signed(preview.lone_after or 0),
            )
        if preview.card is ACE_OF_HEARTS:
            return self.gettext(_PREVIEW_HEARTS).format(
                name=name, before=preview.before, after=preview.after
            )
        return self.gettext(_PREVIEW_VALUE).format(
            name=name, before=_signed(preview.before), after=_signed(preview.after)
        )

    def sheet_lines(self, player: PlayerScore, running_before: int = 0) -> list[tuple[str, str]]:
        """The seven lines of a seat's sheet (seeds/001) as (label, value), in this language.

        >>> from gongzhu import score
        >>> Translator("zh").sheet_lines(score("10C QS 7H")[0])[4]
        ('⑤ 变压器', '×2')
        """
        g = self.gettext
        if player.transformer is TransformerEffect.MULTIPLIER:
            transformer = f"×{player.multiplier}"
        elif player.transformer is TransformerEffect.LONE_BONUS:
            transformer = f"{player.total - player.bonus:+d}" if not player.fixed else g(_LONE)
        else:
            transformer = g(_NONE)
        rows = [
            (g(_LINES[0]), str(player.hearts)),
            (g(_LINES[1]), str(player.pig)),
            (g(_LINES[2]), str(player.sheep)),
            (g(_LINES[3]), str(player.base)),
            (g(_LINES[4]), transformer),
        ]
        if player.bonus:
            rows.append((g(_LINES[5]), f"{player.bonus:+d}"))
        deal = g(_FIXED).format(total=player.total) if player.fixed else str(player.total)
        rows.append((g(_LINES[6]), deal))
        rows.append((g(_LINES[7]), str(running_before + player.total)))
        return rows

    def sheet(self, player: PlayerScore, running_before: int = 0, who: str | None = None) -> str:
        """A seat's sheet as text: the head line (who, the captured cards) and seven lines."""
        name = self.seat(player.seat) if who is None else who
        pile = self.cards(player.cards) if player.cards else self.gettext(_EMPTY_PILE)
        body = [
            f"  {_pad(label, 15)}{value:>6}"
            for label, value in self.sheet_lines(player, running_before)
        ]
        head = self.gettext("{who}: {cards}").format(who=name, cards=pile)
        return "\n".join([head, *body])


def _width(text: str) -> int:
    """Columns ``text`` takes on a terminal (CJK characters take two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


@cache
def _catalogue(lang: str) -> gettext.NullTranslations:
    if lang == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with open(path, "rb") as fp:
            return gettext.GNUTranslations(fp)
    except OSError:
        # A language without its compiled catalogue (an unfinished checkout) speaks English.
        return gettext.NullTranslations()


def translator(lang: str = DEFAULT_LANGUAGE) -> Translator:
    """The (shared, immutable) :class:`Translator` for ``lang``."""
    if not isinstance(lang, str):  # before the cache, which would hash it
        raise LanguageError(f"a language is a code like 'zh', got {type(lang).__name__}")
    return _translator(lang)


@cache
def _translator(lang: str) -> Translator:
    return Translator(lang)


def card_name(card: Card, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The card with its nickname in ``lang``: ``card_name(PIG, lang="zh") == '黑桃Q（猪）'``."""
    return translator(lang).card_name(card)


def refusal(error: IllegalActionError, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The refusal sentence for ``error`` in ``lang`` (see :meth:`Translator.refusal`)."""
    return translator(lang).refusal(error)


_LOCALE_VARIABLES: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def negotiate(requested: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to use: ``requested`` if given, else the first shipped one the locale asks for.

    The variables are read as gettext reads them (``LANGUAGE``, a colon-separated
    list, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); ``zh_CN.UTF-8`` means
    ``zh``; ``C``, ``POSIX`` and anything not shipped fall back to English.

    >>> negotiate(environ={"LANG": "zh_CN.UTF-8"}), negotiate("en", {"LANG": "zh_CN"})
    ('zh', 'en')
    >>> negotiate(environ={"LANGUAGE": "fr:zh", "LANG": "fr_FR"})
    'zh'
    """
    if requested is not None:
        Translator(requested)  # refuses an unknown language with the list of known ones
        return requested
    env = os.environ if environ is None else environ
    if not isinstance(env, Mapping):
        raise LanguageError(f"environ is a mapping of text, got {type(env).__name__}")
    for variable in _LOCALE_VARIABLES:
        value = env.get(variable, "")
        if not value:
            continue
        if not isinstance(value, str):
            raise LanguageError(f"{variable} must be text, got {type(value).__name__}")
        for item in value.split(":"):
            code = item.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
            if code in LANGUAGES:
                return code
            if code in ("c", "posix"):
                return DEFAULT_LANGUAGE
        if variable != "LANGUAGE":
            # gettext stops at the first of LC_ALL / LC_MESSAGES / LANG that is set.
            break
    return DEFAULT_LANGUAGE


for _public in (LanguageError, Translator, card_name, negotiate, refusal, translator):
    _public.__module__ = "gongzhu.i18n"  # documented and shown at the public path
