"""Russian words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('он она его её ее ему ей него неё нее нему ней ним нём нем'),
    thing=words('оно'),
    place=words('там'),
    possessive=words('его её ее их'),
    owner_after=True,
    openers=('а как насчёт', 'а как насчет', 'а что насчёт', 'а что насчет', 'что насчёт', 'а', 'и'),
    joiners=words('и а'),
    second_starts=words('когда где кто что какой какая какое какие сколько как почему чем куда откуда'),
    who="Кто {}?", what="Какая {}?",
)
