"""KGQA backends: anything that turns a question into ranked SPARQL candidates.

Every backend implements :class:`backends.base.Backend`.  Available modules:

* :mod:`backends.local.generator`   - the QAnswer-like candidate generator over a KG;
* :mod:`backends.qanswer` - an HTTP client for a QAnswer-compatible API;
* :mod:`backends.fake`    - a scripted backend for tests (like httpx's MockTransport).
"""

from qa.candidate import Candidate
from qa.generate import Backend

__all__ = ["Backend", "Candidate"]
