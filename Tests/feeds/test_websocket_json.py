# SPDX-License-Identifier: GPL-2.0-or-later
"""The `websocket` service against websocketd serving JSON events."""
import os

import pytest

PROGRAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "json_events.py")


@pytest.fixture
def websocketd(websocketd_factory):
    return websocketd_factory(PROGRAM)


def test_json_events_and_reconnect(websocketd, tail_factory):
    tail = tail_factory("--service", "websocket", "--stream", "my stream/é",
                        "--server", f"ws://127.0.0.1:{websocketd}/chat/{{stream}}?room=1")
    first, _ = tail.wait_event(lambda e: e.get("id") == "w1")
    assert first["text"] == "uri=/chat/my%20stream%2F%C3%A9?room=1", "stream id percent-encoded into the path"
    _, last_at = tail.wait_event(lambda e: e.get("id") == "w5")
    kinds = [e["type"] for e in tail.events[1:last_at + 1]]
    assert kinds == ["comment", "comment", "gift", "viewers", "mic", "delete", "comment"]
    sakura = next(e for e in tail.events if e.get("id") == "w3")
    assert sakura == {**sakura, "user": "さくら", "text": "こんばんは", "color": "#ff7eb6", "badges": ["vip"]}
    gift = next(e for e in tail.events if e.get("id") == "w4")
    assert gift == {**gift, "gift": "Rose", "count": 3}
    tail.wait_stderr("skipped")  # the three bad messages are logged, not fatal

    # The program ends the connection; the feed reconnects and gets everything again.
    _, lost_at = tail.wait_stderr("status: reconnecting")
    tail.wait_stderr("status: live", start=lost_at + 1)
    tail.wait_event(lambda e: e.get("id") == "w5", start=last_at + 1)
    assert tail.stop() == 0
    assert not any(e.get("id") in ("x", "w2") for e in tail.events)
