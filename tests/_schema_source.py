# ruff: noqa: E501
"""The JSON Schemas of gongzhu.protocol, as Python: ``python tests/_schema_source.py`` writes
``src/gongzhu/protocol/schemas/*.json`` and ``tests/protocol/test_protocol.py`` checks the shipped
files are what this builds (so the rules schema follows :class:`RuleSet`'s options).
"""

from __future__ import annotations

import enum
import json
import sys
from pathlib import Path
from typing import Any

import attrs

from gongzhu import Phase, PlayerView, Reason, RuleSet
from gongzhu._codec.view_fields import MAX_HISTORY
from gongzhu.match import EndReason
from gongzhu.phase import Pending
from gongzhu.rules import PRESETS

DRAFT = "https://json-schema.org/draft/2020-12/schema"
CARD = {
    "type": "string",
    "pattern": "^[2-9TJQKA][CDHS]$",
    "description": "A card code: rank then suit, e.g. 'QS', 'TC'.",
}
CARDS = {"type": "array", "items": {"$ref": "#/$defs/card"}, "uniqueItems": True, "maxItems": 52}
SEAT = {"type": "integer", "minimum": 0, "maximum": 4}
NULL_SEAT = {"oneOf": [{"$ref": "#/$defs/seat"}, {"type": "null"}]}
COUNT = {"type": "integer", "minimum": 0, "maximum": 52}
FACE_DOWN = {
    "oneOf": [{"type": "boolean"}, {"$ref": "#/$defs/cards"}],
    "description": "true: every exposed card lies face down; false: none; a list: those of"
    " 'cards' that do, the others face up (specification §9.1: one decision may hold both kinds).",
}
INT = {"type": "integer"}


def _option_schema(field: Any) -> dict[str, Any]:
    kind = field.metadata["type"]
    optional = field.metadata.get("optional", False)
    doc = " ".join(field.metadata["doc"].split())
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        out: dict[str, Any] = {"enum": [m.value for m in kind]}
    elif kind is bool:
        out = {"type": "boolean"}
    elif kind is int:
        out = {"type": "integer"}
    elif kind is tuple:
        out = {"type": "array", "items": {"type": "integer"}, "maxItems": 13}
    elif kind.__name__ == "Card":
        out = {"$ref": "#/$defs/card"}
    elif kind.__name__ == "CardSet":
        out = {
            "type": "string",
            "description": "Card codes separated by spaces ('TC JD AH QS'), or empty.",
        }
    else:
        raise TypeError(f"no schema for option {field.name} of type {kind}")
    if optional:
        out = {"oneOf": [out, {"type": "null"}]}
    out["description"] = doc if "description" not in out else out["description"] + " " + doc
    return out


def rules_object(required: bool) -> dict[str, Any]:
    fields = attrs.fields(RuleSet)
    out: dict[str, Any] = {
        "type": "object",
        "properties": {f.name: _option_schema(f) for f in fields},
        "additionalProperties": False,
    }
    if required:
        out["required"] = [f.name for f in fields]
    return out


def trick(complete: bool) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "leader": {"$ref": "#/$defs/seat"},
            "cards": {**CARDS, "maxItems": 5},
            "seats": {"type": "array", "items": {"$ref": "#/$defs/seat"}, "maxItems": 5},
            "winner": {"$ref": "#/$defs/seat"} if complete else {"type": "null"},
        },
        "required": ["leader", "cards", "winner"],
        "additionalProperties": False,
    }


BASE_DEFS = {"card": CARD, "cards": CARDS, "seat": SEAT}


def action() -> dict[str, Any]:
    def kind(name: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {"type": {"const": name}, "seat": {"$ref": "#/$defs/seat"}, **props},
            "required": ["type", "seat", *required],
            "additionalProperties": False,
        }

    return {
        "$schema": DRAFT,
        "$id": "urn:gongzhu:schema:action",
        "title": "gongzhu action",
        "description": "One action of a deal (Action.to_dict / Action.from_dict).",
        "oneOf": [
            kind("play", {"card": {"$ref": "#/$defs/card"}}, ["card"]),
            kind(
                "expose",
                {
                    "cards": {"$ref": "#/$defs/cards"},
                    "face_down": FACE_DOWN,
                    "blind": {"type": "boolean"},
                },
                ["cards"],
            ),
            kind("claim", {}, []),
            kind("respond", {"accept": {"type": "boolean"}}, ["accept"]),
        ],
        "$defs": BASE_DEFS,
    }


