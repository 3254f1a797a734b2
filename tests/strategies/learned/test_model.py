"""Model files: what ``learned`` refuses (one line naming the file and the problem, exit 2,
before any game), what it warns about, and how a run records the model."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from fcsim.cli import cli
from fcsim.core.rules import RuleSet
from fcsim.runner.run import table_notes
from fcsim.strategies import StrategyError, parse_strategy
from fcsim.strategies.learned.draw_features import DRAW_FEATURE_SET, N_DRAW_FEATURES
from fcsim.strategies.learned.features import FEATURE_SET, N_FEATURES
from fcsim.strategies.learned.model import (
    DEFAULT_MODEL,
    NET_ARRAYS,
    NET_CANDIDATES,
    RELATIVE,
    Model,
    draw_net_at,
    file_sha256,
    load_model,
    new_metadata,
    predict,
    table_net,
    with_table,
)
from tests.learn.models import random_arrays, random_draw_arrays, random_model, tabled_model


def compare(model: Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["compare", f"learned:model={model}", "greedy",
                                      "--deals", "2"])
    return result.exit_code, result.output


def bad_files(tmp: Path) -> dict[str, tuple[Path, str]]:
    """Each kind of unusable file, with the words its refusal must hold."""
    text = tmp / "notes.npz"
    text.write_text("not a model")
    one_array = tmp / "one_array.npy"
    np.save(one_array, np.zeros(3))
    broken = tmp / "broken.npz"
    broken.write_bytes(b"PK\x03\x04 cut short")
    no_meta = tmp / "no_meta.npz"
    np.savez(no_meta, **random_arrays(4, 0))
    other_set = random_model(tmp / "other_set.npz", feature_set=FEATURE_SET + 1)
    foreign = random_model(tmp / "foreign.npz", format="something-else")
    wrong = random_arrays(4, 0)
    wrong["w1"] = wrong["w1"][:-1]
    shapes = tmp / "shapes.npz"
    shapes.write_bytes(Model(wrong, new_metadata()).to_bytes())
    nan = random_arrays(4, 0)
    nan["b1"][0] = np.nan
    not_finite = tmp / "nan.npz"
    not_finite.write_bytes(Model(nan, new_metadata()).to_bytes())
    flat = random_arrays(4, 0)
    flat["scale"][0] = 0.0  # an input standardised by a zero scale: every value inf or nan
    zero_scale = tmp / "zero_scale.npz"
    zero_scale.write_bytes(Model(flat, new_metadata()).to_bytes())
    tiny = random_arrays(4, 0)
    tiny["scale"][0] = 1e-310  # positive, but subnormal: played as 0, a division by zero
    tiny_scale = tmp / "tiny_scale.npz"
    tiny_scale.write_bytes(Model(tiny, new_metadata()).to_bytes())
    inputs = tmp / "inputs.npz"
    inputs.write_bytes(Model(random_arrays(4, 0), new_metadata(inputs="pairs")).to_bytes())
    listed_inputs = tmp / "listed_inputs.npz"  # unhashable: it was a TypeError
    listed_inputs.write_bytes(Model(random_arrays(4, 0),
                                    new_metadata(inputs=["relative"])).to_bytes())
    folder = tmp / "folder.npz"
    folder.mkdir()
    words = {**random_arrays(4, 0), "w1": np.array(["a"])}
    text_arrays = tmp / "text_arrays.npz"
    text_arrays.write_bytes(Model(words, new_metadata()).to_bytes())
    players = random_model(tmp / "players.npz", players=4)
    rules = random_model(tmp / "rules.npz", rules=[1, 2])
    return {**_bad_draw_networks(tmp), **_bad_tables(tmp),
            "players": (players, "its metadata's players are not a list of table sizes"),
            "rules": (rules, "its metadata's rules are not a mapping of rules"),
            "missing": (tmp / "absent.npz", "no such file"),
            "inputs": (inputs, "inputs 'pairs'"),
            "listed inputs": (listed_inputs, "inputs ['relative'], not one of"),
            "tiny scale": (tiny_scale, "scale must be positive (and a normal number"),
            "folder": (folder, "not a model file (Is a directory)"),
            "text": (text, "not a model file (not an .npz archive)"),
            "one array": (one_array, "not a model file (not an .npz archive)"),
            "broken archive": (broken, "not a model file"),
            "no metadata": (no_meta, "no metadata"),
            "feature set": (other_set, f"feature set {FEATURE_SET + 1}"),
            "foreign": (foreign, "not an fcsim model"),
            "shapes": (shapes, f"w1 has shape ({N_FEATURES - 1}, 4)"),
            "not finite": (not_finite, "not finite"),
            "zero scale": (zero_scale, "scale must be positive"),
            "text arrays": (text_arrays, "w1 holds <U1 values, not numbers")}


def _bad_draw_networks(tmp: Path) -> dict[str, tuple[Path, str]]:
    """Models whose draw network cannot be played, with the words their refusal holds."""
    def written(name: str, draw: dict, **metadata: object) -> Path:
        path = tmp / name
        path.write_bytes(Model({**random_arrays(4, 0), **draw},
                               {**new_metadata(draws=True), **metadata}).to_bytes())
        return path

    whole = random_draw_arrays(3, 1)
    partial = {name: value for name, value in whole.items() if name != "draw_b2"}
    narrow = {**whole, "draw_w1": whole["draw_w1"][1:]}
    return {"draw partial": (written("partial.npz", partial), "lacks draw_b2"),
            "draw shapes": (written("narrow.npz", narrow),
                            f"draw_w1 has shape ({N_DRAW_FEATURES - 1}, 3)"),
            "draw set": (written("draw_set.npz", whole, draw_feature_set=DRAW_FEATURE_SET + 1),
                         f"draw feature set {DRAW_FEATURE_SET + 1}")}


def _bad_tables(tmp: Path) -> dict[str, tuple[Path, str]]:
    """Models whose networks for a table size cannot be played, with the words their
    refusal holds."""
    good = load_model(tabled_model(tmp, {2: 3}))

    def written(name: str, drop: tuple[str, ...] = (), add: dict | None = None,
                **table: object) -> Path:
        arrays = {key: value for key, value in good.arrays.items() if key not in drop}
        tables = {"2": {**good.metadata["tables"]["2"], **table}}
        path = tmp / name
        path.write_bytes(Model({**arrays, **(add or {})},
                               {**good.metadata, "tables": tables}).to_bytes())
        return path

    seats = tmp / "seats.npz"
    seats.write_bytes(Model(good.arrays, {**good.metadata, "tables": {
        "9": good.metadata["tables"]["2"]}}).to_bytes())
    listed = tmp / "listed.npz"
    listed.write_bytes(Model(good.arrays, {**good.metadata, "tables": ["2"]}).to_bytes())
    narrow = good.arrays["p2_draw_w1"][1:]
    return {"table set": (written("table_set.npz", feature_set=FEATURE_SET + 1),
                          f"the 2-player networks' feature set {FEATURE_SET + 1}"),
            "table inputs": (written("table_inputs.npz", inputs="pairs"),
                             "the 2-player networks' inputs 'pairs'"),
            "table candidates": (written("table_candidates.npz", candidates=0),
                                 "the 2-player networks' candidates 0, not a count from 1 "
                                 "to 14"),
            "table draw set": (written("table_draw.npz", draw_feature_set=0),
                               "the 2-player networks' draw feature set 0"),
            "table lacks": (written("table_lacks.npz", drop=("p2_w2",)),
                            "its networks lack p2_w2"),
            "table draw shape": (written("table_shape.npz", add={"p2_draw_w1": narrow}),
                                 f"p2_draw_w1 has shape ({N_DRAW_FEATURES - 1}, 3)"),
            "stray": (written("stray.npz", add={"p3_b1": good.arrays["b1"]}),
                      "array p3_b1 belongs to no network its metadata declares"),
            "seats": (seats, "a network for a table of '9' seats, not 2 to 7"),
            "tables": (listed, "its metadata's tables are not a mapping")}


def test_a_model_vector_holds_its_draw_network_after_the_discards(tmp_path: Path) -> None:
    """The draw network starts where the discard network ends, or is an empty header."""
    plain = load_model(random_model(tmp_path / "plain.npz", hidden=3))
    drawing = load_model(random_model(tmp_path / "draw.npz", hidden=3, draw_hidden=4))
    assert not plain.plays_draws and drawing.plays_draws
    for model in (plain, drawing):
        vector = model.vector()
        assert table_net(vector, 4) == 1  # no tables: the header is K = 0 alone
        assert draw_net_at(vector, 1) == len(plain.vector()) - NET_ARRAYS
    vector = drawing.vector()
    x = np.linspace(-1, 1, N_DRAW_FEATURES)
    a = {name[len("draw_"):]: v for name, v in drawing.arrays.items() if name.startswith("draw_")}
    hidden = np.maximum((x - a["mean"]) / a["scale"] @ a["w1"] + a["b1"], 0.0)
    assert np.isclose(predict(x, vector, draw_net_at(vector, 1)), hidden @ a["w2"] + a["b2"][0])
    assert len(plain.vector()) - draw_net_at(plain.vector(), 1) == NET_ARRAYS


def test_a_table_s_own_networks_are_found_by_its_seats(tmp_path: Path) -> None:
    """A model with 2- and 6-player networks: each table's discard network at the start
    the header names, the main one at any other size, each followed by its draw network."""
    model = load_model(tabled_model(tmp_path, {2: 4, 6: 0}))
    vector = model.vector()
    for players in range(2, 8):
        arrays, _ = model.networks(players)
        x = np.linspace(-1, 1, len(arrays["mean"]))  # relative inputs at 2 and 6
        at = table_net(vector, players)
        hidden = np.maximum((x - arrays["mean"]) / arrays["scale"] @ arrays["w1"]
                            + arrays["b1"], 0.0)
        assert np.isclose(predict(x, vector, at), hidden @ arrays["w2"] + arrays["b2"][0])
        assert (vector[draw_net_at(vector, at) + 1] == 0) == ("draw_mean" not in arrays)
    assert model.tables == (2, 6) and model.metadata["players"] == [2, 4, 6]


def test_a_table_s_own_networks_compare_as_many_candidates_as_they_were_fitted_on(
        tmp_path: Path) -> None:
    """A model fitted on 5 candidates a position holding 2-player networks fitted on 3: the
    decisions compare 3 at 2 seats (their relative inputs are over 3) and 5 elsewhere."""
    main, two = 5, 3  # candidates a position each was fitted on
    model = with_table(load_model(random_model(tmp_path / "main.npz", candidates=main)),
                       load_model(random_model(tmp_path / "two.npz", inputs=RELATIVE,
                                               candidates=two, players=[2])), "two.npz")
    vector = model.vector()
    for players, candidates in ((2, two), (4, main)):
        assert model.candidates(players) == candidates
        assert vector[table_net(vector, players) + NET_CANDIDATES] == candidates


def test_subnormal_weights_are_played_as_zero(tmp_path: Path) -> None:
    """The fit leaves subnormal weights in the units it let die (the shipped model has
    hundreds), and x86 multiplies them some hundred times slower: the vector the decisions
    read holds zeros in their place, and every value it gives is the file's own."""
    tiny = np.finfo(np.float64).tiny
    arrays = random_arrays(4, 0)
    arrays["w1"][:, 1] = tiny / 8  # a dead unit's weights: subnormal
    arrays["w2"][1] = -tiny / 3
    path = tmp_path / "subnormal.npz"
    path.write_bytes(Model(arrays, new_metadata()).to_bytes())
    for model in (load_model(path), load_model(DEFAULT_MODEL)):
        subnormal = [a for a in model.arrays.values() if ((a != 0) & (abs(a) < tiny)).any()]
        assert subnormal  # the file keeps its bytes
        vector = model.vector()
        assert not ((vector != 0) & (abs(vector) < tiny)).any()
    vector = load_model(path).vector()
    x = np.linspace(-1, 1, N_FEATURES)
    hidden = np.maximum((x - arrays["mean"]) / arrays["scale"] @ arrays["w1"] + arrays["b1"],
                        0.0)
    assert predict(x, vector, table_net(vector, 4)) == pytest.approx(
        hidden @ arrays["w2"] + arrays["b2"][0], rel=1e-12)


