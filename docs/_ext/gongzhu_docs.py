"""Sphinx directives that generate documentation from the code, so the two cannot drift.

``.. gongzhu-options::``
    One section per :class:`gongzhu.RuleSet` option, from ``RuleSet.options()`` (the
    options' own definitions): its description, sources, type, default, allowed
    values (enum members with their docstrings) and the presets that change it.
``.. gongzhu-presets::``
    One section per entry of :data:`gongzhu.PRESETS`: its description and sources
    (from ``gongzhu.rules.PRESET_INFO``) and every option where it differs from ``classic``
    (``classic`` itself lists all its values).
``.. gongzhu-modules::``
    A summary table of the names the listed modules define (one module per line),
    then one ``automodule`` section per module; after the build, a warning for any
    name of ``gongzhu.__all__`` that no API page documents.

Missing metadata or a preset without a description is a Sphinx warning, so the
``-W`` build fails instead of publishing an incomplete page.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import pkgutil
import re
import types
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

import gongzhu
from gongzhu.cards import Card, CardSet
from gongzhu.rules import (
    FACE_VALUE_HEARTS,
    OPTION_NAMES,
    PRESET_INFO,
    PRESETS,
    STANDARD_HEARTS,
    OptionInfo,
    RuleSet,
)

_logger = logging.getLogger(__name__)

_BASE_PRESET = "classic"
_RST_SPECIAL = re.compile(r"([\\*`|_])")


def _attr_docs() -> dict[tuple[str, str], list[str]]:
    """Attribute docstrings of gongzhu.rules (enum members, PRESETS), as autodoc reads them."""
    out: dict[tuple[str, str], list[str]] = {}
    for module in _package_modules("gongzhu.rules"):
        for key, lines in ModuleAnalyzer.for_module(module).find_attr_docs().items():
            out.setdefault(key, list(lines))
    return out


def _package_modules(package: str) -> list[str]:
    """The package and its submodules: a package's ``__init__`` re-exports classes defined
    in private modules and sets their ``__module__`` to its own name (the public path)."""
    found = [package]
    module = importlib.import_module(package)
    for info in pkgutil.iter_modules(getattr(module, "__path__", [])):
        found.append(f"{package}.{info.name}")
    return found


def _parts(module: str) -> list[str]:
    """A module's private parts: ``pkg._mod_*`` (e.g. ``gongzhu.ai._search_results``) define
    classes that ``pkg.mod`` re-exports with ``__module__`` set to its own name."""
    package, _, name = module.rpartition(".")
    path = getattr(importlib.import_module(package), "__path__", [])
    return [
        f"{package}.{info.name}"
        for info in pkgutil.iter_modules(path)
        if info.name.startswith(f"_{name}_")
    ]


def _merge_package_attribute_docs(app: Sphinx) -> None:
    """Attribute docstrings (``x: int`` then a string; enum members) of the classes a
    package defines in its submodules (a module: in its parts, :func:`_parts`) and
    re-exports with ``__module__`` set to its own name (the public path): autodoc reads a
    class's attribute docs from the analyzer of its ``__module__``, so the package's
    analyzer gets its submodules' as well."""
    packages = {getattr(getattr(gongzhu, name), "__module__", None) for name in gongzhu.__all__}
    for package in sorted(p for p in packages if isinstance(p, str)):
        module = importlib.import_module(package)
        parts = _package_modules(package)[1:] if hasattr(module, "__path__") else _parts(package)
        if not parts:
            continue
        analyzer = ModuleAnalyzer.for_module(package)
        analyzer.analyze()
        for sub in parts:
            try:
                other = ModuleAnalyzer.for_module(sub)
                other.analyze()
            except Exception:  # a module without source: nothing to add
                continue
            for key, lines in other.attr_docs.items():
                analyzer.attr_docs.setdefault(key, lines)
            base = len(analyzer.tagorder)
            for key, order in other.tagorder.items():
                analyzer.tagorder.setdefault(key, base + order)


def _text(value: str) -> str:
    """Plain metadata text as RST: escape markup characters, link option names."""
    return _link_options(_RST_SPECIAL.sub(r"\\\1", value))


def _link_options(escaped: str) -> str:
    # Option names were escaped (a\_b); match them in that form and turn them into links.
    def link(match: re.Match[str]) -> str:
        name = match.group(0).replace("\\_", "_")
        return f":ref:`{name} <option-{name}>`"

    pattern = "|".join(re.escape(n.replace("_", "\\_")) for n in OPTION_NAMES if "_" in n)
    return re.sub(rf"(?<![\w\\])(?:{pattern})(?![\w\\])", link, escaped)


def _code(value: Any) -> str:
    """An option value as a reader would write it (the text the RuleSet converters accept)."""
    if isinstance(value, enum.Enum):
        return f'"{value.value}"'
    if isinstance(value, (Card, CardSet)):
        return f'"{value.code}"'
    if value == STANDARD_HEARTS:
        return '"standard"'
    if value == FACE_VALUE_HEARTS:
        return '"face-value"'
    return repr(value)


