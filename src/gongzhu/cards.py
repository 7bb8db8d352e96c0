"""Cards, suits, ranks, card sets and the card notation.

A card is one of 52 interned :class:`Card` objects with an ``index`` 0–51
(suit-major: ``suit * 13 + rank - 2``), so a set of cards is a 52-bit int.
:class:`CardSet` is the immutable, typed view of such an int.

Notation: rank then suit, or suit then rank; ranks ``2``–``10`` (or ``T``),
``J Q K A``; suits ``C D H S`` or ``♣ ♦ ♥ ♠`` (``♧ ♢ ♡ ♤`` too), any case.

>>> Card("Q♠") is Card("qs") is Card("♠Q") is PIG
True
>>> str(TRANSFORMER), TRANSFORMER.code, TRANSFORMER.index
('10♣', 'TC', 8)
>>> hand = parse_cards("QS, TC 7H")
>>> hand
CardSet('TC 7H QS')
>>> str(hand), len(hand), PIG in hand
('10♣ 7♥ Q♠', 3, True)
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator, Set
from typing import Any, Final, NoReturn, overload

from gongzhu._base.display import svg as _svg
from gongzhu._base.text import brief
from gongzhu.errors import CardParseError, CardTypeError

__all__ = ["ACE_OF_HEARTS", "DECK", "PIG", "SHEEP", "TRANSFORMER", "Card", "CardSet", "Hand",
           "Rank", "Suit", "parse_cards"]  # fmt: skip


class Suit(enum.IntEnum):
    """The four suits, in index order (♣ ♦ ♥ ♠). There are no trumps."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        """``'♣'``, ``'♦'``, ``'♥'`` or ``'♠'``."""
        return _SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        """``'C'``, ``'D'``, ``'H'`` or ``'S'``."""
        return _SUIT_LETTERS[self]

    @property
    def mask(self) -> int:
        """The bitmask of the 13 cards of this suit."""
        return 0x1FFF << (13 * self)

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    def __str__(self) -> str:
        return self.symbol


class Rank(enum.IntEnum):
    """Ranks by pip value; ``ACE`` (14) is high, ``TWO`` low."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """``'2'`` … ``'10'``, ``'J'``, ``'Q'``, ``'K'``, ``'A'``."""
        return _RANK_SYMBOLS[self]

    @property
    def letter(self) -> str:
        """One character: like :attr:`symbol` but ``'T'`` for ten."""
        return "T" if self is Rank.TEN else _RANK_SYMBOLS[self]

    def __str__(self) -> str:
        return self.symbol


_SUIT_SYMBOLS: Final = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_LETTERS: Final = {Suit.CLUBS: "C", Suit.DIAMONDS: "D", Suit.HEARTS: "H", Suit.SPADES: "S"}
_RANK_SYMBOLS: Final = {r: str(int(r)) for r in Rank} | {
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
}

_SUIT_BY_TEXT: Final[dict[str, Suit]] = {}
for _s in Suit:
    _SUIT_BY_TEXT[_s.symbol] = _s
    _SUIT_BY_TEXT[_s.letter] = _s
_SUIT_BY_TEXT.update({"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES})
_RANK_BY_TEXT: Final[dict[str, Rank]] = {r.symbol: r for r in Rank} | {"T": Rank.TEN}

_MAX_SHOWN = 24  # how much of a bad token an error message repeats


def _suit(suit: object) -> Suit:
    if isinstance(suit, Suit):
        return suit
    if isinstance(suit, int) and not isinstance(suit, bool) and 0 <= suit < 4:
        return Suit(suit)
    if isinstance(suit, str) and suit.strip().upper() in _SUIT_BY_TEXT:
        return _SUIT_BY_TEXT[suit.strip().upper()]
    # brief: a hostile value (an int past str()'s digit limit, a raising __repr__)
    # must still get this error, not a ValueError from building its message.
    raise CardParseError(f"not a suit: {brief(suit)}")


def _shown(token: str) -> str:
    return token if len(token) <= _MAX_SHOWN else token[:_MAX_SHOWN] + "…"


class Card:
    """One of the 52 cards. Instances are interned: compare with ``is`` or ``==``.

    Build one from a suit and a rank, or from text:

    >>> Card(Suit.HEARTS, Rank.ACE) is Card("A♥") is ACE_OF_HEARTS
    True
    >>> Card.from_index(0), Card("2c") < Card("3c") < Card("2d")
    (Card('2C'), True)

    Cards order by :attr:`index` (suit, then rank); within one suit that is
    the trick-taking order.
    """

    __slots__ = ("code", "index", "mask", "rank", "suit", "symbol")

    index: int
    """0–51: ``suit * 13 + rank - 2``."""
    suit: Suit
    rank: Rank
    mask: int
    """``1 << index``: the card as a one-card bitmask."""
    code: str
    """The ASCII form, rank letter then suit letter: ``'QS'``, ``'TC'``."""
    symbol: str
    """The display form: ``'Q♠'``, ``'10♣'`` (also ``str(card)``)."""

    @overload
    def __new__(cls, suit_or_text: str, /) -> Card: ...
    @overload
    def __new__(cls, suit_or_text: Suit, rank: Rank, /) -> Card: ...
    def __new__(cls, suit_or_text: Suit | str, rank: Rank | None = None, /) -> Card:
        if isinstance(suit_or_text, str) and rank is None:
            return cls.parse(suit_or_text)
        if not isinstance(suit_or_text, Suit) or not isinstance(rank, Rank):
            raise CardTypeError(
                f"Card() takes a Suit and a Rank, or text; got {brief(suit_or_text)}"
            )
        return _CARDS[suit_or_text * 13 + rank - 2]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        suit, rank = Suit(index // 13), Rank(index % 13 + 2)
        for name, value in (
            ("index", index),
            ("suit", suit),
            ("rank", rank),
            ("mask", 1 << index),
            ("code", rank.letter + suit.letter),
            ("symbol", rank.symbol + suit.symbol),
        ):
            object.__setattr__(card, name, value)
        return card

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with this index (0–51)."""
        # Exactly an int: not a bool, nor an IntEnum such as Suit.HEARTS (a fuzz find).
        if type(index) is not int or not 0 <= index < 52:
            raise CardParseError(f"card index must be an int 0-51, got {brief(index)}")
        return _CARDS[index]

    @staticmethod
    def parse(text: str) -> Card:
        """Parse one card: ``'Q♠'``, ``'QS'``, ``'qs'``, ``'10C'``, ``'TC'``, ``'♠Q'``.

        >>> Card.parse("10♣") is Card.parse("tc") is Card.parse("♣10")
        True
        """
        return _parse_token(text, None)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"Card is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"Card is immutable: cannot delete {name!r}")

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index

    def __str__(self) -> str:
        return self.symbol

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def _repr_html_(self) -> str:
        colour = "#c1121f" if self.suit.is_red else "#111"
        return f'<span style="color:{colour};font-weight:bold">{self.symbol}</span>'

    def _repr_svg_(self) -> str | None:
        """The card as a picture (Jupyter shows it), drawn by :mod:`gongzhu.svg`."""
        return _svg(self)


