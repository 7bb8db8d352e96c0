"""The duplicate arena: statistics, rotation, determinism across workers, deal files, the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from gongzhu import Limit, Round, RuleSet
from gongzhu.ai import arena
from gongzhu.ai.arena import (
    DEAL_FILE,
    ArenaError,
    ArenaResult,
    ArenaTypeError,
    load_deals,
    run,
    save_deals,
)
from gongzhu.bots import RuleOfThumbStrategy, Strategy
from gongzhu.cli import main

NO_EXPOSURE = RuleSet(exposable="")


def test_mean_and_standard_error_of_known_results() -> None:
    # Differences 10, -20, 40: mean 10, sample sd 30, standard error 30/sqrt(3).
    res = ArenaResult(
        "a", "b", RuleSet(), 2, "x", (10.0, -20.0, 40.0), (6, 0, 0, 0), (1, 1), (0, 0)
    )
    assert res.mean == 10.0
    assert res.stderr == pytest.approx(30 / math.sqrt(3))
    assert (res.wins, res.draws, res.losses) == (2, 0, 1)
    assert res.seat_means == (1.0, 0.0, 0.0, 0.0)  # 6 over 3 deals x 2 rotations
    one = ArenaResult("a", "b", RuleSet(), 2, "x", (0.0,), (0, 0, 0, 0), (0, 0), (0, 0))
    assert one.stderr == 0.0
    assert one.draws == 1


def test_each_hand_is_played_by_both_teams(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, ...]] = []
    original = arena._play_game

    def spy(rules, hands, strategies, is_a):  # type: ignore[no-untyped-def]
        seen.append(tuple(str(h) for h in hands))
        return original(rules, hands, strategies, is_a)

    monkeypatch.setattr(arena, "_play_game", spy)
    run("rule-of-thumb", "random", deals=2, rules=NO_EXPOSURE, seed=4, rotations=2)
    assert len(seen) == 4
    for r0, r1 in (seen[0:2], seen[2:4]):
        # Rotation 1 gives seat s the hand of seat s + 1: team A (0, 2) gets team B's hands.
        assert r1 == (r0[1], r0[2], r0[3], r0[0])
        assert {r0[0], r0[2]} == {r1[3], r1[1]}
    seen.clear()
    run("rule-of-thumb", "random", deals=1, rules=NO_EXPOSURE, seed=4, rotations=4)
    assert len(seen) == 4
    assert {s[0] for s in seen} == set(seen[0])


def test_a_bot_against_itself_scores_zero_on_every_deal() -> None:
    # Deterministic bots with swapped hands replay the same deal with teams swapped.
    res = run("rule-of-thumb", "rule-of-thumb", deals=6, rules=NO_EXPOSURE, seed=1)
    assert res.differences == (0.0,) * 6
    assert res.stderr == 0.0


def test_same_seed_same_result_for_any_workers() -> None:
    kw = {"deals": 4, "rules": RuleSet(), "seed": 7, "limit": arena.Limit(simulations=8)}
    a = run("search", "greedy", workers=1, **kw)  # type: ignore[arg-type]
    b = run("search", "greedy", workers=2, **kw)  # type: ignore[arg-type]
    assert a == b
    assert a.moves == b.moves
    assert a.moves[0] == 4 * 2 * 26
    assert a.ms_per_move[0] > 0


def test_the_shipped_deal_file_holds_1024_valid_deals() -> None:
    deals = load_deals(DEAL_FILE)
    assert len(deals) == 1024
    Round.from_hands(deals[0])
    assert len({tuple(map(str, d)) for d in deals}) == 1024


def test_deal_files_round_trip_and_bad_ones_are_refused(tmp_path: Path) -> None:
    deals = load_deals(DEAL_FILE)[:3]
    path = tmp_path / "d.json"
    save_deals(path, deals)
    assert load_deals(path) == deals
    res = run("rule-of-thumb", "random", deal_file=path, rules=NO_EXPOSURE)
    assert res.deals == 3
    assert res.source == "d.json"
    bad = tmp_path / "bad.json"
    for text in (
        "{",
        "[]",
        '{"format": "gongzhu-deals", "version": 1, "players": 4, "deals": [["2S"]]}',
        '{"format": "gongzhu-deals", "version": 2, "players": 4, "deals": []}',
        '{"format": "gongzhu-deals", "version": 1, "players": 4, "deals": [[1, 2, 3, 4]]}',
    ):
        bad.write_text(text)
        with pytest.raises(ArenaError):
            load_deals(bad)
    with pytest.raises(ArenaError):
        load_deals(tmp_path / "missing.json")
    with pytest.raises(ArenaError):
        run("random", "random", deal_file=path, deals=4)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rotations": 3},
        {"workers": -1},
        {"deals": 0},
        {"rules": RuleSet(players=5), "rotations": 2},
        {"rotations": 5},
        {"seed": 1, "deal_file": DEAL_FILE},
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ArenaError):
        run("random", "random", **kwargs)  # type: ignore[arg-type]


def test_bots_by_name_and_by_module_factory() -> None:
    res = run("gongzhu.bots:RandomStrategy", "random", deals=2, seed=3, rules=NO_EXPOSURE)
    assert res.deals == 2
    with pytest.raises(ArenaError):
        run("no.such.module:f", "random", deals=1, seed=1)
    with pytest.raises(ArenaError):
        run("clever", "random", deals=1, seed=1)


def test_the_arena_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    status = main(
        ["arena", "search", "rule-of-thumb", "--deals", "2", "--limit", "simulations=8",
         "--rules", "mrif", "--seed", "5", "--json", str(out)]
    )  # fmt: skip
    assert status == 0
    text = capsys.readouterr().out
    assert "search vs rule-of-thumb" in text
    assert "±" in text
    data = json.loads(out.read_text())
    assert data["deals"] == 2
    assert data["limit"] == {"time": None, "simulations": 8}
    assert len(data["differences"]) == 2


@pytest.mark.parametrize(
    "argv",
    [
        ["arena", "clever", "random"],
        ["arena", "random", "random", "--limit", "speed=1"],
        ["arena", "random", "random", "--rules", "nope"],
        ["arena", "random", "random", "--deal-file", "/nonexistent.json"],
    ],
)
def test_arena_command_errors_are_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("gongzhu arena: error:")
    assert err.count("\n") == 1


def test_play_seats_search_bots(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "--bots", "search,rule-of-thumb,search,random", "--seed", "1"]
    assert main([*argv, "--max-deals", "1", "--quiet"]) == 0
    assert "Standings" in capsys.readouterr().out


@pytest.mark.parametrize("rules", [RuleSet(players=5), RuleSet(players=5, exposable="")])
def test_five_players_play_every_hand_at_every_seat(rules: RuleSet) -> None:
    res = run("rule-of-thumb", "random", deals=3, rules=rules)
    assert res.rotations == 5
    assert res.source == "seed 0"
    assert len(res.seat_sums) == 5
    assert res.games == 15
    # The same deterministic bot on both sides plays each hand the same way at every seat:
    # with every hand at every seat, twice the difference of the mean seat scores is 0.
    same = run("rule-of-thumb", "rule-of-thumb", deals=3, rules=rules)
    assert same.differences == pytest.approx((0.0, 0.0, 0.0))
    assert sum(same.seat_sums) != 0
    assert res.mean > 0  # the rule of thumb beats random play
    assert res == run("rule-of-thumb", "random", deals=3, rules=rules, seed=0)


def test_the_four_player_figure_is_the_team_difference() -> None:
    res = run("rule-of-thumb", "random", deals=2, rules=NO_EXPOSURE, seed=4)
    s = res.seat_sums
    assert sum(res.differences) * res.rotations == pytest.approx(s[0] + s[2] - s[1] - s[3])


@pytest.mark.parametrize(
    "rules", [RuleSet(players=5), RuleSet(partnerships=True), RuleSet.preset("catch-the-pig")]
)
def test_search_and_greedy_meet_at_every_table(rules: RuleSet) -> None:
    res = run("search", "greedy", deals=1, rules=rules, limit=Limit(simulations=8), seed=2)
    assert res.games == res.rotations == (5 if rules.players == 5 else 2)
    assert res == run("search", "greedy", deals=1, rules=rules, limit=Limit(simulations=8), seed=2)


# -- bots as objects, the printed result (issue #28 item 3) ----------------------------------


class _Counting:
    """A strategy of one's own: the rule of thumb, counting its decisions."""

    def __init__(self, seed: int | None = None) -> None:
        from gongzhu.bots import RuleOfThumbStrategy

        self.seed = seed
        self.inner = RuleOfThumbStrategy()
        self.plays = 0

    def choose_play(self, view, legal):  # type: ignore[no-untyped-def]
        self.plays += 1
        return self.inner.choose_play(view, legal)

    def choose_exposure(self, view):  # type: ignore[no-untyped-def]
        return self.inner.choose_exposure(view)


