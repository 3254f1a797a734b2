"""A griffe extension for the API reference (``mkdocs.yml``): fcsim's docstrings mark
names with Sphinx roles (``:class:`~fcsim.core.view.View```); the reference shows each
as code (``View``), with the leading ``~`` meaning the last part of the path only."""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, Object

_ROLE = re.compile(r":(?:py:)?(?:meth|class|func|attr|mod|data|exc|obj|const):`(~?)([^`]+)`")


def plain(text: str) -> str:
    """``text`` with every role written as inline code."""
    return _ROLE.sub(lambda m: f"`{m.group(2).rsplit('.', 1)[-1] if m.group(1) else m.group(2)}`",
                     text)


class SphinxRoles(Extension):
    """Rewrites the roles of every docstring griffe loads."""

    def on_object(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain(obj.docstring.value)
