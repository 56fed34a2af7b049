"""The validator at run time: the cross-encoder exported to ONNX, run by ONNX Runtime,
tokenized by ``tokenizers``.  Nothing here imports torch or transformers (they train and
export: :mod:`validator.export`).

Files:

* the ONNX network, ``<cache>/models/validator-<fingerprint>.onnx``, written by
  ``python -m validator.export`` (the set-up runs it): every weight but the word
  embeddings; its inputs are the word-embedding rows of the tokens (``inputs_embeds``,
  ``(pairs, tokens, hidden)``) and the ``attention_mask``, its output the logits.  The
  fingerprint digests what the network is made of (the shipped weights and their
  configuration, the base model's configuration, :data:`EXPORT_FORMAT`), so a retrained
  validator never runs on a stale export;
* the word embeddings (250k x 384 fp32), read from the base model's ``model.safetensors``
  row by row (:class:`WordEmbeddings`): only the rows of a batch's tokens are read, into
  the batch's own buffer.  (A memory map of the matrix held about 120 MB of it per worker
  after 20 questions: each row touched paged in its neighbours too, by read-ahead.)

A missing or broken file is a :class:`ModelLoadError` naming it and the command that
rebuilds it: the pipeline never answers without the validator it was configured with.

:class:`OnnxCrossEncoder` answers the validator's API, ``predict(pairs)`` and
``rank(question, verbalizations)`` (sentence-transformers' ``CrossEncoder``).
"""

from __future__ import annotations

import contextlib
import os
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from core.errors import ModelLoadError
from validator.config import read_config
from validator.files import (
    REBUILD_HINT,
    WEIGHTS_FILE,
    onnx_path,
    safetensors_header,
)
from validator.tokenize import PairTokenizer

WORD_EMBEDDINGS = "embeddings.word_embeddings.weight"
ONNX_KEPT = 2  # exported networks kept beside the base model (each about 60 MB)
PADDED_BATCH = 16
"""Pairs per forward pass at most: a pass is padded to its longest pair, and sorted batches
of 16 pad less than one of 60 (on one core, 771 pairs of the paraphrased shapes in 8.2 s
against 10.1 s; scores equal to 1e-7)."""
_threads = 0  # 0: one per core


def set_threads(threads: int) -> None:
    """Threads of the ONNX sessions created from now on (0: one per core).  A process that
    forks workers from a loaded pipeline uses 1: no thread pool exists before ``fork``."""
    global _threads
    _threads = max(0, int(threads))


class WordEmbeddings:
    """The rows of a float32 matrix stored in a file, read on demand with ``pread``: indexing
    with token ids (an int or an integer array) gives their rows, as indexing the matrix
    would; nothing of the file stays mapped in the process (the page cache holds what is
    read, once for every process).  The file is opened once; a forked worker shares the
    descriptor (``pread`` uses no file position)."""

    def __init__(self, path: Path, offset: int, rows: int, cols: int) -> None:
        self.path = Path(path)
        self.offset = offset
        self.shape = (rows, cols)
        self._row_bytes = cols * 4
        self._fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))

    def __getitem__(self, ids: Any) -> np.ndarray:
        ids = np.asarray(ids)
        unique, inverse = np.unique(ids, return_inverse=True)
        if unique.size and (unique[0] < 0 or unique[-1] >= self.shape[0]):
            raise IndexError(f"token ids outside 0..{self.shape[0] - 1}")
        table = np.empty((unique.size, self.shape[1]), dtype="<f4")
        for i, row in enumerate(unique.tolist()):
            data = os.pread(self._fd, self._row_bytes, self.offset + row * self._row_bytes)
            if len(data) != self._row_bytes:
                raise ModelLoadError(self.path, "the word embeddings end early (run: python -m validator.convert)")
            table[i] = np.frombuffer(data, dtype="<f4")
        return table[inverse.reshape(ids.shape)]

    def __del__(self) -> None:
        try:  # at interpreter exit the module's globals may be gone already
            os.close(self._fd)
        except (AttributeError, OSError, TypeError):  # contextlib itself may be gone by then
            return


def word_embeddings(base_dir: Path) -> WordEmbeddings:
    """The base model's word-embedding matrix in its safetensors file, read row by row when
    indexed (:class:`WordEmbeddings`)."""
    path = Path(base_dir) / WEIGHTS_FILE
    try:
        size, header = safetensors_header(path)
        entry = header[WORD_EMBEDDINGS]
        if entry["dtype"] != "F32" or len(entry["shape"]) != 2:
            raise ValueError(f"{WORD_EMBEDDINGS} is {entry['dtype']} {entry['shape']}, expected a F32 matrix")
        start, end = entry["data_offsets"]
        rows, cols = (int(n) for n in entry["shape"])
        if end - start != rows * cols * 4:
            raise ValueError(f"{WORD_EMBEDDINGS} has {end - start} bytes for shape {entry['shape']}")
        return WordEmbeddings(path, 8 + size + start, rows, cols)
    except FileNotFoundError as exc:
        raise ModelLoadError(path, "no such file (run: python -m validator.convert)") from exc
    except (OSError, ValueError, KeyError, TypeError, IndexError, struct.error) as exc:
        raise ModelLoadError(path, f"corrupt or unreadable weights: {exc}") from exc


