"""The label index's name keys held by a real endpoint (``oxigraph serve-read-only`` on
127.0.0.1 over the served store, as ``kgqa kg-serve`` serves it): the endpoint then links
by sound, by surname and by close words exactly as the label index does; normal queries
never see the keys; an endpoint without them is read with portable SPARQL alone."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pyoxigraph
import pytest

from backends.local.linking import Linker
from core.settings import load_settings
from kg.build import build_kg
from kg.client import RemoteKG
from kg.endpoint import EndpointCaches, EndpointIndex, EndpointProfile, TTLCache, endpoint_profile
from kg.labels import DB_NAME, LabelIndex
from kg.name_keys import (
    GRAPH,
    class_iri,
    name_iri,
    parse_class,
    parse_name,
    parse_sound,
    parse_token,
    served_store,
    sound_iri,
    token_iri,
    write_name_keys,
)
from kg.store import KGPaths
from service.kgserve import query_url, start_oxigraph
from tests import tiny_kg
from tests.service.faulty_http import free_port

SERVER_ONLY = Path(__file__).resolve().parent.parent / "data" / "server_only.nt"
ROOT = Path(__file__).resolve().parents[2]

QUESTIONS = [  # (question, language): each leans on one kind of the label index's links
    ("Где находятся Франциак Лоулендс?", "ru"),  # by sound: "Franciac Lowlands" has no Russian name
    ("Where was Quandelbrook born?", "en"),  # a person's surname alone
    ("Where was Einstien born?", "en"),  # a typo: a close vocabulary word
    ("Wo wurde Albert Einstein geboren?", "de"),
    ("Какая столица Вальдории?", "ru"),  # an inflected name
    ("In welchem Land liegt Kestrelvik?", "de"),
]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> KGPaths:
    root = tmp_path_factory.mktemp("name_keys")
    nt = root / "all.nt"
    nt.write_text(tiny_kg.ntriples() + SERVER_ONLY.read_text(encoding="utf-8"), encoding="utf-8")
    return build_kg(nt, root / "cache", progress=False)


@pytest.fixture(scope="module")
def servers(built: KGPaths):
    """Query URLs of the served store (KG and name keys) and of the bare store."""
    ports = free_port(), free_port()
    processes = [start_oxigraph(store, "127.0.0.1", port)
                 for store, port in zip((served_store(built), built.store), ports, strict=True)]
    yield tuple(query_url("127.0.0.1", port) for port in ports)
    for process in processes:
        process.kill()
        process.wait()


def _index(url: str, name_keys: bool | None = None) -> tuple[RemoteKG, EndpointIndex]:
    kg = RemoteKG(url, timeout_s=10)
    caches = EndpointCaches(TTLCache(), TTLCache(), TTLCache())
    return kg, EndpointIndex(kg, EndpointProfile("test", url, class_statistics=True, name_keys=name_keys),
                             timeout_s=10, caches=caches)


def test_row_iris_carry_their_rows_whatever_the_text():
    assert parse_name(name_iri(64, 5, "de,en,zh-hans")).__dict__ == {"qid": "Q64", "kind": 5,
                                                                     "langs": ("de", "en", "zh-hans")}
    assert parse_name(name_iri(7, 1, "")).langs == ()
    for latin in ("o'brien", "a:b c/d%e", "müller"):
        row = parse_sound(sound_iri(937, 16, 120, latin))
        assert row is not None and (row.qid, row.kind, row.degree, row.latin) == ("Q937", 16, 120, latin)
    for word in ("berlin", "état:s", "北京", "a/b?c#d"):
        token = parse_token(token_iri(word, 12))
        assert token is not None and (token.token, token.df) == (word, 12)
    assert parse_name("http://www.wikidata.org/entity/Q64") is None and parse_token("urn:kgqa:t:x:y") is None
    assert (parse_class(class_iri("P19", "o", 515, 40210)).cls, parse_class(class_iri("P569", "o", -1, 7)).cls) == (
        "Q515", "date")
    assert parse_class("urn:kgqa:c:P19:x:515:3") is None and parse_class("urn:kgqa:c:P19:s:5²:3") is None


def test_an_endpoint_with_name_keys_reads_as_the_label_index(servers: tuple[str, str], built: KGPaths):
    local = LabelIndex.open(built.labels)
    kg, remote = _index(servers[0])
    assert remote.name_keys() is not None
    keys = ["albert einstein", "einstein", "quandelbrook", "berlin", "kestrelvik", "deutschland", "nosuchname"]
    assert remote.lookup(keys, lang="ru") == local.lookup(keys)
    sounds = ["kstrlbk", "brln", "ansdn"]
    assert remote.lookup_phonetic(sounds) == local.lookup_phonetic(sounds)
    assert remote.lookup_phonetic(sounds, per_key=1) == local.lookup_phonetic(sounds, per_key=1)
    for prefix, limit, max_len in (("ber", 5000, None), ("einst", 3, None), ("вальдори", 400, 11), ("qu", 10, None)):
        assert (remote.tokens_with_prefix(prefix, limit, max_len=max_len)
                == (local.tokens_with_prefix(prefix, limit, max_len=max_len) if len(prefix) >= 3 else []))
    for token in ("einstien", "berlins", "вальдории", "cities", "germny"):
        assert remote.similar_tokens(token, limit=6) == local.similar_tokens(token, limit=6)
    hostile = ['a"b', "c\\d", "e\nf", "} } DROP ALL", "g'h"]  # the question's words, as escaped literals
    assert remote.lookup(hostile) == {} and remote.tokens_with_prefix('ab"c') == []
    sent = kg.requests
    remote.similar_tokens("einstien", limit=6)
    remote.lookup(keys)
    assert kg.requests == sent  # cached
    assert remote.property_classes() == local.property_classes() != {}
    assert kg.requests == sent + 1  # the class statistics held with the keys: one read, not two aggregates


def test_an_endpoint_without_name_keys_aggregates_the_class_statistics(servers: tuple[str, str], built: KGPaths):
    kg, bare = _index(servers[1])
    assert bare.property_classes() == LabelIndex.open(built.labels).property_classes()
    assert kg.requests == 3  # whether it holds keys, then the aggregates of the subjects' and objects' classes


@pytest.mark.parametrize(("question", "lang"), QUESTIONS)
def test_the_linker_over_name_keys_links_as_over_the_label_index(servers: tuple[str, str], built: KGPaths,
                                                                 question: str, lang: str):
    local = Linker(LabelIndex.open(built.labels))
    remote = Linker(_index(servers[0])[1])
    expected = [(m.qid, m.kind, m.start, m.end, m.score) for m in local.link(question, lang)]
    assert expected and [(m.qid, m.kind, m.start, m.end, m.score) for m in remote.link(question, lang)] == expected


def test_the_sound_surname_and_typo_links_need_the_keys(servers: tuple[str, str], built: KGPaths):
    """The same questions over the bare store (portable SPARQL alone) miss those links."""
    local = Linker(LabelIndex.open(built.labels))
    _kg, bare = _index(servers[1])
    assert bare.name_keys() is None
    _kg, told_not_to = _index(servers[0], name_keys=False)
    for index in (bare, told_not_to):
        assert index.lookup_phonetic(["kstrlbk"]) == {} and index.tokens_with_prefix("ber") == []
        for question, lang in QUESTIONS[:3]:
            ours = {m.qid for m in Linker(index).link(question, lang)}
            theirs = {m.qid for m in local.link(question, lang) if m.kind in ("phonetic", "partial", "fuzzy")}
            assert theirs and not theirs <= ours, (question, theirs, ours)


def test_normal_queries_never_see_the_keys(servers: tuple[str, str]):
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    served, bare = (RemoteKG(url, timeout_s=10).query(count).rows[0]["n"].value for url in servers)
    assert served == bare
    graph = f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{GRAPH}> {{ ?s ?p ?o }} }}"
    assert int(RemoteKG(servers[0], timeout_s=10).query(graph).rows[0]["n"].value) > 0


def test_the_setting_turns_the_keys_off_for_an_own_endpoint():
    on = endpoint_profile(load_settings({}, kg_endpoint="http://127.0.0.1:9/query"))
    off = endpoint_profile(load_settings({"KGQA_KG_NAME_KEYS": "off"}, kg_endpoint="http://127.0.0.1:9/query"))
    wikidata = endpoint_profile(load_settings({}, kg_profile="wikidata"))
    assert on is not None and on.name_keys is None  # asked once
    assert off is not None and off.name_keys is False
    assert wikidata is not None and wikidata.name_keys is False


def test_kgqa_kg_keys_writes_one_quad_per_index_row_and_prefix(built: KGPaths, tmp_path: Path):
    out = tmp_path / "keys.nq.gz"
    cache = built.root.parent.parent  # <root>/cache/kg/<name>-<fingerprint>
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGQA_")}
    proc = subprocess.run([sys.executable, "-m", "cli.main", "kg-keys", str(out), str(cache.parent / "all.nt"),
                           "--cache-dir", str(cache)], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    quads = list(pyoxigraph.parse(gzip.decompress(out.read_bytes()), format=pyoxigraph.RdfFormat.N_QUADS))
    assert quads and all(q.graph_name.value == GRAPH for q in quads)
    again = tmp_path / "again.nq"
    assert write_name_keys(built.labels, again) == len(quads) and f"{len(quads)} name-key quads" in proc.stdout
    local = LabelIndex.open(built.labels)
    assert len({q.subject.value for q in quads if q.subject.value.startswith("urn:kgqa:t:")}) == int(
        local.meta()["tokens"])
    assert (built.labels / DB_NAME).is_file()


def test_a_rebuilt_label_index_gets_a_fresh_served_copy(tmp_path: Path):
    nt = tmp_path / "tiny.nt"
    nt.write_text(tiny_kg.ntriples(), encoding="utf-8")
    paths = build_kg(nt, tmp_path / "cache", progress=False)
    first = served_store(paths)
    assert served_store(paths) == first  # built once
    db = paths.labels / DB_NAME
    os.utime(db, ns=(db.stat().st_atime_ns, db.stat().st_mtime_ns + 1_000_000_000))  # as a rebuild leaves it
    second = served_store(paths)
    assert second != first and second.is_dir() and not first.exists()
