"""All user-facing text, localized: gettext catalogs (Babel) under ``chat/locale/``.

The English text of every message is written here, once, with its key (the gettext
context); ``pybabel extract`` reads it into ``chat/locale/messages.pot`` and each of the
19 languages translates it in ``chat/locale/<lang>/LC_MESSAGES/messages.po`` (compiled to
``.mo`` at set-up, or in memory when the ``.mo`` is missing or older).  Counts use CLDR's
plural rules (:func:`_plural`).  Library errors speak to developers; the chat turns them
into these messages by key: :func:`message`, :func:`turn_message`.  Adding or changing a
message, a translation or a language: ``docs/translations.md`` (``python -m chat.catalogs``).
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass
from functools import cache
from io import BytesIO
from pathlib import Path

from lang import SUPPORTED
from qa.turn import Turn

LOCALE_DIR = Path(__file__).with_name("locale")
"""``messages.pot`` and ``<lang>/LC_MESSAGES/messages.po`` (+ the compiled ``.mo``)."""
DOMAIN = "messages"


@dataclass(frozen=True)
class Source:
    """One message as the code writes it: its key, its English text and, for a count, the
    English plural and the name of the placeholder that holds the count."""

    key: str
    english: str
    plural: str | None = None
    count: str | None = None


def _text(key: str, english: str) -> Source:
    """A message (``pybabel extract`` keyword ``_text:1c,2``: the key is the context)."""
    return Source(key, english)


def _plural(key: str, singular: str, plural: str, *, count: str) -> Source:
    """A message with a count in placeholder ``count``, worded by CLDR's plural rules
    (``pybabel extract`` keyword ``_plural:1c,2,3``)."""
    return Source(key, singular, plural, count)


# ---- the messages (python -m chat.catalogs extract reads them; import-dict appends here) ----
SOURCE: dict[str, Source] = {source.key: source for source in (
    _text("answer_intro", "Here is what I found:"),
    _text("dont_know", "I don't know. I could not find an answer I can trust."),
    _text("empty_question", "Please type a question."),
    _plural("too_long", "Your question is too long. Please keep it under {limit} character.",
            "Your question is too long. Please keep it under {limit} characters.", count="limit"),
    _text("service_unavailable", "The knowledge service is unavailable right now. Please try again in a moment."),
    _text("internal_error", "Something went wrong on my side, so I give no answer."),
    _text("comparison_unknown", "I can't compare them: I don't know the {property} of {entity}."),
    _text("comparison_equal", "Both have the same value:"),
    _text("yes", "Yes."),
    _text("no", "No."),
    _plural("and_more", "and {n} more",
            "and {n} more", count="n"),
    _text("label_fallback", "No label in your language; shown in {language}."),
    _text("how_found", "How I found this"),
    _text("how_not_found", "Why I don't know"),
    _text("expl_sparql", "SPARQL query"),
    _text("expl_verbalization", "In words"),
    _text("expl_rank", "Place among the readings found"),
    _text("expl_rank_value", "{rank} of {total} (search score {score})"),
    _text("expl_language", "Language"),
    _text("expl_language_value", "detected {detected}, answering in {used}"),
    _text("validator_starting", "Starting… the answering service is loading"),
    _text("starting_wait", "Starting up: your question will be answered as soon as the service is ready…"),
    _text("validator_on", "Validator: on"),
    _text("validator_off", "Validator: off (answers are not checked)"),
    _text("validator_unavailable", "Validator unavailable: answers are the backend's top query, unchecked"),
    _text("notice_markup", "Your question contained HTML or code; I treated it as plain text."),
    _text("notice_control", "I removed control characters from your question."),
    _text("busy", "Many people are asking right now, so I cannot take your question. Please ask again in a minute."),
    _text("notice_invalid_unicode", "Part of your question was not valid text; I replaced it with �."),
    _text("rate_limited", "You are asking very fast. Please wait {seconds} s and ask again."),
    _text("log_failed", "I could not record this turn, so I show no answer. Please try again."),
    _text("ui_title", "Ask Wikidata"),
    _text("ui_subtitle", "One answer in your language, or an honest “I don't know”."),
    _text("ui_send", "Ask"),
    _text("ui_auto", "Detect automatically"),
    _text("ui_chat_label", "Chat"),
    _text("ui_status", "Backend: {backend} · Knowledge graph: {kg}"),
    _text("feedback_thanks", "Thanks for your feedback."),
    _text("ui_welcome",
          "I answer from an offline subset of Wikidata (about 250,000 entities). Many facts are missing, "
          "so I often say “I don't know” rather than guess."),
    _text("ui_examples", "Try one of these"),
    _text("ui_placeholder_plain", "Ask a question"),
    _text("ui_question_language", "Language of the question"),
    _text("ui_answer_language", "Language of answers and page"),
    _text("ui_question_auto", "Detected from the text"),
    _text("understood_line", "{entity} · {property}:"),
    _text("understood_no_value", "I understood: the {property} of {entity}, but my data has no value for it."),
    _plural("understood_unnamed",
            "I understood: the {property} of {entity}. My data has {n} answer, but no name for it that I can show.",
            "I understood: the {property} of {entity}. My data has {n} answers, but no name for them that I can show.",
            count="n"),
    _text("not_understood", "I'm not sure I understood your question, so I give no answer."),
    _text("only_know", "I don't know. I only know {name}, which matches only part of the name you typed."),
    _text("expl_understood", "What I understood"),
    _text("expl_gate", "Check"),
    _text("expl_compared", "{score_name} {score} compared with the {threshold_name} {threshold}: {verdict}"),
    _text("score_validator", "answer checker's score"),
    _text("score_blended", "combined score of the answer checker and the search"),
    _text("score_probability", "chance that the answer is right"),
    _text("threshold_answer", "answer threshold"),
    _text("threshold_yes_no", "yes/no threshold"),
    _text("threshold_complex", "threshold for questions in several steps"),
    _text("verdict_passed", "passed"),
    _text("verdict_failed", "not passed"),
    _text("expl_not_scored", "not scored: the validator did not run for this query"),
    _text("expl_developer", "Developer view"),
    _text("expl_probability", "Chance this answer is right"),
    _text("expl_probability_value", "about {percent} (measured on benchmark questions)"),
    _text("ui_placeholder_example", "Ask a question, e.g. “{example}”"),
    _text("unnamed", "(no name in my data)"),
    _text("ui_examples_english", "Try one of these"),
    _text("second_part",
          "You asked two questions at once; this answers the first. The second, “{second}”, is answered on its own."),
    _text("followup_about", "Read as a follow-up about {name}: “{question}”"),
    _text("unsupported_language",
          "This looks like {language}, which I do not speak yet. I can answer in: {supported}."),
    _text("ui_new_conversation", "New conversation"),
    _text("too_long_kept",
          "Your question is too long: {length} characters, the limit is {limit}. "
          "It is still in the box: please shorten it."),
    _text("yes_sentence", "Yes: {object} is the {property} of {subject}."),
    _text("no_sentence", "No: {object} is not the {property} of {subject}."),
    _text("badge_fallback", "The name in {language}: I have none in your language."),
    _text("ui_knows",
          "I know {facts} facts about {entities} people, places, countries and works, taken from Wikidata: "
          "where and when someone was born or died, capitals, languages, authors, members, dates and numbers. "
          "I answer in {languages} languages, and you can follow up (“and where did he die?”). "
          "Many facts are missing, so I often say “I don't know” rather than guess."),
    _text("unknown_entity", "I don't know anyone or anything called {name}."),
    _text("not_understood_unplaced",
          "I'm not sure I understood your question: I could not place «{unplaced}», so I give no answer."),
    _text("not_understood_partly",
          "I understood the {property} of {entity}, but not «{unplaced}», so I give no answer."),
    _text("data_lists", "My data lists {n}: {items}"),
    _text("data_disagrees", "My data says this both ways: yes from one side, no from the other, so I give no answer."),
    _plural("unnamed_more", "and {n} more without a name in my data", "and {n} more without a name in my data",
            count="n"),
    _plural("unnamed_alone", "{n} without a name in my data", "{n} without a name in my data", count="n"),
    _text("expl_decided", "What decided"),
    _text("decided_answered",
          "The answer checker judged this reading of your question right, and the checks after it agreed."),
    _text("decided_unchecked", "Nothing checked it: the answer checker is off, so this is the search's first reading."),
    _text("decided_gate", "The answer checker: it judged no reading of your question right enough to answer."),
    _text("decided_guard", "The query safety check: it refused every reading of your question."),
    _text("decided_namesake",
          "The namesake check: several things bear this name, and I could not tell which one you meant."),
    _text("decided_coverage",
          "The word check: the reading leaves words of your question unexplained, so I withheld its answer."),
    _text("decided_type",
          "The kind check: the answers are not the kind of thing your question asks for, so I withheld them."),
    _text("decided_number", "The count check: my data holds a list, not a count, so I give no number."),
    _text("decided_inverse",
          "The two-sides check: my data states this fact from both sides, and they disagree, so I give no yes or no."),
    _text("decided_empty", "My data: it holds no value for this reading of your question."),
    _text("decided_unnamed",
          "My data: it has the answer to this reading of your question, but no name for it that I can show."),
    _text("decided_no_reading", "The question reader: it found no reading of your question in my data."),
    _text("comparison_higher",
          "{winner} has the higher {property}: {winner_value}, against {other_value} for {other}."),
    _text("comparison_lower", "{winner} has the lower {property}: {winner_value}, against {other_value} for {other}."),
    _text("comparison_earlier",
          "{winner} has the earlier {property}: {winner_value}, against {other_value} for {other}."),
    _text("comparison_later", "{winner} has the later {property}: {winner_value}, against {other_value} for {other}."),
    _text("conversation_cut", "This conversation was too long to restore whole: its oldest messages were left out."),
)}
# ---- end of the messages ----

PARTIAL: frozenset[str] = frozenset({"ui_placeholder_example", "ui_examples_english"})
"""Variants translated only where they fit (chat/examples.py asks :data:`MESSAGES` whether a
language has them): the catalogs' completeness test lets these miss languages."""


