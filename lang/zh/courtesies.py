"""Chinese courtesies around a question in a chat (:func:`qa.reading.detect.strip_courtesies`)."""

from lang.base import Courtesies

COURTESIES = Courtesies(
    greetings=("你好", "您好"),
    requests=("请问", "请告诉我", "告诉我", "你知道", "我想知道"),
    thanks=("谢谢",),
)
