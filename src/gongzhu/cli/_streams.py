"""The command line's output streams: written whatever their encoding, silenced when closed."""

from __future__ import annotations

import contextlib
import os
import sys

__all__ = ["silence_stdout", "tolerant_streams"]


# What a stream that cannot write a character gets instead: the card code's suit letter
# for a suit symbol (Q♠ → QS), ASCII for the typographic signs, "?" for anything else.
_ASCII_FALLBACK = {
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
    "−": "-",
    "×": "x",
    "→": "->",
    "…": "...",
    "±": "+-",
    "①": "(1)",
    "②": "(2)",
    "③": "(3)",
    "④": "(4)",
    "⑤": "(5)",
    "⑥": "(6)",
    "⑦": "(7)",
}


def _fallback(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    bad = error.object[error.start : error.end]
    return "".join(_ASCII_FALLBACK.get(ch, "?") for ch in bad), error.end


def tolerant_streams() -> None:
    """Let stdout and stderr write what their encoding cannot (cp1252, ASCII, ``LC_ALL=C``).

    Strict encoding made every command, even ``--help``, fail on such a stream;
    now the characters it lacks are written as ASCII (``QS``) or ``?``.
    """
    import codecs

    try:
        codecs.lookup_error("gongzhu-ascii")
    except LookupError:
        codecs.register_error("gongzhu-ascii", _fallback)
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        encoding = getattr(stream, "encoding", None)
        if reconfigure is None or not isinstance(encoding, str):
            continue
        try:
            "拱猪♠−→×".encode(encoding)
        except (UnicodeEncodeError, LookupError):
            # A closed or odd stream is left as it is.
            with contextlib.suppress(ValueError, OSError, LookupError):
                reconfigure(errors="gongzhu-ascii")


def silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
