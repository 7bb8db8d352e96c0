"""The paper score sheet of a game: one row per finished deal, with running totals.

What 拱猪 players keep on paper beside the table and the page's *history*
shows: each deal's score per seat, the game totals after it (the match's own
running totals, so any rule that changes a total is counted once, by
:class:`~gongzhu.Match`) and the cards each seat exposed in it (the reason a
deal counted double).

>>> from gongzhu import Match, RuleSet, deal
>>> r = deal(rules=RuleSet.preset("online"), seed=3).pass_exposure()
>>> while not r.is_over:
...     r = r.play(r.legal_plays[0], seat=r.to_act)
>>> rows = deal_history([r], Match(r.rules).add(r))
>>> rows[0]["deal"], rows[0]["scores"] == rows[0]["totals"], rows[0]["exposed"]
(1, True, [[], [], [], []])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gongzhu.match import Match
from gongzhu.round import Round

__all__ = ["deal_history"]


def deal_history(rounds: Sequence[Round], match: Match) -> list[dict[str, Any]]:
    """The finished deals of one game (``rounds``, scored into ``match``) as history rows."""
    return [
        {
            "deal": k,
            "scores": [int(total) for total in rnd.score().totals],
            "totals": [int(total) for total in running],
            "exposed": [[card.code for card in cards] for cards in rnd.exposures],
        }
        for k, (rnd, running) in enumerate(zip(rounds, match.history, strict=False), 1)
    ]
