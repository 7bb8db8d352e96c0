"""gongzhu: rules, scoring and an immutable play engine for Gong Zhu (拱猪, "Chase the Pig").

``import gongzhu`` loads the rules core only (cards, rules, scoring, the play engine,
matches); the playing layer (bots, search, the arena), game records, SVG pictures and
translations load on first use of one of their names (PEP 562), so the import stays
light (``benchmarks/run.py`` measures it).

>>> from gongzhu import parse_cards, score, RuleSet
>>> score([parse_cards("10C QS 7H")]).totals      # seeds/000 §07: 2 × (−100 − 10)
(-220,)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gongzhu._base import lazy as _lazy
from gongzhu.actions import Action, Claim, ClaimResponse, Exposure, Play
from gongzhu.board import Board
from gongzhu.build import compiled
from gongzhu.cards import (
    ACE_OF_HEARTS,
    DECK,
    PIG,
    SHEEP,
    TRANSFORMER,
    Card,
    CardSet,
    Hand,
    Rank,
    Suit,
    parse_cards,
)
from gongzhu.dealing import deal
from gongzhu.errors import (
    CardParseError,
    DealError,
    DealNotOverError,
    GongzhuError,
    IllegalActionError,
    MatchError,
    ProtocolError,
    Reason,
    RecordError,
    RuleSetError,
    SimulationError,
)
from gongzhu.match import EndReason, Match
from gongzhu.phase import Pending, Phase
from gongzhu.position import Position
from gongzhu.round import Round
from gongzhu.rules import (
    FACE_VALUE_HEARTS,
    PRESETS,
    STANDARD_HEARTS,
    Direction,
    ExposureKind,
    ExposureOrder,
    ExposureRestriction,
    GrandSlam,
    GrandSlamOutcome,
    LaterLeader,
    PigWithAllHearts,
    RuleSet,
    SimultaneousLoss,
    TiedWinners,
)
from gongzhu.scoring import (
    DealScore,
    ExposurePreview,
    PlayerScore,
    TransformerEffect,
    exposure_factors,
    exposure_preview,
    score,
)
from gongzhu.trick import Trick
from gongzhu.view import PlayerView

if TYPE_CHECKING:  # the lazy names below, for type checkers (the same imports, made at once)
    from gongzhu import record
    from gongzhu.ai.arena import ArenaResult, arena
    from gongzhu.ai.registry import make_strategy
    from gongzhu.ai.search import Analysis, Limit, SearchStrategy
    from gongzhu.ai.strategies import (
        RandomStrategy,
        RuleOfThumbStrategy,
        Strategy,
        play_deal,
        play_match,
    )
    from gongzhu.record import GameRecord

__version__ = "0.1.0"

# Public names loaded on first use: name -> the module that defines it ("" for the
# module itself). tests/package/test_packaging.py checks this table against the TYPE_CHECKING
# imports above and __all__.
_LAZY: dict[str, tuple[str, str]] = {
    "record": ("gongzhu.record", ""),
    "GameRecord": ("gongzhu.record", "GameRecord"),
    "ArenaResult": ("gongzhu.ai.arena", "ArenaResult"),
    "arena": ("gongzhu.ai.arena", "arena"),
    "make_strategy": ("gongzhu.ai.registry", "make_strategy"),
    "Analysis": ("gongzhu.ai.search", "Analysis"),
    "Limit": ("gongzhu.ai.search", "Limit"),
    "SearchStrategy": ("gongzhu.ai.search", "SearchStrategy"),
    "RandomStrategy": ("gongzhu.ai.strategies", "RandomStrategy"),
    "RuleOfThumbStrategy": ("gongzhu.ai.strategies", "RuleOfThumbStrategy"),
    "Strategy": ("gongzhu.ai.strategies", "Strategy"),
    "play_deal": ("gongzhu.ai.strategies", "play_deal"),
    "play_match": ("gongzhu.ai.strategies", "play_match"),
}


# fmt: off
__all__ = [
    "ACE_OF_HEARTS", "DECK", "FACE_VALUE_HEARTS", "PIG", "PRESETS", "SHEEP", "STANDARD_HEARTS",
    "TRANSFORMER", "Action", "Analysis", "ArenaResult", "Board", "Card", "CardParseError",
    "CardSet", "Claim", "ClaimResponse", "DealError", "DealNotOverError", "DealScore", "Direction",
    "EndReason", "Exposure", "ExposureKind", "ExposureOrder", "ExposurePreview",
    "ExposureRestriction", "GameRecord", "GongzhuError", "GrandSlam", "GrandSlamOutcome", "Hand",
    "IllegalActionError", "LaterLeader", "Limit", "Match", "MatchError", "Pending", "Phase",
    "PigWithAllHearts", "Play", "PlayerScore", "PlayerView", "Position", "ProtocolError",
    "RandomStrategy", "Rank", "Reason", "RecordError", "Round", "RuleOfThumbStrategy", "RuleSet",
    "RuleSetError", "SearchStrategy", "SimulationError", "SimultaneousLoss", "Strategy", "Suit",
    "TiedWinners",
    "TransformerEffect", "Trick", "__version__", "arena", "compiled", "deal", "exposure_factors",
    "exposure_preview", "make_strategy", "parse_cards", "play_deal", "play_match", "record",
    "score",
]
# fmt: on

if not TYPE_CHECKING:  # mypy would type every unknown name of gongzhu as Any otherwise
    __getattr__, __dir__ = _lazy.attach(__name__, _LAZY, __all__)
