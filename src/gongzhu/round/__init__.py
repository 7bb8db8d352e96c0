"""One deal as an immutable state machine: :func:`~gongzhu.deal` → exposure → tricks → score.

:class:`Round` is a thin facade over the engine core (:mod:`gongzhu._core`):
the core holds the state as typed ints with named fields and knows every rule
of play; the facade checks what callers pass in, explains a refusal with an
:class:`~gongzhu.IllegalActionError` (and its machine-readable
:class:`~gongzhu.Reason`) and builds the public objects (cards, tricks,
views, action records) on request. Every transition returns a new
:class:`Round`; successive rounds share structure.

>>> from gongzhu import deal
>>> r = deal(seed=7)
>>> r.phase, r.to_act, len(r.hands[0])
(<Phase.EXPOSURE: 'exposure'>, 2, 13)
>>> r = r.pass_exposure()                 # every seat declines exposure (specification §9.1)
>>> card = r.legal_plays[0]
>>> r2 = r.play(card)
>>> r2.current_trick.cards == (card,), r.current_trick.cards == ()
(True, True)
>>> r3 = r2.rollout(seed=1)               # play on to the end, randomly
>>> len(r3.tricks), r3.history[:5] == r2.history, r3 == r2.rollout(seed=1)
(13, True, True)
"""

from __future__ import annotations

from gongzhu.phase import Phase as Phase
from gongzhu.round._deal import deal as deal  # public at gongzhu.dealing
from gongzhu.round._deal import match_deal_seed as match_deal_seed
from gongzhu.round._deal import shuffled_deck as shuffled_deck
from gongzhu.round._round import Round
from gongzhu.round._round import _restore_state as _restore_state  # pickles name it
from gongzhu.trick import Trick as Trick
from gongzhu.view import PlayerView as PlayerView

__all__ = ["Phase", "Round"]

Round.__module__ = __name__  # documented and shown at the public path
