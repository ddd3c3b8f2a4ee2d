"""Built-in generators: every public module in this package registers its components on import.

Importing this package (which the registry does on first lookup) imports each module; adding a
component is one new file.
"""

from __future__ import annotations

from .._registry import generators as _registry
from .._registry import import_submodules

__all__ = ["PAPER_METHODS", "create", "generate_bluffs", "get", "names"]

import_submodules(__name__, __path__)

from ._api import generate_bluffs  # noqa: E402  (after the components have registered)
from ._paper import PAPER_METHODS  # noqa: E402

names = _registry.names
get = _registry.get
create = _registry.create
