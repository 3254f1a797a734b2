"""The console examples of the README and of the guides in docs/ print what the commands
print (those that are quick and need no files: ``fcsim solve`` and ``fcsim advise``; and
``fcsim info`` of a file the repository holds, the shipped model)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from fcsim.cli import cli

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
CHECKED = ("solve", "advise")
SHIPPED = "info"  # checked where it reads a file of the repository, from its root


def console_examples(text: str) -> list[tuple[str, str]]:
    """Every ``$ fcsim …`` line of a page's console blocks and the lines it shows."""
    examples = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.DOTALL):
        for chunk in re.split(r"^(?=\$ )", block, flags=re.MULTILINE):
            if chunk.startswith("$ fcsim "):
                command, _, shown = chunk.partition("\n")
                examples.append((command[2:], shown))
    return examples


def checked(command: str) -> bool:
    """Whether an example's command is quick and reads no file but the repository's."""
    words = shlex.split(command)
    return words[1] in CHECKED or (words[1] == SHIPPED and (ROOT / words[-1]).is_file())


EXAMPLES = [(page.name, command, shown) for page in PAGES
            for command, shown in console_examples(page.read_text()) if checked(command)]


def test_the_checked_examples_are_found() -> None:
    in_readme = {shlex.split(command)[1] for page, command, _ in EXAMPLES
                 if page == README.name}
    assert in_readme == set(CHECKED)


@pytest.mark.parametrize(("page", "command", "shown"), EXAMPLES,
                         ids=[f"{page}: {command}" for page, command, _ in EXAMPLES])
def test_the_page_shows_what_the_command_prints(page: str, command: str, shown: str,
                                               monkeypatch) -> None:
    monkeypatch.chdir(ROOT)  # where the pages' paths start
    result = CliRunner().invoke(cli, shlex.split(command)[1:])
    assert result.exit_code == 0, result.output
    assert result.output == shown
