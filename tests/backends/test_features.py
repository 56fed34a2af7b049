"""Ranking features (:mod:`backends.local.features`) on hand-made candidate graphs."""

from __future__ import annotations

import pytest

from backends.local.features import (
    Generated,
    Question,
    add,
    anchor_class_words,
    base_features,
    explained_spans,
    rank,
    relative_features,
)
from backends.local.linking import Mention
from backends.local.properties import PropertyMatch, PropertyText
from backends.local.ranker import Ranker
from backends.local.reads import Adjacent, TypeModel
from backends.local.shapes import backward, forward
from core.text import tokenize
from kg.labels import LabelIndex
from qa.candidate import Link
from qa.reading.lexicon import default_lexicon


def _graph(triples, anchor: str, link: float, prop: float, explained: float, **extra: float) -> Generated:
    feats = {"link_score": link, "prop_score": prop, "explained": explained, **extra}
    return Generated(triples, "fwd", feats, anchor=anchor)


def test_relative_features_compare_each_graph_with_the_best_of_the_question():
    a = _graph(forward("Q937", "P19"), "Q937", 0.9, 0.8, 0.9)
    b = _graph(forward("Q937", "P27"), "Q937", 0.9, 0.2, 0.5)
    c = _graph(backward("Q64", "P19"), "Q64", 0.6, 0.5, 0.6)
    relative_features([a, b, c])
    assert (a.features["link_gap"], a.features["prop_gap"], a.features["explained_gap"]) == (0.0, 0.0, 0.0)
    assert b.features["prop_gap"] == pytest.approx(0.6) and b.features["prop_gap_anchor"] == pytest.approx(0.6)
    assert c.features["link_gap"] == pytest.approx(0.3)
    assert c.features["prop_gap"] == pytest.approx(0.3) and c.features["prop_gap_anchor"] == 0.0  # best at its anchor
    relative_features([])  # nothing to compare: nothing happens


def test_the_same_graph_is_kept_once_from_its_best_link():
    cands: dict[str, Generated] = {}
    weak = _graph(forward("Q937", "P19"), "Q937", 0.4, 0.8, 0.9)
    strong = _graph(forward("Q937", "P19"), "Q937", 0.9, 0.8, 0.9)
    for g in (weak, strong, weak):
        add(cands, g)
    assert list(cands.values()) == [strong]


def test_rank_scores_each_graph_by_the_ranker_rounded():
    ranker = Ranker.heuristic()
    good = _graph(forward("Q937", "P19"), "Q937", 1.0, 1.0, 1.0)
    poor = _graph(forward("Q937", "P27"), "Q937", 0.3, 0.0, 0.2)
    rank(ranker, [good, poor])
    assert good.score == round(ranker.score(good.features), 6) and good.score > poor.score


def test_base_features_say_how_the_link_property_and_answer_type_fit(index: LabelIndex):
    props = PropertyText(index.property_labels(), default_lexicon())
    types = TypeModel(index.property_classes(), props.answer_types)
    tokens = tokenize("Where was Albert Einstein born?")
    m = Mention(2, 4, "albert einstein", "Q937", 0.9, 1.0, 0.7, False, 2, False, 12, 0, 0.6, kind="label")
    q = Question("Where was Albert Einstein born?", "en", tokens, "place", [m], content_chars=20,
                 anchor_types={"Q937": "person"})
    pm = PropertyMatch(score=0.9, lexicon=0.9, chars=4, words=frozenset({"born"}))
    feats = base_features(q, m, 0, pm, Adjacent("P19", True, 1, "uri"), types, props)
    assert feats["pid=P19"] == 1.0 and feats["forward"] == 1.0 and feats["link_rank"] == 1.0
    assert feats["explained"] == pytest.approx(0.6 + 4 / 20) and feats["prop_score"] == 0.9
    assert feats["rest_matched"] == 1.0  # "born" is the one content word outside the name
    backwards = base_features(q, m, 1, PropertyMatch(), Adjacent("P19", False, 3, "uri"), types, props)
    assert backwards["prop_none"] == 1.0 and backwards["link_rank"] == 0.5 and backwards["single_answer"] == 0.0


def test_a_class_noun_typed_right_before_the_name_is_read_by_the_name(index: LabelIndex):
    props = PropertyText(index.property_labels(), default_lexicon())
    types = TypeModel(index.property_classes(), props.answer_types)
    text = "Who directed the movie Titanic?"
    m = Mention(4, 5, "titanic", "Q44578", 0.9, 1.0, 0.7, False, 1, False, 12, 0, 0.35, kind="label")
    q = Question(text, "en", tokenize(text), "person", [m], content_chars=20, type_words={"Q44578": frozenset({3})})
    pm = PropertyMatch(score=0.9, lexicon=0.9, chars=8, words=frozenset({"directed"}))
    assert anchor_class_words(q, m) == [3]
    feats = base_features(q, m, 0, pm, Adjacent("P57", True, 1, "uri"), types, props)
    assert feats["explained"] == pytest.approx(0.35 + (8 + 5) / 20) and feats["rest_matched"] == 1.0
    q.type_words = {}  # "movie" no class of the entity: a word the property's phrase leaves unread
    feats = base_features(q, m, 0, pm, Adjacent("P57", True, 1, "uri"), types, props)
    assert anchor_class_words(q, m) == [] and feats["rest_matched"] == 0.5
    assert feats["explained"] == pytest.approx(0.35 + 8 / 20)


def test_a_graph_explains_its_entities_its_property_words_and_its_class_noun():
    link = Link("Q937", "albert einstein", "Albert Einstein", "label", 0.9, span=(2, 4))
    forms = ["where", "was", "albert", "einstein", "born"]
    assert explained_spans([link], frozenset({"born"}), forms) == ((2, 4, "entity"), (4, 5, "property"))
    assert explained_spans([link], frozenset({"albert"}), forms) == ((2, 4, "entity"),)  # inside the name
    assert explained_spans([link], frozenset(), forms, class_span=(0, 1), typed=[1]) == (
        (0, 1, "class"), (1, 2, "class"), (2, 4, "entity"))
