# SPDX-License-Identifier: GPL-2.0-or-later
"""What a person sees and does on a test's X display: grabs of the screen (python3-xlib), the words
on them with their places (Debian's tesseract-ocr, `tsv` output), and clicks and keys (xdotool).
Qt draws the dock's widgets inside OBS's window, not as windows of their own: reading the screen
is how a test finds them, as a person would."""
import csv
import io
import os
import subprocess
import tempfile
import time

from PIL import Image, ImageOps
from Xlib import X, display as xdisplay

OCR_SCALE = 3  # Qt's 9-10 pt UI text, enlarged: tesseract reads it reliably at about 30 px a line


class Word:
    def __init__(self, text, left, top, width, height, line=(0, 0, 0), number=0):
        self.text, self.left, self.top, self.width, self.height = text, left, top, width, height
        self.line, self.number = line, number  # tesseract's (block, paragraph, line) and place in it

    @property
    def centre(self):
        return self.left + self.width // 2, self.top + self.height // 2

    def __repr__(self):
        return f"{self.text!r}@{self.left},{self.top}"


class Screen:
    def __init__(self, display):
        self.display_name = display
        self.x = xdisplay.Display(display)
        self.root = self.x.screen().root
        geometry = self.root.get_geometry()
        self.width, self.height = geometry.width, geometry.height
        self.env = dict(os.environ, DISPLAY=display)

    def grab(self, box=None):
        """The screen (or box: left, top, right, bottom) as an RGB image."""
        left, top, right, bottom = box or (0, 0, self.width, self.height)
        raw = self.root.get_image(left, top, right - left, bottom - top, X.ZPixmap, 0xFFFFFFFF)
        return Image.frombytes("RGB", (right - left, bottom - top), raw.data, "raw", "BGRX")

    def click(self, x, y):
        subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], env=self.env, check=True)
        time.sleep(0.15)

    def key(self, name):
        subprocess.run(["xdotool", "key", name], env=self.env, check=True)
        time.sleep(0.15)

    def close(self):
        self.x.close()


def words(image, offset=(0, 0), scale=OCR_SCALE):
    """The words tesseract reads in `image`, placed in screen coordinates (`offset`: the image's
    top left on the screen). The dark theme's light text is inverted first."""
    grey = ImageOps.invert(image.convert("L"))
    big = grey.resize((grey.width * scale, grey.height * scale), Image.LANCZOS)
    with tempfile.NamedTemporaryFile(suffix=".png") as png:
        big.save(png.name)
        out = subprocess.run(["tesseract", png.name, "-", "--psm", "11", "tsv"], capture_output=True, text=True,
                             timeout=60).stdout
    found = []
    for row in csv.DictReader(io.StringIO(out), delimiter="\t", quoting=csv.QUOTE_NONE):
        text = (row.get("text") or "").strip()
        if not text or float(row.get("conf") or -1) < 0:
            continue
        found.append(Word(text, offset[0] + int(row["left"]) // scale, offset[1] + int(row["top"]) // scale,
                          int(row["width"]) // scale, int(row["height"]) // scale,
                          (int(row["block_num"]), int(row["par_num"]), int(row["line_num"])), int(row["word_num"])))
    return found


def text_of(found):
    return " ".join(w.text for w in found)


def find(found, text, below=None, above=None):
    """The words equal to `text` (case-insensitive, trailing punctuation ignored), top to bottom,
    optionally only those between the y values `below` and `above`."""
    want = text.lower()
    hits = [w for w in found if w.text.lower().rstrip(".,:;!?") == want
            and (below is None or w.top > below) and (above is None or w.top < above)]
    return sorted(hits, key=lambda w: (w.top, w.left))


def phrase(found, text):
    """The first word of `text` (several words) where they follow each other on one line, or None."""
    parts = [part.rstrip(".,:;!?") for part in text.lower().split()]
    ordered = sorted(found, key=lambda w: (w.line, w.number))
    for i, word in enumerate(ordered):
        run = ordered[i:i + len(parts)]
        if all(w.line == word.line for w in run) and [w.text.lower().rstrip(".,:;!?") for w in run] == parts:
            return word
    return None
