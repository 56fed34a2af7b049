"""Complex question shapes for the local candidate generator (QALD-10 task 2 and friends).

Shapes, all compact SPARQL projecting ``?answer`` (or ``ASK``), built from IRIs and typed
literals only (numbers and years parsed from the question become ``xsd:decimal`` /
``xsd:dateTime`` / ``xsd:integer`` literals through :func:`kg.sparql.literal`):

* **count**: ``SELECT (COUNT(DISTINCT ?x) AS ?answer) WHERE { … }``;
* **yes/no**: ``ASK { … }`` for relations, types, literal tests and comparisons;
* **superlative** over literals (``ORDER BY DESC(?value) LIMIT 1``) and over counts
  (``GROUP BY ?answer ORDER BY DESC(COUNT(DISTINCT ?x)) LIMIT 1``);
* **filter**: numeric and temporal ``FILTER`` on a typed set ("born before 1985",
  "population over 100 million", "taller than 1.9 m");
* **typed list**: ``?answer wdt:P31 wd:C . ?answer wdt:P wd:E`` ("Give me all … that …");
* **two-entity comparison**: ``VALUES ?answer { wd:E1 wd:E2 } ?answer wdt:P ?value``
  ordered by the direction the cue word gives ("older" = earlier birth date).  The
  pipeline recognises this shape with :func:`parse_comparison` and evaluates it with
  :func:`evaluate_comparison` (winner 1, 2 or 0, or which value is unknown).

The direction of every gradable word lives in :data:`GRADABLES` / :data:`DIRECTION_WORDS`
and the literal properties with their words in :data:`LITERAL_PROPERTIES`.

Trust rules: a candidate whose result would be a guess is not emitted.  A ``no`` is only
possible when every value the ``ASK`` tests exists in the KG (and, for relations, the
property is single-valued); a count of 0 only for an existing entity and a property in
:data:`COMPLETE_PROPERTIES`; superlatives with a tie for the first place are dropped.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Literal

from backends.local.lexicon import default_lexicon
from core.errors import KGError, LexiconError
from core.phrases import Phrase, PhraseMatcher, Word, non_overlapping
from kg.client import KG, Term
from kg.sparql import XSD, entity_iri, literal, local_id, prop_iri, short
from qa.candidate import Candidate
from qa.execute import best_value, value_key

Direction = Literal["ASC", "DESC"]
ValueKind = Literal["date", "quantity"]

# --------------------------------------------------------------------------- tables


@dataclass(frozen=True)
class LiteralProperty:
    """A property with literal values: its kind, whether ORDER BY on it is safe in the
    embedded store, its SI unit (values are SI-normalized) and its words per language.
    A word ending in ``*`` is a stem (matches any ending)."""

    pid: str
    kind: ValueKind
    words: Mapping[str, tuple[str, ...]]
    unit: str | None = None
    orderable: bool = True


def _lp(pid: str, kind: ValueKind, unit: str | None = None, orderable: bool = True,
        **words: tuple[str, ...]) -> LiteralProperty:
    return LiteralProperty(pid, kind, words, unit, orderable)


# Properties whose values include decimals the embedded store cannot parse (more than
# 18 fraction digits, exponents) are not orderable: ORDER BY over them aborts the
# process in pyoxigraph.  Two-entity comparisons over them are still computed in Python.
LITERAL_PROPERTIES: dict[str, LiteralProperty] = {p.pid: p for p in (
    _lp("P569", "date",
        en=("born", "birth*", "birthday"), de=("geboren", "geburt*"),
        ru=("родил*", "рожден*", "рождени*", "родивш*"), uk=("народил*", "народжен*", "народи*"),
        zh=("出生", "生日", "生于", "诞生"), ja=("生まれ", "誕生", "生年"),
        fr=("né", "née", "nés", "nées", "naissance"), es=("nació", "nacid*", "nacimiento"),
        it=("nato", "nata", "nati", "nascita"), pt=("nasceu", "nascid*", "nascimento")),
    _lp("P570", "date",
        en=("died", "death", "die"), de=("gestorben", "starb", "tod", "todes*", "sterbe*"),
        ru=("умер*", "смерт*", "скончал*"), uk=("помер*", "смерт*"), zh=("去世", "逝世", "死于", "死亡"),
        ja=("死去", "没年"), fr=("mort", "morte", "décès", "décédé*"), es=("murió", "muerte", "falleci*"),
        it=("morto", "morta", "morte"), pt=("morreu", "morte")),
    _lp("P571", "date",
        en=("founded", "established", "inception", "formed", "foundation", "created"),
        de=("gegründet", "gründung*", "entstanden"), ru=("основан*", "основани*", "создан*", "образован*"),
        uk=("засн*", "створен*", "утворен*"), zh=("成立", "建立", "创建", "创立", "建国", "始建"),
        ja=("設立", "創立", "建国", "創設"), fr=("fondé*", "fondation", "créé*"),
        es=("fundad*", "fundación", "cread*"), it=("fondat*", "fondazione"), pt=("fundad*", "fundação")),
    _lp("P576", "date",
        en=("dissolved", "abolished", "disbanded"), de=("aufgelöst", "auflösung"),
        ru=("упразднен*", "распущен*", "ликвидир*"), uk=("ліквід*", "розпущен*"), zh=("解散", "废除"),
        fr=("dissous", "dissoute"), es=("disuelt*", "disolución")),
    _lp("P580", "date",
        en=("start*", "began", "begin*"), de=("beginn*", "begann", "startet*"), ru=("начал*", "старт*"),
        uk=("почал*", "почат*"), zh=("开始", "始于", "开赛"), ja=("開始",), fr=("début*", "commenc*"),
        es=("comenz*", "inici*", "empez*"), it=("inizi*",), pt=("começ*", "inici*")),
    _lp("P582", "date",
        en=("end", "ended", "ending", "finished"), de=("ende", "endete", "beendet"),
        ru=("закончил*", "окончани*", "заверш*", "конец"), uk=("закінч*", "заверш*"), zh=("结束",),
        ja=("終了",), fr=("fin", "termin*"), es=("termin*", "finaliz*"), it=("fine", "termin*"),
        pt=("fim", "termin*")),
    _lp("P577", "date",
        en=("published", "released", "publication", "release"), de=("veröffentlich*", "erschien*"),
        ru=("опубликован*", "вышел", "вышла", "издан*"), uk=("опублікован*", "вийшов", "вийшла"),
        zh=("出版", "发行", "发布"), fr=("publié*", "sorti*"), es=("publicad*", "lanzad*")),
    _lp("P1082", "quantity",
        en=("population", "inhabitants", "populous", "populated", "residents"),
        de=("einwohner*", "bevölkerung*"), ru=("населени*", "жител*", "населен*"),
        uk=("населенн*", "жител*", "мешканц*"), zh=("人口", "居民"), ja=("人口",),
        fr=("population", "habitants", "peuplé*"), es=("población", "habitantes", "poblad*"),
        it=("popolazione", "abitanti", "popolos*"), pt=("população", "habitantes", "populos*")),
    _lp("P2046", "quantity", "m2",
        en=("area", "square kilomet*", "square mile*"), de=("fläche*", "flächenmäßig"),
        ru=("площад*", "территори*"), uk=("площ*", "територі*"), zh=("面积", "国土"), ja=("面積",),
        fr=("superficie", "surface"), es=("superficie", "área", "extensión"), it=("superficie", "area"),
        pt=("área", "superfície")),
    _lp("P2048", "quantity", "m",
        en=("height", "tall", "stature"), de=("körpergröße",), ru=("рост", "ростом", "росту", "высот*"),
        uk=("зріст", "зросту", "висот*"), zh=("身高", "高度", "个子"), ja=("身長",), fr=("taille", "hauteur"),
        es=("altura", "estatura"), it=("altezza", "statura"), pt=("altura", "estatura")),
    _lp("P2067", "quantity", "kg",
        en=("weight", "weigh*", "mass"), de=("gewicht*", "wiegt", "wog"), ru=("вес", "весит", "весом", "веса"),
        uk=("вага", "вагу", "важить"), zh=("体重", "重量"), ja=("体重",), fr=("poids", "pèse"),
        es=("peso", "pesa"), it=("peso", "pesa"), pt=("peso", "pesa")),
    _lp("P2131", "quantity",
        en=("gdp", "gross domestic product"), de=("bip", "bruttoinlandsprodukt*"), ru=("ввп", "валов*"),
        uk=("ввп",), zh=("国内生产总值", "gdp"), ja=("gdp", "国内総生産"), fr=("pib",), es=("pib",),
        it=("pil",), pt=("pib",)),
    _lp("P2132", "quantity",
        en=("per capita",), de=("pro kopf", "pro-kopf*"), ru=("на душу",), uk=("на душу",),
        zh=("人均",), ja=("一人当たり",), fr=("par habitant",), es=("per cápita",), it=("pro capite",),
        pt=("per capita",)),
    _lp("P1081", "quantity",
        en=("human development index", "hdi"), de=("index der menschlichen entwicklung", "hdi"),
        ru=("индекс человеческого развития", "ичр"), uk=("індекс людського розвитку",),
        zh=("人类发展指数",), fr=("indice de développement humain", "idh"),
        es=("índice de desarrollo humano", "idh")),
    _lp("P2250", "quantity", "s", False,
        en=("life expectancy",), de=("lebenserwartung",), ru=("продолжительност* жизни",),
        uk=("тривалість життя",), zh=("预期寿命", "平均寿命"), ja=("平均寿命",), fr=("espérance de vie",),
        es=("esperanza de vida",), it=("aspettativa di vita",), pt=("expectativa de vida",)),
    _lp("P4841", "quantity",
        en=("fertility rate", "fertility", "birth rate"), de=("fertilität*", "geburtenrate", "geburtenziffer"),
        ru=("рождаемост*", "фертильност*"), uk=("народжуваніст*",), zh=("生育率",), fr=("fécondité",),
        es=("fecundidad", "natalidad")),
    _lp("P1279", "quantity",
        en=("inflation",), de=("inflation*",), ru=("инфляц*",), uk=("інфляц*",), zh=("通货膨胀", "通胀"),
        fr=("inflation",), es=("inflación",)),
    _lp("P1198", "quantity",
        en=("unemployment",), de=("arbeitslos*",), ru=("безработиц*",), uk=("безробітт*",), zh=("失业",),
        fr=("chômage",), es=("desempleo", "paro")),
    _lp("P2855", "quantity",
        en=("vat", "value added tax", "value-added tax"), de=("mehrwertsteuer*", "umsatzsteuer*"),
        ru=("ндс", "налог на добавленную стоимость"), zh=("增值税",), fr=("tva",), es=("iva",)),
    _lp("P2997", "quantity",
        en=("age of majority",), de=("volljährig*",), ru=("совершеннолети*",), zh=("成年年龄",),
        fr=("majorité civile",), es=("mayoría de edad",)),
    _lp("P3001", "quantity",
        en=("retirement age", "retire"), de=("rentenalter", "renteneintritt*"), ru=("пенсионн* возраст*",),
        zh=("退休年龄",), fr=("âge de la retraite",), es=("edad de jubilación",)),
    _lp("P3000", "quantity",
        en=("marriageable age", "marriage age"), de=("ehemündig*", "heiratsalter"), ru=("брачн* возраст*",),
        zh=("结婚年龄",), fr=("âge du mariage",), es=("edad para casarse",)),
    _lp("P2884", "quantity",
        en=("voltage",), de=("netzspannung", "spannung"), ru=("напряжени*",), zh=("电压",), fr=("tension",),
        es=("voltaje", "tensión")),
    _lp("P2219", "quantity",
        en=("growth rate", "economic growth"), de=("wirtschaftswachstum*", "wachstumsrate"),
        ru=("рост ввп", "экономическ* рост*"), zh=("经济增长", "增长率"), fr=("croissance",),
        es=("crecimiento",)),
    _lp("P2134", "quantity",
        en=("reserves",), de=("reserven", "währungsreserven"), ru=("резерв*",), zh=("外汇储备", "储备"),
        fr=("réserves",), es=("reservas",)),
    _lp("P3864", "quantity",
        en=("suicide rate",), de=("suizidrate", "selbstmordrate"), ru=("самоубийств*", "суицид*"),
        zh=("自杀率",), fr=("taux de suicide",), es=("tasa de suicidio",)),
    _lp("P6897", "quantity",
        en=("literacy",), de=("alphabetisierung*",), ru=("грамотност*",), zh=("识字率",),
        fr=("alphabétisation",), es=("alfabetización",)),
    _lp("P1125", "quantity",
        en=("gini",), de=("gini*",), ru=("джини",), zh=("基尼",), fr=("gini",), es=("gini",)),
    _lp("P1132", "quantity",
        en=("participants", "competitors", "entrants"), de=("teilnehmer*",), ru=("участник*", "участни*"),
        uk=("учасник*",), zh=("参赛者", "参与者", "参加者", "参赛人数"), fr=("participants",),
        es=("participantes",)),
    _lp("P1350", "quantity",
        en=("matches played", "games played", "appearances"), de=("einsätze", "spiele"),
        ru=("сыгранн* матч*", "матч*"), zh=("出场",), fr=("matchs joués",), es=("partidos jugados",)),
    _lp("P1351", "quantity",
        en=("goals", "points scored"), de=("tore", "punkte"), ru=("гол*", "очк*"), zh=("进球", "得分"),
        fr=("buts",), es=("goles",)),
    _lp("P3157", "quantity", "m",
        en=("distance", "length", "long"), de=("distanz", "strecke", "länge", "lang"),
        ru=("дистанци*", "длин*", "протяж*"), zh=("距离", "长度", "全长", "赛程"), fr=("distance", "longueur"),
        es=("distancia", "longitud")),
    _lp("P2043", "quantity", "m",
        en=("length", "long"), de=("länge", "lang"), ru=("длин*", "протяж*"), zh=("长度", "全长"),
        fr=("longueur",), es=("longitud",)),
    _lp("P2052", "quantity", "m/s", False,
        en=("speed",), de=("geschwindigkeit",), ru=("скорост*",), zh=("速度",), fr=("vitesse",),
        es=("velocidad",)),
    _lp("P1110", "quantity",
        en=("attendance", "spectators", "visitors"), de=("zuschauer*", "besucher*"),
        ru=("зрител*", "посетител*"), zh=("观众",), fr=("spectateurs",), es=("asistencia", "espectadores")),
    _lp("P1128", "quantity",
        en=("employees", "staff"), de=("mitarbeiter*", "beschäftigte"), ru=("сотрудник*", "работник*"),
        zh=("员工", "雇员"), fr=("employés", "salariés"), es=("empleados",)),
    _lp("P3529", "quantity",
        en=("median income", "income"), de=("einkommen*",), ru=("доход*",), zh=("收入",), fr=("revenu*",),
        es=("ingreso*",)),
)}

DATE_PROPERTIES: tuple[str, ...] = tuple(p for p, lp in LITERAL_PROPERTIES.items() if lp.kind == "date")


@dataclass(frozen=True)
class Gradable:
    """A gradable word ("older", "größer", "старше", "更大") and the (property,
    direction, weight) readings it can have; the winner of a comparison is the first
    value in ``direction`` order ("older" = ``P569 ASC``: the earlier birth date)."""

    name: str
    words: Mapping[str, tuple[str, ...]]
    readings: tuple[tuple[str, Direction, float], ...]


def _dated(direction: Direction) -> tuple[tuple[str, Direction, float], ...]:
    weights = {"P571": 0.9, "P569": 0.9, "P580": 0.8, "P577": 0.8, "P576": 0.5, "P582": 0.6, "P570": 0.6}
    return tuple((p, direction, w) for p, w in weights.items())


GRADABLES: tuple[Gradable, ...] = (
    Gradable("older", {
        "en": ("older", "oldest", "elder", "eldest"), "de": ("älter", "ältere*", "älteste*"),
        "ru": ("старше", "старейш*", "самый старый", "самая старая", "самое старое", "старш*"),
        "uk": ("старш*", "найстарш*"), "zh": ("年长", "年纪大", "年龄大", "岁数大", "更老", "最老", "年纪更大"),
        "ja": ("年上", "最年長"), "fr": ("plus âgé*", "aîné*", "plus vieux", "plus vieille*"),
        "es": ("mayor", "más viej*", "de más edad"), "it": ("più vecchi*", "più anzian*"),
        "pt": ("mais velh*",)},
        (("P569", "ASC", 1.0), ("P571", "ASC", 0.9), ("P580", "ASC", 0.4))),
    Gradable("younger", {
        "en": ("younger", "youngest"), "de": ("jünger", "jüngere*", "jüngste*"),
        "ru": ("моложе", "младше", "младш*", "самый молодой", "самая молодая", "самое молодое"),
        "uk": ("молодш*", "наймолодш*"), "zh": ("年轻", "年纪小", "年龄小", "岁数小"), "ja": ("年下", "最年少"),
        "fr": ("plus jeune*", "cadet*"), "es": ("más joven", "menor"), "it": ("più giovan*",),
        "pt": ("mais nov*", "mais jovem")},
        (("P569", "DESC", 1.0), ("P571", "DESC", 0.9), ("P580", "DESC", 0.4))),
    Gradable("taller", {
        "en": ("taller", "tallest"), "ru": ("выше ростом", "самый высокий", "самая высокая", "высокого роста"),
        "uk": ("вищ* на зріст",), "zh": ("更高", "最高", "个子高", "身材高"), "ja": ("背が高い",),
        "fr": ("plus grand*",), "es": ("más alt*",), "it": ("più alt*",), "pt": ("mais alt*",)},
        (("P2048", "DESC", 1.0),)),
    Gradable("shorter", {
        "en": ("shorter", "shortest"), "de": ("kürzer", "kürzeste*"),
        "ru": ("ниже ростом", "самый низкий", "самая низкая", "короче", "кратчайш*", "самый короткий"),
        "zh": ("更矮", "最矮", "个子矮", "更短", "最短"), "fr": ("plus petit*", "plus court*"),
        "es": ("más baj*", "más cort*")},
        (("P2048", "ASC", 1.0), ("P3157", "ASC", 0.7), ("P2043", "ASC", 0.7))),
    Gradable("longer", {
        "en": ("longer", "longest"), "de": ("länger*", "längste*"),
        "ru": ("длиннее", "самый длинный", "самая длинная", "длиннейш*"), "uk": ("довш*", "найдовш*"),
        "zh": ("更长", "最长"), "ja": ("最長",), "fr": ("plus long*",), "es": ("más larg*",)},
        (("P3157", "DESC", 1.0), ("P2043", "DESC", 1.0))),
    Gradable("heavier", {
        "en": ("heavier", "heaviest"), "de": ("schwerer", "schwerste*"),
        "ru": ("тяжелее", "самый тяжелый", "самая тяжелая"), "uk": ("важч*", "найважч*"),
        "zh": ("更重", "最重"), "fr": ("plus lourd*",), "es": ("más pesad*",)},
        (("P2067", "DESC", 1.0),)),
    Gradable("lighter", {
        "en": ("lighter", "lightest"), "de": ("leichter", "leichteste*"),
        "ru": ("легче", "самый легкий", "самая легкая"), "zh": ("更轻", "最轻"), "fr": ("plus léger*",),
        "es": ("más liger*",)},
        (("P2067", "ASC", 1.0),)),
    Gradable("bigger", {
        "en": ("bigger", "biggest", "larger", "largest"), "de": ("größer", "größere*", "größte*", "am größten"),
        "ru": ("крупнее", "крупнейш*", "самый большой", "самая большая", "самое большое", "больше по площади"),
        "uk": ("найбільш*",), "zh": ("更大", "最大", "较大"), "ja": ("最大", "大きい"),
        "fr": ("plus grand*",), "es": ("más grande*", "mayor"), "it": ("più grand*",), "pt": ("maior",)},
        (("P2046", "DESC", 1.0), ("P1082", "DESC", 0.9), ("P2048", "DESC", 0.5))),
    Gradable("smaller", {
        "en": ("smaller", "smallest"), "de": ("kleiner", "kleinere*", "kleinste*", "am kleinsten"),
        "ru": ("самый маленький", "самая маленькая", "самое маленькое", "мельче", "наименьш*"),
        "uk": ("найменш*",), "zh": ("更小", "最小", "较小"), "ja": ("最小",), "fr": ("plus petit*",),
        "es": ("más pequeñ*", "menor"), "it": ("più piccol*",), "pt": ("menor",)},
        (("P2046", "ASC", 1.0), ("P1082", "ASC", 0.9), ("P2048", "ASC", 0.5))),
    Gradable("earlier", {
        "en": ("earlier", "earliest", "first", "sooner"), "de": ("früher", "früheste*", "erste*", "zuerst"),
        "ru": ("раньше", "ранее", "самый ранний", "первы*", "первой", "первым", "первая"),
        "uk": ("раніше", "перш*"), "zh": ("更早", "最早", "第一", "首先", "先"), "ja": ("最初", "早い"),
        "fr": ("plus tôt", "premier*", "première"), "es": ("antes", "primer*"), "it": ("prima", "primo"),
        "pt": ("antes", "primeir*")},
        _dated("ASC")),
    Gradable("later", {
        "en": ("later", "latest", "last", "most recent", "more recent"),
        "de": ("später", "späteste*", "letzte*"), "ru": ("позже", "позднее", "самый поздний", "последн*"),
        "uk": ("пізніше", "останн*"), "zh": ("更晚", "最晚", "最后", "最近"), "ja": ("最後", "遅い"),
        "fr": ("plus tard", "dernier*", "dernière"), "es": ("más tarde", "últim*"), "it": ("ultim*",),
        "pt": ("últim*",)},
        _dated("DESC")),
    Gradable("richer", {
        "en": ("richer", "richest", "wealthier", "wealthiest"), "de": ("reicher", "reichste*", "wohlhabender"),
        "ru": ("богаче", "богатейш*", "самая богатая", "самый богатый"), "uk": ("багатш*", "найбагатш*"),
        "zh": ("更富", "最富", "更富裕", "最富裕"), "fr": ("plus riche*",), "es": ("más ric*",)},
        (("P2132", "DESC", 1.0), ("P2131", "DESC", 0.9))),
    Gradable("poorer", {
        "en": ("poorer", "poorest"), "de": ("ärmer", "ärmste*"), "ru": ("беднее", "беднейш*", "самая бедная"),
        "zh": ("更穷", "最穷", "最贫穷"), "fr": ("plus pauvre*",), "es": ("más pobre*",)},
        (("P2132", "ASC", 1.0), ("P2131", "ASC", 0.9))),
    Gradable("faster", {
        "en": ("faster", "fastest"), "de": ("schneller", "schnellste*"), "ru": ("быстрее", "самый быстрый"),
        "zh": ("更快", "最快"), "fr": ("plus rapide*",), "es": ("más rápid*",)},
        (("P2052", "DESC", 1.0),)),
)

DIRECTION_WORDS: dict[Direction, Mapping[str, tuple[str, ...]]] = {
    "DESC": {
        "en": ("more", "most", "higher", "highest", "greater", "greatest", "larger", "largest", "bigger",
               "biggest", "maximum", "max"),
        "de": ("mehr", "meisten", "höher", "höhere*", "höchste*", "größer", "größere*", "größte*", "maximal*",
               "*reich*"),
        "ru": ("больше", "больш*", "наибольш*", "выше", "высш*", "высок*", "максимальн*", "более"),
        "uk": ("більш*", "найбільш*", "вищ*", "високий", "максимальн*"),
        "zh": ("更多", "最多", "较多", "多于", "更高", "最高", "较高", "高于", "更大", "最大", "较大", "大于"),
        "ja": ("多い", "高い", "最大", "最高", "最も多い", "長く", "大きい", "大きな", "広い", "多く"),
        "fr": ("plus", "supérieur*", "maximal*"), "es": ("más", "mas", "mayor", "máxim*"),
        "it": ("più", "maggior*"), "pt": ("mais", "maior*"),
        "ar": ("أكبر", "أطول", "أكثر", "أعلى"), "hi": ("ज़्यादा", "ज्यादा", "अधिक", "बड़ा", "लंबे", "लम्बे"),
    },
    "ASC": {
        "en": ("less", "least", "fewer", "fewest", "lower", "lowest", "smaller", "smallest", "minimum", "min"),
        "de": ("weniger", "wenigsten", "niedriger*", "niedrigste*", "geringer*", "geringste*", "kleiner*",
               "kleinste*", "minimal*"),
        "ru": ("меньше", "меньш*", "наименьш*", "ниже", "низш*", "низк*", "минимальн*", "менее", "маленьк*"),
        "uk": ("менш*", "найменш*", "нижч*", "мінімальн*"),
        "zh": ("更少", "最少", "较少", "少于", "更低", "最低", "较低", "低于", "更小", "最小", "较小", "小于"),
        "ja": ("少ない", "低い", "最小", "最低", "短く", "小さい", "小さな"),
        "fr": ("moins", "inférieur*", "minimal*"), "es": ("menos", "menor", "mínim*"),
        "it": ("meno", "minor*"), "pt": ("menos", "menor*"),
        "ar": ("أصغر", "أقصر", "أقل"), "hi": ("कम", "छोटा"),
    },
}

SUPERLATIVE_WORDS: Mapping[str, tuple[str, ...]] = {
    "en": ("the most", "the least", "fewest", "maximum", "minimum", "largest", "biggest", "smallest", "oldest",
           "youngest", "tallest", "shortest", "longest", "highest", "lowest", "greatest", "richest", "poorest",
           "heaviest", "lightest", "fastest", "slowest", "earliest", "latest", "newest", "deepest", "eldest", "widest",
           "most populous", "least populous"),
    "de": ("meisten", "wenigsten", "am *sten", "größt*", "kleinst*", "ältest*", "jüngst*", "höchst*", "niedrigst*",
           "längst*", "kürzest*", "schwerst*", "leichtest*", "reichst*", "ärmst*", "schnellst*", "frühest*",
           "spätest*", "neuest*", "tiefst*", "geringst*", "bevölkerungsreichst*", "bevölkerungsärmst*",
           "flächengrößt*"),
    "ru": ("самы*", "самая", "самое", "наибол*", "наимен*", "крупнейш*", "старейш*", "новейш*", "длиннейш*",
           "высочайш*", "богатейш*", "беднейш*", "глубочайш*", "величайш*", "кратчайш*", "больше всего",
           "меньше всего"),
    "uk": ("найбіл*", "наймен*", "найстарш*", "наймолодш*", "найвищ*", "найдовш*", "найбагатш*"),
    "zh": ("最",), "ja": ("最も", "最大", "最小", "最高", "最低", "最年長", "最年少", "一番"),
    "fr": ("le plus", "la plus", "les plus", "le moins", "la moins", "les moins"),
    "es": ("el más", "la más", "los más", "las más", "el menos", "la menos", "el mayor", "la mayor",
           "el menor", "la menor"),
    "it": ("il più", "la più", "i più", "le più", "il meno", "la meno", "il maggiore", "la maggiore"),
    "pt": ("o mais", "a mais", "os mais", "as mais", "o menos", "a menos", "o maior", "a maior", "o menor",
           "a menor"),
    "ar": ("أكبر", "أصغر", "أطول", "أقصر", "أكثر", "أقل", "أقدم", "أحدث", "أعلى"),
    "hi": ("सबसे",),
}
# ordinals: "the first president", "the 4th largest" need an order the KG does not hold
# (qualifiers) or an offset, so simple candidates are not trusted for them
ORDINAL_WORDS: Mapping[str, tuple[str, ...]] = {
    "en": ("first", "last", "second", "third", "fourth", "fifth", "sixth"),
    "de": ("erste*", "letzte*", "zweite*", "dritte*", "vierte*", "fünfte*", "zweitgrößt*", "drittgrößt*",
           "viertgrößt*"),
    "ru": ("перв*", "последн*", "втор*", "трет*", "четверт*"),
    "uk": ("перш*", "останн*", "другий", "друга", "друге", "трет*"),
    "zh": ("第一", "第二", "第三", "第四", "第五", "首任", "首位", "首个", "首次", "最后", "最早", "最晚"),
    "ja": ("最初", "初代", "最後", "番目", "二番", "三番", "初の", "初めて"),
    "fr": ("premier*", "première*", "dernier*", "dernière*", "deuxième", "troisième", "quatrième", "second*"),
    "es": ("primer*", "últim*", "segund*", "tercer*", "cuart*"),
    "it": ("primo", "prima", "primi", "prime", "ultim*", "second*", "terz*", "quart*"),
    "pt": ("primeir*", "últim*", "segund*", "terceir*", "quart*"),
    "ar": ("أول", "آخر", "ثاني", "ثالث"),
    "hi": ("पहल*", "आखिरी", "अंतिम", "दूसर*", "तीसर*"),
}

COUNT_WORDS: Mapping[str, tuple[str, ...]] = {
    "en": ("how many",), "de": ("wie viele", "wieviele", "wie viel"),
    "ru": ("сколько",), "uk": ("скільки",),
    "zh": ("多少", "几个", "几位", "几座", "几部", "几次", "几名", "几家", "几种", "几所"),
    "ja": ("いくつ", "何人", "何個", "何か国", "何カ国", "何回", "何冊"),
    "fr": ("combien",), "es": ("cuántos", "cuántas", "cuantos", "cuantas"),
    "it": ("quanti", "quante"), "pt": ("quantos", "quantas"), "ar": ("كم",), "hi": ("कितने", "कितनी", "कितना"),
}
# question words: a question that has one is not a yes/no question, whatever particle it carries
WH_WORDS: Mapping[str, tuple[str, ...]] = {
    "en": ("who", "whom", "whose", "what", "which", "where", "when", "why", "how"),
    "de": ("wer", "wen", "wem", "wessen", "was", "welche*", "wo", "wann", "warum", "wie", "woher", "wohin"),
    "ru": ("кто", "что", "как*", "котор*", "где", "когда", "почему", "сколько", "чей", "чья", "чьи", "куда",
           "откуда"),
    "uk": ("хто", "що", "як*", "котр*", "де", "коли", "чому", "скільки", "чий", "чия"),
    "zh": ("谁", "什么", "哪", "几", "多少", "怎么", "为什么", "何时", "何地"),
    "ja": ("誰", "何", "どこ", "いつ", "どの", "どちら", "どれ", "いくつ", "どう", "なぜ"),
    "fr": ("qui", "que", "quoi", "quel*", "où", "quand", "comment", "combien", "pourquoi", "lequel", "laquelle"),
    "es": ("quién*", "qué", "cuál*", "dónde", "cuándo", "cómo", "cuánt*", "por qué"),
    "it": ("chi", "che", "cosa", "qual*", "dove", "quando", "come", "quant*", "perché"),
    "pt": ("quem", "que", "qual", "quais", "onde", "quando", "como", "quant*", "por que"),
}

ALTERNATIVE_WORDS: Mapping[str, tuple[str, ...]] = {
    "en": ("or",), "de": ("oder",), "ru": ("или",), "uk": ("чи", "або"), "zh": ("还是", "或者", "或", "和", "与"),
    "ja": ("と", "か", "または", "どちら"), "fr": ("ou",), "es": ("o", "u"), "it": ("o", "oppure"), "pt": ("ou",),
    "ar": ("أو", "أم"), "hi": ("या",),
}

LIST_WORDS: Mapping[str, tuple[str, ...]] = {
    "en": ("or", "and"), "de": ("oder", "und"), "ru": ("или", "и"), "uk": ("чи", "або", "і", "та"),
    "zh": ("还是", "或者", "或", "和", "与", "及", "跟"), "ja": ("と", "か", "または"), "fr": ("ou", "et"),
    "es": ("o", "u", "y", "e"), "it": ("o", "oppure", "e"), "pt": ("ou", "e"),
}
_QUESTION_WORDS = ("which", "who", "what", "welche*", "wer", "was", "кто", "како*", "котор*", "хто", "яки*",
                   "哪", "谁", "什么", "quel*", "qui", "cuál", "quién", "qual", "quem", "chi")

THAN_WORDS: Mapping[str, tuple[str, ...]] = {
    "en": ("than",), "de": ("als",), "ru": ("чем",), "uk": ("ніж", "за"), "zh": ("比",), "ja": ("より",),
    "fr": ("que", "qu"), "es": ("que",), "it": ("di", "che"), "pt": ("que", "do que"),
}

YES_NO_OPENERS: Mapping[str, tuple[str, ...]] = {
    "en": ("is", "was", "are", "were", "did", "does", "do", "has", "have", "had", "can", "could"),
    "de": ("ist", "war", "sind", "waren", "hat", "hatte", "haben", "wurde", "wurden", "liegt", "lag", "gibt es",
           "stimmt es", "spielt", "spielte", "lebt", "lebte", "gehört", "gehörte"),
    "ru": ("правда ли", "верно ли", "является ли", "был ли", "была ли", "было ли", "были ли", "есть ли"),
    "uk": ("чи",), "fr": ("est-ce que", "est-ce qu"), "es": ("es", "fue", "era", "está", "estaba", "tiene", "tenía"),
    "it": ("è", "era", "fu", "ha", "aveva"), "pt": ("é", "foi", "era", "tem", "tinha", "está"),
}
_YES_NO_ANYWHERE: Mapping[str, tuple[str, ...]] = {
    "ru": (" ли ",), "zh": ("吗", "嗎", "是不是", "是否", "有没有", "对不对"),
    "ja": ("ですか", "ましたか", "でしたか", "か？", "か?"),
    "fr": ("-il ", "-elle ", "-t-il", "-t-elle", "-ce que"),
}

# Properties that have one value per subject, so a different value in the KG refutes an
# ASK ("Was Einstein born in Berlin?" -> no, the KG says Ulm).
FUNCTIONAL_PROPERTIES: frozenset[str] = frozenset({
    "P19", "P20", "P21", "P36", "P569", "P570", "P571", "P576", "P577",
})
# Properties for which the KG is known to hold every value of the subjects it describes;
# only for these may a count be 0 (no property of the bundled subset qualifies).
COMPLETE_PROPERTIES: frozenset[str] = frozenset()
# The properties that make a mention a class-like set ("country", "cyclist").
TYPE_PROPERTIES: tuple[str, ...] = ("P31", "P106")
# Share of a set's members that must have the ordering/filtered property: a superlative
# or a count over a set the KG only partly describes is a guess (the KG lacks the
# population of China, so "the most populous country" must not be India).
# symmetric relations: when the KG's two directions disagree, sets built on them are
# incomplete ("countries bordering Uganda" lacks Rwanda one way round)
SYMMETRIC_PROPERTIES: frozenset[str] = frozenset({"P47", "P26", "P3373", "P530", "P190"})
# quantities that answer "how many …" directly ("how many inhabitants does Berlin have")
COUNTABLE_PROPERTIES: frozenset[str] = frozenset({"P1082", "P1132", "P1128", "P1110", "P1350", "P1351", "P1603"})
MIN_COVERAGE_ORDER = 0.9
MIN_COVERAGE_LIST = 0.7
COVERAGE_SAMPLE = 2000
# gradable words that fix the answer form ("who is older", "the bigger one")
STRONG_GRADABLES: frozenset[str] = frozenset({
    "older", "younger", "taller", "shorter", "longer", "heavier", "lighter", "bigger", "smaller", "richer",
    "poorer", "faster"})

# --------------------------------------------------------------------------- text matching

_CJK_CLASS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK = re.compile(f"[{_CJK_CLASS}]")
_LETTER_BEFORE = f"(?<![^\\W_{_CJK_CLASS}])"
_LETTER_AFTER = f"(?![^\\W_{_CJK_CLASS}])"


def normalize_text(text: str) -> str:
    """NFKC, casefold, ``ё`` -> ``е``, one space between words."""
    s = unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")
    return " ".join(s.split())


@lru_cache(maxsize=8192)
def _word_pattern(word: str) -> re.Pattern[str]:
    """``foo`` (whole word), ``foo*`` (stem), ``*est`` (ending), ``am *sten`` (inner
    wildcard), or a CJK string (plain substring)."""
    w = normalize_text(word)
    if _CJK.search(w):
        return re.compile(re.escape(w).replace(r"\*", r"\w*"))
    parts = [re.escape(p).replace(r"\*", r"\w*") for p in w.split()]
    body = r"\s+".join(parts)
    start = _LETTER_BEFORE if not w.startswith("*") else _LETTER_BEFORE + r"\w"
    end = "" if w.endswith("*") else _LETTER_AFTER
    return re.compile(start + body + end)


def find_words(text: str, words: Iterable[str]) -> list[tuple[int, int, str]]:
    """``(start, end, word)`` of every occurrence of ``words`` in normalized ``text``
    (what ``_word_pattern(word).finditer(text)`` finds, by one automaton per word list)."""
    words = tuple(words)
    matcher, terms = _word_matcher(words)
    found = matcher.find_all(text)
    hits = []
    for word, term in zip(words, terms, strict=True):
        if isinstance(term, Phrase):
            hits.extend((s, e, word) for s, e in non_overlapping(found.get(term, ())))
        else:  # a form the automaton cannot express (a leading "*" on a later word)
            hits.extend((m.start(), m.end(), word) for m in term.finditer(text))
    return sorted(hits)


@lru_cache(maxsize=2048)
def _word_matcher(words: tuple[str, ...]) -> tuple[PhraseMatcher, tuple[Phrase | re.Pattern[str], ...]]:
    """The automaton over ``words`` (built once per word list) and each word's phrase."""
    terms = tuple(_word_phrase(word) for word in words)
    return PhraseMatcher(t for t in terms if isinstance(t, Phrase)), terms


