"""The validator's tokenizer through ``tokenizers`` alone (no transformers, no torch): what
``PreTrainedTokenizerFast`` does for a cross-encoder's pairs (special tokens,
``longest_first`` truncation), read from the base model's ``tokenizer.json``."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core.errors import ModelLoadError
from validator.unigram import UnigramPairTokenizer, write_table

TOKENIZER_FILE = "tokenizer.json"


class PairTokenizer:
    """The base model's tokenizer through ``tokenizers`` alone (what
    ``PreTrainedTokenizerFast`` does for :meth:`CrossEncoder.predict`: pairs, special tokens,
    ``longest_first`` truncation), without importing transformers."""

    def __init__(self, tokenizer: Any, pad_token_id: int) -> None:
        self.tokenizer = tokenizer
        self.pad_token_id = pad_token_id

    @classmethod
    def load(cls, base_dir: Path) -> PairTokenizer | UnigramPairTokenizer:
        """The tokenizer of ``base_dir``: from the compact table beside ``tokenizer.json``
        when it is current (:mod:`validator.unigram`, the same ids without building the
        250k-piece vocabulary), else ``tokenizers`` itself (the table is then written for
        the next process where the directory allows).  :class:`ModelLoadError` names a
        missing or bad file."""
        path = Path(base_dir) / TOKENIZER_FILE
        fast = UnigramPairTokenizer.load(path, lambda: cls.load_file(path))
        if fast is not None:
            return fast
        tokenizer = cls.load_file(path)
        if os.access(path.parent, os.W_OK):
            write_table(path)
        return tokenizer

    @classmethod
    def load_file(cls, path: Path) -> PairTokenizer:
        """``tokenizers``' own tokenizer of ``tokenizer.json`` (:class:`ModelLoadError` names
        a missing or bad file)."""
        from tokenizers import Tokenizer

        try:
            tokenizer = Tokenizer.from_file(str(path))
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
