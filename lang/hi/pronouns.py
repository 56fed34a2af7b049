"""Hindi words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('वह वे उसे उसने उन्होंने'),
    thing=frozenset(),
    place=words('वहाँ वहां'),
    possessive=words('उसका उसकी उसके उनका उनकी उनके'),
    openers=('और',),
    joiners=words('और'),
    second_starts=words('कब कहाँ कहां कौन क्या कितने कितनी कैसे'),
)
