"""``fcsim train`` end to end: a small training run, its resume, and its determinism."""

from __future__ import annotations

import errno
import json
import os
import shlex
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from numba.core import event

from fcsim.cli import cli, running
from fcsim.errors import WorkerLost
from fcsim.learn import training
from fcsim.learn.positions import derive_chunk
from fcsim.learn.sampling import Sampling
from fcsim.runner import store
from fcsim.runner.durable import write_durably
from fcsim.runner.format import WriteError
from fcsim.runner.pool import WORKER_LOST
from fcsim.strategies.learned.model import load_model
from tests.learn.models import random_model

pytest.importorskip("sklearn")

SMALL = ["--games", "120", "--seed", "5", "--players", "3", "--share", "0.5", "--labels", "outcome",
         "--epochs", "2", "--hidden", "6", "--check-deals", "4", "--workers", "1"]


def train(out: Path, *extra: str):
    return CliRunner().invoke(cli, ["train", *SMALL, "--out", str(out), *extra])


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("train") / "run"
    result = train(out)
    assert result.exit_code == 0, result.output
    return out


def test_a_small_training_run_writes_the_model_and_its_report(trained: Path) -> None:
    model = load_model(trained / "model.npz")
    meta = model.metadata
    assert meta["games"] == 120 and meta["seed"] == 5 and meta["players"] == [3]
    assert meta["strategies"] == ["aware", "expected", "aware"]
    assert meta["fit"]["epochs"] == 2 and meta["fit"]["held_out_positions"] > 0
    assert len(meta["data_sha256"]) == 64 and meta["rules"]["players"] == 3
    assert meta["trained_by"] == ("fcsim train --strategies aware,expected --games 120 --seed 5 "
                                  "--players 3 --share 0.5 --labels outcome --hidden 6 "
                                  "--epochs 2 --check-deals 4")
    report = (trained / "report.md").read_text()
    assert "held-out" in report and "strength check" in report.lower()
    assert "learned - aware" in report
    assert (trained / "report.html").read_text().startswith("<!doctype html>")


def test_positions_are_the_runs_discards_with_their_outcomes(trained: Path) -> None:
    table = pq.read_table(sorted((trained / "positions").glob("part-*.parquet"))[0])
    rows = table.to_pandas()
    assert len(rows) > 100 and rows["game"].between(0, 119).all()
    games = pq.read_table(trained / "games").to_pandas()
    # the label: the seat's round penalty less the mean of the others' (from the run)
    for _, row in rows.head(30).iterrows():
        round_scores = games[games["game"] == row["game"]].sort_values("seat")[
            f"penalty_{row['round']}"].to_numpy()
        own = round_scores[row["seat"]]
        others = np.delete(round_scores, row["seat"]).mean()
        assert row["own_penalty"] == own
        assert row["label"] == pytest.approx(own - others, abs=1e-4)


