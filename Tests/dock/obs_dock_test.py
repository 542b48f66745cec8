# SPDX-License-Identifier: GPL-2.0-or-later
"""The Comment Bar dock (issue 40) in real OBS 29 (Debian's, built with Qt 5) under Xvfb, used as a
person would: read off the screen (tesseract) and driven with the mouse and keys (xdotool). A Comment
Bar with its control page on reads a chat relay on loopback; what the bar shows is read from OBS's
own frames (obs-websocket GetSourceScreenshot).

Checked: the loader opened the Qt 5 dock and never mapped the Qt 6 one (/proc/PID/maps); the dock is
listed under Docks and shown beside the preview on OBS's first start; a comment sent through the relay
is in the dock within 1 s (screen grabs every 50 ms, read afterwards); Pin by a click and by the P key
puts the pin strip on the bar's next frames, U and Unpin take it away; Hide (the H key) keeps the
viewer's next comments off the bar and out of the dock; the dock follows on after the renderer is
killed, and across a switch to another scene collection and back; the Audience part opened on its
Queue tab is kept so in the dock's own settings file (plugin_config/comment-bar-dock/dock.ini) when
OBS quits; the token is in no file of OBS's config (its log, the scene collection, global.ini, the
dock's files).

    PYTHONPATH=Tests python3 -m dock.obs_dock_test --plugin SO --data DIR --renderer BIN \
        --dock-loader SO --dock-libraries DIR --dock-data DIR [--screenshot PNG]
--screenshot: instead of the checks, the user guide's picture of the dock in OBS (preview on, a few
comments, one pinned, the Audience part open on a poll viewers voted in). COMMENTBAR_KEEP_WORK=1
keeps the work folder (screen grabs, OBS's log)."""
import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from PIL import Image, ImageDraw

# The control page's real-OBS test reads the same bar (its size, name and colours) the same way.
from control.api_call import api_call
from control.obs_control_test import GREEN, HEIGHT, SOURCE, WIDTH, green_rows, pinned_at_top, shot, strip_rows, wait_shot
from control.relay import Relay
from dock import screen as on_screen
from support import obs as real_obs
from support.checks import check, finish
from support.processes import Cleanup, free_port, wait_for
from support.xserver import Xvfb

PICTURE_SOURCE = "Stream chat"  # the user guide's picture's bar
WINDOW = (1600, 1000)  # OBS's main window, made this size: the dock gets room for a dozen rows


# ---- OBS with the dock ----

def stage(work, args, with_dock=True):
    """The plugin and the dock staged as OBS's plugin folders (OBS_PLUGINS_PATH is a folder of
    modules: the dock's Qt libraries go in its comment-bar-dock/ subfolder, which OBS never opens)."""
    env = real_obs.stage_plugin(work, args.plugin, args.data)
    if not with_dock:
        return env
    plugins, data = env["OBS_PLUGINS_PATH"], env["OBS_PLUGINS_DATA_PATH"]
    shutil.copy(args.dock_loader, os.path.join(plugins, "comment-bar-dock.so"))
    shutil.copytree(args.dock_libraries, os.path.join(plugins, "comment-bar-dock"))
    shutil.copytree(args.dock_data, os.path.join(data, "comment-bar-dock"))
    return env


@contextlib.contextmanager
def obs_with_dock(work, args, cleanup, with_dock=True):
    xvfb = Xvfb(work, 1920, 1080)
    cleanup.add(xvfb.stop)
    home = os.path.join(work, "home")
    os.makedirs(home)
    env = {**stage(work, args, with_dock), "COMMENTBAR_RENDERER": os.path.abspath(args.renderer), "HOME": home,
           "XDG_CACHE_HOME": os.path.join(home, ".cache")}
    obs = real_obs.OBS(home, xvfb.display, work, env)
    cleanup.add(obs.stop)
    screen = on_screen.Screen(xvfb.display)
    cleanup.add(screen.close)
    yield obs, screen


def main_window(screen):
    """OBS's main window: (id, left, top, width, height)."""
    ids = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^OBS "], env=screen.env,
                         capture_output=True, text=True).stdout.split()
    best = None
    for window in ids:
        shell = subprocess.run(["xdotool", "getwindowgeometry", "--shell", window], env=screen.env,
                               capture_output=True, text=True).stdout
        facts = dict(line.split("=", 1) for line in shell.split() if "=" in line)
        place = (int(window), int(facts["X"]), int(facts["Y"]), int(facts["WIDTH"]), int(facts["HEIGHT"]))
        if best is None or place[3] * place[4] > best[3] * best[4]:
            best = place
    return best


