"""The console-script entry point."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import fcsim
from fcsim import cli
from tests.waiting import PATIENCE_S, POLL_S, default_sigint

ROOT = Path(fcsim.__file__).resolve().parent.parent
SOLVE = ["solve", "--round", "3", "9H", "JS", "7D", "5H", "6H"]

# Runs the command line as the console script does, Ctrl-C arriving (the process sends
# itself SIGINT) at the first import of module TARGET.
INTERRUPTED_AT_IMPORT = """
    import builtins, os, signal, sys

    real = builtins.__import__

    def interrupting(name, *args, **kwargs):
        if name == {target!r}:
            builtins.__import__ = real
            os.kill(os.getpid(), signal.SIGINT)
        return real(name, *args, **kwargs)

    builtins.__import__ = interrupting
    sys.argv = ["fcsim", *{args!r}]
    from fcsim.cli import main
    main()
"""


def test_the_entry_point_freezes_the_collector_before_exiting(monkeypatch) -> None:
    """Collecting numba's and LLVM's objects at exit took 1.2 s of a first run: they are
    frozen out of the collector first, whichever way the command ends."""
    frozen = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(True))
    monkeypatch.setattr(cli, "watch_stops", lambda: None)  # the test process's signals stay
    monkeypatch.setattr(sys, "argv", ["fcsim", "--version"])
    with pytest.raises(SystemExit):
        cli.main()
    assert frozen == [True]


def _assert_interrupted(proc: subprocess.Popen) -> None:
    out, err = proc.communicate(timeout=PATIENCE_S)
    assert proc.returncode == 130, err
    assert err == "Interrupted.\n" and out == ""


@pytest.mark.parametrize(("args", "target"), [
    (SOLVE, "numba"),  # importing the command's modules
    (["simulate", "--help"], "numba"),  # a command's help imports its module
    (["info", "nowhere"], "fcsim.runner.store"),
    (["report", ".", "--out", "nowhere/report"], "polars"),  # once the paths are checked
])
def test_ctrl_c_during_an_import_exits_130_with_one_line(args: list[str], target: str) -> None:
    code = textwrap.dedent(INTERRUPTED_AT_IMPORT).format(target=target, args=args)
    _assert_interrupted(subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, text=True, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, preexec_fn=default_sigint))


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux's /proc")
def test_ctrl_c_while_numba_loads_exits_130_with_one_line() -> None:
    """A real Ctrl-C from outside, sent once numba's first library is loaded: start-up."""
    proc = subprocess.Popen([sys.executable, "-m", "fcsim", *SOLVE], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=default_sigint)
    maps = Path(f"/proc/{proc.pid}/maps")
    deadline = time.monotonic() + PATIENCE_S
    while "numba" not in maps.read_text():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(POLL_S / 10)
    os.kill(proc.pid, signal.SIGINT)
    _assert_interrupted(proc)


@pytest.mark.parametrize(("args", "fragment"), [
    (["solve", "--round", "3", "9H", "ZZ", "7D"], "ZZ"),
    (["play", "--strategies", "gredy"], "unknown strategy 'gredy'"),
    (["replay", "--seed", "1", "--strategies", "gredy"], "unknown strategy 'gredy'"),
    (["compare", "greedy", "gredy"], "unknown strategy 'gredy'"),
    (["new-strategy", "no good"], "no good"),
    (["simulate", "--strategies", "greedy", "--games", "1", "--out", "x", "--turn-cap", "5"],
     "--turn-cap must be 10 to 1,000,000 turns, not 5"),
    (["compare", "greedy,random", "aware"], "compare takes one strategy for A and one for B, "
                                            "not 'greedy,random' for A"),
    (["compare", "greedy", "random", "--players", "1"], "--players must be 2 to 7, not 1"),
    # flags click itself refuses: its usage lines are left out
    (["simulate", "--games", "3"], "Missing option '--strategies'"),
    (["no-such-command"], "No such command 'no-such-command'"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], fragment: str) -> None:
    result = CliRunner().invoke(cli.cli, args)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1
    assert fragment in result.output


def test_any_fcsim_error_is_one_line_and_exit_2(monkeypatch) -> None:
    """Held in one place, for every command: a command need not catch fcsim's errors."""
    from fcsim.cli import info

    class NewError(fcsim.FcsimError):
        """An error no command knows of."""

    def fails(*args, **kwargs):
        raise NewError("what went wrong")

    monkeypatch.setattr(info.info_command, "callback", fails)
    result = CliRunner().invoke(cli.cli, ["info", "."])
    assert (result.exit_code, result.output) == (2, "Error: what went wrong\n")


def test_a_file_the_system_refuses_is_one_line_and_exit_1(monkeypatch) -> None:
    """Held in one place too: a folder no command expected to be unwritable, a full disk."""
    import errno
    import os

    from fcsim.cli import info

    def refused(*args, **kwargs):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), "/somewhere/file")

    monkeypatch.setattr(info.info_command, "callback", refused)
    result = CliRunner().invoke(cli.cli, ["info", "."])
    assert (result.exit_code, result.output) == (
        cli.FAULT, "Error: /somewhere/file: Permission denied\n")