def test_every_bad_model_file_is_one_line_naming_it(tmp_path: Path) -> None:
    for what, (path, words) in bad_files(tmp_path).items():
        code, output = compare(path)
        assert code == 2, (what, output)
        assert output.count("\n") == 1 and words in output and path.name in output, what
        with pytest.raises(StrategyError, match=re.escape(words)):
            parse_strategy(f"learned:model={path}")


def test_a_model_rewritten_in_place_is_the_model_played(tmp_path: Path) -> None:
    """Another model written over the file, of the same size and modification time (a
    coarse clock, a copy that keeps times): loaded anew, as the run records its digest."""
    path = random_model(tmp_path / "m.npz", seed=1)
    first = load_model(path)
    stat = path.stat()
    other = random_model(tmp_path / "other.npz", seed=2)
    path.write_bytes(other.read_bytes())
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size
    again = load_model(path)
    assert again.sha256 == file_sha256(other) != first.sha256
    assert np.array_equal(again.vector(), load_model(other).vector())


def test_the_shipped_model_is_small_and_documents_itself() -> None:
    assert DEFAULT_MODEL.stat().st_size <= 5 * 2**20
    model = load_model(DEFAULT_MODEL)
    assert model.metadata["feature_set"] == FEATURE_SET
    assert {"seed", "games", "data_sha256", "fit", "rules", "trained_by"} <= set(model.metadata)
    assert parse_strategy("learned").spec == "learned"
    assert model.tables == (2,) and model.metadata["players"] == [2, 4]  # 2 seats: its own
    assert "--players 2" in model.metadata["tables"]["2"]["trained_by"]