def bar_settings(relay, port, **extra):
    return {"service": "websocket", "stream_id": "relay1", "server": f"ws://127.0.0.1:{relay.port}/chat",
            "width": WIDTH, "height": HEIGHT, "max_lines": 8, "control": True, "control_port": port,
            "show_clock": False, "show_viewers": False, "show_gifts": False, "show_mic": False,
            "show_avatar": False, "show_badges": False, "bg_opacity": 100, "highlight_first": False, **extra}


# ---- the dock on the screen ----

class Dock:
    """The dock as it is on the screen: its box, found once by its title and its row of buttons."""

    def __init__(self, screen, box, work):
        self.screen, self.box, self.work = screen, box, work
        self.shots = 0

    @classmethod
    def find(cls, screen, work, seconds=20):
        window = main_window(screen)
        if not window:
            return None, "no OBS window"
        _, left, top, width, height = window
        deadline = time.monotonic() + seconds
        while True:
            found = on_screen.words(screen.grab((left, top, left + width, top + height)), (left, top), scale=1)
            title = on_screen.phrase(found, "Comment Bar")
            hides = [w for w in on_screen.find(found, "Hide") if title and w.left > title.left and w.top > title.top]
            if title and hides:
                hide = hides[-1]
                # The title sits a little right of the panel's left edge: room for its first letters.
                box = (title.left - 20, title.top - 6, left + width - 2, hide.top + hide.height + 10)
                return cls(screen, box, work), f"at {box}"
            if time.monotonic() > deadline:
                return None, f"read on OBS's window: {on_screen.text_of(found)[:300]}"
            time.sleep(1)

    def grab(self):
        return self.screen.grab(self.box)

    def words(self, image=None):
        return on_screen.words(image or self.grab(), self.box[:2])

    def keep(self, image, name):
        image.save(os.path.join(self.work, name))

    def wait_for(self, predicate, seconds=10, name=None):
        """Reads the dock until predicate(words) holds or `seconds` pass: (held, words); the last
        grab is kept as `name`."""
        deadline = time.monotonic() + seconds
        while True:
            image = self.grab()
            found = self.words(image)
            held = predicate(found)
            if held or time.monotonic() > deadline:
                if name:
                    self.keep(image, name)
                return bool(held), found

    def shows(self, text):
        return lambda found: on_screen.phrase(found, text)

    def click_text(self, text, found=None):
        word = on_screen.phrase(found or self.words(), text)
        if word:
            self.screen.click(*word.centre)
        return word

    def click_button(self, label, found=None):
        """The lowest `label` in the dock (the selected row's buttons are its last row)."""
        hits = on_screen.find(found or self.words(), label)
        if hits:
            self.screen.click(*hits[-1].centre)
        return hits[-1] if hits else None


def dock_column(screen, dock):
    """The words in the dock's column down to the bottom of OBS's window: the dock's box and the
    Audience part under it."""
    _, _, top, _, height = main_window(screen)
    column = (dock.box[0], dock.box[1], dock.box[2], top + height - 2)
    return on_screen.words(screen.grab(column), column[:2])


def open_audience(screen, dock, tab=None):
    """Opens the dock's Audience part with a click on its header (under the row's buttons, below the
    dock's box), then the tab named `tab`: (done, what was read)."""
    found = dock_column(screen, dock)
    header = on_screen.phrase(found, "Audience poll queue giveaway")
    if not header:
        return False, on_screen.text_of(found)[-200:]
    screen.click(*header.centre)
    time.sleep(1)  # opened, it takes its share of the height: the header moves up
    found = dock_column(screen, dock)
    header = on_screen.phrase(found, "Audience poll queue giveaway")
    if not tab:
        return bool(header), on_screen.text_of(found)[-200:]
    # Below the header: its own "queue," is not the tab.
    tabs = on_screen.find(found, tab, below=header.top + 5) if header else []
    if tabs:
        screen.click(*tabs[0].centre)
    return bool(tabs), on_screen.text_of(found)[-200:]


def first_grab_showing(dock, grabs, text):
    """Of (time, image) grabs in order, the time of the first whose words show `text` (binary search:
    once shown a comment stays), or None."""
    low, high, found = 0, len(grabs) - 1, None
    while low <= high:
        middle = (low + high) // 2
        if on_screen.phrase(dock.words(grabs[middle][1]), text):
            found, high = middle, middle - 1
        else:
            low = middle + 1
    return grabs[found][0] if found is not None else None


