# SPDX-License-Identifier: GPL-2.0-or-later
"""A hostile `websocket` relay can neither name the streamer's local files nor fake our state."""
import os

import pytest

PROGRAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hostile_relay.py")


@pytest.fixture
def hostile_relay(websocketd_factory):
    return websocketd_factory(PROGRAM)


def test_local_files_are_refused_and_relay_status_is_not_ours(hostile_relay, tail_factory):
    tail = tail_factory("--service", "websocket", "--stream", "", "--server", f"ws://127.0.0.1:{hostile_relay}/")
    tail.wait_event(lambda e: e.get("id") == "h1")
    tail.wait_stderr("refused an image event")
    tail.wait_stderr("relay status: error: pinned fake error")
    assert tail.stop() == 0

    images = [e for e in tail.events if e.get("type") in ("avatar", "background")]
    assert images == [{**images[0], "type": "avatar", "url": "https://cdn.example/avatar.png"}], images
    everything = "\n".join(tail.lines + tail.errors)
    for secret in ("/etc/passwd", "id_rsa", "/etc/shadow"):
        assert secret not in everything, f"{secret} leaked: {everything}"
    # Our own connection stayed live: the relay's error is shown as its word, not as our state.
    assert "status: live" in tail.errors
    assert not any(line.startswith("status: error") for line in tail.errors), tail.errors
