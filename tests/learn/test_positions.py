"""Training positions with rollout labels: each candidate discard (and both sources of a
draw) played out, exactly as the game would have gone, and the same bytes whatever the
number of processes deriving them."""

from __future__ import annotations

import tracemalloc
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import fcsim
from fcsim.cli import cli
from fcsim.core.records import Score
from fcsim.core.rules import RuleSet
from fcsim.learn import positions
from fcsim.learn.fit import DRAWS, HELD_OUT_EVERY, fit, read_inputs
from fcsim.learn.positions import (
    DRAW_FEATURE_COLUMNS,
    FEATURE_COLUMNS,
    FIRST_ROOM_GAMES,
    LABEL,
    MAX_DISCARDS_PER_GAME,
    MOVE_DISCARD,
    MOVE_DRAW,
    N_COLUMNS,
    RECORD_SIZE,
    PositionsChunk,
    check_chunk,
    derive_chunk,
    identity,
    record_game,
    warm_positions,
)
from fcsim.learn.sampling import OUTCOME, ROLLOUTS, Sampling
from fcsim.learn.training import GAMES
from fcsim.runner import format as fmt
from fcsim.runner import make_plan
from fcsim.runner.plan import chunk_layout
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


def _rows(path: Path, move: int):
    """The rows of one kind (a discard's or a draw's) of a positions file or folder,
    numbered from 0."""
    rows = pq.read_table(path).to_pandas()
    return rows[rows["move"] == move].reset_index(drop=True)


def test_the_model_records_its_labels(trained: Path) -> None:
    meta = load_model(trained / "model.npz").metadata
    assert meta["labels"] == ROLLOUTS and meta["candidates"] == CANDIDATES
    assert meta["inputs"] == RELATIVE
    assert "--labels rollouts --candidates 4" in meta["trained_by"]
    assert load_model(trained / "model.npz").plays_draws and meta["draw_fit"]["epochs"] == 1


def test_each_position_holds_its_candidates_and_their_advantages(trained: Path) -> None:
    rows = _rows(trained / "positions", MOVE_DISCARD)
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
    rollouts = rollouts[rollouts["move"] == MOVE_DISCARD]
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


def test_a_draw_plays_out_as_the_game_went(trained: Path) -> None:
    """A recorded draw's own penalty (the play-out of the draw made) is the round's, as the
    outcome labelling records it; its label is the pile's outcome less the stock's, and
    only its draw features are filled."""
    rows = _derived(trained, 0, Sampling(0.5, ROLLOUTS, CANDIDATES))
    draws = rows[rows["move"] == MOVE_DRAW]
    assert len(draws) > 20
    assert (draws[list(FEATURE_COLUMNS)] == 0).all().all()
    lower = draws["d_penalty_now"] > draws["d_pile_penalty_now"]
    assert lower.any() and not lower.all()  # worth weighing: lowers now, or near the hand
    made = _derived(trained, 0, Sampling(0.5, OUTCOME)).set_index(["game", "round", "seat"])
    checked = 0
    for _, draw in draws.iterrows():
        key = (draw["game"], draw["round"], draw["seat"])
        if key in made.index:
            assert (made.loc[[key], "own_penalty"] == draw["own_penalty"]).all()
            checked += 1
    assert checked > 0.5 * len(draws)
    assert draws["label"].std() > 0  # the two sources do not always end alike


def _against_table(game, rnd: int, seat: int, move: str, agents) -> float:
    """Play ``move`` in a copy of ``game`` and round ``rnd`` out with ``agents``: the
    seat's penalty in the round less the other seats' mean."""
    game = game.copy()
    game.step(move)
    while not game.over and game.round == rnd:
        game.step(agents[game.to_move](game.view()))
    penalties = game.state.scores[rnd - 1, :, Score.PENALTY]
    return penalties[seat] - (penalties.sum() - penalties[seat]) / (PLAYERS - 1)


