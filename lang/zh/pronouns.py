"""Chinese words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('她 他'),
    thing=words('它'),
    place=words('那里 那儿'),
    possessive=frozenset(),
    openers=('那么', '还有', '那'),
    attached=True,
    not_pronouns=('其他', '其它', '他们', '她们', '它们', '吉他'),
)