def _word_phrase(word: str) -> Phrase | re.Pattern[str]:
    """:func:`_word_pattern`'s meaning as a :class:`Phrase` (a regex where it has none)."""
    w = normalize_text(word)
    if _CJK.search(w):
        return Phrase((Word(w),)) if "*" not in w else _word_pattern(word)
    parts = w.split()
    if not parts or any("*" in p.rstrip("*") or p == "*" for p in parts):  # "*reich*", "am *sten"
        return _word_pattern(word)
    return Phrase(tuple(Word(p.rstrip("*"), p.endswith("*")) for p in parts), before="letter",
                  after="none" if w.endswith("*") else "letter", run_sep=True)


def _words(table: Mapping[str, tuple[str, ...]], lang: str) -> tuple[str, ...]:
    out = table.get(lang, ())
    return out if lang == "en" or out else table.get("en", ())


# --------------------------------------------------------------------------- numbers and filters

FilterOp = Literal[">", ">=", "<", "<=", "=", "year", "decade"]


@dataclass(frozen=True)
class NumberFilter:
    """A comparison parsed from the question: ``value`` is SI-normalized when ``unit``
    says how; ``is_year`` marks "before 1400"-style filters on dates."""

    op: FilterOp
    value: Decimal
    is_year: bool
    unit: str | None
    start: int
    end: int


