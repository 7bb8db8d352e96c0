"""The web table's message schemas (``web-client``, ``web-server``), built from the library's.

``tests/_schema_source.py`` registers them, so ``python tests/_schema_source.py``
writes them with the others and tests/protocol/test_protocol.py checks the shipped
files are current. The library's schemas (view, score, error, action, rules)
are embedded under ``$defs`` with their own definitions renamed, so each web
schema is self-contained.
"""

from __future__ import annotations

import copy
from typing import Any

from _schema_source import BASE_DEFS, DRAFT, action, error, rules_object, score, view

_LEVELS = ["easy", "normal", "hard"]
PHRASES = ["hello", "gg", "nice", "oops", "thanks", "hurry", "thumbs", "laugh", "pig"]
_ERROR_CODES = [
    "illegal",
    "stale",
    "bad-message",
    "bad-token",
    "seat-taken",
    "not-alone",
    "rate-limited",
    "too-large",
    "not-found",
    "room-full",
    "store-busy",
]
EVENT = {"type": "integer", "minimum": 0, "maximum": 2**53}
NAME = {"type": "string", "minLength": 1, "maxLength": 32}
SEAT4 = {"type": "integer", "minimum": 0, "maximum": 3}
CARD = {"type": "string", "pattern": "^[2-9TJQKA][CDHS]$"}
INTS4 = {"type": "array", "items": {"type": "integer"}, "minItems": 4, "maxItems": 4}


def _embed(schema: dict[str, Any], prefix: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the schema's body, its $defs), every ``#/$defs/x`` renamed ``#/$defs/prefix.x``."""
    schema = copy.deepcopy(schema)
    defs = schema.pop("$defs", {})
    for key in ("$schema", "$id", "title"):
        schema.pop(key, None)

    def fix(node: Any) -> Any:
        if isinstance(node, dict):
            return {
                k: (
                    v.replace("#/$defs/", f"#/$defs/{prefix}.")
                    if k == "$ref" and isinstance(v, str)
                    else fix(v)
                )
                for k, v in node.items()
            }
        if isinstance(node, list):
            return [fix(v) for v in node]
        return node

    return fix(schema), {f"{prefix}.{k}": fix(v) for k, v in defs.items()}


def _message(kind: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"type": {"const": kind}, **props},
        "required": ["type", *required],
        "additionalProperties": False,
    }


def web_client() -> dict[str, Any]:
    act, act_defs = _embed(action(), "action")
    for variant in act["oneOf"]:  # the server fills in the connection's seat
        variant["required"] = [r for r in variant["required"] if r != "seat"]
    event = {"event": {"$ref": "#/$defs/event"}}
    return {
        "$schema": DRAFT,
        "$id": "urn:gongzhu:schema:web-client",
        "title": "gongzhu web table: client to server",
        "description": (
            "One JSON text frame a web client sends on /ws/<room> (docs/web_protocol.rst); "
            "at most 8 KiB, nesting at most 8 deep, no duplicate keys."
        ),
        "oneOf": [
            _message(
                "hello",
                {
                    "token": {
                        "oneOf": [
                            {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,128}$"},
                            {"type": "null"},
                        ]
                    },
                    "name": {"oneOf": [NAME, {"type": "null"}]},
                    "lang": {
                        "type": "string",
                        "pattern": "^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8}){0,2}$",
                    },
                },
                [],
            ),
            _message("sit", {"seat": SEAT4, "name": NAME}, ["seat", "name"]),
            _message("action", {**event, "action": act}, ["event", "action"]),
            _message("next", event, ["event"]),
            _message("hint", event, ["event"]),
            _message("resync", {}, []),
            _message("new_game", event, ["event"]),
            _message("release", {**event, "seat": SEAT4}, ["event", "seat"]),
            _message("start", event, ["event"]),
            _message("undo", event, ["event"]),
            _message("speed", {"pace": {"enum": ["slow", "normal", "fast"]}}, ["pace"]),
            _message("say", {"phrase": {"enum": list(PHRASES)}}, ["phrase"]),
        ],
        "$defs": {"event": EVENT, **act_defs},
    }


