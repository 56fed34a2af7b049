"""Property matching (:mod:`backends.local.properties`): how the words of a question
outside a mention name a property."""

from __future__ import annotations

import pytest

from backends.local.generator import LocalBackend
from backends.local.properties import PropertyText, asked_words, prop_matches, rest
from core.text import tokenize
from kg.labels import LabelIndex
from qa.reading.lexicon import default_lexicon

EINSTEIN = "Q937"


@pytest.fixture
def props(index: LabelIndex) -> PropertyText:
    return PropertyText(index.property_labels(), default_lexicon())


def test_the_rest_of_a_question_leaves_out_the_spans_and_keeps_its_cjk_characters(props: PropertyText):
    tokens = tokenize("Where was Albert Einstein born?")
    assert rest(props, tokens, [(2, 4)]) == (["where", "was", "born"], "")
    words, cjk = rest(props, tokenize("爱因斯坦出生在哪里？"), ())
    assert cjk and cjk == "".join(words)


def test_property_matches_are_read_once_per_set_of_spans(props: PropertyText):
    tokens = tokenize("Where was Albert Einstein born?")
    cache: dict = {}
    first = prop_matches(props, tokens, "en", [(2, 4)], cache)
    assert first["P19"].words == frozenset({"born"}) and first["P19"].score > 0
    assert prop_matches(props, tokens, "en", [(2, 4)], cache) is first and list(cache) == [((2, 4),)]
    assert "P19" not in prop_matches(props, tokens, "en", [(4, 5)], cache)  # "born" inside the span


def test_the_words_that_say_what_is_asked_need_the_question_as_typed(props: PropertyText):
    tokens = tokenize("Albert Einstein Geburtsort")
    assert asked_words(props, tokens, ["Albert", "Einstein", "Geburtsort"], "de") == frozenset({2})
    assert asked_words(props, tokens, None, "de") == frozenset()  # no case to tell a name from a noun


def test_an_accented_lexicon_word_is_not_a_folded_function_word(backend: LocalBackend):
    """French « né » folds to « ne », a function word; as a lexicon word it still says
    'born' (P19), and the birthplace query comes first."""
    assert backend.props.form("né") == "né" and not backend.props.is_function("né")
    assert backend.props.is_function(backend.props.form("ne"))
    top = backend.ask("Où est né Albert Einstein ?", "fr")[0]
    assert (top.entities, top.properties) == ((EINSTEIN,), ("P19",))


def test_a_function_word_of_another_language_is_a_content_word_of_the_questions(backend: LocalBackend):
    """German « die » is an article, English "die" is the verb of "where did … die": in an
    English question it matches the place of death (P20); in a German one, and where the
    language has no list of its own, it stays a function word."""
    props = backend.props
    assert not props.is_function("die", "en") and props.is_function("die", "de") and props.is_function("die", "zh")
    assert props.is_function("did", "en") and props.is_function("where", "de")
    english = props.match(["where", "did", "albert", "einstein", "die"], "", "en")
    assert english["P20"].words == frozenset({"die"}) and english["P20"].same_lang == 1.0
    assert "P20" not in props.match(["where", "did", "albert", "einstein", "die"], "", "de")
    german = props.match(["wo", "ist", "die", "hauptstadt"], "", "de")
    assert "die" not in german["P36"].words


def test_a_function_word_typed_without_its_accents_is_one_in_its_own_language(backend: LocalBackend):
    """The matcher compares folded forms: Spanish « cuáles » is matched as "cuales", Russian
    « какой » as "какои".  Folded from a function word of the question's own language, the
    form is a function word there (and only there: "cuales" is no function word of German)."""
    props = backend.props
    assert props.form("cuáles") == "cuales" and props.is_function("cuales", "es")
    assert props.is_function(props.form("какой"), "ru") and props.is_function(props.form("quiénes"), "es")
    assert not props.is_function("cuales", "de")
def test_as_good_phrases_of_one_property_read_all_their_words(backend: LocalBackend):
    """« ¿Qué películas dirigió …? »: the director (P57) is said by « películas de » and by
    « dirigió », each as well as the other; the property reads both words, so neither is left
    unread beside the name.  A phrase of another property reads only its own word."""
    matches = backend.props.match(["que", "peliculas", "dirigio"], "", "es")
    assert matches["P57"].words == frozenset({"peliculas", "dirigio"})
    assert matches["P57"].chars == len("peliculas") + len("dirigio")
    assert matches["P161"].words == frozenset({"peliculas"})


def test_an_italian_elided_article_is_a_function_word():
    """« dell'Italia » tokenizes to "dell" + "italia": "dell" (di + l') is a function word,
    so Italia covers the question's content words as "la capitale della Francia" would."""
    from core.text import tokenize
    from lang.stopwords import is_stopword_in

    assert tokenize("Qual è la capitale dell'Italia?")[-2:] == ["dell", "italia"]
    assert all(is_stopword_in(w, "it") for w in ("dell", "nell", "sull", "dall", "dov", "cos"))
    assert not is_stopword_in("capitale", "it")


def test_dutch_question_words_and_auxiliaries_are_function_words(backend: LocalBackend):
    """« Welke films heeft Quentin Tarantino geregisseerd? »: « welke » and « heeft » ask and
    help, as German « welche » and « hat » do, so only « films » and « geregisseerd » are left
    for a reading to read.  (Dutch had no words of its own beside the maintained list, which
    the generator does not read.)"""
    props = backend.props
    assert all(props.is_function(props.form(w), "nl") for w in ("welke", "heeft", "wie", "waar", "hoeveel", "werd"))
    assert not any(props.is_function(props.form(w), "nl") for w in ("films", "geregisseerd", "hoofdstad"))


def test_a_property_matched_well_by_two_of_its_phrases_reads_the_words_of_both(backend: LocalBackend):
    """« in welches meer fliesst die elbe »: the mouth (P403) is said by « in welches meer » and
    by « fließt » (typed "fliesst"); the better phrase alone would leave the verb unread.  A
    weak match of another phrase (below :data:`UNION_SCORE`) adds nothing."""
    from backends.local.properties import UNION_SCORE

    props = backend.props
    tokens = [props.form(t) for t in ("in", "welches", "meer", "fliesst")]
    matched = props.match(tokens, "", "de")
    assert matched["P403"].score >= UNION_SCORE and {"meer", "fliesst"} <= matched["P403"].words
    assert matched["P403"].chars == sum(len(w) for w in matched["P403"].words)


def test_a_class_noun_is_read_only_by_a_propertys_best_phrases(backend: LocalBackend):
    """"what films did patrick swayze star in": « star in » says the cast best, and « films »,
    another phrase of it, is the class noun asked for; read by the cast as well, it would make
    a reading of every work he starred in read the whole question, over the films alone."""
    props = backend.props
    tokens = [props.form(t) for t in ("what", "films", "did", "star", "in")]
    assert props.match(tokens, "", "en", {"films"})["P161"].words == frozenset({"star"})
    assert "films" in props.match(tokens, "", "en")["P161"].words