_SCALES: dict[str, Decimal] = {
    "thousand": Decimal(1000), "million": Decimal(10) ** 6, "millions": Decimal(10) ** 6,
    "billion": Decimal(10) ** 9, "billions": Decimal(10) ** 9, "trillion": Decimal(10) ** 12,
    "tausend": Decimal(1000), "million.": Decimal(10) ** 6, "mio": Decimal(10) ** 6, "millionen": Decimal(10) ** 6,
    "milliarde": Decimal(10) ** 9, "milliarden": Decimal(10) ** 9, "mrd": Decimal(10) ** 9,
    "тысяч": Decimal(1000), "тысячи": Decimal(1000), "тысяча": Decimal(1000), "тыс": Decimal(1000),
    "миллион": Decimal(10) ** 6, "миллиона": Decimal(10) ** 6, "миллионов": Decimal(10) ** 6,
    "млн": Decimal(10) ** 6, "миллиард": Decimal(10) ** 9, "миллиарда": Decimal(10) ** 9,
    "миллиардов": Decimal(10) ** 9, "млрд": Decimal(10) ** 9,
    "тисяч": Decimal(1000), "тисячі": Decimal(1000), "мільйон": Decimal(10) ** 6, "мільйони": Decimal(10) ** 6,
    "мільйонів": Decimal(10) ** 6, "мільярд": Decimal(10) ** 9, "мільярдів": Decimal(10) ** 9,
    "mille": Decimal(1000), "mil": Decimal(1000), "milliard": Decimal(10) ** 9, "milliards": Decimal(10) ** 9,
    "millón": Decimal(10) ** 6, "millones": Decimal(10) ** 6, "milione": Decimal(10) ** 6,
    "milioni": Decimal(10) ** 6, "milhão": Decimal(10) ** 6, "milhões": Decimal(10) ** 6,
    "万": Decimal(10) ** 4, "萬": Decimal(10) ** 4, "亿": Decimal(10) ** 8, "億": Decimal(10) ** 8,
    "千": Decimal(1000), "百万": Decimal(10) ** 6,
}
# unit word -> (SI unit, factor)
_UNITS: dict[str, tuple[str, Decimal]] = {
    "m": ("m", Decimal(1)), "meter": ("m", Decimal(1)), "meters": ("m", Decimal(1)), "metre": ("m", Decimal(1)),
    "metres": ("m", Decimal(1)), "metern": ("m", Decimal(1)), "м": ("m", Decimal(1)), "метра": ("m", Decimal(1)),
    "метр": ("m", Decimal(1)), "метров": ("m", Decimal(1)), "метрів": ("m", Decimal(1)), "米": ("m", Decimal(1)),
    "mètre": ("m", Decimal(1)), "mètres": ("m", Decimal(1)), "metro": ("m", Decimal(1)), "metros": ("m", Decimal(1)),
    "cm": ("m", Decimal("0.01")), "см": ("m", Decimal("0.01")), "厘米": ("m", Decimal("0.01")),
    "zentimeter": ("m", Decimal("0.01")), "centimeters": ("m", Decimal("0.01")),
    "сантиметров": ("m", Decimal("0.01")), "公分": ("m", Decimal("0.01")),
    "km": ("m", Decimal(1000)), "км": ("m", Decimal(1000)), "kilometers": ("m", Decimal(1000)),
    "kilometres": ("m", Decimal(1000)), "kilometer": ("m", Decimal(1000)), "公里": ("m", Decimal(1000)),
    "километров": ("m", Decimal(1000)), "千米": ("m", Decimal(1000)),
    "kg": ("kg", Decimal(1)), "кг": ("kg", Decimal(1)), "kilograms": ("kg", Decimal(1)), "公斤": ("kg", Decimal(1)),
    "千克": ("kg", Decimal(1)), "kilogramm": ("kg", Decimal(1)), "килограммов": ("kg", Decimal(1)),
    "km2": ("m2", Decimal(10) ** 6), "km²": ("m2", Decimal(10) ** 6), "км2": ("m2", Decimal(10) ** 6),
    "км²": ("m2", Decimal(10) ** 6), "平方公里": ("m2", Decimal(10) ** 6), "平方千米": ("m2", Decimal(10) ** 6),
    "square kilometers": ("m2", Decimal(10) ** 6), "square kilometres": ("m2", Decimal(10) ** 6),
    "quadratkilometer": ("m2", Decimal(10) ** 6), "квадратных километров": ("m2", Decimal(10) ** 6),
}
_UNIT_PROPERTY: dict[str, tuple[str, ...]] = {"m": ("P2048", "P3157", "P2043"), "kg": ("P2067",), "m2": ("P2046",)}

