"""``--scheduler`` at a port that accepts but does not speak dask is refused within its
timeout; before the fix a silent listener hung the client for ever."""

from __future__ import annotations

import http.server
import socket
import subprocess
import sys
import threading
import time

import pytest

from theorycheck.sweep import make_executor

pytest.importorskip("distributed")
pytestmark = pytest.mark.dask

TIMEOUT = 1.0
#: Time allowed beyond the timeout: thread and event-loop start-up on a loaded machine.
SLACK = 5.0


@pytest.fixture
def silent_listener():
    """A loopback port that accepts connections and never says anything."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    accepted = []

    def accept() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:  # closed at teardown
                return
            accepted.append(conn)

    threading.Thread(target=accept, daemon=True).start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}", accepted
    server.close()
    for conn in accepted:
        conn.close()


@pytest.fixture
def http_server():
    class Quiet(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"tcp://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _refused_within(address: str) -> tuple[str, float]:
    start = time.monotonic()
    with pytest.raises(ValueError) as info:
        with make_executor(scheduler=address, connect_timeout=TIMEOUT):
            pytest.fail("an executor was yielded for an address that does not speak dask")
    return str(info.value), time.monotonic() - start


def test_silent_listener_is_refused_within_the_timeout(silent_listener):
    address, accepted = silent_listener
    message, elapsed = _refused_within(address)
    assert accepted, "the probe never connected: the test did not exercise the handshake"
    assert elapsed < TIMEOUT + SLACK
    assert message.startswith(f"cannot reach dask scheduler {address!r} within 1 s")
    assert "\n" not in message


def test_http_server_is_refused_within_the_timeout(http_server):
    message, elapsed = _refused_within(http_server)
    assert elapsed < TIMEOUT + SLACK
    assert "cannot reach dask scheduler" in message and "\n" not in message


@pytest.mark.slow  # ~13 s: the design of the check, then the CLI's 5 s connect timeout
def test_cli_refuses_a_silent_scheduler_with_exit_2(silent_listener, tmp_path):
    address, _ = silent_listener
    cmd = [sys.executable, "-m", "theorycheck.cli.main", "check", "--law", "N >= C*L*V*log(V)",
           "--set", "algorithm=one-step", "--base", "V=48", "--base", "d=96", "--base", "L=4",
           "--vary", "L", "--quiet", "--scheduler", address, "--out", str(tmp_path / "out")]
    # The CLI's default connect timeout is 5 s; a hang would hit this limit instead.
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("theorycheck: error: cannot reach dask scheduler")