def test_a_strategy_object_or_factory_plays_as_its_name_does() -> None:
    by_name = run("rule-of-thumb", "random", deals=3, rules=NO_EXPOSURE, seed=2)
    bot = _Counting()
    by_object = run(bot, "random", deals=3, rules=NO_EXPOSURE, seed=2)
    by_class = run(_Counting, "random", deals=3, rules=NO_EXPOSURE, seed=2)
    assert by_object.differences == by_name.differences == by_class.differences
    assert bot.plays == by_object.moves[0] == 3 * 2 * 26  # one object at both seats
    assert by_class.bot_a == "_Counting"
    assert by_object.bot_a.startswith("<")
    assert "_Counting" in by_object.bot_a


def test_a_bot_that_is_neither_name_nor_strategy_is_refused() -> None:
    with pytest.raises(ArenaTypeError, match="a name, a Strategy or a factory"):
        run(42, "random", deals=1, seed=1)  # type: ignore[arg-type]
    with pytest.raises(ArenaError, match=r"PYTHONPATH=\."):
        run("no_such_module_here:factory", "random", deals=1, seed=1)


def _rule_of_thumb(seed: int) -> Strategy:
    return RuleOfThumbStrategy()


def test_a_lambda_is_bot_a_or_bot_b_and_a_function_is_its_qualname() -> None:
    res = run(lambda s: _rule_of_thumb(s), lambda s: _rule_of_thumb(s), deals=1, seed=1)
    assert (res.bot_a, res.bot_b) == ("bot A", "bot B")
    assert str(res).startswith("bot A vs bot B: ")
    assert "<lambda>" not in str(res)
    named = run(_rule_of_thumb, "random", deals=1, rules=NO_EXPOSURE, seed=1)
    assert named.bot_a == "_rule_of_thumb"


