"""QALD-JSON, QALD-XML and NLPCC readers/writers: round trips and real-format samples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.errors import DatasetError
from evaluation.formats import (
    dataset_to_nlpcc,
    dataset_to_qald,
    dataset_to_xml,
    load_dataset,
    load_datasets,
    parse_nlpcc,
    parse_qald_json,
    parse_qald_xml,
    write_nlpcc,
    write_qald_json,
    write_qald_xml,
)

WD = "http://www.wikidata.org/entity/"
XSD = "http://www.w3.org/2001/XMLSchema#"

QALD_JSON = {
    "dataset": {"id": "tiny-test", "kg": "tiny"},
    "questions": [
        {
            "id": "1",
            "answertype": "resource",
            "aggregation": False,
            "onlydbo": True,
            "hybrid": False,
            "question": [
                {"language": "en", "string": "What is the capital of Germany?", "keywords": "capital, Germany"},
                {"language": "de", "string": "Was ist die Hauptstadt von Deutschland?"},
                {"language": "ru", "string": "Какая столица у Германии?", "note": "machine translation"},
            ],
            "query": {"sparql": "SELECT ?uri WHERE { wd:Q183 wdt:P36 ?uri }"},
            "answers": [{"head": {"vars": ["uri"]},
                         "results": {"bindings": [{"uri": {"type": "uri", "value": WD + "Q64"}}]}}],
            "source": "handmade",
            "kind": "answerable",
            "complexity": ["1-hop"],
        },
        {
            "id": "2",
            "answertype": "date",
            "question": [{"language": "en", "string": "When was Einstein born? <b>&amp;</b> ]]> tricky"}],
            "answers": [{"head": {"vars": ["d", "label"]}, "results": {"bindings": [
                {"d": {"type": "literal", "value": "1879-03-14T00:00:00Z", "datatype": XSD + "dateTime"},
                 "label": {"type": "literal", "value": "Альберт", "xml:lang": "ru"}},
                {"d": {"type": "literal", "value": "3644826", "datatype": XSD + "decimal"}},
            ]}}],
        },
        {
            "id": "3",
            "answertype": "boolean",
            "question": [{"language": "fr", "string": "Berlin est-elle en Allemagne ?"}],
            "query": {"sparql": "ASK { wd:Q64 wdt:P17 wd:Q183 }"},
            "answers": [{"head": {}, "boolean": True}],
        },
        {
            "id": "4",
            "question": [{"language": "en", "string": "What is the height of Ulm?"}],
            "answers": [{"head": {"vars": ["x"]}, "results": {"bindings": []}}],
            "kind": "unanswerable",
        },
        {"id": "5", "question": [{"language": "en", "string": "No gold given"}], "answers": []},
    ],
}


def test_qald_json_round_trip_is_identical(tmp_path: Path):
    ds = parse_qald_json(QALD_JSON)
    assert dataset_to_qald(ds) == QALD_JSON
    path = tmp_path / "d.json"
    write_qald_json(ds, path)
    assert json.loads(path.read_text(encoding="utf-8")) == QALD_JSON
    assert load_dataset(path) == ds


def test_qald_json_to_xml_and_back_is_lossless(tmp_path: Path):
    ds = parse_qald_json(QALD_JSON)
    path = tmp_path / "d.xml"
    write_qald_xml(ds, path)
    back = load_dataset(path)
    assert back == ds
    assert dataset_to_qald(back) == QALD_JSON
    text = path.read_text(encoding="utf-8")
    assert '<question id="1" answertype="resource" aggregation="false" onlydbo="true" hybrid="false">' in text
    assert '<string lang="de">' in text and '<keywords lang="en">' in text
    assert "<answer><boolean>true</boolean></answer>" in text


def test_xml_model_survives_second_trip():
    ds = parse_qald_json(QALD_JSON)
    once = dataset_to_xml(ds)
    assert dataset_to_xml(parse_qald_xml(once)) == once


QALD3_XML = """<?xml version="1.0" ?>
<dataset id="dbpedia-train">
<question aggregation="false" answertype="resource" id="4" onlydbo="true">
<string lang="en"><![CDATA[
Which river does the Brooklyn Bridge cross?
]]></string>
<string lang="de"><![CDATA[Welchen Fluss überspannt die Brooklyn Bridge?]]></string>
<keywords lang="en"><![CDATA[\x20
river, cross, Brooklyn Bridge
]]></keywords>
<query><![CDATA[PREFIX dbo: <http://dbpedia.org/ontology/>
SELECT DISTINCT ?uri WHERE { res:Brooklyn_Bridge dbo:crosses ?uri . }]]></query>
<answers>
<answer>
<uri>http://dbpedia.org/resource/East_River</uri>
</answer>
</answers>
</question>
<question aggregation="true" answertype="number" id="76" onlydbo="true">
<string lang="en"><![CDATA[How many films did Hal Roach produce?]]></string>
<query><![CDATA[SELECT COUNT(DISTINCT ?uri) WHERE { ?uri dbo:producer res:Hal_Roach . }]]></query>
<answers>
<answer>
<number>509</number>
</answer>
</answers>
</question>
<question aggregation="false" answertype="boolean" id="7" onlydbo="true">
<string lang="en"><![CDATA[Is the wife of president Obama called Michelle?]]></string>
<answers><answer><boolean>true</boolean></answer></answers>
</question>
</dataset>
"""


def test_reads_original_qald3_xml():
    ds = parse_qald_xml(QALD3_XML)
    assert ds.id == "dbpedia-train"
    q4, q76, q7 = ds.questions
    assert q4.flags == {"answertype": "resource", "aggregation": False, "onlydbo": True}
    assert q4.texts[0].string == "Which river does the Brooklyn Bridge cross?"
    assert q4.texts[0].keywords == "river, cross, Brooklyn Bridge"
    assert q4.texts[1].keywords is None
    assert q4.answers.vars == ["uri"]
    assert [t.value for t in q4.answers.values()] == ["http://dbpedia.org/resource/East_River"]
    assert q4.sparql.startswith("PREFIX dbo:")
    assert q76.answers.vars == ["uri"] and q76.answers.values()[0].value == "509"
    assert q76.answers.values()[0].kind == "literal"
    assert q7.answers.boolean is True
    assert q4.kind == "answerable"


NLPCC = (
    "<question id=1>\t《机械设计基础》这本书的作者是谁？\n"
    "<triple id=1>\t机械设计基础 ||| 作者 ||| 杨可桢，程光蕴，李仲生\n"
    "<answer id=1>\t杨可桢，程光蕴，李仲生\n"
    "==================================================\n"
    "<question id=2>\t谁是北京的市长?\n"
    "<answer id=2>\tA\tB\thttp://www.wikidata.org/entity/Q1\n"
    "==================================================\n"
)


def test_reads_nlpcc_and_writes_it_back_identically(tmp_path: Path):
    ds = parse_nlpcc(NLPCC)
    q1, q2 = ds.questions
    assert q1.id == "1" and q1.texts[0].language == "zh"
    assert q1.texts[0].string == "《机械设计基础》这本书的作者是谁？"
    assert q1.extra["triple"].startswith("机械设计基础 |||")
    assert [t.value for t in q2.answers.values()] == ["A", "B", "http://www.wikidata.org/entity/Q1"]
    assert [t.kind for t in q2.answers.values()] == ["literal", "literal", "uri"]
    assert dataset_to_nlpcc(ds) == NLPCC
    path = tmp_path / "d.nlpcc"
    write_nlpcc(ds, path)
    assert load_dataset(path) == ds


def test_qald_json_to_nlpcc_keeps_the_overlap():
    ds = parse_qald_json(QALD_JSON)
    back = parse_nlpcc(dataset_to_nlpcc(ds, lang="en"), lang="en")
    by_id = {q.id: q for q in back.questions}
    for q in ds.questions:
        text = q.text("en") or q.texts[0]
        assert by_id[q.id].texts[0].string == text.string
        if q.answers is not None and q.answers.boolean is None:
            assert [t.value for t in by_id[q.id].answers.values()] == [t.value for t in q.answers.values()]
    assert [t.value for t in by_id["3"].answers.values()] == ["true"]


def test_malformed_inputs_raise_dataset_error_naming_the_file(tmp_path: Path):
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{not json", encoding="utf-8")
    with pytest.raises(DatasetError, match="bad.json"):
        load_dataset(bad_json)
    bad_xml = tmp_path / "bad.xml"
    bad_xml.write_text("<dataset><question id='1'>", encoding="utf-8")
    with pytest.raises(DatasetError, match="malformed QALD-XML"):
        load_dataset(bad_xml)
    with pytest.raises(DatasetError, match="expected an object"):
        parse_qald_json([1, 2])
    with pytest.raises(DatasetError, match="line 1"):
        parse_nlpcc("just some text\n")
    with pytest.raises(DatasetError, match="entity"):
        parse_qald_xml('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "x">]><dataset/>')
    with pytest.raises(DatasetError, match="no-such"):
        load_dataset(tmp_path / "no-such.json")


def test_duplicate_ids_across_files_are_rejected(tmp_path: Path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    write_qald_json(parse_qald_json(QALD_JSON), a)
    write_qald_json(parse_qald_json(QALD_JSON), b)
    with pytest.raises(DatasetError, match="also appears"):
        load_datasets([a, b])
    assert [name for name, _ in load_datasets([a])] == ["a"]
