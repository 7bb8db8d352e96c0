r"""The client protocol: JSON forms, their JSON Schemas, and action ids for agents.

**JSON forms.** Every object a client sees or sends has a plain, JSON-safe
dict form with cards as codes (``"QS"``, ``"TC"``), written by ``to_dict()``
and read back, checked, by ``from_dict()``:

* a seat's view: :meth:`PlayerView.to_dict <gongzhu.PlayerView.to_dict>` /
  :meth:`PlayerView.from_dict <gongzhu.PlayerView.from_dict>` (schema ``view``);
* an action: :meth:`Play.to_dict <gongzhu.Play.to_dict>` (and the other
  records') / :meth:`Action.from_dict <gongzhu.Action.from_dict>` (``action``);
* a refused action: :meth:`IllegalActionError.to_dict
  <gongzhu.IllegalActionError.to_dict>` (``error``);
* a deal's score: :meth:`DealScore.to_dict <gongzhu.DealScore.to_dict>` /
  :meth:`DealScore.from_dict <gongzhu.DealScore.from_dict>` (``score``);
* the rules: :meth:`RuleSet.to_dict <gongzhu.RuleSet.to_dict>` /
  :meth:`RuleSet.from_dict <gongzhu.RuleSet.from_dict>` (``rules``);
* a game record: :func:`gongzhu.record.dumps` / :func:`gongzhu.record.loads` (``record``).
* the web table's messages (``gongzhu serve``, ``docs/web_protocol.rst``): what a client
  sends (``web-client``) and what the server sends (``web-server``).

:func:`schema` returns each JSON Schema (draft 2020-12, self-contained).

>>> from gongzhu import Action, RuleSet, deal
>>> rnd = deal(rules=RuleSet(exposable=""), seed=1)
>>> message = {"type": "play", "seat": rnd.to_act, "card": rnd.legal_plays[0].code}
>>> rnd = rnd.apply(Action.from_dict(message))
>>> rnd.history[-1].to_dict() == message
True
>>> sorted(schema("action")["oneOf"][0]["properties"])
['card', 'seat', 'type']

**Action ids** (for learning agents; ``docs/agents.rst`` has the observation
layouts): 0–51 play the card of that index; :data:`EXPOSE` ``+ m`` exposes
face up the subset ``m`` of :data:`EXPOSABLE_ORDER` (bit 0 = 10♣ … bit 3 =
Q♠; ``EXPOSE`` itself declines); :data:`EXPOSE_FACE_DOWN` ``+ m`` declares it
face down; :data:`CLAIM`, :data:`ACCEPT`, :data:`REFUSE`; then
:data:`EXPOSE_MIXED` ``+ k`` for the decisions that hold both kinds
(:data:`MIXED_PAIRS`\ ``[k]`` is the pair of subsets ``(up, down)``, specification §9.1).

>>> action_for(54, seat=1)
Exposure(seat=1, cards=CardSet('JD'), face_down=False, blind=False)
>>> action_id(action_for(54, seat=1)), describe_action(54)
(54, 'expose JD')
>>> mixed = exposure_action_id(up="QS", down="TC")
>>> mixed, describe_action(mixed), action_for(mixed, seat=0).face_down
(90, 'expose QS, face down TC', CardSet('TC'))
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Final

from gongzhu._base.text import brief
from gongzhu._codec.encoding import (
    ACCEPT,
    CLAIM,
    EXPOSABLE_ORDER,
    EXPOSE,
    EXPOSE_FACE_DOWN,
    EXPOSE_MIXED,
    MIXED_PAIRS,
    NUM_ACTIONS,
    REFUSE,
)
from gongzhu.errors import ProtocolError
from gongzhu.protocol._ids import (
    action_for,
    action_id,
    describe_action,
    exposure_action_id,
    information_state_size,
    observation_size,
)

__all__ = [
    "ACCEPT",
    "CLAIM",
    "EXPOSABLE_ORDER",
    "EXPOSE",
    "EXPOSE_FACE_DOWN",
    "EXPOSE_MIXED",
    "MIXED_PAIRS",
    "NUM_ACTIONS",
    "REFUSE",
    "SCHEMA_NAMES",
    "action_for",
    "action_id",
    "describe_action",
    "exposure_action_id",
    "information_state_size",
    "observation_size",
    "schema",
]

SCHEMA_NAMES: Final = (
    "action",
    "error",
    "record",
    "rules",
    "score",
    "table-client",
    "table-server",
    "view",
    "web-client",
    "web-server",
)
"""The names :func:`schema` knows."""


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) named ``name``: one of :data:`SCHEMA_NAMES`.

    A fresh dict every call (change it freely).

    >>> s = schema("view")
    >>> s["$schema"], s["required"][:3]
    ('https://json-schema.org/draft/2020-12/schema', ['seat', 'phase', 'hand'])
    """
    if not isinstance(name, str) or name not in SCHEMA_NAMES:
        raise ProtocolError(f"no schema named {brief(name)}; known: {', '.join(SCHEMA_NAMES)}")
    result: dict[str, Any] = json.loads(_schema_text(name))
    return result


@cache
def _schema_text(name: str) -> str:
    return (resources.files(__name__) / "schemas" / f"{name}.json").read_text(encoding="utf-8")
