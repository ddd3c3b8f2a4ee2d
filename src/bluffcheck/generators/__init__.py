"""Built-in generators: every public module in this package registers its components on import.

Importing this package (which the registry does on first lookup) imports each module; adding a
component is one new file.
"""

from __future__ import annotations

import importlib
import pkgutil

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if not _info.name.startswith("_") and _info.name not in ("base",):
        importlib.import_module(f"{__name__}.{_info.name}")


def names() -> list[str]:
    """Registered generator names (built-in and plugins)."""
    from .._registry import generators as registry

    return registry.names()


def get(name: str):  # noqa: ANN201 - the registered class or function
    """The generator registered as ``name``; unknown names raise with "did you mean" suggestions."""
    from .._registry import generators as registry

    return registry.get(name)


def create(name: str, **params):  # noqa: ANN201 - a new component
    """A new generator ``name`` built with keyword parameters."""
    from .._registry import generators as registry

    return registry.create(name, **params)
