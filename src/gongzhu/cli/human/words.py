"""What a person types: command words in every shipped language, and cards as typed
(a code, as shown, or a nickname). Part of :mod:`gongzhu.cli.human`.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from gongzhu.i18n import Translator

if TYPE_CHECKING:
    from gongzhu.cards import Card, CardSet
    from gongzhu.rules import RuleSet

_MAX_LINE = 4096  # an answer is a few characters; a huge line is not read whole

# The command words, in every shipped language (whatever --lang says: none is a card).
_QUIT = frozenset({"quit", "exit", "退出", "выход", "вихід", "konec"})
_PASS = frozenset({"pass", "p", "none", "no", "-", "不亮", "过", "пас", "pas"})
_HINT = frozenset({"hint", "h", "提示", "подсказка", "підказка", "nápověda", "rada"})
_HAND = frozenset({"hand", "cards", "手牌", "рука", "карты", "карти", "ruka", "karty"})
_HELP = frozenset({"help", "?", "帮助", "помощь", "допомога", "pomoc"})
_AUTO = frozenset({"auto", "自动", "авто"})
_REST = frozenset({"auto deal", "auto all", "rest", "自动打完", "авто все", "auto vše"})
_SCORE = frozenset(
    {"score", "scores", "totals", "分数", "分牌", "计分", "счёт", "счет", "очки", "рахунок"}
    | {"skóre"}
)
_COUNT = frozenset({"count", "记牌", "算牌", "подсчёт", "подсчет", "підрахунок", "počty"})
_DOWN = frozenset({"down", "face-down", "暗", "暗亮"})
_YES = frozenset({"yes", "y", "是", "да", "так", "ano"})
# Typed alone these are a slip (a queen? an ace?), not a command: ask or explain.
_QUIT_SHORT = frozenset({"q"})
_AUTO_SHORT = frozenset({"a"})


@functools.cache
def _card_words() -> dict[str, Card | str]:
    """Every way the output writes a card, lower-cased, in every shipped language."""
    from gongzhu.cards import DECK
    from gongzhu.i18n import LANGUAGES

    words: dict[str, Card | str] = {}
    for tr in (Translator(lang) for lang in LANGUAGES):
        for card in DECK:
            words[tr.card(card).lower()] = card
            words[tr.card_name(card).lower()] = card
            words[f"{tr.suit(card.suit)}{card.rank.symbol}".lower()] = card
            nickname = tr.nickname(card)
            if nickname:
                words[nickname.lower()] = card
    # The players' own short names for the special cards (猪 the pig, 羊 the sheep, ...).
    for word, code in _NICKNAMES.items():
        words[word] = code
    return words


_NICKNAMES = {
    "猪": "QS", "羊": "JD", "变压器": "10C", "豬": "QS", "變壓器": "10C",
    "pig": "QS", "sheep": "JD", "transformer": "10C",
}  # fmt: skip


def parse_typed_card(t: Translator, text: str) -> Card:
    """A card as typed: a code (QS, 10h, Q♠), as shown (梅花9, 黑桃Q) or a nickname (猪)."""
    from gongzhu.cards import Card
    from gongzhu.errors import CardParseError

    try:
        return Card.parse(text)
    except CardParseError:
        pass
    key = "".join(text.split()).lower()
    found = _card_words().get(key)
    if found is None:
        raise CardParseError(f"not a card: {text[:24]!r}", token=text[:24])
    return Card.parse(found) if isinstance(found, str) else found


def parse_typed_cards(t: Translator, text: str) -> CardSet:
    """Cards as typed, separated by spaces or commas (also ， and 、)."""
    from gongzhu.cards import CardSet

    parts = [p for p in text.replace("，", " ").replace("、", " ").replace(",", " ").split() if p]
    return CardSet(parse_typed_card(t, part) for part in parts)


def rules_title(t: Translator, rules: RuleSet) -> str:
    """The rule set as the start line names it: the preset's title, with any changes."""
    from gongzhu.cli.rules import PRESET_TITLES

    name = rules.nearest_name()
    preset, sep, changes = name.partition(" + ")
    title = t.gettext(PRESET_TITLES[preset]) if preset in PRESET_TITLES else preset
    return title + (sep + changes if sep else "")
