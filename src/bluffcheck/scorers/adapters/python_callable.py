"""``callable``: score with a Python function you already have.

The function receives a batch and returns one number per answer::

    def score(texts: list[str], prompt_ids: list[str]) -> list[float]: ...

(with ``batch=False``: ``score(text: str, prompt_id: str) -> float``, called once per answer).
Name it as ``"package.module:function"`` (imported with :mod:`importlib`, never ``eval``), as
``"path/to/file.py:function"``, or pass the function object itself.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..._registry import scorers
from ...errors import ConfigError, ScorerError
from ...types import Item
from ._base import BlackBoxScorer, check_number
from ._retry import Outcome, RetryPolicy, call_with_timeout, run_batches

__all__ = ["CallableScorer", "resolve_target"]

_TARGET = re.compile(r"^(?P<module>[^:]+):(?P<attr>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)$")


def resolve_target(target: str) -> Callable[..., Any]:
    """The function named by ``"package.module:function"`` or ``"file.py:function"``."""
    match = _TARGET.match(target.strip())
    if not match:
        raise ConfigError(
            f"The 'target' parameter of CallableScorer must look like 'package.module:function' or "
            f"'path/to/file.py:function'. Got {target!r} instead."
        )
    module_name, attr = match["module"], match["attr"]
    try:
        if module_name.endswith(".py"):
            module = _load_file(Path(module_name))
        else:
            module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"CallableScorer could not import {module_name!r}: {exc}. Is it on PYTHONPATH?") from exc
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ConfigError(f"CallableScorer: {module_name!r} has no attribute {attr!r} (target {target!r}).")
        obj = getattr(obj, part)
    if not callable(obj):
        raise ConfigError(f"CallableScorer: {target!r} is a {type(obj).__name__}, not a function.")
    return obj


def _load_file(path: Path) -> Any:
    if not path.is_file():
        raise ImportError(f"no such file {str(path)!r}")
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:8]
    spec = importlib.util.spec_from_file_location(f"bluffcheck_user_{path.stem}_{digest}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {str(path)!r} as a Python module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _one(fn: Callable[..., Any], item: Item) -> Outcome:
    try:
        return Outcome.from_value(fn(item.text, item.prompt_id))
    except Exception as exc:  # one answer failing must not fail its batch
        return Outcome.failed(exc)


@scorers.register("callable")
class CallableScorer(BlackBoxScorer):
    """Wrap a Python function as a scorer.

    Parameters
    ----------
    target : str or callable
        ``"package.module:function"``, ``"path/to/file.py:function"`` or the function itself.
    batch : bool
        True: ``f(texts, prompt_ids) -> sequence of float``; False: ``f(text, prompt_id) -> float``.
    batch_size : int
        Answers per call when ``batch`` is true.
    timeout : float or None
        Seconds one call (one batch) may take; it runs in a worker thread. None: no limit.
    retries, backoff, max_backoff : int, float, float
        Retries of failed calls and items, with exponential backoff (seconds).
    model_version : str
        Your label for the model behind the function; part of the fingerprint (cache key).

    Examples
    --------
    >>> from bluffcheck import Item
    >>> s = CallableScorer(lambda texts, pids: [len(t.split()) for t in texts]).fit()
    >>> s.score([Item("a", "1", "two words")]).tolist()
    [2.0]
    """

    kind = "callable"

    def __init__(
        self,
        target: str | Callable[..., Any] = "",
        *,
        batch: bool = True,
        batch_size: int = 64,
        timeout: float | None = 30.0,
        retries: int = 2,
        backoff: float = 0.1,
        max_backoff: float = 8.0,
        model_version: str = "",
    ) -> None:
        self.target = target
        self.batch = batch
        self.batch_size = batch_size
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.model_version = model_version

    def _validate_params(self) -> None:
        if not (callable(self.target) or (isinstance(self.target, str) and self.target)):
            raise ConfigError(
                f"The 'target' parameter of CallableScorer must be 'package.module:function' or a callable. "
                f"Got {self.target!r} instead."
            )
        check_number(self, "batch_size", self.batch_size, low=1, integer=True)
        check_number(self, "retries", self.retries, integer=True)
        if self.timeout is not None:
            check_number(self, "timeout", self.timeout)

    def _setup(self) -> None:
        self._fn = self.target if callable(self.target) else resolve_target(self.target)

    def _function(self) -> Callable[..., Any]:
        if getattr(self, "_fn", None) is None:
            self._setup()
        return self._fn

    def _outcomes(self, items: list[Item], policy: RetryPolicy) -> list[Outcome]:
        fn = self._function()
        name = getattr(fn, "__qualname__", repr(fn))

        def one_batch(batch: list[Item]) -> list[Outcome]:
            if self.batch:
                values = list(fn([it.text for it in batch], [it.prompt_id for it in batch]))
            else:
                return [_one(fn, it) for it in batch]
            if len(values) != len(batch):
                raise ScorerError(f"{name} returned {len(values)} scores for {len(batch)} answers")
            return [Outcome.from_value(v) for v in values]

        def call(batch: list[Item]) -> list[Outcome]:
            return call_with_timeout(one_batch, batch, policy.timeout)

        return run_batches(call, items, policy, batch_size=self.batch_size)

    def _identity(self) -> dict[str, Any]:
        if callable(self.target):
            fn = self.target
            return {"function": f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"}
        return {"function": self.target.strip()}

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_fn", None)  # re-imported on first use; the target string is what travels
        return state
