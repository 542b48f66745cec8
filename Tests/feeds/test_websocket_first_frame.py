# SPDX-License-Identifier: GPL-2.0-or-later
"""The `websocket` service keeps events a server writes in the same TCP write (or TLS
record) as its 101 handshake response, as fast relays do (issue 13, item 7): the bytes
after the handshake must reach the WebSocket decoder, not be dropped with the HTTP one."""
import json
import time

import pytest

from raw_websocket import RawWebSocketServer, frame


def comment(ident, text):
    return json.dumps({"type": "comment", "id": ident, "user": "relay", "text": text})


def eager_relay(connection, response, index):
    # One sendall of a few hundred bytes: one segment on loopback, read by the client at once.
    connection.sendall(response + frame(comment(f"c{index}-1", "avatar")) + frame(comment(f"c{index}-2", "hello")))
    time.sleep(0.3)
    connection.sendall(frame(comment(f"c{index}-3", "later")))


@pytest.fixture(params=["ws", "wss"])
def relay(request, test_ca):
    tls = request.param == "wss"
    server = RawWebSocketServer(eager_relay, test_ca if tls else None)
    yield request.param, server
    server.close()


def test_events_written_with_the_handshake_are_kept(relay, tail_factory, test_ca):
    scheme, server = relay
    host = "localhost" if scheme == "wss" else "127.0.0.1"
    tail = tail_factory("--service", "websocket", "--stream", "relay",
                        "--server", f"{scheme}://{host}:{server.port}/events",
                        env={"COMMENTBAR_CA_FILE": test_ca["ca"]})
    tail.wait_event(lambda e: e.get("id") == "c0-3")
    assert [e["id"] for e in tail.comments()] == ["c0-1", "c0-2", "c0-3"]
    assert server.requests[0] == "GET /events HTTP/1.1"
    assert tail.stop() == 0
