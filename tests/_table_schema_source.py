"""The line-JSON table's message schemas (``table-client``, ``table-server``): the envelope of
``gongzhu json-table`` (``gongzhu.cli.json_table``), with the library's payload schemas
embedded under ``$defs`` (as the web table's, ``tests/_web_schema_source.py``).

``tests/_schema_source.py`` registers them; ``python tests/_schema_source.py`` writes them.
"""

from __future__ import annotations

from typing import Any

from _schema_source import BASE_DEFS, DRAFT, action, error, rules_object, score, view
from _web_schema_source import _embed, _message

_NAME = {"type": "string", "maxLength": 1000}
_WHY = {"enum": ["disconnected", "stopped reading", "too slow", "line too long"]}


def table_client() -> dict[str, Any]:
    act, act_defs = _embed(action(), "action")
    join = _message("join", {"name": _NAME}, [])
    return {
        "$schema": DRAFT,
        "$id": "urn:gongzhu:schema:table-client",
        "title": "gongzhu line-JSON table: client to server",
        "description": (
            "One JSON object per line to `gongzhu json-table`: a join line first, then "
            "actions as Action.to_dict writes them (the seat is the connection's)."
        ),
        "oneOf": [join, act],
        "$defs": act_defs,
    }


def table_server() -> dict[str, Any]:
    view_body, view_defs = _embed(view(), "view")
    error_body, error_defs = _embed(error(), "error")
    score_body, score_defs = _embed(score(), "score")
    seat = {"$ref": "#/$defs/seat"}
    messages = [
        _message("welcome", {"seat": seat, "rules": {"$ref": "#/$defs/rules"}}, ["seat", "rules"]),
        # What the table asks of the seat is view.pending; history_length orders the views.
        _message("view", {"view": {"$ref": "#/$defs/view"}}, ["view"]),
        # A refused action changes nothing: the sender's current view comes with it (none
        # before the deal starts).
        _message("error", {"error": error_body, "view": {"$ref": "#/$defs/view"}}, ["error"]),
        _message("score", {"score": score_body}, ["score"]),
        _message("bye", {}, []),
        _message(
            "left",
            {"seat": seat, "reason": _WHY, "replaced_by": {"enum": ["bot", None]}},
            ["seat", "reason", "replaced_by"],
        ),
        _message("joined", {"seat": seat}, ["seat"]),
    ]
    return {
        "$schema": DRAFT,
        "$id": "urn:gongzhu:schema:table-server",
        "title": "gongzhu line-JSON table: server to client",
        "description": (
            "One JSON object per line from `gongzhu json-table`: welcome, then views, "
            "errors to the sender, left/joined notices, and the score and bye at the end."
        ),
        "oneOf": messages,
        "$defs": {
            **BASE_DEFS,
            "rules": rules_object(required=True),
            "view": view_body,
            **view_defs,
            **error_defs,
            **score_defs,
        },
    }