# ---- the checks ----

def listed(screen, dock):
    """The Docks menu lists the dock (OBS 29's menu bar has Docks beside View)."""
    window = main_window(screen)
    _, left, top, width, _ = window
    found = on_screen.words(screen.grab((left, top, left + width, top + 40)), (left, top), scale=2)
    menu = on_screen.find(found, "Docks")
    if not menu:
        return False, "no Docks menu read"
    screen.click(*menu[0].centre)
    time.sleep(0.5)
    x, y = menu[0].left, menu[0].top
    image = screen.grab((x - 10, y, x + 400, y + 500))
    image.save(os.path.join(dock.work, "obs-docks-menu.png"))
    shown = on_screen.phrase(on_screen.words(image, (x - 10, y)), "Comment Bar")
    screen.key("Escape")
    return bool(shown), f"menu read: {on_screen.text_of(on_screen.words(image))[:200]}"


def arrives_within_a_second(dock, relay):
    grabs = []
    sent = time.monotonic()
    relay.comment("z1", "Sakura", "zebra quartz seven")
    while time.monotonic() - sent < 2.5:
        grabs.append((time.monotonic() - sent, dock.grab()))
        time.sleep(0.05)
    seconds = first_grab_showing(dock, grabs, "zebra quartz seven")
    if seconds is not None:
        dock.keep(next(image for t, image in grabs if t >= seconds), "dock-first-comment.png")
    else:
        dock.keep(grabs[-1][1], "dock-first-comment.png")
    check(seconds is not None and seconds < 1.0, "a comment sent through the relay is in the dock within 1 s",
          f"{seconds * 1000:.0f} ms ({len(grabs)} grabs)" if seconds is not None else "not within 2.5 s")


def pin_by_click_and_key(obs, dock):
    held, before = wait_shot(obs, lambda image: not strip_rows(image))
    check(held, "before any pin, no pin strip on the bar", f"strip rows {strip_rows(before)}")
    row = dock.click_text("zebra quartz seven")
    pin = dock.click_button("Pin") if row else None
    held, image = wait_shot(obs, pinned_at_top)
    image.save(os.path.join(dock.work, "bar-pinned-by-click.png"))
    check(bool(row and pin) and held, "a click on the row, then on Pin: the pin strip is on the bar's next frames",
          f"row {row}, button {pin}; strip rows {strip_rows(image)}")
    held, _ = dock.wait_for(dock.shows("Pinned on the bar"), 8, "dock-pinned.png")
    check(held, "the dock shows the pinned comment at its top")

    dock.click_text("zebra quartz seven")  # the chat has the keyboard again
    dock.screen.key("u")
    held, image = wait_shot(obs, lambda image: not strip_rows(image))
    check(held, "U on the selected row: the strip leaves the bar", f"strip rows {strip_rows(image)}")

    dock.click_text("zebra quartz seven")
    dock.screen.key("p")
    held, image = wait_shot(obs, pinned_at_top)
    image.save(os.path.join(dock.work, "bar-pinned-by-key.png"))
    check(held, "P on the selected row: the pin strip is on the bar's next frames", f"strip rows {strip_rows(image)}")
    held, found = dock.wait_for(dock.shows("Pinned on the bar"), 8)
    unpin = on_screen.find(found, "Unpin")
    if unpin:
        dock.screen.click(*unpin[0].centre)  # the pinned comment's own Unpin, at the top
    held, image = wait_shot(obs, lambda image: not strip_rows(image))
    check(bool(unpin) and held, "the pinned comment's Unpin in the dock takes the strip away",
          f"strip rows {strip_rows(image)}")


