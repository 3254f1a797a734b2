"""``fcsim advise`` end to end: the README's worked position, JSON, files and bad input."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from fcsim.cli import cli

WORKED = ["--round", "5", "--hand", "3H 4H 5H 7S 9D 9C KD QS", "--pile", "8C 10S JD",
          "--known", "1:JD", "--known", "1:QD", "--players", "4", "--turn", "9",
          "--scores", "40,35,52,28"]


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["advise", *args])


def test_worked_position_of_the_readme() -> None:
    result = run(*WORKED, "--worlds", "200")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split()[0] == "action" and len(lines) == 3 + 8
    assert lines[-2].startswith("recommendation: discard ")
    assert lines[-1].startswith("learned would discard ")  # the strongest fair player


def test_another_player_s_move_and_a_bad_player() -> None:
    result = run(*WORKED, "--worlds", "20", "--player", "greedy")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "greedy would discard KD"  # the least penalty now
    for player, fragment in [("bogus", "unknown strategy 'bogus'"),
                             ("oracle", "oracle sees hidden cards")]:
        bad = run(*WORKED, "--worlds", "20", "--player", player)
        assert bad.exit_code == 2, bad.output
        assert fragment in bad.output and len(bad.output.strip().splitlines()) == 1


def test_a_random_player_draws_its_choices_from_the_seed() -> None:
    """The seed seats the player's own stream: the same seed, the same move; other seeds,
    other moves (an unseeded stream would make ``random`` pick one card every time)."""
    picks = [run(*WORKED, "--worlds", "2", "--player", "random", "--seed", str(seed))
             .output.splitlines()[-1] for seed in range(8)]
    again = run(*WORKED, "--worlds", "2", "--player", "random", "--seed", "3")
    assert again.output.splitlines()[-1] == picks[3]
    assert len(set(picks)) > 1


def test_a_player_whose_code_raises_is_one_line(tmp_path: Path) -> None:
    player = tmp_path / "buggy.py"
    player.write_text("def agent(view):\n    return 1 / 0\n")
    result = run(*WORKED, "--worlds", "20", "--player", f"{player}:agent")
    assert result.exit_code == 2, result.output
    assert result.output.strip() == (f"Error: strategy '{player}:agent' raised "
                                     f"ZeroDivisionError: division by zero at {player}:2, "
                                     f"in agent")


def test_a_player_s_illegal_move_is_one_line_naming_it(tmp_path: Path) -> None:
    """As simulate says it: the strategy, the move and the legal moves, exit code 2; a
    legal move written in another case is shown as cards are written."""
    player = tmp_path / "badmove.py"
    player.write_text('def agent(view):\n    return "ZZ"\n')
    result = run(*WORKED, "--worlds", "20", "--player", f"{player}:agent")
    assert result.exit_code == 2, result.output
    assert result.output.strip() == (f"Error: strategy '{player}:agent' chose 'ZZ', which is "
                                     f"not a legal discard (legal: 7S, QS, 3H, 4H, 5H, 9D, KD, "
                                     f"9C)")
    lower = tmp_path / "lower.py"
    lower.write_text('def agent(view):\n    return "kd"\n')
    result = run(*WORKED, "--worlds", "20", "--player", f"{lower}:agent")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == f"{lower}:agent would discard KD"


def test_json_and_a_position_file(tmp_path: Path) -> None:
    out = run(*WORKED, "--worlds", "50", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["phase"] == "discard" and data["worlds"] == 50 and len(data["actions"]) == 8
    position = {"round": 5, "hand": "3H 4H 5H 7S 9D 9C KD QS", "pile": ["8C", "10S", "JD"],
                "known": {"1": ["JD", "QD"]}, "players": 4, "turn": 9,
                "scores": [40, 35, 52, 28]}
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    again = run(str(path), "--worlds", "50", "--json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.output)["actions"] == data["actions"]
    flagged = CliRunner().invoke(
        cli, ["advise", str(path), "--worlds", "50", "--json", "--round", "3", "--turn", "2"])
    assert flagged.exit_code == 0 and json.loads(flagged.stdout)["actions"] == data["actions"]
    assert flagged.stderr == (f"warning: {path} holds the position; --round, --turn are not "
                              f"used\n")
    path.write_text(json.dumps({**position, "last_turn": "false"}))
    refused = run(str(path), "--worlds", "50")
    assert refused.exit_code == 2
    assert "last_turn must be true or false, not 'false'" in refused.output


def test_impossible_positions_get_one_line() -> None:
    for args, fragment in [
        (["--round", "5", "--hand", "3H 4H"], "round 5 hands hold 7 cards"),
        (["--round", "1", "--hand", "3H 3H 4H", "--pile", "3H"], "3 copies of 3H"),
        (["--round", "1", "--hand", "3H 4H 5Q"], "bad card '5Q'"),
        (["--round", "1", "--hand", "3H 4H 5H", "--known", "x:3S"], "--known takes SEAT:CARDS"),
        # a digit that int() cannot read
        (["--round", "1", "--hand", "3H 4H 5H", "--known", "\u00b2:3S"],
         "--known takes SEAT:CARDS"),
        (["--round", "1", "--hand", "3H 4H 5H", "--pile", "9C", "--player", ","],
         "unknown strategy ','"),
        (["--hand", "3H 4H 5H"], "give --round and --hand"),
        (["--round", "1", "--hand", "3H 4H 5H", "--pile", "9C", "--passed", "1:7H,ZZ"],
         "passed by seat 1: bad card 'ZZ'"),
        (["--round", "1", "--hand", "3H 4H 5H", "--pile", "9C", "--discarded", "x:7H"],
         "--discarded takes SEAT:CARDS"),
        (["--round", "1", "--hand", "3H 4H 5H", "--pile", "9C", "--taken", "9:7H"],
         "a taken seat must be a whole number from 0 to 3"),
        (["--short", "--round", "7", "--hand", "3H 4H 5H 7S 9D 9C KD QS 3C 4C"],
         "--round must be a whole number from 1 to 6, not 7"),
        (["--round", "1", "--hand", "3H 4H 5H", "--players", "9"], "--players must be 2 to 7"),
    ]:
        result = run(*args)
        assert result.exit_code == 2, result.output
        assert fragment in result.output and len(result.output.strip().splitlines()) == 1


HISTORY = ["--passed", "2:KH,QC", "--passed", "3:6S", "--discarded", "1:9H",
           "--discarded", "3:KS", "--taken", "1:JD,QD"]


def test_beliefs_are_printed_with_the_advice() -> None:
    result = run(*WORKED, *HISTORY, "--worlds", "60", "--evidence", "0.8", "--beliefs")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("likeliest cards"))
    assert lines[at - 2].startswith("recommendation: ") and "60 worlds" in lines[at]
    assert lines[at - 1].startswith("learned would discard ")
    assert [line.split(":")[0] for line in lines[at + 1 :]] == ["  seat 1", "  seat 2",
                                                                  "  seat 3"]
    assert lines[at + 1].startswith("  seat 1: JD* 100%  QD* 100%  ")
    assert all(len(line.split(": ")[1].split("  ")) == 8 for line in lines[at + 1 :])


def test_beliefs_in_json_and_history_in_a_position_file(tmp_path: Path) -> None:
    out = run(*WORKED, *HISTORY, "--worlds", "40", "--evidence", "0.5", "--beliefs",
              "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert [b["seat"] for b in data["beliefs"]] == [1, 2, 3]
    assert data["beliefs"][0]["cards"][0] == {"card": "JD", "share": 1.0, "known": True}
    position = {"round": 5, "hand": "3H 4H 5H 7S 9D 9C KD QS", "pile": ["8C", "10S", "JD"],
                "known": {"1": ["JD", "QD"]}, "players": 4, "turn": 9,
                "scores": [40, 35, 52, 28], "passed": {"2": "KH QC", "3": ["6S"]},
                "discarded": {"1": ["9H"], "3": ["KS"]}, "taken": {"1": ["JD", "QD"]}}
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    again = run(str(path), "--worlds", "40", "--evidence", "0.5", "--beliefs", "--json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.output)["beliefs"] == data["beliefs"]


def test_a_model_of_another_table_is_one_warning_line(tmp_path: Path) -> None:
    from tests.learn.models import random_model

    model = random_model(tmp_path / "m.npz", rules={"players": 4, "rounds": 11})
    three = [word if word != "4" else "3" for word in WORKED[:-2]]  # no scores: 3 seats
    result = run(*three, "--worlds", "20", "--player", f"learned:model={model}")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        f"warning: model {model} was trained under other rules (players 4 there, 3 here); "
        "it plays on (its features carry the table size; a model trained at this size "
        "played better at 2 players, no better at 3 or 6)"]
