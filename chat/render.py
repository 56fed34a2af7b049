"""Turn a pipeline :class:`qa.turn.Turn` into what the user sees.

* :func:`render_text` - plain text for the terminal (``kgqa ask``).
* :func:`render_html` - the chat's single answer message: the answer (or "I don't know")
  plus a collapsible "How I found this".

Everything is localized to ``turn.lang``: labels come from the pipeline's fallback chain
(a subtle marker shows when a label is not in the user's language), numbers and dates are
formatted with Babel, yes/no answers are translated, long lists end with "and N more".

Safety: every label, literal, question and query is escaped with :func:`escape` (the
characters ``html.escape`` escapes *and* Markdown/LaTeX-significant ones, in one pass),
so nothing from the KG or the user is ever interpreted as markup.  The HTML is one line,
so a Markdown renderer sees a single HTML block and leaves its content alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from datetime import date
from decimal import Decimal, InvalidOperation
from string import Formatter

from chat.messages import message, template, turn_message
from kg.sparql import XSD
from qa.candidate import TYPING_PROPERTIES
from qa.reading.detect import SUPPORTED_LANGUAGES
from qa.turn import AnswerItem, CandidateView, Status, Turn

LIST_LIMIT = 10
"""Answers shown before "and N more"."""

WIKIDATA_PAGE = "https://www.wikidata.org/wiki/"

_NUMERIC_TYPES = frozenset(XSD + t for t in (
    "decimal", "integer", "int", "long", "short", "byte", "double", "float", "nonNegativeInteger",
    "positiveInteger", "negativeInteger", "nonPositiveInteger", "unsignedInt", "unsignedLong"))
_DATE_TYPES = frozenset(XSD + t for t in ("dateTime", "date", "dateTimeStamp"))
_DATE = re.compile(r"^\s*(-?)(\d{1,9})-(\d{2})-(\d{2})(?:T[\d:.]+(?:Z|[+-]\d{2}:\d{2})?)?\s*$")
_YEAR = re.compile(r"^\s*(-?)(\d{1,9})(?:Z|[+-]\d{2}:\d{2})?\s*$")
_ESCAPES = {ord(c): f"&#{ord(c)};" for c in "*_`[]~\\|$#{}"} | {
    ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;", ord('"'): "&quot;", ord("'"): "&#39;"}


# ---------------------------------------------------------------- escaping / locale


def escape(text: object) -> str:
    """HTML-escape ``text`` and neutralize Markdown/LaTeX characters (for one-line HTML)."""
    escaped = str(text).translate(_ESCAPES)
    return escaped.replace("\r\n", "\n").replace("\n", "<br>")


def _escape_pre(text: str) -> str:
    """Escape for a ``<pre>`` block that must stay on one source line."""
    return text.translate(_ESCAPES).replace("\r\n", "\n").replace("\n", "&#10;")


def ui_language(lang: str | None) -> str:
    """The language the chat speaks for ``lang`` (English for the script-only languages)."""
    return lang if lang in SUPPORTED_LANGUAGES else "en"


def _base(code: str | None) -> str:
    return (code or "").split("-")[0].split("_")[0].lower()


def language_name(code: str | None, lang: str) -> str:
    """The name of language ``code`` written in ``lang`` (``"Englisch"`` for en in de)."""
    from babel import Locale, UnknownLocaleError

    if not code:
        return "?"
    try:
        return Locale.parse(code.replace("-", "_")).get_display_name(ui_language(lang)) or code
    except (ValueError, UnknownLocaleError):
        return code


# ---------------------------------------------------------------- values


def format_number(text: str, lang: str) -> str | None:
    """``"3644826"`` -> ``"3,644,826"`` (en) / ``"3.644.826"`` (de); ``None`` if not a number."""
    from babel.numbers import format_decimal

    try:
        value = Decimal(text.strip())
    except (InvalidOperation, AttributeError):
        return None
    if not value.is_finite():
        return None
    if value == value.to_integral_value() and abs(value) < Decimal("1e21"):
        value = value.quantize(Decimal(1))
    return format_decimal(value, locale=ui_language(lang), decimal_quantization=False)


def _era_year(year: int, negative: bool) -> tuple[int, bool]:
    """XSD 1.1 years: ``0000`` is 1 BCE, ``-0001`` is 2 BCE.  Returns (year, is_bce)."""
    if negative or year == 0:
        return (year + 1 if negative else 1), True
    return year, False


def _bce(year: int, month: int | None, day: int | None, lang: str) -> str:
    from babel.dates import format_skeleton, get_era_names

    ui = ui_language(lang)
    era = get_era_names("abbreviated", locale=ui)[0]
    year_text = f"{era}{year}年" if ui in ("zh", "ja") else f"{year} {era}"
    if month and day and (month, day) != (1, 1):
        try:
            day_text = format_skeleton("MMMMd", date(2000, month, day), locale=ui)
        except ValueError:
            return year_text
        return f"{year_text}{day_text}" if ui in ("zh", "ja") else f"{day_text} {year_text}"
    return year_text


def format_date(text: str, lang: str) -> str | None:
    """Localized date for an ``xsd:dateTime``/``xsd:date``/``xsd:gYear`` lexical form.

    ``YYYY-01-01`` is shown as the year alone (Wikidata stores year-precision dates that
    way); BCE years get the locale's era; years before 1000 work.  ``None`` if unparsable.
    """
    from babel.dates import format_date as babel_date
    from babel.dates import format_skeleton

    ui = ui_language(lang)
    match = _DATE.match(text or "")
    if match:
        negative, year = match.group(1) == "-", int(match.group(2))
        month, day = int(match.group(3)), int(match.group(4))
    else:
        match = _YEAR.match(text or "")
        if not match:
            return None
        negative, year, month, day = match.group(1) == "-", int(match.group(2)), 1, 1
    year, bce = _era_year(year, negative)
    if bce:
        return _bce(year, month, day, lang)
    try:
        if (month, day) == (1, 1):
            return format_skeleton("y", date(year, 1, 1), locale=ui)
        return babel_date(date(year, month, day), format="long", locale=ui)
    except ValueError:
        return text.strip()


def format_boolean(value: bool, lang: str) -> str:
    """Localized "Yes." / "No."."""
    return message("yes" if value else "no", ui_language(lang))


def format_literal(item: AnswerItem, lang: str) -> str:
    """Display text of a literal answer (numbers and dates localized)."""
    dtype = item.datatype or ""
    if dtype in _NUMERIC_TYPES:
        return format_number(item.value, lang) or item.value
    if dtype in _DATE_TYPES or dtype == XSD + "gYear":
        return format_date(item.value, lang) or item.value
    if dtype == XSD + "boolean":
        return format_boolean(item.value.strip().lower() in ("true", "1"), lang).rstrip(".。")
    return item.label or item.value


def is_fallback(item: AnswerItem, lang: str) -> bool:
    """True when an entity's label is not in the user's language (a fallback was used)."""
    if item.kind != "uri":
        return False
    return item.label_lang is None or _base(item.label_lang) != _base(lang)


def display_label(item: AnswerItem, lang: str) -> str:
    """The plain display text of one answer (an entity with no name at all is never shown
    by its bare id: it gets a localized "no name in my data", linked to its page)."""
    if item.kind != "uri":
        return format_literal(item, lang)
    if item.label_lang is None and item.label in ("", item.id, item.value):
        return message("unnamed", ui_language(lang))
    return item.label or item.value


def entity_url(item: AnswerItem) -> str | None:
    """The Wikidata page of an entity answer (``None`` for literals and foreign IRIs)."""
    if item.kind != "uri" or not item.id:
        return None
    return WIKIDATA_PAGE + (f"Property:{item.id}" if item.id.startswith("P") else item.id)


def hidden_count(turn: Turn, shown: int) -> int:
    """How many answers "and N more" stands for."""
    return max(turn.total_answers, len(turn.answers)) - shown


# ---------------------------------------------------------------- plain text


def _intro_text(turn: Turn) -> str:
    """"Albert Einstein · place of birth:" when the kept candidate says what it is about
    (fallback names carry ``[xx]``), else the turn's message."""
    kept = next((c for c in turn.candidates if c.kept), None)
    about = understood(turn, kept) if kept is not None and turn.message_key == "answer_intro" else None
    if about is None:
        return turn_message(turn)
    names = []
    for item_id in about:
        label, label_lang = turn.names.get(item_id, (None, None))
        text = label or message("unnamed", ui_language(turn.lang))
        if label_lang and _base(label_lang) != _base(turn.lang):
            text += f" [{_base(label_lang)}]"
        names.append(text)
    return message("understood_line", ui_language(turn.lang), entity=names[0], property=names[1])


