"""Every command's --help reads well: each option has a help text, no line is cut short
or broken inside a word, and no markup shows."""

from __future__ import annotations

import re

import click
import pytest
from click.testing import CliRunner

from fcsim.cli import cli

COMMANDS = sorted(cli.commands)
MARKUP = re.compile(r"``|`|\*\*|:class:|:func:|:mod:")


def help_of(*words: str) -> str:
    result = CliRunner().invoke(cli, [*words, "--help"], terminal_width=80)
    assert result.exit_code == 0, result.output
    return result.output


def test_every_command_is_listed_in_full():
    text = help_of()
    listed = text.split("Commands:")[1]
    assert "..." not in listed and "…" not in listed
    for name in COMMANDS:
        line = next(line for line in listed.splitlines() if line.split()[:1] == [name])
        assert line.rstrip().endswith("."), line


@pytest.mark.parametrize("name", COMMANDS)
def test_every_option_has_help(name):
    command = cli.commands[name]
    for param in command.params:
        if isinstance(param, click.Option):
            assert param.help, f"fcsim {name} {param.opts[0]} has no help text"
            assert param.help.rstrip().endswith((".", ")")), (name, param.opts, param.help)


@pytest.mark.parametrize("name", COMMANDS)
def test_help_reads_well(name):
    text = help_of(name)
    assert not MARKUP.search(text), MARKUP.search(text)
    assert "..." not in text.replace("PATH...", "").replace("[CARDS]...", "")
    for line in text.splitlines():
        assert not re.search(r"\w-$", line), f"a word broken at a hyphen: {line!r}"
    assert command_doc_is_sentences(cli.commands[name])


def command_doc_is_sentences(command: click.Command) -> bool:
    """The command's help starts with a capital and each paragraph ends with a stop."""
    paragraphs = [p.strip() for p in (command.help or "").split("\n\n") if p.strip()]
    return bool(paragraphs) and paragraphs[0][0].isupper() and all(
        p.endswith((".", ")")) or p.startswith("Example:") for p in paragraphs)
