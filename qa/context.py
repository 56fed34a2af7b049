"""The conversation stage, ``context``: tie a follow-up question to the previous turn.

A chat is a conversation: after "Where was Mozart born?", "and his wife?", « Und wo ist er
gestorben? », « а где он умер? » or « et sa femme ? » ask about Mozart.  The previous turn
leaves a :class:`Context` (what its kept candidate was about, by ids: structure travels,
no SPARQL is read back); :func:`resolve` reads the new question with the words of its
language (``lang.get(code).pronouns``, :class:`lang.base.Pronouns`) and, when one of them
points back, rewrites the question with the name it stands for, in the question's
language ("and his wife?" -> "wife of Wolfgang Amadeus Mozart?").  The pipeline then asks
the backend that question and keeps only candidates about the entity it stands for
(:func:`ties`); when none is, the question is answered on its own, never glued to an
unrelated earlier subject.

Three kinds of reference, in this order (:class:`Resolution`.kind):

* ``pronoun``: a pronoun or possessive ("he", "his wife", «er», «его жена», « sa femme »);
* ``ellipsis``: an opener ("and", «а», « et ») and a short question without a name or a
  pronoun, as pro-drop languages ask (« ¿Y dónde murió? »): the name is added;
* ``property``: an opener and only a name ("and Beethoven?"): the previous property is asked
  of the new name ("place of birth of Beethoven").

A two-part question ("Where was Mozart born and when did he die?") is split by
:func:`split_parts`: the pipeline answers the first part and says so; the chat asks the
second as a follow-up of the first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from lang import get as language
from lang import is_supported
from lang.base import Pronouns
from qa.turn import Status, Turn

__all__ = ["Context", "Facts", "Reference", "Resolution", "context_after", "next_context", "references", "resolve",
           "split_parts", "ties"]

Kind = Literal["pronoun", "ellipsis", "property"]
Role = Literal["person", "thing", "place", "possessive", "of"]

_ID = re.compile(r"^[QP][1-9][0-9]{0,11}$")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*", re.UNICODE)
_TRAILING = re.compile(r"[\s?？!！.。¿¡]+$")
_INVERTED = re.compile(r"(?:-t)?-$")
MAX_ELLIPSIS_WORDS = 6
"""An opener's question with more words than this is a question of its own, not an ellipsis."""
MAX_NAME_WORDS = 4
"""An opener followed by at most this many capitalized words is a new name for the same question."""


@dataclass(frozen=True)
class Context:
    """What the previous turn was about: the subject its kept candidate read (its first
    entity), the other entities, the property, and the answers (entity ids only)."""

    subject: str | None = None
    entities: tuple[str, ...] = ()
    property: str | None = None
    answers: tuple[str, ...] = ()
    question: str = ""

    def __bool__(self) -> bool:
        return self.subject is not None or bool(self.answers)

    def to_json(self) -> dict[str, Any]:
        """The context as ``/api/ask`` takes it and the turn records it."""
        return {"subject": self.subject, "entities": list(self.entities), "property": self.property,
                "answers": list(self.answers), "question": self.question}

    @classmethod
    def from_json(cls, data: object) -> Context | None:
        """The context a client sent (``/api/ask``'s ``context``, the browser's stored
        conversation); ``None`` for anything that is not one (ids are checked)."""
        if not isinstance(data, Mapping):
            return None
        subject = data.get("subject")
        prop = data.get("property")
        question = data.get("question")
        context = cls(subject=subject if _is_id(subject, "Q") else None,
                      entities=_ids(data.get("entities"), "Q"), property=prop if _is_id(prop, "P") else None,
                      answers=_ids(data.get("answers"), "Q")[:MAX_CONTEXT_ANSWERS],
                      question=question[:1000] if isinstance(question, str) else "")
        return context or None


MAX_CONTEXT_ANSWERS = 20


def _is_id(value: object, prefix: str) -> bool:
    return isinstance(value, str) and value.startswith(prefix) and bool(_ID.match(value))


def _ids(values: object, prefix: str) -> tuple[str, ...]:
    if not isinstance(values, list | tuple):
        return ()
    return tuple(v for v in values if _is_id(v, prefix))[:50]


@dataclass(frozen=True)
class Reference:
    """A word of the question that points back: where it is (characters), and its role."""

    start: int
    end: int
    word: str
    role: Role


