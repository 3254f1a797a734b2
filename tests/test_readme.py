"""The README's console examples print what the commands print (those that are quick and
need no files: ``fcsim solve`` and ``fcsim advise``)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from fcsim.cli import cli

README = Path(__file__).resolve().parent.parent / "README.md"
CHECKED = ("solve", "advise")


def console_examples(text: str) -> list[tuple[str, str]]:
    """Every ``$ fcsim …`` line of the README's console blocks and the lines it shows."""
    examples = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.DOTALL):
        for chunk in re.split(r"^(?=\$ )", block, flags=re.MULTILINE):
            if chunk.startswith("$ fcsim "):
                command, _, shown = chunk.partition("\n")
                examples.append((command[2:], shown))
    return examples


EXAMPLES = [(command, shown) for command, shown in console_examples(README.read_text())
            if shlex.split(command)[1] in CHECKED]


def test_the_checked_examples_are_found() -> None:
    assert {shlex.split(command)[1] for command, _ in EXAMPLES} == set(CHECKED)


@pytest.mark.parametrize(("command", "shown"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_the_readme_shows_what_the_command_prints(command: str, shown: str) -> None:
    result = CliRunner().invoke(cli, shlex.split(command)[1:])
    assert result.exit_code == 0, result.output
    assert result.output == shown
