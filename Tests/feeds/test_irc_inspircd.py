# SPDX-License-Identifier: GPL-2.0-or-later
"""The `irc` service against a real InspIRCd on loopback: chat shows up, and the feed
recovers by itself after the server is stopped and started again."""
import pytest

from conftest import free_port
from ircd import InspIRCd, IRCClient


@pytest.fixture
def ircd(tmp_path):
    server = InspIRCd(str(tmp_path), free_port())
    server.start()
    yield server
    server.stop()


def is_comment(text):
    return lambda e: e.get("type") == "comment" and e.get("text") == text


def test_messages_from_irc_appear_as_events(ircd, tail_factory):
    tail = tail_factory("--service", "irc", "--stream", "#cbtest", "--server", f"irc://127.0.0.1:{ircd.port}")
    tail.wait_stderr("status: live")
    viewer = IRCClient(ircd.port, "viewer")
    viewer.join("#cbtest")
    viewer.send("PRIVMSG #cbtest :こんばんは、配信ありがとう！",
                "PRIVMSG #cbtest :hello from the test",
                "PRIVMSG #cbtest :\x01ACTION waves\x01",
                "PRIVMSG #elsewhere :not for the bar",
                "NOTICE #cbtest :a channel notice")
    japanese, _ = tail.wait_event(is_comment("こんばんは、配信ありがとう！"))
    assert japanese["user"] == "viewer" and japanese["login"] == "viewer"
    # InspIRCd's msgid looks like "468~1700000000~0"; a generated id would be a UUID.
    assert "~" in japanese["id"], f"message-tags were not negotiated: id {japanese['id']}"
    tail.wait_event(is_comment("hello from the test"))
    action, _ = tail.wait_event(is_comment("waves"))
    assert action["kind"] == "action"
    notice, _ = tail.wait_event(is_comment("a channel notice"))
    assert notice["kind"] == "notice"
    assert not any(e.get("text") == "not for the bar" for e in tail.events)
    ids = [e["id"] for e in tail.comments()]
    assert len(ids) == len(set(ids)), "ids are unique"
    viewer.close()
    assert tail.stop() == 0


def test_feed_comes_back_after_server_restart(ircd, tail_factory):
    tail = tail_factory("--service", "irc", "--stream", "cbtest", "--server", f"irc://127.0.0.1:{ircd.port}")
    _, live_at = tail.wait_stderr("status: live")
    viewer = IRCClient(ircd.port, "before")
    viewer.join("#cbtest")
    viewer.send("PRIVMSG #cbtest :before the restart")
    tail.wait_event(is_comment("before the restart"))

    ircd.stop()
    _, lost_at = tail.wait_stderr("status: reconnecting", start=live_at + 1)
    ircd.start()
    tail.wait_stderr("status: live", start=lost_at + 1)

    viewer = IRCClient(ircd.port, "after")
    viewer.join("#cbtest")
    viewer.send("PRIVMSG #cbtest :再接続のあと after the restart")
    tail.wait_event(is_comment("再接続のあと after the restart"))
    viewer.close()
    assert tail.stop() == 0


def test_recorded_irc_chat_shows_in_rendered_frames(ircd, tail_factory, tmp_path):
    """IRC → tail recording → `commentbar render --service file`: the frame with the chat differs
    from the frame of the same recording without its comments."""
    import subprocess
    from conftest import binary

    tail = tail_factory("--service", "irc", "--stream", "cbtest", "--server", f"irc://127.0.0.1:{ircd.port}")
    tail.wait_stderr("status: live")
    viewer = IRCClient(ircd.port, "renderfan")
    viewer.join("#cbtest")
    viewer.send("PRIVMSG #cbtest :絵に出るかな？ does it render?")
    last, _ = tail.wait_event(is_comment("絵に出るかな？ does it render?"))
    viewer.close()
    assert tail.stop() == 0

    with_chat = tmp_path / "with.jsonl"
    with_chat.write_text("\n".join(tail.lines) + "\n")
    without_chat = tmp_path / "without.jsonl"
    without_chat.write_text("\n".join(l for l in tail.lines if '"type":"comment"' not in l) + "\n")
    frames = []
    for recording in (with_chat, without_chat):
        out = tmp_path / (recording.stem + ".png")
        subprocess.run([binary(), "render", "--service", "file", "--stream", str(recording),
                        "--at", str(last["at"] + 1), "--out", str(out)], check=True, timeout=120)
        frames.append(out.read_bytes())
    assert frames[0][:8] == b"\x89PNG\r\n\x1a\n"
    assert frames[0] != frames[1], "the IRC comment changed nothing in the rendered frame"
