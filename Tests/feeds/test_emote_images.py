# SPDX-License-Identifier: GPL-2.0-or-later
"""Emote pictures fetched by the renderer over HTTPS under a real CDN host name (static-cdn.jtvnw.net
through COMMENTBAR_CONNECT_TO, TLS verified with the test CA), drawn inline by `commentbar render`;
hostile pictures show as text with a log line, never a crash or a hang; the disk cache
(`$XDG_CACHE_HOME/commentbar`) is used by the next run, so a picture is downloaded once."""
import json
import os
import struct
import subprocess
import time
import zlib

import pytest

import https_routes
from conftest import binary

HOST = "static-cdn.jtvnw.net"
EMOTES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "CommentBarRenderTests", "Emotes")


def fixture(name):
    with open(os.path.join(EMOTES, name), "rb") as f:
        return f.read()


def png_header(width, height):
    """Only a PNG's signature and IHDR: a picture claiming to be width x height."""
    data = struct.pack("!IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + struct.pack("!I", len(data)) + b"IHDR" + data
            + struct.pack("!I", zlib.crc32(b"IHDR" + data) & 0xFFFFFFFF))


FRESH = {"Cache-Control": "public, max-age=3600"}
ROUTES = {
    "/still.png": (200, {"Content-Type": "image/png", **FRESH}, fixture("still.png")),
    "/party.gif": (200, {"Content-Type": "image/gif", **FRESH}, fixture("party.gif")),
    "/party.webp": (200, {"Content-Type": "image/webp", **FRESH}, fixture("party.webp")),
    "/nostore.png": (200, {"Content-Type": "image/png", "Cache-Control": "no-store"}, fixture("still.png")),
    "/huge.png": (200, {"Content-Type": "image/png"}, png_header(50000, 50000)),
    "/big.gif": (200, {"Content-Type": "image/gif"}, fixture("party.gif") + b"\0" * (10 << 20)),
    "/truncated.png": (200, {"Content-Type": "image/png"}, fixture("still.png")[:60]),
    "/text.png": (200, {"Content-Type": "text/html"}, b"<html>not a picture</html>"),
    "/loop.png": (302, {"Location": "/loop.png"}, b""),
    "/missing.png": (404, {}, b"no"),
}
GOOD = ["/still.png", "/party.gif", "/party.webp", "/nostore.png"]
HOSTILE = ["/huge.png", "/big.gif", "/truncated.png", "/text.png", "/loop.png", "/missing.png", "/silent.png"]


@pytest.fixture
def cdn(test_ca):
    server = https_routes.serve(ROUTES, test_ca, silent=["/silent.png"])
    yield server
    server.close()


def comment_with(paths, ident):
    """A comment whose words e0, e1, … are emotes at https://HOST/<path>."""
    words = [f"e{i}" for i in range(len(paths))]
    text = "look " + " ".join(words)
    emotes, position = [], len("look ")
    for word, path in zip(words, paths):
        emotes.append({"start": position, "end": position + len(word), "name": word, "url": f"https://{HOST}{path}"})
        position += len(word) + 1
    return {"type": "comment", "id": ident, "user": "viewer", "text": text, "emotes": emotes, "at": 0}


def render(tmp_path, name, lines, env):
    events = tmp_path / f"{name}.jsonl"
    events.write_text("\n".join(json.dumps(line) for line in [{"type": "recording", "time": 1700000000}] + lines) + "\n")
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"width": 960, "height": 240, "animate_emotes": False}))
    out = tmp_path / f"{name}.png"
    started = time.monotonic()
    result = subprocess.run([binary(), "render", "--service", "file", "--stream", str(events), "--at", "1",
                             "--settings", str(settings), "--out", str(out)],
                            env={**os.environ, **env}, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return out.read_bytes(), result.stderr, time.monotonic() - started


def test_emotes_are_drawn_fetched_once_and_cached_on_disk(cdn, test_ca, tmp_path):
    env = {"COMMENTBAR_CA_FILE": test_ca["ca"], "COMMENTBAR_CONNECT_TO": f"{HOST}:443:127.0.0.1:{cdn.server_port}",
           "XDG_CACHE_HOME": str(tmp_path / "cache")}
    lines = [comment_with(GOOD, "a"), comment_with(["/still.png", "/party.gif"], "b")]
    drawn, log, _ = render(tmp_path, "first", lines, env)
    assert sorted(path for path, _ in cdn.seen) == sorted(GOOD), "each picture fetched once, however many rows show it"
    assert "emote shown as text" not in log, log

    # Without the CDN the same rows show their text: the pictures were really drawn.
    offline = {**env, "COMMENTBAR_CONNECT_TO": f"{HOST}:443:127.0.0.1:9", "XDG_CACHE_HOME": str(tmp_path / "empty")}
    as_text, log, _ = render(tmp_path, "offline", lines, offline)
    assert drawn != as_text
    assert "emote shown as text" in log

    # A second run reads the disk cache: nothing fresh is downloaded again, and the bar is the same.
    cdn.seen.clear()
    again, log, _ = render(tmp_path, "again", lines, env)
    assert [path for path, _ in cdn.seen] == ["/nostore.png"], "only the picture the server said not to store is fetched again"
    assert again == drawn


def test_hostile_pictures_show_as_text_in_bounded_time(cdn, test_ca, tmp_path):
    env = {"COMMENTBAR_CA_FILE": test_ca["ca"], "COMMENTBAR_CONNECT_TO": f"{HOST}:443:127.0.0.1:{cdn.server_port}",
           "XDG_CACHE_HOME": str(tmp_path / "cache")}
    # An http:// picture and a range outside the text are dropped before any fetch.
    line = comment_with(HOSTILE, "h")
    line["emotes"].append({"start": 0, "end": 4, "name": "look", "url": f"http://{HOST}/still.png"})
    line["emotes"].append({"start": 400, "end": 404, "name": "gone", "url": f"https://{HOST}/still.png"})
    drawn, log, took = render(tmp_path, "hostile", [line], env)
    assert took < 30, f"render took {took:.1f} s"
    shown_as_text = [l for l in log.splitlines() if "emote shown as text" in l]
    assert len(shown_as_text) >= 6, log
    assert "/still.png" not in [path for path, _ in cdn.seen], "no fetch for an http:// picture or one outside the text"
    plain, _, _ = render(tmp_path, "plain", [{**line, "emotes": []}], env)
    assert drawn == plain, "every hostile emote shows as its text"
