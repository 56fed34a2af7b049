"""Entity linking (en, ru, zh, de; inflected and misspelt forms) and the local candidate
generator over the tiny KG; a slow test runs a few real questions over the full KG."""

from __future__ import annotations

from pathlib import Path

import pytest

from backends.local.generator import LocalBackend
from backends.local.linking import Linker, Mention
from backends.local.ranker import Ranker
from backends.local.shapes import backward, forward, intersect, select, two_hop, typed, typed_sub
from core.settings import load_settings
from kg.client import EmbeddedKG
from kg.labels import LabelIndex, build_label_index
from kg.store import kg_paths, open_store
from qa.generate import MAX_CANDIDATES
from qa.reading.lexicon import default_lexicon
from tests import tiny_kg

EINSTEIN, PUSHKIN, BERLIN, GERMANY, MOSCOW, ULM, CITY = "Q937", "Q7200", "Q64", "Q183", "Q649", "Q3012", "Q515"


def _top_entity(linker: Linker, question: str, lang: str) -> str:
    mentions = linker.link(question, lang)
    assert mentions, f"nothing linked in {question!r}"
    return mentions[0].qid


@pytest.mark.parametrize(("question", "lang", "qid"), [
    ("Where was Albert Einstein born?", "en", EINSTEIN),
    ("where was einstien born", "en", EINSTEIN),  # typo
    ("What is Einstein's occupation?", "en", EINSTEIN),
    ("Где родился Альберт Эйнштейн?", "ru", EINSTEIN),
    ("Где родился Эйнштейн?", "ru", EINSTEIN),  # last name only
    ("Кем работал Альберта Эйнштейна?", "ru", EINSTEIN),  # inflected
    ("Какая столица у Германии?", "ru", GERMANY),  # inflected
    ("Кто родился в Москве?", "ru", MOSCOW),
    ("爱因斯坦出生在哪里？", "zh", EINSTEIN),
    ("德国的首都是哪里？", "zh", GERMANY),
    ("アインシュタインはどこで生まれましたか", "ja", EINSTEIN),  # katakana surname of a person
    ("ベルリンの人口は？", "ja", BERLIN),
    ("Wo wurde Albert Einstein geboren?", "de", EINSTEIN),
    ("Was ist Einsteins Beruf?", "de", EINSTEIN),  # genitive
    ("Wie viele Einwohner hat Berlin?", "de", BERLIN),
    ("Was ist die Hauptstadt Deutschlands?", "de", GERMANY),  # genitive of a German-only label
    ("¿Dónde nació Pushkin?", "es", PUSHKIN),
])
def test_linking_across_languages(index: LabelIndex, question: str, lang: str, qid: str):
    assert _top_entity(Linker(index), question, lang) == qid


def test_mentions_carry_span_quality_and_prior(index: LabelIndex):
    mentions = Linker(index).link("Where was Einstien born?", "en")
    einstein = next(m for m in mentions if m.qid == EINSTEIN)
    assert einstein.surface == "einstien"
    assert einstein.fuzzy and 0.5 < einstein.quality < 1.0
    assert 0.0 < einstein.prior <= 1.0
    exact = next(m for m in Linker(index).link("Where was Einstein born?", "en") if m.qid == EINSTEIN)
    assert exact.quality == 1.0 and exact.score > einstein.score


def test_mentions_name_the_kg_name_and_how_it_matched(index: LabelIndex):
    fuzzy = next(m for m in Linker(index).link("Where was Einstien born?", "en") if m.qid == EINSTEIN)
    assert (fuzzy.surface, fuzzy.name, fuzzy.kind) == ("einstien", "einstein", "fuzzy")
    exact = next(m for m in Linker(index).link("Where was Albert Einstein born?", "en") if m.qid == EINSTEIN)
    assert (exact.name, exact.kind) == ("albert einstein", "label")
    link = exact.link()
    assert (link.qid, link.mention, link.name, link.kind) == (EINSTEIN, "albert einstein", "albert einstein", "label")
    assert (link.score, link.coverage, link.degree) == (exact.score, exact.coverage, exact.degree)


def test_short_katakana_inside_a_longer_word_is_not_linked(index: LabelIndex):
    assert GERMANY in {m.qid for m in Linker(index).link("ドイツの首都はどこですか", "ja")}
    assert GERMANY not in {m.qid for m in Linker(index).link("ラドイツキの首都はどこですか", "ja")}


def test_nothing_linked_in_function_words(index: LabelIndex):
    assert Linker(index).link("what is the of?", "en") == []
    assert Linker(index).link("", "en") == []


def test_query_shapes_are_compact_sparql_from_ids():
    assert select(forward("Q64", "P17")) == "SELECT DISTINCT ?answer WHERE { wd:Q64 wdt:P17 ?answer . }"
    assert select(backward("Q64", "P36")) == "SELECT DISTINCT ?answer WHERE { ?answer wdt:P36 wd:Q64 . }"
    assert select(typed(backward("Q183", "P17"), "Q515")) == (
        "SELECT DISTINCT ?answer WHERE { ?answer wdt:P17 wd:Q183 . ?answer wdt:P31 wd:Q515 . }")
    assert select(two_hop("Q937", "P19", "P17")) == (
        "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?x . ?x wdt:P17 ?answer . }")
    both = intersect(forward("Q937", "P27"), backward("Q64", "P36"))
    assert select(both) == "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P27 ?answer . ?answer wdt:P36 wd:Q64 . }"
    assert select(typed_sub(backward("Q189226", "P161"), "Q11424")) == (
        "SELECT DISTINCT ?answer WHERE { ?answer wdt:P161 wd:Q189226 . ?answer wdt:P31/wdt:P279* wd:Q11424 . }")
    with pytest.raises(ValueError):
        select(forward("Q64 . ?s ?p ?o", "P17"))
    with pytest.raises(ValueError):
        select(forward("Q64", "P17> ?x . ?y <x"))


