# SPDX-License-Identifier: GPL-2.0-or-later
"""The control page and the event API (issue 30) in real OBS: a Comment Bar with `control` on reads
a chat relay on loopback; Debian's chromium (headless, Selenium) opens the one-time link `commentbar
control-url` prints; what the bar shows is read from OBS's own frames (obs-websocket GetSourceScreenshot).

Checked: the token file (0600) and control-url's one-time link (no token in it); the page shows a comment within 1 s; pin on the page
puts the comment in the amber strip at the bar's top, where it stays while 10 comments scroll; OBS's
hotkeys "Pin the newest comment"/"Unpin" (TriggerHotkeyByName); the properties button "Open control
page" (PressInputPropertiesButton) runs `xdg-open LINK` (a fake on PATH that records its argument: a
one-time link that works once, never the token); a
nickname set on the page is drawn on the viewer's next row; hiding a viewer removes their next
comments; no token: 401; a foreign Host: 403; a WebSocket from another Origin: refused; the socket on
loopback only (`ss`); a WebSocket client of /api/events gets every comment as JSON, in order; a poll started
through the API (issue 48) is read off OBS's frame (tesseract): its question, each option's count on
its line, a viewer's second vote not counted, then "closed".

    PYTHONPATH=Tests python3 -m obs.shared_obs --plugin SO --data DIR --renderer BIN control.obs_control_test
    PYTHONPATH=Tests python3 -m control.obs_control_test --plugin SO --data DIR --renderer BIN   (the same)
COMMENTBAR_OBS_SHOTS=DIR keeps OBS's screenshots of the bar (PNG)."""
import json
import os
import stat
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from PIL import Image, ImageOps
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from control.api_call import api_call
from control.browser import chromium, wait_for
from control.link_files import link_in
from control.links import first_use
from control.event_client import EventClient
from control.relay import BLUE, Relay
from dock.screen import find as find_word, words
from obs import shared_obs
from support import websocket
from support.checks import check
from support.processes import free_port

NAME = "the control page and the event API in OBS"
SOURCE = "Control Bar"
WIDTH, HEIGHT = 640, 360
GREEN = "#44dd66"  # Bob's name only: a row of his shows as green pixels (under the header,
HEADER = 56        # whose "chat" mark is green too)
SHOTS_DIR = os.environ.get("COMMENTBAR_OBS_SHOTS")


