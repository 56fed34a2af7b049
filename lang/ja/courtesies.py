"""Japanese courtesies around a question in a chat (:func:`qa.reading.detect.strip_courtesies`)."""

from lang.base import Courtesies

COURTESIES = Courtesies(
    greetings=("こんにちは",),
    requests=("すみません",),
    thanks=("ありがとう", "ありがとうございます"),
    request_after=r"を教えて(?:ください|下さい|くれますか|くれませんか|もらえますか)?",
)
