"""Ray as the commands use it: ``--workers N`` starts a private local Ray
instance of N CPUs, ``--address HOST:PORT`` joins a running cluster.

- A private instance is started with ``address="local"``: Ray's own
  default would join whatever instance runs on the machine (the newest
  one under /tmp/ray, or the one in ``RAY_ADDRESS``), where the CPUs
  asked for are refused ("num_cpus ... must not be provided") or another
  user's work is shared, or it hangs on a stale one.
- ``--address`` is checked before anything is written: a TCP connection to
  HOST:PORT within ``CONNECT_TIMEOUT_S``, else one line, "cannot reach the
  Ray cluster at HOST:PORT (...)" (Ray itself retries for minutes with a
  warning a second). With ``--workers`` too, the workers are a cap on the
  cluster's CPUs used.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from piramida.env.errors import PiramidaError

#: Seconds to wait for a TCP connection to the cluster's address.
CONNECT_TIMEOUT_S = 5.0


class ClusterError(PiramidaError):
    """A Ray cluster that cannot be reached or used."""


def split_address(address: str) -> tuple[str, int]:
    """(host, port) of ``HOST:PORT``; a one-line ``ClusterError`` else."""
    host, sep, port = address.strip().rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ClusterError(f"--address wants HOST:PORT (a Ray cluster's head), got {address!r}")
    return host, int(port)


def check_reachable(address: str, timeout_s: float = CONNECT_TIMEOUT_S) -> None:
    """Raise ``ClusterError`` unless a TCP connection to ``address`` opens
    within ``timeout_s``."""
    host, port = split_address(address)
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            pass
    except OSError as exc:
        why = "no answer" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc) or type(exc).__name__)
        raise ClusterError(f"cannot reach the Ray cluster at {address} ({why})") from None


def _quiet() -> dict[str, Any]:
    return {"log_to_driver": False, "logging_level": logging.WARNING, "configure_logging": False}


@contextmanager
def ray_workers(workers: int | None, address: str | None) -> Iterator[int]:
    """Ray for one run; yields how many workers to start. Without
    ``address``: a private local instance of ``workers`` CPUs (one unless
    given). With it: the cluster there, ``workers`` (when given) capping
    its CPUs. A Ray already started in this process is used as it is. Ray
    is shut down afterwards if it was started here."""
    import ray

    if workers is not None and workers < 1:
        raise ClusterError(f"workers must be at least 1, got {workers}")
    started = False
    if not ray.is_initialized():
        if address is None:
            ray.init(address="local", num_cpus=workers or 1, include_dashboard=False, **_quiet())
        else:
            check_reachable(address)
            try:
                ray.init(address=address, **_quiet())
            except (ConnectionError, RuntimeError, ValueError) as exc:
                first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                raise ClusterError(f"cannot reach the Ray cluster at {address} ({first})") from None
        started = True
    try:
        # One actor a CPU: an actor beyond the CPUs would never start, and
        # the games given to it would never end.
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        yield min(workers or cpus, cpus)
    finally:
        if started:
            ray.shutdown()
