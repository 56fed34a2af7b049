"""Ukrainian courtesies around a question in a chat (:func:`qa.reading.detect.strip_courtesies`)."""

from lang.base import Courtesies

COURTESIES = Courtesies(
    greetings=("привіт", "добрий день"),
    requests=(
        "будь ласка", "скажіть", "підкажіть", "ви знаєте", "ти знаєш", "хочу знати", "назвіть", "назви",
        "перелічіть", "розкажіть", "розкажи",
    ),
    please=("будь ласка",),
    thanks=("дякую",),
)
