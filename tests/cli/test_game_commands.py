"""fcsim strategies, replay, compare and tournament from the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from fcsim.analysis.load import load_results
from fcsim.analysis.stats import score_summary, win_share
from fcsim.analysis.synthetic import write_synthetic_run
from fcsim.cli import cli
from fcsim.cli.tournament import _leaderboard, tables_for
from fcsim.runner import store
from tests.conftest import disk_full_after


def _run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_strategies_lists_every_family_with_parameters() -> None:
    result = _run("strategies")
    assert result.exit_code == 0
    for name in ("random", "greedy", "expected", "aware", "oracle"):
        assert name in result.output
    assert "take_margin=0" in result.output and "oracle: sees hidden cards" in result.output


def test_replay_json_lines_follow_the_documented_events() -> None:
    result = _run("replay", "--seed", "3", "--strategies", "greedy,random,greedy", "--json")
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in result.output.splitlines()]
    kinds = {e["event"] for e in events}
    assert {"deal", "turn", "score", "end"} <= kinds
    deal = events[0]
    assert set(deal) == {"event", "round", "dealer", "wild_rank", "hands", "upcard"}
    turn = next(e for e in events if e["event"] == "turn")
    assert set(turn) == {"event", "round", "seat", "source", "drawn", "discard", "out",
                         "last_turn"}
    score = next(e for e in events if e["event"] == "score")
    assert {"hand", "melds", "deadwood", "penalty", "went_out"} <= set(score)
    out = [e for e in events if e["event"] == "score" and e["went_out"]]
    assert out and all(e["melds"] and not e["deadwood"] for e in out)  # the going-out hand
    end = events[-1]
    assert end["event"] == "end" and len(end["totals"]) == 3


def test_replay_text_and_round_filter() -> None:
    result = _run("replay", "--seed", "3", "--strategies", "greedy,random", "--round", "2")
    assert result.exit_code == 0, result.output
    assert "== Round 2: 4 cards, 4s wild" in result.output
    assert "== Round 3" not in result.output and "== End" in result.output


def test_replay_bad_input_is_one_line() -> None:
    result = _run("replay", "--seed", "3", "--strategies", "greedy,nope")
    assert result.exit_code == 2 and "known strategies" in result.output
    result = _run("replay", "--seed", "3", "--strategies", "greedy,random", "--round", "12")
    assert result.exit_code == 2 and "--round must be 1 to 11" in result.output
    result = _run("replay", "--seed", "3", "--strategies", "g,g,g,g,g,g,g,g".replace("g", "random"))
    assert result.exit_code == 2 and "a table seats 2 to 7 players" in result.output


def test_replay_reads_a_game_of_a_run_folder(tmp_path) -> None:
    out = tmp_path / "run"
    assert _run("simulate", "--strategies", "greedy,random,greedy:take_margin=4", "--games",
                "12", "--duplicate", "--short", "--seed", "9", "--go-out-bonus", "-10",
                "--out", str(out)).exit_code == 0
    from_run = _run("replay", "--run", str(out), "--game", "7", "--json")
    by_flags = _run("replay", "--seed", "9", "--game", "7", "--duplicate", "--short",
                    "--go-out-bonus", "-10", "--strategies", "greedy,random,greedy:take_margin=4",
                    "--json")
    assert from_run.exit_code == 0, from_run.output
    assert from_run.output == by_flags.output
    totals = json.loads(from_run.output.splitlines()[-1])["totals"]
    game = pl.read_parquet(f"{out}/part-*.parquet").filter(pl.col("game") == 7).sort("seat")
    assert game["total"].to_list() == totals
    beyond = _run("replay", "--run", str(out), "--game", "12")
    assert beyond.exit_code == 2
    assert beyond.output.strip() == f"Error: --game must be 0 to 11 for {out}, not 12"


def test_replay_bounds_are_one_line() -> None:
    result = _run("replay", "--seed", "1", "--strategies", "greedy,random", "--game",
                  str(2**64))
    assert result.exit_code == 2
    assert result.output.strip() == ("Error: --game must be 0 to 999,999,999,999,999, not "
                                     "18,446,744,073,709,551,616")
    neither = _run("replay", "--game", "3")
    assert neither.exit_code == 2 and "give --run FOLDER, or --seed and --strategies" in (
        neither.output)


def test_compare_reports_paired_difference(tmp_path) -> None:
    out = tmp_path / "cmp"
    result = _run("compare", "greedy", "random", "--deals", "40", "--out", str(out),
                  "--workers", "1", "--short")
    assert result.exit_code == 0, result.output
    assert "greedy - random:" in result.output and "95% CI" in result.output
    assert "verdict: greedy scores" in result.output and "less than random" in result.output
    # one p-value, written once as every table and the verdict write it
    assert result.output.count("p < 0.001") == 2 and "e-" not in result.output
    again = _run("compare", "greedy", "random", "--from", str(out))
    assert again.exit_code == 0 and again.output.splitlines()[-1] in result.output


def test_compare_by_round_shows_where_the_difference_falls(tmp_path) -> None:
    """A line per round after the verdict (6 in the short game), their differences adding
    up to the total's (to the roundings of 6 figures), read again from the run with --from."""
    out = tmp_path / "cmp"
    result = _run("compare", "greedy", "random", "--deals", "30", "--out", str(out),
                  "--workers", "1", "--short", "--by-round")
    assert result.exit_code == 0, result.output
    total = float(re.search(r"greedy - random: ([-+]\d+\.\d+)", result.output).group(1))
    rows = re.findall(r"^ +(\d+) +([-+]\d+\.\d+) +\[.*\] +p [<=] [\d.]+ +"
                      r"(\d\.\d{3}) / (\d\.\d{3})$", result.output, re.MULTILINE)
    assert [int(r[0]) for r in rows] == list(range(1, 7))
    assert sum(float(r[1]) for r in rows) == pytest.approx(total, abs=0.035)
    assert all(float(r[2]) >= float(r[3]) for r in rows)  # greedy goes out more than random
    again = _run("compare", "greedy", "random", "--from", str(out), "--by-round")
    assert again.exit_code == 0 and again.output.strip() in result.output
    assert "by round" not in _run("compare", "greedy", "random", "--from", str(out)).output