@pytest.mark.parametrize("command", [
    ["simulate", "--strategies", "greedy", "--games", "2"],
    ["compare", "greedy", "random", "--deals", "2"],
    ["train", "--games", "100"],
    ["sweep", "greedy", "--against", "random", "--grid", "take_margin=0,1", "--deals", "2"],
    ["tune", "greedy", "--against", "random", "--param", "take_margin=0:3", "--trials", "2",
     "--deals", "2"],
])
def test_an_out_folder_that_cannot_be_made_is_a_fault_in_every_command(
        command: list[str], tmp_path) -> None:
    """The same line and exit code 1 (a :class:`fcsim.errors.Fault`) whichever command
    writes the run folder, naming the folder it was given (a training, which locks its
    folder first, named its games folder inside)."""
    (tmp_path / "file").write_text("")
    out = tmp_path / "file" / "run"
    result = CliRunner().invoke(cli.cli, [*command, "--workers", "1", "--out", str(out)])
    assert result.exit_code == cli.FAULT, result.output
    assert result.output.strip().splitlines()[-1] == (
        f"Error: cannot write to {out}: Not a directory")


def test_a_fault_importing_a_command_is_not_an_unknown_command(monkeypatch) -> None:
    """A KeyError raised while a command's module imports surfaces as that fault; click's
    lookup would otherwise report the command itself as unknown."""
    def failing(module: str):
        raise KeyError("aware has no parameter 'depth'")

    commands = cli.LazyCommands({"compare": "fcsim.cli.compare:compare_command"})
    monkeypatch.setattr(cli.importlib, "import_module", failing)
    with pytest.raises(ImportError, match=r"importing the compare command .*'depth'"):
        commands.get("compare")
    assert commands.get("no-such-command") is None


HELP_IMPORTS = """
    import sys
    from fcsim.cli import main
    sys.argv = ["fcsim", "--help"]
    try:
        main()
    except SystemExit:
        pass
    print(sorted(m for m in sys.modules if m.startswith(("numba", "polars", "fcsim.cli."))))
"""


def test_the_group_s_help_imports_no_command() -> None:
    """``fcsim --help`` took about a second importing every command (numba among them)."""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(HELP_IMPORTS)], text=True,
                          capture_output=True, check=True)
    assert "Commands:" in proc.stdout and proc.stdout.splitlines()[-1] == "[]"


def test_the_group_s_help_lists_what_click_would() -> None:
    """Each command's line, read from its source, is the imported command's own."""
    ctx = cli.cli.make_context("fcsim", [], resilient_parsing=True)
    formatter = ctx.make_formatter()
    cli.cli.format_commands(ctx, formatter)
    fresh = cli.LazyCommands(cli.COMMAND_MODULES)
    assert all(fresh.short_help(name) is not None for name in cli.COMMAND_MODULES)
    clicks = ctx.make_formatter()
    cli.click.Group.format_commands(cli.cli, ctx, clicks)
    assert formatter.getvalue() == clicks.getvalue() and "train" in clicks.getvalue()


def test_a_command_whose_line_is_not_declared_plainly_is_imported_for_it() -> None:
    """A computed ``short_help`` (or none) is asked of the command itself."""
    function = cli.ast.parse(textwrap.dedent("""
        @click.command("x", short_help=LINE)
        def x_command(): ...
        @click.command("y", hidden=True, short_help="y")
        def y_command(): ...
        @click.command("z", short_help="  Do z.  ")
        def z_command(): ...
    """)).body
    assert [cli._declared_short_help(f) for f in function] == [None, None, "Do z."]