# operator words placed before the number; (words, op, is_date_word)
_OPS_BEFORE: Mapping[str, tuple[tuple[tuple[str, ...], FilterOp, bool], ...]] = {
    "en": ((("more than", "over", "above", "greater than", "larger than", "bigger than", "higher than",
             "taller than", "heavier than", "longer than", "exceeding"), ">", False),
           (("at least",), ">=", False),
           (("less than", "fewer than", "under", "below", "smaller than", "lower than", "shorter than",
             "lighter than"), "<", False),
           (("at most", "no more than"), "<=", False),
           (("before", "prior to", "earlier than"), "<", True), (("after", "later than"), ">", True),
           (("since", "from"), ">=", True), (("until", "till", "up to"), "<=", True), (("in",), "year", True)),
    "de": ((("mehr als", "über", "größer als", "höher als", "länger als", "schwerer als"), ">", False),
           (("mindestens", "wenigstens"), ">=", False),
           (("weniger als", "unter", "kleiner als", "niedriger als", "kürzer als", "leichter als"), "<", False),
           (("höchstens",), "<=", False),
           (("vor", "früher als"), "<", True), (("nach", "später als"), ">", True), (("seit", "ab"), ">=", True),
           (("bis",), "<=", True), (("im jahr", "im jahre", "in", "im"), "year", True)),
    "ru": ((("больше", "более", "свыше", "выше", "длиннее", "тяжелее", "больше чем"), ">", False),
           (("не менее", "не меньше", "как минимум"), ">=", False),
           (("меньше", "менее", "ниже", "короче", "легче"), "<", False), (("не более", "не больше"), "<=", False),
           (("до", "раньше", "ранее"), "<", True), (("после", "позже", "позднее"), ">", True),
           (("с", "начиная с"), ">=", True), (("в", "во"), "year", True)),
    "uk": ((("більше", "більш ніж", "понад", "вище"), ">", False), (("щонайменше", "не менше"), ">=", False),
           (("менше", "менш ніж", "нижче"), "<", False), (("до", "раніше"), "<", True),
           (("після", "пізніше"), ">", True), (("з", "від"), ">=", True), (("у", "в"), "year", True)),
    "zh": ((("超过", "多于", "大于", "高于", "逾"), ">", False), (("至少", "不少于", "不低于"), ">=", False),
           (("少于", "小于", "低于", "不到", "不足"), "<", False), (("不超过", "至多"), "<=", False),
           (("早于",), "<", True), (("晚于",), ">", True), (("自", "从"), ">=", True), (("在", "于"), "year", True)),
    "fr": ((("plus de", "plus que", "au-dessus de", "supérieur à", "supérieure à"), ">", False),
           (("au moins",), ">=", False), (("moins de", "moins que", "en dessous de", "inférieur à"), "<", False),
           (("avant",), "<", True), (("après",), ">", True), (("depuis",), ">=", True),
           (("jusqu'en",), "<=", True), (("en",), "year", True)),
    "es": ((("más de", "más que", "por encima de", "superior a"), ">", False),
           (("al menos", "por lo menos"), ">=", False),
           (("menos de", "menos que", "por debajo de", "inferior a"), "<", False),
           (("antes de",), "<", True), (("después de",), ">", True), (("desde",), ">=", True),
           (("hasta",), "<=", True), (("en",), "year", True)),
    "it": ((("più di", "oltre"), ">", False), (("meno di",), "<", False), (("prima del", "prima di"), "<", True),
           (("dopo il", "dopo"), ">", True), (("dal",), ">=", True), (("nel",), "year", True)),
    "pt": ((("mais de", "acima de"), ">", False), (("menos de", "abaixo de"), "<", False),
           (("antes de",), "<", True), (("depois de",), ">", True), (("desde",), ">=", True),
           (("em",), "year", True)),
}
# operator words placed after the number (zh/ja, "or more")
_OPS_AFTER: Mapping[str, tuple[tuple[tuple[str, ...], FilterOp, bool], ...]] = {
    "en": ((("or more",), ">=", False), (("or less", "or fewer"), "<=", False)),
    "zh": ((("以上", "多"), ">", False), (("以下",), "<", False), (("之前", "以前", "前"), "<", True),
           (("之后", "以后", "后"), ">", True), (("以来",), ">=", True)),
    "ja": ((("以上",), ">=", False), (("以下",), "<=", False), (("以前", "前"), "<", True),
           (("以後", "後", "以降"), ">", True)),
}
_YEAR_MARKERS = ("year", "jahr", "jahre", "года", "году", "год", "г", "року", "рік", "年", "an", "année", "año")

