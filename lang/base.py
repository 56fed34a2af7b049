"""What one language holds (:class:`Language`); each ``lang/xx/`` package builds one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from babel import Locale


def words(text: str) -> frozenset[str]:
    """The words of a space-separated list, as a set (how the ``lang/<code>/`` modules write theirs)."""
    return frozenset(text.split())


# ---- house: words and rules of the question's shape, numbers, courtesies, detection cues ----
@dataclass(frozen=True)
class ShapeWords:
    """Words that mark a question's shape, in one language (``lang/<code>/shape_words.py``).

    A word ending in ``*`` is a stem (any ending); ``*`` inside a word matches any letters
    ("am *sten").  :mod:`qa.reading.words` reads them per language; a language without
    a kind of word falls back to English for it where the reader says so."""

    count: tuple[str, ...] = ()
    """"how many"."""
    superlative: tuple[str, ...] = ()
    """"the most", "largest": a superlative question."""
    ordinal: tuple[str, ...] = ()
    """"first", "second": an ordinal asks for an order the KG rarely holds."""
    ordinal_form: str = ""
    """A regular expression for ordinals past :attr:`ordinal` ("fortieth", « cuadragésimo »)."""
    wh: tuple[str, ...] = ()
    """Question words: a question that has one is no yes/no question."""
    alternative: tuple[str, ...] = ()
    """"or" between two choices."""
    question_particles: tuple[str, ...] = ()
    """Alternative words that also end a question without offering a choice (Japanese か)."""
    lists: tuple[str, ...] = ()
    """"or", "and" between the members of a list."""
    than: tuple[str, ...] = ()
    """"than" of a comparison."""
    amount: tuple[str, ...] = ()
    """Words for an amount of things ("the largest number of lakes")."""
    yes_no_openers: tuple[str, ...] = ()
    """Words that open a yes/no question ("is", "was", « est-ce que »)."""
    yes_no_anywhere: tuple[str, ...] = ()
    """Marks of a yes/no question anywhere in it (« ли », 吗)."""
    yes_no_declarative: bool = False
    """Whether a statement with a question mark asks yes or no (« ¿Rilke nació en Viena? »,
    « kareem abdul jabbar nacio en los angeles? »): without a question word or a listing word,
    with one of :attr:`yes_no_openers` anywhere in it (a verb: a name and a noun with a
    question mark, « ¿capital de francia? », asks for the capital)."""
    more: tuple[str, ...] = ()
    """Words of a descending order ("more", "highest")."""
    less: tuple[str, ...] = ()
    """Words of an ascending order ("less", "lowest")."""
    gradables: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False, hash=False)
    """Gradable words by the name of their reading in :data:`qa.reading.words.GRADABLES` ("older")."""
    literal_properties: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False, hash=False)
    """Words of a literal property by its id ("P569": "born", "birth*")."""
    listing: tuple[str, ...] = ()
    """Words that ask for a list of things ("which", "list", "give me all"): a set with a class and conditions."""
    both: tuple[str, ...] = ()
    """Words that ask for what two things share ("both", "together", "in common")."""
    both_and: tuple[tuple[str, str], ...] = ()
    """Correlative pairs "both A and B" (« sowohl A als auch B », « sia A che B »): they ask
    for what two things share, and their second word, where it is also a "than"
    (:attr:`than`), compares nothing."""
    alive: tuple[str, ...] = ()
    """Words that ask whether a person is still alive ("still alive", "living")."""
    dead: tuple[str, ...] = ()
    """Words that ask, in a yes/no question, whether a person has died ("dead", "deceased")."""
    negation: tuple[str, ...] = ()
    """Words that exclude ("not", "without"): a set minus a condition."""
    contrast: tuple[str, ...] = ()
    """Words that end an excluding clause and go on with what is kept ("which countries do not
    border Germany *but* have German as an official language")."""
    relative: tuple[str, ...] = ()
    """Relative words that open a clause about the members of a set ("the countries bordering
    France *where* French is not an official language"): a thing named between one and the
    negation is what is excluded."""
    asking: tuple[str, ...] = ()
    """Words that ask for a thing ("which", "who", "what"): a short chunk of a list that holds
    one is no unlinked list item (:data:`qa.reading.words.QUESTION_WORDS`, every language's)."""
    comparison_mark: str = ""
    """A mark of comparison followed by what is compared (Chinese and Japanese 比, "than")."""
    more_after_mark: str = ""
    """Characters after :attr:`comparison_mark` that compare descending (多, 大, 高: "more")."""
    less_after_mark: str = ""
    """Characters after :attr:`comparison_mark` that compare ascending (少, 小, 低: "less")."""
    direction_is_superlative: bool = False
    """Whether a direction word without "than" or a choice makes a superlative, as the
    comparative's own words do in the Romance languages (« il fiume più lungo »)."""
# ---- end of house ----


@dataclass(frozen=True)
class NumberWords:
    """Words of numbers and units in one language (``lang/<code>/numbers.py``; read by
    :mod:`qa.reading.numbers`).  Words are lower case, as the question's normalized text."""

    scales: dict[str, Decimal] = field(default_factory=dict, compare=False, hash=False)
    """Scale words and their factor ("million": 10⁶, « млрд »: 10⁹, 万: 10⁴)."""
    units: dict[str, tuple[str, Decimal]] = field(default_factory=dict, compare=False, hash=False)
    """Unit words -> (SI unit, factor) ("kilometres": ("m", 1000)); the SI symbols themselves
    ("km", "kg") belong to no language (:mod:`qa.reading.numbers`)."""
    year_words: tuple[str, ...] = ()
    """Words that mark a number before them as a year ("year", « году », 年)."""
    one_words: tuple[str, ...] = ()
    """Words for the number one before a scale word ("a million", « eine Million »)."""
    one_scale_words: tuple[str, ...] = ()
    """The scale words (their beginnings) that :attr:`one_words` are read before."""
    decade_endings: tuple[str, ...] = ()
    """Regular expressions of the ending that makes a year ending in 0 a decade ("1990s",
    « 1990-х », 1990年代)."""
    decimal_comma: bool = True
    """Whether a decimal is written with a comma ("1,9"; English, Chinese and Japanese: a point)."""


@dataclass(frozen=True)
class Courtesies:
    """What people type around a question in a chat, in one language
    (``lang/<code>/courtesies.py``; :func:`qa.reading.detect.strip_courtesies` sets them aside).
    Phrases are lower case; an apostrophe also matches "’"."""

    greetings: tuple[str, ...] = ()
    """Greetings before a question, followed by punctuation ("hi!", « Hallo, »)."""
    requests: tuple[str, ...] = ()
    """Requests before a question ("can you tell me", « Nenne mir », « 请问 »)."""
    please: tuple[str, ...] = ()
    """"please" after a question, behind a comma ("…, bitte?")."""
    thanks: tuple[str, ...] = ()
    """Thanks after the question's own end ("…? Thanks!")."""
    request_after: str = ""
    """A regular expression of a request that closes the question it asks for (Japanese
    « …の出生地を教えてください »; empty: none)."""


def request_questions(verbs: Sequence[str], articles: Mapping[str, str], bare: Sequence[str] = ()
                      ) -> tuple[tuple[str, str], ...]:
    """:attr:`Language.request_questions` of a language whose requests open with a verb
    (``verbs``: "dame", "dime") and an article (``articles``: each with the question it
    opens, ``{}`` where the rest goes); ``bare``: articles that open a request alone, once a
    courtesy has taken its verb away (« Dime todos los países … » reads « todos los países … »)."""
    pairs = [(f"{verb} {article}", asked) for verb in verbs for article, asked in articles.items()]
    return tuple(pairs + [(article, articles[article]) for article in bare])


@dataclass(frozen=True)
class Example:
    """A question the product answers (shown under the question box) and the Wikidata ids
    its answer must be (``tests/chat/test_examples.py`` asks it through the real pipeline)."""

    question: str
    expected: frozenset[str]

    @classmethod
    def of(cls, question: str, *ids: str) -> Example:
        """``Example.of("Where was Albert Einstein born?", "Q3012")``."""
        return cls(question, frozenset(ids))


@dataclass(frozen=True)
class Pronouns:
    """One language's words that tie a follow-up question to the previous turn
    (``lang/<code>/pronouns.py``; read by :mod:`qa.context`).  Words are lower case.

    ``person``: personal pronouns of a person (he, him, she, her; er, ihn; он, его …), replaced
    in place by the name they stand for.  ``thing``: the same of a thing (it; es; оно …).
    ``place``: "there" (dort, там …), replaced by the name of the place.  ``possessive``:
    possessive determiners (his, her, its; sein, ihre; его, её; sa, son …): "his wife" is read
    "wife <of> Mozart" (``of``: the word that joins a noun to its owner, empty where the owner
    simply follows, as Russian's genitive).  ``openers``: phrases that open a follow-up and
    say nothing of their own ("and", "what about"; «und», «а»), set aside.  ``joiners``:
    conjunctions that join two questions ("and"); ``second_starts``: words a second question
    starts with after one ("when", "where"; «wann», «когда»).  ``attached``: languages written
    without spaces (zh, ja): pronouns are found inside the text, not as words."""

    person: frozenset[str] = frozenset()
    thing: frozenset[str] = frozenset()
    place: frozenset[str] = frozenset()
    possessive: frozenset[str] = frozenset()
    of: str = ""
    of_pronouns: frozenset[str] = frozenset()
    """Words that mean "of him/her" after a noun (pt ``dele``): read "<of> Mozart"."""
    owner_after: bool = False
    """The owner follows the noun with no word between (ru «жена Моцарта»): "his wife" is read "wife Mozart"."""
    openers: tuple[str, ...] = ()
    joiners: frozenset[str] = frozenset()
    second_starts: frozenset[str] = frozenset()
    who: str = ""
    """A question about a person around a noun phrase ("Who is the {}?"): "and his wife?" is
    asked "Who is the wife of Mozart?" when the answers are people (empty: asked as it is)."""
    what: str = ""
    """The same about a thing ("What is the {}?")."""
    articles: tuple[tuple[str, str], ...] = ()
    """Possessive -> the article its noun takes once the owner follows it (fr ``sa`` -> ``la``)."""
    fixed: tuple[str, ...] = ()
    """Phrases whose pronoun refers to nothing ("is there", «gibt es», « il y a »)."""
    attached: bool = False
    not_pronouns: tuple[str, ...] = ()
    """Words written with a pronoun inside them that are no pronoun (zh 其他 "other")."""

    def __bool__(self) -> bool:
        return bool(self.person or self.thing or self.place or self.possessive)


@dataclass(frozen=True)
class KinSpelling:
    """A word of one language respelled in a kindred language of the same script whose names
    the KG holds (``lang/<code>/kin.py``): letter by letter (:attr:`letters`), a word's first
    letter by :attr:`initial` where it differs there (Ukrainian « е » at a word's start is
    Russian « э »)."""

    lang: str
    """The kindred language's code: the inflections of a respelled word are read in it."""
    letters: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    initial: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    def spell(self, word: str) -> str:
        """``word`` (lower case) as the kindred language writes it."""
        if not word:
            return word
        head = self.initial.get(word[0], self.letters.get(word[0], word[0]))
        return head + "".join(self.letters.get(ch, ch) for ch in word[1:])


@dataclass(frozen=True)
class Language:
    """One supported language's word lists and rules, as spaCy's ``lang/xx/`` keeps them.

    Every field is data of this language only; code elsewhere asks :func:`lang.get` for it
    instead of keeping its own table keyed by language codes.  Fields a language does not
    fill stay empty (the code that reads them then has no evidence in that language)."""

    code: str
    seed: bool = False
    """A language of the seed challenges (QALD-9-plus, QALD-10, QALD-3) the KG has few names in."""
    stop_words: frozenset[str] = frozenset()
    """Function words: a word of the question that needs no explaining."""
    examples: tuple[Example, ...] = ()
    """Questions in this language that the product answers (``lang/<code>/examples.py``)."""
    question_words: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    """Question word or phrase -> the kind of answer it asks for (``person``, ``place``, ``number`` …)."""
    stranded_prepositions: tuple[str, ...] = ()
    """Prepositions a question may end with, away from the question word they govern ("what
    did she go to college *for*?"): such a word ties the question word to a relation, so a
    reading explains it only by a property phrase that holds it ("known for", "die of";
    :func:`qa.decisions.coverage.stranded`; empty: the language strands none)."""
    nouns_capitalized: bool = False
    """Whether the language writes every noun with a capital (German): one capitalized word
    is then no evidence of a name (:func:`qa.decisions.reply.unknown_name`)."""
    # ---- script and morphology ----
    script: str = "latin"
    """The script its questions and names are written in, a :data:`core.text.LABEL_SCRIPTS`
    key (``latin``, ``cyrillic``, ``cjk`` …): the aliases a reading prefers, the languages a
    name in that script is looked up in, and which detector reads its questions."""
    own_scripts: tuple[str, ...] = ()
    """Unicode scripts that name this language on their own ("Hiragana", "Katakana":
    Japanese); detection checks them before any other evidence (:mod:`qa.reading.detect`)."""
    stemmer: str = ""
    """Its Snowball stemmer ("english"; :func:`lang.morphology.stem`; empty: none)."""
    lemmatizer: str = ""
    """Its pymorphy3 dictionary ("uk"), for a language without a stemmer whose words a
    dictionary lemmatizes (:func:`lang.morphology.lemmas`; empty: none)."""
    cased_names: bool = False
    """Whether every word of a name changes by grammatical case (« Новой Зеландии »): the
    linker then matches a name's words by their inflection prefix (:mod:`backends.local.linking`)."""
    name_ending: int = 0
    """The most letters a name's word carries beyond its stem when it changes by case (Russian
    « -ого », « -ями »: 3); a word its stemmer cuts more from is another part of speech, a verb
    such as « родился » (stem « род »), never another form of a name (:func:`lang.morphology.same_word`;
    0: no limit)."""
    typed_letters: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    """Its letters as people type them on a keyboard without them (German « ö » as "oe", « ß »
    as "ss"): :mod:`qa.accents` puts back the letter in a word its lists know with it
    (« gehoert » -> « gehört »; empty: none)."""
    kin_spelling: KinSpelling | None = None
    """How its words are spelled in a kindred language the KG names far more things in
    (Ukrainian « іван франко » as Russian « иван франко »): the linker also looks the
    question's names up so spelled (:mod:`backends.local.linking`; ``None``: none)."""
    # ---- chat: the conversation (follow-up questions, lang/<code>/pronouns.py) ----
    pronouns: Pronouns = field(default_factory=lambda: Pronouns())
    """Words that refer back to the previous turn in a follow-up question (:class:`Pronouns`)."""
    # ---- detection: what tells its questions from those of the other languages of its script ----
    cue_letters: str = ""
    """Letters that mark it among the languages of its script ("ßäöü", « іїєґ »; :mod:`qa.reading.detect`)."""
    cue_spelling: str = ""
    """A regular expression of spellings that mark it (French elision « qu'il », Belarusian
    « дз »; :mod:`qa.reading.detect`; empty: none)."""
    courtesies: Courtesies = Courtesies()
    """Greetings, requests and thanks around a question (:class:`Courtesies`)."""
    titles: tuple[str, ...] = ()
    """Honorifics a person's name is said with ("Dr", « 博士 », « さん »; lower case, without a
    dot): the validator also reads the question without them (:func:`core.text.without_titles`)."""
    request_questions: tuple[tuple[str, str], ...] = ()
    """A request for answers and the question it stands for: the request's opening words
    (lower case) and the question, ``{}`` where the rest of the request goes ("dame todas
    las", « ¿Cuáles son las {}? »).  The validator also reads a request so put
    (:func:`core.text.as_question`; empty: none)."""
    year_questions: tuple[tuple[str, str], ...] = ()
    """A question for a year and the same question asked with "when": its opening words (lower
    case) and the question, ``{}`` where the rest goes ("in what year", "When {}?").  The
    validator also reads the question so put (:func:`core.text.as_question`): it judged a
    reading of a date by "when" ("In what year was Google founded?" with « Google inception
    ?answer »: 0.0004; "When was Google founded?": 0.99; empty: none)."""
    typing_word: str = ""
    """How the language says that a thing is one of a class (« es », « est un »): a reading of
    ``?answer wdt:P31 <class>`` is also said so (:func:`qa.verbalize.readings_with_english`;
    the cross-encoder read « ?answer director James Cameron. ?answer instance of película »
    at 0.14 and « … ?answer es película » at 0.98; empty: said by the property's name only, as in
    English, where « ?answer is a city » echoed "what is a city in belgium?", which asks for one)."""
    class_word: str = ""
    """How a reading says that every answer is of the class the question names, where
    :attr:`typing_word` is empty (:func:`qa.verbalize.class_readings`): English says "instance
    of", which its validator reads well ("Which films did Humphrey Bogart appear in?" against «
    ?answer cast member Humphrey Bogart »: 0.004; with « ?answer instance of films »: 0.88)."""
    # ---- house ----
    shape_words: ShapeWords = ShapeWords()
    """Words that mark a question's shape (:class:`ShapeWords`)."""
    complex_templates: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False, hash=False)
    """Templates of complex questions by shape (training data: :mod:`training.synthetic`)."""
    million: str = ""
    """How a number of millions is written ("{} million"; :mod:`training.synthetic`)."""
    cue_words: frozenset[str] = frozenset()
    """Words frequent in short questions of this language and rare in the others of its
    script: evidence for it when the question's language is detected (:mod:`qa.reading.detect`)."""
    label_fallbacks: tuple[str, ...] = ()
    """The languages a name may come from, in order, when the KG has none in this one
    (:data:`qa.label.LABEL_FALLBACKS`; empty: this one, then English)."""
    stress_accents: bool = False
    """Whether the language's spelling marks stress with an accent in every word, foreign
    names included (Spanish « Múnich », « Panamá », « Los Ángeles »): its accented spelling of
    a name always beats the copy without the accent (:func:`qa.label.best_alias`)."""
    foreign_spelling: str = ""
    """A regular expression of spellings the language never writes in a name of its own
    (Spanish « ph », or « y » between a consonant and a vowel: « Kioto », not "Kyoto"; a
    Japanese final « ヴ »): a name with one is a letter-for-letter copy of a foreign name and
    loses to one without (:func:`qa.label.best_alias`; empty: none)."""
    name_articles: tuple[str, ...] = ()
    """Articles a name may begin with (« Le Caire », « La Haya »; elided ones end in an
    apostrophe): a name without the article it is written with is clipped, and names are
    compared with each other without it (:func:`qa.label.best_alias`)."""
    name_letters: str = ""
    """The letters with diacritics the language writes, lower case (and, for a language not
    written in Latin letters, its whole alphabet): a name spelled with them is preferred to
    its copy without them (« Genève » to "Geneve"); one with a foreign mark (Tōkyō's macron
    in French) or letter (the pre-1918 « і » in Russian) is not (:func:`qa.label.best_alias`;
    empty: any letter counts)."""
    filter_words_before: tuple[tuple[tuple[str, ...], str, bool], ...] = ()
    """Words of a number filter placed before the number, each group with its comparison
    (``>``, ``<=``, ``year`` …) and whether it compares dates (:mod:`qa.reading.numbers`)."""
    filter_words_after: tuple[tuple[tuple[str, ...], str, bool], ...] = ()
    """The same, placed after the number ("or more", 以上)."""

    numbers: NumberWords = NumberWords()
    """Words of numbers and units (:class:`NumberWords`)."""

    demonym_endings: tuple[str, ...] = ()
    """Endings of a country's adjective (« irland|esa », « mexic|ana », « chil|ena »): such a
    word is read as the country whose CLDR name begins with what is left (:func:`kg.cldr.country_of_adjective`;
    « ¿Cuál es la capital irlandesa? » asks the capital of Ireland; empty: none)."""
    inflection_ending: str = ""
    """A regular expression for the inflectional ending a word of a property phrase may lose
    before it is matched as a prefix (:mod:`qa.reading.lexicon`; empty: none)."""

    @property
    def name(self) -> str:
        """The language's name in itself, from CLDR (Babel), as a menu shows it ("Deutsch", "Русский")."""
        own = Locale.parse(self.code).get_display_name(self.code) or self.code
        return own[:1].upper() + own[1:]
    # ---- end of house ----
