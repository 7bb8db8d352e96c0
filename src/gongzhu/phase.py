"""The phases of a deal: what a :class:`~gongzhu.Round` expects next.

Below every module that uses it (round, view, protocol), so none of them imports another for it.
"""

from __future__ import annotations

import enum

__all__ = ["Phase"]


class Phase(enum.Enum):
    """What a :class:`Round` expects next.

    >>> from gongzhu import RuleSet, deal
    >>> deal(seed=1).phase, deal(RuleSet(exposable=""), seed=1).phase
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
