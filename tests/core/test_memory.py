"""core.memory: loading pauses the garbage collector and freezes what it built, restoring
the collector's state; freed heap memory can be given back (glibc)."""

from __future__ import annotations

import gc
import platform
from collections.abc import Iterator

import pytest

from core.memory import loading, release_free_memory


@pytest.fixture
def collector() -> Iterator[None]:
    """Leave the collector as found: enabled, nothing of this test frozen."""
    yield
    gc.unfreeze()
    gc.enable()


@pytest.mark.usefixtures("collector")
def test_loading_pauses_the_collector_and_freezes_what_it_built():
    frozen = gc.get_freeze_count()
    with loading():
        assert not gc.isenabled()
        built = [[i] for i in range(1000)]
    assert gc.isenabled()
    assert gc.get_freeze_count() >= frozen + len(built)


@pytest.mark.usefixtures("collector")
def test_loading_keeps_a_paused_collector_paused_and_resumes_after_an_error():
    gc.disable()
    with loading():
        pass
    assert not gc.isenabled()
    gc.enable()
    with pytest.raises(RuntimeError), loading():
        raise RuntimeError("load failed")
    assert gc.isenabled()


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc_trim is glibc's")
def test_free_heap_memory_is_given_back_with_glibc():
    assert release_free_memory()
