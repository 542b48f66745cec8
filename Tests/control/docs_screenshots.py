#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The user guide's screenshots of the viewer memory and the control page, made from the real
thing: `commentbar serve` (remembering into a private folder) reading a WebSocket relay on
loopback, the control page in headless chromium, the bar's frames read from the pool.
Reuses the control page test's relay, browser and pool helpers.

    PYTHONPATH=Tests COMMENTBAR_BIN=.build-release/static/commentbar /usr/bin/python3 \
        Tests/control/docs_screenshots.py OUT_FOLDER

Writes OUT_FOLDER/control-page.png, bar-first-time.png and bar-pinned.png; docs/images/ keeps
them quantised to 128 colours with PIL (the page cropped to 900x580)."""
import os
import subprocess
import sys
import tempfile
import time

from selenium.webdriver.common.by import By

from control import test_control_page
from control.browser import wait_for
from control.test_control_page import BIN, Relay, ServedBar, amber_pixels, browser, free_port, save_frame


def main(out):
    os.makedirs(out, exist_ok=True)
    test_control_page.SHOTS = out
    home = tempfile.mkdtemp(prefix="docs-shots-")
    env = {"XDG_CONFIG_HOME": os.path.join(home, "config"), "XDG_DATA_HOME": os.path.join(home, "data")}
    relay = Relay()
    port = free_port()
    settings = {"service": "websocket", "stream_id": "mychannel", "server": f"ws://127.0.0.1:{relay.port}/chat",
                "remember": True, "control": True, "control_port": port,
                "show_avatar": False, "show_mic": False, "bg_opacity": 90, "max_lines": 6}
    bar = ServedBar(BIN, settings, width=960, height=300, env=env)
    # OBS streaming for 42 minutes, in Japanese: the LIVE badge, the clock, the 初見 label.
    bar.send({"obs": {"frontend": True, "streaming": True, "streaming_start": time.time() - 2537,
                      "mic": "none", "locale": "ja-JP"}})
    driver = None
    try:
        bar.wait_log(f"control page: on port {port} ")
        wait_for(lambda: relay.clients, "the bar to connect to the relay", timeout=30)
        url = subprocess.run([BIN, "control-url", "--port", str(port)], env={**os.environ, **env},
                             capture_output=True, text=True, check=True).stdout.strip()
        driver = browser()
        driver.set_window_size(900, 760)
        driver.get(url)
        wait_for(lambda: driver.find_element(By.ID, "connection").text == "Connected", "the page to connect")

        def comment(id, user, text, colour):
            relay.send({"type": "comment", "id": id, "user": user, "login": user.lower(), "text": text, "color": colour})
            wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'li.comment[data-id="{id}"]'), f"comment {id}")

        # Earlier regulars, then their second comments (no badge), a newcomer, a nickname from chat.
        comment("c1", "Kenta", "こんばんは！", "#4fc3f7")
        comment("c2", "Mika", "今日も来ました", "#f06292")
        comment("c3", "Kenta", "待ってました", "#4fc3f7")
        comment("c4", "Mika", "BGMいいね", "#f06292")
        comment("c5", "Sora", "初めて来ました、よろしくお願いします", "#aed581")
        comment("c6", "kuro_neko", "いつも見てます@くろ", "#ffb74d")
        comment("c7", "kuro_neko", "このゲーム難しそう", "#ffb74d")
        time.sleep(1.0)
        save_frame(bar, bar.frames[-1][2], "bar-first-time.png")

        # Pin a question from the page; more chat scrolls under the strip.
        comment("c8", "Sora", "このゲームの名前は何ですか？", "#aed581")
        driver.find_element(By.CSS_SELECTOR, 'li.comment[data-id="c8"] button.pin').click()
        bar.wait_log("control: pinned c8")
        comment("c9", "Mika", "がんばれー", "#f06292")
        comment("c10", "Kenta", "8888", "#4fc3f7")
        top, bottom = ServedBar.COMMENTS_TOP - 8, ServedBar.COMMENTS_TOP + 14
        wait_for(lambda: amber_pixels(bar, bar.frames[-1][2], top, bottom) > 100, "the pin strip on the bar")
        time.sleep(1.0)
        save_frame(bar, bar.frames[-1][2], "bar-pinned.png")
        driver.save_screenshot(os.path.join(out, "control-page.png"))
    finally:
        if driver is not None:
            driver.quit()
        bar.stop()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs-shots")