_NUMBER = re.compile(
    r"(?<![.,\d])(?<![^\W\d_\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff])"
    r"(\d{1,3}(?:[ ,.'\u00a0\u202f]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)(?:(?:'s|s|-х|er)(?![^\W\d_]))?"
)
# "one million", "a million", "eine Million", "один миллион": the number 1 before a scale word
_ONE_SCALE = re.compile(r"(?<!\w)(?:one|a|an|ein|eine|einer|un|une|uno|una|um|uma|один|одна|одного|одной|один)"
                        r"(?=\s+(?:million|billion|thousand|millionen|million|milliarde|миллион|миллиард|тысяч|"
                        r"millón|milione|milhão|milliard))")
_DECADE = re.compile(r"(?<!\d)(\d{3}0)(?:'s|s|-х|-е| ?er jahre|er|年代)")


def parse_decimal(raw: str, lang: str) -> Decimal | None:
    """``"1,9"`` -> 1.9 in comma-decimal languages, ``"100,000"`` -> 100000 in English."""
    s = raw.replace("\u00a0", " ").replace("\u202f", " ").replace("'", "").replace(" ", "")
    comma_decimal = lang not in ("en", "zh", "ja")
    groups = re.fullmatch(r"\d{1,3}([.,])\d{3}(?:\1\d{3})*", s)
    if groups and not (comma_decimal and groups.group(1) == "," and s.count(",") == 1):
        s = s.replace(groups.group(1), "")
    elif "," in s and "." in s:
        s = s.replace(",", "") if s.rfind(".") > s.rfind(",") else s.replace(".", "").replace(",", ".")
    elif "," in s:
        s = s.replace(",", ".") if comma_decimal or not re.fullmatch(r"\d+,\d{3}", s) else s.replace(",", "")
    try:
        return Decimal(s)
    except InvalidOperation:
        return None


def _scale_and_unit(text: str, pos: int) -> tuple[Decimal, str | None, Decimal, int]:
    """Scale word, SI unit and unit factor right after a number at ``pos``."""
    rest = text[pos:pos + 40]
    scale, unit, factor, end = Decimal(1), None, Decimal(1), pos
    m = re.match(r"\s*(百万|[万萬亿億千]|[^\W\d_\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+\.?)", rest)
    if m and m.group(1).rstrip(".") in _SCALES:
        scale = _SCALES[m.group(1).rstrip(".")]
        rest, end = rest[m.end():], end + m.end()
    for word in _UNITS_LONGEST_FIRST:
        um = _unit_pattern(word).match(rest)
        if um:
            unit, factor = _UNITS[word]
            end += um.end()
            break
    return scale, unit, factor, end


_UNITS_LONGEST_FIRST = tuple(sorted(_UNITS, key=len, reverse=True))


@lru_cache(maxsize=256)
def _unit_pattern(word: str) -> re.Pattern[str]:
    """A unit word right after a number (compiled once: the ``re`` module's own cache is
    shared with every other pattern of the process and overflows)."""
    return re.compile(r"\s*" + re.escape(word) + (r"(?!\w)" if not _CJK.search(word) else ""))


def parse_filters(text: str, lang: str, *, dated: bool = False) -> list[NumberFilter]:
    """Numeric and year filters in normalized ``text`` ("over 100 million", "before 1400",
    "1990年以前", "в 1985 году", "in the 1990s"); with ``dated`` (the question names a date
    property) a bare year is a year filter ("Wurde X 1985 geboren?")."""
    out: list[NumberFilter] = []
    for m in _DECADE.finditer(text):
        out.append(NumberFilter("decade", Decimal(m.group(1)), True, None, m.start(), m.end()))
    numbers = [(m, parse_decimal(m.group(1), lang)) for m in _NUMBER.finditer(text)]
    numbers += [(m, Decimal(1)) for m in _ONE_SCALE.finditer(text)]
    for m, value in sorted(numbers, key=lambda t: t[0].start()):
        if value is None or any(f.start <= m.start() < f.end for f in out):
            continue
        scale, unit, factor, end = _scale_and_unit(text, m.end())
        if m.re is _ONE_SCALE and scale == 1:
            continue
        before = text[max(0, m.start() - 30):m.start()]
        after = text[end:end + 12]
        op, is_date = _operator_after(after, lang)
        if op is None:
            op, is_date = _operator_before(before, lang)
        plain_year = scale == 1 and unit is None and value == value.to_integral() and 100 <= value <= 2100
        year_marked = plain_year and any(after.lstrip().startswith(y) for y in _YEAR_MARKERS)
        if op is None and (year_marked or (dated and plain_year and value >= 1000)):
            op, is_date = "year", True
        if op is None:
            continue
        if is_date and not plain_year:
            continue
        if op == "year" and not (plain_year and (value >= 1000 or year_marked)):
            continue
        is_year = plain_year and (is_date or year_marked) and unit is None
        out.append(NumberFilter(op, value if is_year else value * scale * factor, is_year, unit, m.start(), end))
    return sorted(out, key=lambda f: f.start)


def _operator_before(before: str, lang: str) -> tuple[FilterOp | None, bool]:
    best: tuple[int, FilterOp, bool] | None = None
    for words, op, is_date in (*_OPS_BEFORE.get(lang, ()), *(_OPS_BEFORE["en"] if lang != "en" else ())):
        for w in words:
            m = _operator_pattern(w).search(before)
            if m and (best is None or len(w) > best[0]):
                best = (len(w), op, is_date)
    return (best[1], best[2]) if best else (None, False)


@lru_cache(maxsize=1024)
def _operator_pattern(word: str) -> re.Pattern[str]:
    """Operator word ``word`` at the end of the text before a number (compiled once)."""
    return re.compile(_word_pattern(word).pattern + r"\s*(?:the\s+|the\s+year\s+|dem\s+jahr\s+|dem\s+)?$")


def _operator_after(after: str, lang: str) -> tuple[FilterOp | None, bool]:
    stripped = after.lstrip()
    stripped = stripped[1:] if stripped.startswith("年") else stripped
    for words, op, is_date in (*_OPS_AFTER.get(lang, ()), *(_OPS_AFTER["en"] if lang != "en" else ())):
        for w in sorted(words, key=len, reverse=True):
            if stripped.startswith(w):
                return op, is_date
    return None, False


# --------------------------------------------------------------------------- question analysis


@dataclass(frozen=True)
class Reading:
    """One reading of the question's ordering: property, direction and confidence."""

    pid: str
    direction: Direction
    weight: float


@dataclass
class Analysis:
    """What :func:`analyze` found in a question."""

    text: str
    lang: str
    count: bool = False
    ordinal: bool = False
    yes_no: bool = False
    superlative: bool = False
    comparative: bool = False
    alternative: bool = False
    readings: list[Reading] = field(default_factory=list)
    properties: list[str] = field(default_factory=list)
    filters: list[NumberFilter] = field(default_factory=list)
    cue_spans: list[tuple[int, int]] = field(default_factory=list)
    gradable: list[str] = field(default_factory=list)
    directed: bool = False

    @property
    def comparison_form(self) -> bool:
        """"A or B?" with a gradable or property word: the answer is one of the two."""
        graded = self.readings or self.gradable or self.superlative or self.comparative or self.directed
        return self.alternative and bool(graded) and not self.yes_no

    def reading_for(self, pid: str) -> Reading | None:
        """The best reading of ``pid``, if any."""
        return next((r for r in self.readings if r.pid == pid), None)

    @property
    def is_complex(self) -> bool:
        """Any complex cue at all."""
        return bool(self.count or self.yes_no or self.superlative or self.comparative or self.filters or self.ordinal)


def _yes_no(text: str, lang: str) -> bool:
    first = re.sub(r"^[¿¡\"'«(]+", "", text)
    if any(start == 0 for start, _, _ in find_words(first, _words(YES_NO_OPENERS, lang))):
        return True
    padded = f" {text} "
    if not any(w in padded for w in _YES_NO_ANYWHERE.get(lang, ())):
        return False
    return not find_words(text, WH_WORDS.get(lang, ()))


def _direction_hits(text: str, lang: str) -> list[tuple[int, Direction]]:
    hits = []
    for direction, table in DIRECTION_WORDS.items():
        hits.extend((s, direction) for s, _, _ in find_words(text, _words(table, lang)))
    if lang in ("zh", "ja") and "比" in text:
        tail = text[text.index("比"):]
        for ch, direction in (("多", "DESC"), ("大", "DESC"), ("高", "DESC"), ("少", "ASC"), ("小", "ASC"),
                              ("低", "ASC")):
            if ch in tail[2:]:
                hits.append((text.index("比") + tail.index(ch, 2), direction))
    return sorted(hits)


def analyze(question: str, lang: str, names: Sequence[tuple[int, int]] = ()) -> Analysis:
    """Find the complex cues of ``question``: count, yes/no, degree, alternatives, the
    literal properties it names with their directions, and numeric/date filters.  Numbers
    inside ``names`` (character spans of linked entity names, "the 2002 Winter Olympics")
    are not filters."""
    text = normalize_text(question)
    a = Analysis(text, lang)
    count_hits = find_words(text, _words(COUNT_WORDS, lang))
    than_hits = find_words(text, _words(THAN_WORDS, lang))
    sup_hits = find_words(text, _words(SUPERLATIVE_WORDS, lang))
    a.count = bool(count_hits)
    a.ordinal = bool(find_words(text, _words(ORDINAL_WORDS, lang)) or re.search(r"\d(?:st|nd|rd|th)\b", text))
    a.yes_no = _yes_no(text, lang)
    a.alternative = bool(find_words(text, _words(ALTERNATIVE_WORDS, lang)))
    a.comparative = bool(than_hits)
    a.superlative = bool(sup_hits)
    a.cue_spans.extend((s, e) for s, e, _ in (*count_hits, *than_hits, *sup_hits))
    prop_hits: dict[str, int] = {}
    for pid, lp in LITERAL_PROPERTIES.items():
        hits = find_words(text, _words(lp.words, lang))
        if hits:
            prop_hits[pid] = hits[0][0]
            a.cue_spans.extend((s, e) for s, e, _ in hits)
    a.properties = sorted(prop_hits, key=prop_hits.get)
    dated = any(LITERAL_PROPERTIES[p].kind == "date" for p in prop_hits)
    a.filters = [f for f in parse_filters(text, lang, dated=dated)
                 if not any(s <= f.start and f.end <= e and e - s > f.end - f.start for s, e in names)]
    a.cue_spans.extend((f.start, f.end) for f in a.filters)
    a.readings = _readings(text, lang, a, prop_hits)
    a.directed = any(find_words(text, _words(table, lang)) for table in DIRECTION_WORDS.values())
    if lang in ("it", "pt", "es", "fr") and a.directed and not a.comparative and not a.alternative:
        a.superlative = True  # "il fiume più lungo": the same words as a comparative, without "di"/"que"
    return a


