"""Language detection: script rules, the cue table and the statistical detectors."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from qa.reading.detect import SEED_LANGUAGES, SUPPORTED_LANGUAGES, detect_language, release_models, script_language

WRITTEN = Path(__file__).resolve().parents[3] / "benchmarks" / "data" / "short_questions.json"
"""The seed languages' written short questions (also read by benchmarks/language_detection.py --written)."""

# Hand-written short questions (not from the bench), several per language.
QUESTIONS: dict[str, list[str]] = {
    "en": ["Who wrote Hamlet?", "Where was Marie Curie born?", "How tall is the Eiffel Tower?",
           "When did Tolstoy die?", "Name a river in Spain.",
           # names of another language, which both detectors read as that language
           "Was Albert Einstein born in Ulm?", "Who is Jürgen Klopp?", "When was Ludwig van Beethoven born?",
           "Did Johann Wolfgang von Goethe write Faust?"],
    "de": ["Wer hat Faust geschrieben?", "Wo wurde Goethe geboren?", "Wie hoch ist die Zugspitze?",
           "Welche Stadt ist die Hauptstadt von Italien?", "Wann starb Beethoven?", "Wie alt ist Tom Cruise?",
           "Wer spielte in Titanic?", "Wurde Chris Froome 1985 geboren?"],
    "fr": ["Qui a écrit Les Misérables ?", "Où est né Victor Hugo ?", "Quelle est la capitale du Portugal ?",
           "Combien d'habitants a Lyon ?", "Quand est mort Napoléon ?"],
    "es": ["¿Quién escribió Don Quijote?", "¿Dónde nació Picasso?", "¿Cuál es la capital de Perú?",
           "¿Cuántos habitantes tiene Madrid?", "¿Cuándo murió Cervantes?"],
    "it": ["Chi ha scritto la Divina Commedia?", "Dove è nato Leonardo da Vinci?",
           "Qual è la capitale della Germania?", "Quanti abitanti ha Milano?", "Quando è morto Verdi?"],
    "pt": ["Quem escreveu Os Lusíadas?", "Onde nasceu Fernando Pessoa?", "Qual é a capital do Brasil?",
           "Quantos habitantes tem Lisboa?", "Quando morreu Camões?"],
    "ru": ["Кто написал «Войну и мир»?", "Где родился Пушкин?", "Какая столица Германии?",
           "Сколько жителей в Москве?", "Когда умер Толстой?"],
    "uk": ["Хто написав «Кобзар»?", "Де народився Шевченко?", "Яка столиця Німеччини?",
           "Скільки жителів у Києві?", "Коли помер Франко?"],
    "zh": ["谁写了红楼梦？", "鲁迅出生在哪里？", "德国的首都是什么？", "北京有多少人口？", "孔子是什么时候去世的？"],
    "ja": ["源氏物語を書いたのは誰ですか？", "夏目漱石はどこで生まれましたか？", "ドイツの首都はどこですか？",
           "東京の人口は？", "黒澤明はいつ亡くなりましたか？"],
}


@pytest.mark.parametrize("lang", sorted(QUESTIONS))
def test_short_questions_in_every_supported_language(lang: str) -> None:
    guesses = [detect_language(q) for q in QUESTIONS[lang]]
    assert guesses == [lang] * len(guesses)


def test_written_seed_language_questions_are_detected_at_97_percent_each() -> None:
    """be, lt, hy, ba, ar, hi, bn, am, nl (plus ru, uk: be must be told apart from them)."""
    by_lang: dict[str, Counter[str]] = {}
    written = json.loads(WRITTEN.read_text(encoding="utf-8"))
    for lang, questions in written.items():
        for text in questions if not lang.startswith("_") else ():
            by_lang.setdefault(lang, Counter())[detect_language(text)] += 1
    assert set(SEED_LANGUAGES) <= set(by_lang) <= set(SUPPORTED_LANGUAGES)
    low = {lang: dict(guesses) for lang, guesses in by_lang.items() if guesses[lang] / guesses.total() < 0.97}
    assert not low, f"below 97%: {low}"


def test_belarusian_is_told_apart_from_ukrainian_and_russian() -> None:
    assert detect_language("Дзе нарадзіўся Янка Купала?") == "be"
    assert detect_language("Якая вышыня Эверэста?") == "be"
    assert detect_language("Яка висота Евересту?") == "uk"
    assert detect_language("Какая высота Эвереста?") == "ru"
    assert detect_language("Кто такой Эйнштейн?") == "ru"
    assert detect_language("Эйнштейн ҡайҙа тыуған?") == "ba"


def test_script_languages_outside_the_ui_set() -> None:
    assert detect_language("أين ولد ألبرت أينشتاين؟") == "ar"
    assert detect_language("अल्बर्ट आइंस्टीन का जन्म कहाँ हुआ था?") == "hi"
    assert detect_language("아인슈타인은 어디에서 태어났습니까?") == "ko"


def test_kana_beats_han_and_ukrainian_letters_beat_russian() -> None:
    assert script_language("東京はどこ") == "ja"
    assert script_language("東京在哪里") == "zh"
    assert script_language("Де знаходиться Київ?") == "uk"
    assert script_language("Где находится Киев?") == "ru"
    assert script_language("Where is Kyiv?") is None


@pytest.mark.parametrize("text", ["", "   ", "1879?", "?!", "Q42"])
def test_no_evidence_falls_back_to_english(text: str) -> None:
    assert detect_language(text) == "en"


def test_detection_is_deterministic() -> None:
    text = "Name a composer."
    assert len({detect_language(text) for _ in range(5)}) == 1


