"""First impressions of the package: licence, README, project links, cited sources."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
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
    assert "pip install 'gongzhu[test]'" in result.stdout
