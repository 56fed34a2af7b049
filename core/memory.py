"""Process memory helpers for start-up and long-lived processes.

:func:`loading` runs a block that builds objects meant to live as long as the process
(imports, models, indexes) with Python's cyclic garbage collector paused: while
millions of objects are created and hardly any become garbage, each collection (the
full ones traverse everything built so far) is pure cost: 12-16 % of the CPU time of
loading the pipeline, 15 % of importing gradio.  At the end of the block what was built
is frozen (``gc.freeze``): later collections never traverse it again, so resuming the
collector costs nothing either.

:func:`release_free_memory` gives the C heap's free pages back to the operating system
(glibc's ``malloc_trim``): memory freed by native code (torch's activations, a
detector's unloaded models) otherwise stays counted in the process until it is reused.
"""

from __future__ import annotations

import ctypes
import gc
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache


@contextmanager
def loading() -> Iterator[None]:
    """Pause the cyclic garbage collector while the block runs, then freeze what exists
    (``gc.freeze``: it is never traversed again) and restore the collector's state.

    Cyclic garbage made inside the block is frozen with the rest and never collected
    (1-2 MB for the whole pipeline, whose full collection takes 0.3 s)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or ``None`` (another C library or system)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # musl and others have no malloc_trim
        return None


def release_free_memory() -> bool:
    """Return the C heap's free pages to the operating system; ``False`` where the C
    library cannot (nothing is changed then).  Takes a few milliseconds."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
