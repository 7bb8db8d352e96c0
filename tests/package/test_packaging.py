"""First impressions of the package: licence, README, project links, cited sources."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ("000", "001", "002", "003", "004")


def test_the_licence_is_the_full_mit_text_with_a_copyright_line() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 the gongzhu developers\n")
    for phrase in (
        "Permission is hereby granted, free of charge",
        "The above copyright notice and this permission notice shall be included",
        'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND',
    ):
        assert phrase in text


def test_the_readme_has_no_links_that_break_on_a_package_index() -> None:
    # A package index shows the README without the repository around it: a relative
    # link (docs/rules.rst, LICENSE) leads nowhere there.
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)]*)\)", text) + re.findall(r'(?:href|src)="([^"]*)"', text)
    assert [t for t in targets if not t.startswith(("https://", "http://", "#"))] == []


def test_the_project_urls_are_declared_and_marked_as_placeholders() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    raw = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    urls = tomllib.loads(raw)["project"]["urls"]
    assert set(urls) == {"Documentation", "Source", "Changelog", "Issues"}
    comment = raw.split("[project.urls]")[0].rstrip().splitlines()[-3:]
    assert all(line.startswith("#") for line in comment)
    assert "PLACEHOLDERS" in comment[0]


def test_every_cited_source_is_in_the_repository_under_its_cited_name() -> None:
    sources = ROOT / "docs" / "sources"
    names = {p.name for p in sources.glob("*.txt")}
    cited = set()
    for page in [*(ROOT / "docs").glob("*.rst"), ROOT / "README.md"]:
        cited |= set(re.findall(r"seeds/(0\d\d_[0-9a-f]{16}\.txt)", page.read_text("utf-8")))
    assert cited  # the rules page names the files
    assert cited <= names
    assert {name[:3] for name in names} == set(SEEDS)
    for name in names:
        assert (sources / name).stat().st_size > 1000


def test_the_docs_install_from_a_checkout_as_the_readme_does() -> None:
    # The package is on no index: `pip install gongzhu` would fetch nothing (or someone
    # else's package). README and docs install the checkout: `pip install .`, `".[web]"`.
    pages = [*(ROOT / "docs").glob("*.rst"), *(ROOT / "docs").glob("*.md"), ROOT / "README.md"]
    # So do the messages and docstrings that say which extra to install.
    pages += [*(ROOT / "src" / "gongzhu").rglob("*.py"), *(ROOT / "benchmarks").glob("*.py")]
    by_name = [
        f"{page.name}: {line.strip()}"
        for page in pages
        for line in page.read_text("utf-8").splitlines()
        if re.search(r"pip install [\"']?gongzhu\b", line)
    ]
    assert by_name == []
    readme = (ROOT / "README.md").read_text("utf-8")
    assert 'pip install ".[web]"' in readme
    for page in ("index.rst", "web_table.rst"):
        assert 'pip install ".[web]"' in (ROOT / "docs" / page).read_text("utf-8"), page


# Files the sources and docs cite that are not in the repository: (name, citing file) ->
# reason (stale entries fail). The rules specification is docs/specification.md, cited as
# "specification §N"; its old name RULES.md is not in the repository.
MISSING_CITED: dict[tuple[str, str], str] = {}
# A file of another repository, cited after its name: "duanap/gongzhu ``RULES.md``".
_OTHER_REPOSITORY = re.compile(r"[\w.-]+/[\w.-]+ (?:``)?$")


def test_every_repository_file_the_sources_cite_exists() -> None:
    package = ROOT / "src" / "gongzhu"
    pages = [*package.rglob("*.py"), *package.rglob("*.json")]
    pages += [*(ROOT / "docs").glob("*.rst"), *(ROOT / "docs").glob("*.md")]
    cited: dict[tuple[str, str], None] = {}
    for path in sorted(pages):
        text = path.read_text("utf-8")
        for match in re.finditer(r"\b((?:docs/)?[A-Za-z_]+\.(?:md|rst))\b", text):
            if not _OTHER_REPOSITORY.search(text[max(0, match.start() - 80) : match.start()]):
                cited[match.group(1), path.relative_to(ROOT).as_posix()] = None
    names = {name for name, _ in cited}
    assert {"docs/architecture.rst", "docs/specification.md"} <= names
    candidates = (ROOT, ROOT / "docs")
    missing = [
        (name, where)
        for name, where in cited
        if not any((base / name).is_file() for base in candidates)
    ]
    assert set(missing) == set(MISSING_CITED), missing


# Version-history phrases ("in 0.2", "0.2's module") about releases that never were.
_VERSION_PHRASE = re.compile(
    r"\b(?:in|before|since|after|until|the)\s+0\.(\d+)\b(?![.\d])|\b0\.(\d+)'s\b"
)


def test_the_sources_cite_no_release_after_the_current_one() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    version = re.search(r'^version = "(\d+)\.(\d+)\.', pyproject, re.M)
    assert version is not None
    current = (int(version.group(1)), int(version.group(2)))
    assert current[0] == 0  # the phrases below are 0.x versions
    package = ROOT / "src" / "gongzhu"
    found = {}
    for path in sorted(package.rglob("*.py")):
        for match in _VERSION_PHRASE.finditer(path.read_text("utf-8")):
            minor = int(match.group(1) or match.group(2))
            if minor > current[1]:
                found[path.relative_to(package).as_posix()] = match.group(0)
    assert found == {}


def test_importing_the_testing_module_without_hypothesis_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['hypothesis'] = None\n"
        "try:\n    import gongzhu.testing\n"
        "except ImportError as e:\n    print(e)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "src")},
    )
    assert 'pip install ".[test]" from a checkout of gongzhu' in result.stdout


# -- A lean import (issue 28): `import gongzhu` loads the rules core only ------------------------

HEAVY = ("gongzhu.ai", "gongzhu.svg", "gongzhu.web", "gongzhu.i18n", "gongzhu.record", "gettext")


def _run(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return result.stdout


def test_import_gongzhu_loads_no_playing_layer_pictures_translations_or_records() -> None:
    # A fresh interpreter (this one has imported everything already); the installed
    # gongzhu, or src/ when the test runs on the sources (PYTHONPATH is inherited).
    out = _run(
        "import sys, gongzhu\n"
        f"heavy = {HEAVY!r}\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))"
    )
    assert out.strip() == "[]"


def test_every_public_name_imports_and_a_lazy_one_loads_its_module_on_first_use() -> None:
    import gongzhu

    out = _run(
        "import sys, gongzhu\n"
        "from gongzhu import SearchStrategy, arena, record, GameRecord\n"
        "print(SearchStrategy.__module__, arena.__module__, record.__name__,\n"
        "      'gongzhu.ai.search' in sys.modules, gongzhu.svg.__name__)"
    )
    assert out.split() == [
        "gongzhu.ai.search",
        "gongzhu.ai.arena",
        "gongzhu.record",
        "True",
        "gongzhu.svg",
    ]
    for name in gongzhu.__all__:
        assert getattr(gongzhu, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        gongzhu.no_such_name  # type: ignore[attr-defined]  # noqa: B018


def test_dir_lists_the_public_names_only() -> None:
    import gongzhu
    import gongzhu.ai.arena

    assert dir(gongzhu) == sorted(gongzhu.__all__)
    assert "ai" not in dir(gongzhu)
    assert "gongzhu" not in dir(gongzhu)


def test_the_lazy_table_matches_the_type_checking_imports_and_all() -> None:
    import ast

    import gongzhu

    tree = ast.parse(Path(gongzhu.__file__).read_text(encoding="utf-8"))
    checked: dict[str, tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom)
                assert imp.module
                for alias in imp.names:
                    if imp.module == "gongzhu":  # `from gongzhu import record`: the module
                        checked[alias.name] = (f"gongzhu.{alias.name}", "")
                    else:
                        checked[alias.name] = (imp.module, alias.name)
    assert checked == gongzhu._LAZY
    assert set(gongzhu._LAZY) <= set(gongzhu.__all__)