def hide_a_viewer(obs, dock, relay):
    relay.comment("b1", "Bob", "bob says hello", GREEN)
    shown, _ = dock.wait_for(dock.shows("bob says hello"), 10)
    held, image = wait_shot(obs, green_rows)
    check(shown and held, "Bob's comment is in the dock and on the bar (his name green)")
    dock.click_text("bob says hello")
    dock.screen.key("h")
    said, _ = dock.wait_for(lambda found: on_screen.find(found, "Show"), 5, "dock-hidden.png")
    check(said, "H on Bob's row: the dock's button for him says Show")
    for index in range(8):  # Bob's row scrolls out of the bar (8 lines)
        relay.comment(f"f{index}", f"Filler{index}", f"filler number {index}")
        time.sleep(0.15)
    cleared, _ = wait_shot(obs, lambda image: not green_rows(image))
    relay.comment("b2", "Bob", "bob hidden words", GREEN)
    relay.comment("m1", "Marker", "marker after bob")
    # A wait, not a bound: under make check's load the marker once took more than 10 s to be
    # read off the dock's screenshot (tesseract), while the test alone sees it at once.
    marker, found = dock.wait_for(dock.shows("marker after bob"), 30, "dock-after-hide.png")
    time.sleep(1)
    image = shot(obs)
    image.save(os.path.join(dock.work, "bar-after-hide.png"))
    check(marker and cleared and not green_rows(image) and not on_screen.phrase(found, "bob hidden words"),
          "Bob's next comment is neither on the bar nor in the dock",
          f"marker in the dock: {marker}; his old rows gone first: {cleared}; green pixels now {len(green_rows(image))}")


def renderer_pids(obs):
    out = subprocess.run(["pgrep", "-P", str(obs.pid), "-x", "commentbar"], capture_output=True, text=True).stdout
    return [int(pid) for pid in out.split()]


def follows_a_restart(obs, dock, relay):
    pids = renderer_pids(obs)
    # The killed renderer's connection may stay in the relay's list a moment: a comment sent to it
    # is lost, so the new renderer's own connection is waited for.
    before = set(relay.clients)
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    restarted = wait_for(lambda: [p for p in renderer_pids(obs) if p not in pids] and set(relay.clients) - before, 30)
    relay.comment("k1", "Again", "after the renderer died")
    held, _ = dock.wait_for(dock.shows("after the renderer died"), 20, "dock-after-restart.png")
    check(bool(pids) and bool(restarted) and held, "the renderer killed (SIGKILL): OBS starts it again and the dock follows on",
          f"killed {pids}, restarted: {bool(restarted)}")


def follows_scene_collections(obs, dock, relay):
    """Another scene collection (obs-websocket makes one and switches to it), then back to the first."""
    obs.request("CreateSceneCollection", {"sceneCollectionName": "Another collection"})
    gone, found = dock.wait_for(dock.shows("No Comment Bar source"), 15, "dock-other-collection.png")
    check(gone, "OBS switches to a scene collection without a Comment Bar: the dock says so",
          on_screen.text_of(found)[:160])
    relay.clients.clear()
    obs.request("SetCurrentSceneCollection", {"sceneCollectionName": real_obs.PROFILE})
    wait_for(lambda: relay.clients, 30)
    relay.comment("c1", "Home", "back home now")  # short: a wrapped line is not read as one phrase
    back, _ = dock.wait_for(dock.shows("back home now"), 20, "dock-collection-back.png")
    check(back, "back in the first scene collection, the dock follows its Comment Bar again, without a restart of OBS")


def maps(obs):
    with open(f"/proc/{obs.pid}/maps") as f:
        mapped = f.read()
    check("comment-bar-dock-qt5.so" in mapped and "comment-bar-dock-qt6.so" not in mapped and "libQt6" not in mapped,
          "OBS 29 (Qt 5): the Qt 5 dock is mapped, the Qt 6 dock and Qt 6 never (/proc/PID/maps)",
          f"qt5 dock {'comment-bar-dock-qt5.so' in mapped}, qt6 dock {'comment-bar-dock-qt6.so' in mapped}, "
          f"libQt6 {'libQt6' in mapped}")


def audience_kept(screen, dock):
    """The Audience part opened on its Queue tab: OBS's exit finds it written in the dock's own file."""
    opened, read = open_audience(screen, dock, "Queue")
    time.sleep(1)
    dock.keep(screen.grab(), "obs-audience-open.png")
    check(opened, "the dock's Audience part opens with a click on its header, and its Queue tab with another", read)
    return opened


def audience_file_says(home, opened):
    path = os.path.join(home, "obs-studio", "plugin_config", "comment-bar-dock", "dock.ini")
    try:
        with open(path) as f:
            text = f.read()
    except OSError as error:
        text = str(error)
    check(opened and "open=true" in text and "tab=queue" in text,
          "OBS quit: the dock's settings file (plugin_config/comment-bar-dock/dock.ini) says the Audience part "
          "was left open on its Queue tab", " ".join(text.split()))


