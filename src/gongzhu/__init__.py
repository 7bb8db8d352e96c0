"""gongzhu: rules, scoring and an immutable play engine for Gong Zhu (拱猪, "Chase the Pig").

>>> from gongzhu import parse_cards, score, RuleSet
>>> score([parse_cards("10C QS 7H")]).totals      # seeds/000 §07: 2 × (−100 − 10)
(-220,)
"""

import gongzhu.svg  # noqa: F401  (pictures: fills gongzhu._base.display for the _repr_svg_ methods)
from gongzhu import record  # users call gongzhu.record.loads/dumps
from gongzhu.actions import Action, Claim, ClaimResponse, Exposure, Play
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
from gongzhu.phase import Phase
from gongzhu.record import GameRecord
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

__version__ = "0.1.0"

__all__ = [
    "ACE_OF_HEARTS",
    "DECK",
    "FACE_VALUE_HEARTS",
    "PIG",
    "PRESETS",
    "SHEEP",
    "STANDARD_HEARTS",
    "TRANSFORMER",
    "Action",
    "Analysis",
    "ArenaResult",
    "Board",
    "Card",
    "CardParseError",
    "CardSet",
    "Claim",
    "ClaimResponse",
    "DealError",
    "DealScore",
    "Direction",
    "EndReason",
    "Exposure",
    "ExposureKind",
    "ExposureOrder",
    "ExposurePreview",
    "ExposureRestriction",
    "GameRecord",
    "GongzhuError",
    "GrandSlam",
    "GrandSlamOutcome",
    "Hand",
    "IllegalActionError",
    "LaterLeader",
    "Limit",
    "Match",
    "MatchError",
    "Phase",
    "PigWithAllHearts",
    "Play",
    "PlayerScore",
    "PlayerView",
    "ProtocolError",
    "RandomStrategy",
    "Rank",
    "Reason",
    "RecordError",
    "Round",
    "RuleOfThumbStrategy",
    "RuleSet",
    "RuleSetError",
    "SearchStrategy",
    "SimulationError",
    "SimultaneousLoss",
    "Strategy",
    "Suit",
    "TiedWinners",
    "TransformerEffect",
    "Trick",
    "__version__",
    "arena",
    "compiled",
    "deal",
    "exposure_factors",
    "exposure_preview",
    "make_strategy",
    "parse_cards",
    "play_deal",
    "play_match",
    "record",
    "score",
]
