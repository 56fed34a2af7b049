"""Benchmark formats: QALD-JSON, QALD-XML (QALD-3 layout) and NLPCC 2017 KBQA.

All three read into and write from one model (:class:`Dataset` of :class:`Question`).
Round trips are lossless where the formats overlap:

* QALD-JSON <-> QALD-XML: ids, question strings per language (+ keywords and string-level
  extras such as ``note``), the query, answers (URIs, literals with datatype or language,
  booleans, variable names), ``answertype``/``aggregation``/``onlydbo``/``hybrid``, and
  every other field (``kind``, ``source``, ``complexity``, …) through a ``<metadata>``
  element holding JSON.  Datatype, language and variable of an XML answer value travel as
  attributes that plain QALD-3 readers ignore.
* QALD-JSON <-> NLPCC: id, one question string, answer values (IRIs and plain strings).

QALD-JSON question ids are kept as strings.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import DatasetError
from kg.client import Term
from kg.sparql import XSD

QALD_FLAGS = ("answertype", "aggregation", "onlydbo", "hybrid")
_NUMERIC = {"integer", "decimal", "double", "float", "int", "long", "short", "nonNegativeInteger",
            "positiveInteger", "negativeInteger", "nonPositiveInteger", "unsignedInt", "unsignedLong"}
_DATES = {"date", "dateTime", "gYear", "gYearMonth"}
_QUERY_TAGS = ("query", "pseudoquery", "pseudo")


@dataclass
class QuestionText:
    """One language version of a question."""

    language: str
    string: str
    keywords: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class AnswerSet:
    """A question's answers: SPARQL SELECT bindings, or an ASK ``boolean``."""

    vars: list[str] = field(default_factory=list)
    rows: list[dict[str, Term]] = field(default_factory=list)
    boolean: bool | None = None

    def values(self) -> list[Term]:
        """Every bound value, row by row, in variable order."""
        return [row[v] for row in self.rows for v in self.vars if v in row]

    def is_empty(self) -> bool:
        """True for a SELECT with no values (a boolean answer is never empty)."""
        return self.boolean is None and not self.values()

    def to_qald(self) -> dict[str, Any]:
        """The QALD-JSON ``answers`` element (SPARQL 1.1 JSON results)."""
        if self.boolean is not None:
            return {"head": {}, "boolean": self.boolean}
        return {"head": {"vars": list(self.vars)},
                "results": {"bindings": [{k: t.to_json() for k, t in row.items()} for row in self.rows]}}

    @classmethod
    def from_qald(cls, data: dict[str, Any]) -> AnswerSet:
        """Parse one QALD-JSON ``answers`` element."""
        if "boolean" in data:
            return cls(boolean=_as_bool(data["boolean"]))
        bindings = (data.get("results") or {}).get("bindings") or []
        rows = [{k: Term.from_json(v) for k, v in b.items()} for b in bindings]
        names = list((data.get("head") or {}).get("vars") or [])
        for row in rows:
            names.extend(k for k in row if k not in names)
        return cls(vars=names, rows=rows)

    @classmethod
    def of_terms(cls, terms: Iterable[Term], var: str = "result") -> AnswerSet:
        """A one-variable answer set."""
        return cls(vars=[var], rows=[{var: t} for t in terms])


@dataclass
class Question:
    """One benchmark question; ``answers`` is ``None`` when the file gives no gold."""

    id: str
    texts: list[QuestionText]
    query: dict[str, str] = field(default_factory=dict)
    answers: AnswerSet | None = None
    flags: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def sparql(self) -> str | None:
        """The gold SPARQL, if any."""
        return self.query.get("sparql")

    def text(self, lang: str) -> QuestionText | None:
        """The first string in ``lang``."""
        return next((t for t in self.texts if t.language == lang), None)

    @property
    def kind(self) -> str:
        """``answerable``/``unanswerable``: the ``kind`` field, else from the gold."""
        kind = self.extra.get("kind")
        if isinstance(kind, str) and kind:
            return kind
        return "unanswerable" if self.answers is None or self.answers.is_empty() else "answerable"

    @property
    def source(self) -> str | None:
        """The ``source`` field, if any."""
        value = self.extra.get("source")
        return str(value) if value is not None else None

    @property
    def complexity(self) -> list[str]:
        """The ``complexity`` tags (a list, possibly empty)."""
        value = self.extra.get("complexity")
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []


@dataclass
class Dataset:
    """A benchmark file's content."""

    id: str | None
    questions: list[Question]
    extra: dict[str, Any] = field(default_factory=dict)


