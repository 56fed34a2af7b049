"""The validator's tokenizer without building ``tokenizers``' 250k-piece vocabulary.

``Tokenizer.from_file`` of XLM-R's ``tokenizer.json`` takes ~1 s, almost all of it building
the Unigram model's vocabulary (the Rust trie and maps), once per process.  Questions and
verbalizations are a few dozen characters, so :class:`UnigramPairTokenizer` keeps
``tokenizers`` for the text's normalization (the file's own ``Precompiled`` charsmap and
``Replace`` normalizers) and its ``Metaspace`` pre-tokenizer, built from their JSON in
milliseconds, and does the Unigram model's Viterbi search in Python over a compact table
(:data:`TABLE_FILE`: the pieces as one UTF-8 blob, an open-addressing hash table of their
ids and their scores, marshal'd) written beside the model.
It replicates ``tokenizers``' ``Unigram::encode_optimized`` (ties keep the first, shorter
piece; a character no piece covers is ``<unk>``, consecutive ones fused), the
``<s> A </s></s> B </s>`` template and ``longest_first`` truncation.  A text that holds an
added token's content (``<s>``, ``<mask>`` ...) goes to ``tokenizers`` itself, loaded then.

The table records the ``tokenizer.json`` it came from (size and modification time); a
missing or stale table is written again by the next :func:`validator.tokenize.PairTokenizer.load`,
which meanwhile uses ``tokenizers``.  ``benchmarks/tokenizer_identity.py`` compares the two
on every bench string.
"""

from __future__ import annotations

import contextlib
import json
import marshal
import os
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from zlib import crc32

TABLE_FILE = "tokenizer.unigram.marshal"
_FORMAT = 2
MEMO_SIZE = 4096  # sequences remembered (then forgotten at once)
UNK_PENALTY = 10.0
_UNSEEN: Any = object()  # tokenizers' K_UNK_PENALTY: an unknown character scores min_score - 10


def file_stamp(path: Path) -> list[int]:
    """Size and modification time (ns) of ``tokenizer.json``: a rewrite changes it."""
    st = path.stat()
    return [st.st_size, st.st_mtime_ns]


def table_from_json(data: dict[str, Any]) -> list[Any] | None:
    """The compact table of a ``tokenizer.json`` (parsed), or ``None`` when the file is not
    the kind this module replicates (then ``tokenizers`` stays)."""
    model = data.get("model") or {}
    post = data.get("post_processor") or {}
    pre = data.get("pre_tokenizer") or {}
    if (model.get("type") != "Unigram" or model.get("byte_fallback") or model.get("unk_id") is None
            or pre.get("type") != "Metaspace" or not pre.get("split", True)
            or post.get("type") != "TemplateProcessing" or data.get("truncation") or data.get("padding")):
        return None
    specials = {name: entry["ids"] for name, entry in (post.get("special_tokens") or {}).items()}

    def template(items: list[dict[str, Any]]) -> list[Any] | None:
        out: list[Any] = []
        for item in items:
            if "Sequence" in item:
                out.append(item["Sequence"]["id"])
            elif "SpecialToken" in item and item["SpecialToken"]["id"] in specials:
                out.extend(specials[item["SpecialToken"]["id"]])
            else:
                return None
        return out

    pair = template(post.get("pair") or [])
    if pair is None or pair.count("A") != 1 or pair.count("B") != 1:
        return None
    pieces = [piece for piece, _ in model["vocab"]]
    scores = array("d", [float(score) for _, score in model["vocab"]])
    added = [token["content"] for token in data.get("added_tokens") or []]
    pad = next((token["id"] for token in data.get("added_tokens") or [] if token["content"] == "<pad>"), None)
    if pad is None:
        pad = pieces.index("<pad>") if "<pad>" in pieces else 1
    blob, offsets, slots = _hash_table(pieces)
    return [json.dumps(data.get("normalizer")), json.dumps(pre), blob, offsets.tobytes(), slots.tobytes(),
            scores.tobytes(), min(scores, default=0.0), max((len(p) for p in pieces), default=1),
            int(model["unk_id"]), added, pair, pad]


def _hash_table(pieces: list[str]) -> tuple[bytes, array, array]:
    """The pieces as one UTF-8 blob with their offsets, and an open-addressing table (CRC-32 of
    the UTF-8, linear probing) of piece ids: read back without hashing 250k strings.  A piece
    written twice keeps its last id, as ``tokenizers``' map does."""
    encoded = [piece.encode() for piece in pieces]
    offsets = array("I", [0])
    for raw in encoded:
        offsets.append(offsets[-1] + len(raw))
    size = 1 << max(len(pieces) * 2, 1).bit_length()
    slots = array("i", [-1]) * size
    mask = size - 1
    for index, raw in enumerate(encoded):
        slot = crc32(raw) & mask
        while slots[slot] >= 0 and encoded[slots[slot]] != raw:
            slot = (slot + 1) & mask
        slots[slot] = index
    return b"".join(encoded), offsets, slots