def render_text(turn: Turn) -> str:
    """Plain-text rendering for the terminal, localized; fallback labels carry ``[xx]``."""
    lang = turn.lang
    if not turn.answered:
        return dont_know_text(turn)
    if turn.boolean is not None:
        return format_boolean(turn.boolean, lang)
    sentence = comparison_sentence(turn)
    if sentence is not None:
        return sentence
    shown = turn.answers[:LIST_LIMIT]
    parts = []
    for item in shown:
        text = display_label(item, lang)
        if is_fallback(item, lang) and item.label_lang:  # (a nameless one says so in words)
            text += f" [{item.label_lang}]"
        parts.append(text)
    line = f"{_intro_text(turn)} {', '.join(parts)}"
    more = hidden_count(turn, len(shown))
    line += f" {message('and_more', ui_language(lang), n=more)}" if more > 0 else ""
    line += f" {unnamed_text(len(turn.unnamed), lang, alone=not shown)}" if turn.unnamed else ""
    counted = counted_text(turn)
    return f"{line}\n{counted}" if counted else line


def counted_text(turn: Turn) -> str | None:
    """"My data lists N: a, b and 4 more without a name in my data": the things a shown count
    counts (:attr:`Turn.counted`); things without a name are counted, never shown by their ids."""
    counted = turn.counted
    if not turn.answered or not counted or "items" not in counted:
        return None
    return _listed(counted, ui_language(turn.lang))


