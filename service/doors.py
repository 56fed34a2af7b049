"""Checks at the door of every web server this project runs (``kgqa serve``'s API and the
Gradio chat): the ``Host`` header against ``Settings.allowed_hosts``, and routes the
product does not offer (Gradio's file upload: the chat has no upload feature).

:class:`DoorMiddleware` is a plain ASGI middleware, so that it also wraps the app Gradio
builds (``launch(app_kwargs={"middleware": [...]})``)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
"""The Host names served when ``allowed_hosts`` is not set (plus the bound address)."""
REFUSED_PATHS = ("/upload", "/upload_progress", "/gradio_api/upload", "/gradio_api/upload_progress")
"""Routes refused with 404 before the app sees them (Gradio's upload routes)."""

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def allowed_host_names(setting: str, bind_host: str) -> tuple[str, ...]:
    """The Host names to serve: ``setting``'s (``Settings.allowed_hosts``, comma-separated,
    ``*`` for any, ``*.example.org`` for its sub-domains), else the loopback names and the
    bound address (``0.0.0.0`` or ``::`` add nothing: name the public host then)."""
    names = tuple(item.strip().lower().strip("[]") for item in setting.split(",") if item.strip())
    if names:
        return names
    bound = bind_host.strip().lower().strip("[]")
    return LOOPBACK_HOSTS + ((bound,) if bound and bound not in ("0.0.0.0", "::", *LOOPBACK_HOSTS) else ())


def host_allowed(header: str | None, allowed: tuple[str, ...]) -> bool:
    """True when a request's ``Host`` header (port dropped, case-blind) is one ``allowed``."""
    if "*" in allowed:
        return True
    host = (header or "").strip().lower()
    if host.startswith("["):
        host = host[1:].split("]", 1)[0]
    elif host.count(":") == 1:
        host = host.split(":", 1)[0]
    if not host:
        return False
    return any(host == name or (name.startswith("*.") and host.endswith(name[1:])) for name in allowed)


class DoorMiddleware:
    """Refuse requests whose ``Host`` is not allowed (400) and the :data:`REFUSED_PATHS`
    (404), before the wrapped ASGI app sees them."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS,
                 refused_paths: tuple[str, ...] = REFUSED_PATHS) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts
        self.refused_paths = refused_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        path = str(scope.get("path", ""))
        if not host_allowed(headers.get("host"), self.allowed_hosts):
            await _refuse(scope, send, 400, "bad_host")
        elif path.rstrip("/").endswith(self.refused_paths):
            await _refuse(scope, send, 404, "not_found")
        else:
            await self.app(scope, receive, send)


async def _refuse(scope: Scope, send: Send, status: int, error: str) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    body = json.dumps({"error": error}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"x-content-type-options", b"nosniff")]})
    await send({"type": "http.response.body", "body": body})