def _literal(value: Any) -> str:
    """The value as inline code, with the cards or heart values spelled out after it."""
    out = f"``{_code(value)}``"
    if isinstance(value, (Card, CardSet)):
        out += f" ({value or 'none'})"
    elif value in (STANDARD_HEARTS, FACE_VALUE_HEARTS):
        out += " (2♥ … A♥: " + " ".join(str(v).replace("-", "−") for v in value) + ")"
    return out


def _type_name(option: OptionInfo) -> str:
    kind = option.kind
    if issubclass(kind, enum.Enum):
        name = f":class:`~gongzhu.rules.{kind.__name__}`"
    else:
        name = f"``{kind.__name__}``"
    return name + (" or ``None``" if option.optional else "")


def _values(option: OptionInfo, docs: dict[tuple[str, str], list[str]]) -> list[str]:
    kind = option.kind
    if issubclass(kind, enum.Enum):
        out = [""]
        for member in option.values:
            doc = " ".join(line.strip() for line in docs.get((kind.__name__, member.name), []))
            out.append(f'   * ``"{member.value}"`` ({kind.__name__}.{member.name})')
            if doc:
                out[-1] += f" — {doc}"
        return out
    if kind is bool:
        return ["``True`` or ``False``"]
    return []


def _option_rst(option: OptionInfo, docs: dict[tuple[str, str], list[str]]) -> list[str]:
    name = option.name
    for key in ("description", "sources"):
        if not getattr(option, key):
            _logger.warning("RuleSet option %r has no %r metadata", name, key)
    default = option.default
    lines = [
        f".. _option-{name}:",
        "",
        f"``{name}``",
        "-" * (len(name) + 4),
        "",
        _text(option.description),
        "",
        f":Default: {_literal(default)} (type {_type_name(option)})",
    ]
    values = _values(option, docs)
    if values:
        lines.append(f":Values: {values[0]}")
        lines.extend(values[1:])
    lines.append(f":Sources: {_text(option.sources)}")
    changed = [
        f":ref:`{preset} <preset-{preset}>` ({_literal(getattr(rules, name))})"
        for preset, rules in PRESETS.items()
        if getattr(rules, name) != default
    ]
    lines.append(f":Presets: {', '.join(changed) if changed else 'all use the default'}")
    example = _example(option)
    if example is not None:
        lines.append(f":Example: ``RuleSet({name}={example})``")
    lines.append("")
    return lines


def _example(option: OptionInfo) -> str | None:
    """A keyword value other than the default, from a preset or the option's values (if any)."""
    default = option.default
    for rules in PRESETS.values():
        value = getattr(rules, option.name)
        if value != default:
            return _code(value)
    other = next((v for v in option.values if v != default), None)
    if other is not None:
        return _code(other)
    if option.optional and default is not None:
        return "None"
    return None


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = [".. list-table::", "   :header-rows: 1", ""]
    for row in [header, *rows]:
        lines.append(f"   * - {row[0]}")
        lines.extend(f"     - {cell}" for cell in row[1:])
    lines.append("")
    return lines


def _preset_rst(name: str) -> list[str]:
    rules = PRESETS[name]
    info = PRESET_INFO[name]
    lines = [
        f".. _preset-{name}:",
        "",
        f"``{name}``",
        "-" * (len(name) + 4),
        "",
        info.description,
        "",
        f":Sources: {_text(info.sources)}",
        "",
    ]
    if name == _BASE_PRESET:
        lines += [f'``RuleSet.preset("{name}")``, equal to ``RuleSet()``, has these values:', ""]
        rows = [[f":ref:`{o} <option-{o}>`", _literal(getattr(rules, o))] for o in OPTION_NAMES]
        lines += _table(["option", "value"], rows)
        return lines
    diff = PRESETS[_BASE_PRESET].diff(rules)
    if not diff:
        lines += [f'``RuleSet.preset("{name}")`` has the same option values as ``classic``.', ""]
        return lines
    lines += [
        f'``RuleSet.preset("{name}")`` differs from ``{_BASE_PRESET}`` in {len(diff)} '
        f"option{'s' if len(diff) != 1 else ''}:",
        "",
    ]
    rows = [
        [f":ref:`{o} <option-{o}>`", _literal(before), _literal(after)]
        for o, (before, after) in diff.items()
    ]
    lines += _table(["option", _BASE_PRESET, name], rows)
    return lines


class _GeneratedDirective(SphinxDirective):
    has_content = True

    def _lines(self) -> list[str]:
        raise NotImplementedError

    def run(self) -> list[nodes.Node]:
        source = self.get_source_info()[0] or "<gongzhu_docs>"
        content = StringList()
        for line in self._lines():
            content.append(line, source)
        holder = nodes.section()
        holder.document = self.state.document
        nested_parse_with_titles(self.state, content, holder)
        return list(holder.children)


class OptionsDirective(_GeneratedDirective):
    """``.. gongzhu-options::`` — every RuleSet option, in declaration order."""

    def _lines(self) -> list[str]:
        docs = _attr_docs()
        out: list[str] = []
        for option in RuleSet.options():
            out += _option_rst(option, docs)
        return out