_CARDS: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(52))


def _parse_token(token: str, position: int | None) -> Card:
    if not isinstance(token, str):
        raise CardTypeError(f"expected text, got {type(token).__name__}", brief(token), position)
    text = token.strip()
    if not text:
        raise CardParseError("empty token", token, position)
    if len(text) > 3:
        raise CardParseError("too long for a card", _shown(token), position)
    upper = text.upper()
    if not text.isascii():
        # Only ASCII letters change case: str.upper() maps "ſ" (long s) to "S".
        upper = "".join(ch.upper() if ch.isascii() else ch for ch in text)
    if upper[-1] in _SUIT_BY_TEXT and upper[:-1] in _RANK_BY_TEXT:
        return _CARDS[_SUIT_BY_TEXT[upper[-1]] * 13 + _RANK_BY_TEXT[upper[:-1]] - 2]
    if upper[0] in _SUIT_BY_TEXT and upper[1:] in _RANK_BY_TEXT:
        return _CARDS[_SUIT_BY_TEXT[upper[0]] * 13 + _RANK_BY_TEXT[upper[1:]] - 2]
    # Say what is wrong rather than only "bad card".
    if upper[-1] in _SUIT_BY_TEXT:
        raise CardParseError(f"unknown rank {text[:-1]!r}", token, position)
    if upper[0] in _SUIT_BY_TEXT:
        raise CardParseError(f"unknown rank {text[1:]!r}", token, position)
    if upper[:-1] in _RANK_BY_TEXT:
        raise CardParseError(f"unknown suit {text[-1]!r}", token, position)
    raise CardParseError("not a card", token, position)


_SPLIT = re.compile(r"\s*,\s*|\s+")


def card_tokens(text: str) -> list[str]:
    """The tokens of a card list in the order written: ``["QS", "TC"]`` for ``"QS, TC"``."""
    stripped = text.strip()
    return _SPLIT.split(stripped) if stripped else []


class _SuitCards(dict[int, tuple[Card, ...]]):
    """The cards of one suit present in a 13-bit pattern, built on first use.

    A dict subclass with ``__missing__`` keeps the hit path a plain C-level
    subscript, so iterating a CardSet costs four look-ups and no bit tests.
    """

    __slots__ = ("base",)

    def __init__(self, suit: int) -> None:
        super().__init__()
        self.base = suit * 13
        self[0] = ()

    def __missing__(self, bits: int) -> tuple[Card, ...]:
        base = self.base
        cards = tuple(_CARDS[base + i] for i in range(13) if bits >> i & 1)
        self[bits] = cards
        return cards


