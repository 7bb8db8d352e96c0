"""The message catalogues: complete, consistent with the sources and with their compiled form.

Babel (the ``dev`` extra) reads the catalogues here exactly as ``tools/i18n.sh``
writes them; the library itself needs only the standard ``gettext`` module.
"""

from __future__ import annotations

import gettext
import string
from pathlib import Path

import pytest

from gongzhu import PIG, SHEEP, TRANSFORMER, Card, IllegalActionError, Phase, Reason, deal
from gongzhu.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    LOCALE_DIR,
    LanguageError,
    Translator,
    card_name,
    negotiate,
    refusal,
)
from gongzhu.i18n._translator import _REASONS
from gongzhu.scoring import exposure_preview, score

babel = pytest.importorskip("babel", reason="Babel (the dev extra) reads the catalogues")
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

SHIPPED = [lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE]
SRC = Path(__file__).resolve().parents[2] / "src" / "gongzhu"


def _po(lang: str) -> object:
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "gongzhu.po", "rb") as fp:
        return read_po(fp, locale=lang)


def _ids(message: object) -> tuple[str, ...]:
    mid = message.id  # type: ignore[attr-defined]
    return mid if isinstance(mid, tuple) else (mid,)


def _strings(message: object) -> tuple[str, ...]:
    value = message.string  # type: ignore[attr-defined]
    return value if isinstance(value, tuple) else (value,)


def _extracted() -> set[tuple[str | None, str]]:
    # P_(key, text): the web page's strings, keyed by their msgctxt (gongzhu.web.strings).
    keywords = {
        "_": None,
        "N_": None,
        "gettext": None,
        "ngettext": (1, 2),
        "P_": ((1, "c"), 2),
    }
    found = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        str(SRC), keywords=keywords, method_map=[("**.py", "python")]
    ):
        found.add((context, message[0] if isinstance(message, tuple) else message))
    return found


def test_the_catalogues_hold_exactly_the_messages_of_the_sources() -> None:
    # A message added to the code and not to the catalogues (or left over) fails here:
    # rerun tools/i18n.sh and translate.
    extracted = _extracted()
    assert len(extracted) > 150
    for lang in SHIPPED:
        ids = {(m.context, _ids(m)[0]) for m in _po(lang) if m.id}  # type: ignore[attr-defined]
        assert ids == extracted, (lang, sorted(extracted - ids), sorted(ids - extracted))


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_message_is_translated(lang: str) -> None:
    untranslated = [
        _ids(m)[0]
        for m in _po(lang)
        if m.id and (not all(_strings(m)) or "fuzzy" in m.flags)  # type: ignore[attr-defined]
    ]
    assert untranslated == []


def _fields(text: str) -> list[str]:
    return sorted(
        field + (f":{spec}" if spec else "")
        for _, field, spec, _ in string.Formatter().parse(text)
        if field is not None
    )


@pytest.mark.parametrize("lang", SHIPPED)
def test_placeholders_match_between_message_and_translation(lang: str) -> None:
    for message in _po(lang):
        if not message.id:  # type: ignore[attr-defined]
            continue
        wanted = _fields(_ids(message)[0])
        for translated in _strings(message):
            got = _fields(translated)
            card_form = message.context == "card.form"  # type: ignore[attr-defined]
            if _ids(message)[0] == "{rank}{symbol}" or card_form:
                # A card's form may name the suit by word instead of symbol (黑桃Q).
                assert set(got) <= {"rank", "symbol", "suit", "suit_name"}
                assert "rank" in got
                continue
            assert got == wanted, (lang, _ids(message)[0], translated)


@pytest.mark.parametrize("lang", SHIPPED)
def test_the_compiled_catalogue_is_up_to_date_with_the_po(lang: str) -> None:
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "gongzhu.mo", "rb") as fp:
        compiled = gettext.GNUTranslations(fp)
    catalog = compiled._catalog  # type: ignore[attr-defined]
    for message in _po(lang):
        if not message.id:  # type: ignore[attr-defined]
            continue
        ids, strings = _ids(message), _strings(message)
        context = message.context  # type: ignore[attr-defined]
        if context is not None:
            assert catalog.get(f"{context}\x04{ids[0]}") == strings[0], (context, ids[0])
        elif len(ids) == 1:
            assert catalog.get(ids[0]) == strings[0], ids[0]
        else:
            for k, text in enumerate(strings):
                assert catalog.get((ids[0], k)) == text, ids[0]


def test_every_reason_has_a_phrase_to_translate() -> None:
    # A Reason added to the engine needs its phrase here (and in every catalogue).
    # The English phrase is the engine's own, so English output reads as the error does.
    assert dict(_REASONS) == {r.name: r.value for r in Reason}


def test_cards_suits_and_nicknames_in_chinese() -> None:
    # RULES.md §8 glossary: 猪 (Q♠), 羊 (J♦), 变压器 (10♣); suits 红桃 黑桃 方块 梅花.
    zh = Translator("zh")
    assert zh.card(Card("AH")) == "红桃A"
    assert zh.card_name(PIG) == "黑桃Q（猪）"
    assert zh.card_name(SHEEP) == "方块J（羊）"
    assert zh.card_name(TRANSFORMER) == "梅花10（变压器）"
    assert zh.phase(Phase.EXPOSURE) == "亮牌"
    assert zh.preview(exposure_preview("QS")) == "猪 −100 → −200"


def test_english_is_the_default_and_lang_is_always_explicit() -> None:
    before = card_name(PIG)
    assert card_name(PIG, lang="zh") == "黑桃Q（猪）"
    # Asking for Chinese changed nothing for the next caller: there is no global setting.
    assert card_name(PIG) == before == "Q♠ (the pig)"
    assert Translator().preview(exposure_preview("QS")) == "Pig −100 → −200"
    with pytest.raises(LanguageError):
        Translator("klingon")


def test_refusals_render_from_the_errors_fields() -> None:
    r = deal(seed=1).pass_exposure()
    seat = (r.to_act + 1) % 4
    with pytest.raises(IllegalActionError) as info:
        r.play(r.legal_plays[0], seat=seat)
    error = info.value
    card = error.card
    assert card is not None
    assert refusal(error) == f"seat {seat} may not play {card}: not your turn"
    assert refusal(error, lang="zh") == f"座位{seat}不能出{Translator('zh').card(card)}：还没轮到你"
    assert error.reason is Reason.NOT_YOUR_TURN  # the code itself stays language-free


def test_the_sheet_in_chinese_has_the_seven_lines_of_seeds_001() -> None:
    # seeds/000 §07: 2 × (−100 − 10) = −220.
    lines = Translator("zh").sheet_lines(score("10C QS 7H")[0])
    assert lines == [
        ("① 红桃", "-10"),
        ("② 猪", "-100"),
        ("③ 羊", "0"),
        ("④ 小计", "-110"),
        ("⑤ 变压器", "×2"),
        ("⑥ 本局", "-220"),
        ("⑦ 总分", "-220"),
    ]


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "C"}, "en"),
        ({"LC_ALL": "zh_TW", "LANG": "en_US"}, "zh"),
        ({"LC_ALL": "en_US", "LANG": "zh_CN"}, "en"),
        ({"LANGUAGE": "fr:zh", "LANG": "fr_FR"}, "zh"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
    ],
)
def test_the_language_follows_the_locale_variables(environ: dict[str, str], expected: str) -> None:
    assert negotiate(environ=environ) == expected
    assert negotiate("en", environ) == "en"