def web_server() -> dict[str, Any]:
    player_view, view_defs = _embed(view(), "view")
    sheet, score_defs = _embed(score(), "score")
    refusal, error_defs = _embed(error(), "error")
    # The rule set is sent once per connection (the welcome's room), never in a view.
    del player_view["properties"]["rules"]
    player_view["description"] = "PlayerView.to_dict(include_rules=False): what one seat may know."
    public = copy.deepcopy(player_view)
    public["description"] = "A spectator's view: a view of no seat, public facts only."
    none: dict[str, Any] = {"type": "array", "maxItems": 0}
    public["properties"].update(
        seat={"type": "null"},
        hand=none,
        legal_plays=none,
        own_face_down=none,
        exposure_previews=none,
        first_dealt={"type": "null"},
        pending={"type": "null"},
    )
    room = {
        "type": "object",
        "properties": {
            "id": {"type": "string", "pattern": "^[A-Za-z0-9_-]{4,32}$"},
            "rules": {"$ref": "#/$defs/rules"},
            "rules_text": {"type": "string"},
            "rule_numbers": {
                "description": (
                    "Deal scores the rules panel quotes, each gongzhu.score of a small pile under"
                    " the table's rules (all hearts, the pig/sheep flip, the grand slam, ...)."
                ),
                "type": "object",
                "additionalProperties": {"type": "integer"},
            },
            "threshold": {"enum": [500, 1000]},
            "sign_swap": {"type": "boolean"},
            "exposure": {"type": "boolean"},
            "level": {"enum": _LEVELS},
            "seats": {
                "type": "array",
                "minItems": 4,
                "maxItems": 4,
                "items": {
                    "type": "object",
                    "properties": {
                        "name": NAME,
                        "kind": {"enum": ["human", "computer"]},
                        "connected": {"type": "boolean"},
                        "autoplay": {"type": "boolean"},
                        "takeover_in": {
                            "description": (
                                "Seconds before a computer takes the seat of a player who is"
                                " away (0: it has); null for a computer or a player who is here."
                            ),
                            "oneOf": [{"type": "number", "minimum": 0}, {"type": "null"}],
                        },
                    },
                    "required": ["name", "kind", "connected", "autoplay", "takeover_in"],
                    "additionalProperties": False,
                },
            },
            "history": {
                "description": (
                    "The finished deals of this game, as a paper score sheet: each deal's score"
                    " per seat, the running totals after it, the cards each seat exposed."
                ),
                "type": "array",
                "maxItems": 30,
                "items": {
                    "type": "object",
                    "properties": {
                        "deal": {"type": "integer", "minimum": 1},
                        "scores": INTS4,
                        "totals": INTS4,
                        "exposed": {
                            "type": "array",
                            "minItems": 4,
                            "maxItems": 4,
                            "items": {"type": "array", "items": CARD, "maxItems": 4},
                        },
                    },
                    "required": ["deal", "scores", "totals", "exposed"],
                    "additionalProperties": False,
                },
            },
            "totals": {"type": "array", "items": {"type": "integer"}, "minItems": 4, "maxItems": 4},
            "deals_played": {"type": "integer", "minimum": 0},
            "max_deals": {"oneOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
            "game_no": {"type": "integer", "minimum": 1},
            "deal_no": {
                "description": "The deal in progress (or just finished) in this game, from 1.",
                "type": "integer",
                "minimum": 1,
            },
            "seed": {
                "description": (
                    "The game's number as text: a number a player chose is shown to everyone"
                    " from the start; another only once the game is over (it then replays"
                    " the game)."
                ),
                "oneOf": [{"type": "string", "maxLength": 200}, {"type": "null"}],
            },
            "seeded": {
                "description": "A player chose this room's number (they may know every hand).",
                "type": "boolean",
            },
            "invite": {"type": "string", "pattern": "^/t/[A-Za-z0-9_-]{4,32}$"},
            "lobby": {
                "description": (
                    "The table waits for friends: nobody sees a card until the host (seat 0)"
                    " sends start."
                ),
                "type": "boolean",
            },
            "open": {
                "description": (
                    "An open table: listed in GET /api/tables while it waits for friends with"
                    " a free seat and its host at the table."
                ),
                "type": "boolean",
            },
            "pace": {
                "description": "The table's speed: the computers' pause before a card.",
                "enum": ["slow", "normal", "fast"],
            },
            "undos": {
                "description": (
                    "Per deal of this game (deal 1 first, through the deal in progress):"
                    " the cards its player took back (undo)."
                ),
                "type": "array",
                "items": {"type": "integer", "minimum": 0},
            },
            "watchers": {
                "description": "How many watch the table.",
                "type": "integer",
                "minimum": 0,
            },
            "watcher_names": {
                "description": 'The names the watchers gave ("": none), at most 20.',
                "type": "array",
                "items": {"type": "string", "maxLength": 32},
                "maxItems": 20,
            },
        },
        "additionalProperties": False,
    }
    room["required"] = list(room["properties"])
    room["description"] = "The public room with its rule set (welcome; GET /api/rooms/<id>)."
    # A state's room: the same without the rule set (the connection's welcome carried it).
    room_state = copy.deepcopy(room)
    for key in ("rules", "rules_text", "rule_numbers"):
        del room_state["properties"][key]
        room_state["required"].remove(key)
    room_state["description"] = "The public room in a state: no rule set (see the welcome)."
    seats4 = {"type": "array", "items": SEAT4, "uniqueItems": True, "maxItems": 4}
    option = {
        "type": "object",
        "properties": {
            "card": {"enum": ["TC", "JD", "AH", "QS"]},
            "name": {"type": "string"},
            "line": {"enum": ["pig", "sheep", "transformer", "hearts", ""]},
            "before": {"type": "integer"},
            "after": {"type": "integer"},
            "text": {"type": "string"},
        },
        "required": ["card", "name", "line", "before", "after", "text"],
        "additionalProperties": False,
    }
    event = {"event": {"$ref": "#/$defs/event"}}
    return {
        "$schema": DRAFT,
        "$id": "urn:gongzhu:schema:web-server",
        "title": "gongzhu web table: server to client",
        "description": (
            "One JSON text frame the server sends on /ws/<room> (docs/web_protocol.rst). "
            "Every message carries the room's event counter."
        ),
        "oneOf": [
            _message(
                "welcome",
                {
                    **event,
                    "seat": {"oneOf": [SEAT4, {"type": "null"}]},
                    "token": {"oneOf": [{"type": "string"}, {"type": "null"}]},
                    "room": {"$ref": "#/$defs/room"},
                },
                ["event", "seat", "token", "room"],
            ),
            _message(
                "state",
                {
                    **event,
                    "room": {"$ref": "#/$defs/room_state"},
                    "view": {"oneOf": [{"$ref": "#/$defs/view"}, {"$ref": "#/$defs/public_view"}]},
                    "deal_no": {"type": "integer", "minimum": 1},
                    "exposure_options": {"type": "array", "items": option, "maxItems": 4},
                    "last_score": {"oneOf": [{"$ref": "#/$defs/score"}, {"type": "null"}]},
                    "game_over": {
                        "oneOf": [
                            {
                                "type": "object",
                                "properties": {
                                    "winners": seats4,
                                    "losers": seats4,
                                    "end_reason": {"type": "string"},
                                },
                                "required": ["winners", "losers", "end_reason"],
                                "additionalProperties": False,
                            },
                            {"type": "null"},
                        ]
                    },
                    "deal_code": {
                        "oneOf": [
                            {"type": "string", "pattern": "^[0-9A-Z]{1,16}$"},
                            {"type": "null"},
                        ]
                    },
                    "daily": {"oneOf": [{"type": "string", "maxLength": 10}, {"type": "null"}]},
                    "shared": {"type": "boolean"},
                },
                [
                    "event",
                    "room",
                    "view",
                    "deal_no",
                    "exposure_options",
                    "last_score",
                    "game_over",
                    "deal_code",
                    "daily",
                    "shared",
                ],
            ),
            _message(
                "error",
                {
                    **event,
                    "code": {"enum": _ERROR_CODES},
                    "message": {"type": "string"},
                    "reply_to": {"type": "string"},
                    "detail": {
                        "type": "object",
                        "description": "For code 'illegal': the refusal (schema error).",
                    },
                },
                ["event", "code", "message", "reply_to", "detail"],
            ),
            _message(
                "hint",
                {
                    **event,
                    "cards": {
                        "type": "array",
                        "maxItems": 13,
                        "items": {
                            "type": "object",
                            "properties": {
                                "card": {"type": "string", "pattern": "^[2-9TJQKA][CDHS]$"},
                                "expected": {"type": "number"},
                                "stderr": {"type": "number", "minimum": 0},
                                "samples": {"type": "integer", "minimum": 0},
                            },
                            "required": ["card", "expected", "stderr", "samples"],
                            "additionalProperties": False,
                        },
                    },
                },
                ["event", "cards"],
            ),
            _message(
                "thinking",
                {
                    **event,
                    "seat": {
                        "description": "The seat a computer is deciding for (cards only).",
                        "oneOf": [SEAT4, {"type": "null"}],
                    },
                },
                ["event", "seat"],
            ),
            _message(
                "said",
                {
                    **event,
                    "seat": SEAT4,
                    "phrase": {
                        "description": "A quick message's phrase (the page words it).",
                        "enum": list(PHRASES),
                    },
                },
                ["event", "seat", "phrase"],
            ),
        ],
        "$defs": {
            **BASE_DEFS,
            "event": EVENT,
            "rules": rules_object(required=True),
            "room": room,
            "room_state": room_state,
            "view": player_view,
            "public_view": public,
            "score": sheet,
            "refusal": refusal,
            **view_defs,
            **score_defs,
            **error_defs,
        },
    }
