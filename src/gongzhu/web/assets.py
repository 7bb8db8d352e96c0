"""The page's files: versioned URLs cached for a year, one language's catalogue, card faces.

The page (``index.html``) is sent with every ``/static/…`` address rewritten to
``/static/<version>/…``, where the version is a digest of the files
themselves: a browser may keep them forever (``Cache-Control: immutable``),
and a new release changes every address. The ES modules import each other by
relative paths, so they stay under the same version. The browser loads only
the catalogue of its page's language, ``/static/<version>/i18n/<lang>.json``,
made from the gettext catalogues (:mod:`gongzhu.web.strings`). Card faces
(``/cards/<code>.svg?lang=zh``) carry their nicknames in the page's language.
Compression is the app's (Starlette's ``GZipMiddleware``).
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
import re
from functools import cache
from importlib import resources
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gongzhu.i18n import LANGUAGES

__all__ = ["IMMUTABLE", "page_html", "routes", "version"]

IMMUTABLE: Final = "public, max-age=31536000, immutable"
_FRESH: Final = "no-cache"
_CARD: Final = re.compile(r"[2-9TJQKA][CDHS]")
_SAFE_PATH: Final = re.compile(r"[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*\.(js|css|html|svg|png|json)")


def _static() -> Any:
    return resources.files("gongzhu.web") / "static"


def _files(root: Any, prefix: str = "") -> list[tuple[str, bytes]]:
    out: list[tuple[str, bytes]] = []
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if entry.is_dir():
            out.extend(_files(entry, f"{prefix}{entry.name}/"))
        elif entry.is_file():
            out.append((prefix + entry.name, entry.read_bytes()))
    return out


@cache
def version() -> str:
    """A digest of the page's files and strings: it changes whenever any of them does."""
    digest = hashlib.sha256()
    for name, data in _files(_static()):
        digest.update(name.encode() + b"\0" + data)
    from gongzhu.web.strings import catalogue

    for lang in LANGUAGES:
        digest.update(json.dumps(catalogue(lang), sort_keys=True).encode())
    return digest.hexdigest()[:12]


@cache
def page_html() -> str | None:
    """``index.html`` with its ``/static/`` addresses versioned (None if it is not installed)."""
    index = _static() / "index.html"
    if not index.is_file():
        return None
    text: str = index.read_text(encoding="utf-8")
    return text.replace('"/static/', f'"/static/{version()}/')


def routes(headers: dict[str, str]) -> list[Route]:
    """The versioned files, the catalogues and the card faces (before the plain ``/static``)."""

    async def catalogue(request: Request) -> Response:
        from gongzhu.web.strings import catalogue as strings

        lang = request.path_params["lang"]
        if lang not in LANGUAGES:
            return Response("no such language", 404, headers=headers)
        cached = request.path_params["version"] == version()
        return Response(
            json.dumps(strings(lang), ensure_ascii=False, sort_keys=True),
            media_type="application/json",
            headers={**headers, "Cache-Control": IMMUTABLE if cached else _FRESH},
        )

    async def static_file(request: Request) -> Response:
        path = request.path_params["path"]
        if not _SAFE_PATH.fullmatch(path):
            return Response("not found", 404, headers=headers)
        entry = _static().joinpath(*path.split("/"))
        if not entry.is_file():
            return Response("not found", 404, headers=headers)
        kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
        if path.endswith(".js"):
            kind = "text/javascript"
        cached = request.path_params["version"] == version()
        return Response(
            entry.read_bytes(),
            media_type=kind,
            headers={**headers, "Cache-Control": IMMUTABLE if cached else _FRESH},
        )

    async def card(request: Request) -> Response:
        from gongzhu import svg

        code = request.path_params["code"]
        lang = request.query_params.get("lang", "en")
        if lang not in LANGUAGES:
            lang = "en"
        if code == "back":
            text = svg.back()
        elif _CARD.fullmatch(code):
            text = _card_svg(code, lang)
        else:
            return Response("no such card", 404, headers=headers)
        return Response(
            text,
            media_type="image/svg+xml",
            headers={**headers, "Cache-Control": "public, max-age=86400"},
        )

    return [
        Route("/static/{version:str}/i18n/{lang:str}.json", catalogue),
        Route("/static/{version:str}/{path:path}", static_file),
        Route("/cards/{code}.svg", card),
    ]


@cache
def _card_svg(code: str, lang: str) -> str:
    from gongzhu import svg
    from gongzhu.cards import Card

    return svg.card(Card.parse(code), lang=lang)