_CLUBS_OF, _DIAMONDS_OF, _HEARTS_OF, _SPADES_OF = (_SuitCards(s) for s in range(4))


def _mask_cards(mask: int) -> tuple[Card, ...]:
    # Concatenating an empty tuple returns the other operand unchanged: no copy.
    return (
        _CLUBS_OF[mask & 0x1FFF]
        + _DIAMONDS_OF[mask >> 13 & 0x1FFF]
        + _HEARTS_OF[mask >> 26 & 0x1FFF]
        + _SPADES_OF[mask >> 39]
    )


_FULL: Final = (1 << 52) - 1


class CardSet(Set[Card]):
    """An immutable set of cards, backed by a 52-bit int (:attr:`mask`).

    Iteration, indexing and ``str`` follow card index order (♣ ♦ ♥ ♠, low to
    high). Set operators return :class:`CardSet`; ``in`` accepts a
    :class:`Card`.

    >>> a = CardSet(parse_cards("AH KH QS"))
    >>> b = parse_cards("QS JD")
    >>> a | b, a & b, a - b
    (CardSet('JD KH AH QS'), CardSet('QS'), CardSet('KH AH'))
    >>> a[0], a.of_suit(Suit.HEARTS), CardSet.from_mask(a.mask) == a
    (Card('KH'), CardSet('KH AH'), True)
    """

    __slots__ = ("_cards", "_hash_value", "mask")

    mask: int
    """The set as an int: bit ``card.index`` is set for every card in it."""
    _cards: tuple[Card, ...] | None
    _hash_value: int

    def __new__(cls, cards: Iterable[Card] = ()) -> CardSet:
        # Built in __new__, not __init__: ``DECK.__init__([])`` must not empty
        # the deck (#11 item 9), and __init__ below does nothing.
        mask = 0
        if isinstance(cards, CardSet):
            mask = cards.mask
        else:
            try:
                items = iter(cards)
            except TypeError:
                raise CardTypeError(
                    f"CardSet takes an iterable of cards, got {type(cards).__name__}"
                ) from None
            for card in items:
                if not isinstance(card, Card):
                    raise CardParseError(
                        f"CardSet holds Card objects, got {type(card).__name__}"
                        " (use parse_cards for text)"
                    )
                mask |= card.mask
        cs = object.__new__(cls)
        _set_mask(cs, mask)
        _set_cards(cs, None)
        return cs

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        """Nothing to do: the set was built by ``__new__`` and never changes."""

    @classmethod
    def from_mask(cls, mask: int) -> CardSet:
        """The set whose bit ``i`` is card ``i``."""
        if not isinstance(mask, int) or isinstance(mask, bool) or not 0 <= mask <= _FULL:
            raise CardParseError(f"a card mask is an int of 52 bits, got {brief(mask)}")
        return unchecked_cardset(mask)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, in index order."""
        cards = self._cards
        if cards is None:
            cards = _mask_cards(self.mask)
            _set_cards(self, cards)
        return cards

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"CardSet is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"CardSet is immutable: cannot delete {name!r}")

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (CardSet.from_mask, (self.mask,))

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask >> card.index & 1)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __getitem__(self, i: int) -> Card:
        # Indexed by random.choice in bots' inner loops: _mask_cards inlined.
        cards = self._cards
        if cards is None:
            mask = self.mask
            cards = (
                _CLUBS_OF[mask & 0x1FFF]
                + _DIAMONDS_OF[mask >> 13 & 0x1FFF]
                + _HEARTS_OF[mask >> 26 & 0x1FFF]
                + _SPADES_OF[mask >> 39]
            )
            _set_cards(self, cards)
        return cards[i]

    def __hash__(self) -> int:
        # A CardSet equals the frozenset of its cards, so it must hash like one
        # (else ``{frozenset(cs): v}[cs]`` misses). Computed once, on demand: the
        # slot stays unset in the hot constructors.
        try:
            return self._hash_value
        except AttributeError:
            value = hash(frozenset(self.cards))
            object.__setattr__(self, "_hash_value", value)
            return value

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return Set.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __or__(self, other: Iterable[Any]) -> CardSet:
        return unchecked_cardset(self.mask | _mask_of(other))

    def __and__(self, other: Iterable[Any]) -> CardSet:
        return unchecked_cardset(self.mask & _mask_of(other))

    def __sub__(self, other: Iterable[Any]) -> CardSet:
        return unchecked_cardset(self.mask & ~_mask_of(other))

    def __xor__(self, other: Iterable[Any]) -> CardSet:
        return unchecked_cardset(self.mask ^ _mask_of(other))

    __ror__ = __or__
    __rand__ = __and__
    __rxor__ = __xor__

    def __rsub__(self, other: Iterable[Any]) -> CardSet:
        return unchecked_cardset(_mask_of(other) & ~self.mask)

    def __le__(self, other: Set[Any]) -> bool:
        if isinstance(other, CardSet):
            return self.mask & ~other.mask == 0
        return Set.__le__(self, other)

    def __ge__(self, other: Set[Any]) -> bool:
        if isinstance(other, CardSet):
            return other.mask & ~self.mask == 0
        return Set.__ge__(self, other)

    def __lt__(self, other: Set[Any]) -> bool:
        return self <= other and self != other

    def __gt__(self, other: Set[Any]) -> bool:
        return self >= other and self != other

    def isdisjoint(self, other: Iterable[Any]) -> bool:
        """True when the two sets share no card."""
        return self.mask & _mask_of(other) == 0

    def of_suit(self, suit: Suit) -> CardSet:
        """The cards of one suit."""
        return unchecked_cardset(self.mask & _suit(suit).mask)

    def __str__(self) -> str:
        return " ".join(card.symbol for card in self.cards)

    @property
    def code(self) -> str:
        """The ASCII form: ``'TC 7H QS'``."""
        return " ".join(card.code for card in self.cards)

    def __repr__(self) -> str:
        return f"CardSet({self.code!r})"

    def _repr_html_(self) -> str:
        if not self.mask:
            return "<span>∅</span>"
        return " ".join(card._repr_html_() for card in self.cards)

    def _repr_svg_(self) -> str | None:
        """The cards as a fanned hand (Jupyter shows it), drawn by :mod:`gongzhu.svg`."""
        return _svg(self)


Hand = CardSet
"""A hand is a :class:`CardSet` (the name reads better in signatures)."""

_new_cardset = object.__new__
# The slots' own setters: no attribute-name look-up, unlike object.__setattr__.
_set_mask = CardSet.__dict__["mask"].__set__
_set_cards = CardSet.__dict__["_cards"].__set__


def unchecked_cardset(mask: int) -> CardSet:
    """:meth:`CardSet.from_mask` without its check, for the engine layer's hot paths:
    the caller knows ``mask`` is an int of 52 bits (outside data goes through ``from_mask``)."""
    cs = _new_cardset(CardSet)
    _set_mask(cs, mask)
    _set_cards(cs, None)
    return cs


def _mask_of(cards: Iterable[Any]) -> int:
    if isinstance(cards, CardSet):
        return cards.mask
    if isinstance(cards, str):
        return parse_cards(cards).mask
    return CardSet(cards).mask


def parse_cards(text: str | Iterable[Card | str]) -> CardSet:
    """Parse a card list such as ``"QS TC 7H"``, ``"Q♠, 10♣, 7♥"`` or ``["QS", PIG]``.

    Tokens are separated by white space and/or commas. A duplicate, an empty
    token or an unknown card raises :class:`~gongzhu.CardParseError` naming the
    token and its 1-based position.

    >>> parse_cards("Q♠ 10♣ 7♥") == parse_cards("qs,tc,7h")
    True
    >>> parse_cards("QS QS")
    Traceback (most recent call last):
    ...
    gongzhu.errors.CardParseError: token 2 'QS': duplicate card Q♠
    """
    if isinstance(text, CardSet):
        return text
    if isinstance(text, str):
        tokens: Iterable[Card | str] = card_tokens(text)
    else:
        try:
            # Lazily: a huge iterable (range(10**15)) fails at its first bad token.
            tokens = iter(text)
        except TypeError:
            raise CardTypeError(
                f"expected text or an iterable of cards, got {type(text).__name__}"
            ) from None
    mask = 0
    for position, token in enumerate(tokens):
        card = token if isinstance(token, Card) else _parse_token(token, position)
        if mask & card.mask:
            shown = token if isinstance(token, str) else card.code
            raise CardParseError(f"duplicate card {card}", _shown(shown), position)
        mask |= card.mask
    return unchecked_cardset(mask)


PIG: Final = Card(Suit.SPADES, Rank.QUEEN)
"""Q♠, the pig (猪): −100."""
SHEEP: Final = Card(Suit.DIAMONDS, Rank.JACK)
"""J♦, the sheep or goat (羊): +100."""
TRANSFORMER: Final = Card(Suit.CLUBS, Rank.TEN)
"""10♣, the transformer (变压器): doubles the deal, or +50 alone."""
ACE_OF_HEARTS: Final = Card(Suit.HEARTS, Rank.ACE)
"""A♥: exposing it doubles every heart."""
DECK: Final = unchecked_cardset(_FULL)
"""All 52 cards."""
