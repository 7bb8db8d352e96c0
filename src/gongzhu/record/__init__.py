"""Game records: a match or a single deal as JSON, replayed through the engine when read.

A record is to Gong Zhu what PGN is to chess: the rules, the cards dealt and
every action in order, exactly as :attr:`Round.history <gongzhu.Round.history>`
holds them. The API is shaped like :mod:`json` (as pokerkit's hand histories
are): :func:`dumps`/:func:`dump` write a finished or in-progress
:class:`~gongzhu.Round`, a sequence of rounds (the deals of one match, in
order) or a :class:`GameRecord`; :func:`loads`/:func:`load` read one back.

>>> from gongzhu import deal
>>> r = deal(seed=7).pass_exposure()
>>> while not r.is_over:
...     r = r.play(r.legal_plays[0])
>>> text = dumps(r, names=["Ann", "Bob", "Cid", "Dee"])
>>> rec = loads(text)
>>> rec.rounds == (r,), rec.match.totals == r.score().totals, dumps(rec) == text
(True, True, True)

Reading replays every action through the engine, so a record with an illegal
move, a wrong score or a wrong leader is refused with a
:class:`~gongzhu.RecordError` naming the deal (1-based), the move (1-based
position in that deal's ``actions``) or the field, and the reason:

>>> import json
>>> data = rec.to_dict()
>>> actions = data["deals"][0]["actions"]
>>> actions[1] = actions[0]                # the second seat plays the first seat's card
>>> loads(json.dumps(data))                # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gongzhu.errors.RecordError: deal 1, move 2: seat ... may not play ...: card not in hand

The format (version 1)
----------------------

A record is one JSON object::

    {
      "format": "gongzhu",
      "version": 1,
      "rules": {"preset": "classic", "overrides": {"claims": true}},
      "players": ["Ann", "Bob", "Cid", "Dee"],
      "deals": [
        {
          "dealer": 0,
          "leader": null,
          "seed": 7,
          "hands": [["KD", "2S", ...], ["9C", ...], ...],
          "exposures": [{"seat": 1, "cards": ["QS"], "face_down": false, "blind": false}],
          "actions": ["2S", "5S", "KS", "3S",
                      "AH", {"claim": 2}, {"respond": 3, "accept": true}, ...],
          "result": [-100, 50, 0, 50]
        }
      ],
      "result": {"totals": [-100, 50, 0, 50], "end_reason": null,
                 "losers": [], "winners": []}
    }

``format``, ``version``, ``rules`` and ``deals`` are required; unknown fields
are refused everywhere (the full table is in the "Game records" guide).

``rules``
    ``preset`` (one of :data:`~gongzhu.PRESETS`, the closest one) and
    ``overrides``, the options that differ from it (:meth:`RuleSet.to_dict
    <gongzhu.RuleSet.to_dict>`).
``players``
    Optional: one distinct, non-empty name per seat, in seat (play) order.
``deals``
    The deals of one match in order; every deal but the last is complete,
    and none follows the end of the match. ``dealer``: from the second deal
    on, one seat on from the previous dealer (specification §5). ``leader``:
    ``null`` when the opening card's holder leads (and must lead it if the
    rules say so), else the seat; from the second deal on, what the match
    prescribes. ``seed`` (optional): the seed given to :func:`~gongzhu.deal`;
    ``hands`` must then agree with it. ``hands``: each seat's cards in the
    order dealt (blind exposure takes the first); required without a seed.
    ``exposures`` (optional): the exposure calls made before any other
    action, in their order (``seat``, ``cards``, ``face_down`` and ``blind``
    defaulting to ``false``; ``"cards": []`` is a pass; ``face_down`` may
    instead list the cards among ``cards`` that lie face down, the others
    face up, specification §9.1). ``actions``
    (optional): every later action in order — a card code (the seat to act
    plays it), ``{"claim": seat}``, ``{"respond": seat, "accept": bool}`` and,
    rarely, ``{"expose": seat, "cards": [...], "face_down": bool, "blind":
    bool}``: an exposure made after a claim was refused before the first card
    (one made before any other action belongs in ``exposures`` and is refused
    here). ``result`` (optional): the deal's totals, checked.
``result``
    Optional: the match after its complete deals (``totals``, ``end_reason``,
    ``losers``, ``winners``), each key optional and checked.

Cards are ASCII codes, rank then suit: ``"QS"``, ``"TC"``, ``"AH"`` (the reader
also takes anything :meth:`Card.parse <gongzhu.Card.parse>` reads).

The record is exact: reading it gives back rounds equal to the ones written,
history included — every exposure call in its order, every claim and every
answer (refused ones too), every card played, also those of a trick swept up
by an accepted claim. A card forced face up by ``three_exposed_force_fourth``
is not a call: the engine exposes it when the first card is played.

Limits (hostile input gets a :class:`~gongzhu.RecordError`, quickly): text of
at most :data:`MAX_TEXT` characters, :data:`MAX_DEALS` deals,
:data:`MAX_ACTIONS` actions and :data:`MAX_EXPOSURES` exposure calls per deal,
integers of at most 80 digits, names of 100 characters, text seeds of 1000
(neither with control or invisible characters, nor white space at either end;
look-alike names are the same name);
no ``NaN``/``Infinity``, no duplicate keys, no deep nesting. A round with
more actions than that cannot be written either.
"""

from __future__ import annotations

from gongzhu.record._game import GameRecord, dump, dumps, load, loads
from gongzhu.record._read import MAX_ACTIONS, MAX_DEALS, MAX_EXPOSURES, MAX_TEXT
from gongzhu.record._schema import parse_json

__all__ = [
    "MAX_ACTIONS",
    "MAX_DEALS",
    "MAX_EXPOSURES",
    "MAX_TEXT",
    "GameRecord",
    "dump",
    "dumps",
    "load",
    "loads",
    "parse_json",
]

for _public in (GameRecord, dump, dumps, load, loads, parse_json):
    _public.__module__ = __name__  # documented and shown at the public path