def test_a_model_of_other_rules_plays_with_one_warning_line(tmp_path: Path) -> None:
    model = random_model(tmp_path / "m.npz", rules={"players": 4, "rounds": 11})
    result = CliRunner().invoke(cli, ["compare", f"learned:model={model}", "greedy",
                                      "--deals", "1", "--players", "2", "--short",
                                      "--workers", "1"])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1
    assert "players 4 there, 2 here" in warnings[0] and "rounds 11 there, 6 here" in warnings[0]
    assert warnings[0].endswith("it plays on (its features carry the table size; a model "
                                "trained at this size played better at 2 players, no better "
                                "at 3 or 6)")


def test_a_model_played_inside_a_search_is_warned_of_as_if_listed(tmp_path: Path) -> None:
    """A search's anchor is a strategy of the run like any (its digest is recorded so):
    a model of other rules is said there too (it played silently)."""
    model = random_model(tmp_path / "m.npz", rules={"rounds": 6})
    inside = parse_strategy(f"search:anchor=learned:model={model},worlds=2")
    notes = table_notes(inside, RuleSet(players=2))
    assert len(notes) == 1 and "rounds 6 there, 11 here" in notes[0]
    assert notes == table_notes(parse_strategy(f"learned:model={model}"), RuleSet(players=2))


