"""The package's source files, read as text: where a rule or a message is written."""

from __future__ import annotations

from pathlib import Path

import fcsim

PACKAGE = Path(fcsim.__file__).parent


def modules_saying(text: str) -> list[str]:
    """The modules of fcsim whose source holds ``text``, as paths from the package's parent:
    one place for each rule and each message."""
    return sorted(path.relative_to(PACKAGE.parent).as_posix()
                  for path in PACKAGE.rglob("*.py") if text in path.read_text())