def write_table(tokenizer_json: Path) -> Path | None:
    """Write :data:`TABLE_FILE` beside ``tokenizer_json`` (atomically); ``None`` when the
    file is of another kind or the place is read-only (``tokenizers`` then stays)."""
    out = tokenizer_json.with_name(TABLE_FILE)
    part = out.with_name(f"{out.name}.{os.getpid()}.part")
    try:
        stamp = file_stamp(tokenizer_json)
        table = table_from_json(json.loads(tokenizer_json.read_text(encoding="utf-8")))
        if table is None:
            return None
        part.write_bytes(marshal.dumps([_FORMAT, stamp, *table]))
        os.replace(part, out)
        return out
    except (OSError, ValueError, KeyError, TypeError):
        with contextlib.suppress(OSError):
            part.unlink()
        return None


def current_table(tokenizer_json: Path) -> list[Any] | None:
    """The table beside ``tokenizer_json`` (what :func:`table_from_json` made of it) when it was
    written from this version of the file, else ``None`` (missing, stale or unreadable)."""
    try:
        data = marshal.loads(tokenizer_json.with_name(TABLE_FILE).read_bytes())
        return data[2:] if data[:2] == [_FORMAT, file_stamp(tokenizer_json)] else None
    except (OSError, EOFError, ValueError, TypeError):
        return None


