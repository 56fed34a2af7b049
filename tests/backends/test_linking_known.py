"""Entity linking when a written word is both a name as typed and close to other names: a
well-known person's last name as written is not outranked by rare entities' names a letter
or two away, and a lower-case word that is only obscure people's last name also finds, by
sound, a person known only by a Latin name."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import pytest

from backends.local.linking import Linker, Mention, best_combinations
from kg.labels import LabelIndex, build_label_index
from tests import tiny_kg

THINGS = [ox.NamedNode(f"{tiny_kg.WD}Q{900000 + i}") for i in range(80)]


def _entity(qid: str, names: dict[str, list[str]], facts: int, *, human: bool = False) -> list[ox.Quad]:
    node = ox.NamedNode(tiny_kg.WD + qid)
    quads = [ox.Quad(node, tiny_kg.LABEL if i == 0 else tiny_kg.ALT, ox.Literal(name, language=lang))
             for lang, written in names.items() for i, name in enumerate(written)]
    quads += [ox.Quad(node, tiny_kg.P17, thing) for thing in THINGS[:facts]]
    if human:
        quads.append(ox.Quad(node, tiny_kg.P31, tiny_kg.HUMAN))
    return quads


def _linker(tmp_path: Path, *entities: list[ox.Quad]) -> Linker:
    store = ox.Store()
    for quads in entities:
        store.extend(quads)
    build_label_index(store, tmp_path / "labels")
    return Linker(LabelIndex.open(tmp_path / "labels"))


@pytest.mark.parametrize(("person_facts", "person_first"), [(60, True), (3, False)])
def test_a_fuzzy_spelling_ranks_below_a_much_better_known_name_as_written(tmp_path: Path, person_facts: int,
                                                                         person_first: bool):
    """"lennon" is John Lennon's last name as written (a partial link) and a letter away from
    "Lenna" and "Lennox", rare places: with many more facts John Lennon ranks first, and the
    fuzzy spellings stay linked, below him, in their order; a person no better known than
    they are does not push them down."""
    linker = _linker(tmp_path,
                     _entity("Q1203", {"en": ["John Lennon"]}, person_facts, human=True),
                     _entity("Q101194", {"en": ["Lenna"]}, 3),
                     _entity("Q1551721", {"en": ["Lennox"]}, 3))
    found = linker.link("where did lennon die", "en")
    by_qid = {m.qid: m for m in found}
    assert by_qid["Q1203"].kind == "partial"
    assert {by_qid["Q101194"].kind, by_qid["Q1551721"].kind} == {"fuzzy"}
    assert (found[0].qid == "Q1203") is person_first
    fuzzy = [m for m in found if m.fuzzy]
    assert [m.score for m in fuzzy] == sorted((m.score for m in fuzzy), reverse=True)
    assert fuzzy[0].score > fuzzy[-1].score or fuzzy[0].quality == fuzzy[-1].quality


def test_a_name_typed_exactly_is_unchanged_by_close_spellings(tmp_path: Path):
    """A fuzzy spelling of a word is pushed down only by a name of that same written word:
    "lenna" written as it is links Lenna as its label, first."""
    linker = _linker(tmp_path,
                     _entity("Q1203", {"en": ["John Lennon"]}, 60, human=True),
                     _entity("Q101194", {"en": ["Lenna"]}, 3))
    best = linker.link("where is lenna", "en")[0]
    assert (best.qid, best.kind) == ("Q101194", "label")


def _nabokovs(tmp_path: Path, dmitri_facts: int) -> list[Mention]:
    linker = _linker(tmp_path,
                     _entity("Q36591", {"en": ["Vladimir Nabokov"]}, 55, human=True),
                     _entity("Q2447966", {"en": ["Dmitri Nabokov"], "ru": ["Дмитрий Набоков"]}, dmitri_facts,
                             human=True))
    return linker.link("где родился набоков", "ru")


def test_a_lower_case_last_name_of_obscure_people_only_also_links_by_sound(tmp_path: Path):
    """« набоков » typed in lower case is, as written, only Dmitri Nabokov's last name (his
    Russian label); Vladimir Nabokov, named in English only, is found by sound too."""
    found = {m.qid: m for m in _nabokovs(tmp_path, 1)}
    assert found["Q2447966"].kind == "partial"
    assert (found["Q36591"].kind, found["Q36591"].name, found["Q36591"].surface) == ("phonetic", "nabokov", "набоков")


def test_a_lower_case_last_name_of_a_well_known_person_is_not_matched_by_sound(tmp_path: Path):
    """When the last name as written names a well-known person, that is the link: no
    sound-alike is looked for (a capital letter would still ask for one)."""
    found = {m.qid for m in _nabokovs(tmp_path, 40)}
    assert "Q2447966" in found and "Q36591" not in found


def test_a_link_carries_how_well_the_kg_knows_the_other_bearers_of_its_name(tmp_path: Path):
    """« эйлер » names two people by their last name: each link carries the other's degree
    (what tells the validator's reading whether the name alone says who is meant)."""
    linker = _linker(tmp_path,
                     _entity("Q7604", {"ru": ["Леонард Эйлер"]}, 44, human=True),
                     _entity("Q457125", {"ru": ["Ульф Эйлер"]}, 3, human=True),
                     _entity("Q64", {"ru": ["Берлин"]}, 5))
    found = {m.qid: m for m in linker.link("где умер эйлер", "ru")}
    assert (found["Q7604"].kind, found["Q7604"].ambiguity) == ("partial", 2)
    assert found["Q7604"].rival_degree == found["Q457125"].degree
    assert found["Q457125"].rival_degree == found["Q7604"].degree > found["Q457125"].degree
    assert found["Q7604"].link().rival_degree == found["Q7604"].rival_degree
    alone = {m.qid: m for m in linker.link("где находится берлин", "ru")}
    assert alone["Q64"].rival_degree == 0


def test_the_best_combinations_come_first_whatever_the_position_of_the_choices():
    """Best first by the product of similarities: a choice of the first word is tried as soon
    as one of the last word, not after every combination of the last words."""
    choices = [[("a", 1.0), ("a2", 0.9)], [("b", 1.0), ("b2", 0.95), ("b3", 0.5)], [("c", 1.0), ("c2", 0.8)]]
    found = best_combinations(choices, 5)
    assert [q for _, q in found] == sorted((q for _, q in found), reverse=True)
    assert [tuple(w for w, _ in combo) for combo, _ in found[:3]] == [("a", "b", "c"), ("a", "b2", "c"),
                                                                      ("a2", "b", "c")]
    assert len(best_combinations(choices, 100)) == 12
    assert best_combinations([[("a", 1.0)], []], 5) == []


def test_a_name_of_three_words_each_inflected_is_linked_whole(tmp_path: Path):
    """« Объединенных Арабских Эмиратов » is « Объединённые Арабские Эмираты » in the genitive,
    every word inflected: the whole name is linked, not its last word's namesake alone."""
    linker = _linker(tmp_path,
                     _entity("Q878", {"ru": ["Объединённые Арабские Эмираты", "Эмираты"]}, 40),
                     _entity("Q43229", {"ru": ["объединение"]}, 5),
                     _entity("Q13955", {"ru": ["арабский язык", "арабский"]}, 30),
                     _entity("Q189898", {"ru": ["эмират"]}, 10))
    found = linker.link("Какой город является столицей Объединенных Арабских Эмиратов?", "ru")
    whole = [m for m in found if m.qid == "Q878" and (m.start, m.end) == (4, 7)]
    assert whole and whole[0].kind == "inflected"
    assert found[0].qid == "Q878"
