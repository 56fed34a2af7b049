"""The Python Unigram tokenizer (validator.unigram) gives ``tokenizers``' ids, from its table."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from core.errors import ModelLoadError
from core.settings import DEFAULT_BENCH_DIR, Settings
from validator.tokenize import TOKENIZER_FILE, PairTokenizer
from validator.unigram import TABLE_FILE, UnigramPairTokenizer, table_from_json

TEXTS = ["what is the capital of germany", "who", "einstein born ulm", "Wo wurde Albert Einstein geboren?",
         "Какая столица у России?", "法国的首都是哪里？", "日本の首都はどこですか？", "¿Dónde nació Pablo Picasso?",
         "  two  spaces\tand a tab ", "ＦＵＬＬＷＩＤＴＨ ｶﾀｶﾅ ①", "", "émoji 🤖 and ☃", "x" * 300,
         "Qui a écrit « Les Misérables » ?", "<mask> is born in ulm", "who </s> wrote it"]


def _pairs() -> tuple[list[str], list[str]]:
    return TEXTS, TEXTS[1:] + TEXTS[:1]


@pytest.fixture
def base(tiny_base, tmp_path) -> Path:
    """A writable copy of the tiny base model's tokenizer files."""
    out = tmp_path / "base"
    out.mkdir()
    for name in ("tokenizer.json", "config.json"):
        shutil.copy(tiny_base / name, out / name)
    return out


def test_the_first_load_writes_the_table_and_the_next_gives_the_same_ids(base):
    first = PairTokenizer.load(base)
    assert isinstance(first, PairTokenizer)
    assert (base / TABLE_FILE).is_file()
    second = PairTokenizer.load(base)
    assert isinstance(second, UnigramPairTokenizer)
    assert second.pad_token_id == first.pad_token_id
    firsts, seconds = _pairs()
    for max_length in (512, 32, 12, 7):
        assert second(firsts, seconds, max_length=max_length)["input_ids"] == first(
            firsts, seconds, max_length=max_length)["input_ids"], max_length
    assert second(firsts, seconds, truncation=False)["input_ids"] == first(
        firsts, seconds, truncation=False)["input_ids"]
    assert second._fallback is not None  # the added tokens (<mask>, </s>) went to tokenizers


def test_a_stale_or_broken_table_falls_back_and_is_written_again(base):
    PairTokenizer.load(base)
    table = base / TABLE_FILE
    written = table.read_bytes()
    stat = (base / TOKENIZER_FILE).stat()
    os.utime(base / TOKENIZER_FILE, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # tokenizer.json rewritten
    assert isinstance(PairTokenizer.load(base), PairTokenizer)
    assert isinstance(PairTokenizer.load(base), UnigramPairTokenizer)
    table.write_bytes(written[:100])
    assert isinstance(PairTokenizer.load(base), PairTokenizer)
    assert isinstance(PairTokenizer.load(base), UnigramPairTokenizer)


def test_a_missing_tokenizer_json_is_named_even_with_a_table(base):
    PairTokenizer.load(base)
    (base / TOKENIZER_FILE).unlink()
    with pytest.raises(ModelLoadError) as caught:
        PairTokenizer.load(base)
    assert TOKENIZER_FILE in str(caught.value)


def test_the_real_model_gives_identical_ids_on_a_sample_of_bench_strings():
    path = Settings().model_dir / TOKENIZER_FILE
    if not path.is_file() or not DEFAULT_BENCH_DIR.is_dir():
        pytest.skip("base model not built (python -m validator.convert) or no bench files")
    slow = PairTokenizer.load_file(path)
    fast = UnigramPairTokenizer(table_from_json(json.loads(path.read_text(encoding="utf-8"))), lambda: slow)
    strings = []
    for bench in sorted(DEFAULT_BENCH_DIR.glob("*.json")):
        questions = json.loads(bench.read_text(encoding="utf-8"))["questions"]
        strings += [e["string"] for q in questions[::12] for e in q["question"] if e.get("string")]
    strings += [*TEXTS, "Albert Einstein place of birth ?answer", "巴拉克·奥巴马 配偶 ?answer",
                "?answer проходит через Париж"]
    seconds = strings[1:] + strings[:1]
    assert len(strings) > 300
    for max_length in (80, 20):
        assert fast(strings, seconds, max_length=max_length)["input_ids"] == slow(
            strings, seconds, max_length=max_length)["input_ids"]
