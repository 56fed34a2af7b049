"""Endpoint credentials (issue 44, case 5): ``--kg-endpoint http://user:secret@host/``
used to show the password on the chat page and ``/config``, in ``/api/ask``'s ``error``
field and in ``kgqa serve``'s log.  The user and password are taken out of the URL at the
settings boundary: sent as HTTP Basic authentication, and never in a setting's text, an
error, a reply or a log line."""

from __future__ import annotations

import base64
import logging
from pathlib import Path

import httpx
import pytest

from core.errors import KGUnavailable, SettingsError
from core.settings import Settings, load_settings, redact_url, split_credentials
from service.app import create_app
from service.factory import build_pipeline, make_backend, open_kg
from service.server import ServerThread
from tests.service.faulty_http import Reply, ScriptedServer

SECRET = "s3cr3t-Pa55"
USER = "alice"


def test_the_settings_keep_the_url_without_its_credentials():
    s = Settings(kg_endpoint=f"http://{USER}:{SECRET}@127.0.0.1:9/sparql", backend="qanswer",
                 qanswer_url=f"https://bob:{SECRET}@qa.example.org/")
    assert s.kg_endpoint == "http://127.0.0.1:9/sparql" and s.qanswer_url == "https://qa.example.org/"
    assert s.kg_auth is not None and s.kg_auth.pair() == (USER, SECRET)
    assert s.qanswer_auth is not None and s.qanswer_auth.pair() == ("bob", SECRET)
    for text in (repr(s), str(s), str(s.kg_auth), repr(s.kg_auth)):
        assert SECRET not in text and USER not in text.replace("user", "")


def test_percent_encoded_and_user_only_credentials():
    assert split_credentials("http://a%40b:p%3Aw@h:1/q") [0] == "http://h:1/q"
    assert split_credentials("http://a%40b:p%3Aw@h:1/q")[1].pair() == ("a@b", "p:w")  # type: ignore[union-attr]
    assert split_credentials("http://tok@h/q")[1].pair() == ("tok", "")  # type: ignore[union-attr]
    assert split_credentials("http://h/q?x=a@b") == ("http://h/q?x=a@b", None)
    assert redact_url(f"ftp://{USER}:{SECRET}@h/x") == "ftp://***@h/x"


def test_a_bad_url_with_credentials_is_named_without_them():
    with pytest.raises(SettingsError) as caught:
        load_settings({"KGQA_KG_ENDPOINT": f"ftp://{USER}:{SECRET}@h/sparql"})
    assert SECRET not in str(caught.value) and "***" in str(caught.value)
    with pytest.raises(SettingsError) as caught:
        load_settings({}, kg_endpoint=f"http://{USER}:{SECRET}@h:0/sparql")
    assert SECRET not in str(caught.value)


def test_credentials_go_as_basic_auth_and_never_into_errors_or_logs(caplog):
    with ScriptedServer(lambda _req: Reply(503, b"down")) as srv:
        port = srv.port
        settings = Settings(kg_endpoint=f"http://{USER}:{SECRET}@127.0.0.1:{port}/query", retries=0)
        kg = open_kg(settings)
        with caplog.at_level(logging.DEBUG), pytest.raises(KGUnavailable) as caught:
            kg.query("ASK {}")
        sent = srv.requests[0].headers.get("Authorization", "")
    assert base64.b64decode(sent.removeprefix("Basic ")).decode() == f"{USER}:{SECRET}"
    assert SECRET not in str(caught.value) and SECRET not in caplog.text


def test_the_qanswer_backend_sends_them_too():
    with ScriptedServer(lambda _req: Reply.json({"queries": []})) as srv:
        settings = Settings(backend="qanswer", qanswer_url=f"http://{USER}:{SECRET}@127.0.0.1:{srv.port}")
        backend = make_backend(settings, kg=None)  # type: ignore[arg-type]
        assert backend.ask("Where was Einstein born?", "en") == []
        sent = srv.requests[0].headers.get("Authorization", "")
    assert base64.b64decode(sent.removeprefix("Basic ")).decode() == f"{USER}:{SECRET}"


@pytest.mark.slow
def test_the_page_the_api_and_the_log_never_show_them(tmp_path: Path, caplog):
    """The chat's header (what ``GET /`` and ``/config`` carry) and ``/api/ask``'s reply
    over an endpoint that fails every read: the error is named, the secret is not."""
    from chat.ui import header_html

    with ScriptedServer(lambda _req: Reply(500, b"boom")) as srv:
        settings = Settings(kg_endpoint=f"http://{USER}:{SECRET}@127.0.0.1:{srv.port}/query", retries=0,
                            validator=False, kg_budget_s=2.0, log_path=tmp_path / "log.sqlite")
        with caplog.at_level(logging.DEBUG):
            pipeline = build_pipeline(settings)
            header = header_html("en", pipeline, settings)
            with ServerThread(create_app(pipeline)) as api:
                reply = httpx.post(api.url + "/api/ask", data={"question": "Where was Albert Einstein born?",
                                                               "log": "off"}, timeout=60)
    assert f"127.0.0.1:{srv.port}" in header and SECRET not in header
    assert reply.status_code == 200 and reply.json()["status"] == "service_error"
    assert SECRET not in reply.text and SECRET not in caplog.text