def test_released_models_load_again_with_the_same_results() -> None:
    """``kgqa ask`` frees the language models before the cross-encoder loads; a later
    detection loads them again and decides exactly as before."""
    texts = [text for lang in ("en", "de", "nl", "ru", "uk") for text in QUESTIONS.get(lang, [])]
    texts += ["Wurde Chris Froome 1985 geboren?", "Хто што дзе калі?"]
    before = [detect_language(text) for text in texts]
    release_models()
    assert [detect_language(text) for text in texts] == before
    release_models()
    release_models()  # nothing loaded: nothing to do
    assert detect_language(texts[0]) == before[0]


@pytest.mark.slow
def test_accuracy_on_bench_strings_is_at_least_97_percent(bench_dir) -> None:
    """The issue's target, on the multilingual bench strings (Mintaka: 9 languages, RuBQ ru)."""
    total: Counter[str] = Counter()
    correct: Counter[str] = Counter()
    for name in ("mintaka.json", "rubq1.json"):
        data = json.loads((bench_dir / name).read_text(encoding="utf-8"))
        for question in data["questions"]:
            for entry in question["question"]:
                lang = entry["language"]
                total[lang] += 1
                correct[lang] += detect_language(entry["string"]) == lang
    measured = {lang: correct[lang] / total[lang] for lang in total if lang in SUPPORTED_LANGUAGES}
    assert set(measured) >= {"en", "de", "fr", "es", "it", "pt", "ja", "ru"}
    low = {lang: round(acc, 3) for lang, acc in measured.items() if acc < 0.97}
    assert not low, f"below 97%: {low}"


def test_names_are_set_aside_when_enough_other_words_remain() -> None:
    from qa.reading.detect import without_names

    assert without_names("Was Albert Einstein born in Ulm?").split() == ["Was", "born", "in", "?"]
    assert without_names("Wo wurde Albert Einstein geboren?").split() == ["Wo", "wurde", "geboren?"]
    assert without_names("Is Zürich in Switzerland?") == "Is Zürich in Switzerland?"  # "Is in": too little left


def test_the_detectors_run_only_while_they_can_change_the_best_language() -> None:
    """The cues and langdetect settle most questions; lingua runs for the close calls only,
    and the best language is always the one every signal together gives."""
    from qa.reading.detect import LATIN_LANGUAGES, _lingua, language_scores, without_names

    written = json.loads(WRITTEN.read_text(encoding="utf-8"))
    texts = [t for lang in LATIN_LANGUAGES for t in [*QUESTIONS.get(lang, []), *written.get(lang, [])]]
    texts += ["Name an entrepreneur.", "Wie was de vader van Marie Curie?", "is nicolaus olahus male or female"]
    partial = 0
    for text in texts:
        text = without_names(text)
        quick, full = language_scores(text), language_scores(text, complete=True)
        assert max(LATIN_LANGUAGES, key=lambda c: (quick[c], c == "en")) == max(
            LATIN_LANGUAGES, key=lambda c: (full[c], c == "en")), text
        partial += quick != full
    assert partial > len(texts) // 2  # most are settled before lingua
    release_models()
    assert detect_language("Where was Albert Einstein born?") == "en" and not _lingua  # settled without lingua's models


@pytest.mark.parametrize("text", ["donde nacio dali", "donde murio eva peron", "cuando nacio mozart",
                                  "quien escribio don quijote"])
def test_spanish_typed_without_accents_is_spanish(text: str) -> None:
    """« nació », « dónde », « quién » typed without their accents still mark Spanish, where no
    other language writes them so (« donde nacio dali » was read as Portuguese)."""
    assert detect_language(text) == "es"


def test_a_folded_cue_word_marks_one_language_only() -> None:
    from qa.reading.detect import CUE_FOLDED

    assert {"donde", "nacio", "murio"} <= CUE_FOLDED["es"]
    assert not any(word in CUE_FOLDED[lang] for lang in CUE_FOLDED for word in ("que", "esta", "como", "ou"))


@pytest.mark.parametrize(("text", "lang"), [("indira gandhi son", "en"), ("nehru son", "en"),
                                            ("cuales son los rios de espana", "es"), ("qui est son pere", "fr")])
def test_son_is_shared_by_spanish_french_and_english(text: str, lang: str) -> None:
    """« son » is Spanish "are", French "his" and the English noun: weak evidence for each, not a
    Spanish cue ("indira gandhi son" was read as Spanish)."""
    assert detect_language(text) == lang


@pytest.mark.parametrize(("text", "lang"), [("einstein wife", "en"), ("einstein birthplace", "en"),
                                            ("einstein geburtsort", "de"), ("frankreich hauptstadt", "de")])
def test_a_bare_noun_phrase_is_told_by_its_property_word(text: str, lang: str) -> None:
    """A question without function words ("einstein wife": the detectors hear German in the
    name) is told by a word only one language's lexicon names a property with."""
    assert detect_language(text) == lang


def test_property_words_count_only_without_function_words() -> None:
    from qa.reading.detect import _cue_scores, phrase_cues

    assert "wife" in phrase_cues()["en"] and "wife" not in phrase_cues()["de"]
    assert not any("capital" in words for words in phrase_cues().values())  # several languages' word
    assert _cue_scores("einstein wife")[0]["en"] > 0
    with_cues = _cue_scores("wer ist die wife von einstein")[0]  # « wer », « ist »: the cue words decide
    assert with_cues == _cue_scores("wer ist die frau von einstein")[0]
