"""The ``type`` component: the answers are of the kind the question asks for.

The expected kind comes from the question word (:class:`qa.reading.expect.AnswerTypes`: who -> a
person, where -> a place, when -> a date, how many -> a number) and from a class noun the
question names ("which *country*", "what *sport*"): a class the linker read (an exact
:class:`~qa.candidate.Link` with ``is_class``) that the kept reading does not explain itself,
or, where no candidate links the noun after the question word, the classes the KG names by it
in the question's language (:meth:`TypeCheck._looked_up`; the classes one noun names are
alternatives: « ville », a city or a town).
A place asked of a thing is never the thing itself ("where is Colombia?" answered
Colombia, its own country).  It is checked against the answers in one batched query: their classes (``P31/P279*``) and
any statement naming the class ("which actor": occupation actor), and their datatypes.

Before execution it also withholds a role question answered by a work's whole cast
(:func:`qa.reading.expect.role_mismatch`)."""

from __future__ import annotations

from collections.abc import Sequence

from core.errors import KGQueryError, KGTimeout
from core.text import fold, tokenize
from kg.client import KG, Term, value_kind
from kg.sparql import entity_iri, literal, local_id, prop_iri
from lang import SUPPORTED
from lang import get as language
from lang.morphology import dictionary_candidates, inflection_prefix, same_word
from qa.candidate import EXACT_LINKS, TYPING_PROPERTIES, Candidate, Link
from qa.decisions import Case, Verdict, passed, withheld
from qa.decisions.coverage import asking_words, listed_at
from qa.reading.expect import AnswerTypes, role_mismatch
from qa.reading.reading import function_word, is_word

HUMAN = "Q5"
INSTANCE_OF = prop_iri("P31")
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
CHECKED_ANSWERS = 50
"""At most this many answers are looked up (the first ones)."""
READ_BY = 10
TYPING_MEMBERS = 50
"""A class looked up by its name holds the answers only when the KG types at least this many
things as its members (``P31``; the KG holds no ``P279``): a class it gives a few members
(« location », 5; « sport », 5) is not how it types such things (Vienna is a city, not a
"location"), so its answers cannot be expected to carry it."""

SETTLEMENT_NOUNS = frozenset({"Q515", "Q3957", "Q532", "Q486972", "Q7930989", "Q1549591", "Q15284"})
"""The KG's classes of places people live in that a question names loosely: city, town, village,
human settlement, city/town, big city, municipality.  One of them asked for is any of
:data:`SETTLEMENTS` ("In which town was Jesus born?": the KG's answer, Nazareth, is a city; "In
which town was Einstein born?": Ulm, a city and a big city); a capital, a country or a region still is not."""
SETTLEMENTS = SETTLEMENT_NOUNS | frozenset({
    "Q1637706",  # city with millions of inhabitants
    "Q200250",  # metropolis
    "Q5119",  # capital
    "Q1093829",  # city of the United States
    "Q15127012",  # town of the United States
    "Q484170",  # commune of France
    "Q262166",  # municipality of Germany
    "Q747074",  # comune of Italy
    "Q2074737",  # municipality of Spain
    "Q3184121",  # municipality of Brazil
})
"""Settlement classes an answer may carry where :data:`SETTLEMENT_NOUNS` are asked for (the KG
holds no ``P279``: its settlements are typed by these, not by "human settlement")."""


PLACE = "place"
"""The answer type of a property whose values are places (the lexicon's ``answer_type``)."""


