"""The openspiel: strategies in fcsim's commands, like any Python agent."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

from click.testing import CliRunner

from fcsim.cli import cli


def test_compare_plays_openspiels_bot_on_duplicate_deals(tmp_path) -> None:
    result = CliRunner().invoke(cli, [
        "compare", "openspiel:ismcts:simulations=3", "openspiel:random", "--deals", "1",
        "--players", "2", "--short", "--workers", "1", "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert "openspiel:ismcts:simulations=3 vs openspiel:random: 1 deal x 2 seat " \
           "rotations" in result.output


def test_an_unknown_openspiel_bot_is_one_line() -> None:
    result = CliRunner().invoke(cli, ["compare", "openspiel:nope", "greedy", "--deals", "1"])
    assert result.exit_code == 2
    assert "unknown strategy openspiel:'nope'" in result.output
