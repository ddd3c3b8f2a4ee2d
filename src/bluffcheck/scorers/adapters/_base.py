"""What every black-box adapter shares: already trained, per-item outcomes, a fingerprint."""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ...errors import ConfigError, NotFittedError
from ...types import Dataset, Item, Prompt
from ..base import ALL_PROMPTS, Scorer, as_items
from ._retry import Outcome, RetryPolicy, outcomes_to_scores

__all__ = ["BlackBoxScorer"]


class BlackBoxScorer(Scorer):
    """Base class of scorers that bluffcheck did not train (a function, a command, a server, a file).

    ``fit`` only records the prompts (and checks the scorer is reachable); ``score_outcomes``
    gives one :class:`Outcome` per item; ``score`` returns floats or raises
    :class:`~bluffcheck.errors.ScorerError` if any item failed after retries. Adapters close
    their resources on :meth:`close` or at the end of a ``with`` block.
    """

    per_prompt: ClassVar[bool] = False
    needs_setup: ClassVar[bool] = True  # the common conformance suite cannot build one unaided
    kind: ClassVar[str] = ""
    # The run engine tries one answer before a run and stops if it fails; a file round trip expects
    # unscored answers (it starts empty), so it opts out.
    preflight: ClassVar[bool] = True

    @classmethod
    def _param_names(cls) -> list[str]:
        sig = inspect.signature(cls.__init__)
        kinds = (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        return [p.name for p in sig.parameters.values() if p.name != "self" and p.kind in kinds]

    # -- fitting ---------------------------------------------------------------------------------
    def fit(self, data: Dataset | None = None) -> BlackBoxScorer:
        """Record the prompts of ``data`` (optional) and check that the scorer can be reached."""
        if data is not None and not isinstance(data, Dataset):
            raise ConfigError(
                f"{type(self).__name__}.fit expects a Dataset or None. Got {type(data).__name__} instead."
            )
        self._validate_params()
        self.prompts_: dict[str, Prompt] = dict(data.prompts) if data is not None else {}
        self._setup()
        self.models_: dict[str, Any] = {ALL_PROMPTS: None}  # nothing to learn; marks the scorer fitted
        return self

    def _check_fitted(self) -> None:
        if not hasattr(self, "models_"):
            raise NotFittedError(
                f"This {type(self).__name__} is not fitted yet. Call fit(dataset) (or fit()) first: it records "
                "the prompts and checks that the scorer is reachable."
            )

    # -- scoring ---------------------------------------------------------------------------------
    def score(self, items: Sequence[Item] | Dataset) -> np.ndarray:
        """One float per item; :class:`~bluffcheck.errors.ScorerError` if any item failed."""
        items = as_items(items)
        return outcomes_to_scores(self.score_outcomes(items), items, who=type(self).__name__)

    def score_outcomes(self, items: Sequence[Item] | Dataset, *, policy: RetryPolicy | None = None) -> list[Outcome]:
        """One :class:`Outcome` per item, in item order, after retries."""
        items = as_items(items)
        self._check_fitted()
        if not items:
            return []
        return self._outcomes(items, policy or self.retry_policy())

    def retry_policy(self, **overrides: Any) -> RetryPolicy:
        """The policy built from the adapter's parameters (``overrides`` replace fields, e.g. ``sleep``)."""
        params = {
            "max_attempts": int(getattr(self, "retries", 2)) + 1,
            "backoff": float(getattr(self, "backoff", 0.5)),
            "max_backoff": float(getattr(self, "max_backoff", 8.0)),
            "timeout": getattr(self, "timeout", 30.0),
        }
        return RetryPolicy(**{**params, **overrides})

    # -- identity and resources -------------------------------------------------------------------
    def _identity(self) -> dict[str, Any]:
        """What decides the scores (not timeouts or batch sizes): the target it wraps."""
        raise NotImplementedError

    @property
    def fingerprint(self) -> str:
        """Hash of adapter kind, target and ``model_version`` (for query caches); no secrets."""
        payload = {
            "adapter": self.kind,
            "version": self.version,
            "model_version": str(getattr(self, "model_version", "")),
            "target": self._identity(),
        }
        return hashlib.sha256(json.dumps(payload, sort_keys=True, default=repr).encode()).hexdigest()[:16]

    def close(self) -> None:
        """Release processes and connections (the adapter reopens them when used again)."""

    def __enter__(self) -> BlackBoxScorer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- hooks -----------------------------------------------------------------------------------
    def _setup(self) -> None:
        """Check the target is usable; raise ScorerError with what to do if not."""

    def _outcomes(self, items: list[Item], policy: RetryPolicy) -> list[Outcome]:
        raise NotImplementedError


def check_number(owner: object, name: str, value: Any, *, low: float = 0.0, integer: bool = False) -> None:
    """ConfigError in the project's template unless ``value`` is a number >= ``low``."""
    kind = int if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kind) or value < low:
        what = "an integer" if integer else "a number"
        raise ConfigError(
            f"The {name!r} parameter of {type(owner).__name__} must be {what} >= {low:g}. Got {value!r} instead."
        )