def rules() -> dict[str, Any]:
    return {
        "$schema": DRAFT,
        "$id": "urn:gongzhu:schema:rules",
        "title": "gongzhu rule set",
        "description": "Every option of a RuleSet (RuleSet.to_dict); RuleSet.from_dict also reads a subset over the defaults.",
        **rules_object(required=False),
        "$defs": BASE_DEFS,
    }


def view() -> dict[str, Any]:
    per_seat_cards = {
        "type": "array",
        "items": {"$ref": "#/$defs/cards"},
        "minItems": 3,
        "maxItems": 5,
    }
    per_seat_counts = {"type": "array", "items": COUNT, "minItems": 3, "maxItems": 5}
    # One property per PlayerView field, by its declared type (as view.py reads them), so a
    # new field shows up here when the schemas are regenerated.
    seat_fields = {"seat", "to_act", "leader", "dealer"}
    by_type = {
        "int": COUNT,
        "int | None": {"oneOf": [COUNT, {"type": "null"}]},
        "bool": {"type": "boolean"},
        "Phase": {"enum": [p.value for p in Phase]},
        "Pending | None": {"oneOf": [{"enum": [p.value for p in Pending]}, {"type": "null"}]},
        "RuleSet": {"$ref": "#/$defs/rules"},
        "CardSet": {"$ref": "#/$defs/cards"},
        "Card | None": {"oneOf": [{"$ref": "#/$defs/card"}, {"type": "null"}]},
        "Trick": {"$ref": "#/$defs/open_trick"},
        "tuple[Trick, ...]": {"type": "array", "items": {"$ref": "#/$defs/trick"}, "maxItems": 17},
        "tuple[CardSet, ...]": per_seat_cards,
        "tuple[int, ...]": per_seat_counts,
    }
    props = {}
    for f in attrs.fields(PlayerView):
        kind = str(f.type)
        if f.name in seat_fields:
            props[f.name] = {"$ref": "#/$defs/seat"} if kind == "int" else NULL_SEAT
        elif f.name == "history_length":
            props[f.name] = {"type": "integer", "minimum": 0, "maximum": MAX_HISTORY}
        elif kind == "tuple[int, ...]" and f.name.endswith("decided"):
            props[f.name] = {
                "type": "array",
                "items": {"$ref": "#/$defs/seat"},
                "uniqueItems": True,
                "maxItems": 5,
            }
        else:
            props[f.name] = by_type[kind]
    computed = {
        "trick_number": {"type": "integer", "minimum": 0, "maximum": 17},
        "known_voids": {
            "type": "array",
            "items": {
                "type": "array",
                "items": {"enum": ["CLUBS", "DIAMONDS", "HEARTS", "SPADES"]},
                "uniqueItems": True,
            },
            "maxItems": 5,
        },
        "exposure_previews": {
            "type": "array",
            "maxItems": 4,
            "items": {
                "type": "object",
                "properties": {
                    "card": {"$ref": "#/$defs/card"},
                    "name": {"type": "string"},
                    "before": INT,
                    "after": INT,
                    "text": {"type": "string"},
                },
                "required": ["card", "name", "before", "after", "text"],
                "additionalProperties": False,
            },
        },
        "running_totals": {
            "oneOf": [{"type": "array", "items": INT, "maxItems": 5}, {"type": "null"}]
        },
    }
    return {
        "$schema": DRAFT,
        "$id": "urn:gongzhu:schema:view",
        "title": "gongzhu player view",
        "description": "What one seat may know (PlayerView.to_dict / PlayerView.from_dict).",
        "type": "object",
        "properties": {**props, **computed},
        # The rules may be left out (to_dict(include_rules=False)); every other field is written.
        "required": [name for name in props if name != "rules"],
        "additionalProperties": False,
        "$defs": {
            **BASE_DEFS,
            "rules": rules_object(required=True),
            "trick": trick(True),
            "open_trick": trick(False),
        },
    }


