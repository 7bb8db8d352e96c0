"""The one check of a seed: what the library accepts as a seed, everywhere it takes one.

A seed is ``None`` (fresh randomness), an int of at most 80 decimal digits
(``-10**80 < seed < 10**80``) or, where the caller allows text, a text of at most
1000 characters of valid Unicode. That one limit holds for deals, matches, bots,
rollouts and game records: every seed a function accepts can be written to a
record and read back, formatted into a derived seed (Python refuses to format
ints of more than 4300 digits) and hashed by :class:`random.Random` (which
hashes a text's UTF-8 bytes; a lone surrogate has none).

A refused seed raises the caller's own error class (every one of them is a
:class:`~gongzhu.GongzhuError` and a :class:`ValueError`), built from one message
(``error(message)``), so that a seed is refused in the same words wherever it is given.

>>> check_seed(2**64, error=ValueError)
>>> check_seed("match 7", error=ValueError)
>>> check_seed(10**80, error=ValueError)
Traceback (most recent call last):
ValueError: an int seed must be between -10**80 and 10**80 (at most 80 digits)
>>> check_seed("x", error=ValueError, text=False)
Traceback (most recent call last):
ValueError: seed must be an int, got str
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

__all__ = ["SEED_DIGITS", "SEED_INT_LIMIT", "SEED_TEXT_LIMIT", "check_seed"]

SEED_DIGITS: Final = 80
"""An int seed has at most this many decimal digits."""
SEED_INT_LIMIT: Final = 10**SEED_DIGITS
"""Int seeds lie strictly between ``-SEED_INT_LIMIT`` and ``SEED_INT_LIMIT``."""
SEED_TEXT_LIMIT: Final = 1000
"""A text seed has at most this many characters."""


def check_seed(
    seed: object,
    *,
    error: Callable[[str], BaseException],
    type_error: Callable[[str], BaseException] | None = None,
    text: bool = True,
    none: bool = True,
    what: str = "seed",
) -> None:
    """Raise ``error(message)`` unless ``seed`` is a seed (see the module's docstring).

    ``type_error`` (default: ``error``) builds the error for a seed of the wrong type
    (the caller's :class:`~gongzhu.errors.ArgumentTypeError`); ``text=False`` where only
    ints are seeds (rollouts), ``none=False`` where a seed is required; ``what`` names
    the argument in the message.
    """
    if seed is None:
        if none:
            return
        raise (type_error or error)(f"{what} is required, got None")
    if isinstance(seed, int) and not isinstance(seed, bool):
        if -SEED_INT_LIMIT < seed < SEED_INT_LIMIT:
            return
        raise error(
            f"an int {what} must be between -10**{SEED_DIGITS} and 10**{SEED_DIGITS}"
            f" (at most {SEED_DIGITS} digits)"
        )
    if isinstance(seed, str) and text:
        if len(seed) > SEED_TEXT_LIMIT:
            raise error(f"a text {what} may have at most {SEED_TEXT_LIMIT} characters")
        try:
            seed.encode("utf-8")
        except UnicodeEncodeError:
            raise error(f"a text {what} must be valid Unicode (it has a lone surrogate)") from None
        return
    kinds = "an int or text" if text else "an int"
    raise (type_error or error)(f"{what} must be {kinds}, got {type(seed).__name__}")
