"""The ``number`` component: the answer's number fits the question.

* a "how many" question answered by a plain lookup is shown only when the answers are
  numbers: an explicit quantity (« number of children »), never entities;
* a COUNT is shown as a number with the list it counts (``counted``: the pipeline puts
  the things counted in :attr:`qa.turn.Turn.counted`, "my data lists N: a, b, …", so the
  user sees what the number stands for and the KG's list may be judged); a COUNT whose
  list cannot be read is withheld (a bare number is never shown), and so is a count of one:
  "how many" asks for several, and a list of one is most often the KG's part of a list ("How
  many children did Queen Victoria have?": one of nine), so the reply says what the data
  lists (``data_lists``, a partial-knowledge reply);
* a number the question states ("in 2013", "the 40th") must be accounted for by the
  reading (:func:`qa.reading.expect.unused_numbers`);
* a list where one thing was asked for ("which country …", a question word of the
  ``which`` kind, :attr:`lang.base.Language.question_words`, before a class noun written
  as its singular label) is not shown."""

from __future__ import annotations

from core.errors import KGQueryError, KGTimeout
from kg.client import KG
from kg.sparql import local_id
from lang import SUPPORTED
from lang import get as language
from qa.candidate import Link
from qa.decisions import Case, Verdict, passed, withheld
from qa.reading.expect import AnswerTypes, count_mismatch, unused_numbers

READ_BY = 10
EXACTNESS = ("label", "alias", "folded", "inflected")
"""Link kinds (:attr:`qa.candidate.Link.kind`), the most exact first; any other is looser."""
LISTED = 10
"""At most this many of the counted things are named."""


class NumberCheck:
    """Withholds a count asked of a list, a reading that ignores a stated number, and a
    COUNT over a list (its reply words it as the list counted)."""

    name = "number"
    phase = "result"
    noted = "withheld"

    def __init__(self, kg: KG, answer_types: AnswerTypes | None, *, timeout_s: float = 5.0) -> None:
        self.kg = kg
        self.answer_types = answer_types
        self.timeout_s = timeout_s

    def __call__(self, case: Case) -> Verdict:
        kept, view, result = case.kept, case.kept_view, case.result
        if kept is None or result is None:
            return passed(self.name)
        if self.answer_types is not None and count_mismatch(
                self.answer_types.expected_answer_type(case.question, case.lang), kept.shape, result):
            return withheld(self.name, "a count was asked, but the kept candidate's answers are not numbers")
        said = [view.verbalization] if view is not None and view.verbalization else []
        if unused := unused_numbers(case.question, kept.shape, said, kept.links, result):
            return withheld(self.name, f"the kept candidate leaves the question's number(s) {', '.join(unused)} unused")
        one = singular_asked(case)
        answers = {t.value for t in result.column() if t is not None}
        if one is not None and kept.shape == "plain" and result.boolean is None and len(answers) > 1:
            return withheld(self.name, f"one {one.mention!r} was asked for, but the reading lists {len(answers)}")
        if kept.shape == "count" and kept.triples:
            return self._counted(case)
        if kept.shape == "plain" and result.boolean is None and (echo := echoed(case, answers)):
            return withheld(self.name, f"the answer {echo} is named by the words the reading took for "
                                       f"{', '.join(sorted(kept.entities))}: the question asks about it")
        return passed(self.name)

    def _counted(self, case: Case) -> Verdict:
        """A COUNT is shown with the things it counts (``counted``: "my data lists N: a, b,
        …"); one whose list cannot be read, or names nothing, is withheld."""
        kept = case.kept
        assert kept is not None
        why = "a count is shown only with the list it counts"
        variables = sorted({t for triple in kept.triples for t in triple if t.startswith("?")})
        if not variables:
            return withheld(self.name, why)
        var = "?x" if "?x" in variables else variables[0]
        body = " ".join(f"{s} {p} {o} ." for s, p, o in kept.triples)
        try:
            rows = self.kg.query(f"SELECT DISTINCT {var} WHERE {{ {body} }}", timeout_s=self.timeout_s,
                                 max_rows=LISTED + 1).rows
        except (KGTimeout, KGQueryError):
            return withheld(self.name, f"{why}; its list could not be read")
        ids = [qid for row in rows if (t := row.get(var[1:])) is not None and (qid := local_id(t.value))]
        if not ids:
            return withheld(self.name, f"{why}; it names nothing")
        args = {"ids": ids[:LISTED], "more": len(ids) > LISTED, "n": counted(case, len(ids))}
        if len(ids) == 1:  # "how many" asks for several: a list of one is the KG's part of a list
            return withheld(self.name, "a count of one is no answer: the reply says what the data lists",
                            "data_lists", args)
        return Verdict(self.name, False, "a count, shown with the things it counts", "counted",
                       args)


