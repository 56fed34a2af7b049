"""German courtesies around a question in a chat (:func:`qa.reading.detect.strip_courtesies`)."""

from lang.base import Courtesies

COURTESIES = Courtesies(
    greetings=("hallo", "guten tag", "moin"),
    requests=(
        "bitte", "kannst du mir sagen", "können sie mir sagen", "sag mir", "sagen sie mir", "weißt du",
        "wissen sie", "ich möchte wissen", "ich will wissen", "nenne", "nenn", "nennen sie", "nenne mir",
        "nenn mir", "nennen sie mir", "gib mir", "geben sie mir", "zeig mir", "zeige mir", "zeigen sie mir",
        "erzähl mir", "erzähle mir", "erzählen sie mir",
    ),
    please=("bitte",),
    thanks=("danke",),
)
