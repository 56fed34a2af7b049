"""Settings are validated when read (issue 35, item 8): types, ranges, strict booleans and
URLs; a bad value raises :class:`SettingsError` naming the variable (``kgqa`` prints it
as one line and exits 2, see tests/cli/test_startup_checks.py)."""

from __future__ import annotations

import math

import pytest

from core.errors import SettingsError
from core.settings import load_settings

BAD_ENV = [
    ("KGQA_TIMEOUT_S", "abc"), ("KGQA_TIMEOUT_S", "0"), ("KGQA_TIMEOUT_S", "-1"), ("KGQA_TIMEOUT_S", "nan"),
    ("KGQA_TIMEOUT_S", "inf"), ("KGQA_RETRIES", "abc"), ("KGQA_RETRIES", "-1"), ("KGQA_THRESHOLD", "abc"),
    ("KGQA_THRESHOLD", "1.5"), ("KGQA_THRESHOLD", "nan"), ("KGQA_VALIDATOR", "ture"), ("KGQA_STORE_IPS", "maybe"),
    ("KGQA_RATE_LIMIT_PER_MINUTE", "-5"), ("KGQA_RATE_LIMIT_PER_MINUTE", "1.5"),
    ("KGQA_PORT", "-1"), ("KGQA_PORT", "70000"), ("KGQA_PORT", "0"), ("KGQA_SERVE_PORT", "65536"),
    ("KGQA_MAX_QUESTION_CHARS", "0"), ("KGQA_BACKEND", "magic"), ("KGQA_KG_ENDPOINT", "not a url"),
    ("KGQA_KG_ENDPOINT", "ftp://example.org/sparql"), ("KGQA_KG_ENDPOINT", "http://[::1/sparql"),
    ("KGQA_KG_ENDPOINT", "http://host:99999/q"), ("KGQA_QANSWER_URL", "http:///api"),
    ("KGQA_KG_SOURCE", "/etc/passwd"), ("KGQA_TRUSTED_PROXIES", "10.0.0.1, not-an-ip"),
    ("KGQA_ALLOWED_HOSTS", "example.org, bad host"), ("KGQA_KG_READ_TIMEOUT_S", "0"),
    ("KGQA_KG_READ_TIMEOUT_S", "nan"),
]


@pytest.mark.parametrize("variable, value", BAD_ENV)
def test_a_bad_value_names_its_variable(variable: str, value: str):
    with pytest.raises(SettingsError) as raised:
        load_settings({variable: value})
    assert raised.value.variable == variable and raised.value.value == value
    assert variable in str(raised.value) and "\n" not in str(raised.value)


def test_backend_qanswer_without_a_url_is_an_error():
    with pytest.raises(SettingsError) as raised:
        load_settings({"KGQA_BACKEND": "qanswer"})
    assert raised.value.variable == "KGQA_BACKEND" and "KGQA_QANSWER_URL" in str(raised.value)


def test_flags_are_checked_too_and_named_as_flags():
    with pytest.raises(SettingsError) as raised:
        load_settings({}, flags={"serve_port": "--port"}, serve_port=70000)
    assert raised.value.variable == "--port" and raised.value.value == "70000"
    with pytest.raises(SettingsError, match="--timeout"):
        load_settings({}, flags={"timeout_s": "--timeout"}, timeout_s=math.nan)


@pytest.mark.parametrize("value, expected", [("1", True), ("TRUE", True), (" on ", True), ("yes", True),
                                             ("0", False), ("false", False), ("Off", False), ("no", False)])
def test_booleans_are_strict_but_case_blind(value: str, expected: bool):
    assert load_settings({"KGQA_VALIDATOR": value}).validator is expected


def test_good_values_are_read():
    s = load_settings({"KGQA_TIMEOUT_S": " 2.5 ", "KGQA_RETRIES": "0", "KGQA_RATE_LIMIT_PER_MINUTE": "0",
                       "KGQA_SERVE_PORT": "65535", "KGQA_KG_ENDPOINT": "https://query.example.org:8443/sparql",
                       "KGQA_TRUSTED_PROXIES": "10.0.0.1, 192.168.0.0/24, ::1",
                       "KGQA_ALLOWED_HOSTS": "example.org, *.example.org, 127.0.0.1, [::1]",
                       "KGQA_THRESHOLD": "", "KGQA_KG_SOURCE": "/data/kg.ttl.gz"})
    assert (s.timeout_s, s.retries, s.rate_limit_per_minute, s.serve_port) == (2.5, 0, 0, 65535)
    assert s.threshold is None  # an empty variable counts as unset
    assert "192.168.0.0/24" in s.trusted_proxies and "*.example.org" in s.allowed_hosts