def test_a_draw_is_labelled_with_the_pile_s_outcome_less_the_stock_s(trained: Path) -> None:
    """The draw network learns what taking the pile's card gains over a stock draw: each
    recorded draw's label is the pile's play-out less the stock's, both played out here
    from the game itself (a label of the other sign would teach ``learned`` to take the
    cards that cost it, and every other test of the draws would still pass)."""
    plan, recorded = _plan(), _rows(trained / "positions" / fmt.part_name(0), MOVE_DRAW)
    layout = chunk_layout(plan, 0)
    checked_games = 2  # a few games' draws: replayed in Python, step by step
    differ = 0
    for g in range(checked_games):
        game = int(layout.game[g])
        labels = dict(zip(recorded[recorded["game"] == game]["decision"],
                          recorded[recorded["game"] == game]["label"], strict=True))
        assert labels, game
        table = fcsim.Game(players=PLAYERS, seed=SEED, game=int(layout.deal[g]))
        agents = [fcsim.agent(plan.lineup[i]) for i in layout.seating[g]]
        draws = 0
        while labels.keys() - {draws}:
            view = table.view()
            if view.phase == "draw":
                draws += 1
                if draws in labels:
                    pile, stock = (_against_table(table, view.round, view.seat, move, agents)
                                   for move in ("pile", "stock"))
                    assert labels.pop(draws) == pytest.approx(pile - stock, abs=1e-4)
                    differ += pile != stock
            table.step(agents[table.to_move](view))
    assert differ > 0  # the sources end the round otherwise: the label's sign shows


def _decisions(plan, index: int) -> Iterator[tuple[int, fcsim.View]]:
    """Every decision of chunk ``index``'s games, replayed in Python: (game, view)."""
    layout = chunk_layout(plan, index)
    for game, deal, seating in zip(layout.game, layout.deal, layout.seating, strict=True):
        table = fcsim.Game(players=PLAYERS, seed=SEED, game=int(deal))
        agents = [fcsim.agent(plan.lineup[i]) for i in seating]
        while not table.over:
            view = table.view()
            yield int(game), view
            table.step(agents[table.to_move](view))


def test_no_last_draw_is_recorded(trained: Path) -> None:
    """A last turn's draw is the exact rule's, never the draw network's, so none is
    recorded; the games replayed hold plenty (the test's teeth at a share of 0.5)."""
    plan, recorded = _plan(), _rows(trained / "positions" / fmt.part_name(0), MOVE_DRAW)
    recorded = set(zip(recorded["game"], recorded["decision"], strict=True))
    draws, last_draws = Counter(), []
    for game, view in _decisions(plan, 0):
        if view.phase == "draw":
            draws[game] += 1
            if view.last_turn:
                last_draws.append((game, draws[game]))
    assert len(last_draws) > 20
    assert recorded and not recorded & set(last_draws)


def test_no_last_discard_is_recorded(trained: Path) -> None:
    """A last turn's discard is the exact best one, never the network's, so none is a
    position: the discards are numbered without them, and each recorded one is the
    game's discard of that number, at its round and seat. The games replayed hold plenty
    of last discards (the test's teeth: recorded, they shift every number after them)."""
    plan, recorded = _plan(), _rows(trained / "positions" / fmt.part_name(0), MOVE_DISCARD)
    numbers, discards, last_discards = Counter(), {}, 0
    for game, view in _decisions(plan, 0):
        if view.phase == "discard":
            if view.last_turn:
                last_discards += 1
            else:
                numbers[game] += 1
                discards[game, numbers[game]] = (view.round, view.seat)
    assert last_discards > 20
    positions = recorded.groupby(["game", "decision"])[["round", "seat"]].first()
    assert len(positions) > 50
    for (game, decision), row in positions.iterrows():
        assert discards[game, decision] == (row["round"], row["seat"]), (game, decision)


def test_the_share_of_discards_recorded_is_the_share_asked_for(trained: Path) -> None:
    """--share 0.5: about half the discards that are not last turns become positions (the
    share applied twice would record a quarter)."""
    share = 0.5  # the fixture's --share
    recorded = _rows(trained / "positions" / fmt.part_name(0), MOVE_DISCARD)
    positions = recorded.groupby(["game", "decision"]).ngroups
    discards = sum(view.phase == "discard" and not view.last_turn
                   for _, view in _decisions(_plan(), 0))
    assert positions / discards == pytest.approx(share, abs=0.1)  # some 600: spread 0.02


def test_the_positions_are_the_same_whatever_the_processes(trained: Path) -> None:
    index = 1
    path = trained / "positions" / fmt.part_name(index)
    here = derive_chunk(_plan(), index, trained / GAMES / fmt.part_name(index),
                        Sampling(0.5, ROLLOUTS, CANDIDATES))
    assert path.read_bytes() == here


def test_a_positions_chunk_whose_data_changed_is_not_kept(trained: Path, tmp_path: Path
                                                          ) -> None:
    """A byte of a positions chunk's data changed on disk, its footer whole: the chunk
    no longer matches its checksum, so ``--resume`` derives it again instead of fitting on
    it. The chunk as written is kept (the test's teeth)."""
    index = 0
    written = trained / "positions" / fmt.part_name(index)
    damaged = tmp_path / fmt.part_name(index)
    data = bytearray(written.read_bytes())
    data[len(b"PAR1")] ^= 0xFF  # the first byte after the magic: a data page's
    damaged.write_bytes(data)
    expected = identity(_plan(), Sampling(0.5, ROLLOUTS, CANDIDATES))
    games = trained / GAMES / fmt.part_name(index)
    assert isinstance(check_chunk(written, index, expected, games), PositionsChunk)
    assert check_chunk(damaged, index, expected, games) == (
        f"{damaged}: its data does not match its checksum")


