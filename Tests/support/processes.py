# SPDX-License-Identifier: GPL-2.0-or-later
"""Processes and waiting, as every test group needs them."""
import ctypes
import signal
import socket
import subprocess
import time

_libc = ctypes.CDLL("libc.so.6", use_errno=True)  # loaded before any fork


def die_with_parent(sig=signal.SIGKILL):
    """A preexec_fn: the child gets `sig` when the test dies, even by SIGKILL (PR_SET_PDEATHSIG)."""
    def fn():
        _libc.prctl(1, int(sig), 0, 0, 0)  # PR_SET_PDEATHSIG
    return fn


def free_port():
    """A TCP port on 127.0.0.1 nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(predicate, seconds=10.0, step=0.1):
    """Polls `predicate` until it returns something true (returned) or `seconds` pass (its last value)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    return predicate()


def stop(process, sig=signal.SIGTERM, seconds=5.0):
    """Sends `sig` (if it still runs), waits `seconds`, then kills; returns the exit status."""
    if process.poll() is None:
        try:
            process.send_signal(sig)
            return process.wait(seconds)
        except subprocess.TimeoutExpired:
            process.kill()
    return process.wait()


class Cleanup:
    """Undo steps, run in reverse order; one failing step does not stop the others."""

    def __init__(self):
        self.steps = []

    def add(self, step):
        self.steps.append(step)
        return step

    def run(self):
        while self.steps:
            step = self.steps.pop()
            try:
                step()
            except Exception as error:  # noqa: BLE001 - the other steps still run
                print(f"(cleanup: {error})", flush=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.run()
        return False