class PresetsDirective(_GeneratedDirective):
    """``.. gongzhu-presets::`` — every preset, classic in full, the others as diffs."""

    def _lines(self) -> list[str]:
        out: list[str] = []
        for name in PRESETS:
            out += _preset_rst(name)
        return out


class ModulesDirective(_GeneratedDirective):
    """``.. gongzhu-modules::`` — a summary table of the names the listed modules define, then
    one ``automodule`` section per module.

    Each content line names a module; a line ``gongzhu.x  summary`` puts the module's
    names in the table but documents them elsewhere (a guide page that already holds
    their ``autoclass``). A public name (of ``gongzhu.__all__``) that no page's
    directive documents is a warning at the end of the build, so a new public module
    must be given a place in the reference (see :func:`_check_every_name_has_a_page`).
    """

    def _lines(self) -> list[str]:
        entries = [line.split() for line in self.content if line.strip()]
        documented = self.env.__dict__.setdefault("gongzhu_api_names", {})
        names: set[str] = set()
        rows: list[list[str]] = []
        out: list[str] = []
        for entry in entries:
            name, summary_only = entry[0], entry[1:] == ["summary"]
            module = importlib.import_module(name)
            names.update(getattr(module, "__all__", ()))
            names.add(name.removeprefix("gongzhu."))
            rows += _summary_rows(module)
            if summary_only:
                continue
            out += [f"``{name}``", "-" * (len(name) + 4), "", f".. automodule:: {name}"]
            if _has_private_bases(module):
                # A class built on a private base: list the base's members too.
                out.append("   :inherited-members: object")
            out.append("")
        documented[self.env.docname] = names
        return _table(["name", "what it is"], rows) + out


def _summary_rows(module: types.ModuleType) -> list[list[str]]:
    """One row per name of the module's ``__all__`` (what autodoc documents there): a link
    and the first sentence of its docstring."""
    analyzer = ModuleAnalyzer.for_module(module.__name__)
    attr_docs = analyzer.find_attr_docs()
    rows = []
    for public in getattr(module, "__all__", ()):
        obj = getattr(module, public)
        if isinstance(obj, (type, types.FunctionType, types.ModuleType)):
            doc = inspect.getdoc(obj) or ""
        else:
            doc = " ".join(attr_docs.get(("", public), []))
        role = "mod" if isinstance(obj, types.ModuleType) else "obj"
        target = obj.__name__ if role == "mod" else f"{module.__name__}.{public}"
        rows.append([f":py:{role}:`~{target}`", _first_sentence(doc)])
    return rows


def _first_sentence(doc: str) -> str:
    """The first sentence of a docstring's first paragraph, on one line."""
    paragraph = " ".join(doc.strip().split("\n\n")[0].split())
    match = re.match(r"(.+?[.!?])(\s|$)", paragraph)
    return (match.group(1) if match else paragraph) or "—"


def _check_every_name_has_a_page(app: Sphinx, env: Any) -> None:
    """Warn for a name of ``gongzhu.__all__`` that no API page documents."""
    pages: dict[str, set[str]] = env.__dict__.get("gongzhu_api_names", {})
    documented = set().union(*pages.values()) if pages else set()
    for public in sorted(set(gongzhu.__all__) - documented - {"__version__"}):
        _logger.warning(
            "gongzhu.%s is in gongzhu.__all__ but on no API page (docs/api/*.rst): "
            "list its module in a gongzhu-modules directive",
            public,
        )


def _purge_api_names(app: Sphinx, env: Any, docname: str) -> None:
    env.__dict__.get("gongzhu_api_names", {}).pop(docname, None)


def _merge_api_names(app: Sphinx, env: Any, docnames: Any, other: Any) -> None:
    mine = env.__dict__.setdefault("gongzhu_api_names", {})
    mine.update(other.__dict__.get("gongzhu_api_names", {}))


def _has_private_bases(module: types.ModuleType) -> bool:
    """Whether a public class of ``module`` inherits from a private class of gongzhu."""
    for public in getattr(module, "__all__", ()):
        obj = getattr(module, public, None)
        if isinstance(obj, type) and obj.__module__ == module.__name__:
            for base in obj.__mro__[1:]:
                if base.__module__.startswith("gongzhu.") and base.__name__.startswith("_"):
                    return True
    return False


def _skip_docstring_doctests(app: Sphinx, doctree: nodes.document) -> None:
    """Leave docstring examples to pytest (``--doctest-modules``), which runs them in their
    own module's namespace; the doctest builder then tests only the pages' own examples."""
    for block in doctree.findall(nodes.doctest_block):
        if ":docstring of " in (block.source or ""):
            block["skipif"] = "True"


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("doctree-read", _skip_docstring_doctests)
    app.connect("builder-inited", _merge_package_attribute_docs)
    app.add_directive("gongzhu-options", OptionsDirective)
    app.add_directive("gongzhu-presets", PresetsDirective)
    app.add_directive("gongzhu-modules", ModulesDirective)
    app.connect("env-purge-doc", _purge_api_names)
    app.connect("env-merge-info", _merge_api_names)
    app.connect("env-check-consistency", _check_every_name_has_a_page)
    return {"version": gongzhu.__version__, "parallel_read_safe": True}