def test_the_fit_reads_the_inputs_the_strategy_computes(trained: Path) -> None:
    """Relative inputs: each candidate's features and their difference from the mean of
    its position's candidates, in training as at the table."""
    path = trained / "positions" / fmt.part_name(0)
    x, _, _ = read_inputs(path, RELATIVE)
    rows = _rows(path, MOVE_DISCARD)
    assert x.shape == (len(rows), 2 * N_FEATURES)
    for _, position in list(rows.groupby(["game", "decision"]).groups.items())[:40]:
        features = rows.loc[position, list(FEATURE_COLUMNS)].to_numpy(np.float64)
        expected = network_inputs(features, len(features), True)
        assert np.allclose(x[position], expected)


def test_the_fit_never_trains_on_the_held_out_games(trained: Path, tmp_path: Path) -> None:
    """One game in ten is held out to measure the fit: the same fit on positions whose
    held-out labels are all changed gives the same network, and only its held-out error
    differs (the test's teeth)."""
    shift = 100.0  # added to every held-out label: a fit that saw them would move
    files, changed = sorted((trained / "positions").glob("part-*.parquet")), []
    for path in files:
        table = pq.read_table(path)
        rows = table.to_pandas()
        rows.loc[rows["game"] % HELD_OUT_EVERY == 0, LABEL] += shift
        changed.append(tmp_path / path.name)
        pq.write_table(pa.Table.from_pandas(rows, schema=table.schema), changed[-1])
    original, relabelled = (fit(chunks, seed=1, hidden=4, epochs=1, inputs=RELATIVE)
                            for chunks in (files, changed))
    assert original.held_out_positions > 0
    for name, weights in original.arrays.items():
        assert np.array_equal(weights, relabelled.arrays[name]), name
    assert original.held_out_loss != relabelled.held_out_loss


def test_the_fit_reads_the_draw_rows_for_the_draw_network(trained: Path) -> None:
    path = trained / "positions" / fmt.part_name(0)
    x, y, _ = read_inputs(path, DRAWS)
    rows = _rows(path, MOVE_DRAW)
    assert np.array_equal(x, rows[list(DRAW_FEATURE_COLUMNS)].to_numpy(np.float64))
    assert np.array_equal(y, rows["label"].to_numpy(np.float64))


def test_warming_compiles_the_kernel_the_chunks_are_derived_with(trained: Path) -> None:
    """The workers deriving positions load what this process compiled: warming compiles
    (or loads) the very signature a chunk's replay calls, and a chunk adds none."""
    sampling = Sampling(0.5, ROLLOUTS, CANDIDATES)
    warm_positions(_plan(), sampling)
    signatures = list(record_game.signatures)
    assert signatures
    _derived(trained, 0, sampling)
    assert list(record_game.signatures) == signatures


def test_a_chunk_asks_for_the_room_its_rows_take_not_every_games_most(trained: Path) -> None:
    """Sized for every game's most rows, chunk 0 of ``fcsim train --games 320000`` (10,000
    games) asked for 28.8 GiB at once and was refused; the rows start with room for
    FIRST_ROOM_GAMES games' most, whatever the chunk's games."""
    sampling = Sampling(0.5, ROLLOUTS, CANDIDATES)
    _derived(trained, 0, sampling)  # the kernels loaded first
    tracemalloc.start()
    try:
        _derived(trained, 0, sampling)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    row_bytes = (N_COLUMNS + RECORD_SIZE + 1) * np.dtype(np.float64).itemsize
    game_room = MAX_DISCARDS_PER_GAME * (sampling.rows_per_position + 1) * row_bytes
    assert peak < (FIRST_ROOM_GAMES + 1) * game_room


def test_rows_that_outgrow_their_room_are_the_same_rows(trained: Path, monkeypatch) -> None:
    sampling = Sampling(0.5, ROLLOUTS, CANDIDATES)
    whole = _derived(trained, 0, sampling)
    most = 80  # still above a game's discards here (a game past its room would lose rows)
    monkeypatch.setattr(positions, "MAX_DISCARDS_PER_GAME", most)
    grown = _derived(trained, 0, sampling)
    assert len(whole) > FIRST_ROOM_GAMES * most * (sampling.rows_per_position + 1)  # it grew
    assert grown.equals(whole)
