"""Fixtures of the local generator's tests: the tiny KG's label index and a backend over it."""

from __future__ import annotations

from pathlib import Path

import pytest

from backends.local.generator import LocalBackend
from kg.client import EmbeddedKG
from kg.labels import LabelIndex, build_label_index
from qa.reading.lexicon import default_lexicon


@pytest.fixture
def index(tiny_store, tmp_path: Path) -> LabelIndex:
    """The label index of the tiny KG."""
    build_label_index(tiny_store, tmp_path / "labels")
    return LabelIndex.open(tmp_path / "labels")


@pytest.fixture
def backend(tiny_kg_client: EmbeddedKG, index: LabelIndex) -> LocalBackend:
    """The local backend over the tiny KG, with the shipped lexicon and ranker."""
    return LocalBackend(tiny_kg_client, index, lexicon=default_lexicon())


@pytest.fixture
def populated_kg(tiny_store) -> EmbeddedKG:
    """The tiny KG with a population for every city (superlatives need full coverage)."""
    import pyoxigraph as ox

    from tests.tiny_kg import BEIJING, P1082, XSD, XSS
    from tests.tiny_kg import ULM as ULM_NODE

    for node, value in ((BEIJING, "21542000"), (ULM_NODE, "126329"), (XSS, "1")):
        tiny_store.add(ox.Quad(node, P1082, ox.Literal(value, datatype=ox.NamedNode(XSD + "decimal"))))
    return EmbeddedKG(tiny_store)
