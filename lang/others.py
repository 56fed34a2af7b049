"""What the languages the chat does not speak look like, and the words several supported
languages share: the cross-language tables (each supported language's own are in its
``lang/<code>/`` package).  Code that reads them leaves out a language once it is
supported (a ``lang/<code>/`` package of its own)."""

from __future__ import annotations

from lang.base import words

OTHER_SCRIPTS: dict[str, tuple[str, ...]] = {
    "ko": ("Hangul",), "el": ("Greek",), "he": ("Hebrew",), "th": ("Thai",)}
"""Languages recognised by their script alone (Unicode script names); the chat answers them
with English UI text (:mod:`qa.reading.detect`)."""

SHARED_WEAK: dict[str, tuple[str, ...]] = {
    "la": ("fr", "es", "it"), "de": ("fr", "es", "pt"), "que": ("fr", "es", "pt"), "se": ("es", "it", "pt"),
    "e": ("it", "pt"), "a": ("fr", "it", "pt", "en"), "in": ("en", "de", "it"), "en": ("fr", "es"), "y": ("es",),
    "le": ("fr", "it"), "son": ("es", "fr", "en")}
"""Words shared by two or more Latin-script languages: weak evidence for each of them, which
still helps against the others (:mod:`qa.reading.detect`).  « son » is Spanish "are", French
"his" and the English noun ("indira gandhi son" is English)."""

OTHER_LETTERS: dict[str, str] = {
    "ł": "pl", "ś": "pl", "ź": "pl", "ż": "pl", "ć": "pl", "ń": "pl", "ğ": "tr", "ı": "tr", "ş": "tr",
    "ř": "cs", "ů": "cs", "ě": "cs", "ő": "hu", "ű": "hu", "ș": "ro", "ț": "ro", "ă": "ro vi", "ơ": "vi",
    "ư": "vi", "đ": "vi", "å": "sv da nb", "ø": "da nb", "æ": "da nb",
    **{chr(c): "vi" for c in range(0x1EA0, 0x1EFA)},  # Latin Extended Additional: Vietnamese tone marks
}
"""Letters that say "this is Polish" (rather than forcing the nearest supported language onto
a question, and answering in that one): letter -> the unsupported languages it marks."""

OTHER_WORDS: dict[str, frozenset[str]] = {
    "pl": words("gdzie kto jest jaka jaki jakie się urodził urodziła stolica ile czy kiedy"),
    "tr": words("nerede nedir kimdir kim hangi kaç zaman doğdu başkenti neresi"),
    "cs": words("kde kdo jaké jaký jaká narodil město kdy"),
    "sv": words("var vem vad föddes är huvudstad hur när vilken"),
    "da": words("hvor hvem hvad blev født hovedstad hvornår hvilken"),
    "nb": words("hvor hvem hva ble født hovedstad når hvilken"),
    "fi": words("missä kuka mikä syntyi pääkaupunki milloin"),
    "hu": words("hol ki mi született fővárosa mikor hány melyik"),
    "ro": words("unde cine născut capitala când"),
    "id": words("mana siapa apa lahir adalah kapan berapa ibukota"),
}
"""Question words of languages the chat does not speak."""

OTHER_LABEL_LANGUAGES: dict[str, tuple[str, ...]] = {
    "latin": ("mul",), "cyrillic": ("bg", "sr"), "cjk": ("zh-hans", "zh-hant", "zh-cn", "ko"), "arabic": ("fa",),
    "greek": ("el",), "devanagari": ("mr",)}
"""Label languages besides the supported ones that a name written in each script
(:data:`core.text.LABEL_SCRIPTS`) is also tried in: close languages and Wikidata's variants
and ``mul`` (:mod:`kg.endpoint`)."""

WIKIDATA_VARIANTS: tuple[str, ...] = ("mul", "zh-hans", "zh-hant")
"""Wikidata's label languages beside the supported ones that an endpoint's property labels are
read in: ``mul`` (a name the same in every language) and Chinese's script variants."""

NAME_INFLECTIONS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "latin": (("ies", ("y",)), ("es", ("", "e")), ("s", ("",)), ("en", ("", "e")), ("n", ("",)), ("i", ("us", "o")),
              ("ae", ("a",))),
    "cyrillic": (("ии", ("ия", "ий")), ("ие", ("ия",)), ("ию", ("ия",)), ("ией", ("ия",)), ("ой", ("а", "ая")),
                 ("ы", ("а",)), ("е", ("а", "")), ("у", ("а", "")), ("ю", ("я",)), ("и", ("я", "ь", "а")),
                 ("а", ("",)), ("ом", ("",)), ("ым", ("",)), ("ем", ("ь", "")), ("ой", ("а",)), ("ей", ("ь", "я", "а")),
                 ("ого", ("ий", "ой", "ый")), ("ого", ("ий",)), ("ской", ("ская",))),
}
"""Per script (:data:`core.text.LABEL_SCRIPTS`), an inflectional ending of the languages written
in it and the dictionary-form endings it may stand for (plurals, genitives: the forms a name
takes inside a question; :mod:`kg.endpoint` tries them on an endpoint)."""

NAME_ENDINGS: tuple[str, ...] = (
    "y", "e", "a", "o", "i", "um", "us", "а", "я", "о", "е", "и", "ы", "й", "ь", "ия", "ий", "ая")
"""Dictionary-form endings of words in the Latin- and Cyrillic-script languages: a question's
word with its own ending swapped for one of these is looked up in the label index's
vocabulary ("cities" -> "city", « германии » -> « германия »; :mod:`kg.labels`)."""
