"""``arena serve`` answers only its own page: a real websocket client against a real server.

Each refused request (another site's ``Origin``, no token, a wrong token, a rebound ``Host``)
gets HTTP 403 and a line in the server's log; the printed URL's token, or the cookie the page
sets from it, opens a live app. ``--no-token`` drops the token with a warning, never the
Origin and Host checks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from tests.support.browser import arena_serve, wait_for

pytest.importorskip("textual_serve", reason="textual-serve is not installed (pip install -e '.[serve]')")


def _parts(url: str) -> tuple[str, str]:
    """``(origin, token)`` of the printed page address."""
    split = urlsplit(url)
    return f"{split.scheme}://{split.netloc}", parse_qs(split.query).get("token", [""])[0]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """One ``arena serve`` for the module: its printed URL and its log file."""
    db = tmp_path_factory.mktemp("serve") / "arena.db"
    with arena_serve(db) as (url, _server):
        yield url, db.with_name(f"serve-{urlsplit(url).port}.log")


async def _handshake(url: str, *, headers: dict[str, str], cookies: dict[str, str] | None = None) -> int:
    """The HTTP status of a websocket handshake to ``url``; on 101, read screen bytes first."""
    async with aiohttp.ClientSession(cookies=cookies) as session:
        try:
            async with session.ws_connect(url, headers=headers) as socket:
                message = await socket.receive()  # the app's first screen bytes: a live app
                assert message.type == aiohttp.WSMsgType.BINARY, message
                return 101
        except aiohttp.WSServerHandshakeError as refused:
            return refused.status


def handshake(url: str, **kwargs: object) -> int:
    return asyncio.run(_handshake(url, **kwargs))  # type: ignore[arg-type]


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str, dict[str, str]]:
    async def fetch() -> tuple[int, str, dict[str, str]]:
        async with aiohttp.ClientSession() as session, session.get(url, headers=headers or {}) as reply:
            cookies = {name: morsel.value for name, morsel in reply.cookies.items()}
            return reply.status, await reply.text(), cookies

    return asyncio.run(fetch())


def test_the_page_s_own_origin_with_the_printed_token_gets_a_live_app(served: tuple[str, Path]) -> None:
    url, _log = served
    origin, token = _parts(url)
    assert len(token) >= 40, "the printed URL carries a per-launch secret"
    assert handshake(f"{origin.replace('http', 'ws')}/ws?token={token}", headers={"Origin": origin}) == 101


def test_another_site_s_page_is_refused_even_with_the_token(served: tuple[str, Path]) -> None:
    url, log = served
    origin, token = _parts(url)
    status = handshake(
        f"{origin.replace('http', 'ws')}/ws?token={token}", headers={"Origin": "http://evil.example"}
    )
    assert status == 403
    wait_for(lambda: "refused GET '/ws': Origin 'http://evil.example'" in log.read_text(), "the log line")
    assert token not in log.read_text().replace(url, ""), "the token is never logged"


@pytest.mark.parametrize("query", ["", "?token=wrong"])
def test_no_token_or_a_wrong_one_is_refused(served: tuple[str, Path], query: str) -> None:
    url, log = served
    origin, _token = _parts(url)
    assert handshake(f"{origin.replace('http', 'ws')}/ws{query}", headers={"Origin": origin}) == 403
    reason = "wrong token" if query else "no token"
    wait_for(lambda: f"refused GET '/ws': {reason}" in log.read_text(), "the log line")
    status, body, _cookies = _get(f"{origin}/{query}")
    assert status == 403 and reason in body, "the page itself needs the token too"


def test_a_rebound_host_name_is_refused(served: tuple[str, Path]) -> None:
    url, log = served
    origin, token = _parts(url)
    port = urlsplit(url).port
    foreign = {"Host": f"rebound.example:{port}", "Origin": f"http://rebound.example:{port}"}
    assert handshake(f"{origin.replace('http', 'ws')}/ws?token={token}", headers=foreign) == 403
    status, _body, _cookies = _get(url, headers={"Host": f"rebound.example:{port}"})
    assert status == 403
    wait_for(lambda: "Host 'rebound.example:" in log.read_text(), "the log line")


def test_the_page_keeps_the_token_in_a_cookie_its_websocket_sends(served: tuple[str, Path]) -> None:
    url, _log = served
    origin, token = _parts(url)
    status, page, cookies = _get(url)
    assert status == 200 and "data-session-websocket-url" in page
    assert list(cookies.values()) == [token]
    assert handshake(f"{origin.replace('http', 'ws')}/ws", headers={"Origin": origin}, cookies=cookies) == 101
    assert _get(f"{origin}/static/js/textual.js")[0] == 200, "textual-serve's own scripts need no token"
    assert _get(f"{origin}/download/some-key")[0] == 403, "a download needs the token"
    assert _get(f"{origin}/download/some-key?token={token}")[0] == 404, "past the guard: no such download"


def test_no_token_warns_and_still_refuses_other_sites(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    with arena_serve(db, "--no-token") as (url, _server):
        origin, token = _parts(url)
        assert token == ""
        ws = f"{origin.replace('http', 'ws')}/ws"
        assert handshake(ws, headers={"Origin": "http://evil.example"}) == 403
        assert handshake(ws, headers={"Origin": origin}) == 101
    log = db.with_name(f"serve-{urlsplit(url).port}.log").read_text()
    assert "warning: --no-token: any program that can reach 127.0.0.1" in log