def _readings(text: str, lang: str, a: Analysis, prop_hits: Mapping[str, int]) -> list[Reading]:
    weights: dict[tuple[str, Direction], float] = {}

    def add(pid: str, direction: Direction, w: float) -> None:
        key = (pid, direction)
        weights[key] = max(weights.get(key, 0.0), w)

    dated = any(LITERAL_PROPERTIES[p].kind == "date" for p in prop_hits)
    gradable_hits = [(g, h) for g in GRADABLES for h in find_words(text, _words(g.words, lang))
                     if g.name not in ("earlier", "later") or dated or a.alternative]
    a.gradable = sorted({g.name for g, _ in gradable_hits})
    for g, (s, e, _) in gradable_hits:
        a.cue_spans.append((s, e))
        if g.name in ("taller", "bigger", "smaller", "shorter", "longer", "older", "younger", "richer", "poorer",
                      "heavier", "lighter", "faster") and not a.superlative and not a.alternative:
            a.comparative = True
        named_any = any(pid in prop_hits for pid, _, _ in g.readings)
        for pid, direction, w in g.readings:
            if prop_hits and named_any and pid not in prop_hits:
                continue  # "bigger population": the named property, not area
            add(pid, direction, w * (1.0 if not prop_hits or pid in prop_hits else 0.6))
    directions = _direction_hits(text, lang)
    for table in DIRECTION_WORDS.values():
        a.cue_spans.extend((s, e) for s, e, _ in find_words(text, _words(table, lang)))
    for pid, pos in prop_hits.items():
        lp = LITERAL_PROPERTIES[pid]
        if directions and lp.kind == "quantity":
            direction = min(directions, key=lambda d: abs(d[0] - pos))[1]
            add(pid, direction, 1.0)
        elif not any(k[0] == pid for k in weights):
            add(pid, "DESC" if lp.kind == "quantity" else "ASC", 0.8 if a.superlative else 0.5)
    readings = [Reading(p, d, w) for (p, d), w in weights.items()]
    return sorted(readings, key=lambda r: (-r.weight, r.pid))


# --------------------------------------------------------------------------- SPARQL shapes


def _e(qid: str) -> str:
    return short(entity_iri(qid))


def _p(pid: str) -> str:
    return short(prop_iri(pid))


Triple = tuple[str, str, str]


def render_body(triples: Sequence[Triple]) -> str:
    """``s p o . s p o`` from compact tokens."""
    return " . ".join(f"{s} {p} {o}" for s, p, o in triples)


def rename(triples: Sequence[Triple], old: str, new: str) -> list[Triple]:
    """Rename one variable in a body."""
    return [tuple(new if t == old else t for t in tr) for tr in triples]  # type: ignore[misc]


def count_query(triples: Sequence[Triple]) -> str:
    """``SELECT (COUNT(DISTINCT ?x) AS ?answer)`` over the ``?answer`` set of a body."""
    body = render_body(rename(triples, "?answer", "?x"))
    return f"SELECT (COUNT(DISTINCT ?x) AS ?answer) WHERE {{ {body} }}"


def superlative_query(triples: Sequence[Triple], pid: str, direction: Direction) -> str:
    """The ``?answer`` of a body with the first ``pid`` value in ``direction``."""
    body = render_body([*triples, ("?answer", _p(pid), "?value")])
    return f"SELECT ?answer WHERE {{ {body} }} ORDER BY {direction}(?value) LIMIT 1"


def count_superlative_query(triples: Sequence[Triple], pid: str, direction: Direction, inverse: bool) -> str:
    """The ``?answer`` with the most (``DESC``) or fewest ``pid`` links."""
    link = ("?x", _p(pid), "?answer") if inverse else ("?answer", _p(pid), "?x")
    body = render_body([*triples, link])
    return (f"SELECT ?answer WHERE {{ {body} }} GROUP BY ?answer "
            f"ORDER BY {direction}(COUNT(DISTINCT ?x)) LIMIT 1")


def _filter_expr(f: NumberFilter, var: str) -> str:
    if f.is_year:
        year = int(f.value)
        if f.op in ("year", "="):
            return f"YEAR({var}) = {literal(str(year), datatype=XSD + 'integer')}"
        if f.op == "decade":
            return (f"YEAR({var}) >= {literal(str(year), datatype=XSD + 'integer')} && "
                    f"YEAR({var}) < {literal(str(year + 10), datatype=XSD + 'integer')}")
        bound = {"<": year, ">=": year, ">": year + 1, "<=": year + 1}[f.op]
        op = {"<": "<", ">=": ">=", ">": ">=", "<=": "<"}[f.op]
        return f"{var} {op} {literal(_year_datetime(bound), datatype=XSD + 'dateTime')}"
    op = "=" if f.op in ("year", "decade") else f.op
    return f"{var} {op} {literal(_decimal_text(f.value), datatype=XSD + 'decimal')}"


def _year_datetime(year: int) -> str:
    sign = "-" if year < 0 else ""
    return f"{sign}{abs(year):04d}-01-01T00:00:00Z"


def _decimal_text(value: Decimal) -> str:
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def filter_query(triples: Sequence[Triple], pid: str, f: NumberFilter, *, count: bool = False) -> str:
    """The ``?answer`` set of a body whose ``pid`` value passes ``f`` (or its size)."""
    body = render_body([*triples, ("?answer", _p(pid), "?value")])
    expr = _filter_expr(f, "?value")
    if count:
        body = render_body(rename([*triples, ("?answer", _p(pid), "?value")], "?answer", "?x"))
        return f"SELECT (COUNT(DISTINCT ?x) AS ?answer) WHERE {{ {body} FILTER({expr}) }}"
    return f"SELECT DISTINCT ?answer WHERE {{ {body} FILTER({expr}) }}"


def ask_query(triples: Sequence[Triple], filter_expr: str | None = None) -> str:
    """``ASK { body [FILTER(expr)] }``."""
    body = render_body(triples)
    return f"ASK {{ {body}{f' FILTER({filter_expr})' if filter_expr else ''} }}"


def comparison_query(qid1: str, qid2: str, pid: str, direction: Direction) -> str:
    """The two-entity comparison shape (see :func:`parse_comparison`)."""
    return (f"SELECT ?answer WHERE {{ VALUES ?answer {{ {_e(qid1)} {_e(qid2)} }} ?answer {_p(pid)} ?value }} "
            f"ORDER BY {direction}(?value) LIMIT 1")


# --------------------------------------------------------------------------- the generator


@dataclass(frozen=True)
class Mention:
    """A linked entity as the generator needs it: id, link confidence in [0, 1] and its
    character span in the question (``-1`` when unknown)."""

    qid: str
    score: float
    start: int = -1
    end: int = -1


@dataclass(frozen=True)
class EntitySet:
    """A body whose ``?answer`` binds a set of entities, with the confidence that it is
    the set the question is about."""

    triples: tuple[Triple, ...]
    score: float
    origin: str


_TOKEN = re.compile(r"wd:Q[1-9]\d*|wdt:P[1-9]\d*|\?[A-Za-z_]\w*")
_SELECT_BODY = re.compile(r"^SELECT (?:DISTINCT )?\?answer WHERE \{ (.*?)(?: \.)? \}$")


def parse_body(sparql: str) -> tuple[Triple, ...] | None:
    """The triple patterns of a plain ``SELECT ?answer WHERE { s p o . … }`` candidate
    (compact ``wd:``/``wdt:``/variable tokens only), else ``None``."""
    text = " ".join(sparql.split())
    for base, prefix in (("http://www.wikidata.org/entity/", "wd:"), ("http://www.wikidata.org/prop/direct/", "wdt:")):
        text = re.sub(r"<" + re.escape(base) + r"([QP][1-9]\d*)>", prefix + r"\1", text)
    m = _SELECT_BODY.match(text)
    if not m:
        return None
    triples = []
    for part in m.group(1).split(" . "):
        tokens = part.strip().split()
        if len(tokens) != 3 or not all(_TOKEN.fullmatch(t) for t in tokens) or not tokens[1].startswith("wdt:"):
            return None
        triples.append((tokens[0], tokens[1], tokens[2]))
    if not any("?answer" in t for t in triples):
        return None
    return tuple(triples)


def _squash(score: float) -> float:
    """A backend score of unknown scale mapped into [0, 1]."""
    if 0.0 <= score <= 1.0:
        return score
    return 1.0 / (1.0 + pow(2.718281828, -score))