def test_compare_prints_each_side_s_own_win_share() -> None:
    """One line per strategy, each its own share: at 2 seats every game's win (shared when
    tied) goes to one of the two, so the shares add up to 1, give or take two roundings to
    3 decimals."""
    result = _run("compare", "greedy", "random", "--deals", "20", "--short", "--workers", "1")
    assert result.exit_code == 0, result.output
    shares = {name: float(share)
              for name, share in re.findall(r"win share (\S+): (\d\.\d{3})", result.output)}
    assert shares.keys() == {"greedy", "random"}
    assert shares["greedy"] + shares["random"] == pytest.approx(1, abs=1e-3)


def test_compare_never_prints_a_p_value_of_0() -> None:
    """greedy against random: the t tail underflows to 0, which no p-value is."""
    result = _run("compare", "greedy", "random", "--deals", "1000", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "95% CI" in result.output and ", p < 0.001\n" in result.output
    assert "p = 0\n" not in result.output


def test_compare_of_one_deal_shows_no_interval() -> None:
    result = _run("compare", "greedy", "random", "--deals", "1", "--short", "--workers", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "greedy vs random: 1 deal x 2 seat rotations, 2 players, seed 0"
    assert lines[1].endswith("points per game, no interval from one deal")
    assert "nan" not in result.output


def test_compare_pools_runs_of_other_seeds_deal_by_deal(tmp_path) -> None:
    runs = []
    for seed, deals in ((1, 12), (2, 8)):
        runs.append(tmp_path / f"seed{seed}")
        assert _run("compare", "greedy", "random", "--deals", str(deals), "--seed", str(seed),
                    "--out", str(runs[-1]), "--workers", "1", "--short").exit_code == 0
    result = _run("compare", "greedy", "random", "--from", str(runs[0]), "--from",
                  str(runs[1]))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == ("greedy vs random: 20 deals x 2 seat rotations, 2 players, 2 runs, "
                        "seeds 1, 2")
    # every deal of both runs counts once: the mean of the pooled per-deal differences
    frame = pl.concat([pl.read_parquet(f"{run}/part-*.parquet").with_columns(
        run=pl.lit(run.name), strategy=pl.col("strategy").cast(pl.String)) for run in runs])
    per_deal = (frame.group_by("run", "deal").agg(
                    d=pl.col("total").filter(pl.col("strategy") == "greedy").mean()
                    - pl.col("total").filter(pl.col("strategy") == "random").mean()))
    assert per_deal.height == 20
    assert f"greedy - random: {per_deal['d'].mean():+.2f} points per game" in lines[1]
    # flags of a run to play say, in one line, that they do not apply to runs read
    flagged = _run("compare", "greedy", "random", "--from", str(runs[0]), "--players", "4",
                   "--go-out-bonus", "-10")
    assert flagged.exit_code == 0
    assert flagged.stderr == ("warning: --from reads runs as they were played; --players, "
                              "--go-out-bonus are not used\n")
    assert flagged.stdout.splitlines()[0].endswith("2 players, seed 1")


def test_compare_refuses_to_count_a_run_twice_or_mix_tables(tmp_path) -> None:
    run, copy, other = tmp_path / "run", tmp_path / "copy", tmp_path / "three"
    for folder, players in ((run, "2"), (copy, "2"), (other, "3")):
        assert _run("compare", "greedy", "random", "--deals", "4", "--players", players,
                    "--out", str(folder), "--workers", "1", "--short").exit_code == 0
    twice = _run("compare", "greedy", "random", "--from", str(run), "--from", str(copy))
    assert twice.exit_code == 1
    assert twice.output.strip() == (f"Error: {run} and {copy} hold the same games (seed 0, "
                                    f"games 0 to 7 in both): they would count twice; give "
                                    f"each game once")
    mixed = _run("compare", "greedy", "random", "--from", str(run), "--from", str(other))
    assert mixed.exit_code == 1 and "runs have different rules" in mixed.output
    assert "players=2" in mixed.output and "players=3" in mixed.output


def test_compare_from_a_damaged_run_is_one_line(tmp_path) -> None:
    out = tmp_path / "cmp"
    assert _run("compare", "greedy", "random", "--deals", "40", "--out", str(out),
                "--workers", "1", "--short").exit_code == 0
    chunk = out / "part-000000.parquet"
    chunk.write_bytes(chunk.read_bytes()[:-50])
    result = _run("compare", "greedy", "random", "--from", str(out))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.strip().splitlines() == [
        f"Error: {out}: {chunk.name} is damaged (not a complete Parquet file: Parquet magic "
        f"bytes not found in footer); repair it with its fcsim simulate command and --resume "
        f"(fcsim info {out} prints it)"]


def test_compare_refuses_nonsense() -> None:
    assert _run("compare", "greedy", "greedy").exit_code == 2
    assert _run("compare", "greedy", "nope").exit_code == 2
    huge = _run("compare", "greedy", "random", "--deals", str(10**15), "--players", "4")
    assert huge.exit_code == 2
    assert huge.output.strip() == ("Error: --deals 1,000,000,000,000,000 at 4 seats are "
                                   "2,000,000,000,000,000 games, more than a run holds "
                                   "(1,000,000,000,000,000)")


def test_tournament_prints_a_leaderboard(tmp_path) -> None:
    result = _run("tournament", "--strategies", "random,greedy,greedy:take_margin=3",
                  "--players", "2", "--games", "30", "--short", "--workers", "1",
                  "--out", str(tmp_path / "t"))
    assert result.exit_code == 0, result.output
    board = result.output.split("rating")[1]
    assert board.index("greedy") < board.index("random")  # random is last
    # in whole games random never finishes ahead of greedy: no interval, not a narrow one
    swept = _run("tournament", "--strategies", "random,greedy", "--players", "2", "--games",
                 "10", "--workers", "1")
    assert swept.exit_code == 0, swept.output
    assert re.search(r"random +│ +\d+ │ +– │", swept.output), swept.output
    assert len(list((tmp_path / "t").iterdir())) == 3  # three tables of two
    smaller = _run("tournament", "--strategies", "random,greedy", "--players", "2", "--games",
                   "30", "--short", "--workers", "1", "--out", str(tmp_path / "t"))
    assert smaller.exit_code == 2 and smaller.output == (
        f"Error: {tmp_path / 't'} holds table-01, which is no table of this tournament (1 "
        f"table); choose another --out\n")
    (tmp_path / "file").write_text("mine")
    onto_a_file = _run("tournament", "--strategies", "random,greedy", "--out",
                       str(tmp_path / "file"))
    assert onto_a_file.exit_code == 2 and "is a file, not a folder" in onto_a_file.output


def test_the_leaderboard_ranks_from_one_best_rated_first(tmp_path, capsys) -> None:
    """Places count from 1 for the highest rating, as a reader expects of a leaderboard,
    and each row's win % and mean total are its own strategy's (the share in percent)."""
    clear_edge = 0.5  # hand-quality standard deviations: strong is rated well above weak
    run = write_synthetic_run(tmp_path / "table-00", ["strong", "weak"], [clear_edge, 0.0],
                              games=200, seed=3, duplicate=True)
    _leaderboard([run])
    rows = [[cell.strip() for cell in line.split("│")]
            for line in capsys.readouterr().out.splitlines() if "strong" in line or "weak" in line]
    assert [row[:2] for row in rows] == [["1", "strong"], ["2", "weak"]]
    lf = load_results(run)
    shares = dict(win_share(lf).select("strategy", "win_share").iter_rows())
    means = dict(score_summary(lf).select("strategy", "mean_total").iter_rows())
    assert [row[4:] for row in rows] == [[f"{100 * shares[name]:.1f}", f"{means[name]:.1f}"]
                                         for name in ("strong", "weak")]


def test_tournament_tables_seat_the_strategies_in_turn() -> None:
    """Strategies that fit one table fill its seats cyclically, so no strategy holds more
    than one seat more than another; more than fit play every combination, a table each."""
    assert tables_for(["a", "b", "c"], 4) == [["a", "b", "c", "a"]]
    assert tables_for(["a", "b"], 5) == [["a", "b", "a", "b", "a"]]
    assert tables_for(["a", "b", "c"], 2) == [["a", "b"], ["a", "c"], ["b", "c"]]


@pytest.mark.parametrize(("strategies", "line"), [
    ("", "Error: no strategy given"),
    ("greedy,random,greedy", "Error: greedy is listed twice in --strategies: a tournament "
                             "rates each strategy once"),
    ("greedy:take_margin=3,greedy:take_margin=3.0", "Error: greedy:take_margin=3 is listed "
                                                     "twice in --strategies: a tournament rates "
                                                     "each strategy once"),
])
def test_tournament_refuses_no_strategy_and_one_listed_twice(strategies, line) -> None:
    result = _run("tournament", "--strategies", strategies, "--games", "4", "--workers", "1")
    assert result.exit_code == 2 and result.output == f"{line}\n"


def test_tournament_refuses_a_seed_its_last_table_cannot_have_before_playing() -> None:
    """Tables take seeds S, S + 1, …: past 2^64 - 1 the run stopped after playing the first."""
    last = str(2**64 - 1)
    result = _run("tournament", "--strategies", "random,greedy,greedy:take_margin=3",
                  "--players", "2", "--games", "2", "--short", "--workers", "1",
                  "--seed", last)
    assert result.exit_code == 2 and "table 0" not in result.output
    assert result.output == (f"Error: --seed {last} leaves no seed for the last of 3 tables "
                             f"(they count up from it to at most 2^64 - 1); give --seed "
                             f"{2**64 - 3} or less\n")


def test_compare_tournament_and_replay_label_a_reference(tmp_path) -> None:
    compared = _run("compare", "oracle", "random", "--deals", "2", "--workers", "1", "--short")
    assert compared.exit_code == 0, compared.output
    lines = compared.output.splitlines()[-5:]
    assert lines[0].startswith("oracle (analysis only) vs random: 2 deals")
    assert lines[1].startswith("  oracle (analysis only) - random: ")
    assert lines[2].startswith("  win share oracle (analysis only): ")
    assert lines[4].startswith("  verdict: ") and "oracle (analysis only)" in lines[4]
    rated = _run("tournament", "--strategies", "oracle,random", "--players", "2", "--games",
                 "4", "--short", "--workers", "1")
    assert rated.exit_code == 0, rated.output
    assert "oracle (analysis only)" in rated.output.split("rating")[1]
    page = tmp_path / "game.html"
    shown = _run("replay", "--seed", "3", "--strategies", "oracle,random", "--round", "1",
                 "--html", str(page))
    assert shown.exit_code == 0, shown.output
    text = page.read_text(encoding="utf-8")
    assert "seat 0 oracle (analysis only), seat 1 random;" in text
    assert '"seats":["oracle (analysis only)","random"]' in text
    run = tmp_path / "run"
    played = _run("simulate", "--strategies", "oracle,random", "--games", "2", "--workers",
                  "1", "--short", "--out", str(run))
    assert played.exit_code == 0, played.output
    assert "2 games of oracle (analysis only), random (" in played.output
    assert re.search(r"oracle \(analysis only\) +│ +1 │", played.output)
    assert "oracle (analysis only), random" in _run("info", str(run)).output


@pytest.mark.parametrize("keep", [True, False])
def test_compare_stopped_says_how_to_complete_it(tmp_path, monkeypatch, keep) -> None:
    """compare has no --resume: with --out, the same command again completes the run;
    without, its folder is temporary and nothing is kept."""
    out = tmp_path / "cmp"
    monkeypatch.setattr(store, "write_durably", disk_full_after(2))  # the manifest, a chunk
    args = ["compare", "greedy", "random", "--deals", "400", "--short", "--workers", "1"]
    result = _run(*args, *(["--out", str(out)] if keep else []))
    assert result.exit_code == 1, result.output
    last = result.output.strip().splitlines()[-1]
    if keep:
        assert last.endswith(f" chunks are kept in {out}; run the same command again to "
                             f"complete it.")
        monkeypatch.undo()
        assert _run(*args, "--out", str(out)).exit_code == 0
    else:
        assert last.endswith("nothing is kept (the run's folder is temporary: give --out to "
                             "keep it)")


@pytest.mark.parametrize("command", [["compare", "greedy", "random"],
                                     ["tournament", "--strategies", "greedy,random"]])
def test_workers_below_one_are_refused_as_simulate_refuses_them(command: list[str]) -> None:
    """--workers 0 or less is one line, as on every other command (not all cores)."""
    for workers in ("0", "-3"):
        result = _run(*command, "--workers", workers)
        assert result.exit_code == 2
        assert result.output.strip() == f"Error: --workers must be at least 1, not {workers}"


def test_runs_pooled_across_versions_of_a_strategy_say_so_in_one_line(tmp_path) -> None:
    """compare --from and report pool them (as runs of other fcsim code), with a warning.
    (The report's runs name no registered strategy: it replays none of their games.)"""
    from fcsim.analysis.synthetic import write_synthetic_run

    def runs(table: list[str], key: str) -> list[Path]:
        return [write_synthetic_run(tmp_path / key / f"v{digit}", table, [0.3, 0.0],
                                    games=20, seed=seed, duplicate=True, games_per_file=20,
                                    sources={key: f"file /m/{digit}.npz sha256 {digit * 64}"})
                for seed, digit in ((1, "1"), (2, "2"))]

    def warning(key: str) -> str:
        return (f"warning: {key} differs across the runs: file /m/1.npz sha256 111111111111 "
                f"in v1; file /m/2.npz sha256 222222222222 in v2: pooled as one strategy\n")

    first, second = runs(["learned", "greedy"], "learned model")
    compared = _run("compare", "learned", "greedy", "--from", str(first), "--from", str(second))
    assert compared.exit_code == 0, compared.output
    assert compared.stderr == warning("learned model")
    first, second = runs(["a", "b"], "a model")
    reported = _run("report", str(first), str(second), "--out", str(tmp_path / "report"))
    assert reported.exit_code == 0, reported.output
    assert reported.stderr == warning("a model")
