"""The engine core: typed state, rules of play and scoring on ints.

Compiled with mypyc where a compiler exists; the same source runs as plain Python elsewhere.

The declared API
    The rest of the package imports from the core only the modules and names
    listed in :data:`API` (``tests/package/test_import_layers.py`` fails on any other,
    including ``from gongzhu._core import play as _p`` followed by ``_p.name``).
    Everything else in the core is its own business and may change without a
    caller noticing. The modules, lowest first:

    ``bits``        card masks, card constants and bit tables
    ``config``      :class:`~gongzhu._core.config.Config`, a rule set as plain ints
    ``rng``         the one random generator: seeding, the step, the random card
    ``rules``       the rules of play on masks (legal plays, trick winner, factors)
    ``scoring``     the scoring kernel
    ``state``       the immutable deal state and its log
    ``play``        advancing a state: plays, exposures, claims, refusal reasons
    ``deal``        shuffling and splitting a deck
    ``board``       the mutable board of the bots and the search
    ``infoset``     what one seat knows, as ints (``Info``: views and bots read it)
    ``greedy``, ``policy``
                    the built-in playing policies
    ``solver``      the double-dummy solver
    ``rollout``     playing a deal to its end

    A name leaves the list when nothing outside the core uses it; a new use
    outside adds it here first, on purpose.
"""

from __future__ import annotations

from typing import Final


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


API: Final[dict[str, frozenset[str]]] = {
    "bits": _names(
        "ACE_BIT BIT FULL HEARTS JACK_OF_DIAMONDS KING_OF_SPADES PIG_BIT POINT_CARDS"
        " QUEEN_OF_DIAMONDS_BIT QUEEN_OF_SPADES SHEEP_BIT SPADES SUIT_MASKS TEN_BIT"
        " TEN_OF_CLUBS"
    ),
    "board": _names("Board of_state of_world to_state"),
    "config": _names(
        "Config PIG_GRAND_SLAM_ONLY PIG_POSITIVE PIG_UNCHANGED RESTRICT_DEAL RESTRICT_NONE"
        " RESTRICT_SUIT"
    ),
    "deal": _names("STEPS deal_out shuffle split"),
    "greedy": _names("trick_values"),
    "infoset": _names(
        "ASK_EXPOSE ASK_NOTHING ASK_PLAY ASK_RESPOND CLAIM DONE EXPOSURE Info PLAY info_of"
        " plays_of public_info"
    ),
    "play": _names(
        "ALREADY_DECIDED BLIND_OFF EXPOSURE_CLOSED EXPOSURE_OUT_OF_TURN FACE_DOWN_OFF"
        " NOT_EXPOSABLE WRONG_PHASE advance claim claim_reason decide decision_reason"
        " decline_all expose exposure_open legal legal_ids legal_uncached mask_ids"
        " next_to_expose next_to_respond play_ids play_reason respond respond_reason"
        " score_of sealed totals try_play"
    ),
    "policy": _names(
        "RandomPolicy RuleOfThumb SHORT_LEADS SHORT_WEIGHT choose_board choose_exposure"
        " choose_info card_value likelihood rollout short_suit_bonus"
    ),
    "playout": _names(
        "NFEATURES choose_learned deal_value feature_rows fitted playout playout_values"
    ),
    "rng": _names("next_random random_card seed_state"),
    "rollout": _names("Policy rollout rollout_random settle"),
    "rules": _names("HEARTS_BROKEN card_classes card_factor factors queen_counts"),
    "scoring": _names("first_bad_mask score_masks"),
    "solver": _names("INF Solver"),
    "state": _names(
        "CLAIM CLAIMING COMPLETE EXPOSE HEARTS_BROKEN PLAY PLAYING State begin"
        " decision_parts entries key played restore trick_cards"
    ),
}
"""What the rest of the package may import from the core: module name -> its names."""
