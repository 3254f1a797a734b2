"""Every error fcsim raises on purpose is an :class:`fcsim.FcsimError`."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import click
import pytest

import fcsim
from fcsim.errors import FcsimError


def fcsim_modules() -> list[str]:
    """Every module of the package (``__main__`` would run the command line)."""
    return sorted(m.name for m in pkgutil.walk_packages(fcsim.__path__, "fcsim.")
                  if not m.name.endswith("__main__"))


def exception_classes() -> dict[str, type]:
    """The exception classes fcsim's modules define, by qualified name."""
    found = {}
    for name in fcsim_modules():
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as err:
            if (err.name or "").split(".")[0] == "fcsim":
                raise
            continue  # an optional dependency that is not installed
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == name and issubclass(cls, BaseException):
                found[f"{name}.{cls.__qualname__}"] = cls
    return found


def test_every_exception_class_is_an_fcsim_error() -> None:
    classes = exception_classes()
    assert "fcsim.core.cards.CardError" in classes and "fcsim.cli.InputError" in classes
    # a warning is issued, never raised: it keeps Python's warning categories
    wrong = [name for name, cls in classes.items()
             if not issubclass(cls, FcsimError | Warning)]
    assert not wrong, wrong


@pytest.mark.parametrize(("name", "base"), [("CardError", ValueError),
                                            ("RulesError", ValueError),
                                            ("IllegalMoveError", ValueError)])
def test_the_errors_keep_their_builtin_base(name: str, base: type) -> None:
    """Code that caught a ValueError still does."""
    error = getattr(fcsim, name)
    assert issubclass(error, fcsim.FcsimError) and issubclass(error, base)


def test_a_fault_is_no_fault_of_the_input() -> None:
    """What the command line shows with exit code 1: a lost worker, a run's file that
    cannot be written, a folder another fcsim is writing; bad input stays exit code 2."""
    from fcsim.cli import FAULT, one_line
    from fcsim.errors import Fault, WorkerLost
    from fcsim.runner.format import RunFolderError, WriteError
    from fcsim.runner.lock import FolderBusyError

    assert all(issubclass(error, Fault) for error in (WorkerLost, WriteError, FolderBusyError))
    assert issubclass(WriteError, RunFolderError) and issubclass(FolderBusyError, RunFolderError)
    assert not issubclass(RunFolderError, Fault)
    for error, code in ((WriteError("cannot write x"), FAULT),
                        (FolderBusyError(Path("x"), "pid 1"), FAULT),
                        (RunFolderError("not a run"), 2)):
        with pytest.raises(click.ClickException) as caught, one_line():
            raise error
        assert (caught.value.exit_code, caught.value.message) == (code, str(error))
