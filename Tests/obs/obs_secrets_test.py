# SPDX-License-Identifier: GPL-2.0-or-later
"""The Mirrativ session stays out of what OBS saves and shares, in real OBS (issue 28): a
Comment Bar reading Mirrativ gets its `mirrativ_session` through obs-websocket's
SetInputSettings (as the properties' password field sets it); then
- GetInputSettings holds no session (only `secrets_id` and `mirrativ_session_saved`);
- the secret is in $XDG_CONFIG_HOME/comment-bar/secrets/<secrets_id>, mode 0600;
- the bar connects with it: a loopback Mirrativ (its web API under www.mirrativ.com wants the
  `mr_id` session cookie, its chat under online.mirrativ.com gets the live's SUB line; the test
  CA and COMMENTBAR_CONNECT_TO route the real names to loopback) sees the cookie;
- the saved scene collection holds no session: OBS saves it when it switches collections
  (CreateSceneCollection), and switching back loads it, which makes the source again from its
  saved settings (as an OBS restart would): its new renderer still sends the cookie;
- after `kill -9` of that renderer (the shim starts a new one) the cookie is sent again;
- OBS's log never shows the session.
    obs_secrets_test.py --plugin SO --data DIR --renderer BIN
In `make check` it shares one OBS with the other real-OBS tests (obs/shared_obs.py).

The fake Mirrativ here is not Tests/feeds/mirrativ_server.py: that one needs the feeds venv
(pytest through conftest, websockets' newer asyncio API), and these tests run on Debian's
python3. Its answers have the same shape (fixtures/mirrativ/SOURCES.md).
"""
import glob
import http.server
import json
import os
import signal
import stat
import sys
import urllib.parse

from obs import shared_obs
from memory.obs_memory_test import the_renderer
from support import obs as real_obs, tls, websocket
from support.checks import check
from support.fakes import HTTPSServer, LoopbackFake
from support.processes import wait_for

NAME = "the Mirrativ session out of OBS's saved settings"
API_HOST, CHAT_HOST = "www.mirrativ.com", "online.mirrativ.com"
SESSION = "s3cr3t-obs-session-5f0c2a9e7d41b3c8"
LIVE_ID = "aB3xYz9QwErTyU"
CHAT_KEY = "3f9a2c:mRvT0k3n"
OTHER_COLLECTION = "Secrets Saved"
FAKES = {}  # work folder -> its FakeMirrativ: environment() starts it, run() asks it