class ComplexGenerator:
    """Builds the complex candidates of one question from its linked entities and the
    simple candidates of the base generator (whose bodies are reused as entity sets and
    whose relations are reused for yes/no questions).  Every candidate is checked against
    the KG before it is emitted (see the module docstring for the trust rules)."""

    def __init__(self, kg: KG, *, timeout_s: float = 3.0,
                 complete_properties: Iterable[str] = COMPLETE_PROPERTIES,
                 max_sets: int = 10) -> None:
        self.kg = kg
        self.timeout_s = timeout_s
        self.complete_properties = frozenset(complete_properties)
        self.max_sets = max_sets
        self._class_cache: dict[str, tuple[str, ...]] = {}

    # ------------------------------------------------------------------ public

    def candidates(self, question: str, lang: str, mentions: Sequence[Mention],
                   base: Sequence[Candidate] = ()) -> list[Candidate]:
        """Complex candidates for ``question`` (empty when it has no complex cue)."""
        a = analyze(question, lang, name_spans(mentions))
        if not a.is_complex and not a.alternative:
            return []
        mentions = self._clean_mentions(a, mentions)
        classes = {m.qid: self._type_props(m.qid) for m in mentions}
        instances = [m for m in mentions if not classes[m.qid]]
        out: dict[str, Candidate] = {}

        def emit(sparql: str, score: float, shape: str, **features: float) -> None:
            feats = (("complex", 1.0), (f"shape_{shape}", 1.0), *sorted(features.items()))
            if sparql not in out or out[sparql].score < score:
                out[sparql] = Candidate(sparql, round(score, 6), feats)

        graded = a.superlative or a.comparative or a.directed or a.gradable
        if len(instances) >= 2 and a.readings and not a.yes_no and (a.alternative or graded):
            self._comparisons(a, instances, emit)
        if a.yes_no:
            self._yes_no(a, mentions, instances, classes, base, emit)
        sets = self._sets(mentions, classes, instances, base, self._named_properties(question, lang, base))
        if a.superlative and not a.yes_no and not a.comparison_form:
            self._superlatives(a, sets, instances, emit)
            group = self.listed(a, instances) if not a.alternative else None
            if group and len(group) >= 3:
                self._superlative_among(a, group, emit)
        if a.filters and not a.yes_no:
            self._filters(a, sets, emit)
        if a.count and not a.yes_no:
            self._counts(a, sets, instances, emit)
        return sorted(out.values(), key=lambda c: -c.score)

    # ------------------------------------------------------------------ helpers

    def _query(self, sparql: str, max_rows: int = 50):
        try:
            return self.kg.query(sparql, timeout_s=self.timeout_s, max_rows=max_rows)
        except KGError:
            return None

    def _ask(self, sparql: str) -> bool | None:
        result = self._query(sparql)
        return None if result is None else result.boolean

    def _clean_mentions(self, a: Analysis, mentions: Sequence[Mention]) -> list[Mention]:
        """Best mention per entity and per span (a second reading of a span only when it
        is nearly as good), dropping mentions that sit on a cue word."""
        best: dict[str, Mention] = {}
        for m in mentions:
            on_cue = m.start >= 0 and any(s < m.end and m.start < e and m.end - m.start <= e - s
                                          for s, e in a.cue_spans)
            if on_cue or not re.fullmatch(r"Q[1-9]\d*", m.qid):
                continue
            if m.qid not in best or best[m.qid].score < m.score:
                best[m.qid] = m
        kept: list[Mention] = []
        for m in sorted(best.values(), key=lambda m: -m.score):
            rivals = [k for k in kept if m.start >= 0 and k.start < m.end and m.start < k.end]
            same = all((k.start, k.end) == (m.start, m.end) for k in rivals)
            if not rivals or (same and len(rivals) < 3 and m.score >= 0.8 * rivals[0].score):
                kept.append(m)
        return kept[:8]

    def _type_props(self, qid: str) -> tuple[str, ...]:
        """The typing properties (P31, P106) for which ``qid`` has instances."""
        if qid not in self._class_cache:
            found = []
            for pid in TYPE_PROPERTIES:
                if self._ask(f"ASK {{ ?x {_p(pid)} {_e(qid)} }}"):
                    found.append(pid)
            self._class_cache[qid] = tuple(found)
        return self._class_cache[qid]

    def _values(self, qids: Sequence[str], pids: Sequence[str]) -> dict[tuple[str, str], list[Term]]:
        """``{(qid, pid): [values]}`` for literal properties of a few entities."""
        if not qids or not pids:
            return {}
        ents = " ".join(_e(q) for q in qids)
        props = " ".join(_p(p) for p in pids)
        result = self._query(f"SELECT ?e ?p ?v WHERE {{ VALUES ?e {{ {ents} }} VALUES ?p {{ {props} }} ?e ?p ?v }}",
                             max_rows=500)
        out: dict[tuple[str, str], list[Term]] = {}
        for row in result.rows if result else []:
            q, p = local_id(row["e"].value), local_id(row["p"].value)
            if q and p and "v" in row and row["v"].kind == "literal":
                out.setdefault((q, p), []).append(row["v"])
        return out

    # ------------------------------------------------------------------ comparisons

    def _pairs(self, a: Analysis, instances: Sequence[Mention]) -> list[tuple[Mention, Mention, float]]:
        alts = [s for s, _, _ in find_words(a.text, _words(ALTERNATIVE_WORDS, a.lang))]
        pairs = []
        for i, m1 in enumerate(instances):
            for m2 in instances[i + 1:]:
                if m1.start >= 0 and m2.start >= 0:
                    if m1.start < m2.end and m2.start < m1.end:
                        continue
                    first, second = (m1, m2) if m1.start <= m2.start else (m2, m1)
                    between = any(first.end <= s <= second.start for s in alts)
                else:
                    first, second, between = m1, m2, True
                pairs.append((first, second, first.score * second.score * (1.0 if between else 0.5)))
        return sorted(pairs, key=lambda t: -t[2])[:3]

    def listed(self, a: Analysis, instances: Sequence[Mention]) -> list[Mention] | None:
        """The entities of the question's list ("A, B or C") in order, or ``None`` when
        there is no list of two or more linked entities or when an item of it is not
        linked (the comparison would then be made without it)."""
        spans: list[Mention] = []
        for m in sorted((m for m in instances if m.start >= 0), key=lambda m: (-m.score, m.start)):
            if all(m.end <= k.start or k.end <= m.start for k in spans):
                spans.append(m)
        spans.sort(key=lambda m: m.start)
        if not spans:
            return None
        sep, joint, item, word_next = _list_patterns(a.lang)
        groups: list[list[Mention]] = [[spans[0]]]
        for m in spans[1:]:
            gap = a.text[groups[-1][-1].end:m.start]
            if sep.match(gap) and joint.search(gap):
                groups[-1].append(m)
            else:
                groups.append([m])
        group = max(groups, key=len)
        before, after = a.text[:group[0].start], a.text[group[-1].end:]
        item_before = item.search(before)
        if item_before and self._is_item(a, item_before):
            return None
        if word_next.match(after):
            return None
        return group if len(group) >= 2 else None

    @staticmethod
    def _is_item(a: Analysis, chunk: re.Match[str]) -> bool:
        """A short chunk without cue or question words: an unlinked list item."""
        start, end = chunk.span(1)
        if any(s < end and start < e for s, e in a.cue_spans):
            return False
        text = chunk.group(1)
        if find_words(text, _QUESTION_WORDS) or len(text.split()) > 3:
            return False
        return bool(text.strip())

    def _comparisons(self, a: Analysis, instances: Sequence[Mention], emit) -> None:
        group = self.listed(a, instances)
        if not group:
            return
        if len(group) > 2:
            if a.superlative:
                self._superlative_among(a, group, emit)
            return
        pairs = [(group[0], group[1], group[0].score * group[1].score)]
        readings = a.readings[:6]
        for first, second, pair_score in pairs:
            values = self._values([first.qid, second.qid], [r.pid for r in readings])
            known = [(r, sum(1 for q in (first.qid, second.qid) if values.get((q, r.pid)))) for r in readings]
            top = max((r.weight for r, _ in known), default=0.0)
            for r, n in known:
                if n == 0 and r.weight < top:
                    continue
                factor = {2: 1.0, 1: 0.75, 0: 0.6}[n]
                score = 0.55 + 0.45 * pair_score * r.weight * factor
                emit(comparison_query(first.qid, second.qid, r.pid, r.direction), score, "comparison",
                     link=pair_score, reading=r.weight, known=n / 2)

    # ------------------------------------------------------------------ yes / no

    def _yes_no(self, a: Analysis, mentions: Sequence[Mention], instances: Sequence[Mention],
                classes: Mapping[str, tuple[str, ...]], base: Sequence[Candidate], emit) -> None:
        graded = bool(a.readings) and (a.comparative or a.superlative or a.alternative)
        if len(instances) >= 2 and graded:
            self._ask_comparison(a, instances, emit)
        for m in instances:
            for f in a.filters:
                self._ask_filter(a, m, f, emit)
        if graded or a.filters:
            return  # the question tests a value, not a relation or a type
        self._ask_relations(a, mentions, base, emit)
        for m in instances if len({(i.start, i.end) for i in instances}) == 1 else ():
            for c in mentions:
                for pid in classes.get(c.qid, ()):
                    if c.qid != m.qid and self._ask(ask_query([(_e(m.qid), _p(pid), _e(c.qid))])):
                        emit(ask_query([(_e(m.qid), _p(pid), _e(c.qid))]), 0.5 + 0.4 * m.score * c.score,
                             "ask_type", link=m.score * c.score)

    def _ask_comparison(self, a: Analysis, instances: Sequence[Mention], emit) -> None:
        for first, second, pair_score in self._pairs(a, instances)[:2]:
            values = self._values([first.qid, second.qid], [r.pid for r in a.readings[:6]])
            for r in a.readings[:6]:
                if not (values.get((first.qid, r.pid)) and values.get((second.qid, r.pid))):
                    continue
                op = "<" if r.direction == "ASC" else ">"
                triples = [(_e(first.qid), _p(r.pid), "?a"), (_e(second.qid), _p(r.pid), "?b")]
                emit(ask_query(triples, f"?a {op} ?b"), 0.55 + 0.45 * pair_score * r.weight, "ask_comparison",
                     link=pair_score, reading=r.weight)

    def _ask_filter(self, a: Analysis, m: Mention, f: NumberFilter, emit) -> None:
        pids = self._filter_properties(a, f)
        values = self._values([m.qid], [p for p, _ in pids])
        for pid, w in pids:
            if not values.get((m.qid, pid)):
                continue
            if self._kind_mismatch(pid, f):
                continue
            sparql = ask_query([(_e(m.qid), _p(pid), "?value")], _filter_expr(f, "?value"))
            emit(sparql, 0.55 + 0.45 * m.score * w, "ask_filter", link=m.score, reading=w)

    def _ask_relations(self, a: Analysis, mentions: Sequence[Mention], base: Sequence[Candidate], emit) -> None:
        qids = {m.qid: m for m in mentions}
        for rank, cand in enumerate(base[:20]):
            body = parse_body(cand.sparql)
            if not body or len(body) != 1:
                continue
            s, p, o = body[0]
            subject = s if o == "?answer" else o if s == "?answer" else None
            if subject is None or not subject.startswith("wd:") or p == "wdt:P31":
                continue
            pid = p.split(":")[1]
            for other, m in qids.items():
                if _e(other) == subject:
                    continue
                triple = (subject, p, _e(other)) if o == "?answer" else (_e(other), p, subject)
                sparql = ask_query([triple])
                truth = self._ask(sparql)
                base_score = _squash(cand.score) * (0.97 ** rank)
                if truth:
                    emit(sparql, 0.45 + 0.5 * base_score * m.score, "ask_relation", link=m.score, base=base_score)
                elif (truth is False and pid in FUNCTIONAL_PROPERTIES and o == "?answer" and m.score >= 0.7
                      and dict(cand.features).get("prop_score", 1.0) >= 0.5):
                    emit(sparql, 0.35 + 0.45 * base_score * m.score, "ask_relation_no", link=m.score,
                         base=base_score)

    # ------------------------------------------------------------------ sets

    @staticmethod
    def _named_properties(question: str, lang: str, base: Sequence[Candidate]) -> frozenset[str]:
        """Properties the question's words name: property-lexicon phrases, and the
        relations of base candidates whose property matched the question."""

        named = set()
        with contextlib.suppress(LexiconError):  # no lexicon: the base candidates' evidence alone
            named.update(m.pid for m in default_lexicon().match_properties(question, lang))
        for cand in base[:20]:
            feats = dict(cand.features)
            body = parse_body(cand.sparql)
            if body and feats.get("prop_min", feats.get("prop_score", 0.0)) >= 0.5:
                named.update(p.split(":")[1] for _, p, _ in body if p != "wdt:P31")
        return frozenset(named)

    def _sets(self, mentions: Sequence[Mention], classes: Mapping[str, tuple[str, ...]],
              instances: Sequence[Mention], base: Sequence[Candidate],
              named: frozenset[str] = frozenset()) -> list[EntitySet]:
        sets: list[EntitySet] = []
        for c in mentions:
            for pid in classes.get(c.qid, ()):
                others = [m for m in instances if m.qid != c.qid and (m.start, m.end) != (c.start, c.end)]
                alone = 0.5 if others else 0.8
                sets.append(EntitySet((("?answer", _p(pid), _e(c.qid)),), alone * c.score, f"class:{pid}"))
                for m in instances:
                    sets.extend(s for s in self._typed_sets(c, pid, m) if s.triples[1][1].split(":")[1] in named)
        known = {_e(m.qid) for m in mentions}
        for rank, cand in enumerate(base[:12]):
            body = parse_body(cand.sparql)
            feats = dict(cand.features)
            evidence = feats.get("prop_min", feats.get("prop_score", 1.0))
            if evidence < 0.5 or not body or len(body) > 3:
                continue
            if any(o == "?answer" and p.split(":")[1] in LITERAL_PROPERTIES for _, p, o in body):
                continue  # literal values, not a set of entities
            if all(t in known for tr in body for t in tr if t.startswith("wd:")):
                sets.append(EntitySet(body, _squash(cand.score) * (0.97 ** rank), "base"))
        unique: dict[tuple[Triple, ...], EntitySet] = {}
        for s in sets:
            if s.triples not in unique or unique[s.triples].score < s.score:
                unique[s.triples] = s
        return sorted(unique.values(), key=lambda s: -s.score)[: self.max_sets]

    def _typed_sets(self, c: Mention, type_pid: str, m: Mention) -> list[EntitySet]:
        """``?answer <type> C . ?answer P E`` (and ``E P ?answer``) sets that exist."""
        out = []
        type_triple = ("?answer", _p(type_pid), _e(c.qid))
        for inverse in (False, True):
            link = (_e(m.qid), "?p", "?answer") if inverse else ("?answer", "?p", _e(m.qid))
            sparql = (f"SELECT ?p (COUNT(DISTINCT ?answer) AS ?n) WHERE {{ {render_body([link, type_triple])} }} "
                      f"GROUP BY ?p ORDER BY DESC(?n) LIMIT 3")
            result = self._query(sparql, max_rows=3)
            for row in result.rows if result else []:
                pid = local_id(row["p"].value) if "p" in row else None
                if not pid or not row["p"].value.startswith("http://www.wikidata.org/prop/direct/"):
                    continue
                triple = (_e(m.qid), _p(pid), "?answer") if inverse else ("?answer", _p(pid), _e(m.qid))
                out.append(EntitySet((type_triple, triple), 0.85 * c.score * m.score, "typed"))
        return out

    def consistent(self, triples: Sequence[Triple], pid: str) -> bool:
        """False when a symmetric relation of the set, read the other way round, gives more
        members with a ``pid`` value (the KG then disagrees with itself about the set)."""
        for i, (s, p, o) in enumerate(triples):
            if p.split(":")[1] not in SYMMETRIC_PROPERTIES or "?answer" not in (s, o):
                continue
            mirrored = [*triples[:i], (o, p, s), *triples[i + 1:]]
            found = []
            for body in (triples, [*mirrored, ("?answer", _p(pid), "?value")]):
                result = self._query(f"SELECT DISTINCT ?answer WHERE {{ {render_body(body)} }}", max_rows=500)
                found.append({row["answer"].value for row in result.rows if "answer" in row} if result else set())
            if not found[1] <= found[0]:
                return False
        return True

    def coverage(self, triples: Sequence[Triple], pid: str) -> float:
        """Share of the set's comparable members (sampled up to :data:`COVERAGE_SAMPLE`)
        that have a ``pid`` value; a member is comparable when it shares a type (``P31``)
        with a member that has a value (an organization among "the neighbours of Kenya"
        has no population to miss).  0 for a set the KG disagrees about (:meth:`consistent`)."""
        if not self.consistent(triples, pid):
            return 0.0
        body = render_body(triples)
        rows = self._query(f"SELECT ?answer ?t ?v WHERE {{ {body} OPTIONAL {{ ?answer wdt:P31 ?t }} "
                           f"OPTIONAL {{ ?answer {_p(pid)} ?v }} }}", max_rows=4 * COVERAGE_SAMPLE)
        if not rows or not rows.rows:
            return 0.0
        types: dict[str, set[str]] = {}
        valued: set[str] = set()
        for row in rows.rows:
            if "answer" not in row:
                continue
            member = row["answer"].value
            types.setdefault(member, set()).update([row["t"].value] if "t" in row else [])
            if "v" in row:
                valued.add(member)
        kinds = set().union(*(types[m] for m in valued)) if valued else set()
        comparable = [m for m, ts in types.items() if m in valued or ts & kinds or not ts]
        return len(valued) / len(comparable) if comparable else 0.0

    # ------------------------------------------------------------------ superlatives

    def _superlatives(self, a: Analysis, sets: Sequence[EntitySet], instances: Sequence[Mention], emit) -> None:
        readings = [r for r in a.readings[:6] if LITERAL_PROPERTIES[r.pid].orderable]
        for es in sets:
            for r in readings:
                body = render_body([*es.triples, ("?answer", _p(r.pid), "?value")])
                check = f"SELECT ?answer ?value WHERE {{ {body} }} ORDER BY {r.direction}(?value) LIMIT 2"
                result = self._query(check.replace("LIMIT 2", "LIMIT 6"), max_rows=6)
                rows = result.rows if result else []
                others = [row for row in rows[1:] if row.get("answer") != rows[0].get("answer")]
                if not others:
                    continue  # a superlative over fewer than two entities says nothing
                if others[0].get("value") == rows[0].get("value"):
                    continue  # a tie for the first place
                if self.coverage(es.triples, r.pid) < MIN_COVERAGE_ORDER:
                    continue
                emit(superlative_query(es.triples, r.pid, r.direction), 0.5 + 0.45 * es.score * r.weight,
                     "superlative", set=es.score, reading=r.weight)

    def _superlative_among(self, a: Analysis, instances: Sequence[Mention], emit) -> None:
        """"Who is the oldest of A, B and C?": only when every listed entity has a value."""
        qids = [m.qid for m in instances]
        link = min(m.score for m in instances)
        values = self._values(qids, [r.pid for r in a.readings[:6]])
        for r in a.readings[:6]:
            if not LITERAL_PROPERTIES[r.pid].orderable or not all(values.get((q, r.pid)) for q in qids):
                continue
            best = sorted((value_key(best_value(values[(q, r.pid)], r.direction)), q) for q in qids)  # type: ignore[arg-type]
            first, second = (best[0], best[1]) if r.direction == "ASC" else (best[-1], best[-2])
            if first[0] == second[0]:
                continue
            ents = " ".join(_e(q) for q in qids)
            sparql = (f"SELECT ?answer WHERE {{ VALUES ?answer {{ {ents} }} ?answer {_p(r.pid)} ?value }} "
                      f"ORDER BY {r.direction}(?value) LIMIT 1")
            emit(sparql, 0.55 + 0.45 * link * r.weight, "superlative_among", link=link, reading=r.weight)

    # ------------------------------------------------------------------ filters

    def _filter_properties(self, a: Analysis, f: NumberFilter) -> list[tuple[str, float]]:
        """Which literal properties a filter may apply to, with weights."""
        out: dict[str, float] = {}
        for r in a.readings:
            out[r.pid] = max(out.get(r.pid, 0.0), r.weight)
        for pid in a.properties:
            out[pid] = max(out.get(pid, 0.0), 1.0)
        if f.unit:
            for pid in _UNIT_PROPERTY.get(f.unit, ()):
                out[pid] = max(out.get(pid, 0.0), 0.8 if pid in out else 0.6)
        if f.is_year and not any(LITERAL_PROPERTIES[p].kind == "date" for p in out):
            for pid in DATE_PROPERTIES:
                out[pid] = 0.4
        return sorted(((p, w) for p, w in out.items() if not self._kind_mismatch(p, f)), key=lambda t: -t[1])

    @staticmethod
    def _kind_mismatch(pid: str, f: NumberFilter) -> bool:
        lp = LITERAL_PROPERTIES[pid]
        if f.is_year != (lp.kind == "date"):
            return True
        return bool(f.unit and lp.unit and f.unit != lp.unit)

    def _filters(self, a: Analysis, sets: Sequence[EntitySet], emit) -> None:
        for f in a.filters[:2]:
            for es in sets:
                for pid, w in self._filter_properties(a, f)[:4]:
                    sparql = filter_query(es.triples, pid, f)
                    result = self._query(sparql, max_rows=201)
                    if not result or not result.rows:
                        continue
                    covered = self.coverage(es.triples, pid)
                    if covered < (MIN_COVERAGE_ORDER if a.count else MIN_COVERAGE_LIST):
                        continue
                    if a.count:
                        emit(filter_query(es.triples, pid, f, count=True), 0.55 + 0.45 * es.score * w,
                             "count_filter", set=es.score, reading=w)
                    else:
                        emit(sparql, 0.5 + 0.45 * es.score * w, "filter", set=es.score, reading=w)

    # ------------------------------------------------------------------ counts

    def _counts(self, a: Analysis, sets: Sequence[EntitySet], instances: Sequence[Mention], emit) -> None:
        counted = [p for p in a.properties if p in COUNTABLE_PROPERTIES] if not a.filters else []
        for m in instances[:3]:
            values = self._values([m.qid], counted)
            for pid in counted:
                if values.get((m.qid, pid)):
                    emit(f"SELECT ?answer WHERE {{ {_e(m.qid)} {_p(pid)} ?answer }}", 0.6 + 0.4 * m.score,
                         "count_literal", link=m.score)
        if a.filters:
            return
        for es in sets:
            if es.origin == "typed" or (es.origin.startswith("class") and instances):
                continue  # only sets the question's words chose are counted
            result = self._query(count_query(es.triples), max_rows=1)
            terms = result.column() if result else []
            n = value_key(terms[0]) if terms else None
            if n is None:
                continue
            if n == 0 and not self._zero_is_known(es):
                continue
            penalty = 0.7 if counted else 1.0
            emit(count_query(es.triples), (0.5 + 0.45 * es.score) * penalty, "count", set=es.score)

    def _zero_is_known(self, es: EntitySet) -> bool:
        """A count of 0 is an answer only for an existing anchor entity and a property
        whose values the KG holds completely."""
        for s, p, o in es.triples:
            anchor = s if s.startswith("wd:") else o if o.startswith("wd:") else None
            if p == "wdt:P31" or anchor is None:
                continue
            if p.split(":")[1] not in self.complete_properties:
                return False
            if not self._ask(f"ASK {{ {{ {anchor} ?p ?o }} UNION {{ ?s ?p {anchor} }} }}"):
                return False
        return True


