"""Bengali words that tie a follow-up question to the previous turn (:class:`lang.base.Pronouns`)."""

from lang.base import Pronouns


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


PRONOUNS = Pronouns(
    person=_words('সে তিনি তাকে তাঁকে'),
    thing=frozenset(),
    place=_words('সেখানে'),
    possessive=_words('তার তাঁর'),
    openers=('আর', 'এবং'),
    joiners=_words('এবং আর'),
    second_starts=_words('কখন কোথায় কে কী কি কত কেমন'),
)