def _answers(kg: EmbeddedKG, sparql: str) -> set[str]:
    return {t.value.rsplit("/", 1)[-1] for t in kg.query(sparql).column()}


@pytest.mark.parametrize(("question", "lang", "expected"), [
    ("Where was Albert Einstein born?", "en", "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?answer . }"),
    ("Где родился Эйнштейн?", "ru", "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?answer . }"),
    ("爱因斯坦出生在哪里？", "zh", "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?answer . }"),
    ("Wo wurde Einstein geboren?", "de", "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?answer . }"),
    ("What is the capital of Germany?", "en", "SELECT DISTINCT ?answer WHERE { wd:Q183 wdt:P36 ?answer . }"),
    ("Who was born in Moscow?", "en", "SELECT DISTINCT ?answer WHERE { ?answer wdt:P19 wd:Q649 . }"),
    ("What is the population of Paris?", "en", "SELECT DISTINCT ?answer WHERE { wd:Q90 wdt:P1082 ?answer . }"),
    ("When was Pushkin born?", "en", "SELECT DISTINCT ?answer WHERE { wd:Q7200 wdt:P569 ?answer . }"),
])
def test_top_candidate_on_known_facts(backend: LocalBackend, question: str, lang: str, expected: str):
    assert backend.ask(question, lang)[0].sparql == expected


def test_a_reading_of_every_word_of_the_question_says_so(backend: LocalBackend):
    from backends.local.features import worded

    assert backend.ask("Where was Albert Einstein born?", "en")[0].worded
    assert backend.ask("Где родился Эйнштейн?", "ru")[0].worded
    assert not backend.ask("Einstein?", "en")[0].worded  # no word names a property
    clean = {"explained": 1.0, "rest_matched": 1.0, "prop_lex": 0.9, "type_mismatch": 0.0, "anchor_mismatch": 0.0}
    assert worded(clean)
    assert not worded({**clean, "explained": 0.8})  # a word left unexplained
    assert not worded({**clean, "prop_lex": 0.0})  # a property no phrase of the lexicon names ("where … from")
    assert not worded({**clean, "type_mismatch": 1.0})  # "who" answered with a company
    assert not worded({**clean, "qtype_specific": 1.0})  # "where did steve jobs work": an occupation is no place
    assert worded({**clean, "qtype_specific": 1.0, "type_fit": 1.0})  # "where did hawking die": a place
    # "which films were directed by james cameron": the class noun reads the word the property leaves
    assert worded({**clean, "rest_matched": 0.5, "rest_read": 1.0})
    assert not worded({**clean, "rest_matched": 0.5, "rest_read": 0.5})


def test_beside_a_list_reading_a_plain_reading_without_the_class_is_not_worded():
    from backends.local.features import unworded_beside_lists
    from qa.candidate import Candidate

    untyped = Candidate("q1", 0.6, shape="plain", explains=((1, 2, "property"), (4, 5, "entity")), worded=True)
    typed = Candidate("q2", 0.5, shape="plain", explains=((1, 2, "class"), (4, 5, "entity")), worded=True)
    listed = Candidate("q3", 0.4, shape="list")
    assert [c.worded for c in unworded_beside_lists([untyped, typed, listed])] == [False, True, False]
    assert [c.worded for c in unworded_beside_lists([untyped, typed])] == [True, True]  # no list reading


def test_a_reading_narrowed_by_the_class_the_question_names_is_the_list_asked_for():
    """"Which films were directed by James Cameron?": his works (a documentary among them) are
    not the list asked for; his works that are films are.  The narrowed reading takes the
    wider one's place and is a list; a reading that reads the class noun itself keeps its own."""
    from backends.local.features import typed_first
    from qa.candidate import Candidate

    directed = (("?answer", "wdt:P57", "wd:Q42574"),)
    films = (*directed, ("?answer", "wdt:P31", "wd:Q11424"))
    wider = Candidate("wider", 0.65, shape="plain", triples=directed, features=(("log_answers", 2.079),),
                      explains=((3, 4, "property"), (5, 7, "entity")))
    narrowed = Candidate("narrowed", 0.35, shape="plain", triples=films, features=(("log_answers", 1.946),),
                         explains=((1, 2, "class"), (3, 4, "property"), (5, 7, "entity")), worded=True)
    other = Candidate("other", 0.5, shape="plain", triples=(("?answer", "wdt:P161", "wd:Q42574"),))
    first, second, third = typed_first([wider, other, narrowed])
    assert (first.sparql, first.shape, first.score) == ("narrowed", "list", 0.65)
    assert (second.sparql, third.sparql, third.score) == ("other", "wider", 0.35)
    # the wider reading reads the noun in its property's words ("which films did Tarantino direct")
    reads_noun = Candidate("wider", 0.65, shape="plain", triples=directed, explains=((1, 2, "property"),))
    assert [c.sparql for c in typed_first([reads_noun, narrowed])] == ["wider", "narrowed"]
    # one member: a question of one answer asks for it, typed or not
    one = Candidate("narrowed", 0.35, shape="plain", triples=films, features=(("log_answers", 0.693),),
                    explains=narrowed.explains, worded=True)
    assert [c.shape for c in typed_first([wider, one])] == ["plain", "plain"]
    # a narrowed reading that leaves a word unread does not move
    unworded = Candidate("narrowed", 0.35, shape="plain", triples=films, features=narrowed.features,
                         explains=narrowed.explains)
    assert [c.sparql for c in typed_first([wider, unworded])] == ["wider", "narrowed"]


