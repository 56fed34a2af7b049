"""KGQA backends: anything that turns a question into ranked SPARQL candidates.

Every backend implements the :class:`qa.generate.Backend` protocol (re-exported here with
:class:`qa.candidate.Candidate`, what it returns).  Available modules:

* :mod:`backends.local` - the QAnswer-like candidate generator over a KG (linking, lexicon,
  shapes, ranker);
* :mod:`backends.qanswer` - an HTTP client for a QAnswer-compatible API;
* :mod:`backends.fake`    - a scripted backend for tests (like httpx's MockTransport).
"""

from qa.candidate import Candidate
from qa.generate import Backend

__all__ = ["Backend", "Candidate"]