class TypeCheck:
    """Withholds answers whose kind the question did not ask for."""

    name = "type"
    phase = "result"
    noted = "withheld"

    def __init__(self, kg: KG, answer_types: AnswerTypes | None, *, timeout_s: float = 5.0) -> None:
        self.kg = kg
        self.answer_types = answer_types
        self.timeout_s = timeout_s

    def __call__(self, case: Case) -> Verdict:
        kept, result = case.kept, case.result
        if kept is None or result is None or result.boolean is not None:
            return passed(self.name)
        if self.answer_types is not None and role_mismatch(self.answer_types.find_cues(case.question, case.lang),
                                                           kept.shape, kept.properties):
            return withheld(self.name, "a role was asked about, but the kept candidate lists a work's whole cast")
        if kept.shape != "ask" and asks_yes_or_no(case):
            return withheld(self.name, "a yes/no question was asked, but the kept candidate lists answers")
        if (why := self._other_tie(case, kept)) is not None:
            return withheld(self.name, why)
        if kept.shape != "plain":
            return passed(self.name)
        terms = [t for t in result.column() if t is not None][:CHECKED_ANSWERS]
        if not terms:
            return passed(self.name)
        expected = self.answer_types.expected_answer_type(case.question, case.lang) if self.answer_types else None
        kinds = {value_kind(t) for t in terms}
        if why := literal_mismatch(expected, kinds):
            return withheld(self.name, why)
        if expected == "place" and (own := itself(kept.entities, terms)) is not None:
            return withheld(self.name, f"where {own} is was asked, but the answer is {own} itself")
        uris = [t.value for t in terms if t.kind == "uri"]
        asked = [settled(a) for a in alternatives(asked_classes(case))]
        looked: list[Asked] = []
        if uris:
            linked = {span for span, _, _ in asked}
            looked = [settled((span, qids, words)) for span, qids, words in self._looked_up(case)
                      if not any(a < span[1] and span[0] < b for a, b in linked)]
        if uris and not asked and not looked and (other := self._property_asked(case)):
            noun, pid = other
            return withheld(self.name, f"{noun!r} names the property {pid}, which the kept reading does not read")
        if not uris or (expected != "place" and not asked and not looked):
            return passed(self.name, f"expected {expected or 'anything'}")
        wanted = {q for _, qids, _ in [*asked, *looked] for q in qids}
        wanted |= {HUMAN} if expected == "place" or looked else set()
        found = self._named(uris, wanted)
        if found is None:
            return passed(self.name, "the answers' classes could not be read")
        people = any(HUMAN in found.get(u, ()) for u in uris)
        if expected == "place" and all(HUMAN in found.get(u, ()) for u in uris):
            return withheld(self.name, "a place was asked for, but every answer is a person")
        if not people:  # a kind of person is an occupation the KG ties loosely (a writer is no "artist" in it)
            asked += looked
        missing = [(span, qids, words) for span, qids, words in asked
                   if not any(qids & found.get(u, set()) for u in uris)]
        if missing:
            named = self._class_names(uris)
            for span, qids, words in missing:  # « городе », as the class is named: « город »
                if named is not None and not any(words & names for names in named.values()):
                    noun = " ".join(case.tokens[span[0]:span[1]])
                    return withheld(self.name, f"{noun!r} ({', '.join(sorted(qids))}) was asked for, "
                                    "but no answer is one")
        return passed(self.name, "the answers are of the kind asked for")

    def _looked_up(self, case: Case) -> list[Asked]:
        """The classes named, in the question's language, by a noun where the question asks
        for a class (:func:`asked_nouns`) that no candidate links as a class: "what *country*
        is the Mekong in?" where the candidates read "country" only as a property word.  Every
        class of that name, or of one of its dictionary forms ("books": "book"), that the KG
        types things by (:data:`TYPING_MEMBERS`) is one the answers may be of (« ville »: a city or a town).
        Answers that are people are not held to such a noun: a person's kind is an occupation,
        which the KG ties to its broader kinds too loosely ("which *artist*" answered by a writer)."""
        nouns = asked_nouns(case)
        if not nouns:
            return []
        forms = {i: noun_forms(case.tokens[i]) for i in nouns}
        written = {i: {f for form in fs for f in (form, form[:1].upper() + form[1:])} for i, fs in forms.items()}
        literals = " ".join(sorted({literal(form, lang=case.lang) for fs in written.values() for form in fs}))
        sparql = (f"SELECT ?c ?l WHERE {{ VALUES ?l {{ {literals} }} ?c <{RDFS_LABEL}> ?l . "
                  f"?x <{INSTANCE_OF}> ?c }} GROUP BY ?c ?l "
                  f"HAVING (COUNT(?x) >= {TYPING_MEMBERS})")
        rows = self._rows(sparql, 200)
        if rows is None:
            return []
        named: dict[str, set[str]] = {}
        for row in rows:
            c, label = row.get("c"), row.get("l")
            qid = local_id(c.value) if isinstance(c, Term) else None
            if qid and qid.startswith("Q") and isinstance(label, Term):
                named.setdefault(label.value.lower(), set()).add(qid)
        out: list[Asked] = []
        for i in nouns:
            if qids := {q for form in forms[i] for q in named.get(form, ())}:
                out.append(((i, i + 1), frozenset(qids), frozenset(forms[i] | {fold(f) for f in forms[i]})))
        return out

    def _property_asked(self, case: Case) -> tuple[str, str] | None:
        """A noun right after a "which" or "what" word that names no class the KG types things
        by (:data:`TYPING_MEMBERS`) but is the exact name of a property in the question's
        language (« sport », P641; the class "sport" has 5 members), when the kept reading reads
        another property: "Which sport does Cristiano Ronaldo play?" asks for his sport, not the
        teams he plays for.  ``(noun, pid)`` or ``None``; a noun that also names such a class
        ("country") is the type check's."""
        kept = case.kept
        if kept is None or not kept.properties or case.lang not in SUPPORTED:
            return None
        asking, tokens = asking_words(case.lang), case.tokens
        of = language(case.lang).pronouns.of
        linked = {i for link in kept.links if link.span is not None and not link.is_class for i in range(*link.span)}
        nouns = [i for i in range(1, len(tokens)) if tokens[i - 1] in asking and i not in linked
                 and is_word(tokens[i]) and not function_word(tokens[i], case.lang)
                 and not (of and i + 1 < len(tokens) and tokens[i + 1] == of)]
        if not nouns:
            return None
        literals = " ".join(sorted({literal(tokens[i], lang=case.lang) for i in nouns}))
        sparql = (f"SELECT ?p ?l WHERE {{ VALUES ?l {{ {literals} }} ?p <{RDFS_LABEL}> ?l . "
                  f"FILTER(STRSTARTS(STR(?p), \"http://www.wikidata.org/entity/P\")) }}")
        classes = (f"SELECT ?l WHERE {{ VALUES ?l {{ {literals} }} ?c <{RDFS_LABEL}> ?l . "
                   f"?x <{INSTANCE_OF}> ?c }} GROUP BY ?c ?l "
                   f"HAVING (COUNT(?x) >= {TYPING_MEMBERS})")
        try:
            rows = self.kg.query(sparql, timeout_s=self.timeout_s, max_rows=20).rows
            if rows:
                typing = {t.value for row in self.kg.query(classes, timeout_s=self.timeout_s, max_rows=20).rows
                          if isinstance(t := row.get("l"), Term)}
                rows = [row for row in rows if isinstance(t := row.get("l"), Term) and t.value not in typing]
        except (KGTimeout, KGQueryError):
            return None
        for row in rows:
            p, label = row.get("p"), row.get("l")
            pid = local_id(p.value) if isinstance(p, Term) else None
            if pid and isinstance(label, Term) and pid not in kept.properties and not self._says_place(pid, kept):
                return label.value, pid
        return None

    def _says_place(self, pid: str, kept: Candidate) -> bool:
        """Whether the property a noun names asks for a place, as every property the kept reading
        reads does: the noun then says the kind of answer asked for ("what **location** is the
        place of death for guido adler": P276 and the place of death are both places), not another
        relation of the entity."""
        types = self.answer_types
        return (types is not None and types.answer_type(pid) == PLACE
                and all(types.answer_type(p) == PLACE for p in kept.properties if p not in TYPING_PROPERTIES))

    def _rows(self, sparql: str, max_rows: int) -> list[dict[str, Term]] | None:
        """The rows of ``sparql`` (at most ``max_rows``), or ``None`` when the query fails or
        times out (a check that cannot read the KG withholds nothing)."""
        try:
            return self.kg.query(sparql, timeout_s=self.timeout_s, max_rows=max_rows).rows
        except (KGTimeout, KGQueryError):
            return None

    def _class_names(self, uris: Sequence[str]) -> dict[str, set[str]] | None:
        """Per answer IRI, the words of its classes' names in any language (« capital city »
        is a city even where the KG holds no ``P279`` path to "city"); ``None`` when the
        query fails."""
        values = " ".join(f"<{u}>" for u in uris)
        sparql = (f"SELECT ?a ?l WHERE {{ VALUES ?a {{ {values} }} "
                  f"?a <{INSTANCE_OF}> ?k . ?k <{RDFS_LABEL}> ?l }}")
        rows = self._rows(sparql, 2000)
        if rows is None:
            return None
        out: dict[str, set[str]] = {}
        for row in rows:
            a, label = row.get("a"), row.get("l")
            if isinstance(a, Term) and isinstance(label, Term):
                words = tokenize(label.value)
                out.setdefault(a.value, set()).update(words, (fold(w) for w in words))
        return out

    def _other_tie(self, case: Case, kept: Candidate) -> str | None:
        """Why the kept reading is withheld when no word of the question but a class noun
        says its relation (:func:`noun_tie`) and the KG ties its entity to more things of that
        class by another property, or to as many: "Michael Bay movies" read as the films he
        appears in (3) lists his films as an actor, where he directed 8 (« movies » reads the cast
        too, as in "movies with Tom Hanks"); « películas de George Lucas » are 5 films he appears
        in and 5 he directed; ``None`` otherwise, or when the ties cannot be read."""
        found = noun_tie(case, kept)
        if found is None:
            return None
        entity, pid, cls = found
        cls = cls or self._members_class(entity, pid)
        if cls is None:
            return None
        sparql = (f"SELECT ?p (COUNT(DISTINCT ?a) AS ?n) WHERE {{ ?a ?p <{entity_iri(entity)}> . "
                  f"?a <{INSTANCE_OF}> <{entity_iri(cls)}> }} GROUP BY ?p")
        rows = self._rows(sparql, 200)
        if rows is None:
            return None
        counts = {local_id(p.value): int(float(n.value)) for row in rows
                  if isinstance(p := row.get("p"), Term) and isinstance(n := row.get("n"), Term)
                  and n.value.replace(".", "", 1).isdigit()}
        own = counts.get(pid, 0)
        other = max(((n, p) for p, n in counts.items() if p and p != pid and p not in TYPING_PROPERTIES),
                     default=(0, ""))
        if other[0] > own:
            return (f"only the class noun says the relation, and {other[1]} ties {entity} to more {cls} "
                    f"({other[0]}) than the kept {pid} ({own})")
        if other[0] == own > 0:  # as many each way: which the noun means is a guess
            return (f"only the class noun says the relation, and {other[1]} ties {entity} to as many {cls} "
                    f"({own}) as the kept {pid}")
        return None

    def _members_class(self, entity: str, pid: str) -> str | None:
        """The class most of ``?answer <pid> <entity>`` are instances of (``None``: none, or
        the query fails)."""
        try:
            tie = prop_iri(pid)
        except ValueError:  # no property id: no query to ask
            return None
        sparql = (f"SELECT ?c (COUNT(DISTINCT ?a) AS ?n) WHERE {{ ?a <{tie}> <{entity_iri(entity)}> . "
                  f"?a <{INSTANCE_OF}> ?c }} GROUP BY ?c ORDER BY DESC(?n) LIMIT 1")
        rows = self._rows(sparql, 1)
        if rows is None:
            return None
        return next((local_id(c.value) for row in rows if isinstance(c := row.get("c"), Term)), None)

    def _named(self, uris: Sequence[str], classes: set[str]) -> dict[str, set[str]] | None:
        """Per answer IRI, which of ``classes`` it is an instance of (``P31/P279*``) or names in
        any statement; ``None`` when the query fails."""
        values = " ".join(f"<{u}>" for u in uris)
        wanted = " ".join(f"<{entity_iri(c)}>" for c in sorted(classes))
        bound = f"VALUES ?a {{ {values} }} VALUES ?c {{ {wanted} }}"  # inside each branch: an engine joins a
        # UNION with outer VALUES after the fact (oxigraph read every ``?a ?p ?c`` triple: 14 s for 18 answers)
        sparql = (f"SELECT DISTINCT ?a ?c WHERE {{ {{ {bound} "
                  f"?a <{INSTANCE_OF}>/<http://www.wikidata.org/prop/direct/P279>* ?c }}"
                  f" UNION {{ {bound} ?a ?p ?c }} }}")
        rows = self._rows(sparql, len(uris) * len(classes) + 1)
        if rows is None:
            return None
        out: dict[str, set[str]] = {}
        for row in rows:
            a, c = row.get("a"), row.get("c")
            qid = local_id(c.value) if isinstance(c, Term) else None
            if isinstance(a, Term) and qid:
                out.setdefault(a.value, set()).add(qid)
        return out


