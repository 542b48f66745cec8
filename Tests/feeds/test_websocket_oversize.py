# SPDX-License-Identifier: GPL-2.0-or-later
"""A WebSocket message over the renderer's limit (1 MiB) is refused with close 1009, and
the status says so instead of blaming the server (issue 13, item 8); the feed reconnects."""
import json
import struct

import pytest

from raw_websocket import CLOSE, CONTINUATION, TEXT, RawWebSocketServer, frame

TEN_MB = 10 * 1000 * 1000


def comment(ident):
    return json.dumps({"type": "comment", "id": ident, "user": "relay", "text": "small"})


def huge_text():
    padding = TEN_MB - len('{"type":"comment","id":"huge","user":"relay","text":""}')
    return '{"type":"comment","id":"huge","user":"relay","text":"' + "x" * padding + '"}'


def one_frame(connection, response, index):
    if index == 0:
        connection.sendall(response + frame(huge_text()))
    else:
        connection.sendall(response + frame(comment(f"after{index}")))


def fragments(connection, response, index):
    """Ten fragments of 1 MB: each is under the frame limit, the whole message is not."""
    if index == 0:
        payload = huge_text().encode()
        step = 1000 * 1000
        parts = [payload[at:at + step] for at in range(0, len(payload), step)]
        connection.sendall(response)
        for number, part in enumerate(parts):
            connection.sendall(frame(part, TEXT if number == 0 else CONTINUATION, fin=number == len(parts) - 1))
    else:
        connection.sendall(response + frame(comment(f"after{index}")))


@pytest.mark.parametrize("script", [one_frame, fragments], ids=["one-frame", "fragments"])
def test_oversized_message_is_refused_and_named(script, tail_factory):
    server = RawWebSocketServer(script)
    try:
        tail = tail_factory("--service", "websocket", "--stream", "big", "--server", f"ws://127.0.0.1:{server.port}/")
        line, _ = tail.wait_stderr("status: reconnecting")
        assert "a message larger than 1 MiB was refused (close 1009)" in line
        assert "server closed" not in line
        # The refusal really went to the server as a close frame with status 1009.
        _, _, payload = server.wait_received(lambda item: item[0] == 0 and item[1] == CLOSE, timeout=45)
        assert struct.unpack("!H", payload[:2])[0] == 1009
        # The feed connects again and carries on.
        tail.wait_event(lambda e: e.get("id") == "after1")
        assert not any(e.get("id") == "huge" for e in tail.events)
        assert tail.stop() == 0
    finally:
        server.close()
