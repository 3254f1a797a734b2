"""``fcsim info`` on a model file (on run and training folders: beside the commands that
write them, tests/cli/test_simulate.py and tests/learn/test_training.py)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from fcsim.cli import cli
from fcsim.strategies.learned.model import DEFAULT_MODEL, load_model
from tests.learn.models import random_model


def _info(path: Path) -> tuple[int, list[tuple[str, str]], str]:
    """The exit code, the (key, value) lines and the error output of ``fcsim info PATH``."""
    result = CliRunner().invoke(cli, ["info", str(path)])
    lines = [(line[:11].strip(), line[11:]) for line in result.stdout.splitlines()]
    return result.exit_code, lines, result.stderr


def test_the_shipped_model_shows_each_table_s_networks_and_their_provenance() -> None:
    """Its main networks and the 2-player ones, each with the command that made them."""
    model = load_model(DEFAULT_MODEL)
    code, lines, _ = _info(DEFAULT_MODEL)
    assert code == 0
    said = dict(lines)
    assert said["model"].endswith("KB); learned plays it by default")
    assert said["tables"] == "networks of their own at 2 players, the main ones at every other size"
    sections = [value for key, value in lines if key == "networks"]
    commands = [value for key, value in lines if key == "command"]
    assert sections == ["main", "at 2 players"]
    assert commands == [model.metadata["trained_by"], model.metadata["tables"]["2"]["trained_by"]]
    trained = [value for key, value in lines if key == "trained"]
    assert [t.split(" (")[0] for t in trained] == [
        "20,000 self-play games of aware, expected, aware, expected at 4 players",
        "20,000 self-play games of aware, expected at 2 players"]
    draws = [value for key, value in lines if key == "draws"]
    assert all(d.startswith("25 inputs, 64 hidden units; held-out error ") for d in draws)


def test_a_model_without_provenance_says_what_is_not_recorded(tmp_path: Path) -> None:
    """A model file made by hand (only the format and the feature sets) still shows its
    networks."""
    path = random_model(tmp_path / "bare.npz", hidden=3, draw_hidden=2)
    code, lines, _ = _info(path)
    assert code == 0
    said = dict(lines)
    assert said["trained"] == said["rules"] == said["data"] == said["command"] == "not recorded"
    assert said["discards"].endswith("3 hidden units; fit not recorded")
    assert said["draws"].endswith("2 hidden units; fit not recorded")
    assert "learned plays it by default" not in said["model"]


def test_provenance_of_another_shape_is_not_recorded_either(tmp_path: Path) -> None:
    """Metadata a hand-made file holds in other shapes than fcsim train writes (the model
    plays all the same): shown as not recorded, where info raised a traceback."""
    path = random_model(tmp_path / "odd.npz", hidden=3, fit={"epochs": 3}, games="many",
                        data_sha256=7)
    code, lines, error = _info(path)
    assert code == 0, error
    said = dict(lines)
    assert said["trained"] == said["data"] == "not recorded"
    assert said["discards"].endswith("3 hidden units; fit not recorded")


def test_a_file_that_is_not_a_model_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "notes.npz"
    path.write_text("not a model")
    code, lines, error = _info(path)
    assert (code, lines) == (2, [])
    assert error == f"Error: model {path}: not a model file (not an .npz archive)\n"

