"""Where a tournament plays: ``--cluster ray[=ADDRESS]`` read into an executor.

``ray`` alone starts a Ray instance on this machine for the run; ``ray=HOST:PORT`` (or
``ray=auto``, the cluster ``ray start`` left running here) joins a running cluster. Nothing
here imports Ray: :func:`executor_for` imports :mod:`arena.tournament.ray_executor` only
for a ``ray`` cluster, so a run without ``--cluster`` never loads it.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # run imports config, which reads --cluster values with parse_cluster
    from arena.tournament.run import Executor

CLUSTER_KINDS = ("ray",)
PROBE_SECONDS = 5.0
"""How long to wait for a cluster's address to accept a connection before saying it cannot be reached."""


class ClusterError(RuntimeError):
    """The cluster cannot be used (unreachable, wrong Ray version, out of memory): one line."""


@dataclass(frozen=True)
class ClusterSpec:
    """A parsed ``--cluster`` value: the kind and the address (``None``: start one here)."""

    kind: str
    address: str | None = None

    @property
    def text(self) -> str:
        """The value as written: ``ray`` or ``ray=ADDRESS``."""
        return self.kind if self.address is None else f"{self.kind}={self.address}"


def parse_cluster(text: str) -> ClusterSpec:
    """``ray`` or ``ray=ADDRESS``; ``ValueError`` (one line) for anything else."""
    kind, given, address = text.strip().partition("=")
    kind = kind.strip().lower()
    if kind not in CLUSTER_KINDS:
        raise ValueError(f"cluster {text!r}: expected ray or ray=ADDRESS (for example ray=10.0.0.5:6379)")
    address = address.strip()
    if given and not address:
        raise ValueError(f"cluster {text!r}: give the address after ray= (or just ray for a local instance)")
    return ClusterSpec(kind, address or None)


HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
"""What a gRPC client sends first (the HTTP/2 connection preface and an empty SETTINGS frame)."""


def check_reachable(address: str) -> None:
    """Fail fast, in one line, when nothing at ``HOST:PORT`` could be a Ray head.

    Ray's own client retries an unreachable address for minutes before it gives up, and waits
    without end on a port where something else listens (a web server): so the probe connects,
    then checks the other side speaks gRPC (it answers HTTP/2's preface with a SETTINGS frame),
    as a Ray head's control store does. ``auto`` and ``ray://`` addresses are left to Ray.
    """
    if address == "auto" or "://" in address:
        return
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ClusterError(f"Ray cluster address {address!r}: expected HOST:PORT (for example 10.0.0.5:6379)")
    try:
        connection = socket.create_connection((host, int(port)), timeout=PROBE_SECONDS)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ClusterError(
            f"cannot reach a Ray cluster at {address}: {reason} (is `ray start --head` running there?)"
        ) from None
    with connection:
        try:
            connection.sendall(HTTP2_PREFACE)
            answer = _first_bytes(connection, 9)
        except OSError:  # it accepted, then said nothing in time or hung up
            answer = b""
    if len(answer) < 9 or answer[3] != 4:  # byte 3 of a frame header is its type; 4 is SETTINGS
        raise ClusterError(
            f"{address} answers but not as a Ray head (no gRPC there): give the head's address,"
            " the one `ray start --head` prints (port 6379 unless --port was given)"
        )


def _first_bytes(connection: socket.socket, count: int) -> bytes:
    """Up to ``count`` bytes, fewer if the other side closes first (timeouts raise)."""
    answer = b""
    while len(answer) < count:
        chunk = connection.recv(count - len(answer))
        if not chunk:
            break
        answer += chunk
    return answer


def executor_for(cluster: str | None, concurrency: int) -> Executor:
    """The executor ``--cluster`` names (``None``: the local one) playing ``concurrency`` episodes at once."""
    from arena.tournament.run import LocalExecutor

    if cluster is None:
        return LocalExecutor(concurrency)
    spec = parse_cluster(cluster)
    try:
        from arena.tournament.ray_executor import RayExecutor
    except ImportError as exc:
        raise ClusterError(
            f"--cluster ray needs Ray: pip install 'arena[ray]' ({exc.name or exc} is missing)"
        ) from None
    return RayExecutor(spec.address, concurrency)
