"""The public API of ``import fcsim`` (``fcsim/__init__.py``)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator

import pytest

import fcsim


def _public_functions() -> Iterator[tuple[str, Callable]]:
    """Every function of ``fcsim.__all__``, and every public method (and ``__init__``) of
    its classes, by name."""
    for name in fcsim.__all__:
        value = getattr(fcsim, name)
        if inspect.isfunction(value):
            yield name, value
        elif inspect.isclass(value):
            yield from ((f"{name}.{attr}", _function_of(member))
                        for attr, member in vars(value).items()
                        if _function_of(member) is not None
                        and (not attr.startswith("_") or attr == "__init__"))


def _function_of(member: object) -> Callable | None:
    """The function behind a class member: a method, or a property's getter."""
    getter = member.fget if isinstance(member, property) else member
    return getter if inspect.isfunction(getter) else None


def test_dir_lists_the_public_names_that_load_on_first_use() -> None:
    assert {"Game", "simulate", "advise", "min_penalty"} <= set(dir(fcsim))


@pytest.mark.parametrize(("name", "function"), list(_public_functions()))
def test_every_public_function_is_typed(name: str, function: Callable) -> None:
    """The API reference shows each parameter's type: none is left out."""
    signature = inspect.signature(function)
    untyped = [p.name for p in signature.parameters.values()
               if p.name not in ("self", "cls") and p.annotation is inspect.Parameter.empty]
    if signature.return_annotation is inspect.Signature.empty and name.split(".")[-1] != "__init__":
        untyped.append("return")
    assert untyped == []


@pytest.mark.parametrize(("name", "function"), list(_public_functions()))
def test_every_public_function_says_what_it_does(name: str, function: Callable) -> None:
    """The API reference shows each one's docstring (``__init__``'s is its class's): none
    is blank."""
    if not name.endswith(".__init__"):
        assert (function.__doc__ or "").strip()