class FakeMirrativ(LoopbackFake):
    """Mirrativ's web API (one live, answered only with the session cookie) and its chat server
    (what the bar sends: SUB and the chat key), under their real host names."""

    def __init__(self, test_ca):
        super().__init__(test_ca)
        self.cookies = []  # the Cookie header of each API request
        outer = self

        class API(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                url = urllib.parse.urlsplit(self.path)
                cookie = self.headers.get("Cookie", "")
                outer.cookies.append(cookie)
                live_id = urllib.parse.parse_qs(url.query).get("live_id", [""])[0]
                if f"mr_id={SESSION}" not in cookie:
                    status, body = 401, {"status": {"ok": 0, "error_code": 401, "error": "ログインしてください"}}
                elif url.path == "/api/live/live" and live_id == LIVE_ID:
                    status, body = 200, {"live_id": LIVE_ID, "is_live": True, "title": "テスト配信",
                                         "bcsvr_key": CHAT_KEY, "broadcast_key": CHAT_KEY, "online_user_num": 3,
                                         "started_at": 1714586400,
                                         "owner": {"user_id": "1234567", "name": "配信者", "share_url": ""},
                                         "status": {"ok": 1, "error_code": 0, "error": ""}}
                else:
                    status, body = 404, {"status": {"ok": 0, "error_code": 404, "error": ""}}
                data = json.dumps(body, ensure_ascii=False).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.serves(HTTPSServer(test_ca, API), API_HOST)
        self.chat = self.serves(websocket.Server(ssl=tls.server_context(test_ca)), CHAT_HOST)

    def with_session(self):
        return sum(1 for cookie in list(self.cookies) if f"mr_id={SESSION}" in cookie)

    def subscribed(self):
        return sum(1 for message in list(self.chat.received) if message == f"SUB\t{CHAT_KEY}")


def environment(work, cleanup, args):
    test_ca = tls.make_test_ca(os.path.join(work, "ca"), [API_HOST, CHAT_HOST])
    fake = FakeMirrativ(test_ca)
    cleanup.add(fake.close)
    FAKES[work] = fake
    return fake.env()


def holds_session(value):
    return SESSION in json.dumps(value, ensure_ascii=False)


def saved_bar(home, name):
    """The bar's entry in the scene collection file OBS saved, and the file's text."""
    path = os.path.join(home, "obs-studio", "basic", "scenes", real_obs.PROFILE + ".json")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    bars = [s for s in json.loads(text).get("sources", []) if s.get("name") == name]
    return (bars[0] if bars else None), text


def sent_again(fake, before, seconds=30):
    """Whether the API saw the cookie and the chat a SUB again after the counts in `before`."""
    return wait_for(lambda: fake.with_session() > before[0] and fake.subscribed() > before[1], seconds)


def run(obs, work, args, env, cleanup):
    fake = FAKES[work]
    name = "Secret Bar"
    obs.create_input(name, real_obs.BAR_KIND, {"service": "mirrativ", "stream_id": f"https://{API_HOST}/live/{LIVE_ID}",
                                               "width": 640, "height": 160})
    # The properties' password field: OBS sets the one key on the source's settings.
    obs.request("SetInputSettings", {"inputName": name, "inputSettings": {"mirrativ_session": SESSION}})

    connected = sent_again(fake, (0, 0))
    check(connected, "the bar reads Mirrativ with the session: its API gets the cookie, its chat the SUB line",
          f"{fake.with_session()} requests with the cookie of {len(fake.cookies)}; chat got {fake.chat.received[:3]}")
    settings = obs.request("GetInputSettings", {"inputName": name}).get("inputSettings", {})
    check(not holds_session(settings), "GetInputSettings holds no session",
          f"{sorted(settings)}" + (" (the session is in it)" if holds_session(settings) else ""))
    secrets_id = settings.get("secrets_id", "")
    check(settings.get("mirrativ_session_saved") is True and len(secrets_id) == 32,
          "the settings keep only that a session is saved and the file's id",
          f"mirrativ_session_saved={settings.get('mirrativ_session_saved')}, secrets_id={secrets_id!r}")

    path = os.path.join(obs.home, "comment-bar", "secrets", secrets_id)
    found = wait_for(lambda: os.path.isfile(path), 10)
    mode = stat.S_IMODE(os.stat(path).st_mode) if found else None
    held = found and SESSION in open(path, encoding="utf-8").read()
    check(found and mode == 0o600 and held, "the session is kept in $XDG_CONFIG_HOME/comment-bar/secrets/<secrets_id>, 0600",
          f"{path}: {'mode %o' % mode if found else 'missing'}, {'holds' if held else 'does not hold'} the session; "
          f"folder: {glob.glob(os.path.join(obs.home, 'comment-bar', 'secrets', '*'))}")

    # OBS saves the collection when it switches to another; switching back loads the saved file.
    obs.request("CreateSceneCollection", {"sceneCollectionName": OTHER_COLLECTION})
    wait_for(lambda: saved_bar(obs.home, name)[0], 10)  # the file as write_config made it has no bar
    bar, text = saved_bar(obs.home, name)
    check(bar is not None and bar.get("settings", {}).get("mirrativ_session_saved") is True,
          "the saved scene collection has the bar (its settings say a session is saved)",
          f"{bar.get('settings') if bar else 'no such source'}")
    check(SESSION not in text, "the saved scene collection file holds no session",
          "the session is in it" if SESSION in text else f"{len(text)} characters without it")
    before = (fake.with_session(), fake.subscribed())
    obs.request("SetCurrentSceneCollection", {"sceneCollectionName": real_obs.PROFILE})
    check(sent_again(fake, before), "the source made again from the saved collection still sends the session",
          f"requests with the cookie {before[0]} -> {fake.with_session()}, SUB lines {before[1]} -> {fake.subscribed()}")
    # The renderer dies; the shim gives its new one the newest settings line, which since the
    # reload has only the id and the flag: the session comes from the file.
    pid = the_renderer(obs)
    before = (fake.with_session(), fake.subscribed())
    if check(pid is not None, "the bar's renderer runs, alone (to kill)"):
        os.kill(pid, signal.SIGKILL)
        check(sent_again(fake, before), "after kill -9 the shim's new renderer sends the session from its file",
              f"requests with the cookie {before[0]} -> {fake.with_session()}, SUB lines {before[1]} -> {fake.subscribed()}")

    check(SESSION not in obs.log_text(), "OBS's log never shows the session")


if __name__ == "__main__":
    sys.exit(shared_obs.main([sys.modules[__name__]]))
