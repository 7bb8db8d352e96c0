"""Shared test configuration: the Hypothesis profiles.

``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) gives a bounded, reproducible
run; the default ``dev`` profile is a little larger but still quick, so a plain
``pytest`` stays fast on a laptop. Raise it for a soak run with e.g.
``HYPOTHESIS_PROFILE=thorough``.
"""

from __future__ import annotations

import os
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Test modules share helpers by module name (``from test_round_laws import playout``): every
# folder of tests/ is on the path, whichever folder pytest collected first.
for _folder in sorted(Path(__file__).parent.iterdir()):
    if _folder.is_dir() and not _folder.name.startswith((".", "_", "golden")):
        sys.path.insert(0, str(_folder))

settings.register_profile(
    "ci",
    max_examples=60,
    # Shared CI machines are noisy: a timing deadline would only add flakes.
    deadline=None,
    print_blob=True,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# A newcomer's `pytest` may run on one busy CPU: slow input generation is not a failure there
# either (the docstrings' own Hypothesis examples run under this profile too).
settings.register_profile(
    "dev",
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=2000, deadline=None, print_blob=True)

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# The vector engine's tests need NumPy (the rl extra), its environment's gymnasium too.
collect_ignore_glob: list[str] = []
if find_spec("numpy") is None:
    collect_ignore_glob.append("vector/*.py")
elif find_spec("gymnasium") is None:
    collect_ignore_glob.append("vector/test_vector_env.py")


# -- the slow tests ---------------------------------------------------------------------
# ``pytest -m "not slow"`` leaves them out: a quick subset while working. Slow are whole
# modules (browsers, whole matches through the command line, fuzzing, process pools,
# mutation checks) and the single tests that took more than about 5 s each on a loaded
# 2-core machine (``pytest --durations=60`` lists new ones).
_SLOW_MODULES = (
    "test_web_browser.py",
    "test_cli_human.py",
    "test_cli_player.py",
    "test_compiled_matches_pure.py",
)
_SLOW_MODULE_SUFFIXES = ("_fuzz.py", "_mutants.py", "_hostile_input.py", "_hostile_clients.py",
    "_refuse_bad_input.py", "_stops_and_bounds.py", "_refuses_bad_decisions.py")
_SLOW_TESTS = frozenset(
    {
        "test_greedy.py::test_every_level_decides_exposure_and_is_deterministic",
        "test_arena.py::test_play_seats_search_bots",
        "test_cli.py::test_play_deals_is_the_same_for_any_worker_count",
        "test_cli_progress.py::test_playing_deals_in_small_chunks_gives_simulates_figures",
        "test_cli_save.py::test_a_game_resumed_anywhere_is_the_uninterrupted_game",
        "test_core_rules.py::test_core_totals_are_the_public_score",
        "test_encoding.py::test_a_seat_known_void_in_a_suit_never_plays_it_later",
        "test_encoding.py::test_an_illegal_id_is_refused_and_changes_nothing",
        "test_encoding.py::test_observations_have_the_documented_size_and_depend_on_the_view_alone",
        "test_house_rules.py::test_scaling_the_pig_scales_the_pig_line_and_nothing_else",
        "test_house_rules.py::test_scaling_the_sheep_scales_the_sheep_line_and_nothing_else",
        "test_protocol.py::test_a_json_view_names_no_card_its_seat_may_not_see",
        "test_protocol.py::test_deal_scores_with_the_queen_bonus_and_teams_round_trip",
        "test_protocol.py::test_every_deal_score_round_trips_and_matches_the_schema",
        "test_protocol.py::test_every_view_of_a_random_deal_round_trips_and_matches_the_schema",
        "test_protocol.py::test_records_of_unfinished_deals_match_the_record_schema",
        "test_protocol.py::test_views_of_rounds_in_progress_round_trip",
        "test_record_fuzz.py::test_a_mutated_record_reads_or_raises_record_error",
        "test_reference_scorer.py::test_score_agrees_with_the_reference_on_slams_under_random_rules",
        "test_reference_scorer.py::test_score_agrees_with_the_reference_under_random_rules",
        "test_reference_scorer.py::test_score_agrees_with_the_reference_under_the_default_rules",
        "test_reference_scorer.py::test_the_generated_deals_do_contain_slams",
        "test_round_laws.py::test_a_deal_rebuilt_from_its_dealt_cards_is_the_same_deal",
        "test_round_laws.py::test_dealing_from_one_seat_later_rotates_the_hands",
        "test_round_laws.py::test_legal_plays_match_the_rules_and_every_refusal_has_a_reason_at_every_step",
        "test_round_laws.py::test_the_highest_card_of_the_led_suit_wins_and_leads_next",
        "test_rules.py::test_diff_names_exactly_the_differing_options",
        "test_rules.py::test_equal_rule_sets_hash_equal_and_pickle",
        "test_rules.py::test_new_options_round_trip_through_dicts_and_records",
        "test_rules.py::test_repr_is_short_and_rebuilds_the_rule_set",
        "test_rules.py::test_to_dict_from_dict_round_trip_for_random_rule_sets",
        "test_scoring_laws.py::test_each_total_follows_from_its_lines_under_the_default_rules",
        "test_scoring_laws.py::test_score_is_pure_and_deterministic",
        "test_scoring_laws.py::test_scores_are_invariant_under_permuting_seats",
        "test_testing.py::test_captures_partition_the_deck",
        "test_testing.py::test_exposures_are_valid_score_arguments",
        "test_testing.py::test_finished_rounds_include_exposures_and_claims",
        "test_testing.py::test_rule_sets_reach_every_option_value",
        "test_views.py::test_a_view_never_shows_another_seats_unplayed_cards_at_any_step",
        "test_web_server.py::test_the_same_seed_and_the_same_moves_replay_the_same_game",
    }
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        module = item.path.name
        name = f"{module}::{getattr(item, 'originalname', item.name)}"
        if (
            module in _SLOW_MODULES
            or module.endswith(_SLOW_MODULE_SUFFIXES)
            or name in _SLOW_TESTS
        ):
            item.add_marker(pytest.mark.slow)
