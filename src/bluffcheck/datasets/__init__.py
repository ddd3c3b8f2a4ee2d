"""Built-in datasets: every public module in this package registers its components on import.

Importing this package (which the registry does on first lookup) imports each module; adding a
component is one new file. :func:`load`, :func:`describe` and :func:`available` are the entry points.
"""

from __future__ import annotations

from .._registry import datasets as _registry
from .._registry import import_submodules
from ._api import available, describe, load

__all__ = ["available", "create", "describe", "get", "load", "names"]

import_submodules(__name__, __path__)

names = _registry.names
get = _registry.get
create = _registry.create
