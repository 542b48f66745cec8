# SPDX-License-Identifier: GPL-2.0-or-later
"""`commentbar tail` itself: its output schema with the local services, bad arguments, SIGINT."""
import json
import subprocess

from conftest import binary


def run_tail(*args):
    return subprocess.run([binary(), "tail", *args], capture_output=True, text=True, timeout=30)


def test_demo_prints_recording_header_then_events_with_at(tail_factory):
    tail = tail_factory("--service", "demo", "--stream", "demo")
    tail.wait_event(lambda e: e.get("type") == "comment")
    assert tail.stop() == 0
    header = tail.events[0]
    assert header["type"] == "recording" and header["time"] > 1.6e9
    assert all(isinstance(e.get("at"), (int, float)) and e["at"] >= 0 for e in tail.events[1:])
    assert any("status: live" in line for line in tail.errors)
    assert not any(e.get("type") == "status" for e in tail.events), "status goes to stderr only"


def test_recording_replays_through_the_file_service(tail_factory, tmp_path):
    tail = tail_factory("--service", "demo", "--stream", "demo")
    tail.wait_event(lambda e: e.get("type") == "comment" and e.get("id") == "d2")
    assert tail.stop() == 0
    recording = tmp_path / "recorded.jsonl"
    recording.write_text("\n".join(tail.lines) + "\n")
    replay = tail_factory("--service", "file", "--stream", str(recording))
    replay.wait_event(lambda e: e.get("id") == "d2")
    assert replay.stop() == 0
    original = [e["text"] for e in tail.events if e.get("type") == "comment"]
    replayed = [e["text"] for e in replay.events if e.get("type") == "comment"]
    assert replayed == original


def test_bad_arguments_are_one_clear_line_and_nonzero():
    cases = [
        (["--service", "twitch", "--stream", "bad name"], "twitch channel"),
        (["--service", "twitch", "--stream", "chan\r\nPRIVMSG #x :pwned"], "twitch channel"),
        (["--service", "twitch", "--stream", "a" * 26], "longer than 25"),
        (["--service", "irc", "--stream", "chan,other", "--server", "irc://127.0.0.1:6667"], "commas"),
        (["--service", "irc", "--stream", "x" * 51, "--server", "irc://127.0.0.1:6667"], "longer than 50"),
        (["--service", "irc", "--stream", "chan"], "needs a server"),
        (["--service", "irc", "--stream", "chan", "--server", "http://example.com"], "not supported"),
        (["--service", "irc", "--stream", "chan", "--server", "irc://host/path"], "no path"),
        (["--service", "websocket", "--stream", "x", "--server", "ws://"], "no host"),
        (["--service", "nosuch", "--stream", "x"], "unknown service"),
        (["--service", "file", "--stream", "/nonexistent/file.jsonl"], "no such file"),
        (["--stream", "x"], "not a stream URL or service:id"),
        (["--stream", "https://example.com/live"], "example.com is not a platform the bar reads"),
        (["--stream", "twitch:a", "--stream", "twitch:b", "--server", "wss://x"], "--server needs exactly one --stream"),
    ]
    for args, expected in cases:
        result = run_tail(*args)
        assert result.returncode != 0, args
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, (args, result.stderr)
        assert expected in lines[0], (args, lines[0])
        assert "Fatal error" not in result.stderr and "Stack" not in result.stderr
        assert result.stdout == "", args


def test_sigint_during_reconnect_ends_cleanly(tail_factory):
    from conftest import free_port
    port = free_port()  # nothing listens there: the feed keeps retrying
    tail = tail_factory("--service", "irc", "--stream", "chan", "--server", f"irc://127.0.0.1:{port}")
    tail.wait_stderr("reconnecting")
    assert tail.stop() == 0
    assert json.loads(tail.lines[0])["type"] == "recording"
