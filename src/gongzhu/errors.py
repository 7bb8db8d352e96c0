"""The exception hierarchy: every error the library raises is a :class:`GongzhuError`.

Callers never need to parse messages: each error carries the facts as
attributes (the bad token, the conflicting options, the refused action's
:class:`~gongzhu.Reason`).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, Final, Protocol

__all__ = [
    "ActionTypeError",
    "ArgumentTypeError",
    "CardParseError",
    "CardTypeError",
    "DealError",
    "DealNotOverError",
    "DealTypeError",
    "GongzhuError",
    "IllegalActionError",
    "MatchError",
    "MatchTypeError",
    "ProtocolError",
    "ProtocolTypeError",
    "Reason",
    "RecordError",
    "RuleSetError",
    "RuleSetTypeError",
    "SimulationError",
    "SimulationTypeError",
]

# The bottom of the package: this module imports nothing from gongzhu, so every layer may
# raise its errors. Quoting a caller's input in a message lives here for that reason
# (gongzhu._base.text re-exports it for the modules that only quote).

BRIEF_LIMIT: Final = 60
"""The most characters :func:`brief` returns."""


def brief(value: object) -> str:
    """``repr(value)`` for an error message: short, and never raising.

    Messages quote outside data, which may be hostile: an int past CPython's
    4300-digit ``str()`` limit would raise ``ValueError`` while the message is
    built, and a megabyte of text would be echoed back whole.
    """
    try:
        if isinstance(value, int) and value.bit_length() > 64:
            text = f"<int of {value.bit_length()} bits>"
        else:
            text = repr(value)
    except Exception:  # a hostile __repr__, deep nesting, huge ints inside containers
        text = f"<{type(value).__name__}>"
    return text if len(text) <= BRIEF_LIMIT else text[: BRIEF_LIMIT - 1] + "…"


class GongzhuError(Exception):
    """Root of every error raised by :mod:`gongzhu`: catch it to catch them all.

    >>> from gongzhu import RuleSet
    >>> try:
    ...     RuleSet(players=7)
    ... except GongzhuError as error:
    ...     print(type(error).__name__, error.options)
    RuleSetError ('players',)

    Every error pickles and copies with its attributes (so an error raised in
    a worker process reaches the caller as itself):

    >>> import pickle
    >>> from gongzhu import deal
    >>> try:
    ...     deal(seed=1).pass_exposure().play("AH", seat=3)
    ... except GongzhuError as error:
    ...     back = pickle.loads(pickle.dumps(error))
    ...     type(back).__name__, back.reason, back.seat, str(back) == str(error)
    ('IllegalActionError', <Reason.NOT_YOUR_TURN: 'not your turn'>, 3, True)
    """

    def to_dict(self) -> dict[str, object]:
        """The error as a JSON-safe dict for a client: ``error`` (the class name) and
        ``message`` (the English sentence); subclasses add their facts.

        >>> from gongzhu import RuleSet
        >>> try:
        ...     RuleSet(players=7)
        ... except GongzhuError as error:
        ...     error.to_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'error': 'RuleSetError', 'message': 'players: must be 3, 4 or 5, got 7',
         'options': ['players']}
        """
        return {"error": type(self).__name__, "message": str(self)}

    def __reduce__(self) -> tuple[Any, ...]:
        # The default rebuilds with cls(*self.args), and most subclasses take other
        # arguments than their message: rebuild without __init__, then restore the facts.
        return (_rebuild, (type(self), self.args), self.__dict__)


def _rebuild(cls: type[GongzhuError], args: tuple[Any, ...]) -> GongzhuError:
    error = cls.__new__(cls, *args)
    error.args = args
    return error


class CardParseError(GongzhuError, ValueError):
    """A card or card list could not be parsed.

    ``token`` is the offending text and ``position`` its 0-based place among the
    tokens of the input (``None`` when a single card was parsed).

    >>> from gongzhu import parse_cards
    >>> parse_cards("QS 1X")
    Traceback (most recent call last):
    ...
    gongzhu.errors.CardParseError: token 2 '1X': not a card
    """

    def __init__(self, message: str, token: str = "", position: int | None = None) -> None:
        self.token = token
        self.position = position
        # The bad input comes first: the token and where it was, or the token alone.
        if position is not None:
            where = f"token {position + 1} {brief(token)}: "
        else:
            where = f"{brief(token)}: " if token else ""
        super().__init__(f"{where}{message}")

    def to_dict(self) -> dict[str, object]:
        """The error as a JSON-safe dict: ``error``, ``message``, ``token``, ``position``."""
        return {**super().to_dict(), "token": self.token, "position": self.position}


class RuleSetError(GongzhuError, ValueError):
    """A :class:`~gongzhu.RuleSet` was built with a bad value or an impossible combination.

    ``options`` names the options involved.

    >>> from gongzhu import RuleSet
    >>> try:
    ...     RuleSet(players=5, partnerships=True)
    ... except RuleSetError as error:
    ...     error.options
    ('players', 'partnerships')
    """

    def __init__(self, message: str, options: Sequence[str] = ()) -> None:
        self.options = tuple(options)
        super().__init__(message)

    def to_dict(self) -> dict[str, object]:
        """The error as a JSON-safe dict: ``error``, ``message`` and the ``options`` named."""
        return {**super().to_dict(), "options": list(self.options)}


class DealError(GongzhuError, ValueError):
    """Cards do not form a valid deal or capture: duplicates, wrong counts, wrong deck.

    >>> from gongzhu import score
    >>> score(["QS 7H", "QS"])
    Traceback (most recent call last):
    ...
    gongzhu.errors.DealError: seat 1: Q♠ also in an earlier pile
    """


class MatchError(GongzhuError, ValueError):
    """A match was asked to do something it cannot (add a deal after it ended, …).

    >>> from gongzhu.match import Match
    >>> over = Match().add_totals((-1000, 0, 0, 0))
    >>> over.add_totals((0, 0, 0, 0))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gongzhu.errors.MatchError: ...
    """


class RecordError(GongzhuError, ValueError):
    """A game record is malformed or does not replay.

    ``deal`` (1-based) and ``move`` (1-based, in play order) locate the problem
    when it is inside a deal; ``field`` names the offending JSON field.

    >>> from gongzhu import record
    >>> record.loads("[]")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gongzhu.errors.RecordError: ...
    """

    def __init__(
        self,
        message: str,
        *,
        deal: int | None = None,
        move: int | None = None,
        field: str | None = None,
    ) -> None:
        self.deal = deal
        self.move = move
        self.field = field
        where = []
        if deal is not None:
            where.append(f"deal {deal}")
        if move is not None:
            where.append(f"move {move}")
        if field is not None:
            where.append(f"field {field!r}")
        prefix = (", ".join(where) + ": ") if where else ""
        super().__init__(prefix + message)

    def to_dict(self) -> dict[str, object]:
        """The error as a JSON-safe dict: ``error``, ``message``, ``deal``, ``move``, ``field``."""
        return {**super().to_dict(), "deal": self.deal, "move": self.move, "field": self.field}


class SimulationError(GongzhuError, ValueError):
    """:func:`gongzhu.parallel.simulate` was given arguments it cannot run.

    >>> from gongzhu.parallel import simulate
    >>> simulate(-1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gongzhu.errors.SimulationError: ...
    """


class Reason(enum.Enum):
    """Why an action was refused (``IllegalActionError.reason``); the value is a phrase.

    >>> from gongzhu import deal
    >>> r = deal(seed=1).pass_exposure()
    >>> r.why_illegal(r.hands[(r.to_act + 1) % 4][0])
    <Reason.NOT_IN_HAND: 'card not in hand'>
    """

    NOT_YOUR_TURN = "not your turn"
    NOT_IN_HAND = "card not in hand"
    MUST_FOLLOW_SUIT = "must follow suit"
    EXPOSED_CARD_HELD_BACK = "exposed card held back in the first trick of its suit"
    MUST_LEAD_OPENING_CARD = "the opening card must be led"
    HEARTS_NOT_BROKEN = "hearts have not been broken"
    HEARTS_LOCKED = "hearts are locked by the exposed ace of hearts"
    WRONG_PHASE = "not allowed in this phase"
    EXPOSURE_OFF = "exposure is not played"
    NOT_EXPOSABLE = "card may not be exposed"
    ALREADY_EXPOSED = "card already exposed"
    EXPOSURE_OUT_OF_TURN = "not this seat's turn to expose"
    NOT_FIRST_DEALT_CARD = "only the first card dealt may be exposed blind"
    CLAIMS_OFF = "claims are not played"
    NO_SUCH_SEAT = "no such seat"
    INVALID_CHOICE = "not a valid choice"
    EXPOSURE_PENDING = "every seat must decide on exposure before the first lead"
    ALREADY_DECIDED = "this seat has already decided on exposure"
    CLAIM_REFUSED = "this seat's claim was refused; it may claim again after another trick"


class _CardLike(Protocol):
    """What an error needs of a card (errors sit below :mod:`gongzhu.cards`)."""

    @property
    def index(self) -> int: ...


class IllegalActionError(GongzhuError, ValueError):
    """An action was refused. Nothing changed: the previous object is still valid.

    A ``ValueError`` too (as python-chess's ``IllegalMoveError``): the action was
    a bad value for this position.

    ``reason`` is a :class:`Reason`, ``seat`` the acting seat (``None`` when
    no seat could act, e.g. after the deal), ``card`` the :class:`~gongzhu.Card`
    involved (or ``None``), ``action`` what was refused (``"play"``,
    ``"expose"``, ``"claim"``…); ``str(error)`` is a sentence a client can show.

    >>> from gongzhu import deal
    >>> r = deal(seed=1).pass_exposure()
    >>> try:
    ...     r.play(r.legal_plays[0], seat=(r.to_act + 1) % 4)
    ... except IllegalActionError as error:
    ...     error.reason, error.seat == (r.to_act + 1) % 4
    (<Reason.NOT_YOUR_TURN: 'not your turn'>, True)
    """

    def __init__(
        self,
        reason: Reason,
        seat: int | None,
        card: _CardLike | None = None,
        detail: str = "",
        *,
        action: str = "play",
    ) -> None:
        self.reason = reason
        self.seat = seat
        self.card = card
        self.action = action
        what = f" {card}" if card is not None else ""
        if seat is not None:
            sentence = f"seat {brief(seat)} may not {action}{what}: {reason.value}"
        else:
            sentence = f"{action}{what} refused: {reason.value}"
        if detail:
            sentence += f" ({detail})"
        super().__init__(sentence)

    def to_dict(self) -> dict[str, object]:
        """The refusal as a JSON-safe dict for a client (schema ``error``, :mod:`gongzhu.protocol`).

        ``reason`` is the :class:`Reason` member's name (language-free: a client
        translates it), ``message`` the English sentence, ``card`` a card code.

        >>> from gongzhu import RuleSet, deal
        >>> r = deal(rules=RuleSet(exposable=""), seed=1)    # no exposure: play starts at once
        >>> try:
        ...     r.play(r.legal_plays[0], seat=(r.to_act + 1) % 4)
        ... except IllegalActionError as error:
        ...     sorted(error.to_dict().items())  # doctest: +NORMALIZE_WHITESPACE
        [('action', 'play'), ('card', '8C'), ('message', 'seat 1 may not play 8♣: not your turn'),
         ('reason', 'NOT_YOUR_TURN'), ('seat', 1)]
        """
        seat = self.seat
        card = self.card
        return {
            "reason": self.reason.name,
            "message": str(self),
            # A refused seat number may itself be the bad input (-1, True): only real seats.
            "seat": seat if type(seat) is int and 0 <= seat < 5 else None,
            # The code from the index: errors sit below cards (no Card import here).
            "card": _code(card.index) if card is not None else None,
            "action": self.action,
        }


def _code(index: int) -> str:
    return "23456789TJQKA"[index % 13] + "CDHS"[index // 13]


class DealNotOverError(IllegalActionError):
    """The deal is not over, so it has no score yet (:meth:`Round.score <gongzhu.Round.score>`).

    An :class:`IllegalActionError` (``reason`` is ``WRONG_PHASE``), so an
    ``except IllegalActionError`` written before this class still catches it.

    >>> from gongzhu import deal
    >>> deal(seed=1).score()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gongzhu.errors.DealNotOverError: score refused: ... (the deal is not complete)
    """

    def __init__(self, detail: str = "the deal is not over", *, action: str = "score") -> None:
        super().__init__(Reason.WRONG_PHASE, None, detail=detail, action=action)


class ProtocolError(GongzhuError, ValueError):
    """A client-protocol dict (an action, a view, a score) is malformed.

    ``path`` locates the offending value (``"cards[2]"``, ``"current_trick.leader"``;
    empty for the whole value). See :mod:`gongzhu.protocol`.

    >>> from gongzhu import Action
    >>> Action.from_dict({"type": "play", "seat": 0, "card": "QX"})
    Traceback (most recent call last):
    ...
    gongzhu.errors.ProtocolError: card: not a card: 'QX' (cards are codes like 'QS', 'TC')
    """

    def __init__(self, message: str, path: str = "") -> None:
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)

    def to_dict(self) -> dict[str, object]:
        """The error as a JSON-safe dict for a client: ``error``, ``message`` and ``path``.

        >>> from gongzhu import Action
        >>> try:
        ...     Action.from_dict({"type": "play", "seat": 0, "card": "QX"})
        ... except ProtocolError as error:
        ...     error.to_dict()["path"]
        'card'
        """
        return {**super().to_dict(), "path": self.path}


# -- arguments of the wrong type ----------------------------------------------------------------


class ArgumentTypeError(GongzhuError, TypeError):
    """A public function was given an argument of the wrong type (a number for a card,
    text for a seed, a bot's name where a :class:`~gongzhu.bots.Strategy` is expected).

    Python's own convention: a ``TypeError`` (and still a :class:`GongzhuError`). Each
    area raises its own subclass, which is also the error that area raised before
    (:class:`CardTypeError` is a :class:`CardParseError`, :class:`ActionTypeError` an
    :class:`IllegalActionError` …), so an existing ``except`` clause keeps working.

    >>> from gongzhu import Card, RuleSet, deal
    >>> for wrong in (lambda: Card(3.5), lambda: RuleSet(players="4"),
    ...               lambda: deal(seed=1).rollout("rule-of-thumb")):
    ...     try:
    ...         wrong()
    ...     except TypeError as error:
    ...         print(type(error).__name__, isinstance(error, ArgumentTypeError))
    CardTypeError True
    RuleSetTypeError True
    ActionTypeError True
    """


class CardTypeError(CardParseError, ArgumentTypeError):
    """Not a card, nor card text: a :class:`CardParseError` and an :class:`ArgumentTypeError`."""


class RuleSetTypeError(RuleSetError, ArgumentTypeError):
    """An option value of the wrong type: a :class:`RuleSetError` and an
    :class:`ArgumentTypeError`."""


class DealTypeError(DealError, ArgumentTypeError):
    """Deal data of the wrong type (hands, captures): a :class:`DealError` and an
    :class:`ArgumentTypeError`."""


class SimulationTypeError(SimulationError, ArgumentTypeError):
    """An argument of a simulation of the wrong type: a :class:`SimulationError` and an
    :class:`ArgumentTypeError`."""


class MatchTypeError(MatchError, ArgumentTypeError):
    """A match's argument of the wrong type (rules that are neither a rule set nor a
    preset's name, names that are no sequence of strings, a dealer that is no int): a
    :class:`MatchError` and an :class:`ArgumentTypeError`."""


class ProtocolTypeError(ProtocolError, ArgumentTypeError):
    """An argument of the wrong type for an environment or a batch of deals (a float
    array of actions, text for a seed or a count): a :class:`ProtocolError` and an
    :class:`ArgumentTypeError`.

    >>> from gongzhu.vector import VectorDeal
    >>> VectorDeal.random("classic", 2, rng=0).step("x")
    Traceback (most recent call last):
    ...
    gongzhu.errors.ProtocolTypeError: actions must be an int array of shape (2,), got <U1 ()
    """


class ActionTypeError(IllegalActionError, ArgumentTypeError):
    """An action's argument of the wrong type (a strategy, a seed, a policy, a seat that is
    no int): an :class:`IllegalActionError` (``reason`` is ``INVALID_CHOICE``, or
    ``NO_SUCH_SEAT`` for the seat) and an :class:`ArgumentTypeError`.

    >>> from gongzhu import deal
    >>> deal(seed=1).rollout(seed="x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gongzhu.errors.ActionTypeError: roll out refused: ... (seed must be an int, got str)
    """