# ---------------------------------------------------------------- HTML


def _answer_html(item: AnswerItem, lang: str) -> str:
    text = escape(display_label(item, lang))
    url = entity_url(item)
    body = f'<a href="{escape(url)}" target="_blank" rel="noopener noreferrer">{text}</a>' if url else text
    if is_fallback(item, lang):
        body += _mark_html(item.label_lang, lang)
    return f'<span class="kgqa-value">{body}</span>'


def _mark_html(label_lang: str | None, lang: str) -> str:
    """The badge of a name not in the user's language: a small "EN" apart from the word, its
    tooltip saying why (not copied with the name); none when the name is in the user's
    language, or is the KG's own label (no language)."""
    if not label_lang or _base(label_lang) == _base(lang):
        return ""
    ui = ui_language(lang)
    title = message("badge_fallback", ui, language=language_name(label_lang, ui))
    return (f' <sup class="kgqa-fallback kgqa-badge" title="{escape(title)}" aria-label="{escape(title)}">'
            f'{escape(_base(label_lang).upper())}</sup>')


def name_html(item_id: str, turn: Turn) -> str:
    """An entity or property named in the user's language and linked to its Wikidata page."""
    label, label_lang = turn.names.get(item_id, (None, None))
    page = f"Property:{item_id}" if item_id.startswith("P") else item_id
    text = escape(label or message("unnamed", ui_language(turn.lang)))
    return (f'<a class="kgqa-name" href="{escape(WIKIDATA_PAGE + page)}" target="_blank" '
            f'rel="noopener noreferrer">{text}</a>{_mark_html(label_lang if label else None, turn.lang)}')


def understood(turn: Turn, view: CandidateView) -> tuple[str, str] | None:
    """(entity, property) a candidate is about, when both are known."""
    if not view.entities or not view.properties:
        return None
    return view.entities[0], view.properties[0]


def message_html(key: str, lang: str, **html: str) -> str:
    """Message ``key`` with its text escaped and ``html`` (already safe) put in its fields."""
    return _fill(key, lang, escape, **html)


def understood_line_html(turn: Turn, view: CandidateView) -> str | None:
    """"Albert Einstein · place of birth:" for the kept candidate, linked; ``None`` when
    the candidate does not say what it is about."""
    about = understood(turn, view)
    if about is None:
        return None
    entity, prop = about
    return message_html("understood_line", ui_language(turn.lang), entity=name_html(entity, turn),
                        property=name_html(prop, turn))