def test_links_say_where_the_name_is_and_whether_it_was_typed_as_one(backend: LocalBackend):
    [einstein] = [link for link in backend.ask("Where was Albert Einstein born?", "en")[0].links]
    assert (einstein.qid, einstein.span, einstein.name_words) == ("Q937", (2, 4), 2)
    [lowered] = [link for link in backend.ask("where was albert einstein born?", "en")[0].links]
    assert (lowered.span, lowered.name_words) == ((2, 4), 0)  # no case: nothing says it is a name


def test_candidates_are_non_empty_bounded_scored_and_deterministic(backend: LocalBackend,
                                                                     tiny_kg_client: EmbeddedKG):
    first = backend.ask("Where was Albert Einstein born?", "en")
    assert first == backend.ask("Where was Albert Einstein born?", "en")
    assert 0 < len(first) <= MAX_CANDIDATES
    assert all(0.0 <= c.score <= 1.0 for c in first)
    assert [c.score for c in first] == sorted((c.score for c in first), reverse=True)
    assert all("PREFIX" not in c.sparql for c in first)
    assert all(_answers(tiny_kg_client, c.sparql) for c in first)
    assert len({c.sparql for c in first}) == len(first)


def test_user_text_never_reaches_the_query(backend: LocalBackend):
    question = 'Where was Einstein born? } ; DROP ALL ; "<script>'
    for c in backend.ask(question, "en"):
        assert "DROP" not in c.sparql and "<script>" not in c.sparql and '"' not in c.sparql


def test_unknown_question_gives_no_candidates(backend: LocalBackend):
    assert backend.ask("Wie ist das Wetter morgen?", "de") == []


def test_kg_property_labels_suffice_without_the_lexicon(tiny_kg_client: EmbeddedKG, index: LabelIndex):
    local = LocalBackend(tiny_kg_client, index, lexicon=None, ranker=Ranker.heuristic())
    top = local.ask("What is the place of birth of Albert Einstein?", "en")[0]  # KG label "place of birth"
    assert top.sparql == "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?answer . }"


def test_from_settings_builds_the_index_and_works_over_a_remote_endpoint(tiny_nt: Path, tmp_path: Path):
    from kg.build import build_kg
    from kg.client import RemoteKG
    from service.kgserve import query_url, start_oxigraph
    from tests.service.faulty_http import free_port

    settings = load_settings({}, kg_source=tiny_nt, cache_dir=tmp_path / "cache")
    paths = build_kg(tiny_nt, settings.cache_dir, progress=False)
    port = free_port()
    process = start_oxigraph(paths.store, "127.0.0.1", port)
    try:
        remote = RemoteKG(query_url("127.0.0.1", port), timeout_s=5)
        local = LocalBackend.from_settings(settings, remote)
        top = local.ask("What is the capital of Germany?", "en")[0]
        assert top.sparql == "SELECT DISTINCT ?answer WHERE { wd:Q183 wdt:P36 ?answer . }"
        assert [t.value for t in remote.query(top.sparql).column()] == [tiny_kg.BERLIN.value]
    finally:
        process.kill()
        process.wait()
    assert kg_paths(tiny_nt, settings.cache_dir).labels.is_dir()


@pytest.mark.slow
def test_real_questions_over_the_full_kg(shared_kg_source: Path):
    from kg.build import build_kg

    settings = load_settings({}, kg_source=shared_kg_source)
    kg = EmbeddedKG(open_store(build_kg(shared_kg_source, settings.cache_dir, progress=False)))
    local = LocalBackend.from_settings(settings, kg)
    cases = [
        ("Where was Albert Einstein born?", "en", "Q3012"),
        ("Как называется столица Румынии?", "ru", "Q19660"),
        ("What is the capital of France?", "en", "Q90"),
        ("Wo wurde Albert Einstein geboren?", "de", "Q3012"),
    ]
    for question, lang, answer in cases:
        cands = local.ask(question, lang)
        top = {t.value.rsplit("/", 1)[-1] for t in kg.query(cands[0].sparql).column()}
        assert top == {answer}, (question, cands[0].sparql)


@pytest.mark.parametrize(("question", "qid", "pid"), [
    ("Albert Einstein Geburtsort", "Q937", "P19"),
    ("Frankreich Hauptstadt", "Q142", "P36"),
])
def test_the_property_asked_for_is_not_part_of_the_name_before_it(backend, question, qid, pid):
    """A question typed as a German noun phrase capitalizes the property too: the name is
    « Albert Einstein », fully linked, not two thirds of the run « Albert Einstein
    Geburtsort » (which the pipeline refuses as a namesake)."""
    top = backend.ask(question, "de")[0]
    assert top.entities == (qid,) and top.properties == (pid,)
    assert [link.name_cover for link in top.links] == [1.0]


def _one_word_person(question: str, word: str) -> tuple[object, Mention]:
    from backends.local.features import Question
    from core.text import tokenize
    from qa.reading.names import aligned_cased

    tokens = tokenize(question)
    i = tokens.index(word.lower())
    m = Mention(i, i + 1, word, "Q1", 1.0, 0.5, 0.6, False, 3, False, 10, 0, 0.3, kind="alias", name=word)
    q = Question(question, "en", tokens, "place", [m], cased=aligned_cased(question, len(tokens)),
                  anchor_types={"Q1": "person"}, asked_words=frozenset({tokens.index("born")}))
    return q, m  # "born": the property phrase (the lexicon's, in the backend)


@pytest.mark.parametrize(("question", "word", "named", "beside"), [
    ("where was tom brady born?", "tom", set(), ["brady"]),  # no name, no phrase, no function word
    ("where was tom brady born?", "tom", {3}, []),  # "brady" the exact name of an entity
    ("Where was Tom Brady born?", "Tom", set(), []),  # capitals: name_features decides
    ("where was tom born?", "tom", set(), []),  # nothing unexplained next to it
])
def test_words_beside_a_one_word_person_that_nothing_explains_without_capitals(question, word, named, beside):
    from backends.local.generator import unexplained_neighbours

    q, m = _one_word_person(question, word)
    assert unexplained_neighbours(q, m, frozenset(named)) == beside


