"""Templated one-hop questions in every supported language: training data that teaches
the validator to judge questions written outside English.

The dev benchmarks are mostly English, so the validator learned to match an English
question to an English verbalization; a German, Chinese or Japanese question with the
right query ranked first still scored low (issue 13).  This module writes simple
questions ("Wo wurde {s} geboren?", "{s}的首都是哪里？") from a per-language template
table (``onehop_templates.json``: property -> language -> templates) over facts of the
KG, naming each subject by its label or alias in the question's language
(:func:`training.synthetic.name_in`: Latin-script languages may use the English label,
the others need a name in their own script).

The questions go through the real backend like every other training question
(:func:`training.data.collect`); a candidate counts as correct when its answer matches
the gold query's and it names the gold subject and property, so the hard negatives come
for free: the same subject with another property, and the same property with a namesake
subject, as the backend ranks them.

Splits are by **subject** (:func:`training.synthetic.entity_split`), as for the complex
templates, and every entity a written test set in ``tests/data`` mentions is left out.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from kg.client import KG
from training.synthetic import DATASET, Facts, Synthetic, entity_names, entity_split, name_in

TEMPLATES_PATH = Path(__file__).with_name("onehop_templates.json")
TEST_DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
POOL = 400  # subjects drawn per property and split before names are looked up
MAX_OBJECTS = 5  # subjects with more values than this make list questions: left out


def load_templates(path: Path = TEMPLATES_PATH) -> dict[str, dict[str, list[str]]]:
    """``{pid: {lang: templates}}``; each template has one ``{s}`` slot for the subject."""
    table: dict[str, dict[str, list[str]]] = json.loads(path.read_text(encoding="utf-8"))
    for pid, by_lang in table.items():
        for lang, templates in by_lang.items():
            bad = [t for t in templates if t.count("{s}") != 1]
            if bad:
                raise ValueError(f"{pid}/{lang}: a template needs exactly one {{s}} slot: {bad}")
    return table


def entities_in_test_sets(data_dir: Path = TEST_DATA) -> set[str]:
    """Every QID any written test set mentions (never used in templated questions)."""
    found: set[str] = set()
    for path in sorted(data_dir.glob("*.json")):
        found |= set(re.findall(r"\bQ[1-9]\d*\b", path.read_text(encoding="utf-8")))
    return found


def load_subjects(kg: KG, pids: Iterable[str], exclude: Iterable[str] = (), *, seed: int = 13,
                  timeout_s: float = 60.0) -> dict[str, dict[str, list[str]]]:
    """``{pid: {split: subjects}}``: up to :data:`POOL` subjects per property and split with
    at most :data:`MAX_OBJECTS` entity values, none of them (nor their values) excluded."""
    banned = set(exclude)
    rng = random.Random(seed)
    out: dict[str, dict[str, list[str]]] = {}
    for pid in pids:
        rows = kg.query(f"SELECT ?s ?o WHERE {{ ?s wdt:{pid} ?o }}", timeout_s=timeout_s, max_rows=400_000).rows
        values: dict[str, set[str]] = {}
        for r in rows:
            s, o = r["s"].value.rsplit("/", 1)[-1], r["o"].value.rsplit("/", 1)[-1]
            if s.startswith("Q"):
                values.setdefault(s, set()).add(o)
        kept = sorted(s for s, os in values.items() if len(os) <= MAX_OBJECTS and s not in banned and not os & banned)
        by_split: dict[str, list[str]] = {}
        for s in kept:
            by_split.setdefault(entity_split(s), []).append(s)
        out[pid] = {split: rng.sample(group, min(POOL, len(group))) for split, group in by_split.items()}
    return out


def generate(templates: Mapping[str, Mapping[str, Sequence[str]]], subjects: Mapping[str, Mapping[str, list[str]]],
             facts: Facts, *, per_split: Mapping[str, int], seed: int = 13) -> list[Synthetic]:
    """For every property, language and template: ``per_split[split]`` questions about
    distinct subjects of that split that have a name in the language.  Each template draws
    from a random stream of its own (seeded by ``seed`` and its place in the table), so
    adding or removing a template leaves every other template's questions as they were and a
    retraining on the new table differs from the old one only by that template's questions."""
    out: list[Synthetic] = []
    for pid, by_lang in sorted(templates.items()):
        for split, n in sorted(per_split.items()):
            for lang, lang_templates in sorted(by_lang.items()):
                for t, template in enumerate(lang_templates):
                    rng = random.Random(f"{seed}:{pid}:{split}:{lang}:{t}")
                    pool = sorted(subjects.get(pid, {}).get(split, ()))
                    rng.shuffle(pool)
                    made = 0
                    for s in pool:
                        name = name_in(facts, s, lang, rng)
                        if name is None or "{" in name:
                            continue
                        gold = f"SELECT DISTINCT ?answer WHERE {{ wd:{s} wdt:{pid} ?answer }}"
                        out.append(Synthetic(f"{DATASET}:onehop-{pid}:{s}:{lang}{t}", lang,
                                             template.format(s=name), "onehop", gold, split))
                        made += 1
                        if made >= n:
                            break
    return out


def build(kg: KG, *, per_split: Mapping[str, int], seed: int = 13, exclude: Iterable[str] | None = None,
          templates: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
          timeout_s: float = 60.0) -> list[Synthetic]:
    """The one-hop questions over ``kg`` (subjects from the KG, names from its labels)."""
    table = templates if templates is not None else load_templates()
    banned = set(entities_in_test_sets() if exclude is None else exclude)
    subjects = load_subjects(kg, table, banned, seed=seed, timeout_s=timeout_s)
    qids = {s for by_split in subjects.values() for group in by_split.values() for s in group}
    facts = Facts({}, {}, {}, {}, entity_names(kg, qids, timeout_s))
    return generate(table, subjects, facts, per_split=per_split, seed=seed)