DONT_KNOW_KEYS = ("understood_no_value", "understood_unnamed", "unknown_entity", "not_understood", "only_know",
                  "data_lists", "data_disagrees")
"""The kinds of "I don't know" the pipeline names (:mod:`qa.decisions.reply`)."""
UNDERSTOOD_KINDS = {"understood_no_value": "no_value", "understood_unnamed": "unnamed"}
"""The replies that say what was understood (an entity and a property), by their kind."""


def dont_know_kind(turn: Turn) -> tuple[str, tuple[str, str] | None]:
    """Which "I don't know" a turn gets, as the pipeline named it (``turn.message_key``):
    ``no_value`` with the (entity, property) that was understood but has no value in the
    data, ``unnamed`` with the (entity, property) whose values the data holds but names
    none of, ``unknown_entity``, ``not_understood``, ``only_know``, ``data_lists`` (a count
    asked, the list the data holds told), ``data_disagrees`` (a yes/no the KG says both ways),
    or ``other`` (its own message: comparisons, bad
    input, faults)."""
    key, args = turn.message_key, turn.message_args
    if key in UNDERSTOOD_KINDS and "entity" in args and "property" in args:
        return UNDERSTOOD_KINDS[key], (str(args["entity"]), str(args["property"]))
    if key in DONT_KNOW_KEYS and key not in UNDERSTOOD_KINDS:
        return key, None
    if key not in ("", "dont_know") or turn.status not in (Status.ABSTAINED, Status.NO_CANDIDATES):
        return "other", None
    return "not_understood", None


def _not_understood(turn: Turn, ui: str, name: Callable[[str], str], text: Callable[[str], str]) -> str:
    """The ``not_understood`` reply: what it could not place (and the reading that covered
    the rest) when the pipeline said so."""
    args = turn.message_args
    if "unplaced" in args and "entity" in args and "property" in args:
        return _fill("not_understood_partly", ui, text, unplaced=text(str(args["unplaced"])),
                     entity=name(str(args["entity"])), property=name(str(args["property"])))
    if "unplaced" in args:
        return _fill("not_understood_unplaced", ui, text, unplaced=text(str(args["unplaced"])))
    return text(message("not_understood", ui))


def _fill(key: str, ui: str, text: Callable[[str], str], **parts: str) -> str:
    """Message ``key`` with its literal text through ``text`` and ``parts`` in its fields (a
    count message: the plural form its count in ``parts`` needs)."""
    out = []
    for literal, field_name, _spec, _conv in Formatter().parse(template(key, ui, **parts)):
        out.append(text(literal))
        if field_name is not None:
            out.append(parts[field_name])
    return "".join(out)


def dont_know_html(turn: Turn) -> str:
    """The kinds of "I don't know": understood but no value (entity named and linked),
    understood with values that have no name (counted, never shown by id), a name nothing
    is called, only part of a typed name known, or not sure what was asked (saying what
    could not be placed).  Other messages (comparisons, bad input) keep their key."""
    ui = ui_language(turn.lang)
    kind, about = dont_know_kind(turn)
    if kind == "no_value" and about is not None:
        entity, prop = about
        return message_html("understood_no_value", ui, entity=name_html(entity, turn),
                            property=name_html(prop, turn))
    if kind == "unnamed" and about is not None:
        entity, prop = about
        return message_html("understood_unnamed", ui, entity=name_html(entity, turn), property=name_html(prop, turn),
                            n=escape(str(turn.message_args["n"])))
    if kind == "only_know":
        return message_html("only_know", ui, name=name_html(str(turn.message_args["qid"]), turn))
    if kind == "unknown_entity":
        return message_html("unknown_entity", ui, name=escape(str(turn.message_args.get("name", ""))))
    if kind == "data_lists" and (listed := listed_text(turn)) is not None:
        return escape(listed)
    if kind == "not_understood":
        return _not_understood(turn, ui, lambda i: name_html(i, turn), escape)
    return escape(turn_message(turn))


