"""A QALD-JSON bench over the tiny KG and a one-hop fake backend, for data/build tests.

Questions are generated from the tiny graph's facts ("<property> of <entity>?") in
English, Russian and Chinese, plus unanswerable ones (a fact the graph lacks).  The fake
backend links every entity label found in the question and proposes one-hop queries
over a fixed list of properties (so most candidates are wrong, a few are right).
"""

from __future__ import annotations

import json
from pathlib import Path

from backends.fake import FakeBackend
from qa.candidate import Candidate
from tests import tiny_kg

PROPS = ("P36", "P17", "P19", "P31", "P27", "P20", "P106")
_TEMPLATES = {"en": "What is the {p} of {e}?", "ru": "{p} {e}?", "zh": "{e}的{p}是什么？"}


def _label(node, lang: str) -> str:
    return tiny_kg.LABELS[node].get(lang, tiny_kg.LABELS[node]["en"])[0]


def _qid(node) -> str:
    return node.value.rsplit("/", 1)[1]


def questions() -> list[dict]:
    """QALD-JSON questions with gold answers computed from the tiny facts."""
    entity_facts: dict[tuple[str, str], list[str]] = {}
    for s, p, o in tiny_kg.FACTS:
        pid = p.value.rsplit("/", 1)[1]
        if pid in PROPS and hasattr(o, "value") and o.value.startswith(tiny_kg.WD) and s in tiny_kg.LABELS:
            entity_facts.setdefault((_qid(s), pid), []).append(_qid(o))
    subjects = {_qid(s): s for s, _, _ in tiny_kg.FACTS if s in tiny_kg.LABELS and s != tiny_kg.XSS}
    out = []
    n = 0
    for qid, node in sorted(subjects.items()):
        for pid in PROPS:
            gold = entity_facts.get((qid, pid))
            if pid in ("P31",) or (gold is None and pid not in ("P20", "P36")):
                continue
            prop = tiny_kg.p(pid)
            texts = [{"language": lang, "string": t.format(p=_label(prop, lang), e=_label(node, lang))}
                     for lang, t in _TEMPLATES.items()]
            bindings = [{"x": {"type": "uri", "value": tiny_kg.WD + a}} for a in sorted(gold or [])]
            out.append({"id": f"tiny:{n}", "question": texts,
                        "answers": [{"head": {"vars": ["x"]}, "results": {"bindings": bindings}}],
                        "kind": "answerable" if gold else "unanswerable"})
            n += 1
    return out


def write_bench(path: Path) -> Path:
    """The tiny bench as a QALD-JSON file."""
    path.write_text(json.dumps({"dataset": {"id": "tiny"}, "questions": questions()}, ensure_ascii=False),
                    encoding="utf-8")
    return path


def one_hop_backend() -> FakeBackend:
    """Links labels found in the question; proposes ``wd:E wdt:P ?x`` for each property."""

    def handler(question: str, lang: str) -> list[Candidate]:
        linked = []
        for node, langs in tiny_kg.LABELS.items():
            if not node.value.startswith(tiny_kg.WD) or node == tiny_kg.XSS:
                continue
            names = [n for names in langs.values() for n in names]
            if any(n in question for n in names):
                linked.append(_qid(node))
        cands = [f"SELECT DISTINCT ?x WHERE {{ wd:{e} wdt:{p} ?x . }}" for e in sorted(linked) for p in PROPS]
        return [Candidate(s, round(1.0 / (i + 1), 4)) for i, s in enumerate(cands)]

    return FakeBackend(handler)