@dataclass(frozen=True)
class Resolution:
    """How a follow-up was read: the question rewritten, the entity (or property) it was
    tied to and its name, and the words that pointed back."""

    kind: Kind
    question: str
    referent: str
    name: str
    words: tuple[str, ...] = ()
    property: str | None = None  # kind "property": the previous turn's property, asked of a new name
    before: str | None = None  # Turn.read_as before the rewriting (restored when no reading ties)
    frames: tuple[str, str] | None = None  # a bare noun phrase asked about a person, about a thing

    def to_json(self) -> dict[str, Any]:
        """The turn's record of it."""
        return {"kind": self.kind, "question": self.question, "referent": self.referent, "name": self.name,
                "words": list(self.words), "property": self.property,
                "frames": list(self.frames) if self.frames else None}


@dataclass(frozen=True)
class Facts:
    """What :func:`resolve` needs to know of the KG: which ids are people, and names."""

    is_person: Callable[[str], bool]
    name: Callable[[str], str | None]


# ---------------------------------------------------------------- reading the question


def pronouns_of(lang: str | None) -> Pronouns:
    """The follow-up words of ``lang`` (none for an unsupported language)."""
    return language(lang).pronouns if lang and is_supported(lang) else Pronouns()


def strip_opener(text: str, pronouns: Pronouns) -> tuple[str, str]:
    """``(opener, rest)``: the follow-up opener the question starts with ("and", «а»,
    « et »; the longest), and the rest; ``("", text)`` without one."""
    lower = text.lower().lstrip("¿¡ ")
    lead = len(text) - len(text.lstrip("¿¡ "))
    for opener in sorted(pronouns.openers, key=len, reverse=True):
        if not lower.startswith(opener):
            continue
        after = lower[len(opener):]
        if pronouns.attached or not after or not (after[0].isalnum() or after[0] in "'’"):
            rest = text[lead + len(opener):].lstrip(" ,，、")
            if rest.strip(" ?？!！.。"):
                return text[:lead + len(opener)], rest
    return "", text


def _masked(text: str, pronouns: Pronouns) -> str:
    """``text`` (lower case) with the fixed phrases whose pronoun refers to nothing
    blanked ("is there", «gibt es»); same length as ``text``."""
    lower = text.lower()
    for phrase in pronouns.fixed:
        lower = re.sub(r"(?<!\w)" + re.escape(phrase) + r"(?!\w)", lambda m: " " * len(m.group(0)), lower)
    return lower


def references(text: str, pronouns: Pronouns) -> list[Reference]:
    """The words of ``text`` that point back to the previous turn, in order."""
    lower = _masked(text, pronouns)
    if pronouns.attached:
        return _attached_references(lower, pronouns)
    words = [(m.start(), m.end(), m.group(0).replace("’", "'")) for m in _WORD.finditer(lower)]
    out: list[Reference] = []
    for i, (start, end, word) in enumerate(words):
        following = words[i + 1][2] if i + 1 < len(words) else None
        role = _role(word, following, pronouns)
        if role is not None:
            out.append(Reference(start, end, text[start:end], role))
    return out


def _role(word: str, following: str | None, pronouns: Pronouns) -> Role | None:
    """The role of one (lower-case) word: a possessive when a content word follows it."""
    if word in pronouns.possessive and following is not None and _content(following, pronouns):
        return "possessive"
    if word in pronouns.of_pronouns:
        return "of"
    for role, words in (("person", pronouns.person), ("thing", pronouns.thing), ("place", pronouns.place)):
        if word in words:
            return role  # type: ignore[return-value]
    return None


def _content(word: str, pronouns: Pronouns) -> bool:
    """A word that can be the noun after a possessive (not a pronoun, not a question word)."""
    return (len(word) > 2 and word not in pronouns.second_starts and word not in pronouns.person
            and word not in pronouns.thing and word not in pronouns.joiners)


def _attached_references(lower: str, pronouns: Pronouns) -> list[Reference]:
    """Pronouns inside a text written without spaces (zh, ja), longest first, outside the
    words that only contain one (其他 "other")."""
    blocked = [(m.start(), m.end()) for word in pronouns.not_pronouns for m in re.finditer(re.escape(word), lower)]
    taken: list[tuple[int, int]] = []
    out: list[Reference] = []
    for role, words in (("person", pronouns.person), ("thing", pronouns.thing), ("place", pronouns.place)):
        for word in sorted(words, key=len, reverse=True):
            for m in re.finditer(re.escape(word), lower):
                span = (m.start(), m.end())
                if any(a < span[1] and span[0] < b for a, b in (*blocked, *taken)):
                    continue
                taken.append(span)
                out.append(Reference(span[0], span[1], m.group(0), role))  # type: ignore[arg-type]
    return sorted(out, key=lambda r: r.start)


