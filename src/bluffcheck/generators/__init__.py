"""Built-in generators: every public module in this package registers its components on import.

Importing this package (which the registry does on first lookup) imports each module; adding a
component is one new file.
"""

from __future__ import annotations

from .._registry import generators as _registry
from .._registry import import_submodules

__all__ = ["create", "get", "names"]

import_submodules(__name__, __path__)

names = _registry.names
get = _registry.get
create = _registry.create
