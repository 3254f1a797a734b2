"""Strategies from outside fcsim at the command line: listed, and played by every command
that takes strategies (simulate on workers and Dask, compare, tournament, replay)."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import textwrap

import polars as pl
import pytest
from click.testing import CliRunner

from fcsim.cli import cli
from fcsim.runner.store import stored_plan
from tests.conftest import STOCK_ONLY, WILD_TAKER


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def outside(plugins, tmp_path):
    """A numba plug-in (``stockonly``) and a Python agent factory in a loose file."""
    plugins("fcsim-stockonly", {"stockonly": "stock_only:FAMILY"},
            {"stock_only.py": STOCK_ONLY})
    plugins("fcsim-broken", {"broken": "broken_mod:FAMILY"},
            {"broken_mod.py": "raise ImportError('half installed')\n"})
    loose = tmp_path / "wild taker.py"
    loose.write_text(textwrap.dedent(WILD_TAKER))
    return f"{loose}:make_agent"


def test_strategies_lists_plugins_with_their_package_and_warns_in_one_line(outside) -> None:
    result = invoke("strategies")
    assert result.exit_code == 0, result.output
    assert "stockonly  [from fcsim-stockonly 0.1.0]\n    Draws from the stock" in result.output
    assert "    unused=0  a parameter that changes nothing" in result.output
    warning = [line for line in result.output.splitlines() if "broken" in line]
    assert warning == ["warning: strategy 'broken' from package fcsim-broken 0.1.0 cannot be "
                       "loaded (broken_mod:FAMILY): ImportError: half installed "
                       f"({outside.rpartition('/')[0]}/site/broken_mod.py, line 1); "
                       "it is left out"]


@pytest.mark.parametrize("where", [["--workers", "2"], ["--dask-local", "2"]])
def test_simulate_plays_plugins_files_and_agents_on_workers(outside, tmp_path, where) -> None:
    if "--dask-local" in where:
        pytest.importorskip("distributed")
    specs = f"stockonly:unused=1,{outside}:patience=1,greedy"
    out = tmp_path / "run"
    result = invoke("simulate", "--strategies", specs, "--games", "12", "--chunk-size", "3",
                    "--short", "--seed", "5", "--out", str(out), *where)
    assert result.exit_code == 0, result.output
    names = {"stockonly:unused=1", f"{outside}:patience=1", "greedy"}
    assert set(pl.read_parquet(out)["strategy"]) == names
    table = result.output[result.output.index("strategy"):]  # a long path may wrap
    assert "stockonly:unused=1" in table and "greedy" in table and "patience=1" in table
    local = tmp_path / "local"
    assert invoke("simulate", "--strategies", specs, "--games", "12", "--chunk-size", "3",
                  "--short", "--seed", "5", "--out", str(local), "--workers", "1"
                  ).exit_code == 0
    assert pl.read_parquet(out).sort("game", "seat").equals(
        pl.read_parquet(local).sort("game", "seat"))


def test_compare_tournament_and_replay_take_them_too(outside, tmp_path) -> None:
    compared = invoke("compare", "stockonly", outside, "--deals", "6", "--short",
                      "--workers", "1")
    assert compared.exit_code == 0, compared.output
    assert f"stockonly vs {outside}: 6 deals" in compared.output
    played = invoke("tournament", "--strategies", f"stockonly,{outside},greedy",
                    "--games", "6", "--players", "3", "--short", "--workers", "1")
    assert played.exit_code == 0, played.output
    assert "stockonly" in played.output and "greedy" in played.output
    replayed = invoke("replay", "--seed", "1", "--strategies", f"stockonly,{outside}",
                      "--short", "--round", "1")
    assert replayed.exit_code == 0, replayed.output


def test_a_default_tournament_includes_the_plugins(outside, monkeypatch) -> None:
    from fcsim.cli import tournament

    played = {}
    monkeypatch.setattr(tournament, "play_plan", lambda table, *a, **k: played.setdefault(
        "tables", []).append(table))
    monkeypatch.setattr(tournament, "_leaderboard", lambda paths: None)
    result = invoke("tournament", "--games", "2")
    assert result.exit_code == 0, result.output
    assert any("stockonly" in table for table in played["tables"])
    assert "warning: strategy 'broken'" in result.output


@pytest.mark.parametrize(("spec", "message"), [
    ("nowhere.py", "strategy file nowhere.py: no such file or directory"),
    ("stokonly", "unknown strategy 'stokonly'; known strategies: random, greedy"),
    ("broken", "strategy 'broken' from package fcsim-broken 0.1.0 cannot be loaded"),
])
def test_bad_outside_strategies_are_one_line(outside, tmp_path, spec, message) -> None:
    result = invoke("simulate", "--strategies", spec, "--games", "2", "--out",
                    str(tmp_path / "run"))
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_run_records_its_strategy_file_and_resume_refuses_a_changed_one(plugins, tmp_path):
    loose = tmp_path / "mine.py"
    loose.write_text(textwrap.dedent(STOCK_ONLY))
    args = ["simulate", "--strategies", f"{loose},greedy", "--games", "4", "--chunk-size",
            "2", "--short", "--workers", "1", "--out", str(tmp_path / "run")]
    assert invoke(*args).exit_code == 0
    recorded = dict(stored_plan(tmp_path / "run").sources)
    assert recorded[str(loose)].startswith(f"file {loose} sha256 ")
    info = invoke("info", str(tmp_path / "run")).output
    assert f"source     {loose}: file {loose} sha256 {recorded[str(loose)][-64:][:12]}\n" in info
    assert invoke(*args, "--resume").exit_code == 0  # same file: nothing to do
    loose.write_text(loose.read_text() + "# tuned\n")
    result = subprocess.run([sys.executable, "-m", "fcsim", *args, "--resume"],
                            capture_output=True, text=True)  # a fresh process loads it anew
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"Error: {tmp_path / 'run'} holds a different run (strategy file {loose} changed "
        f"since the run was written (sha256 {recorded[str(loose)][-64:][:12]} there, "
        f"{hashlib.sha256(loose.read_bytes()).hexdigest()[:12]} here)); "
        "choose another --out"]


def test_resume_refuses_a_plug_in_edited_in_place(plugins, tmp_path):
    """An editable install's code changes without a new version; the run still tells."""
    site = plugins("fcsim-stockonly", {"stockonly": "stock_only:FAMILY"},
                   {"stock_only.py": STOCK_ONLY})
    args = ["simulate", "--strategies", "stockonly,greedy", "--games", "4", "--chunk-size",
            "2", "--short", "--workers", "1", "--out", str(tmp_path / "run")]
    assert invoke(*args).exit_code == 0
    assert invoke(*args, "--resume").exit_code == 0  # the same code: nothing to do
    with (site / "stock_only.py").open("a") as module:
        module.write("# tuned\n")
    result = invoke(*args, "--resume")
    assert result.exit_code == 2
    assert (f"Error: {tmp_path / 'run'} holds a different run (strategy code stockonly "
            f"changed since the run was written") in result.output


def test_strategies_lists_the_prefixed_ones_too() -> None:
    pytest.importorskip("pyspiel")
    result = invoke("strategies")
    assert result.exit_code == 0, result.output
    names = [line.split()[0] for line in result.output.splitlines() if not line.startswith(" ")]
    assert {"openspiel:ismcts", "openspiel:random"} <= set(names)
    assert "    simulations=100  ISMCTS simulations per decision" in result.output.splitlines()
