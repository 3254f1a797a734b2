"""The rule flags: declared once (on RuleSet's fields), the same on every command that
takes rules, and a RuleSet written as flags reads back as itself."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

import fcsim
from fcsim.cli import COMMAND_MODULES, cli
from fcsim.cli.options import Bounded, rule_options, rule_words
from fcsim.cli.simulate import command_line
from fcsim.core.rules import FACE, RuleSet, rule_flags
from fcsim.core.seeds import MAX_SEED
from fcsim.runner import make_plan
from tests.sources import modules_saying

PACKAGE = Path(fcsim.__file__).parent
FLAGS = [flag.name for _, flag in rule_flags()]
HAND_FLAGS = [flag.name for _, flag in rule_flags() if flag.hand]
# the commands that play or judge games under the rules (solve takes the hand rules only)
RULED = ["advise", "compare", "play", "replay", "simulate", "sweep", "tournament", "train",
         "tune"]


@click.command()
@rule_options
def echo_rules(rules: RuleSet) -> None:
    click.echo(json.dumps(rules.to_dict()))


def read_back(words: list[str]) -> RuleSet:
    result = CliRunner().invoke(echo_rules, words)
    assert result.exit_code == 0, result.output
    return RuleSet.from_dict(json.loads(result.output))


def test_every_rule_but_the_table_size_has_a_flag() -> None:
    assert FLAGS == ["--short", "--wild-penalty", "--go-out-bonus", "--no-all-wild-melds",
                     "--turn-cap"]
    assert HAND_FLAGS == ["--wild-penalty", "--no-all-wild-melds"]


@pytest.mark.parametrize("flag", FLAGS)
def test_each_rule_flag_is_declared_in_one_place(flag: str) -> None:
    """Only fcsim/core/rules.py names it; every command builds it from there."""
    naming = [str(path.relative_to(PACKAGE)) for path in sorted(PACKAGE.rglob("*.py"))
              if flag in path.read_text(encoding="utf-8")]
    assert naming == ["core/rules.py"]


@pytest.mark.parametrize("name", [*RULED, "solve"])
def test_the_commands_take_the_rule_flags(name: str) -> None:
    options = {opt for param in cli.commands[name].params for opt in param.opts}
    taken = [flag for flag in FLAGS if flag in options]
    assert taken == (HAND_FLAGS if name == "solve" else FLAGS)


@pytest.mark.parametrize("rules", [
    RuleSet(),
    RuleSet(rounds=6),
    RuleSet(wild_penalty=FACE, all_wild_melds=False),
    RuleSet(rounds=6, wild_penalty=1000, go_out_bonus=-10, all_wild_melds=False, turn_cap=10),
])
def test_a_rule_set_reads_back_from_its_flags(rules: RuleSet) -> None:
    assert read_back(rule_words(rules)) == rules


@given(rounds=st.sampled_from([11, 6]),
       wild_penalty=st.one_of(st.just(FACE), st.integers(1, 1000)),
       go_out_bonus=st.integers(-1000, 0), all_wild_melds=st.booleans(),
       turn_cap=st.integers(10, 1_000_000))
def test_any_rule_set_reads_back_from_its_flags(**values) -> None:
    rules = RuleSet(**values)
    assert read_back(rule_words(rules)) == rules


def test_the_command_line_of_a_run_plays_it_again() -> None:
    """``fcsim info`` shows it: the simulate command whose flags give the run's rules."""
    rules = RuleSet(players=3, rounds=6, wild_penalty=FACE, go_out_bonus=-10, turn_cap=300)
    plan = make_plan(["greedy", "random", "random"], rules, 7, 30)
    words = shlex.split(command_line(plan, Path("out")))
    simulate = cli.commands["simulate"]
    ctx = simulate.make_context("simulate", words[2:])
    taken = {rule.name: ctx.params[rule.name] for rule, _ in rule_flags()}
    assert RuleSet(players=3, **taken) == rules


@pytest.mark.parametrize("flags", [
    {"seat_rotation": False},
    {"duplicate": True},
    {"decisions": True},
])
def test_the_command_line_of_a_run_keeps_its_format_flags(flags: dict[str, bool]) -> None:
    """--no-seat-rotation, --duplicate and --decisions are part of the run: a command line
    without one (``fcsim info``'s "play it again") would play another run."""
    plan = make_plan(["greedy", "random"], RuleSet(players=2), 7, 30, **flags)
    words = shlex.split(command_line(plan, Path("out")))
    params = cli.commands["simulate"].make_context("simulate", words[2:]).params
    assert {name: params[name] for name in flags} == flags

@pytest.mark.parametrize(("words", "line"), [
    (["--wild-penalty", "lots"], "Error: --wild-penalty must be 'face' or a whole number, "
                                 "not 'lots'"),
    (["--turn-cap", "1e3"], "Error: --turn-cap must be a whole number, not '1e3'"),
    (["--go-out-bonus", "5"], "Error: --go-out-bonus must be a whole number from -1000 to 0, "
                              "not 5"),
])
def test_a_bad_rule_is_one_line(words: list[str], line: str) -> None:
    result = CliRunner().invoke(cli, ["solve", "--round", "1", "3H", "4H", "5H", *words]
                                if words[0] in HAND_FLAGS else
                                ["replay", "--seed", "1", "--strategies", "greedy,greedy",
                                 *words])
    assert (result.exit_code, result.output) == (2, line + "\n")


@pytest.mark.parametrize("command", [["replay"], ["simulate", "--games", "1", "--out", "run"]])
def test_too_many_strategies_say_how_many_a_table_seats(command: list[str],
                                                       tmp_path: Path) -> None:
    """Eight strategies and no --players: the line speaks of what the user typed."""
    with CliRunner().isolated_filesystem(temp_dir=tmp_path):
        result = CliRunner().invoke(cli, [*command, "--seed", "1", "--strategies",
                                          ",".join(["greedy"] * 8)])
    assert (result.exit_code, result.output) == (
        2, "Error: 8 strategies listed: a table seats 2 to 7 players, one strategy each\n")


def test_the_dask_flags_are_declared_in_one_place() -> None:
    """simulate, train, sweep and tune take --scheduler and --dask-local from one
    declaration, and say Dask is missing in one line written once."""
    assert modules_saying("on this Dask scheduler") == ["fcsim/cli/options.py"]
    assert modules_saying("Dask is not installed") == ["fcsim/cli/options.py"]


def test_allow_code_change_without_resume_is_warned_of_in_one_place() -> None:
    """simulate and train warn of --allow-code-change without --resume with one function."""
    assert modules_saying("no run is resumed") == ["fcsim/cli/options.py"]


@pytest.mark.parametrize("name", sorted(COMMAND_MODULES))
def test_every_seed_is_checked_alike(name: str) -> None:
    """A --seed out of range is the same one line on every command that takes one."""
    command = cli.get_command(click.Context(cli), name)
    seeds = [p for p in command.params if p.name == "seed"]
    for seed in seeds:
        assert isinstance(seed.type, Bounded) and (seed.type.low, seed.type.high) == (
            0, MAX_SEED)
