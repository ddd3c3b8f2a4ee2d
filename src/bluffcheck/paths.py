"""Where bluffcheck finds the real datasets: ``$BLUFFCHECK_DATA`` or ``../shared/data``."""

from __future__ import annotations

import os
from pathlib import Path

from .errors import MissingDataError

__all__ = ["data_root", "find_data"]

ENV_VAR = "BLUFFCHECK_DATA"


def _candidates() -> list[Path]:
    found = []
    if os.environ.get(ENV_VAR):
        found.append(Path(os.environ[ENV_VAR]).expanduser())
    found.append(Path.cwd() / ".." / "shared" / "data")
    # the project checkout's sibling, wherever the command is run from
    found.append(Path(__file__).resolve().parents[3] / "shared" / "data")
    return found


def data_root(required: bool = True) -> Path | None:
    """The data folder: ``$BLUFFCHECK_DATA`` if set, else ``../shared/data``.

    Raises
    ------
    MissingDataError
        When ``required`` and no folder exists; the message says how to point to one.
    """
    env = os.environ.get(ENV_VAR)
    if env:
        path = Path(env).expanduser()
        if path.is_dir():
            return path.resolve()
        if required:
            raise MissingDataError(f"${ENV_VAR} is set to {env!r}, which is not a folder. Point it at the data folder.")
        return None
    for path in _candidates():
        if path.is_dir():
            return path.resolve()
    if required:
        raise MissingDataError(
            "No data folder found. Looked in ../shared/data (relative to the working directory and to the "
            f"project). Set {ENV_VAR}=/path/to/data, or pass an explicit path to the loader."
        )
    return None


def find_data(*parts: str, root: str | os.PathLike[str] | None = None) -> Path:
    """A path inside the data folder, checked to exist.

    >>> find_data("asap-sas", "kaggle")  # doctest: +SKIP
    PosixPath('/work/shared/data/asap-sas/kaggle')
    """
    base = Path(root) if root is not None else data_root()
    assert base is not None
    path = base.joinpath(*parts)
    if not path.exists():
        raise MissingDataError(
            f"{path} does not exist. Expected it under the data folder {base}; set {ENV_VAR} or pass the path explicitly."
        )
    return path
