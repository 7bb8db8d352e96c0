"""``gongzhu json-table``: serve one table over TCP, JSON one object per line.

The server is :mod:`gongzhu.cli.table_server` (its docstring gives the protocol),
imported when the command runs, so ``gongzhu --help`` loads no asyncio.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from gongzhu.cli._common import add_rules_options, rules_from
from gongzhu.i18n import Translator


def register(sub: Any, t: Translator) -> None:
    p = sub.add_parser(
        "json-table",
        help="serve one table over TCP, JSON one object per line, for clients in any language",
        description=(
            "Serve one deal to clients that join over TCP and speak JSON, one object per "
            "line (docs: 'Agents and clients'). Seats go in the order clients join; the "
            "deal starts when every seat is taken. The messages' JSON Schemas are "
            "table-client and table-server (--schema NAME prints one)."
        ),
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="port to listen on (8765; 0: any)")
    p.add_argument("--seed", type=int, default=None, help="the deal's seed (default: random)")
    add_rules_options(p, t)
    p.add_argument(
        "--schema",
        metavar="NAME",
        help="print a JSON Schema of the protocol and exit: table-client, table-server, "
        "view, action, error, score, rules",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.schema is not None:
        from gongzhu.protocol import schema

        print(json.dumps(schema(args.schema), indent=2, ensure_ascii=False))
        return 0
    import asyncio

    from gongzhu.cli.table_server import serve

    asyncio.run(serve(args.host, args.port, rules_from(args), args.seed))
    return 0