@lru_cache(maxsize=32)
def _list_patterns(lang: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """:meth:`ComplexGenerator.listed`'s patterns for ``lang`` (compiled once): the gap
    between two list items, a joint in it, an item before the list, a list word after it."""
    words = "|".join(_word_pattern(w).pattern for w in _words(LIST_WORDS, lang))
    return (re.compile(rf"^[\s,、;]*(?:(?:{words})[\s,、;]*)?(?:[^\W\d_]{{1,3}}\s+)?$"),
            re.compile(rf"[,、;]|{words}"),
            re.compile(rf"(?:^|[:,、;])\s*([^:,、;]+?)\s*(?:[,、;]|\s(?:{words}))\s*$"),
            re.compile(rf"^\s*(?:{words})\s*\w"))


# --------------------------------------------------------------------------- the local backend's hook


def mentions_from_links(question: str, linked: Iterable[object]) -> list[Mention]:
    """Adapt linker mentions (anything with ``qid``, ``score`` and the ``surface`` text of
    its span) to :class:`Mention` with character spans in the normalized question."""
    text = normalize_text(question)
    out = []
    for m in linked:
        surface = normalize_text(str(getattr(m, "surface", "")))
        start = end = -1
        if surface:
            parts = [re.escape(t) for t in surface.split()]
            found = re.search(r"[\W_]*".join(parts), text)
            if found:
                start, end = found.start(), found.end()
        out.append(Mention(str(m.qid), float(m.score), start, end))  # type: ignore[attr-defined]
    return out


def _body_pid(sparql: str) -> str | None:
    body = parse_body(sparql)
    if not body or len(body) != 1:
        return None
    return body[0][1].split(":")[1]


def answer_form_is_fixed(a: Analysis) -> bool:
    """True when the question's form rules out a plain lookup answer: yes/no, "A or B?",
    ordinals, superlatives and comparatives with a gradable reading, numeric or date
    filters.  (Counts are handled apart: a quantity lookup may answer "how many".)"""
    return bool(a.yes_no or a.comparison_form or a.ordinal or a.filters or a.superlative
                or set(a.gradable) & STRONG_GRADABLES or (a.directed and a.lang != "en"))


def name_spans(mentions: Sequence[Mention], min_score: float = 0.6) -> list[tuple[int, int]]:
    """Character spans of the confidently linked names."""
    return [(m.start, m.end) for m in mentions if m.start >= 0 and m.score >= min_score]


def merge(question: str, lang: str, simple: Sequence[Candidate], complex_: Sequence[Candidate],
          names: Sequence[tuple[int, int]] = ()) -> list[Candidate]:
    """One ranked list from the simple candidates and the complex ones.  When the question's
    form fixes the answer form (:func:`answer_form_is_fixed`), the simple candidates are
    dropped: their plain lookup answers another question, and abstaining beats guessing;
    for "how many" only a lookup of a quantity the question names survives."""
    a = analyze(question, lang, names)
    kept: list[Candidate] = []
    if not answer_form_is_fixed(a):
        for c in simple:
            pid = _body_pid(c.sparql)
            if a.count and not (pid in a.properties and pid in COUNTABLE_PROPERTIES):
                continue
            kept.append(c)
    seen: dict[str, Candidate] = {}
    for c in [*complex_, *kept]:
        if c.sparql not in seen or seen[c.sparql].score < c.score:
            seen[c.sparql] = c
    return sorted(seen.values(), key=lambda c: (-c.score, c.sparql))


def extend_candidates(generator: ComplexGenerator, linker: object, question: str, lang: str,
                      simple: Sequence[Candidate]) -> list[Candidate]:
    """The local backend's hook: link (``linker.link(question, lang)``), build the complex
    candidates from the mentions and the simple candidates, and merge both lists."""
    a = analyze(question, lang)
    if not a.is_complex and not a.alternative:
        return list(simple)
    mentions = mentions_from_links(question, linker.link(question, lang, limit=12))  # type: ignore[attr-defined]
    complex_ = generator.candidates(question, lang, mentions, simple)
    return merge(question, lang, simple, complex_, name_spans(mentions))
