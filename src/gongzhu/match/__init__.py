"""A match: running totals over finished deals, the end of the match, standings and the pig.

A :class:`Match` knows nothing about card play. It is given finished deals — a
:class:`~gongzhu.DealScore`, or any finished deal with a ``score()`` method
such as a complete ``Round`` — and keeps the running totals (specification §6).
:meth:`Match.add` returns a new match; the old one is unchanged.

>>> m = Match.new("classic", names=("Ann", "Bob", "Cid", "Dee"))
>>> m = m.add_totals((-400, 100, -200, 0)).add_totals((-650, 0, 100, -100))
>>> m.totals, m.is_over, m.end_reason, m.losers
((-1050, 100, -100, -100), True, <EndReason.LOSS_THRESHOLD: 'loss threshold'>, (0,))
>>> print(m)
deal    Ann    Bob    Cid    Dee
   1   -400    100   -200      0
   2  -1050    100   -100   -100
Over after 2 deals (loss threshold): Bob won the match; Ann lost it.

How the match ends (checked after every complete deal, in this order):

1. The deal is added to the running totals. Under
   ``grand_slam_outcome="rotate"`` a grand slam then rotates the totals: each
   seat takes the running total of the seat before it in play order
   (``new[s] = old[s - 1]``; the library's reading of seeds/003 v2, specification §7).
   Seat numbers follow play order whatever ``direction`` is, so the rotation
   and the dealer's rotation (one seat on per deal) read the same either way.
2. Under ``exact_threshold_flips`` a running total of exactly
   ``loss_threshold`` flips to its opposite (−1000 → +1000) and the match ends
   (seeds/004). The flipped player does not lose.
3. The match is over when any of these holds: a grand slam under
   ``grand_slam_outcome="instant-win"`` (seeds/002 v8); a total at the loss
   threshold (``≤``, or ``<`` when ``loss_inclusive`` is off); a flip; a total
   at the win threshold (``≥``, or ``>`` when ``win_inclusive`` is off;
   seeds/001); ``max_deals`` deals played (seeds/001's 30-deal cap).
   :attr:`Match.end_reason` names the first that holds in the order
   :class:`EndReason` lists them.
4. Under ``tied_winners="play-on"`` (duanap/gongzhu) a match that would end
   with two or more units sharing the highest total does not end:
   :attr:`Match.playing_on` is true and whole deals are added (past the
   thresholds and ``max_deals``) until, after a deal, one unit alone has the
   highest total; the match then ends with the reason that first ended it
   (or a new one that holds then). An instant-win grand slam ends it at once.
5. Losers, whatever ended the match: the players at the loss threshold, chosen
   by ``simultaneous_loss`` (the lowest, equal lowest share — seeds/000 §08; or
   all who crossed — seeds/002); if nobody is at the threshold, the lowest
   total(s) (seeds/001: "у кого меньше всех — «Свинья»"). A player who flipped
   and the grand-slam winner are never losers. Winners are the highest
   total(s) among those who did not lose; the grand-slam taker alone wins an
   instant-win match.

With ``partnerships`` all of this applies to team totals (team 0 = seats 0
and 2, team 1 = seats 1 and 3); a flip negates both partners' totals, so the
team's total flips. :attr:`Match.losers` and :attr:`Match.winners` are seats
(both players of a team); :attr:`Match.losing_teams` and
:attr:`Match.winning_teams` are team numbers.
"""

from __future__ import annotations

from gongzhu.match._match import EndReason, Match

__all__ = ["EndReason", "Match"]

for _public in (EndReason, Match):
    _public.__module__ = __name__  # documented and shown at the public path
