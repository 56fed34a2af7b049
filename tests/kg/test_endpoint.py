"""The KG index over a real SPARQL endpoint (``oxigraph serve-read-only`` on 127.0.0.1,
started here) holding the tiny graph plus entities only the server has
(``tests/data/server_only.nt``): the same reads as the embedded label index, the product
started with no KG file at all, questions about server-only entities in six languages,
and a famous entity that keeps its answer beside a server-only namesake."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pyoxigraph
import pytest

from backends.local.generator import LocalBackend
from backends.local.linking import FUZZY_ALTERNATIVES, Linker
from core.errors import KGUnavailable
from core.settings import Settings
from core.text import fold
from kg.client import EmbeddedKG, RemoteKG, question_budget
from kg.endpoint import (
    PROFILES,
    EndpointCaches,
    EndpointIndex,
    EndpointProfile,
    EntitySearch,
    TTLCache,
    endpoint_profile,
    literal_forms,
    name_languages,
)
from kg.labels import KIND_ALT, KIND_LABEL, LabelIndex, build_label_index
from kg.store import build_store
from qa.pipeline import Pipeline
from service.factory import build_pipeline
from service.kgserve import query_url, start_oxigraph
from tests import tiny_kg
from tests.service.faulty_http import free_port

SERVER_ONLY = Path(__file__).resolve().parent.parent / "data" / "server_only.nt"

# (question, what a right answer holds: an entity id or a literal's text); six languages
SERVER_ONLY_QUESTIONS = [
    ("Where was Marietta Quandelbrook born?", "Q64"),
    ("Wo wurde Osvald Trennholm geboren?", "Q649"),
    ("Où est née Liora Vantessi ?", "Q90"),
    ("¿Cuál es la capital de Valdoria?", "Q990004"),
    ("Какая столица Вальдории?", "Q990004"),
    ("瓦尔多里亚的首都是哪里？", "Q990004"),
    ("What is the population of Kestrelvik?", "48210"),
    ("Wann wurde Hallgrim Ostervold geboren?", "1911-11-05"),
    ("Who was born in Brannock Heights?", "Q990010"),
    ("Où est née Séraphine Duclair ?", "Q956"),
    ("Где родился Томаш Вежбель?", "Q990004"),
    ("¿Dónde nació Ilvana Stoyce?", "Q990006"),
    ("In welchem Land liegt Kestrelvik?", "Q990005"),
    ("Quelle est la capitale de la Valdorie ?", "Q990004"),
]


def _nt() -> str:
    return tiny_kg.ntriples() + SERVER_ONLY.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def both(tmp_path_factory) -> tuple[Path, Path]:
    """The store directory (for the server) and the label index (the embedded reference)
    of the tiny graph plus the server-only entities."""
    root = tmp_path_factory.mktemp("endpoint")
    nt = root / "all.nt"
    nt.write_text(_nt(), encoding="utf-8")
    paths = build_store(nt, root / "cache", progress=False)
    build_label_index(_memory_store(), root / "labels")
    return paths.store, root / "labels"


def _memory_store() -> pyoxigraph.Store:
    store = pyoxigraph.Store()
    store.extend(pyoxigraph.parse(_nt().encode(), format=pyoxigraph.RdfFormat.N_TRIPLES))
    return store


@pytest.fixture(scope="module")
def endpoint(both: tuple[Path, Path]):
    port = free_port()
    process = start_oxigraph(both[0], "127.0.0.1", port)
    yield query_url("127.0.0.1", port)
    process.kill()
    process.wait()


def _fresh_index(url: str, **profile: object) -> tuple[RemoteKG, EndpointIndex]:
    kg = RemoteKG(url, timeout_s=10)
    caches = EndpointCaches(TTLCache(), TTLCache(), TTLCache())
    return kg, EndpointIndex(kg, EndpointProfile("test", url, **profile), timeout_s=10, caches=caches)  # type: ignore[arg-type]


# ---------------------------------------------------------------- pieces


def test_ttl_cache_expires_and_evicts_the_least_recently_used():
    now = [0.0]
    cache: TTLCache[str, int] = TTLCache(max_items=2, ttl_s=10, clock=lambda: now[0])
    cache.put_many({"a": 1, "b": 2})
    assert cache.get_many(["a"]) == ({"a": 1}, [])  # "a" is now the most recently used
    cache.put_many({"c": 3})
    assert cache.get_many(["a", "b", "c"]) == ({"a": 1, "c": 3}, ["b"])
    now[0] = 10.5
    assert cache.get_many(["a", "c"]) == ({}, ["a", "c"])


def test_name_forms_and_languages_are_made_on_the_client():
    assert "Pirates of the Caribbean" in literal_forms("pirates of the caribbean", None)
    assert literal_forms("usa", None)[-1] == "USA"
    assert literal_forms("爱 因 斯 坦", None)[0] == "爱因斯坦"
    assert literal_forms("berlin", "Berlin")[0] == "Berlin"
    assert name_languages("de", "Berlin")[:2] == ("de", "en") and "mul" in name_languages("de", "Berlin")
    assert "nl" in name_languages("de", "Berlin") and "ru" not in name_languages("de", "Berlin")
    assert "ru" in name_languages("uk", "Германия")


def test_profiles_from_settings():
    assert endpoint_profile(Settings()) is None
    wikidata = endpoint_profile(Settings(kg_profile="wikidata"))
    assert wikidata is not None and wikidata.popularity == "sitelinks" and wikidata.search_url
    own = endpoint_profile(Settings(kg_profile="qlever", kg_endpoint="http://127.0.0.1:1/q"))
    assert own is not None and own.url == "http://127.0.0.1:1/q" and own.name == "qlever"
    assert endpoint_profile(Settings(kg_endpoint="http://x/sparql")).popularity == "degree"  # type: ignore[union-attr]
    with pytest.raises(KGUnavailable, match="unknown KG profile"):
        endpoint_profile(Settings(kg_profile="nope"))
    from core.settings import KG_PROFILES

    assert set(PROFILES) | {"embedded"} == set(KG_PROFILES)  # the settings check knows every profile


# ---------------------------------------------------------------- the same reads as the label index


def test_endpoint_reads_match_the_label_index(endpoint: str, both: tuple[Path, Path]):
    local = LabelIndex.open(both[1])
    kg, remote = _fresh_index(endpoint, class_statistics=True, max_pid=3000)
    assert remote.property_labels() == local.property_labels()
    assert remote.property_classes() == local.property_classes()
    ids = ["Q937", "Q64", "Q183", "Q515", "Q990004", "Q990012", "Q5"]
    assert ({q: (st.degree, st.instances) for q, st in remote.entity_stats(ids).items()}
            == {q: (st.degree, st.instances) for q, st in local.entity_stats(ids).items()})
    assert remote.classes_of(ids) == local.classes_of(ids)
    sent = kg.requests
    assert remote.classes_of(ids) == local.classes_of(ids)
    assert kg.requests == sent  # cached: no request
    keys = {"albert einstein": "Albert Einstein", "deutschland": "Deutschland", "valdoria": "Valdoria"}
    found = remote.lookup(keys, lang="de", written=keys)
    want = local.lookup(keys)
    assert {k: {h.qid for h in hits} for k, hits in found.items()} == {k: {h.qid for h in hits if h.exact}
                                                                       for k, hits in want.items()}
    assert {h.qid for h in found["albert einstein"]} == {"Q937", "Q990012"}
    assert all(h.kind & (KIND_LABEL | KIND_ALT) for hits in found.values() for h in hits)
    sent = kg.requests
    remote.lookup(keys, lang="de", written=keys)
    assert kg.requests == sent


def test_a_name_typed_in_another_language_is_found_by_its_cldr_name(endpoint: str, both: tuple[Path, Path]):
    _kg, remote = _fresh_index(endpoint)
    hits = remote.lookup(["франція"], lang="uk", written={"франція": "Франція"})  # no Ukrainian name in the KG
    # Q990013, a region aliased "France" in English, does not get France's CLDR names: as in the label index
    assert [h.qid for h in hits["франція"]] == ["Q142"] == [
        h.qid for h in LabelIndex.open(both[1]).lookup(["франція"])["франція"]]
    assert hits["франція"][0].names_in("uk") and not hits["франція"][0].names_in("ru")
    assert {h.qid for h in remote.lookup(["france"], lang="en")["france"]} == {"Q142", "Q990013"}  # a KG name


def test_name_forms_keep_what_the_user_typed_and_the_casing_of_names():
    assert literal_forms("états unis contigus", "États-Unis contigus")[:2] == ["États-Unis contigus",
                                                                              "États Unis contigus"]
    assert "McLaren" in literal_forms("mclaren", "mclaren")
    assert "Shaquille O'Neal" in literal_forms("shaquille o'neal", None)
    assert "MacArthur Park" in literal_forms("macarthur park", None)
    assert literal_forms("mac", None) == ["mac", "Mac", "MAC"]  # too short to be Mac + a name


def test_a_name_is_tried_in_every_chat_language_of_its_script():
    assert {"pt", "es", "en", "mul", "fr"} <= set(name_languages("pt", "EUA"))
    assert {"ru", "uk", "ba"} <= set(name_languages("ru", "Ирландия"))
    assert "es" not in name_languages("ru", "Ирландия")


def test_the_linker_sends_the_span_as_typed_with_its_punctuation(endpoint: str):
    kg, remote = _fresh_index(endpoint)
    seen: list[dict[str, str]] = []

    class Spy(EndpointIndex):
        def lookup(self, keys, *, lang="", written=None):  # type: ignore[override]
            seen.append(dict(written or {}))
            return super().lookup(keys, lang=lang, written=written)

    spy = Spy(kg, remote.profile, timeout_s=10, caches=remote.caches)
    Linker(spy).link("Quels sont les États-Unis d'Amérique ?", "fr")
    assert seen[0]["états unis d amérique"] == "États-Unis d'Amérique"


def test_inflected_names_are_found_by_their_dictionary_form(endpoint: str):
    _kg, remote = _fresh_index(endpoint)
    forms = dict(remote.similar_tokens("вальдории", limit=6))
    assert "вальдория" in forms
    # the linker passes words folded (« й » as « и »): « Северной » is still an inflected « Северная »
    assert "северная" in dict(remote.similar_tokens(fold("северной"), limit=FUZZY_ALTERNATIVES))
    assert "столица" in dict(remote.similar_tokens(fold("столицей"), limit=FUZZY_ALTERNATIVES))
    assert "city" in dict(remote.similar_tokens("cities")) and "berlin" in dict(remote.similar_tokens("berlins"))
    assert remote.tokens_with_prefix("ber") == [] and remote.lookup_phonetic(["brln"]) == {}


def test_popularity_from_sitelinks_where_the_endpoint_has_them(endpoint: str):
    kg, remote = _fresh_index(endpoint, popularity="sitelinks")
    stats = remote.entity_stats(["Q990005", "Q990012", "Q515"])
    assert stats["Q990005"].degree == 41 * 100 and stats["Q990012"].degree == 2 * 100
    assert stats["Q515"].instances == 1 and stats["Q990005"].instances == 0  # a class: it has instances
    assert "Q6256" in remote.classes_of(["Q990005"])["Q990005"]


# ---------------------------------------------------------------- the product over the endpoint


@pytest.fixture(scope="module")
def product(endpoint: str, tmp_path_factory) -> Pipeline:
    """The product as ``kgqa`` builds it with an endpoint set and no KG file anywhere."""
    root = tmp_path_factory.mktemp("nokg")
    settings = Settings(kg_source=root / "no-such-kg.nt.gz", kg_endpoint=endpoint, cache_dir=root / "cache",
                        validator=False, kg_budget_s=60.0)
    pipeline = build_pipeline(settings)
    assert not (root / "cache").exists()  # nothing KG-derived was built or read locally
    assert isinstance(pipeline.kg, RemoteKG) and isinstance(pipeline.backend, LocalBackend)
    return pipeline


def _right(turn, want: str) -> bool:
    return any(want in (a.id or "") or want in a.label for a in turn.answers)


def test_server_only_entities_are_answered_in_six_languages(product: Pipeline):
    right = wrong = 0
    for question, want in SERVER_ONLY_QUESTIONS:
        turn = product.answer(question)
        right += turn.answered and _right(turn, want)
        wrong += turn.answered and not _right(turn, want)
    assert wrong == 0
    assert right >= 0.8 * len(SERVER_ONLY_QUESTIONS)


def test_a_famous_entity_keeps_its_answer_beside_a_server_only_namesake(product: Pipeline):
    turn = product.answer("Where was Albert Einstein born?")
    assert [a.id for a in turn.answers] == ["Q3012"]
    assert any("namesake" in note for note in turn.notes)


def test_same_answers_as_the_embedded_store(product: Pipeline, both: tuple[Path, Path]):
    kg = EmbeddedKG(_memory_store())
    backend = product.backend
    assert isinstance(backend, LocalBackend)
    embedded = Pipeline(LocalBackend(kg, LabelIndex.open(both[1]), lexicon=backend.lexicon, ranker=backend.ranker,
                                     timeout_s=backend.timeout_s, budget_s=backend.budget_s), kg)
    same = 0
    questions = [q for q, _w in SERVER_ONLY_QUESTIONS] + ["What is the capital of Germany?",
                                                           "Quelle est la capitale de la France ?"]
    for question in questions:
        a, b = product.answer(question), embedded.answer(question)
        assert sorted(x.id or x.label for x in a.answers) == sorted(x.id or x.label for x in b.answers), question
        same += 1
    assert same == len(questions)


def test_the_question_budget_ends_in_service_unavailable(endpoint: str):
    kg = RemoteKG(endpoint, timeout_s=5)
    with question_budget(0.0), pytest.raises(KGUnavailable, match="budget"):
        kg.query("ASK {}")
    sent = kg.requests
    with question_budget(5.0):
        assert kg.query("ASK { wd:Q64 wdt:P17 wd:Q183 }").boolean is True
    assert kg.requests == sent + 1


# ---------------------------------------------------------------- entity search (wbsearchentities)


class _SearchHandler(BaseHTTPRequestHandler):
    """Speaks the JSON of Wikidata's ``action=wbsearchentities`` over a tiny table."""

    names = {"marieta quandelbrok": [("Q990001", "label", "en")]}
    seen: list[dict[str, list[str]]] = []

    def do_GET(self) -> None:
        params = parse_qs(urlparse(self.path).query)
        type(self).seen.append({**params, "ua": [self.headers.get("User-Agent", "")]})
        found = self.names.get(params["search"][0].lower(), [])
        body = json.dumps({"search": [{"id": q, "match": {"type": t, "language": lang, "text": "x"}}
                                      for q, t, lang in found]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_entity_search_finds_a_misspelled_name(endpoint: str):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _SearchHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/w/api.php"
        search = EntitySearch(url, timeout_s=5, user_agent="kgqa-test (ops@example.org)")
        kg = RemoteKG(endpoint, timeout_s=10)
        caches = EndpointCaches(TTLCache(), TTLCache(), TTLCache())
        index = EndpointIndex(kg, EndpointProfile("t", endpoint), timeout_s=10, search=search, caches=caches)
        written = {"marieta quandelbrok": "Marieta Quandelbrok"}
        hits = index.lookup(written, lang="en", written=written)
        assert [h.qid for h in hits["marieta quandelbrok"]] == ["Q990001"]
        assert not hits["marieta quandelbrok"][0].exact  # a searched name is no exact name
        assert _SearchHandler.seen[-1]["action"] == ["wbsearchentities"]
        assert _SearchHandler.seen[-1]["ua"] == ["kgqa-test (ops@example.org)"]
    finally:
        server.shutdown()


# ---------------------------------------------------------------- kgqa ask, no KG file


def _ask_here(tmp_path: Path, endpoint_url: str, question: str) -> list[str]:
    return ["ask", question, "--kg-endpoint", endpoint_url, "--kg-source", str(tmp_path / "no-such-kg.nt.gz"),
            "--cache-dir", str(tmp_path / "cache"), "--no-validator", "--log-path", str(tmp_path / "log.sqlite"),
            "--json"]


def test_kgqa_ask_answers_over_an_endpoint_with_no_kg_file_and_logs_the_turn(endpoint: str, tmp_path: Path,
                                                                              capsys, monkeypatch):
    from cli.main import main
    from service.session_log import SessionLog

    monkeypatch.setenv("KGQA_KG_BUDGET_S", "60")  # a cold process on a busy machine: not what is tested here
    assert main(_ask_here(tmp_path, endpoint, "Wo wurde Osvald Trennholm geboren?")) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [a["id"] for a in printed["answers"]] == ["Q649"]
    down = f"http://127.0.0.1:{free_port()}/query"  # nothing listens there: the endpoint is down
    main(_ask_here(tmp_path, down, "Wo wurde Osvald Trennholm geboren?"))
    failed = json.loads(capsys.readouterr().out)
    assert failed["status"] == "service_error" and not failed["answers"]
    assert failed["message_key"] == "service_unavailable"
    with SessionLog(tmp_path / "log.sqlite") as log:
        assert log.count() == 2  # the failed turn is logged too
    assert not (tmp_path / "cache" / "kg").exists()