def test_resume_redoes_only_what_is_missing_and_gives_the_same_model(trained: Path,
                                                                      tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(trained, copy)
    first = sorted((copy / "positions").glob("part-*.parquet"))
    first[0].unlink()  # a positions chunk lost
    (copy / "model.npz").unlink()
    result = train(copy, "--resume")
    assert result.exit_code == 0, result.output
    assert (copy / "model.npz").read_bytes() == (trained / "model.npz").read_bytes()
    refused = train(copy)  # without --resume, a folder holding a run is refused
    assert refused.exit_code == 2 and "--resume" in refused.output


def test_resume_where_the_lineup_s_model_lies_at_another_path_keeps_what_is_done(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A model is its bytes: a training resumed where the lineup's model file lies at
    another path (a moved folder) keeps its games and positions as first recorded."""
    first, second, out = tmp_path / "first", tmp_path / "second", tmp_path / "run"
    first.mkdir()
    second.mkdir()
    shutil.copy(random_model(first / "m.npz", seed=1), second / "m.npz")
    lineup = ["--strategies", "learned:model=m.npz,aware", "--check-deals", "0"]
    monkeypatch.chdir(first)
    assert train(out, *lineup).exit_code == 0
    done = {path: path.read_bytes() for path in (out / "positions").glob("part-*.parquet")}
    (out / "model.npz").unlink()
    monkeypatch.chdir(second)
    result = train(out, *lineup, "--resume")
    assert result.exit_code == 0, result.output
    assert {path: path.read_bytes() for path in done} == done
    assert (out / "model.npz").is_file()


def test_a_positions_chunk_of_another_share_is_derived_again(trained: Path,
                                                            tmp_path: Path) -> None:
    """A positions chunk that is whole but was derived with another --share (or labels, or
    candidates) is not of this run: ``--resume`` derives it again, not fitting on it as it
    is."""
    copy = tmp_path / "copy"
    shutil.copytree(trained, copy)
    plan = store.stored_plan(copy / "games")
    meta = load_model(trained / "model.npz").metadata
    ours = Sampling(meta["share"], meta["labels"], meta["candidates"])
    chunk = copy / "positions" / "part-000000.parquet"
    chunk.write_bytes(derive_chunk(plan, 0, copy / "games" / chunk.name,
                                   replace(ours, share=ours.share / 2)))
    training.derive_positions(plan, copy, ours)
    assert chunk.read_bytes() == (trained / "positions" / chunk.name).read_bytes()


def test_the_data_digest_covers_every_positions_chunk(trained: Path) -> None:
    """The model's data digest is of all the chunks it was fitted on: another chunk in
    any one's place gives another digest."""
    chunks = sorted((trained / "positions").glob("part-*.parquet"))
    digest = training.data_digest(chunks)
    assert load_model(trained / "model.npz").metadata["data_sha256"] == digest
    for i in range(len(chunks)):
        other = [*chunks[:i], chunks[(i + 1) % len(chunks)], *chunks[i + 1:]]
        assert training.data_digest(other) != digest, i


def test_the_strength_check_plays_other_deals_than_the_training_s(trained: Path) -> None:
    """The check's games have the root seed after the training's: a check on the
    training's own deals would flatter the model."""
    seed = load_model(trained / "model.npz").metadata["seed"]
    assert store.stored_plan(trained / "check").seed == seed + 1


def test_the_strength_check_s_progress_bar_is_named_so(trained: Path, tmp_path: Path) -> None:
    """Its bar says what it is, not the model's path cut short."""
    copy = tmp_path / "copy"
    shutil.copytree(trained, copy)
    shutil.rmtree(copy / "check")
    result = train(copy, "--resume")
    assert result.exit_code == 0, result.output
    bars = [line for line in result.output.splitlines() if "12/12 games" in line]  # 4 deals
    assert len(bars) == 1 and bars[0].startswith("strength check "), result.output


def test_resume_with_other_fit_flags_says_the_model_is_fitted_again(trained: Path,
                                                                     tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(trained, copy)
    result = train(copy, "--resume", "--hidden", "7", "--check-deals", "0")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0] == (f"{copy / 'model.npz'} was fitted with other flags "
                                             f"(--hidden 6 there, 7 here): it is fitted again")
    assert load_model(copy / "model.npz").metadata["hidden"] == 7
    again = train(copy, "--resume", "--hidden", "7", "--check-deals", "0")
    assert again.exit_code == 0 and "fitted with other flags" not in again.output


def test_a_run_with_a_model_is_a_pure_function_of_its_bytes(trained: Path,
                                                          tmp_path: Path) -> None:
    from fcsim import load_results, simulate

    spec = f"learned:model={trained / 'model.npz'}"
    frames = []
    for name, workers, chunk_size in (("a", 1, 12), ("b", 2, 5)):
        simulate([spec, "greedy"], 12, tmp_path / name, seed=3, workers=workers,
                 chunk_size=chunk_size)
        frames.append(load_results(tmp_path / name).sort(["game", "seat"]).collect())
    assert frames[0].equals(frames[1])
    meta = json.loads(pq.read_schema(next((tmp_path / "a").glob("part-*"))).metadata[
        b"fcsim"])
    recorded = " ".join(meta["strategy_sources"].values())
    assert load_model(trained / "model.npz").sha256 in recorded


def test_a_worker_lost_while_deriving_positions_is_one_line(trained: Path, tmp_path: Path,
                                                            monkeypatch) -> None:
    copy = tmp_path / "run"
    shutil.copytree(trained, copy)

    def lost(*args, **kwargs):
        raise WorkerLost(WORKER_LOST)

    monkeypatch.setattr(training, "derive_positions", lost)
    result = train(copy, "--resume")
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1] == (  # after the positions' progress bar
        f"Error: {WORKER_LOST}: the games and the positions done are kept in {copy}; run "
        f"the same command with --resume to complete it.")


def test_the_positions_kernels_are_compiled_here_first_saying_so(trained: Path, tmp_path: Path,
                                                                monkeypatch) -> None:
    """Before any positions chunk is derived (in workers, which then only load them) the
    kernels are compiled in this process, with a line saying so, not silently in each
    worker behind a bar standing at 0."""
    copy = tmp_path / "run"
    shutil.copytree(trained, copy)
    (copy / "positions" / "part-000000.parquet").unlink()
    steps = []

    def compiling(plan, sampling) -> None:
        event.start_event("numba:compile")
        event.end_event("numba:compile")
        steps.append("warm")

    derive = training.derive_chunk
    monkeypatch.setattr(training, "warm_positions", compiling)
    monkeypatch.setattr(training, "derive_chunk",
                        lambda *args: steps.append("derive") or derive(*args))
    result = train(copy, "--resume")
    assert result.exit_code == 0, result.output
    assert steps[:2] == ["warm", "derive"]
    assert ("compiling the kernels that derive the positions of aware, expected at 3 seats; "
            "this happens once") in result.output


@pytest.mark.parametrize("lost", ["positions/part-000000.parquet", "model.npz"])
def test_a_full_disk_is_one_line_saying_what_is_kept(trained: Path, tmp_path: Path,
                                                     monkeypatch, lost: str) -> None:
    """A positions chunk or the model that cannot be written (a full disk): one line, exit
    code 1, and ``--resume`` completes the same model once there is room."""
    copy = tmp_path / "run"
    shutil.copytree(trained, copy)
    (copy / lost).unlink()
    (copy / "model.npz").unlink(missing_ok=True)

    def full(target, data, temp):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(store, "write_durably", full)
    result = train(copy, "--resume")
    assert result.exit_code == 1, result.output
    temp = (copy / lost).with_name(f".{Path(lost).name}.tmp")
    assert result.output.strip().splitlines()[-1] == (
        f"Error: cannot write {temp}: No space left on device: the games and the positions "
        f"done are kept in {copy}; run the same command with --resume to complete it.")
    monkeypatch.setattr(store, "write_durably", write_durably)
    assert train(copy, "--resume").exit_code == 0
    assert (copy / "model.npz").read_bytes() == (trained / "model.npz").read_bytes()


def test_self_play_on_dask_gives_the_same_model(tmp_path: Path) -> None:
    """The games played on a local Dask cluster (the positions derived on --workers local
    processes): the same positions (their digest is in the metadata), so the same model
    bytes as on local processes."""
    pytest.importorskip("distributed")
    tiny = ["--games", "40", "--share", "0.5", "--players", "2", "--short", "--labels",
            "outcome", "--epochs", "1", "--hidden", "2", "--check-deals", "0"]
    models = []
    for name, way in (("dask", ["--dask-local", "2", "--workers", "1"]),
                      ("local", ["--workers", "1"])):
        result = CliRunner().invoke(cli, ["train", *tiny, *way, "--out", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
        models.append((tmp_path / name / "model.npz").read_bytes())
    assert models[0] == models[1]


def test_workers_with_dask_are_counted_as_without(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["train", "--games", "40", "--dask-local", "1",
                                      "--workers", "0", "--out", str(tmp_path / "t")])
    assert result.exit_code == 2
    assert result.output == "Error: --workers must be at least 1, not 0\n"


def test_too_few_games_say_so_in_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["train", "--games", "2", "--share", "0.01",
                                      "--players", "2", "--workers", "1",
                                      "--out", str(tmp_path / "t")])
    assert result.exit_code == 2
    assert result.output.startswith("Error: --games 2 at --share 0.01 are too few to fit")
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize(("setup", "extra", "words"), [
    ("simulate", (), "is not a training folder (it holds _run.parquet, part-000000.parquet)"),
    ("notes", (), "is not a training folder (it holds thesis.txt)"),
    ("file", (), "is a file, not a folder"),
    (None, ("--strategies", "oracle,aware"), "oracle sees hidden cards (analysis only)"),
    ("own model", ("--strategies", "learned:model={out}/model.npz,aware"),
     "learned:model={out}/model.npz plays {out}/model.npz, the file this training writes"),
])
def test_a_folder_or_lineup_it_cannot_train_in_is_refused_before_any_game(
        tmp_path: Path, setup: str | None, extra: tuple[str, ...], words: str) -> None:
    out = tmp_path / "out"
    if setup == "simulate":
        assert CliRunner().invoke(cli, ["simulate", "--strategies", "greedy", "--games", "4",
                                        "--players", "2", "--workers", "1",
                                        "--out", str(out)]).exit_code == 0
    elif setup == "notes":
        out.mkdir()
        (out / "thesis.txt").write_text("mine")
    elif setup == "file":
        out.write_text("mine")
    elif setup == "own model":  # a training's folder, trained again on its own model
        out.mkdir()
        random_model(out / "model.npz")
    extra, words = tuple(word.format(out=out) for word in extra), words.format(out=out)
    before = sorted(p.name for p in out.iterdir()) if out.is_dir() else None
    result = CliRunner().invoke(cli, ["train", "--games", "40", "--players", "2",
                                      "--workers", "1", *extra, "--out", str(out)])
    assert result.exit_code == 2 and words in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1
    assert (sorted(p.name for p in out.iterdir()) if out.is_dir() else None) == before


def test_candidates_without_play_outs_are_named_unused(trained: Path,
                                                        tmp_path: Path) -> None:
    """And unused they are: with outcome labels, ``--candidates`` changes neither the
    positions nor the model (it was recorded in both, so the model played 7)."""
    result = CliRunner().invoke(cli, ["train", "--games", "2", "--share", "0.01",
                                      "--labels", "outcome", "--candidates", "3",
                                      "--out", str(tmp_path / "t")])
    assert result.exit_code == 2  # too few games: the warning came first
    assert result.stderr.splitlines()[0] == ("warning: --labels outcome plays nothing out; "
                                             "--candidates is not used")
    out = tmp_path / "run"
    shutil.copytree(trained, out)
    positions = {p.name: p.stat().st_mtime_ns for p in (out / "positions").glob("part-*")}
    assert train(out, "--candidates", "7", "--resume").exit_code == 0
    assert {p.name: p.stat().st_mtime_ns for p in (out / "positions").glob("part-*")} == (
        positions)
    assert (out / "model.npz").read_bytes() == (trained / "model.npz").read_bytes()


def test_a_check_of_more_games_than_a_run_holds_is_refused_before_any_game(
        tmp_path: Path) -> None:
    """Refused up front, naming the flag (it was refused after the whole training, as
    games of the check)."""
    result = train(tmp_path / "out", "--check-deals", str(10**15))
    assert result.exit_code == 2, result.output
    assert result.output.strip() == ("Error: --check-deals 1,000,000,000,000,000 plays "
                                     "3,000,000,000,000,000 games at 3 players: at most "
                                     "1,000,000,000,000,000")
    assert not (tmp_path / "out").exists()


def test_too_few_draws_leave_a_model_that_draws_as_expected(tmp_path: Path) -> None:
    """Enough discards to fit and too few draws: one warning line, and a model without a
    draw network (``learned`` then draws as ``expected``)."""
    # A short game and 4 candidates: some 700 discard rows and 130 draws (200 fit one).
    result = CliRunner().invoke(cli, ["train", "--games", "20", "--share", "0.25", "--short",
                                      "--players", "2", "--candidates", "4", "--epochs", "1",
                                      "--hidden", "2", "--check-deals", "0", "--workers", "1",
                                      "--out", str(tmp_path / "t")])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "draw positions are too few" in warnings[0]
    assert not load_model(tmp_path / "t" / "model.npz").plays_draws


def test_a_pooled_fit_learns_from_another_table_size_too(trained: Path,
                                                        tmp_path: Path) -> None:
    """``--pool DIR``: the positions of another training folder (here of 2-player games)
    are fitted on beside the run's own; the model then knows both table sizes."""
    from dataclasses import replace

    from fcsim.core.rules import RuleSet
    from fcsim.strategies.learned import model_notes

    two = tmp_path / "two"
    made = train(two, "--players", "2", "--games", "40", "--check-deals", "0")
    assert made.exit_code == 0, made.output
    pooled = tmp_path / "pooled"
    result = train(pooled, "--check-deals", "0", "--pool", str(two))
    assert result.exit_code == 0, result.output
    meta = load_model(pooled / "model.npz").metadata
    alone = load_model(trained / "model.npz").metadata
    own_two = load_model(two / "model.npz").metadata["fit"]
    assert meta["players"] == [2, 3]
    assert meta["trained_by"].endswith(f"--pool {two}")
    assert meta["fit"]["train_positions"] == (alone["fit"]["train_positions"]
                                              + own_two["train_positions"])
    assert meta["data_sha256"] != alone["data_sha256"]
    model = str(pooled / "model.npz")
    assert model_notes(replace(RuleSet(), players=2), model) == ()
    (note,) = model_notes(replace(RuleSet(), players=4), model)
    assert "players 3 there, 4 here" in note
    for lost in sorted((two / "positions").glob("part-*.parquet"))[::-1]:
        lost.unlink()  # a pooled folder must be whole: a lost chunk is refused, not skipped
        refused = train(pooled, "--check-deals", "0", "--pool", str(two), "--resume")
        assert refused.exit_code == 2
        assert refused.output.startswith(f"Error: pooled folder {two}: {lost}: not a complete "
                                         f"positions chunk (complete it with its own fcsim "
                                         f"train command and --resume)")


@pytest.mark.parametrize(("pool", "extra", "says"), [
    ("missing", (), "pooled folder {pool}: no training games in it"),
    ("trained", (), "--pool names a run twice, or the run of --out"),
    ("trained", ("--games", "121"), "--pool names a run twice, or the run of --out, or a run "
                                    "of the same seed, lineup and rules"),  # 120 games again
    ("trained", ("--labels", "rollouts"), "pooled folder {pool}: its positions are not "
                                          "labelled as this run's"),
    ("trained", ("--wild-penalty", "50"), "pooled folder {pool}: its games were played "
                                          "under other rules (wild_penalty 20 there, 50 "
                                          "here)"),
])
def test_a_pool_that_cannot_be_fitted_on_is_refused_in_one_line(
        trained: Path, tmp_path: Path, pool: str, extra: tuple[str, ...], says: str) -> None:
    folder = trained if pool == "trained" else tmp_path / pool
    out = tmp_path / "out" if extra or pool == "missing" else trained
    result = train(out, *extra, "--resume", "--pool", str(folder))
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: " + says.format(pool=folder))
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()  # refused before anything is written


def test_a_pool_whose_games_chunk_is_lost_says_how_to_complete_it(trained: Path,
                                                                   tmp_path: Path) -> None:
    """The positions of a lost games chunk cannot be checked: the pooled folder is named,
    with the file it lacks and the command that completes it (it read 'No such file or
    directory', and nothing more)."""
    pool = tmp_path / "pool"
    shutil.copytree(trained, pool)
    lost = pool / "games" / "part-000000.parquet"
    lost.unlink()
    result = train(tmp_path / "out", "--seed", "6", "--pool", str(pool))
    assert result.exit_code == 2, result.output
    assert result.output.strip() == (
        f"Error: pooled folder {pool}: {pool / 'positions' / 'part-000000.parquet'}: its games "
        f"chunk {lost} is missing (complete it with its own fcsim train command and --resume)")
    assert not (tmp_path / "out").exists()
    torn = pool / "games" / "part-000001.parquet"  # cut short: it was a pyarrow traceback
    shutil.copy(trained / "games" / lost.name, lost)
    torn.write_bytes(torn.read_bytes()[: torn.stat().st_size // 2])
    result = train(tmp_path / "out", "--seed", "6", "--pool", str(pool))
    assert result.exit_code == 2, result.output
    assert result.output.strip() == (
        f"Error: pooled folder {pool}: {pool / 'positions' / torn.name}: its games chunk "
        f"{torn} is not a complete games chunk (complete it with its own fcsim train command "
        f"and --resume)")


def test_a_table_model_gives_its_networks_to_the_model_written(trained: Path,
                                                               tmp_path: Path) -> None:
    """``--table-model MODEL``: the model written plays MODEL's networks at MODEL's table
    size and its own, fitted as without the option, at any other."""
    from dataclasses import replace

    from fcsim.core.rules import RuleSet
    from fcsim.strategies.learned import model_notes

    two = tmp_path / "two"
    made = train(two, "--players", "2", "--games", "40", "--check-deals", "0")
    assert made.exit_code == 0, made.output
    joined = tmp_path / "joined"
    result = train(joined, "--check-deals", "0", "--table-model", str(two / "model.npz"))
    assert result.exit_code == 0, result.output
    model, alone = load_model(joined / "model.npz"), load_model(trained / "model.npz")
    table = load_model(two / "model.npz")
    assert model.tables == (2,) and model.metadata["players"] == [2, 3]
    assert model.metadata["trained_by"].endswith(f"--table-model {two / 'model.npz'}")
    assert model.metadata["tables"]["2"]["data_sha256"] == table.metadata["data_sha256"]
    for players, source in ((2, table), (3, alone), (5, alone)):
        arrays, inputs = model.networks(players)
        want, want_inputs = source.networks()
        assert inputs == want_inputs and arrays.keys() == want.keys()
        assert all(np.array_equal(arrays[name], want[name]) for name in want), players
    assert model_notes(replace(RuleSet(), players=2), str(joined / "model.npz")) == ()


def test_a_table_model_that_cannot_be_joined_is_refused_in_one_line(
        trained: Path, tmp_path: Path) -> None:
    """Before any game: a missing file, a model of this run's table size, of several sizes,
    or of other rules."""

    rules = load_model(trained / "model.npz").metadata["rules"]
    cases = {
        tmp_path / "absent.npz": "no such file",
        trained / "model.npz": "fitted at 3 players, where this model's own networks were "
                               "fitted too",
        random_model(tmp_path / "pooled.npz", players=[2, 4], rules=rules):
            "fitted at table sizes [2, 4], not one",
        random_model(tmp_path / "rules.npz", players=[2],
                     rules={**rules, "players": 2, "wild_penalty": 50}):
            "trained under other rules (wild_penalty 50 there, 20 here)",
    }
    for path, says in cases.items():
        result = train(tmp_path / "out", "--table-model", str(path))
        assert result.exit_code == 2, result.output
        assert result.output.startswith(f"Error: model {path}: {says}")
        assert len(result.output.strip().splitlines()) == 1, result.output
        assert not (tmp_path / "out").exists()  # refused before anything is written


def test_a_model_replaced_on_resume_leaves_no_report_of_the_old_one(
        trained: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped as the new model is written, the folder holds no report describing the
    model it replaces."""
    out = tmp_path / "run"
    shutil.copytree(trained, out)

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(training, "save_model", stopped)
    result = train(out, "--hidden", "8", "--resume")
    assert result.exit_code == 130, result.output
    assert not (out / "report.md").exists() and not (out / "report.html").exists()


def test_the_strength_check_of_the_same_model_is_kept_and_of_another_played_anew(
        trained: Path, tmp_path: Path) -> None:
    """The check records the model's SHA-256: a resume that fits the same model again keeps
    its games (an interrupted check goes on), one that fits another plays it anew."""
    out = tmp_path / "run"
    shutil.copytree(trained, out)

    def check_files() -> dict[str, int]:
        return {p.name: p.stat().st_mtime_ns for p in (out / "check").glob("part-*")}

    assert train(out, "--resume").exit_code == 0  # the copy's model: another path
    before = check_files()
    assert before and train(out, "--resume").exit_code == 0
    assert check_files() == before
    assert train(out, "--hidden", "8", "--resume").exit_code == 0
    after = check_files()
    assert after.keys() == before.keys() and all(after[n] != before[n] for n in before)


def test_a_check_that_cannot_be_written_keeps_its_games(trained: Path, tmp_path: Path,
                                                          monkeypatch) -> None:
    """A full disk is not the check of another model: what the check holds stays for
    ``--resume`` (it was removed, as another model's would be)."""
    out = tmp_path / "run"
    shutil.copytree(trained, out)
    kept = sorted(p.name for p in (out / "check").iterdir())

    def full(*args, **kwargs):
        raise WriteError(f"cannot write {out / 'check'}: No space left on device")

    monkeypatch.setattr(running, "play_plan", full)
    result = train(out, "--resume")
    assert result.exit_code == 1, result.output
    assert "No space left on device" in result.output.strip().splitlines()[-1]
    assert sorted(p.name for p in (out / "check").iterdir()) == kept


def test_allow_code_change_reaches_the_games_folder(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The games of a training are a run folder: other code's games are mixed in only
    with --allow-code-change (and that only with --resume)."""
    from fcsim.cli import train as train_module

    seen = []

    def open_folder(path, plan, resume, allow_code_change=False):
        seen.append((resume, allow_code_change))
        raise store.RunFolderError("stopped here")

    monkeypatch.setattr(train_module.RunFolder, "open", open_folder)
    assert train(tmp_path / "t", "--resume", "--allow-code-change").exit_code == 2
    alone = train(tmp_path / "t", "--allow-code-change")
    assert alone.stderr.splitlines()[0] == ("warning: without --resume no run is resumed; "
                                            "--allow-code-change is not used")
    assert seen == [(True, True), (False, True)]


def test_info_on_a_training_folder_shows_its_games_model_and_command(trained: Path) -> None:
    result = CliRunner().invoke(cli, ["info", str(trained)])
    assert result.exit_code == 0, result.output
    lines = dict(line.split(maxsplit=1) for line in result.output.splitlines())
    model = load_model(trained / "model.npz")
    assert lines["run"] == str(trained / "games") and lines["training"] == str(trained)
    assert lines["model"] == f"{trained / 'model.npz'} (sha256 {model.sha256[:12]})"
    assert lines["command"] == f"{model.metadata['trained_by']} --out {trained} --resume"
    chunks = len(list((trained / "games").glob("part-*.parquet")))
    assert lines["status"] == "complete"
    assert lines["positions"] == f"{chunks} of {chunks} chunks derived"


def test_the_command_info_prints_continues_the_training_as_it_is(tmp_path: Path) -> None:
    """Run as printed (its --out, its --check-deals), it completes the same training: no
    game, no positions chunk and no strength-check game played again, the same model and
    its report. (A folder of its own: a copied one's check names another model path.)"""
    out = tmp_path / "run"
    assert train(out).exit_code == 0
    model, report = (out / "model.npz").read_bytes(), (out / "report.md").read_text()
    (out / "report.md").unlink()
    info = CliRunner().invoke(cli, ["info", str(out)])
    command = dict(line.split(maxsplit=1) for line in info.output.splitlines())["command"]
    words = shlex.split(command)
    assert words[:2] == ["fcsim", "train"] and words[-1] == "--resume"
    played = {path: path.stat().st_mtime_ns for path in out.glob("*/part-*.parquet")}
    assert {path.parent.name for path in played} == {"games", "positions", "check"}
    result = CliRunner().invoke(cli, words[1:])
    assert result.exit_code == 0, result.output
    assert {path: path.stat().st_mtime_ns for path in out.glob("*/part-*.parquet")} == played
    assert (out / "model.npz").read_bytes() == model
    assert (out / "report.md").read_text() == report


def test_info_counts_only_the_positions_chunks_a_training_derived(trained: Path,
                                                                  tmp_path: Path) -> None:
    """A stray file named like a chunk, or a chunk that is not whole, is not a chunk
    derived (a stray read '31 chunks derived' of a run of 30)."""
    copy = tmp_path / "run"
    shutil.copytree(trained, copy)
    chunks = sorted((copy / "positions").glob("part-*.parquet"))
    shutil.copy(chunks[0], copy / "positions" / "part-000099.parquet")
    chunks[-1].write_bytes(chunks[-1].read_bytes()[:100])
    result = CliRunner().invoke(cli, ["info", str(copy)])
    assert result.exit_code == 0, result.output
    lines = dict(line.split(maxsplit=1) for line in result.output.splitlines())
    assert lines["positions"] == f"{len(chunks) - 1} of {len(chunks)} chunks derived"


def test_info_on_a_trained_model_file_says_what_it_was_fitted_on(trained: Path) -> None:
    """The model's provenance as its metadata records it: the training's games and rules,
    its network's fit, and the command that made it (rollout labels' draw network: in
    tests/cli/test_info.py, on the shipped model)."""
    path = trained / "model.npz"
    metadata = load_model(path).metadata
    result = CliRunner().invoke(cli, ["info", str(path)])
    assert result.exit_code == 0, result.output
    lines = [(line[:11].strip(), line[11:]) for line in result.output.splitlines()]
    said = dict(lines)
    assert [key for key, _ in lines] == ["model", "format", "tables", "networks", "trained",
                                        "rules", "discards", "draws", "data", "command",
                                        "plays as"]
    assert said["networks"] == "main" and said["command"] == metadata["trained_by"]
    assert said["trained"] == (f"{metadata['games']} self-play games of aware, expected, "
                               f"aware at 3 players (seed 5, share 0.5, labels outcome)")
    assert said["rules"].startswith("all_wild_melds=True, go_out_bonus=0, players=3, ")
    fit = metadata["fit"]
    assert said["discards"] == (
        f"features inputs over 5 candidates: {len(metadata['features'])} inputs, 6 hidden "
        f"units; held-out error {fit['held_out_mse']:.2f} (predicting the mean "
        f"{fit['baseline_mse']:.2f}) on {fit['held_out_positions']:,} positions, "
        f"{fit['train_positions']:,} fitted, 2 epochs")
    assert said["draws"] == "no network: draws as expected does"
    assert said["data"] == f"sha256 {metadata['data_sha256'][:12]}"
    assert said["plays as"] == f"learned:model={path}"


def test_a_training_folder_another_training_is_writing_is_refused(trained: Path,
                                                                   tmp_path: Path) -> None:
    """Past its self-play games (their folder is locked on its own) a training wrote the
    positions, the model and the reports unlocked: a second one in the same folder raced
    the first on their temporary files ('cannot write .part-000000.parquet.tmp: No such
    file or directory') or left one model beside the other's report."""
    from fcsim.runner.lock import FolderLock

    copy = tmp_path / "run"
    shutil.copytree(trained, copy)
    (copy / "model.npz").unlink()
    other = FolderLock(copy)
    other.acquire()
    try:
        result = train(copy, "--resume")
    finally:
        other.release()
    assert result.exit_code == 1 and "is being written by another fcsim" in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (copy / "model.npz").exists()


def test_a_lock_left_by_a_killed_training_blocks_nothing(trained: Path, tmp_path: Path) -> None:
    copy = tmp_path / "run"
    shutil.copytree(trained, copy)
    (copy / ".fcsim.lock").write_text('{"pid": 1}')  # as kill -9 leaves it: nobody holds it
    (copy / "model.npz").unlink()
    assert CliRunner().invoke(cli, ["info", str(copy)]).exit_code == 0
    result = train(copy, "--resume")
    assert result.exit_code == 0, result.output
    assert (copy / "model.npz").read_bytes() == (trained / "model.npz").read_bytes()
    assert not (copy / ".fcsim.lock").exists()
