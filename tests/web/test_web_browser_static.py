"""The web client's files without a browser: languages complete, the page's test contract present.

The client (``gongzhu/web/static``) ships inside the package. Its strings are
not a second catalogue: they are :data:`gongzhu.web.strings.STRINGS` (English,
keyed), translated in the same gettext catalogues as the library's messages,
and the server sends the page one language's table
(:func:`gongzhu.web.strings.catalogue`). Every key the page asks for must
exist: a missing key would show the key itself to a player.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from gongzhu.errors import Reason
from gongzhu.i18n import LANGUAGES
from gongzhu.web.strings import STRINGS, catalogue

STATIC = Path(__file__).resolve().parents[2] / "src/gongzhu/web/static"
LANGS = list(LANGUAGES)
SCRIPTS = sorted(STATIC.glob("*.js"))
# Page strings that are the same words in another language (symbols, numbers, names).
SAME_AS_ENGLISH = {"title", "card.form", "card.named", "exposure.card"}


def strings(lang: str) -> dict[str, str]:
    data = catalogue(lang)
    assert all(isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in data.items())
    return data


def test_there_is_one_catalogue_not_two() -> None:
    # No JSON catalogue is kept beside the gettext one: the page's strings come from it.
    assert not list(STATIC.rglob("*.json"))
    assert set(strings("en")) == set(STRINGS)


@pytest.mark.parametrize("lang", [lang for lang in LANGS if lang != "en"])
def test_every_page_string_is_translated(lang: str) -> None:
    en, other = strings("en"), strings(lang)
    left = sorted(k for k in en if other[k] == en[k] and k not in SAME_AS_ENGLISH)
    assert left == [], f"{lang}: still in English"


@pytest.mark.parametrize("lang", LANGS)
def test_every_string_keeps_the_placeholders_of_english(lang: str) -> None:
    en, other = strings("en"), strings(lang)
    slots = re.compile(r"\{(\w+)\}")
    for key, text in en.items():
        wanted = set(slots.findall(text))
        if key == "card.form":  # the card's form picks its own parts ("{suit_name}{rank}")
            assert set(slots.findall(other[key])) <= {"rank", "suit", "suit_name"}
            assert "rank" in slots.findall(other[key])
            continue
        assert set(slots.findall(other[key])) == wanted, f"{lang}: {key}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_keeps_no_copy_of_the_refusal_texts(lang: str) -> None:
    # One text per refusal: the server words it (gongzhu.web.words) in the hello's language.
    table = strings(lang)
    assert not [k for k in table if k.startswith("reason.") and k[7:] in Reason.__members__]


def test_chinese_uses_the_players_words() -> None:
    # The review's table (reviews/webplayer-2026-12.md §5): a native 拱猪 player's words.
    zh = strings("zh")
    text = " ".join(zh.values())
    for word in ("猪", "羊", "变压器", "亮牌", "全红", "猪羊变色", "得分牌", "托管"):
        assert word in text, word
    assert [zh[f"dir.{n}"] for n in (1, 2, 3)] == ["西家", "北家", "东家"]
    assert zh["status.waiting"].format(who="东家") == "等东家出牌"
    assert zh["plate.taken"] == "得分牌"
    assert not re.search(r"座位\s*\d", text)  # never "座位0"
    ru = strings("ru")
    assert ru["start.deal"] == "Сдать карты"  # source 001's words
    assert ru["exposure.decline"] == "Не открывать"
    assert ru["exposure.confirm"] == "Открыть {n} и играть"
    assert ru["hand.play"] == "Сыграть"


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def page() -> list[tuple[str, dict[str, str | None]]]:
    parser = _Page()
    parser.feed((STATIC / "index.html").read_text(encoding="utf-8"))
    return parser.tags


def test_the_page_carries_the_test_contract_of_issue_20() -> None:
    tags = page()
    ids = {a.get("data-testid"): (tag, a) for tag, a in tags if a.get("data-testid")}
    for testid in (
        "threshold",
        "level",
        "lang",
        "sign-swap",
        "exposure",
        "new-game",
        "hand",
        "reason",
        "play",
        "exposure-panel",
        "expose-confirm",
        "expose-decline",
        "trick",
        "score-sheet",
        "next-deal",
        "standings",
        "game-over",
        "game-over-close",
        "ranking",
        "invite",
        "felt",
        "dealing",
        "autoplay",
        "confirm",
        "cancel",
        "rules",
        "rules-panel",
        "deal-number",
        "seed",
        "history",
        "join-name",
        "join-sit",
        "join-watch",
    ):
        assert testid in ids, testid
    assert ids["threshold"][0] == "select"
    assert ids["level"][0] == "select"
    assert ids["sign-swap"][1].get("type") == "checkbox"
    assert ids["exposure"][1].get("type") == "checkbox"
    assert ids["invite"][0] == "a"
    options: dict[str, list[str]] = {}
    current = None
    for tag, a in tags:
        if tag == "select":
            current = a.get("data-testid")
        elif tag == "option" and current:
            options.setdefault(current, []).append(str(a.get("value")))
    assert options["threshold"] == ["500", "1000", "deals8"]
    assert options["all-hearts"] == ["200", "400"]
    assert options["exposable"] == ["all", "pig-transformer"]
    assert ids["join-name"][0] == "input"
    assert ids["seed"][0] == "input"
    # The felt is the table area; "Let the computer play my hand" is not beside Play.
    assert ids["felt"][1].get("id") == "felt"
    assert options["level"] == ["easy", "normal", "hard"]
    assert options["lang"] == LANGS_IN_ORDER
    # Every button has an accessible name (its text comes from data-i18n, or an aria-label).
    for tag, a in tags:
        if tag == "button":
            assert a.get("data-i18n") or a.get("aria-label") or a.get("id") == "expose-confirm", a


LANGS_IN_ORDER = list(LANGUAGES)


def test_every_key_the_page_and_script_use_exists_in_english() -> None:
    en = strings("en")
    used = {
        str(a.get("data-i18n") or a.get("data-i18n-aria"))
        for _, a in page()
        if a.get("data-i18n") or a.get("data-i18n-aria")
    }
    for path in SCRIPTS:
        script = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\bt\("([a-z_]+\.[\w.-]+)"[,)]""", script))
    assert used, "no keys found: the pattern is broken"
    assert sorted(used - set(en)) == []
    # The keys built at run time: levels, directions, sheet lines, error codes, refusals.
    for level in ("easy", "normal", "hard"):
        assert f"level.{level}" in en
    for n in range(4):
        assert f"dir.{n}" in en
    for n in range(1, 8):
        assert f"sheet.line{n}" in en
    for code in (
        "stale",
        "bad-token",
        "seat-taken",
        "not-alone",
        "rate-limited",
        "bad-message",
        "too-large",
    ):
        assert f"error.{code}" in en
    for line in ("pig", "sheep", "transformer", "hearts"):
        assert f"exposure.{line}" in en


def test_the_client_needs_no_build_step() -> None:
    # Plain ES modules loaded by the page itself: no bundler output, no package.json.
    assert not (STATIC / "package.json").exists()
    imports = [
        i
        for path in SCRIPTS
        for i in re.findall(
            r'\b(?:from|import)\s*\(?\s*"([^"]+)"', path.read_text(encoding="utf-8")
        )
    ]
    assert imports
    assert all(i.startswith("./") and (STATIC / i).is_file() for i in imports)
    # Each module is type-checked by editors and tsc (// @ts-check, JSDoc types from the schemas).
    for path in SCRIPTS:
        assert path.read_text(encoding="utf-8").startswith("// @ts-check"), path.name


def test_the_installed_package_ships_the_client() -> None:
    # In CI gongzhu is the installed wheel: the page, scripts and strings must be inside it.
    from importlib.resources import files

    shipped = files("gongzhu").joinpath("web", "static")
    for path in sorted(STATIC.rglob("*")):
        if path.is_file():
            rel = path.relative_to(STATIC).as_posix()
            assert shipped.joinpath(*rel.split("/")).read_bytes() == path.read_bytes(), rel