def error() -> dict[str, Any]:
    return {
        "$schema": DRAFT,
        "$id": "urn:gongzhu:schema:error",
        "title": "gongzhu refused action",
        "description": "IllegalActionError.to_dict: why an action was refused.",
        "type": "object",
        "properties": {
            "reason": {
                "type": "string",
                "pattern": "^[A-Z][A-Z_]*$",
                # Open-ended, so that a new reason is no schema change: clients fall back
                # on "message" for a name they do not know.
                "description": "The Reason member's name, e.g. "
                + ", ".join(r.name for r in list(Reason)[:4])
                + " (gongzhu.Reason lists them all).",
            },
            "message": {"type": "string"},
            "seat": NULL_SEAT,
            "card": {"oneOf": [{"$ref": "#/$defs/card"}, {"type": "null"}]},
            "action": {
                "type": "string",
                "description": "What was refused: play, expose, claim, respond, ...",
            },
        },
        "required": ["reason", "message", "seat", "card", "action"],
        "additionalProperties": False,
        "$defs": BASE_DEFS,
    }


def score() -> dict[str, Any]:
    player = {
        "type": "object",
        "properties": {
            "seat": {"$ref": "#/$defs/seat"},
            "cards": {"$ref": "#/$defs/cards"},
            **dict.fromkeys(
                ("hearts", "pig", "sheep", "base", "multiplier", "bonus", "total"), INT
            ),
            "transformer": {"enum": ["NONE", "LONE_BONUS", "MULTIPLIER"]},
            **{
                k: {"type": "boolean"}
                for k in ("all_hearts", "grand_slam", "lone_transformer", "fixed")
            },
        },
        "additionalProperties": False,
    }
    player["required"] = list(player["properties"])
    return {
        "$schema": DRAFT,
        "$id": "urn:gongzhu:schema:score",
        "title": "gongzhu deal score",
        "description": "DealScore.to_dict / DealScore.from_dict: one deal's score, line by line.",
        "type": "object",
        "properties": {
            "totals": {"type": "array", "items": INT, "minItems": 1, "maxItems": 5},
            "team_totals": {  # each team's total; without partnerships each seat is a team
                "oneOf": [
                    {"type": "array", "items": INT, "minItems": 1, "maxItems": 5},
                    {"type": "null"},
                ]
            },
            "all_hearts_seat": NULL_SEAT,
            "grand_slam_seat": NULL_SEAT,
            "pig_taker": NULL_SEAT,
            "rules": {"$ref": "#/$defs/rules"},
            "captures": {
                "type": "array",
                "items": {"$ref": "#/$defs/cards"},
                "minItems": 1,
                "maxItems": 5,
            },
            "exposed": {
                "type": "object",
                "propertyNames": {"enum": ["TC", "JD", "AH", "QS"]},
                "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 64},
            },
            "queen_bonus_tricks": {
                "oneOf": [{"type": "array", "items": COUNT, "maxItems": 5}, {"type": "null"}]
            },
            "players": {"type": "array", "items": player, "maxItems": 5},
        },
        "required": ["rules", "captures"],
        "additionalProperties": False,
        "$defs": {**BASE_DEFS, "rules": rules_object(required=False)},
    }