def dont_know_text(turn: Turn) -> str:
    """Plain-text form of :func:`dont_know_html` (for the terminal)."""
    ui = ui_language(turn.lang)
    kind, about = dont_know_kind(turn)

    def named(item_id: str) -> str:
        return turn.names.get(item_id, (None, None))[0] or message("unnamed", ui)

    if kind == "no_value" and about is not None:
        entity, prop = (named(i) for i in about)
        return message("understood_no_value", ui, entity=entity, property=prop)
    if kind == "unnamed" and about is not None:
        entity, prop = (named(i) for i in about)
        return message("understood_unnamed", ui, entity=entity, property=prop, n=turn.message_args["n"])
    if kind == "only_know":
        qid = str(turn.message_args["qid"])
        return message("only_know", ui, name=turn.names.get(qid, (None, None))[0] or turn.message_args.get("name")
                       or message("unnamed", ui))
    if kind == "unknown_entity":
        return message("unknown_entity", ui, name=str(turn.message_args.get("name", "")))
    if kind == "data_lists" and (listed := listed_text(turn)) is not None:
        return listed
    if kind == "not_understood":
        return _not_understood(turn, ui, named, lambda t: t)
    return turn_message(turn)


def listed_text(turn: Turn) -> str | None:
    """"My data lists N: a, b and 4 more without a name in my data": the reply to a count
    asked where the data holds only a list (``data_lists``; the turn is not answered: the list
    may be incomplete).  Things without a name are counted, never shown by their ids."""
    if turn.message_key != "data_lists" or "items" not in turn.message_args:
        return None
    return _listed(turn.message_args, ui_language(turn.lang))


def _listed(args: dict, ui: str) -> str:
    items = str(args["items"])
    unnamed = int(args.get("unnamed") or 0)
    if unnamed:
        items = f"{items} {unnamed_text(unnamed, ui)}" if items else unnamed_text(unnamed, ui, alone=True)
    return message("data_lists", ui, n=args.get("n", ""), items=items)


def unnamed_text(n: int, lang: str, *, alone: bool = False) -> str:
    """"and 4 more without a name in my data" (``alone``: "4 without a name in my data")."""
    return message("unnamed_alone" if alone else "unnamed_more", ui_language(lang), n=n)


COMPARISON_KEYS = {("DESC", False): "comparison_higher", ("ASC", False): "comparison_lower",
                   ("DESC", True): "comparison_later", ("ASC", True): "comparison_earlier"}
"""The sentence of a comparison, by the winner's direction and whether its values are dates."""


def comparison_sentence(turn: Turn) -> str | None:
    """A two-entity comparison as a sentence: "Chile has the higher population: 19,116,209,
    against 17,643,060 for Ecuador." (``None`` for a tie, an unknown side, or a name missing)."""
    comparison = turn.comparison or {}
    winner = comparison.get("winner")
    if winner not in (1, 2):
        return None
    pair = (str(comparison.get("entity1")), str(comparison.get("entity2")))
    names = [turn.names.get(i, (None, None))[0] for i in (*pair, str(comparison.get("property")))]
    if not all(names):
        return None
    values = list(comparison.get("values") or (None, None))
    types = list(comparison.get("datatypes") or (None, None))
    dates = any((t or "") in _DATE_TYPES or t == XSD + "gYear" for t in types)
    shown = [_comparison_value(v, t, turn.lang) for v, t in zip(values, types, strict=False)]
    won, lost = winner - 1, 2 - winner
    key = COMPARISON_KEYS[(str(comparison.get("direction") or "DESC"), dates)]
    return message(key, ui_language(turn.lang), winner=names[won], other=names[lost], property=names[2],
                   winner_value=shown[won], other_value=shown[lost])


def _comparison_value(value: str | None, datatype: str | None, lang: str) -> str:
    if value is None:
        return "?"
    return format_literal(AnswerItem(value, None, value, None, datatype, "literal"), lang)


