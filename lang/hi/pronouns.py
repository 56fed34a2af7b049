"""Hindi words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


PRONOUNS = Pronouns(
    person=_words('वह वे उसे उसने उन्होंने'),
    thing=frozenset(),
    place=_words('वहाँ वहां'),
    possessive=_words('उसका उसकी उसके उनका उनकी उनके'),
    openers=('और',),
    joiners=_words('और'),
    second_starts=_words('कब कहाँ कहां कौन क्या कितने कितनी कैसे'),
)