def environment(work, cleanup, args):
    """A fake `xdg-open` first on OBS's PATH (the renderer inherits it): it appends its arguments,
    one line, to `xdg-open.log` in `work`."""
    bin_dir = os.path.join(work, "bin")
    os.makedirs(bin_dir)
    fake = os.path.join(bin_dir, "xdg-open")
    with open(fake, "w") as f:
        f.write(f'#!/bin/sh\nprintf "%s\\n" "$*" >> "{os.path.join(work, "xdg-open.log")}"\n')
    os.chmod(fake, 0o755)
    return {"PATH": bin_dir + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin")}


# ---- OBS's frames of the bar ----

def is_amber(r, g, b):  # the pin strip's colour
    return r > 90 and r > g + 20 and g > b + 40


def is_green(r, g, b):
    return g > r + 80 and g > b + 60


def pixels_where(image, test):
    """(x, y) of the image's pixels that pass `test`."""
    data = image.getdata()
    return [(i % image.width, i // image.width) for i, (r, g, b, _) in enumerate(data) if test(r, g, b)]


def shot(obs):
    return obs.image(SOURCE, WIDTH, HEIGHT)


def keep(image, work, name):
    image.save(os.path.join(work, name))
    if SHOTS_DIR:
        image.save(os.path.join(SHOTS_DIR, name))


def wait_shot(obs, condition, seconds=10):
    """Screenshots until `condition(image)` holds or `seconds` pass: (held, the last screenshot)."""
    deadline = time.monotonic() + seconds
    while True:
        image = shot(obs)
        if condition(image) or time.monotonic() > deadline:
            return condition(image), image
        time.sleep(0.1)


def strip_rows(image):
    """The pixel rows holding the pin strip's amber (more than 20 pixels each)."""
    counts = {}
    for _, y in pixels_where(image, is_amber):
        counts[y] = counts.get(y, 0) + 1
    return sorted(y for y, n in counts.items() if n > 20)


def pinned_at_top(image):
    rows = strip_rows(image)
    return bool(rows) and max(rows) < HEIGHT // 3


def mean_difference(a, b, box):
    pa, pb = list(a.crop(box).getdata()), list(b.crop(box).getdata())
    return sum(abs(x[i] - y[i]) for x, y in zip(pa, pb) for i in range(3)) / (3 * len(pa))


def green_rows(image):
    """Green pixels of the comments' rows (under the header)."""
    return [(x, y) for x, y in pixels_where(image, is_green) if y > HEADER]


def newest_green_width(image):
    """The width of the lowest green row's name (Bob's newest row), 0 without one."""
    green = green_rows(image)
    if not green:
        return 0
    bottom = max(y for _, y in green)
    xs = [x for x, y in green if y > bottom - 12]
    return max(xs) - min(xs) + 1


# ---- the control server from outside ----

def http_status(url, headers):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=5) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def websocket_answer(port, token, origin):
    """'accepted', or why the server refused an /api/events WebSocket from `origin`."""
    try:
        client = websocket.Client(f"ws://127.0.0.1:{port}/api/events", timeout=5, origin=origin,
                                  extra_headers={"Authorization": f"Bearer {token}"})
    except (OSError, websocket.Error) as error:
        return f"refused ({error})"
    client.close()
    return "accepted"


def listeners(port):
    """`ss -ltnp`'s listening sockets on `port`: (local address, its users)."""
    out = subprocess.run(["ss", "-Hltnp", f"sport = :{port}"], capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        fields = line.split()
        found.append((fields[3].rsplit(":", 1)[0], " ".join(fields[5:])))
    return found


# ---- the test ----

class Page:
    """The control page in chromium."""

    def __init__(self, url):
        self.driver = chromium()
        self.driver.get(url)
        wait_for(lambda: self.driver.find_element(By.ID, "connection").text == "Connected", "the page to connect")

    def row(self, id):
        return self.driver.find_element(By.CSS_SELECTOR, f'li.comment[data-id="{id}"]')

    def has(self, id):
        return bool(self.driver.find_elements(By.CSS_SELECTOR, f'li.comment[data-id="{id}"]'))

    def pinned(self):
        box = self.driver.find_element(By.ID, "pinned")
        return box.is_displayed() and self.driver.find_element(By.ID, "pinned-comment").text

    def quit(self):
        self.driver.quit()


def run(obs, work, args, env, cleanup):
    relay = Relay()
    cleanup.add(relay.close)
    port = free_port()
    settings = {"service": "websocket", "stream_id": "relay1", "server": f"ws://127.0.0.1:{relay.port}/chat",
                "width": WIDTH, "height": HEIGHT, "max_lines": 8, "control": True, "control_port": port,
                "show_clock": False, "show_viewers": False, "show_gifts": False, "show_mic": False,
                "show_avatar": False, "show_badges": False, "bg_opacity": 100, "highlight_first": False}
    obs.create_input(SOURCE, "comment_bar_source", settings)
    if not check(wait_for_value(lambda: relay.clients, 30), "the bar with control on reads the loopback relay"):
        return
    token_file = os.path.join(obs.home, "comment-bar", "control-token")
    if not check(wait_for_value(lambda: os.path.exists(token_file), 15), "the token file is in OBS's XDG_CONFIG_HOME",
                 token_file):
        return
    with open(token_file) as f:
        token = f.read().strip()
    mode = stat.S_IMODE(os.stat(token_file).st_mode)
    check(mode == 0o600 and len(token) >= 22, "the token: only the user may read it, 128 bits or more",
          f"mode {mode:o}, {len(token)} characters")
    url = subprocess.run([os.path.abspath(args.renderer), "control-url", "--port", str(port)], capture_output=True,
                         text=True, env={**os.environ, "XDG_CONFIG_HOME": obs.home,
                                         "XDG_DATA_HOME": os.path.join(obs.home, "data")}).stdout.strip()
    check(url.startswith(f"http://127.0.0.1:{port}/p/") and "/?code=" in url and token not in url,
          "`commentbar control-url` prints a one-time link to the page, without the token", url)
    wait_for_value(lambda: listeners(port), 15)
    found = listeners(port)
    check(sorted(address for address, _ in found) == ["127.0.0.1", "[::1]"]
          and all("commentbar" in users for _, users in found),
          "the control socket listens on loopback only, in the renderer (ss -ltnp)", f"{found}")

    base = f"http://127.0.0.1:{port}/api/state"
    statuses = (http_status(base, {}), http_status(base, {"Host": f"evil.example:{port}", "Authorization": f"Bearer {token}"}),
                http_status(base, {"Authorization": f"Bearer {token}"}))
    check(statuses == (401, 403, 200), "no token: 401; a foreign Host even with the token: 403; the token: 200",
          f"{statuses}")
    foreign, own = websocket_answer(port, token, "http://evil.example"), websocket_answer(port, token, f"http://127.0.0.1:{port}")
    check(foreign.startswith("refused") and "403" in foreign and own == "accepted",
          "a WebSocket from another Origin is refused, from the page's own accepted", f"other: {foreign}; own: {own}")

    events = EventClient(port, token)
    cleanup.add(events.close)
    page = Page(url)
    cleanup.add(page.quit)
    sent = []

    def comment(id, user, text, colour=BLUE, shown=True):
        relay.comment(id, user, text, colour)
        if shown:
            sent.append(id)

    started = time.monotonic()
    comment("fast1", "Sakura", "こんばんは、初見です")
    try:
        wait_for(lambda: "こんばんは、初見です" in page.row("fast1").text, "the comment on the page", timeout=5, poll=0.01)
        elapsed = time.monotonic() - started
    except AssertionError:
        elapsed = None
    check(elapsed is not None and elapsed < 1.0, "the page shows a new comment within 1 s",
          f"{elapsed * 1000:.0f} ms" if elapsed is not None else "not within 5 s")

    page_pin = pin_from_page(obs, work, page, comment)
    hotkeys(obs, work, page, comment, page_pin)
    open_button(obs, work, port, token)
    viewer_choices(obs, work, page, comment, events)

    wait_for_value(lambda: [e["id"] for e in events.comments()] == sent, 5)
    got = [e["id"] for e in events.comments()]
    check(got == sent and not events.bad, "a WebSocket client of /api/events receives every comment as JSON, in order",
          f"{len(got)} of {len(sent)} comments; first difference at "
          f"{next((i for i, (a, b) in enumerate(zip(got, sent)) if a != b), min(len(got), len(sent)))}; "
          f"{len(events.bad)} not JSON")
    comments = events.comments()
    check(all(e.get("version") == 1 and e.get("platform") == "websocket" and e.get("channel") == "relay1"
              and "first_time" in e and "nickname" in e and "emotes" in e for e in comments),
          "every comment event has version, platform, channel, first_time, nickname, emotes",
          f"{comments[0] if comments else None}")
    poll_strip(obs, work, port, token, relay)


def read_digits(image):
    """The digits tesseract reads in a small picture of light text on a dark panel, as one line."""
    grey = ImageOps.invert(image.convert("L"))
    big = grey.resize((grey.width * 4, grey.height * 4), Image.LANCZOS)
    with tempfile.NamedTemporaryFile(suffix=".png") as png:
        big.save(png.name)
        out = subprocess.run(["tesseract", png.name, "-", "--psm", "7", "-c", "tessedit_char_whitelist=0123456789"],
                             capture_output=True, text=True, timeout=60).stdout
    return out.strip()


def poll_strip(obs, work, port, token, relay):
    """A poll started through the control API (issue 48): its strip read off OBS's own frame
    (tesseract): the question, each option and its count on its line, a viewer's second vote not
    counted; closed, the strip says so."""
    status, _ = api_call(port, token, "POST", "/api/poll", {"question": "Next game?", "options": ["Mario", "Zelda"]})
    if not check(status == 200, "POST /api/poll starts a poll", f"status {status}"):
        return
    for id, user, text in (("pv1", "Ann", "!vote 2"), ("pv2", "Ben", "!vote 2"), ("pv3", "Cat", "!vote 1"),
                           ("pv4", "Ann", "!vote 1")):  # Ann's first vote stands
        relay.comment(id, user, text)
    counted = wait_for_value(lambda: [option["votes"] for option in
                                      api_call(port, token, "GET", "/api/poll")[1]["options"]] == [1, 2], 10)
    check(counted, "three viewers' votes counted once each", f"{api_call(port, token, 'GET', '/api/poll')[1]}")

    def count_beside(image, found, option):
        """The number at the right end of `option`'s line, past its proportion bar: read alone
        (tesseract takes a lone digit in a sparse page for noise)."""
        label = find_word(found, option)
        if not label:
            return None
        top, bottom = label[0].top - 6, label[0].top + label[0].height + 6
        return read_digits(image.crop((WIDTH * 15 // 16, max(0, top), WIDTH, min(HEIGHT, bottom))))

    read = {}

    def strip_read(image):
        found = words(image)
        read.update(text=" ".join(w.text for w in found), mario=count_beside(image, found, "Mario"),
                    zelda=count_beside(image, found, "Zelda"), question=bool(find_word(found, "Next") and find_word(found, "game")))
        return read["question"] and read["mario"] == "1" and read["zelda"] == "2"

    held, image = wait_shot(obs, strip_read, seconds=15)
    keep(image, work, "poll-strip.png")
    check(held, "OBS's frame shows the poll strip: the question, Mario 1 and Zelda 2 on their lines", f"{read}")
    api_call(port, token, "POST", "/api/poll/close", {})
    held, image = wait_shot(obs, lambda shown: find_word(words(shown), "closed") != [], seconds=15)
    keep(image, work, "poll-strip-closed.png")
    check(held, "closed: the strip says so in OBS's frame")
    api_call(port, token, "POST", "/api/poll/dismiss", {})


def wait_for_value(predicate, seconds):
    """`predicate()` once true, polled for `seconds` (exceptions count as not yet)."""
    try:
        wait_for(predicate, "it", timeout=seconds, poll=0.1)
    except AssertionError:
        return None
    return predicate()


def pin_from_page(obs, work, page, comment):
    comment("pin1", "Questioner", "What game is this?")
    wait_for(lambda: page.row("pin1"), "the comment to pin")
    held, before = wait_shot(obs, lambda image: not strip_rows(image), 5)
    check(held, "before any pin, no amber strip on the bar", f"amber rows {strip_rows(before)}")
    page.row("pin1").find_element(By.CSS_SELECTOR, "button.pin").click()
    wait_for_value(page.pinned, 5)
    check("What game is this?" in (page.pinned() or ""), "pin on the page: the page's pinned box shows the comment",
          f"{page.pinned()!r}")
    held, pinned = wait_shot(obs, pinned_at_top, 5)
    keep(pinned, work, "obs-pinned.png")
    check(held, "pin on the page: OBS's frame shows the strip at the top of the bar", f"amber rows {strip_rows(pinned)}")
    rows = strip_rows(pinned)
    if not rows:
        return None
    strip = (0, max(0, min(rows) - 4), WIDTH, max(rows) + 4)
    for index in range(10):
        comment(f"after{index}", f"Viewer{index}", f"comment {index} after the pin")
        wait_for(lambda: page.has(f"after{index}"), f"comment {index}")
        time.sleep(0.1)
    time.sleep(1)
    after = shot(obs)
    keep(after, work, "obs-pinned-after-ten.png")
    below = (0, strip[3] + 4, WIDTH, HEIGHT)
    check(mean_difference(pinned, after, below) > 3 and mean_difference(pinned, after, strip) < 1.5,
          "the strip stays in OBS's frame while 10 comments scroll past below it",
          f"mean difference {mean_difference(pinned, after, strip):.2f} in the strip, "
          f"{mean_difference(pinned, after, below):.2f} below it")
    page.driver.find_element(By.ID, "pinned-unpin").click()
    held, image = wait_shot(obs, lambda image: not strip_rows(image), 5)
    check(held and wait_for_value(lambda: not page.pinned(), 5), "unpin on the page: the strip leaves OBS's frame",
          f"amber rows {strip_rows(image)}")
    return pinned, strip


def hotkeys(obs, work, page, comment, page_pin):
    names = obs.request("GetHotkeyList").get("hotkeys", [])
    check("comment_bar.pin_newest" in names and "comment_bar.unpin" in names,
          "the source registers the hotkeys \"Pin the newest comment\" and \"Unpin\"",
          f"{[n for n in names if n.startswith('comment_bar')]}")
    comment("newest1", "Latest", "the newest comment so far")
    wait_for(lambda: page.has("newest1"), "the newest comment")
    time.sleep(0.3)
    obs.request("TriggerHotkeyByName", {"hotkeyName": "comment_bar.pin_newest"})
    held, image = wait_shot(obs, pinned_at_top, 5)
    check(held and "the newest comment so far" in (wait_for_value(page.pinned, 5) or ""),
          "the hotkey \"Pin the newest comment\" pins it: strip in OBS's frame, the page's pinned box",
          f"amber rows {strip_rows(image)}; page: {page.pinned()!r}")
    if page_pin:  # the strip is redrawn for the newest comment (waited for: a strip may be there before)
        pinned, strip = page_pin
        _, image = wait_shot(obs, lambda image: mean_difference(pinned, image, strip) > 3, 5)
        check(mean_difference(pinned, image, strip) > 3, "the strip shows the newest comment, not the one pinned before",
              f"mean difference {mean_difference(pinned, image, strip):.2f} from the page's pin's strip")
    keep(image, work, "obs-hotkey-pinned.png")
    obs.request("TriggerHotkeyByName", {"hotkeyName": "comment_bar.unpin"})
    held, image = wait_shot(obs, lambda image: not strip_rows(image), 5)
    check(held and wait_for_value(lambda: not page.pinned(), 5), "the hotkey \"Unpin\" takes the strip away",
          f"amber rows {strip_rows(image)}; page: {page.pinned()!r}")


def open_button(obs, work, port, token):
    record = os.path.join(work, "xdg-open.log")
    obs.request("PressInputPropertiesButton", {"inputName": SOURCE, "propertyName": "open_control_page"})

    def opened():
        with open(record) as f:
            return f.read().splitlines()
    lines = wait_for_value(opened, 10) or []
    # xdg-open is given a private file that leads to the link (PageTrampoline): never a code.
    given = lines[0] if len(lines) == 1 else ""
    link = link_in(given) if given.startswith("file://") and "code=" not in given else ""
    uses = (first_use(link)[0], first_use(link)[0]) if link else ()
    check(link.startswith(f"http://127.0.0.1:{port}/p/") and "/?code=" in link and token not in link + given
          and uses == (303, 401),
          "the properties button \"Open control page\" runs xdg-open with a private file holding a one-time link "
          "(never the token, no code in its command line) that works once", f"{lines}; {link}; answers {uses}")


def viewer_choices(obs, work, page, comment, events):
    comment("who1", "Bob", "hello from bob", GREEN)
    wait_for(lambda: page.has("who1"), "Bob's comment")
    held, plain = wait_shot(obs, newest_green_width, 5)
    keep(plain, work, "obs-bob.png")
    plain_width = newest_green_width(plain)
    page.row("who1").find_element(By.CSS_SELECTOR, "button.nickname").click()
    field = page.driver.find_element(By.ID, "viewer-nickname")
    wait_for(lambda: field.is_displayed(), "the nickname dialog")
    field.send_keys("ボブさん", Keys.ENTER)
    wait_for_value(lambda: page.driver.find_element(By.ID, "notice").text, 5)
    notice = page.driver.find_element(By.ID, "notice").text
    comment("who2", "Bob", "bob again", GREEN)
    wait_for(lambda: page.has("who2"), "Bob's next comment")
    held, named = wait_shot(obs, lambda image: newest_green_width(image) > plain_width + 10, 5)
    keep(named, work, "obs-bob-nickname.png")
    event = next((e for e in events.comments() if e.get("id") == "who2"), {})
    check(held and event.get("nickname") == "ボブさん",
          "a nickname set on the page is drawn on the viewer's next row in OBS's frame",
          f"name {plain_width} px wide before, {newest_green_width(named)} px after; event nickname "
          f"{event.get('nickname')!r}; page: {notice!r}")

    page.row("who2").find_element(By.CSS_SELECTOR, "button.hide").click()
    wait_for_value(lambda: page.driver.find_element(By.ID, "notice").text != notice, 5)
    for index in range(8):  # Bob's rows scroll out of the bar (8 rows at most)
        comment(f"fill{index}", f"Filler{index}", f"filler {index}")
        wait_for(lambda: page.has(f"fill{index}"), f"filler {index}")
    cleared, _ = wait_shot(obs, lambda image: not green_rows(image), 5)
    comment("hidden1", "Bob", "bob should not be seen", GREEN, shown=False)
    comment("marker1", "Marker", "after bob's hidden comment")
    wait_for(lambda: page.has("marker1"), "the marker comment")
    time.sleep(1)
    image = shot(obs)
    keep(image, work, "obs-bob-hidden.png")
    green = green_rows(image)
    check(cleared and not green and not page.has("hidden1"),
          "hiding a viewer on the page removes their next comments from OBS's frame and the page",
          f"Bob's old rows gone first: {bool(cleared)}; {len(green)} green pixels after his next comment; "
          f"on the page: {page.has('hidden1')}")


if __name__ == "__main__":
    sys.exit(shared_obs.main([sys.modules[__name__]]))
