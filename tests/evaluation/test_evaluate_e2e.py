"""End-to-end ``evaluate`` runs over a KG built inside the test from the tiny graph.

The backend is the scripted :class:`backends.fake.FakeBackend` (and, for the CLI test, a
real QAnswer-compatible HTTP server on 127.0.0.1); the KG, pipeline, gate, metrics,
writers and plots are the real ones.  Every expected number below is computed by hand.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from backends.fake import FakeBackend
from core.errors import BackendUnavailable, CandidateRejected
from evaluation.formats import load_dataset, parse_qald_json, write_qald_json
from evaluation.harness import select_items
from evaluation.report import CONTRACT_KEYS, group_metrics
from evaluation.run import evaluate
from kg.build import build_kg
from kg.client import EmbeddedKG
from kg.store import open_store
from qa.candidate import Candidate
from qa.guard import check_query
from qa.pipeline import Pipeline, Validation
from tests.stages import Verbalize
from validator.gate import GatePolicy

WD = "http://www.wikidata.org/entity/"
XSD = "http://www.w3.org/2001/XMLSchema#"

WRONG_CAPITAL = "SELECT ?x WHERE { wd:Q64 wdt:P17 ?x }"  # Berlin's country: Germany
RIGHT_CAPITAL = "SELECT ?x WHERE { wd:Q183 wdt:P36 ?x }"  # Germany's capital: Berlin
EINSTEIN_BIRTH = "SELECT ?x WHERE { wd:Q937 wdt:P19 ?x }"
ULM_COUNTRY = "SELECT ?x WHERE { wd:Q3012 wdt:P17 ?x }"
BERLIN_IN_GERMANY = "ASK { wd:Q64 wdt:P17 wd:Q183 }"
PUSHKIN_BIRTHDAY = "SELECT ?x WHERE { wd:Q7200 wdt:P569 ?x }"
BERLIN_POPULATION = "SELECT ?x WHERE { wd:Q64 wdt:P1082 ?x }"

SCRIPT = {
    "What is the capital of Germany?": [WRONG_CAPITAL, RIGHT_CAPITAL],
    "Was ist die Hauptstadt von Deutschland?": [WRONG_CAPITAL, RIGHT_CAPITAL],
    "Where was Einstein born?": [EINSTEIN_BIRTH],
    "How tall is Ulm?": [ULM_COUNTRY],
    "Is Berlin in Germany?": [BERLIN_IN_GERMANY],
    "When was Pushkin born?": [PUSHKIN_BIRTHDAY],
    "How many people live in Berlin?": [BERLIN_POPULATION],
}
#: the scripted validator accepts these candidates and rejects every other one
ACCEPTED = {RIGHT_CAPITAL, EINSTEIN_BIRTH, BERLIN_IN_GERMANY, PUSHKIN_BIRTHDAY, BERLIN_POPULATION}


def _uri(qid: str) -> dict:
    return {"head": {"vars": ["x"]}, "results": {"bindings": [{"x": {"type": "uri", "value": WD + qid}}]}}


def _lit(value: str, dtype: str) -> dict:
    return {"head": {"vars": ["x"]},
            "results": {"bindings": [{"x": {"type": "literal", "value": value, "datatype": XSD + dtype}}]}}


def _q(qid: str, strings: Sequence[tuple[str, str]], answers: dict, kind: str = "answerable", **extra) -> dict:
    return {"id": qid, "question": [{"language": lang, "string": s} for lang, s in strings],
            "answers": [answers], "kind": kind, "source": "tiny", **extra}


DATASET = {
    "dataset": {"id": "tiny-e2e"},
    "questions": [
        _q("t:1", [("en", "What is the capital of Germany?"), ("de", "Was ist die Hauptstadt von Deutschland?")],
           _uri("Q64"), complexity=["1-hop"]),
        _q("t:2", [("en", "Where was Einstein born?")], _uri("Q3012")),
        _q("t:3", [("en", "How tall is Ulm?")], {"head": {"vars": ["x"]}, "results": {"bindings": []}},
           kind="unanswerable"),
        _q("t:4", [("en", "Is Berlin in Germany?")], {"head": {}, "boolean": True}),
        # gold in another lexical form than the KG's 1799-06-06T00:00:00Z dateTime
        _q("t:5", [("en", "When was Pushkin born?")], _lit("1799-06-06", "date")),
        _q("t:6", [("en", "Backend down?")], _uri("Q1")),
        _q("t:7", [("en", "Backend bug?")], _uri("Q1")),
        # gold integer vs the KG's decimal
        _q("t:8", [("en", "How many people live in Berlin?")], _lit("3644826", "integer")),
    ],
}


def _handler(question: str, lang: str) -> list[Candidate]:
    if question == "Backend down?":
        raise BackendUnavailable("scripted outage")
    if question == "Backend bug?":
        raise RuntimeError("scripted bug")
    return [Candidate(s, 1.0 - 0.1 * i) for i, s in enumerate(SCRIPT.get(question, []))]


def _as_written(sparql: str, lang: str) -> str:
    """The candidate as the backend wrote it (the allow-list writes each out again from its
    checked structure, with a LIMIT where it had none)."""
    written = {}
    for script in SCRIPT.values():
        for original in script:
            try:
                written[check_query(original)] = original
            except CandidateRejected:
                continue
    return written.get(sparql, sparql)


class ScriptedScorer:
    """Stands in for the cross-encoder (helper C builds the real one)."""

    def predict(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        return [0.9 if verbalization in ACCEPTED else 0.1 for _, verbalization in pairs]


@pytest.fixture
def tiny_built_kg(tiny_nt: Path, tmp_path: Path) -> EmbeddedKG:
    paths = build_kg(tiny_nt, tmp_path / "cache", progress=False)
    return EmbeddedKG(open_store(paths))


@pytest.fixture
def dataset_file(tmp_path: Path) -> Path:
    path = tmp_path / "tiny-e2e.json"
    write_qald_json(parse_qald_json(DATASET), path)
    return path


def test_evaluate_compare_validator_end_to_end(tiny_built_kg: EmbeddedKG, dataset_file: Path, tmp_path: Path):
    pipeline = Pipeline(FakeBackend(_handler), tiny_built_kg,
                        validation=Validation(Verbalize(_as_written), ScriptedScorer(), GatePolicy()), threshold=0.5)
    items = select_items([("tiny-e2e", load_dataset(dataset_file))], lang="all")
    assert len(items) == 9  # t:1 in en and de, seven more in en
    out = tmp_path / "out"
    metrics = evaluate(pipeline, items, out, mode="compare", progress=False, config={"datasets": ["tiny"]})

    # -- with validator: 6 correct, 0 wrong, 3 abstained (t:3 rejected, t:6/t:7 failed)
    assert (metrics["n"], metrics["correct"], metrics["wrong"], metrics["abstained"]) == (9, 6, 0, 3)
    assert metrics["ats"] == pytest.approx(6 / 9, abs=1e-6)
    # macro P(QALD) = 1 (abstentions count P = 1), macro R = 7/9 -> F = 14/16
    assert metrics["macro_precision_qald"] == pytest.approx(1.0)
    assert metrics["macro_recall"] == pytest.approx(7 / 9, abs=1e-6)
    assert metrics["macro_f1_qald"] == pytest.approx(0.875, abs=1e-6)
    # ranking (after validation) over the 6 answerable, non-failed items: every first kept candidate is right
    assert metrics["ranked_n"] == 6
    assert metrics["precision_at_k"]["1"] == pytest.approx(1.0)
    assert metrics["mrr"] == pytest.approx(1.0)
    before = metrics["ranking"]["before_validation"]
    assert before["precision_at_k"]["1"] == pytest.approx(4 / 6, abs=1e-6)
    assert before["mrr"] == pytest.approx((0.5 + 0.5 + 4) / 6, abs=1e-6)
    assert before["ndcg_at_k"]["10"] == pytest.approx((2 * 0.6309298 + 4) / 6, abs=1e-6)
    assert metrics["ranking"]["list"] == "after_validation"
    assert {f["id"] for f in metrics["failures"]} == {"t:6", "t:7"}
    assert {f["status"] for f in metrics["failures"]} == {"service_error", "exception"}

    # -- without validator: t:1 (en, de) and t:3 become wrong answers
    off = metrics["without_validator"]
    assert (off["correct"], off["wrong"], off["abstained"]) == (4, 3, 2)
    assert off["ats"] == pytest.approx(1 / 9, abs=1e-6)
    assert off["macro_f1_qald"] == pytest.approx(48 / 90, abs=1e-6)
    assert off["precision_at_k"]["1"] == pytest.approx(4 / 6, abs=1e-6)
    assert off["ranking"]["after_validation"] is None

    # -- groups and contract keys
    for block in (metrics, off, *metrics["per_language"].values(), *metrics["per_kind"].values()):
        assert set(CONTRACT_KEYS) <= set(block)
        assert set(block["precision_at_k"]) == set(block["ndcg_at_k"]) == {"1", "3", "5", "10"}
        assert set(block["latency_ms"]) == {"p50", "p95"}
    assert set(metrics["per_language"]) == {"en", "de"}
    assert metrics["per_language"]["de"]["correct"] == 1
    assert metrics["per_kind"]["unanswerable"]["n"] == 1
    assert metrics["per_kind"]["unanswerable"]["macro_f1_qald"] == pytest.approx(1.0)  # abstained: 1/1/1
    assert metrics["per_kind"]["unanswerable"]["precision_at_k"]["1"] is None  # undefined, not zero
    assert off["per_kind"]["unanswerable"]["wrong"] == 1
    assert metrics["per_complexity"]["1-hop"]["n"] == 2
    empty = group_metrics([])
    assert empty["n"] == 0 and empty["ats"] is None and empty["macro_f1_qald"] is None
    assert metrics["config"]["mode"] == "compare" and metrics["config"]["validator"] == "on"

    # -- files
    on_disk = json.loads((out / "metrics.json").read_text(encoding="utf-8"))
    assert on_disk["macro_f1_qald"] == metrics["macro_f1_qald"]
    for name in ("answers.en.json", "answers.de.json", "answers.en.no_validator.json", "report.md",
                 "ranking.png", "ats_by_language.png", "items.jsonl"):
        assert (out / name).is_file(), name
    assert (out / "ranking.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    answers = {q.id: q for q in load_dataset(out / "answers.en.json").questions}
    assert set(answers) == {f"t:{i}" for i in range(1, 9)}
    assert [t.value for t in answers["t:1"].answers.values()] == [WD + "Q64"]
    assert answers["t:1"].sparql == check_query(RIGHT_CAPITAL)  # what ran (written by the allow-list, LIMIT added)
    assert answers["t:4"].answers.boolean is True
    assert answers["t:3"].answers.is_empty() and answers["t:6"].answers.is_empty()
    assert answers["t:5"].answers.values()[0].value == "1799-06-06T00:00:00Z"
    off_answers = {q.id: q for q in load_dataset(out / "answers.en.no_validator.json").questions}
    assert [t.value for t in off_answers["t:1"].answers.values()] == [WD + "Q183"]
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "![P@k and NDCG@k before and after validation](ranking.png)" in report
    assert "![ATS by language](ats_by_language.png)" in report
    assert "scripted bug" in report and "scripted outage" in report
    assert "| Macro F1 QALD | 0.875 | 0.533 |" in report


def test_select_items_modes_and_split(dataset_file: Path):
    datasets = [("tiny", load_dataset(dataset_file))]
    assert [i.lang for i in select_items(datasets)] == ["en"] * 8
    assert [i.id for i in select_items(datasets, lang="de")] == ["t:1"]
    sample = [i.id for i in select_items(datasets, limit=3)]
    assert len(sample) == 3 and sample == [i.id for i in select_items(datasets, limit=3)]  # deterministic
    order = [q["id"] for q in DATASET["questions"]]
    assert sample == sorted(sample, key=order.index)  # file order kept
    assert sample != order[:3]  # a spread sample, not the head of the file
    assert len(select_items(datasets, lang="all", limit=1)) == 2  # limit counts questions, not strings
    from evaluation.splits import split_of

    for split in ("train", "dev", "test"):
        chosen = select_items(datasets, split=split)
        assert all(split_of(i.id) == split for i in chosen)
    assert sum(len(select_items(datasets, split=s)) for s in ("train", "dev", "test")) == 8
    with pytest.raises(ValueError):
        select_items(datasets, split="valid")


# -- the CLI, with a real QAnswer-compatible HTTP server as backend ----------------------


class _QAnswerHandler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        query = parse_qs(urlparse(self.path).query)
        question = query.get("question", [""])[0]
        if question == "Backend down?":
            self.send_response(503)
            self.end_headers()
            return
        body = json.dumps({"question": question, "queries": [
            {"query": s, "confidence": 1.0 - 0.1 * i, "kb": "wikidata"}
            for i, s in enumerate(SCRIPT.get(question, []))]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def qanswer_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _QAnswerHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_cli_evaluate_end_to_end(tiny_nt: Path, dataset_file: Path, tmp_path: Path, qanswer_url: str,
                                 capsys: pytest.CaptureFixture[str]):
    from cli.main import main

    out = tmp_path / "cli-out"
    common = ["--backend", "qanswer", "--qanswer-url", qanswer_url, "--kg-source", str(tiny_nt),
              "--cache-dir", str(tmp_path / "cache"), "--timeout", "3", "--quiet"]
    rc = main(["evaluate", str(dataset_file), "--no-validator", "--out", str(out), *common])
    assert rc == 0
    metrics = json.loads((out / "metrics.json").read_text(encoding="utf-8"))
    # no validator, first strings: t:1 and t:3 wrong; t:6 (503) and t:7 (no candidates) abstain
    assert (metrics["n"], metrics["correct"], metrics["wrong"], metrics["abstained"]) == (8, 4, 2, 2)
    assert metrics["ats"] == pytest.approx(2 / 8)
    assert metrics["config"]["validator"] == "off" and metrics["config"]["backend"] == "qanswer"
    assert [f["id"] for f in metrics["failures"]] == ["t:6"]
    printed = capsys.readouterr().out
    assert "| ATS | 0.250 |" in printed
    assert (out / "answers.en.json").is_file() and (out / "report.md").is_file()


def test_cli_evaluate_rejects_a_malformed_dataset(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    from cli.main import main

    bad = tmp_path / "broken.json"
    bad.write_text('{"questions": 3}', encoding="utf-8")
    assert main(["evaluate", str(bad), "--out", str(tmp_path / "o")]) == 2
    assert "broken.json" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_truncated_display_is_scored_on_the_full_answer_set(tmp_path: Path):
    """The chat shows at most MAX_ANSWERS values; scoring re-runs the shown query for all of them."""
    from evaluation.harness import evaluate_item
    from qa.pipeline import MAX_ANSWERS
    from tests import tiny_kg

    many = [f"Q{1_000_000 + i}" for i in range(MAX_ANSWERS + 50)]
    extra = "".join(f"<{WD}{q}> <http://www.wikidata.org/prop/direct/P17> <{WD}Q183> .\n" for q in many)
    source = tmp_path / "many.nt"
    source.write_text(tiny_kg.ntriples() + extra, encoding="utf-8")
    kg = EmbeddedKG(open_store(build_kg(source, tmp_path / "cache", progress=False)))
    sparql = "SELECT ?x WHERE { ?x wdt:P17 wd:Q183 }"
    pipeline = Pipeline(FakeBackend({"What is in Germany?": [Candidate(sparql, 1.0)]}), kg)
    gold_ids = [*many, "Q64", "Q3012"]  # plus Berlin and Ulm from the tiny graph
    data = _q("m:1", [("en", "What is in Germany?")], {"head": {"vars": ["x"]}, "results": {"bindings": [
        {"x": {"type": "uri", "value": WD + q}} for q in gold_ids]}})
    item = select_items([("m", parse_qald_json({"questions": [data]}))])[0]
    result = evaluate_item(pipeline, item, use_validator=False)
    assert result.correct and result.ats == 1
    assert len(result.system.values()) == len(gold_ids) > MAX_ANSWERS
    # with one gold value missing, the full set no longer matches
    data["answers"][0]["results"]["bindings"].pop()
    item = select_items([("m", parse_qald_json({"questions": [data]}))])[0]
    result = evaluate_item(pipeline, item, use_validator=False)
    assert not result.correct and result.ats == -1
    assert result.qald.precision == pytest.approx((len(gold_ids) - 1) / len(gold_ids))