def answer_html(turn: Turn) -> str:
    """The answer part of the message (no explanation)."""
    lang, ui = turn.lang, ui_language(turn.lang)
    if not turn.answered:
        kind = dont_know_kind(turn)[0].replace("_", "-")
        return f'<p class="kgqa-dont-know" data-kind="{kind}">{dont_know_html(turn)}</p>'
    kept = next((c for c in turn.candidates if c.kept), None)
    line = understood_line_html(turn, kept) if kept is not None else None
    if turn.boolean is not None:
        sentence = boolean_sentence_html(turn, kept) if kept is not None else None
        if sentence is not None:
            return f'<p class="kgqa-boolean"><strong>{sentence}</strong></p>'
        intro = f'<p class="kgqa-understood">{line}</p>' if line else ""
        return f'{intro}<p class="kgqa-boolean"><strong>{escape(format_boolean(turn.boolean, lang))}</strong></p>'
    shown = turn.answers[:LIST_LIMIT]
    values = ", ".join(_answer_html(item, lang) for item in shown)
    more = hidden_count(turn, len(shown))
    more_html = f' <span class="kgqa-more">{escape(message("and_more", ui, n=more))}</span>' if more > 0 else ""
    if turn.unnamed:
        nameless = unnamed_text(len(turn.unnamed), ui, alone=not shown)
        more_html += f' <span class="kgqa-unnamed">{escape(nameless)}</span>'
    sentence = comparison_sentence(turn)
    if sentence is not None:
        return f'<p class="kgqa-comparison"><strong>{escape(sentence)}</strong></p>'
    counted = counted_text(turn)
    counted_html = f'<p class="kgqa-counted">{escape(counted)}</p>' if counted else ""
    if line and turn.message_key == "answer_intro":
        return (f'<p class="kgqa-understood">{line} '
                f'<span class="kgqa-values"><strong>{values}</strong>{more_html}</span></p>{counted_html}')
    return (f'<p class="kgqa-intro">{escape(turn_message(turn))}</p>'
            f'<p class="kgqa-values"><strong>{values}</strong>{more_html}</p>{counted_html}')




def boolean_sentence_html(turn: Turn, view: CandidateView) -> str | None:
    """A yes/no answer as a sentence with its subject: "Yes: Vienna is the capital of
    Austria." (the kept question's subject, property and object, in its triple's order);
    ``None`` when the kept candidate does not name exactly those, or one has no name."""
    if (turn.boolean is None or len(view.entities) != 2 or not view.properties
            or view.properties[0] in TYPING_PROPERTIES):
        return None
    subject, obj = view.entities
    ids = (subject, view.properties[0], obj)
    if any(not turn.names.get(i, (None, None))[0] for i in ids):
        return None
    key = "yes_sentence" if turn.boolean else "no_sentence"
    return message_html(key, ui_language(turn.lang), subject=name_html(subject, turn),
                        property=name_html(view.properties[0], turn), object=name_html(obj, turn))


def _percent(value: float, lang: str, pattern: str = "#,##0.#%") -> str:
    from babel.numbers import format_percent

    return format_percent(value, format=pattern, locale=ui_language(lang))


def _score(value: float, lang: str) -> str:
    from babel.numbers import format_decimal

    return format_decimal(value, format="#,##0.###", locale=ui_language(lang))


def validator_state_text(state: str, lang: str) -> str:
    """Localized validator state line (on / off / unavailable / starting)."""
    key = {"on": "validator_on", "unavailable": "validator_unavailable",
           "starting": "validator_starting"}.get(state, "validator_off")
    return message(key, ui_language(lang))


def _row(label_key: str, value_html: str, lang: str) -> str:
    return f"<dt>{escape(message(label_key, lang))}</dt><dd>{value_html}</dd>"


def check_text(view: CandidateView, lang: str) -> str:
    """The gate's comparison in words: which score was compared with which threshold, by
    name, and the verdict of that comparison (what the numbers say: a later check that
    withheld the answer is said by :func:`decided_key`, never as a failed comparison);
    "not scored" when the validator did not run for this query."""
    ui = ui_language(lang)
    if view.validator_score is None:
        return message("expl_not_scored", ui)
    compared = view.compared
    if compared is None:
        return f"{message('score_validator', ui)} {_percent(view.validator_score, ui)}"
    verdict = message("verdict_passed" if compared.score >= compared.threshold else "verdict_failed", ui)
    return message("expl_compared", ui, score_name=message(f"score_{compared.score_name}", ui),
                   score=_percent(compared.score, ui),
                   threshold_name=message(f"threshold_{compared.threshold_name}", ui),
                   threshold=_percent(compared.threshold, ui), verdict=verdict)


DECIDED_KEYS = {"guard": "decided_guard", "gate": "decided_gate", "namesake": "decided_namesake",
                "coverage": "decided_coverage", "type": "decided_type", "number": "decided_number",
                "inverse": "decided_inverse"}
