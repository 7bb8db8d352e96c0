"""The glossary: the key terms of the game, fixed per language, as players say them.

A translation may be reworded, but the word for the pig, the trick or the match
number must not drift (issue: 轮 for a trick in one place, 墩 in another; 种子,
"зерно" and "semínko" for what players call the number of a game).
"""

from __future__ import annotations

import re

import pytest

from gongzhu import PIG, SHEEP, TRANSFORMER
from gongzhu.i18n import Translator
from gongzhu.phase import Phase

babel = pytest.importorskip("babel", reason="Babel (the dev extra) reads the catalogues")
from babel.messages.pofile import read_po  # noqa: E402

from gongzhu.i18n import LOCALE_DIR  # noqa: E402

# msgid → the word its translation must contain, per language.
GLOSSARY = {
    "zh": {
        "the pig": "猪",
        "the sheep": "羊",
        "the transformer": "变压器",
        "exposure": "亮牌",
        "hearts": "红桃",
        "Trick {k}: you lead.": "墩",
        "  Trick {k}: {trick}": "墩",
        "Trick": "墩",
        "⑥ deal": "本局",
        "claim": "摊牌",
        "{who} took all the hearts (全红): the hearts line is {hearts}": "全红",
        "{who} made a grand slam (满贯): every point card, {total}": "满贯",
        "; the pig and the sheep changed sign (猪羊变色)": "猪羊变色",
        ", seed {seed}": "牌局号",
        "④ base": "小计",
        "must follow suit": "有同花色必须跟",
        "hearts have not been broken": "红桃还没破",
        "online rules": "网络版规则",
        "classic club rules": "经典俱乐部规则",
        # The web page: a game (a match) is 盘, a deal 局 (reviews/webplayer-2026-12c §7);
        # the game's number is 牌局号 on the start screen and the table alike.
        "start.seed|Game number (optional: the same number deals the same cards)": "牌局号",
        "start.seed_bad|A game number has 1 to 15 digits: this one cannot be a game.": "牌局号",
        "table.number|game no. {n}": "牌局号",
        "table.number_hidden|game number shown at the end": "牌局号",
        "over.new_settings|New game, other settings": "再来一盘",
        "sheet.again|New game, same settings": "再来一盘",
        "start.normal|Normal ±1000": "盘",
        "start.quick|Quick ±500": "盘",
        "error.create|Could not start a game: {detail}": "盘",
        "start.heading|New game": "盘",
        "over.title|Game over": "盘",
    },
    "ru": {
        "the pig": "Свинья",
        "the sheep": "Коза",
        "the transformer": "Трансформатор",
        "exposure": "открытие",
        "hearts": "червы",
        "Trick {k}: you lead.": "Взятка",
        "⑥ deal": "сдача",
        ", seed {seed}": "номер",
    },
    "uk": {
        "the pig": "свиня",
        "the sheep": "вівця",
        "the transformer": "трансформатор",
        "exposure": "відкриття",
        "hearts": "черви",
        "Trick {k}: you lead.": "Взятка",
        "⑥ deal": "роздача",
        ", seed {seed}": "номер",
    },
    "cs": {
        "the pig": "prase",
        "the sheep": "ovce",
        "the transformer": "transformátor",
        "exposure": "otáčení",
        "hearts": "srdce",
        "Trick {k}: you lead.": "Štych",
        "⑥ deal": "rozdání",
        ", seed {seed}": "číslo",
    },
}

# Words that must not appear in any translation of the language (programmer words,
# the other word for a trick).
FORBIDDEN = {
    "zh": (
        "种子",
        "第{k}轮",
        "一轮",
        "网络规则",
        "基本分",
        "恰好翻转",
        "收到的牌",
        "明亮",
        # 局 is a deal: a new game is not 新局, a kind of game not 标准局; 游戏 is app-speak;
        # the game's number is 牌局号, not 牌局编号 / 本盘编号.
        "新局",
        "标准局",
        "快速局",
        "游戏",
        "编号",
    ),
    "ru": ("зерно",),
    "uk": ("зерно",),
    "cs": ("semínko", "kanec"),
}


def _catalogue(lang: str) -> dict[str, tuple[str, ...]]:
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "gongzhu.po", "rb") as fp:
        catalogue = read_po(fp, locale=lang)
    out = {}
    for message in catalogue:
        if not message.id:
            continue
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        if message.context:  # the web page's strings (gongzhu.web.strings), keyed apart
            key = f"{message.context}|{key}"
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        out[key] = tuple(strings)
    return out


@pytest.mark.parametrize("lang", sorted(GLOSSARY))
def test_the_key_terms_are_fixed(lang: str) -> None:
    catalogue = _catalogue(lang)
    wrong = {
        msgid: catalogue.get(msgid)
        for msgid, word in GLOSSARY[lang].items()
        if not all(word in s for s in catalogue.get(msgid, ("",)))
    }
    assert wrong == {}


@pytest.mark.parametrize("lang", sorted(FORBIDDEN))
def test_no_translation_uses_a_word_players_do_not_say(lang: str) -> None:
    found = [
        (msgid, s)
        for msgid, strings in _catalogue(lang).items()
        for s in strings
        if any(word in s for word in FORBIDDEN[lang])
    ]
    assert found == []


_CJK = re.compile(r"[\u4e00-\u9fff]")


def test_chinese_sentences_use_full_width_punctuation_and_no_inner_spaces() -> None:
    for msgid, strings in _catalogue("zh").items():
        for s in strings:
            if not _CJK.search(s):
                continue
            # ASCII ", " and ": " between Chinese words (code and options may keep theirs).
            assert not re.search(r"[\u4e00-\u9fff}）], ", s), (msgid, s)
            assert not re.search(r"[\u4e00-\u9fff]: ", s), (msgid, s)
    refusal = _catalogue("zh")["{who} may not play {card}: {reason}"][0]
    assert refusal == "{who}不能出{card}：{reason}"


def test_the_translator_uses_the_glossary() -> None:
    zh = Translator("zh")
    assert zh.card_name(PIG) == "黑桃Q（猪）"
    assert zh.card_name(SHEEP) == "方块J（羊）"
    assert zh.card_name(TRANSFORMER) == "梅花10（变压器）"
    assert zh.phase(Phase.EXPOSURE) == "亮牌"
    assert zh.gettext(", ") == "，"
    assert Translator("ru").nickname(PIG) == "Свинья"
    assert Translator("cs").nickname(SHEEP) == "ovce"


def test_rules_explain_speaks_the_language_and_keeps_to_the_rule_sets_own_text() -> None:
    import attrs

    from gongzhu.cli.rules import OPTION_DOCS
    from gongzhu.rules import RuleSet

    # The catalogue's copy of each option's meaning is the RuleSet field doc itself.
    docs = {field.name: field.metadata.get("doc", "") for field in attrs.fields(RuleSet)}
    assert docs == OPTION_DOCS
    zh = Translator("zh")
    assert zh.gettext(OPTION_DOCS["sign_swap"]).startswith("猪羊变色：")
    for lang in ("ru", "uk", "cs"):
        assert Translator(lang).gettext(OPTION_DOCS["players"]) != OPTION_DOCS["players"]
