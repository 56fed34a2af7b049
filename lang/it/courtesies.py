"""Italian courtesies around a question in a chat (:func:`qa.reading.detect.strip_courtesies`)."""

from lang.base import Courtesies

COURTESIES = Courtesies(
    greetings=("ciao", "buongiorno"),
    requests=("per favore", "puoi dirmi", "dimmi", "vorrei sapere", "dammi", "mi dica", "mi dici", "indicami"),
    please=("per favore",),
    thanks=("grazie",),
)