def noun_tie(case: Case, kept: Candidate) -> tuple[str, str, str | None] | None:
    """``(entity, property, class)`` when the kept reading lists or counts the things of a
    class (``?answer <property> <entity>``, one such tie; the class ``None`` when no link
    names it) and no word of the question says a relation but the class noun itself: no
    content word (neither a function word nor a cue word) outside the names and the class
    noun ("Michael Bay movies": « movies », the class noun; « Quantos filmes Quentin Tarantino
    dirigiu? » says « dirigiu », which the lexicon may not read); an exclusion, by its words for its properties
    (:attr:`Candidate.wording`), those of the relation it excludes aside.  ``None`` otherwise."""
    ties = [(p, o) for s, p, o in kept.triples if s == "?answer" and o.startswith("wd:")
            and p.removeprefix("wdt:") not in TYPING_PROPERTIES]
    if len(ties) != 1:
        return None
    pid, entity = ties[0][0].removeprefix("wdt:"), ties[0][1].removeprefix("wd:")
    nouns = {link.span: link.qid for c in case.candidates for link in c.links
             if link.is_class and link.span is not None}
    typed = [o.removeprefix("wd:") for s, p, o in kept.triples
             if s == "?answer" and p == "wdt:P31" and o.startswith("wd:")]
    alone = sorted(set(nouns.values())) if len(set(nouns.values())) == 1 else []  # the question's one class noun
    cls = next(iter(typed or [link.qid for link in kept.links if link.is_class] or alone), None)
    spans = {span for span, qid in nouns.items() if qid == cls} | {(a, b) for a, b, kind in kept.explains
                                                                    if kind == "class"}
    spans |= {kept.typed_noun} if kept.typed_noun is not None else set()
    spans |= {link.span for link in kept.links if link.span is not None and not link.is_class}
    read = {i for a, b in spans for i in range(a, b)}
    if kept.excluded:  # its words for its properties (Candidate.wording), the excluded relation's aside
        excluded = {p.removeprefix("wdt:") for _, p, _ in kept.excluded}
        return None if any(p not in excluded for p, _ in kept.wording) else (entity, pid, cls)
    reading = case.reading
    cues = {i for i, _ in reading.cues} if reading is not None else set()
    function = reading.function_words if reading is not None else frozenset()
    said = {i for a, b, kind in kept.explains if kind == "property" for i in range(a, b)}
    said |= {i for i, t in enumerate(case.tokens) if is_word(t) and i not in function and i not in cues}
    return None if said - read else (entity, pid, cls)