def _has_name(text: str) -> bool:
    """Whether ``text`` has a capitalized word after its first (a name of its own)."""
    words = _WORD.findall(text)
    return any(w[:1].isupper() for w in words[1:]) or (len(words) == 1 and words[0][:1].isupper())


def _only_name(text: str) -> bool:
    """Whether ``text`` is only a name: one to :data:`MAX_NAME_WORDS` words, all capitalized
    (small joining words such as "van" aside)."""
    words = _WORD.findall(text)
    capitalized = [w for w in words if w[:1].isupper()]
    return 0 < len(words) <= MAX_NAME_WORDS and len(capitalized) >= max(1, len(words) - 1) and words[0][:1].isupper()


# ---------------------------------------------------------------- choosing what it refers to


def referent(context: Context, roles: Sequence[Role], is_person: Callable[[str], bool]) -> str | None:
    """Which entity the pointing words stand for: a person's pronoun for the previous
    subject when it is a person, else for the one answer when it is a person ("Who wrote
    Faust?" … "when did he die?"); "there" for the one answer when it is not a person
    ("What is the capital of France?" … "how many people live there?"), else the subject;
    any other (it, its) for the subject."""
    one_answer = context.answers[0] if len(context.answers) == 1 else None
    people = [qid for qid in (context.subject, one_answer) if qid and is_person(qid)]
    if "person" in roles or "of" in roles:
        return people[0] if people else None
    if "possessive" in roles:
        return people[0] if people else context.subject or one_answer
    things = [qid for qid in (context.subject, one_answer) if qid and qid not in people]
    if "place" in roles:
        if one_answer in things:
            return one_answer
        return things[0] if things else None
    return things[0] if things else None


# ---------------------------------------------------------------- rewriting


def rewrite(text: str, refs: Sequence[Reference], name: str, pronouns: Pronouns) -> str:
    """``text`` with each pointing word replaced by ``name`` ("his wife" -> "wife of
    Mozart", in Russian's order "жена Моцарт"; in zh/ja the name takes the pronoun's place)."""
    out = text
    for ref in sorted(refs, key=lambda r: r.start, reverse=True):
        if ref.role == "possessive" and not pronouns.attached:
            out = _move_owner(out, ref, name, pronouns)
        elif ref.role == "of":
            out = out[:ref.start] + (f"{pronouns.of} {name}" if pronouns.of else name) + out[ref.end:]
        else:
            start = ref.start
            inverted = _INVERTED.search(out[:start])  # « où est-il mort » -> « où est Einstein mort »
            if inverted:
                start = inverted.start()
                name = " " + name
            out = out[:start] + name + out[ref.end:]
    return re.sub(r"\s{2,}", " ", out).strip()


def _move_owner(text: str, ref: Reference, name: str, pronouns: Pronouns) -> str:
    """"his wife" -> "wife of Mozart" (or "wife Mozart", or "Mozart wife" where the owner
    comes first)."""
    after = text[ref.end:]
    words = list(_WORD.finditer(after))
    if not words or not (pronouns.of or pronouns.owner_after):
        return text[:ref.start] + name + text[ref.end:]
    noun = words[0]
    if not any(w.group(0).lower() in pronouns.second_starts for w in _WORD.finditer(text)):
        noun = words[-1]  # a bare noun phrase ("its official language?"): the owner goes after all of it
    owner = f"{pronouns.of} {name}" if pronouns.of else name
    end = ref.end + noun.end()
    article = dict(pronouns.articles).get(ref.word.lower(), "")
    before = text[:ref.start]
    if article and not before.lower().rstrip().endswith(article):  # « sa femme » -> « la femme de … »
        before += article + " "
    return before + after[:noun.end()].lstrip() + " " + owner + text[end:]


def _append(text: str, words: str) -> str:
    """``text`` with ``words`` added before its final punctuation."""
    tail = _TRAILING.search(text)
    cut = tail.start() if tail else len(text)
    return f"{text[:cut]} {words}{text[cut:]}"


