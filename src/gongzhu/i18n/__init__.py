"""Messages in the players' languages: standard gettext catalogues shipped in the package.

A :class:`Translator` renders what the library shows to people — card and suit
names, refusal sentences, exposure previews, score-sheet lines, phase names —
in one language; the ``gongzhu`` command's output goes through it too.
English is the default; the machine-readable parts (``Reason`` codes, card
codes) never change with the language.

The language is always chosen explicitly (``Translator("zh")`` or ``lang=``):
there is no global setting, so nothing changes a result behind a caller's back.
:func:`negotiate` picks a language from ``--lang`` or the usual locale
variables, for programs that want the environment's choice.

>>> from gongzhu import PIG, exposure_preview
>>> zh = Translator("zh")
>>> zh.card(PIG), zh.card_name(PIG), zh.preview(exposure_preview(PIG))
('黑桃Q', '黑桃Q（猪）', '猪 −100 → −200')
>>> card_name(PIG), card_name(PIG, lang="zh")
('Q♠ (the pig)', '黑桃Q（猪）')

The catalogues are ``locale/<lang>/LC_MESSAGES/gongzhu.po`` next to this file,
compiled to ``.mo`` (``tools/i18n.sh`` re-extracts and recompiles them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from gongzhu.i18n._translator import (
    DEFAULT_LANGUAGE,
    LanguageError,
    Translator,
    card_name,
    negotiate,
    refusal,
    translator,
)

# Not in __all__ but imported from here: the gettext domain, the catalogues' folder and the
# marker N_ that tags a message for extraction without translating it. (LANGUAGES is bound
# below, with its docstring for the API reference.)
from gongzhu.i18n._translator import DOMAIN as DOMAIN
from gongzhu.i18n._translator import LANGUAGES as _LANGUAGES
from gongzhu.i18n._translator import LOCALE_DIR as LOCALE_DIR
from gongzhu.i18n._translator import N_ as N_

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LanguageError",
    "Translator",
    "card_name",
    "negotiate",
    "refusal",
    "translator",
]

LANGUAGES: Final[Mapping[str, str]] = _LANGUAGES
"""The shipped languages: code → the language's own name (English has no catalogue)."""