def record() -> dict[str, Any]:
    exposure_flags = {"face_down": FACE_DOWN, "blind": {"type": "boolean"}}
    deal = {
        "type": "object",
        "properties": {
            "dealer": {"$ref": "#/$defs/seat"},
            "leader": NULL_SEAT,
            "seed": {
                "oneOf": [
                    {"type": "integer"},
                    {"type": "string", "maxLength": 1000},
                    {"type": "null"},
                ]
            },
            "hands": {
                "type": "array",
                "items": {"type": "array", "items": {"type": "string"}, "maxItems": 52},
                "minItems": 3,
                "maxItems": 5,
            },
            "exposures": {
                "type": "array",
                "maxItems": 40,
                "items": {
                    "type": "object",
                    "properties": {
                        "seat": {"$ref": "#/$defs/seat"},
                        "cards": {"type": "array", "items": {"type": "string"}, "maxItems": 4},
                        **exposure_flags,
                    },
                    "required": ["seat", "cards"],
                    "additionalProperties": False,
                },
            },
            "actions": {
                "type": "array",
                "maxItems": 500,
                "items": {
                    "oneOf": [
                        {"type": "string", "description": "A card played by the seat to act."},
                        {
                            "type": "object",
                            "properties": {"claim": {"$ref": "#/$defs/seat"}},
                            "required": ["claim"],
                            "additionalProperties": False,
                        },
                        {
                            "type": "object",
                            "properties": {
                                "respond": {"$ref": "#/$defs/seat"},
                                "accept": {"type": "boolean"},
                            },
                            "required": ["respond", "accept"],
                            "additionalProperties": False,
                        },
                        {
                            "type": "object",
                            "properties": {
                                "expose": {"$ref": "#/$defs/seat"},
                                "cards": {
                                    "type": "array",
                                    "items": {"type": "string"},
                                    "maxItems": 4,
                                },
                                **exposure_flags,
                            },
                            "required": ["expose", "cards"],
                            "additionalProperties": False,
                        },
                    ]
                },
            },
            "result": {"type": "array", "items": INT, "minItems": 3, "maxItems": 5},
        },
        "required": ["dealer"],
        "additionalProperties": False,
    }
    rules_ref = rules_object(required=False)
    return {
        "$schema": DRAFT,
        "$id": "urn:gongzhu:schema:record",
        "title": "gongzhu game record",
        "description": "A deal or a match as written by gongzhu.record.dumps (docs: Game records). Reading also replays every action; this schema checks the shape only.",
        "type": "object",
        "properties": {
            "format": {"const": "gongzhu"},
            "version": {"const": 1},
            "rules": {
                "type": "object",
                "properties": {"preset": {"enum": list(PRESETS)}, "overrides": rules_ref},
                "required": ["preset"],
                "additionalProperties": False,
            },
            "players": {
                "type": "array",
                "items": {"type": "string", "minLength": 1, "maxLength": 100},
                "uniqueItems": True,
                "minItems": 3,
                "maxItems": 5,
            },
            "deals": {"type": "array", "items": {"$ref": "#/$defs/deal"}, "maxItems": 1000},
            "result": {
                "type": "object",
                "properties": {
                    "totals": {"type": "array", "items": INT, "maxItems": 5},
                    "end_reason": {
                        "oneOf": [{"enum": [e.value for e in EndReason]}, {"type": "null"}]
                    },
                    "losers": {"type": "array", "items": {"$ref": "#/$defs/seat"}, "maxItems": 5},
                    "winners": {"type": "array", "items": {"$ref": "#/$defs/seat"}, "maxItems": 5},
                },
                "additionalProperties": False,
            },
        },
        "required": ["format", "version", "rules", "deals"],
        "additionalProperties": False,
        "$defs": {**BASE_DEFS, "deal": deal},
    }


def _web(name: str) -> dict[str, Any]:
    import _web_schema_source

    built: dict[str, Any] = getattr(_web_schema_source, name)()
    return built


def _table(name: str) -> dict[str, Any]:
    import _table_schema_source

    built: dict[str, Any] = getattr(_table_schema_source, name)()
    return built


SCHEMAS = {
    "action": action,
    "error": error,
    "record": record,
    "rules": rules,
    "score": score,
    "view": view,
    # The web table's messages (tests/_web_schema_source.py builds them from the above).
    "web-client": lambda: _web("web_client"),
    "web-server": lambda: _web("web_server"),
    # The line-JSON table's messages (tests/_table_schema_source.py).
    "table-client": lambda: _table("table_client"),
    "table-server": lambda: _table("table_server"),
}


def text(name: str) -> str:
    return json.dumps(SCHEMAS[name](), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    out = Path(__file__).resolve().parent.parent / "src" / "gongzhu" / "protocol" / "schemas"
    for name in SCHEMAS:
        (out / f"{name}.json").write_text(text(name), encoding="utf-8")
        print("wrote", out / f"{name}.json", file=sys.stderr)
