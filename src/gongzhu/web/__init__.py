"""The web table (issue #20): ``gongzhu serve``, rooms in a browser, alone or with friends.

Needs the ``web`` extra (``pip install ".[web]"`` from a checkout of gongzhu:
Starlette, uvicorn with websockets, platformdirs). ``import gongzhu`` never
imports this package; :func:`create_app` is imported on first use, so the room
and store modules work without Starlette.

>>> from gongzhu.web import create_app                      # doctest: +SKIP
>>> app = create_app(store="rooms.sqlite3", bot_delay=0.6)  # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gongzhu.web.app import create_app
    from gongzhu.web.limits import Limits

__all__ = ["Limits", "create_app"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from gongzhu.web.app import create_app
        from gongzhu.web.limits import Limits

        return {"Limits": Limits, "create_app": create_app}[name]
    raise AttributeError(f"module 'gongzhu.web' has no attribute {name!r}")