def token_nowhere(home):
    with open(os.path.join(home, "comment-bar", "control-token")) as f:
        token = f.read().strip()
    holding = []
    for folder, _, files in os.walk(os.path.join(home, "obs-studio")):
        for name in files:
            with open(os.path.join(folder, name), "rb") as f:
                if token.encode() in f.read():
                    holding.append(os.path.relpath(os.path.join(folder, name), home))
    check(len(token) > 20 and not holding, "the token is in no file of OBS's config (its log, the scene collection)",
          ", ".join(holding))


def run_checks(work, args):
    with Cleanup() as cleanup, obs_with_dock(work, args, cleanup) as (obs, screen):
        log = obs.log_text()
        check("[comment-bar-dock] comment-bar-dock" in log and "the Qt 5 dock from" in log,
              "the loader says in OBS's log that it opened the Qt 5 dock",
              next((line for line in log.splitlines() if "comment-bar-dock" in line), "no line"))
        maps(obs)
        relay = Relay()
        cleanup.add(relay.close)
        obs.create_input(SOURCE, real_obs.BAR_KIND, bar_settings(relay, free_port()))
        check(bool(wait_for(lambda: relay.clients, 30)), "the bar (control page on) reads the loopback relay")
        window = main_window(screen)
        subprocess.run(["xdotool", "windowsize", str(window[0]), str(WINDOW[0]), str(WINDOW[1])], env=screen.env)
        time.sleep(1)
        dock, where = Dock.find(screen, work)
        screen.grab().save(os.path.join(work, "obs-first-start.png"))
        check(dock is not None, "the dock \"Comment Bar\" is shown beside the preview on OBS's first start", where)
        if dock is None:
            return
        held, why = listed(screen, dock)
        check(held, "Docks lists \"Comment Bar\"", why)
        held, found = dock.wait_for(lambda found: on_screen.phrase(found, SOURCE) and on_screen.phrase(found, "Following the chat"),
                                    20, "dock-following.png")
        check(held, "the dock picks the scene's Comment Bar and follows its chat", on_screen.text_of(found)[:200])
        arrives_within_a_second(dock, relay)
        pin_by_click_and_key(obs, dock)
        hide_a_viewer(obs, dock, relay)
        follows_a_restart(obs, dock, relay)
        follows_scene_collections(obs, dock, relay)
        opened = audience_kept(screen, dock)
        home = obs.home
        obs.stop()  # OBS writes its scene collection and global.ini on the way out
    audience_file_says(home, opened)
    token_nowhere(home)


# ---- the user guide's picture ----

