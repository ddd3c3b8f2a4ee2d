"""Name -> component registries with "did you mean" errors and entry-point plugins.

A component registers itself with a decorator::

    @scorers.register("ngram-svm")
    class NgramSVM(Scorer): ...

Built-in components live in a package that is imported the first time a registry is asked for a
name, so ``import bluffcheck`` stays light. Third-party packages add components through the entry
point group ``bluffcheck.<kind>s`` (e.g. ``bluffcheck.scorers``), loaded the same way.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from collections.abc import Callable, Iterable, Iterator
from importlib.metadata import entry_points
from typing import Any, Generic, TypeVar

from .errors import UnknownComponentError

__all__ = ["Registry", "datasets", "generators", "import_submodules", "scorers"]

T = TypeVar("T")


class Registry(Generic[T]):
    """A mapping from short, user-typed names to components of one kind.

    Parameters
    ----------
    kind : str
        Singular noun used in messages (``"scorer"``).
    builtin : str
        Dotted name of the package whose import registers the built-in components.
    """

    def __init__(self, kind: str, builtin: str) -> None:
        self.kind = kind
        self._builtin = builtin
        self._items: dict[str, T] = {}
        self._loaded = False

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator that registers a component under ``name``."""

        def deco(obj: T) -> T:
            existing = self._items.get(name)
            if existing is not None and existing is not obj:
                raise ValueError(f"A {self.kind} named {name!r} is already registered ({existing!r}).")
            self._items[name] = obj
            try:
                obj.registry_name = name  # type: ignore[attr-defined]
            except (AttributeError, TypeError):
                pass
            return obj

        return deco

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        importlib.import_module(self._builtin)
        for ep in entry_points(group=f"bluffcheck.{self.kind}s"):
            if ep.name not in self._items:
                self._items[ep.name] = ep.load()

    def get(self, name: str) -> T:
        """The component registered as ``name``; the error suggests close names."""
        self._load()
        try:
            return self._items[name]
        except KeyError:
            raise UnknownComponentError(self._unknown_message(name)) from None

    def _unknown_message(self, name: str) -> str:
        close = difflib.get_close_matches(name, list(self._items), n=3, cutoff=0.5)
        hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        return (
            f"Unknown {self.kind} {name!r}.{hint} Known {self.kind}s: {', '.join(self.names())}. "
            f"Run `bluffcheck list {self.kind}s`."
        )

    def create(self, name: str, **params: Any) -> Any:
        """Instantiate the component ``name`` with keyword parameters."""
        factory: Any = self.get(name)
        return factory(**params)

    def names(self) -> list[str]:
        """All registered names, sorted."""
        self._load()
        return sorted(self._items)

    def __contains__(self, name: object) -> bool:
        self._load()
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())


def import_submodules(package: str, path: Iterable[str]) -> None:
    """Import every public module of a component package, so each registers its components.

    Called from the ``__init__`` of ``bluffcheck.scorers``, ``.generators`` and ``.datasets``:
    adding a component is adding one module, with no name table to edit.
    """
    for info in sorted(pkgutil.iter_modules(list(path)), key=lambda m: m.name):
        if not info.name.startswith("_") and info.name != "base":
            importlib.import_module(f"{package}.{info.name}")


scorers: Registry[Any] = Registry("scorer", "bluffcheck.scorers")
datasets: Registry[Any] = Registry("dataset", "bluffcheck.datasets")
generators: Registry[Any] = Registry("generator", "bluffcheck.generators")
