"""langdetect's profiles from one compact table (qa.reading.profiles): the same factory, faster."""

from __future__ import annotations

import pytest
from langdetect import detector_factory

from qa.reading import profiles
from qa.reading.detect import _langdetect_scores


@pytest.fixture
def fresh(tmp_path):
    """No langdetect factory loaded, and the table kept in ``tmp_path``; restored after."""
    kept_factory, kept_path = detector_factory._factory, profiles._path
    detector_factory._factory = None
    profiles.use_dir(tmp_path)
    yield tmp_path / profiles.TABLE_FILE
    detector_factory._factory, profiles._path = kept_factory, kept_path


def _own_factory():
    factory = detector_factory.DetectorFactory()
    factory.load_profile(detector_factory.PROFILES_DIRECTORY)
    return factory


def test_the_table_is_written_once_and_read_back_as_the_same_profiles(fresh):
    texts = ["Who is the mayor of Berlin?", "Wo wurde Albert Einstein geboren?", "¿Dónde nació Picasso?"]
    first = [_langdetect_scores(t) for t in texts]
    assert fresh.is_file()
    assert not isinstance(detector_factory._factory.word_lang_prob_map, profiles._Probabilities)
    detector_factory._factory = None
    profiles.ready()
    table = detector_factory._factory
    assert isinstance(table.word_lang_prob_map, profiles._Probabilities)
    own = _own_factory()
    assert table.langlist == own.langlist
    assert set(table.word_lang_prob_map) == set(own.word_lang_prob_map)
    assert all(table.word_lang_prob_map[w] == v for w, v in own.word_lang_prob_map.items())
    assert [_langdetect_scores(t) for t in texts] == first


def test_a_broken_table_is_rebuilt(fresh):
    profiles.ready()
    fresh.write_bytes(b"\x00broken")
    detector_factory._factory = None
    profiles.ready()
    assert not isinstance(detector_factory._factory.word_lang_prob_map, profiles._Probabilities)
    detector_factory._factory = None
    profiles.ready()
    assert isinstance(detector_factory._factory.word_lang_prob_map, profiles._Probabilities)