def resolve(question: str, lang: str | None, context: Context | None, facts: Facts) -> Resolution | None:
    """How ``question`` refers to ``context``, rewritten with the name it stands for, or
    ``None`` when it is a question of its own (then it is answered as asked)."""
    if not context:
        return None
    pronouns = pronouns_of(lang)
    opener, rest = strip_opener(question, pronouns)
    refs = references(rest, pronouns)
    if refs:
        qid = referent(context, [r.role for r in refs], facts.is_person)
        name = facts.name(qid) if qid else None
        if qid is None or not name:
            return None
        rewritten = rewrite(rest, refs, name, pronouns)
        return Resolution("pronoun", _sentence(rewritten), qid, name, tuple(r.word for r in refs),
                          frames=frames(rewritten, pronouns))
    if not opener or pronouns.attached:
        return None
    words = _WORD.findall(rest)
    if context.property and _only_name(rest):
        prop = facts.name(context.property)
        if not prop:
            return None
        joined = f"{prop} {pronouns.of} {_TRAILING.sub('', rest)}" if pronouns.of else f"{prop} {rest}"
        return Resolution("property", _sentence(joined), context.property, prop, (), context.property,
                          frames=frames(joined, pronouns))
    if context.subject and words and len(words) <= MAX_ELLIPSIS_WORDS and not _has_name(rest):
        name = facts.name(context.subject)
        if not name:
            return None
        return Resolution("ellipsis", _sentence(_append(rest, name)), context.subject, name, (opener.strip(),))
    return None


def frames(text: str, pronouns: Pronouns) -> tuple[str, str] | None:
    """A bare noun phrase ("wife of Mozart") as a question about a person and about a thing
    ("Who is the wife of Mozart?", "What is the wife of Mozart?"); ``None`` when ``text``
    has a question word already, or the language asks noun phrases as they are."""
    if not pronouns.who or any(w.lower() in pronouns.second_starts for w in _WORD.findall(text)):
        return None
    phrase = _TRAILING.sub("", text).strip()
    return pronouns.who.format(phrase), pronouns.what.format(phrase)


def _sentence(text: str) -> str:
    """``text`` starting with a capital, as the backends read a question."""
    text = text.strip()
    return text[:1].upper() + text[1:] if text else text


def ties(resolution: Resolution, entities: Sequence[str], properties: Sequence[str]) -> bool:
    """Whether a candidate with these ``entities`` and ``properties`` answers the follow-up
    as it was resolved (about the entity it stands for; for a new name, the same property)."""
    if resolution.kind == "property":
        return resolution.property in properties
    return resolution.referent in entities


# ---------------------------------------------------------------- two questions in one


def split_parts(question: str, lang: str | None) -> tuple[str, str] | None:
    """``(first, second)`` for two questions joined by "and" ("Where was Mozart born and
    when did he die?"): a joiner followed by a word a question starts with, with at least
    two words on each side; ``None`` for one question."""
    pronouns = pronouns_of(lang)
    if pronouns.attached or not pronouns.joiners:
        return None
    words = list(_WORD.finditer(question))
    for i in range(2, len(words) - 2):
        joiner, following = words[i], words[i + 1]
        if joiner.group(0).lower() in pronouns.joiners and following.group(0).lower() in pronouns.second_starts:
            first = question[:joiner.start()].rstrip(" ,;")
            second = question[joiner.end():].strip()
            end = _TRAILING.search(question)
            mark = end.group(0).strip() if end else ""
            return first + (mark if not first.endswith(mark) else ""), _sentence(second)
    return None


# ---------------------------------------------------------------- the next turn's context


def next_context(previous: Context | None, *, answered: bool, entities: Sequence[str], properties: Sequence[str],
                 answers: Sequence[str], question: str, followup: bool) -> Context | None:
    """The context the next question gets after a turn: the turn's own when it answered
    (what its kept candidate was about, and its answers); the previous one kept when an
    unanswered follow-up did not move the conversation; none after an unanswered question
    of its own (the conversation moved on to something the chat could not read)."""
    if answered and (entities or answers):
        return Context(subject=entities[0] if entities else None, entities=tuple(entities),
                       property=properties[0] if properties else None,
                       answers=tuple(a for a in answers if _is_id(a, "Q"))[:MAX_CONTEXT_ANSWERS],
                       question=question)
    return previous if followup else None


def context_after(turn: Turn, previous: Context | None) -> Context | None:
    """The context for the question after ``turn`` (:func:`next_context` of its kept
    candidate's entities and property, and its answers' ids)."""
    kept = next((c for c in turn.candidates if c.kept), None)
    return next_context(previous, answered=turn.answered and turn.status == Status.OK,
                        entities=kept.entities if kept else (), properties=kept.properties if kept else (),
                        answers=[a.id for a in turn.answers if a.id], question=turn.read_as or turn.question,
                        followup=bool(turn.context and turn.context.get("tied")))