"""The message naming each decision component (:data:`qa.decisions.ORDER`) in plain words,
for the "why" panel of a turn it withheld."""


def decided_key(turn: Turn) -> str:
    """What decided the turn, as a message key: the component that withheld the answer
    (``turn.withheld_by``), else, for an answer, the check that chose it (or none, with the
    validator off), else the data (the kept reading has no value, or only values without a
    name) or the reading of the question (no reading at all)."""
    if turn.answered:
        kept = next((c for c in turn.candidates if c.kept), None)
        return "decided_answered" if kept is not None and kept.compared is not None else "decided_unchecked"
    if turn.withheld_by in DECIDED_KEYS:
        return DECIDED_KEYS[turn.withheld_by]
    if turn.status == Status.NO_CANDIDATES or not turn.candidates:
        return "decided_no_reading"
    return "decided_unnamed" if turn.unnamed else "decided_empty"


def decided_html(turn: Turn, lang: str) -> str:
    """The panel's first row: what decided, naming the component in plain words."""
    key = decided_key(turn)
    component = key.removeprefix("decided_").replace("_", "-")
    return (f'<dt>{escape(message("expl_decided", lang))}</dt>'
            f'<dd class="kgqa-decided" data-decided="{escape(component)}">{escape(message(key, lang))}</dd>')


def _candidate_rows(turn: Turn, view: CandidateView, rank: int, lang: str) -> list[str]:
    """Plain-language rows first (what was understood, the check); the model's input,
    the backend rank and the SPARQL go to a collapsed developer view, last."""
    rows = []
    line = understood_line_html(turn, view) if view.kept and turn.answered else None  # only a reading shown whole
    if line:
        rows.append(_row("expl_understood", line.rstrip(":：").rstrip(), lang))
    rows.append(_row("expl_gate", escape(check_text(view, lang)), lang))
    if view.kept and turn.answered and turn.confidence is not None:
        chance = message("expl_probability_value", lang, percent=_percent(turn.confidence, lang, "#,##0%"))
        rows.append(_row("expl_probability", f'<span class="kgqa-probability">{escape(chance)}</span>', lang))
    return rows


def _developer_html(turn: Turn, view: CandidateView, rank: int, lang: str) -> str:
    rows = []
    if view.verbalization:
        rows.append(_row("expl_verbalization", escape(view.verbalization), lang))
    rank_text = message("expl_rank_value", lang, rank=rank, total=len(turn.candidates),
                        score=_score(view.backend_score, lang))
    rows.append(_row("expl_rank", f"{escape(rank_text)} · {escape(turn.backend)}", lang))
    rows.append(_row("expl_sparql", f'<pre class="kgqa-sparql"><code>{_escape_pre(view.sparql)}</code></pre>', lang))
    return (f'<details class="kgqa-developer"><summary>{escape(message("expl_developer", lang))}</summary>'
            f'<dl>{"".join(rows)}</dl></details>')


def _best_rejected(turn: Turn) -> tuple[int, bool]:
    """For an abstention: (candidate to show, whether it passed the gate, i.e. the result was empty)."""
    scores = [c.validator_score for c in turn.candidates]
    if all(s is None for s in scores):
        # validator off: the top candidate was shown and came back empty; validator on:
        # no candidate could reach the gate, so none was scored and all were rejected
        return 0, turn.validator != "on"
    passed = [i for i, c in enumerate(turn.candidates) if c.passed]
    if passed:
        return passed[0], True
    return max(range(len(scores)), key=lambda i: (scores[i] if scores[i] is not None else -1.0, -i)), False


