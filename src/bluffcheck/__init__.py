"""bluffcheck: call out bluffing against automated scoring.

Load scoring data, train the scorers the research attacks (or wrap your own), generate
adversarial answers, measure robustness with the papers' metrics and report it.

Components are found by name in the registries of :mod:`bluffcheck._registry` (``scorers``,
``datasets``, ``generators``); the subpackages of the same names hold the built-in ones.

``import bluffcheck`` is light: heavy libraries (scikit-learn, PyTorch, sentence encoders) load
only when a component that needs them is used.
"""

from __future__ import annotations

from .errors import (
    BluffcheckError,
    ConfigError,
    DatasetFormatError,
    MissingDataError,
    MissingResourceError,
    NotFittedError,
    ScorerError,
    UnknownComponentError,
    UntrustedFileError,
)
from .paths import data_root
from .types import Dataset, Item, Prompt

__version__ = "0.1.0"

__all__ = [
    "BluffcheckError",
    "ConfigError",
    "Dataset",
    "DatasetFormatError",
    "Item",
    "MissingDataError",
    "MissingResourceError",
    "NotFittedError",
    "Prompt",
    "ScorerError",
    "UnknownComponentError",
    "UntrustedFileError",
    "__version__",
    "data_root",
]
