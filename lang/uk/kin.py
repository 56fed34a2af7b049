"""Ukrainian words as Russian spells them: the embedded KG holds no Ukrainian name and many in
Russian (« іван франко » is « Иван Франко », « ейнштейн » is « Эйнштейн », « леніна » an
inflection of « Ленин »).  Only the letters the two alphabets write differently for the
same sound are respelled; a word spelled alike is left as it is."""

from lang.base import KinSpelling

KIN_SPELLING = KinSpelling(
    "ru",
    letters={"і": "и", "ї": "йи", "є": "е", "ґ": "г", "'": "ь", "’": "ь", "ʼ": "ь"},
    initial={"е": "э"},
)
