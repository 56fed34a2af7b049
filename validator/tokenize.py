"""The validator's tokenizer through ``tokenizers`` alone (no transformers, no torch): what
``PreTrainedTokenizerFast`` does for a cross-encoder's pairs (special tokens,
``longest_first`` truncation), read from the base model's ``tokenizer.json``."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core.errors import ModelLoadError

TOKENIZER_FILE = "tokenizer.json"


class _Prefetch:
    """One ``tokenizer.json`` read in a thread of its own: ``tokenizers`` builds its 250k-piece
    vocabulary (about 1 s of CPU) without holding the interpreter lock, so the process goes
    on importing and reading the KG meanwhile."""

    def __init__(self, path: Path) -> None:
        self.result: Any = None
        self.error: Exception | None = None
        self._thread = threading.Thread(target=self._run, args=(path,), name="tokenizer-load", daemon=True)
        self._thread.start()

    def _run(self, path: Path) -> None:
        try:
            self.result = _read(path)
        except Exception as exc:  # noqa: BLE001 (tokenizers raises plain Exception; re-raised where taken)
            self.error = exc

    def take(self) -> Any:
        self._thread.join()
        if self.error is not None:
            raise self.error
        return self.result


_PREFETCHED: dict[Path, _Prefetch] = {}
_PREFETCH_LOCK = threading.Lock()


def prefetch(base_dir: Path) -> None:
    """Start reading ``base_dir``'s tokenizer in the background (``kgqa ask``, where the
    encoder loads lazily): :meth:`PairTokenizer.load` then takes it instead of reading it."""
    path = (Path(base_dir) / TOKENIZER_FILE).resolve()
    with _PREFETCH_LOCK:
        if path not in _PREFETCHED and path.is_file():
            _PREFETCHED[path] = _Prefetch(path)


def _read(path: Path) -> Any:
    from tokenizers import Tokenizer

    return Tokenizer.from_file(str(path))


class PairTokenizer:
    """The base model's tokenizer through ``tokenizers`` alone (what
    ``PreTrainedTokenizerFast`` does for :meth:`CrossEncoder.predict`: pairs, special tokens,
    ``longest_first`` truncation), without importing transformers."""

    def __init__(self, tokenizer: Any, pad_token_id: int) -> None:
        self.tokenizer = tokenizer
        self.pad_token_id = pad_token_id

    @classmethod
    def load(cls, base_dir: Path) -> PairTokenizer:
        """Read ``tokenizer.json``; :class:`ModelLoadError` names a missing or bad file."""
        path = Path(base_dir) / TOKENIZER_FILE
        with _PREFETCH_LOCK:
            started = _PREFETCHED.pop(path.resolve(), None)
        try:
            tokenizer = started.take() if started is not None else _read(path)
        except Exception as exc:  # tokenizers raises plain Exception
            raise ModelLoadError(path, f"cannot load tokenizer: {exc}") from exc
        pad = tokenizer.token_to_id("<pad>")
        return cls(tokenizer, 1 if pad is None else pad)

    def __call__(self, firsts: Sequence[str], seconds: Sequence[str], *, truncation: bool = True,
                 max_length: int = 512, return_token_type_ids: bool = False,
                 return_attention_mask: bool = False) -> dict[str, list[list[int]]]:
        """``{"input_ids": [...]}`` for each (first, second) pair."""
        wanted = {"max_length": max_length, "strategy": "longest_first"} if truncation else None
        current = self.tokenizer.truncation
        if (current and {k: current[k] for k in ("max_length", "strategy")}) != wanted:
            if wanted is None:
                self.tokenizer.no_truncation()
            else:
                self.tokenizer.enable_truncation(max_length, strategy="longest_first")
        if self.tokenizer.padding is not None:
            self.tokenizer.no_padding()
        encodings = self.tokenizer.encode_batch(list(zip(firsts, seconds, strict=True)))
        return {"input_ids": [e.ids for e in encodings]}
