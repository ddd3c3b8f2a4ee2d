"""Core value types: an answer (:class:`Item`), what it answers (:class:`Prompt`), and a :class:`Dataset`.

All three are frozen dataclasses, so they hash, pickle and travel to worker processes unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

__all__ = ["Dataset", "Item", "Prompt"]


def _frozen(mapping: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class Prompt:
    """What a scorer or generator may know about a question.

    Parameters
    ----------
    id : str
        Prompt (question, essay set) identifier, unique within a dataset.
    question : str
        The question or essay prompt as shown to students.
    reference_answers : tuple of str
        Model answers (SemEval) or scoring-key answers, best first.
    passage : str
        Reading or source passage, when the prompt has one.
    rubric : str
        Scoring rubric text.
    score_range : (int, int) or None
        Inclusive minimum and maximum score, for scored datasets.
    labels : tuple of str or None
        Label set, for labelled datasets (SemEval); ``labels[0]`` is the "no credit" label.
    metadata : mapping
        Anything else (topic, domain, source file).
    """

    id: str
    question: str = ""
    reference_answers: tuple[str, ...] = ()
    passage: str = ""
    rubric: str = ""
    score_range: tuple[int, int] | None = None
    labels: tuple[str, ...] | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "reference_answers", tuple(self.reference_answers))
        object.__setattr__(self, "metadata", _frozen(self.metadata))
        if self.score_range is not None:
            low, high = (int(v) for v in self.score_range)
            if low > high:
                raise ValueError(f"Prompt {self.id!r}: score_range {self.score_range} has min > max.")
            object.__setattr__(self, "score_range", (low, high))
        if self.labels is not None:
            object.__setattr__(self, "labels", tuple(self.labels))

    @property
    def min_score(self) -> int:
        """The lowest score (0 when the prompt declares no range)."""
        return self.score_range[0] if self.score_range else 0

    @property
    def max_score(self) -> int:
        """The highest score (the last label index for labelled prompts)."""
        if self.score_range:
            return self.score_range[1]
        return len(self.labels) - 1 if self.labels else 1

    @property
    def material(self) -> str:
        """All prompt text together: question, passage, rubric and reference answers."""
        parts = [self.question, self.passage, self.rubric, *self.reference_answers]
        return "\n".join(p for p in parts if p)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["metadata"] = dict(self.metadata)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state["metadata"] = _frozen(state["metadata"])
        self.__dict__.update(state)


@dataclass(frozen=True)
class Item:
    """One answer.

    Parameters
    ----------
    id : str
        Answer identifier, unique within a dataset.
    prompt_id : str
        The :class:`Prompt` it answers.
    text : str
        The answer text, exactly as written (empty answers are real answers).
    score : float or None
        Gold score. For labelled data, the credit the label earns (1 for "correct", else 0).
    label : str or None
        Gold label, for labelled datasets.
    metadata : mapping
        Second rater, fold, source file and line, generator parameters, ...
    """

    id: str
    prompt_id: str
    text: str
    score: float | None = None
    label: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "metadata", _frozen(self.metadata))

    def with_text(self, text: str, **metadata: Any) -> Item:
        """A copy with new text and extra metadata (the gold score is dropped)."""
        return replace(self, text=text, score=None, label=None, metadata={**self.metadata, **metadata})

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["metadata"] = dict(self.metadata)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state["metadata"] = _frozen(state["metadata"])
        self.__dict__.update(state)


@dataclass(frozen=True)
class Dataset(Sequence[Item]):
    """A named, ordered collection of items with the prompts they answer.

    Parameters
    ----------
    name : str
        Registry name or a user-chosen name (``"asap-sas"``).
    items : tuple of Item
    prompts : mapping of str to Prompt
    split : str
        Which part of a release this is (``"train"``, ``"test-unseen-answers"``...).
    """

    name: str
    items: tuple[Item, ...]
    prompts: Mapping[str, Prompt]
    split: str = ""
    metadata: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "items", tuple(self.items))
        object.__setattr__(self, "prompts", dict(self.prompts))
        object.__setattr__(self, "metadata", dict(self.metadata))
        missing = {it.prompt_id for it in self.items} - set(self.prompts)
        if missing:
            raise ValueError(f"Dataset {self.name!r}: items refer to unknown prompts {sorted(missing)[:5]}.")

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Item]:
        return iter(self.items)

    def __getitem__(self, index: Any) -> Any:  # type: ignore[override]
        return self.items[index]

    @property
    def prompt_ids(self) -> list[str]:
        """Prompt ids in first-seen order (prompts without items come last)."""
        seen = dict.fromkeys(it.prompt_id for it in self.items)
        seen.update(dict.fromkeys(self.prompts))
        return list(seen)

    def subset(self, items: Iterable[Item], *, split: str | None = None) -> Dataset:
        """A dataset with the same prompts and the given items."""
        return Dataset(self.name, tuple(items), self.prompts, self.split if split is None else split, self.metadata)

    def for_prompt(self, prompt_id: str) -> Dataset:
        """The items of one prompt."""
        if prompt_id not in self.prompts:
            raise KeyError(f"Dataset {self.name!r} has no prompt {prompt_id!r}; it has {self.prompt_ids}.")
        return self.subset(it for it in self.items if it.prompt_id == prompt_id)

    def by_prompt(self) -> dict[str, Dataset]:
        """One dataset per prompt, in prompt order."""
        groups: dict[str, list[Item]] = {pid: [] for pid in self.prompt_ids}
        for it in self.items:
            groups[it.prompt_id].append(it)
        return {pid: self.subset(items) for pid, items in groups.items() if items}

    def scores(self) -> list[float | None]:
        """Gold scores in item order."""
        return [it.score for it in self.items]

    def labels(self) -> list[str | None]:
        """Gold labels in item order."""
        return [it.label for it in self.items]

    def __repr__(self) -> str:
        split = f", split={self.split!r}" if self.split else ""
        return f"Dataset({self.name!r}{split}, {len(self.items)} items, {len(self.prompts)} prompts)"
