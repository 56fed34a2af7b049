"""A tiny Wikidata-shaped graph with module-level terms, for cheap in-memory tests.

Real Wikidata ids are used so that shapes match the full KG, but every fact here is
written by hand.  One label carries HTML/JS on purpose (escaping tests).
"""

from __future__ import annotations

import pyoxigraph as ox

WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"
XSD = "http://www.w3.org/2001/XMLSchema#"
LABEL = ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label")
ALT = ox.NamedNode("http://www.w3.org/2004/02/skos/core#altLabel")


def e(qid: str) -> ox.NamedNode:
    """Entity IRI."""
    return ox.NamedNode(WD + qid)


def p(pid: str) -> ox.NamedNode:
    """Direct-property IRI."""
    return ox.NamedNode(WDT + pid)


# entities
BERLIN, GERMANY, EINSTEIN, ULM, MOSCOW, RUSSIA, PUSHKIN, PARIS, FRANCE = (
    e("Q64"), e("Q183"), e("Q937"), e("Q3012"), e("Q649"), e("Q159"), e("Q7200"), e("Q90"), e("Q142"))
BEIJING, CHINA, CITY, HUMAN, COUNTRY, PHYSICIST, XSS = (
    e("Q956"), e("Q148"), e("Q515"), e("Q5"), e("Q6256"), e("Q169470"), e("Q99999999"))
# properties
P31, P17, P19, P36, P106, P569, P1082, P2048, P27, P20 = (
    p("P31"), p("P17"), p("P19"), p("P36"), p("P106"), p("P569"), p("P1082"), p("P2048"), p("P27"), p("P20"))


def _lit(value: str, lang: str) -> ox.Literal:
    return ox.Literal(value, language=lang)


def _typed(value: str, dtype: str) -> ox.Literal:
    return ox.Literal(value, datatype=ox.NamedNode(XSD + dtype))


LABELS: dict[ox.NamedNode, dict[str, list[str]]] = {
    BERLIN: {"en": ["Berlin"], "de": ["Berlin"], "ru": ["Берлин"], "zh": ["柏林"], "fr": ["Berlin"],
             "es": ["Berlín"], "uk": ["Берлін"], "ja": ["ベルリン"]},
    GERMANY: {"en": ["Germany", "Federal Republic of Germany"], "de": ["Deutschland"], "ru": ["Германия"],
              "zh": ["德国"], "fr": ["Allemagne"], "es": ["Alemania"], "uk": ["Німеччина"], "ja": ["ドイツ"]},
    EINSTEIN: {"en": ["Albert Einstein", "Einstein"], "de": ["Albert Einstein"], "ru": ["Альберт Эйнштейн"],
               "zh": ["阿尔伯特·爱因斯坦", "爱因斯坦"], "fr": ["Albert Einstein"],
               "ja": ["アルベルト・アインシュタイン"]},
    ULM: {"en": ["Ulm"], "ru": ["Ульм"], "zh": ["乌尔姆"], "fr": ["Ulm"]},
    MOSCOW: {"en": ["Moscow"], "de": ["Moskau"], "ru": ["Москва"], "zh": ["莫斯科"], "fr": ["Moscou"],
             "es": ["Moscú"], "uk": ["Москва"]},
    RUSSIA: {"en": ["Russia"], "de": ["Russland"], "ru": ["Россия"], "zh": ["俄罗斯"], "fr": ["Russie"],
             "es": ["Rusia"], "uk": ["Росія"]},
    PUSHKIN: {"en": ["Alexander Pushkin"], "ru": ["Александр Сергеевич Пушкин", "Пушкин"], "zh": ["普希金"]},
    PARIS: {"en": ["Paris"], "ru": ["Париж"], "zh": ["巴黎"], "fr": ["Paris"], "es": ["París"]},
    FRANCE: {"en": ["France"], "de": ["Frankreich"], "ru": ["Франция"], "zh": ["法国"], "fr": ["France"],
             "es": ["Francia"]},
    BEIJING: {"en": ["Beijing", "Peking"], "ru": ["Пекин"], "zh": ["北京"], "fr": ["Pékin"]},
    CHINA: {"en": ["People's Republic of China", "China"], "ru": ["Китай"], "zh": ["中华人民共和国", "中国"]},
    CITY: {"en": ["city"], "de": ["Stadt"], "ru": ["город"], "zh": ["城市"]},
    HUMAN: {"en": ["human"], "de": ["Mensch"], "ru": ["человек"], "zh": ["人类"]},
    COUNTRY: {"en": ["country"], "de": ["Staat"], "ru": ["государство"], "zh": ["国家"]},
    PHYSICIST: {"en": ["physicist"], "de": ["Physiker"], "ru": ["физик"], "zh": ["物理学家"]},
    XSS: {"en": ["<img src=x onerror=alert(1)>"]},
    P31: {"en": ["instance of"], "de": ["ist ein(e)"], "ru": ["это частный случай понятия"], "zh": ["性质"]},
    P17: {"en": ["country"], "de": ["Staat"], "ru": ["государство"], "zh": ["国家"]},
    P19: {"en": ["place of birth"], "de": ["Geburtsort"], "ru": ["место рождения"], "zh": ["出生地"]},
    P36: {"en": ["capital"], "de": ["Hauptstadt"], "ru": ["столица"], "zh": ["首都"]},
    P106: {"en": ["occupation"], "de": ["Tätigkeit"], "ru": ["род занятий"], "zh": ["职业"]},
    P569: {"en": ["date of birth"], "de": ["Geburtsdatum"], "ru": ["дата рождения"], "zh": ["出生日期"]},
    P1082: {"en": ["population"], "de": ["Einwohnerzahl"], "ru": ["население"], "zh": ["人口"]},
    P2048: {"en": ["height"], "de": ["Höhe"], "ru": ["высота"], "zh": ["高度"]},
    P27: {"en": ["country of citizenship"], "de": ["Staatsangehörigkeit"], "ru": ["гражданство"], "zh": ["国籍"]},
    P20: {"en": ["place of death"], "de": ["Sterbeort"], "ru": ["место смерти"], "zh": ["逝世地点"]},
}

