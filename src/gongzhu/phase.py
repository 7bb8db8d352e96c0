"""The phases of a deal: what a :class:`~gongzhu.Round` expects next.

Below every module that uses it (round, view, protocol), so none of them imports another for it.
"""

from __future__ import annotations

import enum

__all__ = ["Pending", "Phase"]


class Phase(enum.Enum):
    """What a :class:`Round` expects next.

    >>> from gongzhu import RuleSet, deal
    >>> deal(seed=1).phase, deal(rules=RuleSet(exposable=""), seed=1).phase
    (<Phase.EXPOSURE: 'exposure'>, <Phase.PLAY: 'play'>)
    """

    EXPOSURE = "exposure"
    """Some seat has not decided on exposure (:attr:`Round.exposure_pending`); no lead yet."""
    PLAY = "play"
    """The seat :attr:`Round.to_act` must play a card."""
    CLAIM = "claim"
    """A claim is pending: the other seats accept or refuse it."""
    COMPLETE = "complete"
    """The deal is over: :meth:`Round.score` it."""


class Pending(enum.Enum):
    """What a seat is asked to do now: :attr:`PlayerView.pending <gongzhu.PlayerView.pending>`
    (``None`` when nothing is asked of it).

    >>> from gongzhu import deal
    >>> r = deal(seed=1)
    >>> r.view(2).pending, r.pass_exposure().view(0).pending, r.pass_exposure().view(1).pending
    (<Pending.EXPOSE: 'expose'>, <Pending.PLAY: 'play'>, None)
    """

    PLAY = "play"
    """Play a card (one of :attr:`~gongzhu.PlayerView.legal_plays`)."""
    EXPOSE = "expose"
    """Decide on exposure (expose cards or decline); under simultaneous order every
    undecided seat is asked at once, under in-turn order only the next one."""
    RESPOND = "respond"
    """Accept or refuse the pending claim."""
