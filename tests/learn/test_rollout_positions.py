"""Training positions with rollout labels: each candidate played out, exactly as the game
would have gone, and the same bytes whatever the number of processes deriving them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from fcsim.cli import cli
from fcsim.core.rules import RuleSet
from fcsim.learn.fit import read_inputs
from fcsim.learn.positions import FEATURE_COLUMNS, derive_chunk
from fcsim.learn.sampling import OUTCOME, ROLLOUTS, Sampling
from fcsim.learn.training import GAMES
from fcsim.runner import format as fmt
from fcsim.runner import make_plan
from fcsim.strategies.learned.features import N_FEATURES, network_inputs
from fcsim.strategies.learned.model import RELATIVE, load_model

pytest.importorskip("sklearn")

GAMES_PLAYED, SEED, PLAYERS, CANDIDATES = 24, 8, 3, 4
SEATING = ["aware", "expected", "aware"]


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("rollouts") / "run"
    result = CliRunner().invoke(cli, [
        "train", "--games", str(GAMES_PLAYED), "--seed", str(SEED), "--players",
        str(PLAYERS), "--share", "0.5", "--labels", ROLLOUTS, "--candidates",
        str(CANDIDATES), "--epochs", "1", "--hidden", "4", "--check-deals", "0",
        "--workers", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _plan():
    return make_plan(SEATING, RuleSet(players=PLAYERS), SEED, GAMES_PLAYED)


def _derived(out: Path, index: int, sampling: Sampling):
    games_file = out / GAMES / fmt.part_name(index)
    data = derive_chunk(_plan(), index, games_file, sampling)
    return pq.read_table(pa.BufferReader(data)).to_pandas()


def test_the_model_records_its_labels(trained: Path) -> None:
    meta = load_model(trained / "model.npz").metadata
    assert meta["labels"] == ROLLOUTS and meta["candidates"] == CANDIDATES
    assert meta["inputs"] == RELATIVE
    assert "--labels rollouts --candidates 4" in meta["trained_by"]


def test_each_position_holds_its_candidates_and_their_advantages(trained: Path) -> None:
    rows = pq.read_table(trained / "positions").to_pandas()
    positions = rows.groupby(["game", "decision"])
    assert positions.ngroups > 50
    assert positions.size().between(1, CANDIDATES).all()
    assert (positions.size() == CANDIDATES).mean() > 0.5
    # advantages: each position's labels sum to zero
    assert positions["label"].sum().abs().max() < 1e-3
    # candidates differ: not every label of a position is the same
    assert (positions["label"].agg(np.ptp) > 0).mean() > 0.3
    # one seat and one round per position
    assert (positions[["round", "seat"]].nunique() == 1).all().all()


def test_the_discard_made_plays_out_as_the_game_went(trained: Path) -> None:
    """Played out from the true position, the discard the seat made ends the round as it
    did in the game: the play-out is the game's own steps on the game's own cards."""
    sampling = Sampling(0.5, ROLLOUTS, CANDIDATES)
    rollouts = _derived(trained, 0, sampling)
    made = _derived(trained, 0, Sampling(0.5, OUTCOME))
    checked = 0
    for (game, decision), row in made.set_index(["game", "decision"]).iterrows():
        same = rollouts[(rollouts["game"] == game) & (rollouts["decision"] == decision)]
        assert len(same) >= 1  # the same positions are sampled in both labellings
        match = same[(same[list(FEATURE_COLUMNS)].to_numpy()
                      == row[list(FEATURE_COLUMNS)].to_numpy(np.float32)).all(axis=1)]
        if len(match):  # the discard made is among the candidates
            assert match["own_penalty"].iloc[0] == row["own_penalty"]
            assert match["went_out"].iloc[0] == row["went_out"]
            checked += 1
    assert checked > 0.8 * len(made)


def test_the_positions_are_the_same_whatever_the_processes(trained: Path) -> None:
    index = 1
    path = trained / "positions" / fmt.part_name(index)
    here = derive_chunk(_plan(), index, trained / GAMES / fmt.part_name(index),
                        Sampling(0.5, ROLLOUTS, CANDIDATES))
    assert path.read_bytes() == here


def test_the_fit_reads_the_inputs_the_strategy_computes(trained: Path) -> None:
    """Relative inputs: each candidate's features and their difference from the mean of
    its position's candidates, in training as at the table."""
    path = trained / "positions" / fmt.part_name(0)
    x, _, _ = read_inputs(path, RELATIVE)
    rows = pq.read_table(path).to_pandas()
    assert x.shape == (len(rows), 2 * N_FEATURES)
    for _, position in list(rows.groupby(["game", "decision"]).groups.items())[:40]:
        features = rows.loc[position, list(FEATURE_COLUMNS)].to_numpy(np.float64)
        expected = network_inputs(features, len(features), True)
        assert np.allclose(x[position], expected)
