"""PyTorch parts of the ``neural`` scorer (imported lazily: this module imports torch at its top).

The network follows seed 000 §3.1 (Riordan et al. 2019): per token, a word embedding concatenated with a
character CNN encoding (25-dim character embeddings, 100 filters of each width 3/4/5, max-pooled over the
word's characters); a one-layer bidirectional GRU (250 per direction); max pooling over time; one fully
connected layer with a sigmoid output, which the caller scales to the prompt's score range.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

__all__ = ["RiordanNet", "batch_tensors", "predict", "train"]


class RiordanNet(nn.Module):
    """Word + character-CNN BiGRU regressor with an output in (0, 1)."""

    def __init__(self, *, word_matrix: np.ndarray, n_chars: int, config: dict[str, Any]) -> None:
        super().__init__()
        self.use_chars = bool(config["use_chars"])
        self.words = nn.Embedding.from_pretrained(torch.from_numpy(word_matrix), freeze=False, padding_idx=0)
        in_dim = word_matrix.shape[1]
        if self.use_chars:
            self.chars = nn.Embedding(n_chars, int(config["char_dim"]), padding_idx=0)
            self.convs = nn.ModuleList(
                nn.Conv1d(int(config["char_dim"]), int(config["char_filters"]), int(w)) for w in config["char_widths"]
            )
            in_dim += int(config["char_filters"]) * len(config["char_widths"])
        self.gru = nn.GRU(in_dim, int(config["hidden"]), batch_first=True, bidirectional=True)
        self.drop = nn.Dropout(float(config["dropout"]))
        self.out = nn.Linear(2 * int(config["hidden"]), 1)

    def forward(self, words: torch.Tensor, chars: torch.Tensor, char_index: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """``words`` (B, T), unique tokens' ``chars`` (U, L), ``char_index`` (B, T) into them, ``lengths`` (B,).

        Returns (B,) values in (0, 1). The character CNN runs once per distinct token of the batch.
        """
        x = self.words(words)
        if self.use_chars:
            c = self.chars(chars).transpose(1, 2)
            feats = torch.cat([torch.relu(conv(c)).amax(dim=2) for conv in self.convs], dim=1)
            x = torch.cat([x, feats[char_index]], dim=2)
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        h, _ = self.gru(packed)
        h, _ = pad_packed_sequence(h, batch_first=True, padding_value=float("-inf"), total_length=words.shape[1])
        return torch.sigmoid(self.out(self.drop(h.amax(dim=1)))).squeeze(1)


def batch_tensors(
    word_ids: Sequence[np.ndarray], char_ids: Sequence[list[tuple[int, ...]]], min_chars: int
) -> tuple[torch.Tensor, ...]:
    """Pad one batch of encoded answers (every answer has at least one token).

    Returns word ids (B, T), the distinct tokens' character ids (U, L; row 0 is padding), the index of each
    token's row (B, T) and the answer lengths (B,).
    """
    lengths = np.array([len(w) for w in word_ids], dtype=np.int64)
    t = int(lengths.max())
    words = np.zeros((len(word_ids), t), dtype=np.int64)
    index = np.zeros((len(word_ids), t), dtype=np.int64)
    rows: dict[tuple[int, ...], int] = {(): 0}
    for i, (w, cs) in enumerate(zip(word_ids, char_ids, strict=True)):
        words[i, : len(w)] = w
        index[i, : len(cs)] = [rows.setdefault(c, len(rows)) for c in cs]
    chars = np.zeros((len(rows), max([min_chars] + [len(c) for c in rows])), dtype=np.int64)
    for c, r in rows.items():
        chars[r, : len(c)] = c
    return torch.from_numpy(words), torch.from_numpy(chars), torch.from_numpy(index), torch.from_numpy(lengths)


def _batches(order: np.ndarray, size: int) -> Iterator[np.ndarray]:
    for start in range(0, len(order), size):
        yield order[start : start + size]


def predict(net: RiordanNet, encoded: tuple[list, list], *, batch_size: int, min_chars: int) -> np.ndarray:
    """Network outputs in (0, 1) for encoded answers, in input order."""
    word_ids, char_ids = encoded
    out = np.empty(len(word_ids), dtype=float)
    order = np.argsort([len(w) for w in word_ids], kind="stable")
    net.eval()
    with torch.no_grad():
        for idx in _batches(order, max(batch_size, 64)):
            tensors = batch_tensors([word_ids[i] for i in idx], [char_ids[i] for i in idx], min_chars)
            out[idx] = net(*tensors).double().numpy()
    return out


def _epoch_order(lengths: np.ndarray, batch_size: int, rng: np.random.Generator) -> list[np.ndarray]:
    # Bucket answers of similar length (little padding), jittered so batches differ between epochs.
    order = np.argsort(lengths + rng.uniform(0.0, 3.0, size=len(lengths)), kind="stable")
    batches = list(_batches(order, batch_size))
    return [batches[i] for i in rng.permutation(len(batches))]


def train(net: RiordanNet, data: dict[str, Any], *, config: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """Fit ``net`` with Adam on MSE; return ``{"state": best weights, "epochs": [...]}``.

    ``data`` holds ``train`` and optional ``dev`` triples (word ids, char ids, targets in [0, 1]). With a dev
    part the weights of the epoch with the lowest dev MSE are kept (early stopping), else the last epoch's.
    """
    min_chars = max(config["char_widths"]) if config["use_chars"] else 1
    words, chars, targets = data["train"]
    lengths = np.array([len(w) for w in words], dtype=float)
    opt = torch.optim.Adam(net.parameters(), lr=float(config["lr"]))
    best, best_loss, history = None, np.inf, []
    for _epoch in range(int(config["epochs"])):
        net.train()
        total = 0.0
        for idx in _epoch_order(lengths, int(config["batch_size"]), rng):
            tensors = batch_tensors([words[i] for i in idx], [chars[i] for i in idx], min_chars)
            loss = nn.functional.mse_loss(net(*tensors), torch.from_numpy(targets[idx]).float())
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
        record = {"train_mse": total / len(words)}
        if data.get("dev") is not None:
            dw, dc, dt = data["dev"]
            pred = predict(net, (dw, dc), batch_size=int(config["batch_size"]), min_chars=min_chars)
            record["dev_mse"] = float(np.mean((pred - dt) ** 2))
            if record["dev_mse"] < best_loss:
                best_loss = record["dev_mse"]
                best = {k: v.detach().clone() for k, v in net.state_dict().items()}
        history.append(record)
    if best is not None:
        net.load_state_dict(best)
    return {"epochs": history}
