"""One rate limit for every door (chat UI, the chat's ``/ask``, ``/api/qa/full``,
``/gerbil``), keyed by client address (a new session does not reset it), proxy headers
believed only from configured proxies, a bounded backlog with a localized "busy", and
uploads capped.  Real Gradio and uvicorn servers on 127.0.0.1."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest
from gradio_client import Client

from chat.messages import message
from chat.sessions import Backlog, Sessions
from chat.ui import build_app, launch_app
from core.settings import load_settings
from service.app import create_app
from service.ratelimit import ClientLimiter, RateLimiter
from service.server import ServerThread
from service.session_log import SessionLog
from tests.service.helpers import scripted_backend, tiny_pipeline

QUESTION = "What is the capital of Germany?"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _limiter(burst: int, trusted: str = "") -> ClientLimiter:
    return ClientLimiter(RateLimiter(per_minute=1, burst=burst), trusted)  # one token a minute after the burst


class ChatServer:
    """The real chat (Gradio) over the tiny KG on a free port."""

    def __init__(self, tmp_path: Path, limiter: ClientLimiter | None = None, **kw) -> None:
        self.settings = load_settings({}, port=_free_port(), log_path=tmp_path / "chat.sqlite")
        self.log = SessionLog(self.settings.log_path)
        self.app = build_app(tiny_pipeline(backend=scripted_backend()), self.settings, self.log, limiter=limiter, **kw)
        self.url = f"http://127.0.0.1:{self.settings.port}/"

    def __enter__(self) -> ChatServer:
        launch_app(self.app, self.settings, prevent_thread_lock=True, quiet=True)
        return self

    def __exit__(self, *exc: object) -> None:
        self.app.close()
        self.log.close()

    def ask(self) -> str:
        """One ``/ask`` call from a NEW Gradio session (as a page reload would be)."""
        return Client(self.url, verbose=False).predict(QUESTION, "en", api_name="/ask")


def test_ask_is_limited_per_client_and_a_new_session_does_not_reset_it(tmp_path: Path):
    with ChatServer(tmp_path, _limiter(burst=3)) as chat:
        replies = [chat.ask() for _ in range(5)]
        rows = list(chat.log.turns())
    limited = message("rate_limited", "en", seconds=60).split("{")[0][:30]
    assert ["Berlin" in r for r in replies] == [True, True, True, False, False]
    assert all(limited in r for r in replies[3:])
    assert [r["status"] for r in rows] == ["ok", "ok", "ok"]  # refused calls are counted, not logged
    assert chat.app.refused.counts() == {"rate_limited": 2}


def test_one_limit_shared_by_chat_ask_qa_full_and_gerbil(tmp_path: Path):
    shared = _limiter(burst=4)
    api = create_app(tiny_pipeline(), rate_limiter=shared)
    with ChatServer(tmp_path, shared) as chat, ServerThread(api) as srv:
        assert "Berlin" in chat.ask()
        assert httpx.post(srv.url + "/gerbil", content=f"query={QUESTION}&lang=en".encode()).status_code == 200
        assert httpx.get(srv.url + "/api/qa/full", params={"question": QUESTION}).status_code == 200
        assert "Berlin" in chat.ask()
        # the four tokens are spent, whichever door took them
        assert httpx.get(srv.url + "/api/qa/full", params={"question": QUESTION}).status_code == 429
        assert httpx.post(srv.url + "/gerbil", content=f"query={QUESTION}&lang=en".encode()).status_code == 429
        assert "Berlin" not in chat.ask()


def test_forwarded_for_is_believed_only_from_trusted_proxies():
    untrusted = _limiter(burst=1)
    assert untrusted.client_address("127.0.0.1", {"x-forwarded-for": "203.0.113.9"}) == "127.0.0.1"
    proxied = _limiter(burst=1, trusted="127.0.0.1, 10.0.0.0/8")
    headers = {"x-forwarded-for": "198.51.100.7, 203.0.113.9, 10.1.2.3"}
    assert proxied.client_address("127.0.0.1", headers) == "203.0.113.9"  # right-most untrusted hop
    assert proxied.client_address("192.0.2.1", headers) == "192.0.2.1"  # not from a proxy: the peer
    assert proxied.client_address("127.0.0.1", {"x-forwarded-for": "junk"}) == "127.0.0.1"
    assert proxied.client_address("127.0.0.1", {}) == "127.0.0.1"


def test_rotating_forwarded_for_does_not_escape_the_api_limit():
    app = create_app(tiny_pipeline(), rate_limiter=_limiter(burst=2))
    with ServerThread(app) as srv:
        codes = [httpx.get(srv.url + "/api/qa/full", params={"question": QUESTION},
                           headers={"X-Forwarded-For": f"198.51.100.{i}"}).status_code for i in range(4)]
    assert codes == [200, 200, 429, 429]


def test_full_backlog_answers_busy_at_once_and_counts_it(tmp_path: Path):
    with ChatServer(tmp_path, _limiter(burst=10), max_waiting=0) as chat:
        reply = chat.ask()
        rows = list(chat.log.turns())
    assert message("busy", "en") in reply
    assert rows == [] and chat.app.refused.counts() == {"busy": 1}


def test_chat_question_with_a_full_backlog_is_shown_with_busy(tmp_path: Path):
    settings = load_settings({}, rate_limit_per_minute=0)
    with SessionLog(tmp_path / "s.sqlite") as log:
        app = build_app(tiny_pipeline(backend=scripted_backend()), settings, log, max_waiting=0)
        add_user = next(f.fn for f in app.fns.values() if f.name == "add_user")
        history, _, state = add_user(QUESTION, "auto", None)
        rows = list(log.turns())
    assert [m["role"] for m in history] == ["user", "assistant"]
    assert message("busy", "en") in history[1]["content"]
    assert not state.pending and rows == [] and app.refused.counts() == {"busy": 1}


def test_uploads_are_refused_and_unknown_hosts_too(tmp_path: Path):
    with ChatServer(tmp_path, _limiter(burst=10)) as chat:
        for path in ("gradio_api/upload", "upload", "gradio_api/upload/", "gradio_api/upload_progress"):
            r = httpx.post(chat.url + path, files={"files": ("big.bin", b"x" * 100_000)}, timeout=30)
            assert r.status_code == 404, (path, r.text)
        assert httpx.get(chat.url, headers={"Host": "evil.example"}, timeout=30).status_code == 400
        assert httpx.get(chat.url, timeout=30).status_code == 200


def test_backlog_and_sessions():
    backlog = Backlog(2)
    assert [backlog.try_add() for _ in range(3)] == [True, True, False]
    backlog.done()
    assert backlog.try_add() and backlog.waiting == 2
    sessions: Sessions[list] = Sessions(list, max_sessions=2)
    a = sessions.get("a")
    assert sessions.get("a") is a and sessions.get(None) is not sessions.get(None)
    sessions.get("b"), sessions.get("c")
    assert len(sessions) == 2 and sessions.get("a") is a  # "a" is in use (two events): the passive "b" went
    sessions.get("c"), sessions.get("d")
    assert len(sessions) == 2 and sessions.get("a") is not a  # only active ones: the least recently used went
    sessions.drop("a")
    assert len(sessions) == 1


@pytest.fixture(autouse=True)
def _no_analytics(monkeypatch):
    monkeypatch.setenv("GRADIO_ANALYTICS_ENABLED", "False")


def test_a_body_shorter_than_its_content_length_is_cut(caplog):
    app = create_app(tiny_pipeline(), body_timeout_s=0.5)
    with ServerThread(app) as srv, socket.create_connection(("127.0.0.1", srv.port)) as s:
        s.sendall(b"POST /gerbil HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nquery=hi")
        s.settimeout(10)
        reply = s.recv(4096)
    assert reply.startswith(b"HTTP/1.1 408")
    assert not any(r.exc_info for r in caplog.records)


def test_one_client_gets_only_its_share_of_the_chat_backlog():
    """The chat admits a question by the client's rate limit, then the client's share of the
    backlog, then the backlog: one address cannot fill it (refusals counted, not queued)."""
    import gradio as gr
    from starlette.requests import Request

    from chat.asking import Admission
    from service.ratelimit import InFlight, RefusedCounter

    def peer(host: str) -> gr.Request:  # a real Gradio request from that address
        return gr.Request(request=Request({"type": "http", "client": (host, 5555), "headers": [],
                                           "method": "POST", "path": "/", "query_string": b""}))

    admission = Admission(_limiter(burst=100), Backlog(8), InFlight(2), RefusedCounter())
    flood = [admission.admit(peer("198.51.100.7"), QUESTION, "en") for _ in range(5)]
    assert [refused is None for _, refused in flood] == [True, True, False, False, False]
    assert flood[2][1] is not None and flood[2][1].status == "busy"
    other, refused = admission.admit(peer("::ffff:203.0.113.9"), QUESTION, "en")
    assert refused is None and admission.backlog.waiting == 3
    admission.done(flood[0][0])
    assert admission.admit(peer("198.51.100.7"), QUESTION, "en")[1] is None
    assert admission.refused.counts() == {"busy": 3}
