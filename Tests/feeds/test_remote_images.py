# SPDX-License-Identifier: GPL-2.0-or-later
"""A feed's https:// avatar is fetched with caps, through COMMENTBAR_CONNECT_TO with TLS still
verified against the real host name, and drawn; hostile images leave the default avatar and
a log line, never a crash or a hang. Driven through `commentbar render`, which fetches the
images of the moment it draws."""
import json
import struct
import subprocess
import time
import zlib

import pytest

import https_routes
from conftest import binary

HOST = "yt3.ggpht.com"  # YouTube's avatar CDN, routed to loopback


def png(width, height, rgb):
    """A solid-colour PNG (test fixture writer: filter 0 rows, one IDAT)."""
    def chunk(kind, data):
        return struct.pack("!I", len(data)) + kind + data + struct.pack("!I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\0" + bytes(rgb) * width
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack("!IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height, 9)) + chunk(b"IEND", b""))


RED = png(64, 64, (220, 30, 30))
ROUTES = {
    "/red.png": (200, {"Content-Type": "image/png"}, RED),
    # 8000x8000: a few hundred KB on the wire, 256 MB if it were decoded at full size.
    "/huge.png": (200, {"Content-Type": "image/png"}, png(8000, 8000, (0, 0, 0))),
    "/big.png": (200, {"Content-Type": "image/png"}, RED + b"\0" * (3 << 20)),
    "/to-http.png": (302, {"Location": "http://127.0.0.1:1/red.png"}, b""),
    "/to-red.png": (302, {"Location": "/red.png"}, b""),
    "/missing.png": (404, {}, b"no"),
    "/text.png": (200, {"Content-Type": "image/png"}, b"this is not a picture"),
}


@pytest.fixture
def cdn(test_ca):
    server = https_routes.serve(ROUTES, test_ca, silent=["/slow.png"])
    yield server
    server.close()


def render(tmp_path, name, avatar, env, settings=None):
    events = tmp_path / f"{name}.jsonl"
    lines = [{"type": "start", "time": 1700000000, "at": 0}, {"type": "comment", "id": "a", "user": "u", "text": "hi"}]
    if avatar:
        lines.append({"type": "avatar", "url": avatar})
    events.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    settings_file = tmp_path / f"{name}-settings.json"
    settings_file.write_text(json.dumps({"width": 640, "height": 200, **(settings or {})}))
    out = tmp_path / f"{name}.png"
    started = time.monotonic()
    result = subprocess.run([binary(), "render", "--service", "file", "--stream", str(events), "--at", "1",
                             "--settings", str(settings_file), "--out", str(out)],
                            env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return out.read_bytes(), result.stderr, time.monotonic() - started


def test_https_avatar_is_fetched_verified_and_drawn(cdn, tmp_path, test_ca):
    env = {"COMMENTBAR_CA_FILE": test_ca["ca"], "COMMENTBAR_CONNECT_TO": f"{HOST}:443:127.0.0.1:{cdn.server_port}"}
    fetched, log, _ = render(tmp_path, "remote", f"https://{HOST}/red.png", env)
    local_file = tmp_path / "red.png"
    local_file.write_bytes(RED)
    from_settings, _, _ = render(tmp_path, "local", None, env, {"avatar_path": str(local_file)})
    default, _, _ = render(tmp_path, "default", None, env)
    assert fetched == from_settings, f"the fetched avatar is not the one drawn: {log}"
    assert fetched != default
    assert cdn.seen == [("/red.png", HOST)], "one request, with the real host name in Host"

    # A relative redirect to https is followed.
    redirected, log, _ = render(tmp_path, "redirected", f"https://{HOST}/to-red.png", env)
    assert redirected == fetched, log


def test_untrusted_certificate_is_refused(cdn, tmp_path):
    env = {"COMMENTBAR_CONNECT_TO": f"{HOST}:443:127.0.0.1:{cdn.server_port}"}  # no test CA: not trusted
    image, log, _ = render(tmp_path, "untrusted", f"https://{HOST}/red.png", env)
    default, _, _ = render(tmp_path, "default", None, env)
    assert image == default
    assert "image not shown" in log and "TLS" in log, log


@pytest.mark.parametrize("path, reason", [
    ("/huge.png", "too large a picture"),
    ("/big.png", "more than 2048 KiB"),
    ("/to-http.png", "not https://"),
    ("/missing.png", "HTTP 404"),
    ("/text.png", "yt3.ggpht.com/text.png: "),  # the decoder says why
    ("/slow.png", "timed out"),
])
def test_hostile_images_leave_the_default_avatar(cdn, tmp_path, test_ca, path, reason):
    env = {"COMMENTBAR_CA_FILE": test_ca["ca"], "COMMENTBAR_CONNECT_TO": f"{HOST}:443:127.0.0.1:{cdn.server_port}"}
    image, log, seconds = render(tmp_path, "hostile", f"https://{HOST}{path}", env)
    default, _, _ = render(tmp_path, "default", None, env)
    assert image == default, log
    assert "image not shown" in log, log
    assert reason in log, log
    assert "\n" not in log.strip().split("image not shown", 1)[1].strip(), "one line per image"
    assert seconds < 40, f"render took {seconds:.0f} s"
