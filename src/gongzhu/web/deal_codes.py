"""Deal codes: one deal of a web table in at most 16 characters, to replay or share.

A code names a deal, never a table: it holds the deal's own seed (48 bits,
:func:`~gongzhu.dealing.match_deal_seed` of the game it came from, a one-way
function of the game's seed, so a code tells nothing of the game's other
deals), its leader and dealer, the seat it is played from, and the room's
settings that change play (the computers' level, the sign swap, exposure,
all hearts, the exposable cards). Opened anywhere, a code deals the same 13
cards to the same seat, against computers seeded from the deal itself
(:meth:`gongzhu.web.rooms.Room.strategy`), as a game of that one deal.

The deal of the day (:func:`daily`) is such a code, made from the date.

The text is Crockford's base 32 (no I, L, O, U; read case-insensitively, with
I/L as 1 and O as 0), 14 characters: 64 bits of deal and settings and a
6-bit check that catches a mistyped character.

>>> from gongzhu.web.settings import Settings
>>> code = DealCode(seed=2**47 + 5, leader=None, dealer=0, seat=2, settings=Settings(level="hard"))
>>> text = encode(code)
>>> len(text), decode(text) == code, decode(text.lower()) == code
(14, True, True)
>>> decode(text[:-1] + ("0" if text[-1] != "0" else "1"))
Traceback (most recent call last):
...
gongzhu.web.messages.WebError: bad-message: not a deal code (a character is wrong)
"""

from __future__ import annotations

import datetime
import hashlib
from typing import Final

import attrs

from gongzhu.ai.review import start_of
from gongzhu.dealing import deal, match_deal_seed
from gongzhu.round import Round
from gongzhu.table import FirstDeal
from gongzhu.web.messages import WebError
from gongzhu.web.settings import ALL_HEARTS, EXPOSABLE, LEVELS, SEATS, Settings

__all__ = ["CODE_LENGTH", "DealCode", "code_of", "daily", "decode", "encode"]

CODE_LENGTH: Final = 14
_ALPHABET: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_READ: Final = {**{c: i for i, c in enumerate(_ALPHABET)}, "I": 1, "L": 1, "O": 0}
_EXPOSABLE: Final = tuple(EXPOSABLE)
_SEED_BITS: Final = 48
_CHECK_BITS: Final = 6


@attrs.frozen
class DealCode:
    """What a code holds (see the module)."""

    seed: int
    leader: int | None
    dealer: int
    seat: int
    settings: Settings

    @property
    def first(self) -> FirstDeal:
        """The deal, as a table's first deal."""
        return FirstDeal(self.seed, self.leader, self.dealer)

    def room_settings(self) -> Settings:
        """A game of this one deal, under the code's rules."""
        return attrs.evolve(self.settings, threshold=1000, deals=1)


def _fields(code: DealCode) -> list[tuple[int, int]]:
    s = code.settings
    return [
        (code.seed, 1 << _SEED_BITS),
        (SEATS if code.leader is None else code.leader, SEATS + 1),
        (code.dealer, SEATS),
        (code.seat, SEATS),
        (LEVELS.index(s.level), len(LEVELS)),
        (int(s.sign_swap), 2),
        (int(s.exposure), 2),
        (ALL_HEARTS.index(s.all_hearts), len(ALL_HEARTS)),
        (_EXPOSABLE.index(s.exposable), len(_EXPOSABLE)),
    ]


def _check(value: int) -> int:
    digest = hashlib.sha256(b"gongzhu-deal:" + value.to_bytes(9, "big")).digest()
    return digest[0] >> (8 - _CHECK_BITS)


def encode(code: DealCode) -> str:
    """The code's text (:data:`CODE_LENGTH` characters)."""
    value = 0
    for field, size in reversed(_fields(code)):
        value = value * size + field
    value = (value << _CHECK_BITS) | _check(value)
    chars = []
    for _ in range(CODE_LENGTH):
        chars.append(_ALPHABET[value & 31])
        value >>= 5
    return "".join(reversed(chars))


def decode(text: object) -> DealCode:
    """The code ``text`` names (:class:`WebError` ``bad-message`` if it names none)."""
    if not isinstance(text, str) or len(text.strip()) != CODE_LENGTH:
        raise WebError("bad-message", f"a deal code has {CODE_LENGTH} characters")
    value = 0
    for char in text.strip().upper():
        if char not in _READ:
            raise WebError("bad-message", "not a deal code (a character is wrong)")
        value = value * 32 + _READ[char]
    check, value = value & ((1 << _CHECK_BITS) - 1), value >> _CHECK_BITS
    if _check(value) != check:
        raise WebError("bad-message", "not a deal code (a character is wrong)")
    sizes = [1 << _SEED_BITS, SEATS + 1, SEATS, SEATS, len(LEVELS), 2, 2, 2, len(_EXPOSABLE)]
    fields = []
    for size in sizes:
        value, field = divmod(value, size)
        fields.append(field)
    if value:
        raise WebError("bad-message", "not a deal code (a character is wrong)")
    seed, leader, dealer, seat, level, swap, exposure, hearts, exposable = fields
    settings = Settings(
        level=LEVELS[level],
        sign_swap=bool(swap),
        exposure=bool(exposure),
        all_hearts=ALL_HEARTS[hearts],
        exposable=_EXPOSABLE[exposable],
    )
    return DealCode(seed, None if leader == SEATS else leader, dealer, seat, settings)


def code_of(rnd: Round, seat: int, settings: Settings) -> str:
    """The deal code of the finished (or any) deal ``rnd`` played from ``seat``."""
    start = start_of(rnd) if rnd.history else rnd
    if not isinstance(rnd.seed, int):
        raise WebError("not-found", "this deal has no seed: it has no code")
    leader = None
    if deal(rules=rnd.rules, seed=rnd.seed, leader=None, dealer=rnd.dealer) != start:
        leader = start.leader
    return encode(DealCode(rnd.seed, leader, rnd.dealer, seat, settings))


def daily(day: datetime.date) -> DealCode:
    """The deal of the day: the same for everyone on ``day`` (the server's UTC date), from
    seat 0 (South), the start screen's default settings."""
    seed = match_deal_seed(f"gongzhu-daily:{day.isoformat()}", 1)
    return DealCode(seed, None, 0, 0, Settings())
