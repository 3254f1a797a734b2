"""What a strategy defined outside fcsim may be, and how it becomes a :class:`Family`.

A module attribute (``module:attribute``), a plug-in's entry point or a loose file
(``path/to/file.py:attribute``) names one object, which plays as:

* a :class:`Family` — numba (``draw`` / ``discard``) or Python (``agent`` factory), with
  its declared parameters; it takes the name it was found by;
* an **agent** — a callable taking one argument, the view (``def agent(view)``, or an
  object with such a ``__call__``): a strategy without parameters;
* an **agent factory** — a callable whose parameters all have numeric defaults (``def
  make(take_margin=2)``, or a class whose ``__init__`` is so): its parameters are the
  strategy's ``name:key=value`` parameters, and each game's agent is ``factory(**params)``.
"""

from __future__ import annotations

import inspect
import traceback
from dataclasses import replace
from pathlib import Path

from fcsim.strategies.family import Family, Param, StrategyError

_NAMED_ARGUMENTS = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                    inspect.Parameter.KEYWORD_ONLY)
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def family_from(target: object, name: str, source: str) -> Family:
    """``target`` (a Family, an agent or an agent factory) as the family ``name`` from
    ``source`` (unregistered); a :class:`StrategyError` says what ``target`` should be."""
    if isinstance(target, Family):
        return replace(target, name=name, source=source)
    arguments = _named_arguments(target)
    if arguments is None:
        raise StrategyError(f"strategy {name!r}: {_kind(target)} is not a strategy (a "
                            f"Family, an agent taking the view, or an agent factory)")
    description = _first_line(target)
    if is_agent(target):
        return Family(name, description or "a Python agent", agent=lambda: target,
                      source=source)
    required = _required(arguments)
    if required:
        raise StrategyError(f"strategy {name!r}: {_kind(target)} takes "
                            f"{', '.join(a.name for a in required)} without defaults; an "
                            f"agent takes one argument (the view), an agent factory only "
                            f"parameters with numeric defaults")
    return Family(name, description or "a Python agent factory", agent=target,
                  params=tuple(_param(name, a) for a in arguments), source=source)


def is_agent(target: object) -> bool:
    """Whether ``target`` is an agent: a callable with one argument to give, the view."""
    required = _required(_named_arguments(target) or [])
    return len(required) == 1 and required[0].kind in _POSITIONAL


def _required(arguments: list[inspect.Parameter]) -> list[inspect.Parameter]:
    return [a for a in arguments if a.default is inspect.Parameter.empty]


def _named_arguments(target: object) -> list[inspect.Parameter] | None:
    """The arguments ``target`` takes by name; None if it is not callable (or opaque)."""
    if not callable(target):
        return None
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):  # some builtins have none
        return None
    return [p for p in signature.parameters.values() if p.kind in _NAMED_ARGUMENTS]


def _param(strategy: str, argument: inspect.Parameter) -> Param:
    """A factory's argument as a parameter: an int (or bool) default makes it whole."""
    default = argument.default
    if not isinstance(default, int | float):
        raise StrategyError(f"strategy {strategy!r}: parameter {argument.name!r} defaults to "
                            f"{default!r}; strategy parameters are numbers")
    return Param(argument.name, float(default), "", integer=isinstance(default, int))


def _kind(target: object) -> str:
    return getattr(target, "__qualname__", None) or type(target).__name__


def _first_line(target: object) -> str:
    return (inspect.getdoc(target) or "").partition("\n")[0].strip()


_FCSIM = Path(__file__).resolve().parents[1]  # fcsim's own code: never where a load failed


def load_error(err: BaseException) -> str:
    """One line for an exception raised while importing strategy code: its type, its
    first line, and the innermost place in the code that raised it."""
    lines = str(err).strip().splitlines()
    text = f"{type(err).__name__}: {lines[0]}" if lines else type(err).__name__
    if isinstance(err, SyntaxError) and err.filename:
        return f"{type(err).__name__}: {err.msg} ({err.filename}, line {err.lineno})"
    frames = [f for f in traceback.extract_tb(err.__traceback__)
              if "importlib" not in f.filename and not f.filename.startswith("<")
              and not Path(f.filename).resolve().is_relative_to(_FCSIM)]  # the code's, not ours
    if frames:
        text += f" ({frames[-1].filename}, line {frames[-1].lineno})"
    return text