class _Missing(gettext.NullTranslations):
    """The end of a catalog's fallback chain: ``None`` for an untranslated message."""

    def pgettext(self, context: str, message: str) -> str | None:  # type: ignore[override]
        return None

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str | None:  # type: ignore[override]
        return None


def catalog_path(lang: str, suffix: str = ".po", locale_dir: Path = LOCALE_DIR) -> Path:
    """Where ``lang``'s catalog is (``.po`` source or compiled ``.mo``)."""
    return locale_dir / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """``lang``'s compiled catalog (its ``.mo``; compiled in memory from the ``.po`` when the
    ``.mo`` is missing or older); an untranslated or fuzzy message gives ``None``."""
    po, mo = catalog_path(lang), catalog_path(lang, ".mo")
    if not po.is_file():
        table: gettext.NullTranslations = gettext.NullTranslations()
    elif mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as stream:
            table = gettext.GNUTranslations(stream)
    else:
        from babel.messages.mofile import write_mo  # babel's catalog modules: only without a compiled .mo
        from babel.messages.pofile import read_po

        with po.open("rb") as stream:
            catalog = read_po(stream, locale=lang, domain=DOMAIN)
        compiled = BytesIO()
        write_mo(compiled, catalog)
        compiled.seek(0)
        table = gettext.GNUTranslations(compiled)
    table.add_fallback(_Missing())
    return table


