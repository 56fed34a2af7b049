"""The complex layer's words: the literal properties with their words per language, the
gradable words with their (property, direction) readings, the cue words (count,
superlative, ordinal, question, alternative, list, "than", yes/no openers), the property
sets the trust rules rely on, and the matching of cue words in normalized text.

The direction of every gradable word lives in :data:`GRADABLES` / :data:`DIRECTION_WORDS`
and the literal properties with their words in :data:`LITERAL_PROPERTIES`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from core.phrases import Phrase, PhraseMatcher, Word, non_overlapping
from core.text import CUE_CJK, CUE_CJK_CLASS, normalize_cue_text
from qa.candidate import Direction

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

ORDINAL_FORMS: Mapping[str, str] = {
    "en": r"\b(?:fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\w+teenth|\w+ieth)\b",
    "de": r"\b(?:sechst|siebt|neunt|zehnt|elft|zwölft|\w+zehnt|\w+[zß]igst)e[nrms]?\b",
    "ru": r"\b(?:пят|шест|седьм|восьм|девят|десят|\w+надцат|\w+десят)(?:ый|ая|ое|ого|ому|ом|ой|ую)\b",
    "fr": r"\b\w+ième\b",
    "es": r"\b(?:\w+ésim|quint|sext|séptim|octav|noven|décim)[oa]s?\b",
    "pt": r"\b(?:\w+ésim|quint|sext|sétim|oitav|non|décim)[oa]s?\b",
    "it": r"\b(?:\w+esim|quint|sest|settim|ottav|decim)[oaie]\b",
}
"""Ordinals past those :data:`ORDINAL_WORDS` lists, by their form ("fortieth", « cuadragésimo »,
« quarantesimo », « vierzigste »): a question about the n-th of something is no plain lookup."""

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

QUESTION_PARTICLES: Mapping[str, tuple[str, ...]] = {"ja": ("か",)}
"""Alternative words that also end a question without offering a choice (Japanese
「…生まれましたか？」 asks; 「AかBか」 chooses)."""

LIST_WORDS: Mapping[str, tuple[str, ...]] = {
    "en": ("or", "and"), "de": ("oder", "und"), "ru": ("или", "и"), "uk": ("чи", "або", "і", "та"),
    "zh": ("还是", "或者", "或", "和", "与", "及", "跟"), "ja": ("と", "か", "または"), "fr": ("ou", "et"),
    "es": ("o", "u", "y", "e"), "it": ("o", "oppure", "e"), "pt": ("ou", "e"),
}
QUESTION_WORDS = ("which", "who", "what", "welche*", "wer", "was", "кто", "како*", "котор*", "хто", "яки*",
                   "哪", "谁", "什么", "quel*", "qui", "cuál", "quién", "qual", "quem", "chi")

THAN_WORDS: Mapping[str, tuple[str, ...]] = {
    "en": ("than",), "de": ("als",), "ru": ("чем",), "uk": ("ніж", "за"), "zh": ("比",), "ja": ("より",),
    "fr": ("que", "qu"), "es": ("que",), "it": ("di", "che"), "pt": ("que", "do que"),
}

# words for an amount of things: a size word that grades one ("the largest number of
# lakes", « la mayor cantidad de lagos ») asks for the most things, not the largest entity
AMOUNT_WORDS: Mapping[str, tuple[str, ...]] = {
    "en": ("number", "amount", "quantity", "count"), "de": ("anzahl", "zahl", "menge"),
    "ru": ("количеств*", "числ*"), "uk": ("кількіст*", "числ*"), "zh": ("数量", "数目", "数"), "ja": ("数",),
    "fr": ("nombre", "quantité"), "es": ("número", "numero", "cantidad"), "it": ("numero", "quantità"),
    "pt": ("número", "numero", "quantidade"), "ar": ("عدد",), "hi": ("संख्या",),
}

YES_NO_OPENERS: Mapping[str, tuple[str, ...]] = {
    "en": ("is", "was", "are", "were", "did", "does", "do", "has", "have", "had", "can", "could"),
    "de": ("ist", "war", "sind", "waren", "hat", "hatte", "haben", "wurde", "wurden", "liegt", "lag", "gibt es",
           "stimmt es", "spielt", "spielte", "lebt", "lebte", "gehört", "gehörte"),
    "ru": ("правда ли", "верно ли", "является ли", "был ли", "была ли", "было ли", "были ли", "есть ли"),
    "uk": ("чи",), "fr": ("est-ce que", "est-ce qu"), "es": ("es", "fue", "era", "está", "estaba", "tiene", "tenía"),
    "it": ("è", "era", "fu", "ha", "aveva"), "pt": ("é", "foi", "era", "tem", "tinha", "está"),
}
YES_NO_ANYWHERE: Mapping[str, tuple[str, ...]] = {
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

_LETTER_BEFORE = f"(?<![^\\W_{CUE_CJK_CLASS}])"
_LETTER_AFTER = f"(?![^\\W_{CUE_CJK_CLASS}])"


@lru_cache(maxsize=8192)
def word_pattern(word: str) -> re.Pattern[str]:
    """``foo`` (whole word), ``foo*`` (stem), ``*est`` (ending), ``am *sten`` (inner
    wildcard), or a CJK string (plain substring)."""
    w = normalize_cue_text(word)
    if CUE_CJK.search(w):
        return re.compile(re.escape(w).replace(r"\*", r"\w*"))
    parts = [re.escape(p).replace(r"\*", r"\w*") for p in w.split()]
    body = r"\s+".join(parts)
    start = _LETTER_BEFORE if not w.startswith("*") else _LETTER_BEFORE + r"\w"
    end = "" if w.endswith("*") else _LETTER_AFTER
    return re.compile(start + body + end)


def find_words(text: str, words: Iterable[str]) -> list[tuple[int, int, str]]:
    """``(start, end, word)`` of every occurrence of ``words`` in normalized ``text``
    (what ``word_pattern(word).finditer(text)`` finds, by one automaton per word list)."""
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
    """:func:`word_pattern`'s meaning as a :class:`Phrase` (a regex where it has none)."""
    w = normalize_cue_text(word)
    if CUE_CJK.search(w):
        return Phrase((Word(w),)) if "*" not in w else word_pattern(word)
    parts = w.split()
    if not parts or any("*" in p.rstrip("*") or p == "*" for p in parts):  # "*reich*", "am *sten"
        return word_pattern(word)
    return Phrase(tuple(Word(p.rstrip("*"), p.endswith("*")) for p in parts), before="letter",
                  after="none" if w.endswith("*") else "letter", run_sep=True)


def words_for(table: Mapping[str, tuple[str, ...]], lang: str) -> tuple[str, ...]:
    out = table.get(lang, ())
    return out if lang == "en" or out else table.get("en", ())