def test_resume_refuses_a_changed_model(tmp_path: Path) -> None:
    from fcsim import simulate

    model = random_model(tmp_path / "m.npz", seed=1)
    spec = f"learned:model={model}"
    simulate([spec, "greedy"], 4, tmp_path / "run", chunk_size=2, workers=1)
    random_model(model, seed=2)  # the file changes
    result = CliRunner().invoke(cli, ["simulate", "--strategies", f"{spec},greedy",
                                      "--games", "4", "--chunk-size", "2",
                                      "--out", str(tmp_path / "run"), "--resume"])
    assert result.exit_code == 2 and "changed" in result.output, result.output
    assert json.dumps(load_model(model).sha256[:12]).strip('"') in result.output


def test_resume_takes_the_same_model_read_from_another_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A model is its bytes: a run resumed where the same file lies at another path (a
    moved folder, another checkout of fcsim) completes, and every chunk keeps the record
    the run first wrote."""
    import shutil

    from fcsim import simulate
    from fcsim.runner.format import SOURCES, part_files, read_metadata

    first, second, run = tmp_path / "first", tmp_path / "second", tmp_path / "run"
    first.mkdir()
    second.mkdir()
    shutil.copy(random_model(first / "m.npz", seed=1), second / "m.npz")
    spec = "learned:model=m.npz"
    monkeypatch.chdir(first)
    simulate([spec, "greedy"], 4, run, chunk_size=2, workers=1)
    recorded = read_metadata(run)[SOURCES]
    assert str(first / "m.npz") in recorded[f"{spec} model"]
    part_files(run)[1].unlink()
    monkeypatch.chdir(second)
    plan = simulate([spec, "greedy"], 4, run, chunk_size=2, workers=1, resume=True)
    assert dict(plan.sources) == recorded
    assert [read_metadata(part)[SOURCES] for part in part_files(run).values()] == [recorded] * 2


def test_a_model_played_with_other_candidates_than_it_was_fitted_on_says_so(
        tmp_path: Path) -> None:
    """Its inputs are relative to the mean over the candidates it was fitted on: asked to
    compare another number, one warning line; by default it plays as fitted, silently."""
    from fcsim.core.rules import RuleSet
    from fcsim.strategies.learned import model_notes
    from fcsim.strategies.learned.model import RELATIVE

    model = str(random_model(tmp_path / "k3.npz", inputs=RELATIVE, candidates=3))
    assert model_notes(RuleSet(), model, candidates=5) == (
        f"model {model} was fitted on 3 candidates a position and plays 5 "
        "(without candidates= it plays as it was fitted)",)
    assert model_notes(RuleSet(), model) == ()
    assert model_notes(RuleSet(), model, candidates=3) == ()
    features = str(random_model(tmp_path / "outcome.npz", candidates=3))  # no relative inputs
    assert model_notes(RuleSet(), features, candidates=5) == ()
    for spec, warned in ((f"learned:model={model},candidates=5", True),
                         (f"learned:model={model}", False)):
        result = CliRunner().invoke(cli, ["compare", spec, "greedy", "--deals", "1",
                                          "--workers", "1"])
        assert result.exit_code == 0, result.output
        assert result.stderr.startswith(f"warning: model {model} was fitted on 3") == warned


@pytest.mark.parametrize("candidates", [0, 15, "5", 2.5, True])
def test_a_model_whose_candidates_are_no_count_is_refused(candidates: object,
                                                          tmp_path: Path) -> None:
    """The decisions read how many candidates to compare from the metadata."""
    path = random_model(tmp_path / "m.npz", candidates=candidates)
    with pytest.raises(StrategyError, match=re.escape(f"candidates {candidates!r}, not a "
                                                      "count from 1 to 14")):
        load_model(path)