def counted(case: Case, listed: int) -> str:
    """The COUNT's number as the KG gave it (``listed``, the things read, when it gave none)."""
    result = case.result
    value = next((t.value for t in result.column() if t is not None), None) if result is not None else None
    return value if value is not None else str(listed)


def echoed(case: Case, answers: set[str]) -> str | None:
    """The answer (ids) when every answer is an entity that a reading links by the very words
    the kept reading took for one of its own entities, and that those words name better: by a
    more exact name (:data:`EXACTNESS`), or as exactly while the answer is the better known
    (its degree) and no class (a language with its dialects is also named by its country's
    word, « Francia »: that is what "the official language of France" answers).
    « ¿Dónde se habla el francés? » read as the official language of France (« francés »
    linked to France as an inflected « Francia », to French by its label) answers French, the
    thing the question names and asks about; « ¿Qué país limita con Austria y con Italia? »
    read with Milan for « Italia » (an alias of both) answers Italy.  ``None`` otherwise; an
    answer that is the reading's own entity (Monaco's country) is no echo."""
    kept = case.kept
    if kept is None or not answers:
        return None
    ids = {local_id(a) or a for a in answers}
    if ids & set(kept.entities):
        return None
    own = [link for link in kept.links if link.span is not None and not link.is_class]
    named = {link.qid for candidate in case.candidates[:READ_BY] for link in candidate.links
             if link.span is not None and any(_names_better(link, mine) for mine in own)}
    return ", ".join(sorted(ids)) if own and ids <= named else None


def _names_better(link: Link, mine: Link) -> bool:
    """Whether ``link`` reads all the words of ``mine`` (its span holds ``mine``'s) as another
    entity that they name better (:func:`echoed`).  A part of the name is no echo: « Real
    Madrid » does not name Madrid, nor "Toyota Corolla" Toyota."""
    assert link.span is not None and mine.span is not None
    if not (link.span[0] <= mine.span[0] and mine.span[1] <= link.span[1]) or link.qid == mine.qid:
        return False
    ours, theirs = exactness(mine), exactness(link)
    return theirs < ours or (theirs == ours and not link.is_class and link.degree > mine.degree)


def exactness(link: Link) -> int:
    """How exactly a link's words name its entity: 0 for a label as written, up to
    ``len(EXACTNESS)`` for a link by an inflected form, a spelling or a sound."""
    return EXACTNESS.index(link.kind) if link.kind in EXACTNESS else len(EXACTNESS)


def singular_asked(case: Case) -> Link | None:
    """The class noun of a question that asks for one thing: a ``which`` question word
    (:attr:`lang.base.Language.question_words`) right before a class noun linked by its
    label as written (a Wikidata label is singular; a plural is linked as an inflected form)."""
    if case.lang not in SUPPORTED:
        return None
    which = {w for w, kind in language(case.lang).question_words.items() if kind == "which"}
    for candidate in case.candidates[:READ_BY]:
        for link in candidate.links:
            if (link.is_class and link.kind == "label" and link.span is not None and link.span[0] > 0
                    and case.tokens[link.span[0] - 1] in which):
                return link
    return None
