"""The evidence the gate's records keep per candidate: answer kinds over the tiny KG, the
feature rows, and candidates read (verbalized and scored) as the pipeline reads them."""

from __future__ import annotations

import pytest

from qa.candidate import Candidate
from tests.stages import PrefersEnglish, Verbalize
from training.evidence import EvidenceReader, answer_kinds, execute, features

BIRTHPLACE = "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P19 ?answer . }"
BIRTHDATE = "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P569 ?answer . }"
NOTHING = "SELECT DISTINCT ?answer WHERE { wd:Q937 wdt:P36 ?answer . }"
PEOPLE = "SELECT DISTINCT ?answer WHERE { ?answer wdt:P27 wd:Q183 . }"



def test_answer_kinds_type_people_places_and_literals(tiny_kg_client):
    results = [execute(tiny_kg_client, s, 5.0) for s in (BIRTHPLACE, BIRTHDATE, PEOPLE, NOTHING, "SELECT nonsense")]
    kinds = answer_kinds(tiny_kg_client, results, 5.0)
    place, date, people, nothing, broken = kinds
    assert (place.n, place.uri, place.located, place.human) == (1, 1.0, 1.0, 0.0)
    assert (date.n, date.date, date.uri) == (1, 1.0, 0.0)
    assert (people.n, people.human) == (1, 1.0)
    assert nothing.n == 0 and not nothing.error
    assert broken.error and broken.n == 0


def test_features_compare_expected_and_actual_answer_types(tiny_kg_client):
    cands = [Candidate(BIRTHPLACE, 0.8, (("link_score", 0.9),), shape="plain"),
             Candidate(BIRTHDATE, 0.3, shape="plain")]
    kinds = answer_kinds(tiny_kg_client, [execute(tiny_kg_client, c.sparql, 5.0) for c in cands], 5.0)
    rows = features("Where was Albert Einstein born?", "en", "place", cands, kinds, [0.9, 0.2])
    assert rows[0]["atype_fit"] == 1.0 and rows[0]["atype_mismatch"] == 0.0
    assert rows[1]["atype_fit"] == 0.0 and rows[1]["atype_mismatch"] == 1.0
    assert rows[0]["backend_margin"] == pytest.approx(0.5) and rows[1]["backend_gap_best"] == pytest.approx(0.5)
    assert rows[0]["v_margin"] == pytest.approx(0.7) and rows[1]["v_rank"] == 1.0
    assert rows[0]["link_score"] == 0.9 and rows[0]["has_features"] == 1.0 and rows[1]["has_features"] == 0.0
    assert rows[0]["qtype_place"] == 1.0 and rows[0]["lang_en"] == 1.0 and rows[0]["shape_plain"] == 1.0


def test_evidence_reads_candidates_as_the_pipeline_does(tiny_kg_client):
    # the records the gate is calibrated on score a German question's candidates by their best
    # reading, German or English, a complex one among the first too (COMPLEX_IN_ENGLISH)
    ask = "ASK { wd:Q937 wdt:P19 wd:Q3012 }"
    scorer = PrefersEnglish()
    reader = EvidenceReader(tiny_kg_client, None, scorer=scorer,
                            verbalize=Verbalize(lambda sparql, lang: f"{lang}|{sparql}"))
    candidates = [Candidate(BIRTHPLACE, 0.9), Candidate(ask, 0.8, shape="ask")]
    ev = reader.evidence("Wo wurde Einstein geboren?", "de", candidates)
    assert ev.validator_scores == pytest.approx((0.95, 0.95))
    assert [v.split("|")[0] for v in scorer.seen] == ["de", "en", "de", "en"]
    assert [v.split("|")[0] for v in ev.verbalizations] == ["de", "de"]  # the explanation's reading
    scorer.seen.clear()
    reader.evidence("Where was Einstein born?", "en", [Candidate(BIRTHPLACE, 0.9)])
    assert len(scorer.seen) == 1



class _KeepsWording(Verbalize):
    """Records the question's wordings it is given."""

    def __init__(self) -> None:
        super().__init__(lambda sparql, lang: f"{lang}|{sparql}")
        self.worded: list[dict[str, str]] = []

    def readings(self, sparqls, lang, links=(), worded=()):
        self.worded = [dict(w) for w in worded]
        return super().readings(sparqls, lang, links, worded)


def test_evidence_says_a_plain_reading_in_the_questions_own_words(tiny_kg_client):
    # as the pipeline does (qa.verbalize.question_wording): the gate is fitted on the scores it sees
    verbalize = _KeepsWording()
    reader = EvidenceReader(tiny_kg_client, None, scorer=PrefersEnglish(), verbalize=verbalize)
    died = Candidate(BIRTHPLACE, 0.9, shape="plain", properties=("P19",), explains=((1, 2, "property"),))
    reader.evidence("wo starb einstein", "de", [died])
    assert verbalize.worded == [{"P19": "starb"}]