def test_a_persons_own_names_hold_initials_and_other_words():
    from backends.local.generator import name_word_forms

    forms = name_word_forms(["J. R. R. Tolkien", "Tom Kaulitz"])
    assert {"jrr", "tolkien", "tom", "kaulitz"} <= forms and "brady" not in forms


@pytest.mark.slow
def test_a_german_noun_naming_the_entitys_class_is_not_part_of_its_name(shared_kg_source: Path):
    """German capitalizes every noun: in « den Film Titanic », "Film" names what Titanic is
    (a ``P31`` class of it), so the name typed is "Titanic", fully linked, not the run
    "Film Titanic" half covered (which the pipeline would refuse as a namesake); and the
    German phrase « gedreht » is the property's match, not a one-word "film" phrase of
    another language that scores the same."""
    from kg.build import build_kg

    settings = load_settings({}, kg_source=shared_kg_source)
    kg = EmbeddedKG(open_store(build_kg(shared_kg_source, settings.cache_dir, progress=False)))
    local = LocalBackend.from_settings(settings, kg)
    question = "Wer hat den Film Titanic gedreht?"
    top = local.ask(question, "de")[0]
    assert {t.value.rsplit("/", 1)[-1] for t in kg.query(top.sparql).column()} == {"Q42574"}
    [titanic] = [link for link in top.links if link.qid == "Q44578"]
    assert titanic.name_cover == 1.0
    features = local.generate(question, "de")[0].features
    assert features["prop_same_lang"] == 1.0 and features["name_cover"] == 1.0


def _toy_rows():
    """Feature rows where the candidate with the better property match is the right one."""
    rows = []
    for i in range(60):
        good = {"prop_score": 0.9 + (i % 3) * 0.03, "link_score": 0.8, "pid=P19": 1.0}
        bad = {"prop_score": 0.1 + (i % 5) * 0.05, "link_score": 0.8 + (i % 2) * 0.1, "pid=P19": 1.0}
        rows.append((f"q{i}|en", [bad, good], [0.0, 1.0]))
    return rows


@pytest.mark.parametrize("kind", ["logistic", "trees"])
def test_ranker_learns_saves_and_reloads(kind: str, tmp_path: Path):
    from training.ranker import fit, fit_trees, recall_at

    rows = _toy_rows()
    ranker = fit_trees(rows, iterations=20, leaves=4) if kind == "trees" else fit(rows)
    assert recall_at(rows, ranker, 1) == 1.0
    path = tmp_path / "ranker.json"
    ranker.save(path)
    again = Ranker.load(path)
    probe = [{"prop_score": 0.95, "link_score": 0.8}, {"prop_score": 0.1, "link_score": 0.9}, {"unknown": 5.0}]
    assert again.score_many(probe) == pytest.approx(ranker.score_many(probe), abs=1e-6)
    assert all(0.0 <= s <= 1.0 for s in again.score_many(probe))
    assert again.score(probe[0]) > again.score(probe[1])
    assert "pid=P19" in again.features  # a learned per-property bias