def explanation_html(turn: Turn, *, threshold: float | None = None) -> str:
    """The collapsible "How I found this" (or "Why I don't know") block.

    ``threshold`` is kept for callers; the explanation shows the threshold each candidate
    was actually compared with (``CandidateView.compared_threshold``)."""
    lang = ui_language(turn.lang)
    rows: list[str] = [decided_html(turn, lang)]
    developer = ""
    chosen = next((i for i, c in enumerate(turn.candidates) if c.kept), None)
    shown: int | None = None
    if turn.answered and chosen is not None:
        shown = chosen
    elif turn.status != Status.NO_CANDIDATES and turn.candidates:
        shown = _best_rejected(turn)[0]
    if shown is not None:
        rows += _candidate_rows(turn, turn.candidates[shown], shown + 1, lang)
        developer = _developer_html(turn, turn.candidates[shown], shown + 1, lang)
    detected = language_name(turn.detected_lang, lang) if turn.detected_lang else "?"
    rows.append(_row("expl_language", escape(message("expl_language_value", lang, detected=detected,
                                                     used=language_name(turn.lang, lang))), lang))
    state_class = "kgqa-validator-" + (turn.validator if turn.validator in ("on", "off", "unavailable") else "off")
    rows.append(f'<dd class="{state_class}">{escape(validator_state_text(turn.validator, lang))}</dd>')
    summary = message("how_found" if turn.answered else "how_not_found", lang)
    return (f'<details class="kgqa-how"><summary>{escape(summary)}</summary>'
            f'<dl>{"".join(rows)}</dl>{developer}</details>')


def notices_html(keys: Iterable[str], lang: str) -> str:
    """Localized notices (e.g. "I treated your HTML as plain text")."""
    ui = ui_language(lang)
    return "".join(f'<p class="kgqa-notice">{escape(message(k, ui))}</p>' for k in keys)


def conversation_html(turn: Turn) -> str:
    """"Read as a follow-up about Mozart: …" when the question was tied to the previous
    turn (:mod:`qa.context`), else nothing."""
    resolution = (turn.context or {}).get("resolution") if (turn.context or {}).get("tied") else None
    if not resolution or turn.status not in (Status.OK, Status.ABSTAINED, Status.NO_CANDIDATES):
        return ""
    text = message("followup_about", ui_language(turn.lang), name=resolution["name"],
                   question=resolution["question"])
    referent = re.sub(r"[^A-Za-z0-9]", "", str(resolution["referent"]))
    return f'<p class="kgqa-followup kgqa-referent-{referent}">{escape(text)}</p>'


def unsupported_html(turn: Turn) -> str:
    """"This looks like Polish, which I do not speak yet …" in the UI's language and, below,
    in English (once when the UI speaks English)."""
    code = str(turn.message_args.get("code", ""))
    supported = str(turn.message_args.get("supported", ""))
    texts = {ui: message("unsupported_language", ui, language=language_name(code, ui), supported=supported)
             for ui in (ui_language(turn.lang), "en")}
    return "".join(f'<p class="kgqa-unsupported" lang="{escape(ui)}" data-lang="{escape(code)}">{escape(text)}</p>'
                   for ui, text in texts.items())


def render_html(turn: Turn, *, notices: Sequence[str] = (), threshold: float | None = None,
                turn_id: str | None = None) -> str:
    """The chat's one answer message as a single line of safe HTML.

    ``turn_id`` (hex) is carried as a ``kgqa-turn-<id>`` class so feedback finds its turn.
    """
    parts = [notices_html(notices, turn.lang), conversation_html(turn), answer_html(turn)]
    if turn.message_key == "unsupported_language":
        parts = [notices_html(notices, turn.lang), unsupported_html(turn)]
    if turn.second_part:
        parts.append(f'<p class="kgqa-notice kgqa-second-part">'
                     f'{escape(message("second_part", ui_language(turn.lang), second=turn.second_part))}</p>')
    if turn.status not in (Status.BAD_INPUT, Status.SERVICE_ERROR, Status.ERROR, Status.RATE_LIMITED, Status.BUSY):
        parts.append(explanation_html(turn, threshold=threshold))
    lang = escape(ui_language(turn.lang))
    classes = "kgqa-answer kgqa-status-" + re.sub(r"[^a-z_]", "", turn.status)
    if turn_id and re.fullmatch(r"[0-9a-f]{8,64}", turn_id):
        classes += f" kgqa-turn-{turn_id}"
    return f'<div class="{classes}" lang="{lang}">{"".join(parts)}</div>'


def render_question_html(question: str, limit: int = 500) -> str:
    """The user's own message, escaped and shortened for display."""
    text = question if len(question) <= limit else question[:limit] + "…"
    return f'<span class="kgqa-question">{escape(text)}</span>'