class UnigramPairTokenizer:
    """``tokenizers``' encoding of (question, verbalization) pairs, ids for ids (module doc)."""

    def __init__(self, table: list[Any], fallback: Callable[[], Any]) -> None:
        from tokenizers import Tokenizer

        normalizer, pre_tokenizer, blob, offsets, slots, scores, min_score, longest, unk_id, added, pair, pad = table
        shell = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
                 "normalizer": json.loads(normalizer), "pre_tokenizer": json.loads(pre_tokenizer),
                 "post_processor": None, "decoder": None,
                 "model": {"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0.0]], "byte_fallback": False}}
        tiny = Tokenizer.from_str(json.dumps(shell))
        self._normalize = tiny.normalizer.normalize_str if tiny.normalizer is not None else (lambda s: s)
        self._pre_tokenize = tiny.pre_tokenizer.pre_tokenize_str
        self._blob = blob
        self._offsets = array("I")
        self._offsets.frombytes(offsets)
        self._slots = array("i")
        self._slots.frombytes(slots)
        self._mask = len(self._slots) - 1
        self._scores = array("d")
        self._scores.frombytes(scores)
        if len(self._offsets) != len(self._scores) + 1 or len(self._slots) & self._mask:
            raise ValueError("inconsistent tokenizer table")
        self._longest = longest
        self._unk_id = unk_id
        self._unk_score = min_score - UNK_PENALTY
        self._added = tuple(a for a in added if a)
        self._pair = pair
        self._n_added = sum(1 for item in pair if isinstance(item, int))
        self.pad_token_id = pad
        self._fallback_factory = fallback
        self._fallback: Any = None
        self._memo: dict[str, list[int] | None] = {}  # a turn's question recurs in each of its pairs

    @classmethod
    def load(cls, tokenizer_json: Path, fallback: Callable[[], Any]) -> UnigramPairTokenizer | None:
        """The tokenizer from the table beside ``tokenizer_json`` when it is current, else ``None``."""
        table = current_table(tokenizer_json)
        if table is None:
            return None
        try:
            return cls(table, fallback)
        except (ValueError, TypeError, IndexError, KeyError):
            return None
        except Exception:  # tokenizers raises plain Exception on a bad normalizer  # noqa: BLE001
            return None

    # ------------------------------------------------------------------ encoding

    def _id(self, piece: str) -> int | None:
        """The id of ``piece`` in the vocabulary, ``None`` when it is not one."""
        raw = piece.encode()
        slots, offsets, blob, mask = self._slots, self._offsets, self._blob, self._mask
        slot = crc32(raw) & mask
        while True:
            index = slots[slot]
            if index < 0:
                return None
            if blob[offsets[index]:offsets[index + 1]] == raw:
                return index
            slot = (slot + 1) & mask

    def _viterbi(self, text: str) -> list[int]:
        """``Unigram::encode_optimized`` then ``tokenize``'s ids, for one pre-token."""
        size = len(text)
        if not size:
            return []
        lookup, scores, unk_id, unk_score = self._id, self._scores, self._unk_id, self._unk_score
        best = [0.0] * (size + 1)
        starts: list[int] = [-1] * (size + 1)
        node_id = [0] * (size + 1)
        for start in range(size):
            till_here = best[start]
            single = False
            for end in range(start + 1, min(size, start + self._longest) + 1):
                piece = lookup(text[start:end])
                if piece is None:
                    continue
                candidate = scores[piece] + till_here
                if starts[end] < 0 or candidate > best[end]:
                    best[end], starts[end], node_id[end] = candidate, start, piece
                if end == start + 1:
                    single = True
            if not single:
                end = start + 1
                candidate = unk_score + till_here
                if starts[end] < 0 or candidate > best[end]:
                    best[end], starts[end], node_id[end] = candidate, start, unk_id
        ids: list[int] = []  # backwards: a piece's id as the search found it; a run of unknown
        unknown: list[str] = []  # characters fused into one piece, looked up as tokenizers does
        end = size
        while end > 0:
            start = starts[end]
            if node_id[end] == unk_id:
                unknown.append(text[start:end])
            else:
                if unknown:
                    ids.append(self._fused(unknown))
                    unknown = []
                ids.append(node_id[end])
            end = start
        if unknown:
            ids.append(self._fused(unknown))
        ids.reverse()
        return ids

    def _fused(self, backwards: list[str]) -> int:
        """The id of unknown characters fused into one piece (met backwards): ``<unk>`` unless
        the run is itself a piece."""
        index = self._id("".join(reversed(backwards)))
        return self._unk_id if index is None else index

    def encode_one(self, text: str) -> list[int] | None:
        """The model's ids of one sequence, or ``None`` when it holds an added token (as
        written, or once normalized)."""
        known = self._memo.get(text, _UNSEEN)
        if known is not _UNSEEN:
            return known
        out: list[int] | None = None
        if not any(token in text for token in self._added):
            normalized = self._normalize(text)
            if not any(token in normalized for token in self._added):
                out = []
                for piece, _ in self._pre_tokenize(normalized):
                    out.extend(self._viterbi(piece))
        if len(self._memo) >= MEMO_SIZE:
            self._memo.clear()
        self._memo[text] = out
        return out

    def _truncated(self, first: list[int], second: list[int], max_length: int) -> tuple[list[int], list[int]]:
        """``longest_first`` truncation of a pair to ``max_length`` with the template's tokens."""
        limit = max_length - self._n_added
        n1, n2 = len(first), len(second)
        if n1 + n2 <= limit:
            return first, second
        swap = n1 > n2
        if swap:
            n1, n2 = n2, n1
        n2 = n1 if n1 > limit else max(n1, limit - n1)
        if n1 + n2 > limit:
            n1 = limit // 2
            n2 = n1 + limit % 2
        if swap:
            n1, n2 = n2, n1
        return first[:n1], second[:n2]

    def _with_template(self, first: list[int], second: list[int]) -> list[int]:
        out: list[int] = []
        for item in self._pair:
            if item == "A":
                out.extend(first)
            elif item == "B":
                out.extend(second)
            else:
                out.append(item)
        return out

    def __call__(self, firsts: Sequence[str], seconds: Sequence[str], *, truncation: bool = True,
                 max_length: int = 512, return_token_type_ids: bool = False,
                 return_attention_mask: bool = False) -> dict[str, list[list[int]]]:
        """``{"input_ids": [...]}`` for each (first, second) pair, as ``tokenizers`` gives them."""
        rows: list[list[int]] = []
        for first, second in zip(firsts, seconds, strict=True):
            a, b = self.encode_one(first), self.encode_one(second)
            if a is None or b is None or (truncation and max_length <= self._n_added):
                rows.append(self._slow([first], [second], truncation, max_length)[0])
                continue
            if truncation:
                a, b = self._truncated(a, b, max_length)  # slices: the remembered lists stay whole
            rows.append(self._with_template(a, b))
        return {"input_ids": rows}

    def _slow(self, firsts: list[str], seconds: list[str], truncation: bool, max_length: int) -> list[list[int]]:
        if self._fallback is None:
            self._fallback = self._fallback_factory()
        return self._fallback(firsts, seconds, truncation=truncation, max_length=max_length)["input_ids"]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m validator.unigram``: write the table beside the configured base model's
    ``tokenizer.json`` unless a current one is there (the set-up runs it; a missing table is
    otherwise written by the first process that loads the tokenizer)."""
    import argparse

    from core.settings import load_settings

    argparse.ArgumentParser(description=main.__doc__).parse_args(argv)
    path = load_settings(os.environ).model_dir / "tokenizer.json"
    if not path.is_file():
        print(f"{path}: no such file (run: python -m validator.convert)")
        return 2
    if current_table(path) is not None or write_table(path) is not None:
        return 0
    print(f"{path}: no table written (another kind of tokenizer, or a read-only directory); tokenizers is used")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
