"""``fcsim replay``: the ``--html`` page holds the steps of the very events ``--json`` prints;
the text of a game (``fcsim/replay.py``) reads as the cards are written."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from fcsim.cli import cli
from fcsim.replay import render_text
from fcsim.viewer.steps import game_steps
from tests.sources import modules_saying

GAME = ["--seed", "7", "--game", "0", "--strategies", "greedy,expected,random,random"]


def _run(*args: str):
    return CliRunner().invoke(cli, ["replay", *args])


def _embedded(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    found = re.search(r'<script id="game-data" type="application/json">(.*?)</script>', text,
                      re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_html_page_plays_the_replayed_game(tmp_path: Path) -> None:
    page = tmp_path / "g.html"
    result = _run(*GAME, "--html", str(page))
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"wrote {page}"
    events = [json.loads(line) for line in _run(*GAME, "--json").output.splitlines()]
    data = _embedded(page)
    assert data["steps"] == game_steps(events)
    assert data["seats"] == ["greedy", "expected", "random", "random"]
    assert "seed 7, game 0" in page.read_text(encoding="utf-8")


def test_html_of_one_round_and_a_rotated_game(tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    result = _run("--seed", "7", "--game", "1", "--strategies", "greedy,random", "--round", "3",
                  "--html", str(page))
    assert result.exit_code == 0, result.output
    data = _embedded(page)
    assert {s["round"] for s in data["steps"]} == {3}
    assert data["seats"] == ["random", "greedy"]  # game 1 rotates the seating by one


def test_without_seat_rotation_every_game_keeps_the_listed_seating() -> None:
    """``--no-seat-rotation``: game 1 seats the strategies as listed, as simulate played it
    (with rotation it seats random first, as the test above shows)."""
    result = _run("--seed", "7", "--game", "1", "--strategies", "greedy,random", "--short",
                  "--round", "1", "--no-seat-rotation")
    assert result.exit_code == 0, result.output
    assert "seat 0 (greedy): " in result.output and "seat 1 (random): " in result.output


def test_html_bad_uses_are_one_line(tmp_path: Path) -> None:
    result = _run(*GAME, "--html", str(tmp_path / "g.html"), "--json")
    assert result.exit_code == 2 and "give one" in result.output
    result = _run(*GAME, "--html", str(tmp_path / "missing" / "g.html"))
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: cannot write {tmp_path / 'missing' / 'g.html'}: No such file or directory"]


def test_a_game_of_a_run_whose_code_changed_says_so(tmp_path: Path) -> None:
    """The replay is today's code's game: when it is not the game the run recorded, one
    warning line says so and why."""
    strategy = tmp_path / "first.py"
    strategy.write_text("def agent(view):\n"
                        "    return view.legal_actions[0] if view.phase == 'draw' "
                        "else view.hand[0]\n")
    run = tmp_path / "run"
    simulated = CliRunner().invoke(cli, ["simulate", "--strategies", f"{strategy}:agent,greedy",
                                         "--games", "2", "--workers", "1", "--out", str(run)])
    assert simulated.exit_code == 0, simulated.output
    same = _run("--run", str(run), "--game", "1", "--json")
    assert same.exit_code == 0 and same.stderr == ""
    strategy.write_text(strategy.read_text().replace("view.hand[0]", "view.hand[-1]"))
    # another process, as a later command is: this one keeps the file as it loaded it
    for one_round in ([], ["--round", "11"]):  # a round alone is played in its whole game
        changed = subprocess.run([sys.executable, "-m", "fcsim", "replay", "--run", str(run),
                                  "--game", "1", "--json", *one_round], capture_output=True,
                                 text=True, check=True)
        replayed = json.loads(changed.stdout.splitlines()[-1])["totals"]
        assert re.fullmatch(
            rf"warning: game 1 replays to totals {re.escape(str(replayed))}, not the run's "
            rf"\[\d+, \d+\]: strategy file {re.escape(str(strategy))}:agent changed since "
            r"the run was written \(sha256 \w{12} there, \w{12} here\); this is the game "
            r"today's code plays\n", changed.stderr)


def test_a_last_turn_that_melds_every_card_is_not_going_out() -> None:
    """Seat 1 goes out (and scores the bonus); seat 0 then melds every card on its last
    turn: it scores 0, without going out."""
    result = _run("--seed", "5", "--game", "4", "--strategies", "greedy,expected,aware",
                  "--short", "--go-out-bonus", "-10", "--round", "1")
    assert result.exit_code == 0, result.output
    assert "discards 7D  -> goes out\n" in result.output
    assert "discards 8D  -> melds every card [last turn]\n" in result.output
    assert "seat 0:    0 points (melds 6S JK 3C | left -)" in result.output
    assert "seat 1:  -10 points (went out: melds" in result.output


def test_a_single_strategy_plays_every_seat_as_simulate_seats_it(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert CliRunner().invoke(cli, ["simulate", "--strategies", "greedy", "--players", "3",
                                    "--games", "2", "--seed", "5", "--workers", "1",
                                    "--out", str(run)]).exit_code == 0
    from_run = _run("--run", str(run), "--game", "1")
    from_flags = _run("--seed", "5", "--strategies", "greedy", "--players", "3", "--game", "1")
    assert from_run.exit_code == from_flags.exit_code == 0, from_flags.output
    assert from_run.output == from_flags.output
    assert "totals [" in _run("--seed", "5", "--strategies", "greedy").output  # 4 seats
    flagged = CliRunner().invoke(
        cli, ["replay", "--run", str(run), "--game", "1", "--seed", "9", "--short"])
    assert flagged.exit_code == 0 and flagged.stdout == from_run.output
    assert flagged.stderr == (f"warning: --run replays {run} as it was played; --seed, "
                              f"--short are not used\n")
    unrotated = CliRunner().invoke(cli, ["replay", "--run", str(run), "--no-seat-rotation"])
    assert unrotated.stderr == (f"warning: --run replays {run} as it was played; "
                                f"--no-seat-rotation is not used\n")  # as typed
    duplicate = CliRunner().invoke(cli, ["replay", "--seed", "5", "--strategies", "greedy",
                                         "--players", "3", "--duplicate",
                                         "--no-seat-rotation"])
    assert duplicate.exit_code == 0 and duplicate.stderr == (
        "warning: --duplicate plays every deal in each of its seat rotations; "
        "--no-seat-rotation is not used\n")


def test_a_run_s_relative_files_are_read_from_where_the_run_read_them(
        tmp_path: Path, monkeypatch) -> None:
    """A strategy file and a model given by relative paths: the replay reads the run's
    own, from whatever folder it is asked, not a namesake found there."""
    from tests.learn.models import random_model

    started, elsewhere = tmp_path / "started", tmp_path / "elsewhere"
    started.mkdir()
    elsewhere.mkdir()
    agent = "def pick(view):\n    return 'stock' if view.phase == 'draw' else view.hand[{}]\n"
    (started / "mine.py").write_text(agent.format(-1))
    random_model(started / "m.npz")
    monkeypatch.chdir(started)
    simulated = CliRunner().invoke(cli, ["simulate", "--strategies",
                                         "mine.py:pick,learned:model=m.npz", "--games", "2",
                                         "--short", "--workers", "1", "--out", "run"])
    assert simulated.exit_code == 0, simulated.output
    there = _run("--run", "run", "--game", "1", "--json")
    assert there.exit_code == 0 and there.stderr == "", there.output
    monkeypatch.chdir(elsewhere)
    (elsewhere / "mine.py").write_text(agent.format(0))  # a namesake that plays otherwise
    here = _run("--run", str(started / "run"), "--game", "1", "--json")
    assert here.exit_code == 0 and here.stderr == "", here.output
    assert here.stdout == there.stdout


def test_the_text_names_an_oracle_analysis_only_as_the_page_does(tmp_path: Path) -> None:
    game = ["--seed", "1", "--game", "0", "--strategies", "oracle,greedy", "--short",
            "--round", "1"]
    text = _run(*game)
    assert text.exit_code == 0, text.output
    assert "seat 0 (oracle (analysis only)): " in text.output
    assert "seat 1 (greedy): " in text.output
    page = tmp_path / "o.html"
    assert _run(*game, "--html", str(page)).exit_code == 0
    assert _embedded(page)["seats"] == ["oracle (analysis only)", "greedy"]


def _deal(round_number: int) -> dict:
    return {"event": "deal", "round": round_number, "dealer": 0,
            "wild_rank": round_number + 2, "upcard": "3S", "hands": [["4H"], ["5D"]]}


def test_the_wild_rank_is_written_as_the_cards_write_it() -> None:
    """The text of a game (``fcsim/replay.py``) names the wild rank with the cards' own rank
    names."""
    text = render_text([_deal(8), _deal(10)], ["greedy", "random"])
    assert "10 cards, 10s wild" in text and "12 cards, Qs wild" in text
    assert "fcsim/replay.py" not in modules_saying('13: "K"')


def test_a_score_line_gives_the_round_s_points_then_the_running_total() -> None:
    """The text's score line: the seat's points this round, then its total after them."""
    before = 18  # the seat's total after the rounds before
    score = {"event": "score", "round": 1, "seat": 0, "hand": ["4H", "8D"], "melds": [],
             "deadwood": ["4H", "8D"], "penalty": 12, "wild_pts": 0, "joker_pts": 0,
             "went_out": False, "total": before + 12}
    text = render_text([_deal(1), score], ["greedy", "random"])
    assert text.splitlines()[-1] == "   seat 0:   12 points (melds - | left 4H 8D); total 30"
