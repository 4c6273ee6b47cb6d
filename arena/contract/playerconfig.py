"""A seat's resolved player configuration: what it is, its hash and a public form of URLs.

Every seat is stored with the configuration its player actually ran with (kind,
provider, model id, base URL, sampling settings and limits with defaults filled in,
prompt versions, model file hash...). Identical configurations share one row of the
``player_configs`` table, keyed by :func:`config_hash` of the canonical JSON. Two
configurations under one name are two players (the episode list shows them as ``name#abcd``).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

if TYPE_CHECKING:  # the store hashes configurations without loading the engine
    from arena.contract.game import GameState
    from arena.contract.player import Player

_SECRET_PARAM = re.compile(r"key|token|secret|sig|auth|pass|credential", re.IGNORECASE)


def canonical_json(config: dict[str, Any]) -> str:
    """The configuration as compact JSON with sorted keys (what the hash is taken of)."""
    return json.dumps(config, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def config_hash(config: dict[str, Any]) -> str:
    """SHA-256 (hex) of :func:`canonical_json`."""
    return hashlib.sha256(canonical_json(config).encode()).hexdigest()


def public_url(url: str | None) -> str | None:
    """``url`` without user info and without query parameters that look like secrets."""
    if not url:
        return url
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 literal
        host = f"[{host}]"
    netloc = f"{host}:{parts.port}" if parts.port else host
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if not _SECRET_PARAM.search(k)])
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


MASK = "***"
_URL_IN_TEXT = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s'\"<>]+", re.IGNORECASE)


def masked_url(url: str) -> str:
    """``url`` as it may be shown: user info and the values of secret-looking query parameters
    replaced by ``***`` (``https://***@host/v1?api_key=***&x=1``), the rest as given."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if "@" in netloc:
            netloc = f"{MASK}@{netloc.rpartition('@')[2]}"
        pairs = parse_qsl(parts.query, keep_blank_values=True)
    except ValueError:  # not a URL urllib can split (a bad port, brackets): hide all but the scheme
        return f"{url.partition('://')[0]}://{MASK}"
    if not any(_SECRET_PARAM.search(k) for k, _ in pairs) and netloc == parts.netloc:
        return url
    query = "&".join(f"{k}={MASK if _SECRET_PARAM.search(k) else v}" for k, v in pairs)
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def mask_urls(text: str) -> str:
    """``text`` with every URL in it passed through :func:`masked_url` (error messages quote them)."""
    return _URL_IN_TEXT.sub(lambda found: masked_url(found.group()), text)


def seat_configuration(player: Player, game: GameState) -> dict[str, Any]:
    """The resolved configuration of ``player`` in ``game``.

    A player may describe itself (:meth:`Player.configuration`: model players do); otherwise
    the kind and spec stand for it, plus the game for a scripted baseline. Model players also
    get the game's prompt template version.
    """
    described = player.configuration()
    config: dict[str, Any] = dict(described) if described is not None else {}
    config.setdefault("kind", player.kind)
    config.setdefault("name", player.spec)
    if config["kind"] == "baseline":
        config.setdefault("game", game.name)
        config.setdefault("game_version", game.definition.version)
    elif config["kind"] == "model":
        config.setdefault("prompt_version", game.definition.prompt_version)
    return config
