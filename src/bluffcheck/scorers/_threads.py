"""A context manager that bounds torch's CPU threads for one fit or scoring call."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["torch_threads"]


@contextmanager
def torch_threads(n: int) -> Iterator[None]:
    """Run torch with ``n`` intra-op threads (at most the cores available), restoring the setting after.

    The torch scorers default to one thread: for small recurrent models and short texts two OpenMP threads
    gain little on an idle machine and are several times slower as soon as another process competes for the
    cores (measured on the 2-core development machine). Run folds or prompts in parallel processes instead.
    """
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(max(1, min(int(n), len(os.sched_getaffinity(0)))))
    try:
        yield
    finally:
        torch.set_num_threads(before)
