"""English words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


PRONOUNS = Pronouns(
    person=_words('he him she her'),
    thing=_words('it they them'),
    place=_words('there'),
    possessive=_words('his her its their'),
    of='of',
    openers=('and what about', 'what about', 'how about', 'and'),
    joiners=_words('and'),
    second_starts=_words('when where who what which how why whom whose did does do is was were are has'),
    who="Who is the {}?", what="What is the {}?",
    fixed=('is there', 'are there', 'was there', 'were there', 'there is', 'there are', 'there was', 'there were'),
)
