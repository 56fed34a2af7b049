"""Bengali words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns, words

PRONOUNS = Pronouns(
    person=words('সে তিনি তাকে তাঁকে'),
    thing=frozenset(),
    place=words('সেখানে'),
    possessive=words('তার তাঁর'),
    openers=('আর', 'এবং'),
    joiners=words('এবং আর'),
    second_starts=words('কখন কোথায় কে কী কি কত কেমন'),
)