def open_session(path: Path, threads: int | None = None) -> Any:
    """An ONNX Runtime session over ``path`` (CPU); :class:`ModelLoadError` names a file that
    is missing or is no usable ONNX network, with the command that rebuilds it."""
    import onnxruntime as ort

    if not Path(path).is_file():
        raise ModelLoadError(path, f"no such file ({REBUILD_HINT})")
    options = ort.SessionOptions()
    options.intra_op_num_threads = _threads if threads is None else threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")  # no busy waiting on a shared box
    options.enable_cpu_mem_arena = False  # a forward pass's buffers go back when it ends (no arena kept per worker)
    options.log_severity_level = 3
    try:
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:
        raise ModelLoadError(path, f"not a usable ONNX network ({' '.join(str(exc).split())[:200]}); "
                                   f"{REBUILD_HINT} after deleting it") from exc
    names = {i.name for i in session.get_inputs()}
    if names != {"inputs_embeds", "attention_mask"}:
        raise ModelLoadError(path, f"unexpected inputs {sorted(names)}; {REBUILD_HINT} after deleting it")
    return session


class OnnxCrossEncoder:
    """Scores (question, verbalization) pairs with the exported network.

    The API is sentence-transformers' ``CrossEncoder`` (as :class:`validator.model.CrossEncoder`,
    the torch network it was exported from): :meth:`predict` gives one probability (the
    sigmoid of the logit) per pair, :meth:`rank` the verbalizations of one question best
    first.  Identical pairs are scored once; pairs are sorted by token length and run in
    batches of ``batch_size`` padded to their longest."""

    def __init__(self, session: Any, embeddings: WordEmbeddings | np.ndarray, tokenizer: PairTokenizer, *,
                 max_length: int = 80, batch_size: int = 64, path: Path | None = None) -> None:
        self.session = session
        self.embeddings = embeddings
        self.tokenizer = tokenizer
        self.max_length = max_length
        self.batch_size = batch_size
        self.path = path
        hidden = session.get_inputs()[0].shape[-1]
        if isinstance(hidden, int) and hidden != embeddings.shape[1]:
            raise ModelLoadError(path or "validator.onnx",
                                 f"exported for width {hidden}, the base model's embeddings are {embeddings.shape[1]}")

    @classmethod
    def load(cls, model_dir: Path, base_dir: Path, *, threads: int | None = None) -> OnnxCrossEncoder:
        """The exported validator of ``model_dir`` over ``base_dir`` (:class:`ModelLoadError`
        names a missing or broken file)."""
        config = read_config(model_dir)
        path = onnx_path(model_dir, base_dir, config)
        embeddings = word_embeddings(base_dir)
        tokenizer = PairTokenizer.load(base_dir)
        session = open_session(path, threads)
        return cls(session, embeddings, tokenizer, max_length=config.max_length,
                   batch_size=min(config.batch_size, PADDED_BATCH), path=path)

    def _token_ids(self, pairs: Sequence[tuple[str, str]]) -> list[list[int]]:
        batch = self.tokenizer([q for q, _ in pairs], [v for _, v in pairs], truncation=True,
                               max_length=self.max_length)
        return batch["input_ids"]

    def logits(self, ids: Sequence[Sequence[int]]) -> np.ndarray:
        """Logits of token-id rows (one forward pass, padded to the longest row)."""
        width = max(len(row) for row in ids)
        input_ids = np.full((len(ids), width), self.tokenizer.pad_token_id, dtype=np.int64)
        mask = np.zeros((len(ids), width), dtype=np.int64)
        for i, row in enumerate(ids):
            input_ids[i, :len(row)] = row
            mask[i, :len(row)] = 1
        if int(input_ids.max()) >= self.embeddings.shape[0]:
            raise ModelLoadError(self.path or "validator.onnx", "token ids beyond the base model's vocabulary")
        embeds = np.ascontiguousarray(self.embeddings[input_ids], dtype=np.float32)
        (out,) = self.session.run(["logits"], {"inputs_embeds": embeds, "attention_mask": mask})
        return np.asarray(out, dtype=np.float64).reshape(-1)

    def predict(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """Probabilities in [0, 1], one per pair, in input order."""
        if not pairs:
            return []
        unique = list(dict.fromkeys((str(q), str(v)) for q, v in pairs))
        ids = self._token_ids(unique)
        order = sorted(range(len(unique)), key=lambda i: len(ids[i]))
        probs: dict[tuple[str, str], float] = {}
        for start in range(0, len(order), self.batch_size):
            chunk = order[start:start + self.batch_size]
            logits = self.logits([ids[i] for i in chunk])
            values = (1.0 / (1.0 + np.exp(-logits))).tolist()
            probs.update((unique[i], v) for i, v in zip(chunk, values, strict=True))
        return [probs[(str(q), str(v))] for q, v in pairs]

    def rank(self, question: str, verbalizations: Sequence[str], top_k: int | None = None) -> list[dict[str, Any]]:
        """The verbalizations scored against ``question``, best first: ``{"corpus_id": index
        into verbalizations, "score": probability}``, at most ``top_k`` (all when ``None``);
        equal scores keep their input order."""
        scores = self.predict([(question, v) for v in verbalizations])
        ranked = sorted(range(len(scores)), key=lambda i: -scores[i])
        return [{"corpus_id": i, "score": scores[i]} for i in ranked[:top_k]]


def prune_exports(cache_dir: Path, *, keep: Path) -> list[Path]:
    """Delete exported networks (``validator-*.onnx``) of other validators but the most
    recently built, so that at most :data:`ONNX_KEPT` stay with ``keep``; returns what
    was deleted (a process that has one loaded keeps it)."""
    def built(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:
            return float("-inf")

    others = sorted((p for p in Path(cache_dir).glob("validator-*.onnx") if p != keep), key=built, reverse=True)
    gone = []
    for old in others[ONNX_KEPT - 1:]:
        with contextlib.suppress(OSError):
            old.unlink()
            gone.append(old)
    return gone


def default_threads() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