def translated(key: str, lang: str, n: int | None = None) -> str | None:
    """The catalog text of ``key`` in ``lang`` (the plural form for ``n``), ``None`` when
    ``lang`` lacks it."""
    source = SOURCE[key]
    table = translations(lang)
    if source.plural is None:
        return table.pgettext(key, source.english)
    return table.npgettext(key, source.english, source.plural, 1 if n is None else n)


def _english(key: str, n: int | None = None) -> str:
    source = SOURCE[key]
    return source.english if source.plural is None or n == 1 else source.plural


def _table(key: str) -> dict[str, str]:
    """``key`` in every language that has it (a plural message: its form for many)."""
    texts = {lang: translated(key, lang, 5) for lang in SUPPORTED if lang != "en"}
    return {"en": _english(key, 5)} | {lang: text for lang, text in texts.items() if text}


MESSAGES: dict[str, dict[str, str]] = {key: _table(key) for key in SOURCE}
"""key -> {lang: text}, read from the catalogs (for code that asks which languages have a
message); a module of new messages in this shape joins with ``MESSAGES.update(...)`` until
``python -m chat.catalogs import-dict`` moves it into the catalogs."""


def turn_message(turn: Turn) -> str:
    """What the turn tells the user, in its language (the pipeline names it by key)."""
    return message(turn.message_key or "dont_know", turn.lang, **turn.message_args)


def message(key: str, lang: str, **values: object) -> str:
    """The message ``key`` in ``lang`` (English when missing), formatted with ``values``;
    a count message takes the plural form its count needs in ``lang``."""
    text = template(key, lang, **values)
    return text.format(**values) if values else text


def template(key: str, lang: str, **values: object) -> str:
    """The text of message ``key`` in ``lang`` (English when missing) with its placeholders
    unfilled: for a count message, the plural form the count in ``values`` needs in ``lang``."""
    source = SOURCE.get(key)
    if source is None:  # a message not yet in the catalogs (joined with MESSAGES.update)
        table = MESSAGES[key]
        return table.get(lang) or table["en"]
    n = _count(values[source.count]) if source.count else None
    return translated(key, lang, n) or _english(key, n)


def _count(value: object) -> int:
    return int(value) if isinstance(value, int | float) else int(str(value))
