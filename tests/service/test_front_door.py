"""The front door over a real uvicorn server: the starting app serves until the full app
is opened, the full app's lifespan runs before its first request and ends with the server,
and the kept paths stay with the starting app."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from service.doors import DoorMiddleware
from service.front_door import FrontDoor
from service.server import ServerThread


def _app(name: str) -> Starlette:
    async def where(request: Request) -> PlainTextResponse:
        return PlainTextResponse(f"{name} {request.url.path}")

    return Starlette(routes=[Route("/", where), Route("/start/status", where), Route("/other", where)])


class Lifespan:
    """The full app's lifespan, recording when it starts and ends."""

    def __init__(self) -> None:
        self.events: list[str] = []

    @contextlib.asynccontextmanager
    async def __call__(self) -> AsyncIterator[None]:
        self.events.append("started")
        yield
        self.events.append("ended")


def test_the_starting_app_serves_until_the_full_app_opens_then_keeps_its_paths() -> None:
    door = FrontDoor(_app("starting"))
    lifespan = Lifespan()
    with ServerThread(door) as server:
        assert httpx.get(server.url + "/").text == "starting /"
        assert httpx.get(server.url + "/other").text == "starting /other"
        assert not door.opened
        door.open(_app("full"), lifespan)
        assert door.opened and lifespan.events == ["started"]  # entered before any request reached it
        assert httpx.get(server.url + "/").text == "full /"
        assert httpx.get(server.url + "/other").text == "full /other"
        assert httpx.get(server.url + "/start/status").text == "starting /start/status"  # kept
    assert lifespan.events == ["started", "ended"]  # the server's shutdown ended it


def test_the_door_checks_hosts_for_both_apps() -> None:
    door = FrontDoor(_app("starting"))
    with ServerThread(DoorMiddleware(door, ("127.0.0.1",))) as server:
        assert httpx.get(server.url + "/", headers={"Host": "evil.example"}).status_code == 400
        door.open(_app("full"))
        assert httpx.get(server.url + "/", headers={"Host": "evil.example"}).status_code == 400
        assert httpx.get(server.url + "/").text == "full /"


def test_opening_before_the_server_runs_is_refused() -> None:
    with pytest.raises(RuntimeError, match="not started"):
        FrontDoor(_app("starting")).open(_app("full"))
