"""English words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('he him she her'),
    thing=words('it they them'),
    place=words('there'),
    possessive=words('his her its their'),
    of='of',
    openers=('and what about', 'what about', 'how about', 'and'),
    joiners=words('and'),
    second_starts=words('when where who what which how why whom whose did does do is was were are has'),
    who="Who is the {}?", what="What is the {}?",
    fixed=('is there', 'are there', 'was there', 'were there', 'there is', 'there are', 'there was', 'there were'),
)