def _as_bool(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() == "true"
    return bool(value)


# -- QALD-JSON -----------------------------------------------------------------------


def question_from_qald(data: dict[str, Any]) -> Question:
    """Parse one QALD-JSON question object."""
    if "id" not in data:
        raise DatasetError("QALD-JSON question without an id")
    texts = []
    for entry in data.get("question") or []:
        extra = {k: v for k, v in entry.items() if k not in ("language", "string", "keywords")}
        texts.append(QuestionText(entry.get("language") or "en", entry.get("string") or "",
                                  entry.get("keywords"), extra))
    answers = None
    raw_answers = data.get("answers")
    if isinstance(raw_answers, dict):
        raw_answers = [raw_answers]
    if raw_answers:
        parts = [AnswerSet.from_qald(a) for a in raw_answers]
        answers = parts[0]
        for extra_part in parts[1:]:
            answers.rows.extend(extra_part.rows)
            answers.vars.extend(v for v in extra_part.vars if v not in answers.vars)
    elif isinstance(raw_answers, list):
        answers = AnswerSet()
    skip = {"id", "question", "query", "answers", *QALD_FLAGS}
    return Question(
        id=str(data["id"]),
        texts=texts,
        query={k: str(v) for k, v in (data.get("query") or {}).items()},
        answers=answers,
        flags={k: data[k] for k in QALD_FLAGS if k in data},
        extra={k: v for k, v in data.items() if k not in skip},
    )


def question_to_qald(q: Question) -> dict[str, Any]:
    """One QALD-JSON question object."""
    out: dict[str, Any] = {"id": q.id}
    out.update(q.flags)
    strings = []
    for t in q.texts:
        entry: dict[str, Any] = {"language": t.language, "string": t.string}
        if t.keywords is not None:
            entry["keywords"] = t.keywords
        entry.update(t.extra)
        strings.append(entry)
    out["question"] = strings
    if q.query:
        out["query"] = dict(q.query)
    if q.answers is not None:
        out["answers"] = [q.answers.to_qald()] if not q.answers.is_empty() or q.answers.vars else []
    out.update(q.extra)
    return out


def parse_qald_json(data: Any) -> Dataset:
    """A :class:`Dataset` from parsed QALD-JSON."""
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        raise DatasetError("not QALD-JSON: expected an object with a 'questions' list")
    header = data.get("dataset") or {}
    return Dataset(
        id=header.get("id"),
        questions=[question_from_qald(q) for q in data["questions"]],
        extra={k: v for k, v in header.items() if k != "id"},
    )


def dataset_to_qald(dataset: Dataset) -> dict[str, Any]:
    """The QALD-JSON object of a dataset."""
    header: dict[str, Any] = {}
    if dataset.id is not None:
        header["id"] = dataset.id
    header.update(dataset.extra)
    return {"dataset": header, "questions": [question_to_qald(q) for q in dataset.questions]}


def write_qald_json(dataset: Dataset, path: Path) -> None:
    """Write QALD-JSON (UTF-8, one-space indent)."""
    Path(path).write_text(json.dumps(dataset_to_qald(dataset), ensure_ascii=False, indent=1) + "\n",
                          encoding="utf-8")


# -- QALD-XML ------------------------------------------------------------------------


_XML_NAME = re.compile(r"^[A-Za-z_][\w.-]*$")


def _cdata(text: str) -> str:
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def _attrs(pairs: dict[str, Any]) -> str:
    out = []
    for k, v in pairs.items():
        if v is None:
            continue
        value = ("true" if v else "false") if isinstance(v, bool) else str(v)
        value = value.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;").replace("\n", "&#10;")
        out.append(f' {k}="{value}"')
    return "".join(out)


def _value_tag(term: Term) -> str:
    if term.kind == "uri":
        return "uri"
    if term.kind == "bnode":
        return "bnode"
    local = (term.datatype or "").removeprefix(XSD)
    if local in _NUMERIC:
        return "number"
    if local in _DATES:
        return "date"
    return "string"


def _answers_xml(answers: AnswerSet) -> list[str]:
    if answers.boolean is not None:
        return ["<answers>", f"<answer><boolean>{'true' if answers.boolean else 'false'}</boolean></answer>",
                "</answers>"]
    lines = [f"<answers{_attrs({'vars': ' '.join(answers.vars)})}>"]
    for row in answers.rows:
        parts = []
        for var in answers.vars:
            if var not in row:
                continue
            t = row[var]
            tag = _value_tag(t)
            attrs = {"var": var, "datatype": t.datatype, "lang": t.lang}
            parts.append(f"<{tag}{_attrs(attrs)}>{_cdata(t.value)}</{tag}>")
        lines.append("<answer>" + "".join(parts) + "</answer>")
    lines.append("</answers>")
    return lines


def question_to_xml(q: Question) -> str:
    """One QALD-3 ``<question>`` element."""
    lines = [f"<question{_attrs({'id': q.id, **q.flags})}>"]
    for t in q.texts:
        extra = {k: v for k, v in t.extra.items() if isinstance(v, str) and _XML_NAME.match(k)}
        lines.append(f"<string{_attrs({'lang': t.language, **extra})}>{_cdata(t.string)}</string>")
    for t in q.texts:
        if t.keywords is not None:
            lines.append(f"<keywords{_attrs({'lang': t.language})}>{_cdata(t.keywords)}</keywords>")
    for name, text in q.query.items():
        tag = "query" if name == "sparql" else name
        if tag in _QUERY_TAGS:
            lines.append(f"<{tag}>{_cdata(text)}</{tag}>")
    if q.answers is not None:
        lines.extend(_answers_xml(q.answers))
    if q.extra:
        lines.append(f"<metadata>{_cdata(json.dumps(q.extra, ensure_ascii=False, sort_keys=True))}</metadata>")
    lines.append("</question>")
    return "\n".join(lines)


def dataset_to_xml(dataset: Dataset) -> str:
    """A QALD-3 XML document."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', f"<dataset{_attrs({'id': dataset.id})}>"]
    if dataset.extra:
        lines.append(f"<metadata>{_cdata(json.dumps(dataset.extra, ensure_ascii=False, sort_keys=True))}</metadata>")
    lines.extend(question_to_xml(q) for q in dataset.questions)
    lines.append("</dataset>")
    return "\n".join(lines) + "\n"


def write_qald_xml(dataset: Dataset, path: Path) -> None:
    """Write QALD-XML (QALD-3 layout)."""
    Path(path).write_text(dataset_to_xml(dataset), encoding="utf-8")


_SELECT_VAR = re.compile(r"SELECT\s+(?:DISTINCT\s+|REDUCED\s+)?\??\(?\s*(?:COUNT\s*\(\s*(?:DISTINCT\s+)?)?\?(\w+)",
                         re.IGNORECASE)
_XML_FLAG_BOOLS = ("aggregation", "onlydbo", "hybrid")


def _default_var(query: dict[str, str]) -> str:
    match = _SELECT_VAR.search(query.get("sparql", ""))
    return match.group(1) if match else "uri"


def _text(el: ET.Element) -> str:
    """Element text.  QALD-3 files pad CDATA with line breaks, so text that starts or ends
    with one is stripped; any other text is kept verbatim."""
    text = el.text or ""
    return text.strip() if text[:1] in ("\n", "\r") or text[-1:] in ("\n", "\r") else text


def _value_term(el: ET.Element) -> Term:
    text = _text(el)
    if el.tag == "uri":
        return Term("uri", text)
    if el.tag == "bnode":
        return Term("bnode", text)
    return Term("literal", text, el.get("datatype"), el.get("lang"))


def _answers_from_xml(el: ET.Element, query: dict[str, str]) -> AnswerSet:
    declared_attr = el.get("vars")
    names = declared_attr.split() if declared_attr is not None else []
    default = names[0] if names else _default_var(query)
    rows = []
    for answer in el.findall("answer"):
        children = list(answer)
        booleans = [c for c in children if c.tag == "boolean"]
        if booleans:
            return AnswerSet(boolean=_as_bool(_text(booleans[0])))
        row: dict[str, Term] = {}
        for child in children:
            var = child.get("var") or default
            if var in row:  # QALD-3 writes e.g. <uri> and <string> label side by side
                var = f"{var}_{len(row)}"
            row[var] = _value_term(child)
            if var not in names:
                names.append(var)
        rows.append(row)
    if declared_attr is None and not names:
        names = [default]
    return AnswerSet(vars=names, rows=rows)


def _question_from_xml(el: ET.Element) -> Question:
    qid = el.get("id")
    if qid is None:
        raise DatasetError("QALD-XML <question> without an id")
    keywords = {k.get("lang"): _text(k) for k in el.findall("keywords")}
    texts = []
    for s in el.findall("string"):
        lang = s.get("lang") or "en"
        extra = {k: v for k, v in s.attrib.items() if k != "lang"}
        texts.append(QuestionText(lang, _text(s), keywords.get(lang), extra))
    query: dict[str, str] = {}
    for child in el:
        if child.tag in _QUERY_TAGS:
            query["sparql" if child.tag == "query" else child.tag] = _text(child)
    flags: dict[str, Any] = {}
    for name in QALD_FLAGS:
        if name in el.attrib:
            flags[name] = _as_bool(el.attrib[name]) if name in _XML_FLAG_BOOLS else el.attrib[name]
    answers_el = el.find("answers")
    meta = el.find("metadata")
    return Question(
        id=qid,
        texts=texts,
        query=query,
        answers=_answers_from_xml(answers_el, query) if answers_el is not None else None,
        flags=flags,
        extra=json.loads(meta.text or "{}") if meta is not None else {},
    )


def parse_qald_xml(text: str) -> Dataset:
    """A :class:`Dataset` from QALD-XML text."""
    if "<!ENTITY" in text:
        raise DatasetError("QALD-XML with entity declarations is not accepted")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise DatasetError(f"malformed QALD-XML: {exc}") from exc
    if root.tag != "dataset":
        raise DatasetError(f"not QALD-XML: root element is <{root.tag}>, expected <dataset>")
    meta = root.find("metadata")
    return Dataset(
        id=root.get("id"),
        questions=[_question_from_xml(q) for q in root.findall("question")],
        extra=json.loads(meta.text or "{}") if meta is not None else {},
    )


# -- NLPCC 2017 KBQA -----------------------------------------------------------------

_NLPCC_LINE = re.compile(r"^<(question|triple|answer|logical form) id=([^>]*)>\t?(.*)$")
NLPCC_SEPARATOR = "=" * 50


def parse_nlpcc(text: str, *, lang: str = "zh") -> Dataset:
    """A :class:`Dataset` from NLPCC KBQA text (``<question id=N>\\t…``, ``<answer id=N>\\tA\\tB``)."""
    questions: dict[str, Question] = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r")
        if not line.strip() or set(line.strip()) == {"="}:
            continue
        match = _NLPCC_LINE.match(line)
        if match is None:
            raise DatasetError(f"NLPCC line {lineno}: not '<question|triple|answer id=N>\\t…'")
        tag, qid, rest = match.group(1), match.group(2).strip(), match.group(3)
        q = questions.setdefault(qid, Question(id=qid, texts=[]))
        if tag == "question":
            q.texts.append(QuestionText(lang, rest))
        elif tag == "answer":
            values = [v.strip() for v in rest.split("\t") if v.strip()]
            terms = [Term("uri", v) if v.startswith(("http://", "https://")) else Term("literal", v) for v in values]
            q.answers = AnswerSet.of_terms(terms)
        else:
            q.extra[tag.replace(" ", "_")] = rest.strip()
    return Dataset(id=None, questions=list(questions.values()))


def _nlpcc_field(text: str) -> str:
    return text.replace("\t", " ").replace("\r", " ").replace("\n", " ")


def dataset_to_nlpcc(dataset: Dataset, *, lang: str | None = None) -> str:
    """NLPCC KBQA text: question (in ``lang``, default the first), triple, answers."""
    blocks = []
    for q in dataset.questions:
        text = (q.text(lang) if lang else None) or (q.texts[0] if q.texts else QuestionText(lang or "zh", ""))
        lines = [f"<question id={q.id}>\t{_nlpcc_field(text.string)}"]
        for tag in ("triple", "logical_form"):
            if tag in q.extra:
                lines.append(f"<{tag.replace('_', ' ')} id={q.id}>\t{_nlpcc_field(str(q.extra[tag]))}")
        if q.answers is not None:
            if q.answers.boolean is not None:
                values = ["true" if q.answers.boolean else "false"]
            else:
                values = [_nlpcc_field(t.value) for t in q.answers.values()]
            lines.append(f"<answer id={q.id}>\t" + "\t".join(values))
        lines.append(NLPCC_SEPARATOR)
        blocks.append("\n".join(lines))
    return "\n".join(blocks) + "\n"


def write_nlpcc(dataset: Dataset, path: Path, *, lang: str | None = None) -> None:
    """Write NLPCC KBQA text."""
    Path(path).write_text(dataset_to_nlpcc(dataset, lang=lang), encoding="utf-8")


# -- loading -------------------------------------------------------------------------


def load_dataset(path: Path, *, nlpcc_lang: str = "zh") -> Dataset:
    """Read a benchmark file, choosing the format from its content (JSON object, XML
    document, or NLPCC lines).  Raises :class:`DatasetError` naming the file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(f"{path}: cannot read: {exc}") from exc
    stripped = text.lstrip()
    try:
        if stripped.startswith("{"):
            try:
                data = json.loads(text)
            except ValueError as exc:
                raise DatasetError(f"malformed JSON: {exc}") from exc
            return parse_qald_json(data)
        if stripped.startswith("<?xml") or stripped.startswith("<dataset"):
            return parse_qald_xml(text)
        return parse_nlpcc(text, lang=nlpcc_lang)
    except DatasetError as exc:
        raise DatasetError(f"{path}: {exc}") from exc


def load_datasets(paths: Sequence[Path]) -> list[tuple[str, Dataset]]:
    """``(file stem, dataset)`` for each path; ids must be unique across the files."""
    out: list[tuple[str, Dataset]] = []
    seen: dict[str, str] = {}
    for path in paths:
        dataset = load_dataset(path)
        for q in dataset.questions:
            if q.id in seen:
                raise DatasetError(f"{path}: question id {q.id!r} also appears in {seen[q.id]}")
            seen[q.id] = str(path)
        out.append((Path(path).stem, dataset))
    return out