def asks_yes_or_no(case: Case) -> bool:
    """Whether the question asks yes or no (its reading says so: :attr:`Reading.yes_no`) and one of the
    first candidates reads it so (an ``ask``): a list then answers another question (« ¿Rainer
    Maria Rilke nació en Viena? » answered « Praga »)."""
    return (any(c.shape == "ask" for c in case.candidates[:READ_BY])
            and case.reading is not None and case.reading.yes_no)


def literal_mismatch(expected: str | None, kinds: set[str]) -> str | None:
    """Why answers of these value kinds (:func:`kg.client.value_kind`) are not of the
    ``expected`` kind, or ``None``."""
    if expected == "date" and kinds == {"uri"}:
        return "a date was asked for, but the answers are entities"
    if expected in ("person", "place", "organization", "work") and "uri" not in kinds:
        return f"a {expected} was asked for, but the answers are values ({', '.join(sorted(kinds))})"
    return None


def itself(entities: Sequence[str], terms: Sequence[Term]) -> str | None:
    """The question's own entity when it is every answer ("where is Colombia?" read as
    Colombia's country: Colombia), else ``None``: a place asked of a thing is never the thing."""
    ids = {local_id(t.value) if t.kind == "uri" else None for t in terms}
    if len(ids) == 1 and (qid := next(iter(ids))) is not None and qid in entities:
        return qid
    return None