def test_corrupt_or_missing_ranker_names_the_file(tmp_path: Path):
    from core.errors import ModelLoadError

    with pytest.raises(ModelLoadError, match="absent.json"):
        Ranker.load(tmp_path / "absent.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"kind": "trees", "features": ["a"], "baseline": 0, "trees": [{"value": [1]}]}')
    with pytest.raises(ModelLoadError, match="bad.json"):
        Ranker.load(bad)


def test_shipped_ranker_loads():
    from backends.local.ranker import DEFAULT_PATH

    ranker = Ranker.load(DEFAULT_PATH)
    assert ranker.info.get("kind") in {"gradient_boosted_trees", "logistic_regression"}
    assert 0.0 <= ranker.score({"prop_score": 1.0, "link_score": 1.0}) <= 1.0


def test_unreachable_kg_is_a_backend_unavailable(index: LabelIndex):
    from core.errors import BackendUnavailable, is_service_fault
    from core.resilience import Backoff
    from kg.client import RemoteKG
    from tests.service.faulty_http import free_port

    dead = RemoteKG(f"http://127.0.0.1:{free_port()}/query", timeout_s=2, retries=0,
                    backoff=Backoff(base_s=0.01, max_s=0.02))
    local = LocalBackend(dead, index, lexicon=default_lexicon())
    with pytest.raises(BackendUnavailable) as info:
        local.ask("Where was Albert Einstein born?", "en")
    assert is_service_fault(info.value)


def test_kg_that_always_times_out_is_a_backend_timeout(index: LabelIndex):
    from core.errors import BackendTimeout
    from core.resilience import Backoff
    from kg.client import RemoteKG
    from tests.service.faulty_http import Reply, ScriptedServer

    empty = {"head": {"vars": []}, "results": {"bindings": []}}
    with ScriptedServer(lambda request: Reply.json(empty, delay_s=1.5)) as server:
        slow = RemoteKG(server.url + "/query", timeout_s=0.3, retries=0, backoff=Backoff(base_s=0.01, max_s=0.02))
        local = LocalBackend(slow, index, lexicon=default_lexicon(), timeout_s=0.3)
        with pytest.raises(BackendTimeout):
            local.ask("Where was Albert Einstein born?", "en")
        assert local.reads._adjacency_cache == {}  # nothing learnt from failed queries


def test_a_question_is_linked_and_analyzed_once(backend: LocalBackend, monkeypatch: pytest.MonkeyPatch):
    import backends.local.complex as complex_layer

    links, analyses = [], []
    link, analyze = backend.linker.link, complex_layer.analyze
    monkeypatch.setattr(backend.linker, "link", lambda *a, **k: links.append(a) or link(*a, **k))
    monkeypatch.setattr(complex_layer, "analyze", lambda *a, **k: analyses.append(a) or analyze(*a, **k))
    assert backend.ask("Is Moscow bigger than Berlin?", "en")
    assert (len(links), len(analyses)) == (1, 1)


def test_a_name_as_written_beats_a_fuzzy_spelling_of_another_name(tmp_path: Path):
    """France is labelled only in English and has the Spanish alias « Francia », which is
    also one letter off « France »: the alias as written wins over the fuzzy label."""
    import pyoxigraph as ox

    store = ox.Store()
    france = tiny_kg.FRANCE
    store.extend([ox.Quad(france, tiny_kg.LABEL, ox.Literal("France", language="en")),
                  ox.Quad(france, tiny_kg.ALT, ox.Literal("Francia", language="es")),
                  ox.Quad(france, tiny_kg.P36, tiny_kg.PARIS)])
    build_label_index(store, tmp_path / "labels")
    mention = next(m for m in Linker(LabelIndex.open(tmp_path / "labels")).link("¿Cuál es la capital de Francia?", "es")
                   if m.qid == "Q142")
    assert (mention.kind, mention.fuzzy, mention.quality) == ("alias", False, 1.0)


def test_an_inflected_name_is_linked_as_the_name_not_as_a_fuzzy_spelling(tmp_path: Path):
    """« Шри-Ланке » is the prepositional case of the alias « Шри-Ланка » (same Russian
    stem): linked as that name inflected, not as a fuzzy spelling or a sound-alike; a typo
    of an English name stays fuzzy."""
    import pyoxigraph as ox

    store = ox.Store()
    lanka = ox.NamedNode("http://www.wikidata.org/entity/Q854")
    store.extend([ox.Quad(lanka, tiny_kg.LABEL, ox.Literal("Sri Lanka", language="en")),
                  ox.Quad(lanka, tiny_kg.ALT, ox.Literal("Шри-Ланка", language="ru")),
                  ox.Quad(lanka, tiny_kg.P36, tiny_kg.PARIS)])
    build_label_index(store, tmp_path / "labels")
    linker = Linker(LabelIndex.open(tmp_path / "labels"))

    def link(question: str, lang: str) -> Mention:
        return next(m for m in linker.link(question, lang) if m.qid == "Q854")

    ru = link("Какой язык является официальным на Шри-Ланке?", "ru")
    assert (ru.kind, ru.fuzzy, ru.name) == ("inflected", False, "шри ланка")
    typo = link("What is the capital of Sri Lankka?", "en")
    assert (typo.kind, typo.fuzzy) == ("fuzzy", True)


def test_a_name_written_in_the_question_language_is_not_read_as_another_language_inflected(tmp_path: Path):
    """Spanish « Italia » is Italy's Spanish name; by the Spanish stemmer it is also a form of
    the English "Italian" (the language), which is not a Spanish word.  The written name is
    read, the inflection of a name in another language is not; a word no name holds as
    written keeps its inflections (« Шри-Ланке »)."""
    import pyoxigraph as ox

    store = ox.Store()
    italy, italian = ox.NamedNode(tiny_kg.WD + "Q38"), ox.NamedNode(tiny_kg.WD + "Q652")
    store.extend([ox.Quad(italy, tiny_kg.LABEL, ox.Literal("Italy", language="en")),
                  ox.Quad(italy, tiny_kg.ALT, ox.Literal("Italia", language="es")),
                  ox.Quad(italian, tiny_kg.LABEL, ox.Literal("Italian", language="en"))])
    for i in range(4):  # namesakes make the written name ambiguous, the inflected one is not
        store.add(ox.Quad(ox.NamedNode(f"{tiny_kg.WD}Q{920000 + i}"), tiny_kg.ALT, ox.Literal("Italia", language="es")))
    build_label_index(store, tmp_path / "labels")
    linker = Linker(LabelIndex.open(tmp_path / "labels"))
    spanish = {m.qid: m for m in linker.link("¿Qué países limitan con Italia?", "es")}
    assert spanish["Q38"].kind == "alias"
    assert "Q652" not in spanish


def test_each_word_of_a_name_may_be_inflected_among_many_close_words(tmp_path: Path):
    """« Новой Зеландии » is « Новая Зеландия » with both words inflected.  The vocabulary
    holds many words closer to « новой » by spelling (« новое », « новом », « нового » …) than
    its other form « новая »; the inflection is still found, and the name is linked as the
    name, not by sound."""
    import pyoxigraph as ox

    store = ox.Store()
    nz = ox.NamedNode(tiny_kg.WD + "Q664")
    store.extend([ox.Quad(nz, tiny_kg.LABEL, ox.Literal("New Zealand", language="en")),
                  ox.Quad(nz, tiny_kg.ALT, ox.Literal("Новая Зеландия", language="ru"))])
    for i, name in enumerate(["Новое время", "Новом свете", "Нового года", "Новому миру", "Ново Место",
                              "Новый Орлеан", "Новои", "Новости дня"]):
        store.add(ox.Quad(ox.NamedNode(f"{tiny_kg.WD}Q{910000 + i}"), tiny_kg.LABEL, ox.Literal(name, language="ru")))
    build_label_index(store, tmp_path / "labels")
    linker = Linker(LabelIndex.open(tmp_path / "labels"))
    assert ("новая", 0.9) not in linker.index.similar_tokens("новои", limit=6)
    nz_link = next(m for m in linker.link("Какой город является столицей Новой Зеландии?", "ru") if m.qid == "Q664")
    assert (nz_link.kind, nz_link.name, nz_link.phonetic) == ("inflected", "новая зеландия", False)


def test_countries_are_named_by_cldr_in_the_chat_languages_and_only_there(tmp_path: Path):
    """France has only its English label in this KG; CLDR gives « Frankreich » and
    « Франція », which link to it in German and Ukrainian questions.  A name only CLDR gives
    is not a name in other languages (German « Island » for Iceland is an island in
    English), an entity that is not a country gets no CLDR name, and of two countries
    labelled "France" only the one with more facts gets CLDR's names.  An English alias
    finds the CLDR name too (this KG labels Poland "Polish")."""
    import pyoxigraph as ox

    store = ox.Store()
    iceland, island_film = ox.NamedNode(tiny_kg.WD + "Q189"), ox.NamedNode(tiny_kg.WD + "Q90000001")
    old_france, poland = ox.NamedNode(tiny_kg.WD + "Q70972"), ox.NamedNode(tiny_kg.WD + "Q36")
    store.extend([ox.Quad(poland, tiny_kg.LABEL, ox.Literal("Polish", language="en")),
                  ox.Quad(poland, tiny_kg.ALT, ox.Literal("Poland", language="en")),
                  ox.Quad(poland, tiny_kg.P31, tiny_kg.COUNTRY),
                  ox.Quad(old_france, tiny_kg.LABEL, ox.Literal("France", language="en")),
                  ox.Quad(old_france, tiny_kg.P31, tiny_kg.COUNTRY),
                  ox.Quad(tiny_kg.FRANCE, tiny_kg.LABEL, ox.Literal("France", language="en")),
                  ox.Quad(tiny_kg.FRANCE, tiny_kg.P31, tiny_kg.COUNTRY),
                  ox.Quad(tiny_kg.FRANCE, tiny_kg.P36, tiny_kg.PARIS),
                  ox.Quad(iceland, tiny_kg.LABEL, ox.Literal("Iceland", language="en")),
                  ox.Quad(iceland, tiny_kg.P31, tiny_kg.COUNTRY),
                  ox.Quad(island_film, tiny_kg.LABEL, ox.Literal("Germany", language="en"))])
    build_label_index(store, tmp_path / "labels")
    linker = Linker(LabelIndex.open(tmp_path / "labels"))

    def linked(question: str, lang: str) -> dict[str, Mention]:
        return {m.qid: m for m in linker.link(question, lang)}

    de = linked("Was ist die Hauptstadt von Frankreich?", "de")["Q142"]
    assert (de.kind, de.fuzzy, de.name) == ("alias", False, "frankreich")
    assert "Q70972" not in linked("Was ist die Hauptstadt von Frankreich?", "de")
    uk = linked("Яка столиця Франції?", "uk")["Q142"]  # the genitive of CLDR's « Франція »
    assert (uk.kind, uk.name) == ("inflected", "франція")
    assert linked("Яка столиця Польщі?", "uk")["Q36"].name == "польща"  # CLDR found by the English alias
    assert "Q189" in linked("Wie groß ist Island?", "de")
    assert "Q189" not in linked("What is the largest island?", "en")
    assert "Q90000001" not in linked("Was ist die Hauptstadt von Deutschland?", "de")


@pytest.mark.parametrize(("long_name_facts", "penalized"), [(1, False), (2, True)])
def test_a_name_inside_a_longer_name_loses_only_to_a_comparably_known_entity(tmp_path: Path, long_name_facts: int,
                                                                          penalized: bool):
    """"Japan" inside "capital of Japan": the longer name is the likelier mention only when
    its entity is not far less known than Japan (an obscure entity named "capital of Japan"
    does not make Japan a less likely mention)."""
    import pyoxigraph as ox

    japan, long_name = ox.NamedNode(tiny_kg.WD + "Q17"), ox.NamedNode(tiny_kg.WD + "Q1025961")
    things = [ox.NamedNode(f"{tiny_kg.WD}Q{900000 + i}") for i in range(150)]

    def mention(with_long_name: bool) -> Mention:
        store = ox.Store()
        store.extend([ox.Quad(japan, tiny_kg.LABEL, ox.Literal("Japan", language="en")),
                      *(ox.Quad(japan, tiny_kg.P17, t) for t in things)])
        if with_long_name:
            store.extend([ox.Quad(long_name, tiny_kg.LABEL, ox.Literal("capital of Japan", language="en")),
                          *(ox.Quad(long_name, tiny_kg.P17, t) for t in things[:long_name_facts])])
        out = tmp_path / f"labels-{with_long_name}"
        build_label_index(store, out)
        return next(m for m in Linker(LabelIndex.open(out)).link("What is the capital of Japan?", "en")
                    if m.qid == "Q17")

    assert (mention(True).score < mention(False).score) is penalized


def test_a_latin_name_typed_loosely_links_the_person_by_sound_over_a_word_inside_it(tmp_path: Path):
    """"what band was ringo star in", "jon lenon": a span of two content words that sounds
    like a person's two-word name links that person (by sound, ``phonetic``), and scores above
    the common word inside it ("Star", a film); a name typed as written stays exact."""
    import pyoxigraph as ox

    store = ox.Store()
    lennon, star = ox.NamedNode("http://www.wikidata.org/entity/Q1203"), ox.NamedNode(
        "http://www.wikidata.org/entity/Q130809")
    store.extend([ox.Quad(lennon, tiny_kg.LABEL, ox.Literal("John Lennon", language="en")),
                  ox.Quad(lennon, tiny_kg.P36, tiny_kg.PARIS),
                  ox.Quad(star, tiny_kg.LABEL, ox.Literal("Lenon", language="en")),
                  ox.Quad(star, tiny_kg.P36, tiny_kg.PARIS)])
    build_label_index(store, tmp_path / "labels")
    linker = Linker(LabelIndex.open(tmp_path / "labels"))
    found = linker.link("who was jon lenon married to", "en")
    best = found[0]
    assert (best.qid, best.kind, best.surface) == ("Q1203", "phonetic", "jon lenon")
    assert any(m.qid == "Q130809" for m in found)  # the word alone still links, below the name
    exact = next(m for m in linker.link("who was John Lennon married to", "en") if m.qid == "Q1203")
    assert exact.kind == "label" and not exact.fuzzy


def test_a_countrys_adjective_links_the_country_by_its_cldr_name(tmp_path: Path):
    """« la capital irlandesa », « la capitale irlandaise »: the adjective is read as the
    country whose CLDR name begins with what is left once its ending is cut; a word that is
    itself a language's name (« italiano ») or too short to tell is no country's adjective."""
    import pyoxigraph as ox

    from kg.cldr import country_of_adjective
    from lang import get as language

    es, fr = language("es").demonym_endings, language("fr").demonym_endings
    assert country_of_adjective("irlandesa", es, "es") == "Irlanda"
    assert country_of_adjective("mexicana", es, "es") == "México"
    assert country_of_adjective("irlandaise", fr, "fr") == "Irlande"
    assert country_of_adjective("italiano", es, "es") is None  # the language
    assert country_of_adjective("semana", es, "es") is None and country_of_adjective("irlanda", es, "es") is None
    assert country_of_adjective("irlandesa", (), "es") is None and not language("en").demonym_endings

    store = ox.Store()
    ireland = ox.NamedNode(tiny_kg.WD + "Q27")
    store.extend([ox.Quad(ireland, tiny_kg.LABEL, ox.Literal("Ireland", language="en")),
                  ox.Quad(ireland, tiny_kg.P31, tiny_kg.COUNTRY)])
    build_label_index(store, tmp_path / "labels")
    linker = Linker(LabelIndex.open(tmp_path / "labels"))
    link = {m.qid: m for m in linker.link("¿Cuál es la capital irlandesa?", "es")}["Q27"]
    assert (link.kind, link.name, link.fuzzy) == ("inflected", "irlanda", False)
    assert "Q27" not in {m.qid for m in linker.link("What is the Irish capital?", "en")}  # no endings in English


def test_an_entity_named_as_written_is_linked_there_over_an_inflected_form_nearly_as_good():
    from backends.local.linking import _preferred

    def at(i: int, kind: str, score: float) -> Mention:
        return Mention(i, i + 1, "", "Q142", 1.0, 0.77, score, False, 14, kind == "fuzzy", 100, 0, 0.2, kind=kind)

    written, inflected = at(4, "alias", 0.7231), at(9, "inflected", 0.7345)  # « Francia », « francés »
    assert _preferred(written, inflected) and not _preferred(inflected, written)
    assert _preferred(at(9, "inflected", 0.9), written)  # far better elsewhere: the higher score
    assert _preferred(at(9, "label", 0.7345), written)  # two names as written: the higher score
    assert not _preferred(at(4, "fuzzy", 0.7423), written)  # the same span: the name as written


def test_a_loosely_typed_name_in_lower_case_covers_nothing_where_capitals_mark_the_names():
    from backends.local.linking import CLOSE_SOUND, _longest_cover, _Match
    from kg.labels import NameHit

    sound = _Match(3, 5, "brnstn", 0.9, True, phonetic=True, sound="france don", latin=True)  # "France don['t]"
    hit = NameHit("Q21578", 1, ("en",))
    found = [(sound, hit, CLOSE_SOUND)]
    cased = ["Which", "neighbours", "of", "France", "don", "t", "have"]
    assert _longest_cover(found, {"Q21578": 218}, cased) == {}
    assert _longest_cover(found, {"Q21578": 218}, None) == {(3, 5): 218}  # no capitals: "jon lenon" covers
    named = [(sound, hit, CLOSE_SOUND)]
    assert _longest_cover(named, {"Q21578": 218}, ["x", "x", "x", "Jon", "Lenon"]) == {(3, 5): 218}


def test_a_loosely_typed_name_with_a_function_word_covers_nothing_in_any_case():
    # « cuantas lenguas oficiales tiene canada »: « tiene canada » sounds like "Tiếng Kannada";
    # « tiene » is a Spanish function word, so the sound-alike does not make Canada a lesser mention
    from backends.local.linking import CLOSE_SOUND, _longest_cover, _Match
    from kg.labels import NameHit

    sound = _Match(3, 5, "tngknd", 0.9, True, phonetic=True, sound="tiene canada", latin=True)
    found = [(sound, NameHit("Q33673", 1, ("vi",)), CLOSE_SOUND)]
    assert _longest_cover(found, {"Q33673": 69}, None, frozenset({3})) == {}
    assert _longest_cover(found, {"Q33673": 69}, None) == {(3, 5): 69}  # no function word: it covers
    assert _longest_cover(found, {"Q33673": 69}, None, frozenset({1})) == {(3, 5): 69}  # one elsewhere


def test_no_name_spans_the_comma_of_a_list():
    from backends.local.linking import _list_breaks
    from core.text import tokenize

    listed = "Which country borders Germany, Austria and Italy?"  # which country borders germany austria and italy
    assert _list_breaks(listed, tokenize(listed), "en") == {4}
    spanish = "¿Qué país tiene frontera con Italia, Austria y Alemania?"
    assert _list_breaks(spanish, tokenize(spanish), "es") == {6}
    named = "What is the population of Washington, D.C.?"  # a comma in no list: the name's own
    assert _list_breaks(named, tokenize(named), "en") == frozenset()


def test_a_complex_candidate_carries_the_questions_own_words_for_its_properties(backend: LocalBackend):
    from qa.candidate import Candidate, Link

    question = "¿Qué vecinos de Francia no tienen el francés como lengua oficial?"
    q = backend._analyze(question, "es", [])
    forms = [backend.props.form(t) for t in q.tokens]
    france = Link("Q142", "Francia", "Francia", "label", 1.0, span=(3, 4))
    excluded = Candidate("q", 0.7, shape="exclusion", properties=("P47", "P37"), links=(france,))
    wording = dict(backend._worded(q, forms, excluded, {}).wording)
    assert wording["P47"] == "vecinos"  # the lexicon's « vecinos » for "shares border with"
    assert all(w not in ("de", "no", "el", "como", "Francia") for w in wording.values())  # no function word, no name
    plain = Candidate("q", 0.7, shape="plain", properties=("P47",), links=(france,))
    assert dict(backend._worded(q, forms, plain, {}).wording) == {"P47": "vecinos"}  # a plain one of one property
    two = Candidate("q", 0.7, shape="plain", properties=("P47", "P37"), links=(france,))
    assert backend._worded(q, forms, two, {}).wording == ()  # a plain one of two: not said in the question's words
    typed = Candidate("q", 0.7, shape="list", properties=("P31",), links=(france,))
    assert backend._worded(q, forms, typed, {}).wording == ()  # a class is said by its name


def test_a_class_noun_is_never_a_plain_candidates_own_word(backend: LocalBackend):
    # "which film did gioachino rossini contribute in": « film » names the class, not the genre
    from backends.local.linking import Mention
    from qa.candidate import Candidate

    film = Mention(1, 2, "film", "Q11424", 1.0, 0.5, 0.8, True, 1, False, 100, 50, 0.2, kind="label")
    q = backend._analyze("which film did gioachino rossini contribute in", "en", [film])
    forms = [backend.props.form(t) for t in q.tokens]
    genre = Candidate("q", 0.7, shape="plain", properties=("P136",))
    assert [m.qid for m in q.classes] == ["Q11424"]
    assert "film" not in dict(backend._worded(q, forms, genre, {}).wording).get("P136", "")
    unclassed = backend._analyze("which film did gioachino rossini contribute in", "en", [])
    assert dict(backend._worded(unclassed, forms, genre, {}).wording)["P136"] == "film"  # the lexicon's word


def test_an_occupation_typed_before_a_name_says_what_the_person_is(backend: LocalBackend):
    top = backend.ask("Where was the physicist Albert Einstein born?", "en")[0]
    assert top.sparql == "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?answer . }"
    einstein = next(link for link in top.links if link.qid == "Q937")
    assert einstein.described == "physicist" and einstein.described_span == (3, 4)
    assert any(kind == "class" and start == 3 for start, _, kind in top.explains)
    # a noun the person is not said to be describes nothing
    other = backend.ask("Where was the city Albert Einstein born?", "en")[0]
    assert all(not link.described for link in other.links if link.qid == "Q937")


def test_a_noun_right_before_a_name_describes_it_when_it_names_its_class_or_occupation():
    from backends.local.generator import described, occupation_pairs

    def mention(start: int, end: int, qid: str) -> Mention:
        return Mention(start, end, qid.lower(), qid, 1.0, 0.5, 0.8, True, 1, False, 10, 0, 0.3, kind="label")

    painter, velazquez, film, titanic = (mention(1, 2, "Q1028181"), mention(2, 3, "Q297"),
                                         mention(4, 5, "Q11424"), mention(5, 6, "Q44578"))
    mentions = [painter, velazquez, film, titanic]
    classes = {"Q297": ["Q5"], "Q44578": ["Q11424"]}
    assert occupation_pairs(mentions, classes) == [("Q297", "Q1028181")]  # a class of the entity needs no asking
    assert described(mentions, classes, {("Q297", "Q1028181")}) == {"Q297": painter, "Q44578": film}
    assert described(mentions, classes, set()) == {"Q44578": film}
    after = mention(3, 4, "Q1028181")  # "Velázquez painter": the noun after the name
    assert described([velazquez, after], {"Q297": ["Q5"]}, {("Q297", "Q1028181")}) == {}


def test_a_nationality_between_the_noun_and_the_name_and_an_occupation_the_kg_does_not_know():
    """« el ciclista colombiano Egan Bernal »: the noun before a country's adjective describes
    the name after it (the noun's span then covers both words); a person the KG knows no
    occupation of is described by a noun of an occupation, one who has another is not."""
    from backends.local.generator import described, occupation_pairs

    def mention(start: int, end: int, qid: str, kind: str = "label") -> Mention:
        return Mention(start, end, qid.lower(), qid, 1.0, 0.5, 0.8, True, 1, False, 10, 0, 0.3, kind=kind)

    cyclist, colombian, bernal = mention(1, 2, "Q2309784"), mention(2, 3, "Q739", "inflected"), mention(3, 4, "Q1")
    classes = {"Q1": ["Q5"], "Q739": ["Q6256"], "Q2309784": ["Q28640"]}
    mentions = [cyclist, colombian, bernal]
    assert ("Q1", "Q2309784") in occupation_pairs(mentions, classes)
    found = described(mentions, classes, {("Q1", "Q2309784")})["Q1"]
    assert (found.start, found.end, found.surface) == (1, 3, "q2309784 q739")
    assert described(mentions, classes, set(), {"Q1"})["Q1"].end == 3  # no occupation known: the noun says it
    assert described(mentions, classes, set()) == {}  # another occupation known: no
    city = {**classes, "Q739": ["Q515"]}  # not a country's adjective
    assert described(mentions, city, {("Q1", "Q2309784")}) == {}


def test_the_entities_lacking_a_property_are_read_in_one_query(backend: LocalBackend):
    assert backend.reads.lacking("P106", {"Q937", "Q64"}) == {"Q64"}  # Einstein's occupation is known
    assert backend.reads.lacking("P106", set()) == set()