def test_names_name_the_two_bots_in_the_result() -> None:
    res = run(
        lambda s: _rule_of_thumb(s), "random", deals=2, rules=NO_EXPOSURE, seed=4,
        names=("mine", "theirs"),
    )  # fmt: skip
    assert (res.bot_a, res.bot_b) == ("mine", "theirs")
    assert str(res).startswith("mine vs theirs: ")
    assert "CPU ms per move: mine " in str(res)
    assert res.to_json()["bot_a"] == "mine"
    same = run("rule-of-thumb", "random", deals=2, rules=NO_EXPOSURE, seed=4)
    assert res.differences == same.differences  # names change nothing else


@pytest.mark.parametrize(
    ("names", "type_error"),
    [
        ("ab", True),
        (("a",), True),
        (("a", "b", "c"), True),
        (("a", 2), True),
        (5, True),
        (("", "b"), False),
        (("a\nb", "c"), False),
        (("x" * 81, "c"), False),
    ],
)
def test_bad_names_are_refused(names: object, type_error: bool) -> None:
    with pytest.raises(ArenaError, match="name") as caught:
        run("random", "random", deals=1, seed=1, names=names)  # type: ignore[arg-type]
    assert isinstance(caught.value, TypeError) is type_error


def test_a_preset_name_is_taken_for_the_rules() -> None:
    by_name = run("rule-of-thumb", "random", deals=2, rules="online", seed=3)
    by_rules = run("rule-of-thumb", "random", deals=2, rules=RuleSet.preset("online"), seed=3)
    assert by_name == by_rules
    assert by_name.rules == RuleSet.preset("online")
    assert "rules online" in str(by_name)
    assert load_deals(DEAL_FILE, rules="online") == load_deals(DEAL_FILE)
    for call in (
        lambda: run("random", "random", deals=1, rules="onlne"),
        lambda: load_deals(DEAL_FILE, rules="onlne"),
    ):
        with pytest.raises(ArenaError, match="unknown preset 'onlne'; known: classic, online"):
            call()
    with pytest.raises(ArenaTypeError, match="rules must be a RuleSet or a preset's name"):
        run("random", "random", deals=1, rules=5)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "type_error"),
    [
        ({"workers": "2"}, True),
        ({"workers": -1}, False),
        ({"deals": 2.0}, True),
        ({"deals": 0}, False),
        ({"rotations": "2"}, True),
        ({"rotations": 3}, False),
        ({"limit": 3}, True),
        ({"progress": 3}, True),
        ({"deal_file": 3}, True),
        ({"executor": 3}, True),
    ],
)
def test_a_wrong_type_is_an_arena_type_error_and_a_bad_value_is_not(
    kwargs: dict[str, object], type_error: bool
) -> None:
    with pytest.raises(ArenaError) as caught:
        run("random", "random", **kwargs)  # type: ignore[arg-type]
    assert isinstance(caught.value, ArenaTypeError) is type_error
    assert isinstance(caught.value, TypeError) is type_error


def test_print_shows_the_summary() -> None:
    res = run("rule-of-thumb", "random", deals=2, rules=NO_EXPOSURE, seed=4)
    assert str(res) == res.summary()
    assert str(res).startswith("rule-of-thumb vs random: ")
    a, _b = res.ms_per_move
    shown = str(res).rsplit("rule-of-thumb ", 1)[1].split(",")[0]
    assert shown != "0.0" or a == 0  # a fast bot shows 0.042, not 0.0


def test_the_arena_help_lists_every_registered_bot(capsys: pytest.CaptureFixture[str]) -> None:
    from gongzhu.ai.registry import STRATEGIES

    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps the lines
    listed = text.split("Bots: ", 1)[1].split(", or module:factory", 1)[0]
    assert listed.split(", ") == list(STRATEGIES)


def test_the_arena_command_finds_a_bot_module_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    (tmp_path / "mybot_for_arena_test.py").write_text(
        "from gongzhu.bots import RuleOfThumbStrategy\n"
        "def factory(seed):\n    return RuleOfThumbStrategy()\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    argv = ["arena", "mybot_for_arena_test:factory", "random", "--deals", "1", "--seed", "1"]
    assert main([*argv, "--quiet"]) == 0
    assert "mybot_for_arena_test:factory vs random" in capsys.readouterr().out