FACTS: list[tuple[ox.NamedNode, ox.NamedNode, ox.NamedNode | ox.Literal]] = [
    (BERLIN, P31, CITY), (BERLIN, P17, GERMANY), (GERMANY, P36, BERLIN), (GERMANY, P31, COUNTRY),
    (MOSCOW, P31, CITY), (MOSCOW, P17, RUSSIA), (RUSSIA, P36, MOSCOW), (RUSSIA, P31, COUNTRY),
    (PARIS, P31, CITY), (PARIS, P17, FRANCE), (FRANCE, P36, PARIS), (FRANCE, P31, COUNTRY),
    (BEIJING, P31, CITY), (BEIJING, P17, CHINA), (CHINA, P36, BEIJING), (CHINA, P31, COUNTRY),
    (ULM, P31, CITY), (ULM, P17, GERMANY),
    (EINSTEIN, P31, HUMAN), (EINSTEIN, P19, ULM), (EINSTEIN, P106, PHYSICIST), (EINSTEIN, P27, GERMANY),
    (EINSTEIN, P569, _typed("1879-03-14T00:00:00Z", "dateTime")),
    (PUSHKIN, P31, HUMAN), (PUSHKIN, P19, MOSCOW), (PUSHKIN, P27, RUSSIA),
    (PUSHKIN, P569, _typed("1799-06-06T00:00:00Z", "dateTime")),
    (BERLIN, P1082, _typed("3644826", "decimal")), (MOSCOW, P1082, _typed("12506468", "decimal")),
    (PARIS, P1082, _typed("2175601", "decimal")),
    (XSS, P31, CITY), (XSS, P17, FRANCE),
]


def quads() -> list[ox.Quad]:
    """Every triple of the tiny graph (labels first: rdfs:label, then skos:altLabel)."""
    out = []
    for node, langs in LABELS.items():
        for lang, names in langs.items():
            out.append(ox.Quad(node, LABEL, _lit(names[0], lang)))
            out.extend(ox.Quad(node, ALT, _lit(n, lang)) for n in names[1:])
    out.extend(ox.Quad(s, pr, o) for s, pr, o in FACTS)
    return out


def ntriples() -> str:
    """The tiny graph serialized as N-Triples (to test file-based builds)."""
    return "".join(f"{q.subject} {q.predicate} {q.object} .\n" for q in quads())


def memory_store() -> ox.Store:
    """A fresh in-memory store holding the tiny graph."""
    store = ox.Store()
    store.extend(quads())
    return store
