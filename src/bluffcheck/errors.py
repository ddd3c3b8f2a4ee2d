"""The exception tree of bluffcheck.

::

    BluffcheckError
     ├── ConfigError (ValueError)            bad parameter or suite file
     │    └── DatasetFormatError             a data file is malformed (file, line, field)
     ├── UnknownComponentError (KeyError)    a registry name that does not exist
     ├── NotFittedError (RuntimeError)       a scorer used before ``fit``
     ├── MissingResourceError (FileNotFoundError)
     │    └── MissingDataError               a dataset folder is not where we looked
     ├── ScorerError (RuntimeError)          a scorer failed, timed out or returned NaN
     └── UntrustedFileError (PermissionError) a model file that would run code on load

Every message says what happened and what to do next.
"""

from __future__ import annotations

__all__ = [
    "BluffcheckError",
    "ConfigError",
    "DatasetFormatError",
    "MissingDataError",
    "MissingResourceError",
    "NotFittedError",
    "ScorerError",
    "UnknownComponentError",
    "UntrustedFileError",
]


class BluffcheckError(Exception):
    """Base class of every error bluffcheck raises on purpose."""


class ConfigError(BluffcheckError, ValueError):
    """A parameter, option or configuration value is invalid."""


class DatasetFormatError(ConfigError):
    """A data file does not have the expected layout.

    Parameters
    ----------
    path : str
        The file that is malformed.
    line : int or None
        1-based line (or record) number, when known.
    field : str or None
        The column, attribute or key at fault.
    message : str
        What is wrong and what was expected.
    """

    def __init__(self, path: object, line: int | None, field: str | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.field = field
        where = self.path
        if line is not None:
            where += f" line {line}"
        if field is not None:
            where += f": field {field!r}"
        super().__init__(f"{where}: {message}")


class UnknownComponentError(BluffcheckError, KeyError):
    """A registry lookup failed; the message lists close matches."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class NotFittedError(BluffcheckError, RuntimeError):
    """A scorer was asked to score before it was fitted."""


class MissingResourceError(BluffcheckError, FileNotFoundError):
    """A corpus, lexicon or model is not installed or not found."""


class MissingDataError(MissingResourceError):
    """A dataset folder or file is not where bluffcheck looked."""


class ScorerError(BluffcheckError, RuntimeError):
    """A scorer failed, timed out or returned something that is not a score."""


class UntrustedFileError(BluffcheckError, PermissionError):
    """A file would run code when loaded and was not marked trusted."""
