"""Quoting outside data in a message: :func:`brief`, short and never raising.

Every error message that repeats a caller's input quotes it through here, so that a
hostile value still gets its typed error instead of a failure while the message is built.

>>> brief("QS")
"'QS'"
>>> brief(2**100)
'<int of 101 bits>'
>>> len(brief("x" * 10_000))
60
"""

from __future__ import annotations

# It lives in gongzhu.errors, the bottom of the package (errors quote their input too, and
# errors import nothing from gongzhu); the modules that only quote import it from here.
from gongzhu.errors import BRIEF_LIMIT, brief

__all__ = ["BRIEF_LIMIT", "brief"]