Asked = tuple[tuple[int, int], frozenset[str], frozenset[str]]
"""A class noun the question asks for: its span, the classes it may name (any one will do)
and the words the answers' class names may say it with."""


def settled(asked: Asked) -> Asked:
    """A settlement noun asked for (:data:`SETTLEMENT_NOUNS`) as any settlement class
    (:data:`SETTLEMENTS`): people say "town" of a city and "city" of a town."""
    span, qids, words = asked
    return (span, qids | SETTLEMENTS, words) if qids & SETTLEMENT_NOUNS else asked


def alternatives(classes: Sequence[Link]) -> list[Asked]:
    """The class links grouped by the words they read: two classes one noun names are
    alternatives, not two conditions (« ville »: a city or a town)."""
    spans: dict[tuple[int, int], tuple[set[str], set[str]]] = {}
    for c in classes:
        qids, words = spans.setdefault(c.span or (0, 0), (set(), set()))
        said = [*tokenize(c.mention), *tokenize(c.name)]
        qids.add(c.qid)
        words.update(said, (fold(w) for w in said))
    return [(span, frozenset(q), frozenset(w)) for span, (q, w) in spans.items()]


def asked_at(tokens: Sequence[str], lang: str) -> frozenset[int]:
    """Positions where the class noun a question asks for stands: right after a "which" or
    "what" word (« what *country* »), or after a listing phrase that opens the question
    (:func:`qa.decisions.coverage.listed_at`: "give me all *books* …")."""
    asking = asking_words(lang)
    return frozenset({i for i in range(1, len(tokens)) if tokens[i - 1] in asking} | listed_at(tokens, lang))


