"""English courtesies around a question in a chat (:func:`qa.reading.detect.strip_courtesies`)."""

from lang.base import Courtesies

COURTESIES = Courtesies(
    greetings=("hi", "hello", "hey", "good morning", "good evening"),
    requests=(
        "please", "can you tell me", "could you tell me", "can you please tell me", "tell me", "do you know",
        "i want to know", "i would like to know", "i'd like to know", "i wonder",
    ),
    please=("please",),
    thanks=("thanks", "thank you"),
)