def test_pattern(path):
    """A stand-in for a game: a dark gradient with a few shapes."""
    image = Image.new("RGB", (1280, 720))
    draw = ImageDraw.Draw(image)
    for y in range(720):
        draw.line([(0, y), (1280, y)], fill=(20 + y // 12, 40 + y // 10, 70 + y // 8))
    draw.ellipse((820, 160, 1180, 520), fill=(200, 120, 60))
    draw.rectangle((90, 420, 520, 650), fill=(60, 140, 90))
    image.save(path)


def start_poll(obs, relay, port):
    """A poll started through the control API and three viewers' votes (`!vote N` and an answer's
    word, as viewers vote): whether the renderer counted them."""
    token_file = os.path.join(obs.home, "comment-bar", "control-token")
    if not wait_for(lambda: os.path.exists(token_file), 15):
        return False
    with open(token_file) as f:
        token = f.read().strip()
    status, _ = api_call(port, token, "POST", "/api/poll", {"question": "Next game?", "options": ["Mario Kart", "Tetris", "Splatoon"],
                                                            "seconds": 300})
    if status != 200:
        return False
    for id, user, text, colour in (("v1", "Mika", "!vote 2", "#ffd54f"), ("v2", "Ren", "Tetris", "#81c784"),
                                   ("v3", "Kenji", "!vote 1", "#4fc3f7")):
        relay.comment(id, user, text, colour)
        time.sleep(0.4)
    return bool(wait_for(lambda: api_call(port, token, "GET", "/api/poll")[1].get("voters") == 3, 10))


def run_screenshot(work, args):
    chat = [("s0", "Kenji", "evening everyone", "#4fc3f7"), ("s1", "Sakura", "こんばんは！初見です", "#ff7eb6"),
            ("s2", "Kenji", "GG, that boss was brutal", "#4fc3f7"), ("s3", "Mika", "What game is this?", "#ffd54f"),
            ("s4", "Aoi", "BGMいいね", "#ce93d8"), ("s5", "Ren", "the second phase is the hard part", "#81c784"),
            ("s6", "Aoi", "がんばれー", "#ce93d8")]
    with Cleanup() as cleanup, obs_with_dock(work, args, cleanup) as (obs, screen):
        relay = Relay()
        cleanup.add(relay.close)
        pattern = os.path.join(work, "pattern.png")
        test_pattern(pattern)
        obs.create_input("Game", "image_source", {"file": pattern})
        port = free_port()
        # 300 px high: the pin's and the poll's strips and a line of chat under them.
        obs.create_input(PICTURE_SOURCE, real_obs.BAR_KIND, bar_settings(relay, port, show_clock=True, bg_opacity=80,
                                                                width=1280, height=300, max_lines=5))
        wait_for(lambda: relay.clients, 30)
        obs.request("SetSceneItemTransform", {"sceneName": real_obs.SCENE, "sceneItemId": obs.request(
            "GetSceneItemId", {"sceneName": real_obs.SCENE, "sourceName": PICTURE_SOURCE})["sceneItemId"],
            "sceneItemTransform": {"positionY": 420}})
        window = main_window(screen)
        # Tall enough for the chat and the Audience part's poll one above the other in the dock.
        subprocess.run(["xdotool", "windowsize", str(window[0]), "1440", "1080"], env=screen.env)
        time.sleep(1)
        dock, where = Dock.find(screen, work)
        if dock is None:
            print(f"no dock: {where}")
            return
        _, left, top, width, height = main_window(screen)
        enable = on_screen.phrase(on_screen.words(screen.grab((left, top, left + width, top + height)), (left, top),
                                                  scale=1), "Enable Preview")
        if enable:
            screen.click(*enable.centre)
        for id, user, text, colour in chat:
            relay.comment(id, user, text, colour)
            time.sleep(0.4)
        dock.wait_for(dock.shows("the second phase"), 10)
        dock.click_text("What game is this")
        dock.click_button("Pin")
        time.sleep(1)
        if not start_poll(obs, relay, port):
            print("the poll did not start or its votes were not counted")
            return
        opened, read = open_audience(screen, dock)
        shown = opened and wait_for(lambda: on_screen.phrase(dock_column(screen, dock), "Mario Kart"), 10)
        if not shown:
            print(f"the Audience part did not open on the poll: {read}")
            return
        dock.wait_for(dock.shows("the second phase"), 10)
        dock.click_text("the second phase")
        # No source selected in Sources: the preview shows no selection box or guides.
        found = on_screen.words(screen.grab((left, top, left + width, top + height)), (left, top), scale=1)
        title = on_screen.find(found, "Sources")
        bar_item = [w for w in on_screen.find(found, "Stream") if title and w.top > title[0].top and
                    abs(w.left - title[0].left) < 120]
        if bar_item:  # Ctrl+click takes the selected row out of the selection
            subprocess.run(["xdotool", "mousemove", str(bar_item[0].centre[0]), str(bar_item[0].centre[1]),
                            "keydown", "ctrl", "click", "1", "keyup", "ctrl"], env=screen.env)
        # The pointer away from the sources (a hovered one is outlined in the preview).
        subprocess.run(["xdotool", "mousemove", str(left + 20), str(top + height - 8)], env=screen.env)
        time.sleep(1.5)
        _, left, top, width, height = main_window(screen)
        screen.grab((left, top, left + width, top + height)).quantize(256).save(args.screenshot, optimize=True)
        print(f"wrote {args.screenshot}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    real_obs.add_arguments(parser)
    parser.add_argument("--dock-loader", required=True, help="the OBS module comment-bar-dock.so")
    parser.add_argument("--dock-libraries", required=True, help="the folder of comment-bar-dock-qt*.so")
    parser.add_argument("--dock-data", required=True, help="the dock module's data folder (locale/)")
    parser.add_argument("--screenshot", help="write the user guide's picture here instead of checking")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="commentbar-dock-obs.")
    try:
        started = time.monotonic()
        if args.screenshot:
            run_screenshot(work, args)
            return 0
        run_checks(work, args)
        print(f"(the dock's real-OBS test took {time.monotonic() - started:.0f} s)")
    finally:
        if os.environ.get("COMMENTBAR_KEEP_WORK"):
            print(f"(work folder kept: {work})")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