def noun_forms(token: str) -> set[str]:
    """A noun as written and its dictionary forms (:func:`lang.morphology.dictionary_candidates`:
    "books" -> "book"), lower case: the names a class asked for by it may have."""
    word = token.lower()
    return {word, *dictionary_candidates(word)}


def asked_nouns(case: Case) -> list[int]:
    """Positions of the one-word nouns where the question asks for a class (:func:`asked_at`:
    "what *country*", "give me all *books*") that the kept candidate neither explains nor
    links: what the answers must be.  A noun followed by the language's "of" ("what *kind* of
    music") names no class of them."""
    kept = case.kept
    if kept is None or not kept.explains or case.lang not in SUPPORTED:
        return []
    covered = {i for a, b, _ in kept.explains for i in range(a, b)}
    covered |= {i for link in kept.links if link.span is not None for i in range(*link.span)}
    at, tokens = asked_at(case.tokens, case.lang), case.tokens
    of = language(case.lang).pronouns.of
    return [i for i in sorted(at) if i not in covered
            and is_word(tokens[i]) and not function_word(tokens[i], case.lang)
            and not (of and i + 1 < len(tokens) and tokens[i + 1] == of)]


def asked_classes(case: Case) -> list[Link]:
    """Class nouns the question asks for (class links of the first candidates that name the
    class, :func:`class_named`, right after a "which" or "what" word) that the kept candidate
    does not explain itself (not in its triples, its mentions or its explained words): the
    answers must be such things."""
    kept = case.kept
    if kept is None or not kept.explains:
        return []
    explained = {i for a, b, _ in kept.explains for i in range(a, b)}
    at = asked_at(case.tokens, case.lang)
    out: dict[str, Link] = {}
    for candidate in case.candidates[:READ_BY]:
        for link in candidate.links:
            if (link.is_class and class_named(link, case.lang) and link.span is not None and link.span[0] in at
                    and link.qid not in kept.entities and not explained.intersection(range(*link.span))):
                out.setdefault(link.qid, link)
    return list(out.values())


def class_named(link: Link, lang: str) -> bool:
    """Whether a class link names its class: an exact link (label, alias, folded, inflected),
    or a one-word mention that is the class's one-word name in another inflection (« на
    каком *острове* »: "остров", island; the linker found it by a looser match)."""
    if link.kind in EXACT_LINKS:
        return True
    written, name = tokenize(link.mention), tokenize(link.name)
    if len(written) != 1 or len(name) != 1:
        return False
    if same_word(written[0], fold(name[0]), lang):
        return True
    prefix = inflection_prefix(written[0], lang)  # "острове" -> "остров", the name itself
    return prefix is not None and fold(name[0]) == fold(prefix)
