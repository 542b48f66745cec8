# SPDX-License-Identifier: GPL-2.0-or-later
"""Comment-to-screen latency from obs-websocket screenshots of the program scene.

For each probe: take a baseline screenshot, write one unique comment to the
feed (noting the time just before the write), then poll screenshots of the
scene until enough pixels differ from the baseline. Pixels that change with
no comment at all (a clock) are learnt first and ignored.

A screenshot is rendered by OBS while the request is handled, so the comment
became visible after the start of the last request that did not show it and
before the reply that did: the latency is bracketed by [lower, upper]. We
report the midpoint and the bracket widths (the polling resolution).
"""
import io
import random
import time

import matplotlib.image
import numpy as np

SHOT_W, SHOT_H = 320, 180  # the 1280x720 canvas at a quarter: about 4 ms a shot, so fine polling
# obs-websocket's imageCompressionQuality; Qt maps 80 to zlib level 1: at 320x180 the fastest round trip plus
# decode (uncompressed PNG is cheaper to write but six times the base64 to carry; the default, level 6, slower).
PNG_QUALITY = 80
CHANNEL_DELTA = 40          # a channel must move this much (of 255) to count
MIN_PIXELS = 12             # changed pixels (outside the mask) that mean "it appeared"


def decode_png(data):
    """An (h, w, 3) uint8 array of the RGB of a PNG (matplotlib reads 8-bit PNG as floats in 0..1; alpha is
    dropped)."""
    img = matplotlib.image.imread(io.BytesIO(data), format="png")
    if img.ndim == 2:
        img = np.stack([img] * 3, axis=2)
    return (img[:, :, :3] * 255 + 0.5).astype(np.uint8)


def shot(obs, source):
    for _ in range(50):
        t0, t1, img = obs.screenshot(source, SHOT_W, SHOT_H, "png", PNG_QUALITY)
        if img is not None:
            return t0, t1, decode_png(img)
        time.sleep(0.05)  # no frame yet (702 right after CreateInput)
    raise RuntimeError("GetSourceScreenshot gave no image in 2.5 s")


def changed(a, b, mask=None):
    d = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=2) > CHANNEL_DELTA
    if mask is not None:
        d &= ~mask
    return d


def dilate(mask, r=3):
    out = mask.copy()
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            out |= np.roll(np.roll(mask, dy, axis=0), dx, axis=1)
    return out


def learn_mask(obs, source, seconds):
    """Pixels that change while nothing is written (a ticking clock): ignored afterwards."""
    _, _, first = shot(obs, source)
    mask = np.zeros(first.shape[:2], dtype=bool)
    end = time.monotonic() + seconds
    prev = first
    while time.monotonic() < end:
        _, _, img = shot(obs, source)
        mask |= changed(prev, img)
        prev = img
        time.sleep(0.03)
    return dilate(mask) if mask.any() else mask


def settle(obs, source, mask, quiet=0.3, limit=3.0):
    """Waits until the scene has not changed for `quiet` seconds (animations done); returns the last shot."""
    _, _, prev = shot(obs, source)
    still_since = time.monotonic()
    end = time.monotonic() + limit
    while time.monotonic() < end:
        time.sleep(0.03)
        _, _, img = shot(obs, source)
        if changed(prev, img, mask).sum() >= MIN_PIXELS:
            still_since = time.monotonic()
        prev = img
        if time.monotonic() - still_since >= quiet:
            break
    return prev


def pct(values, q):
    return float(np.percentile(np.array(values), q)) if values else None


def latency(obs, source, write, probes, timeout, jitter, log, label, mask_seconds=2.5):
    """Runs `probes` probes; write(i) writes probe i and returns time.monotonic() just before writing."""
    rng = random.Random(1234)
    mask = learn_mask(obs, source, mask_seconds)
    masked = int(mask.sum())
    samples, misses, polls = [], 0, []
    started = time.monotonic()
    for i in range(probes):
        base = settle(obs, source, mask)
        time.sleep(rng.uniform(0.0, jitter))  # a random phase against any polling in the source
        _, _, check = shot(obs, source)
        if changed(base, check, mask).sum() >= MIN_PIXELS:
            base = settle(obs, source, mask)
        tw = write(i)
        last_neg_start = tw
        found = None
        n = 0
        while time.monotonic() - tw < timeout:
            t0, t1, img = shot(obs, source)
            n += 1
            if changed(base, img, mask).sum() >= MIN_PIXELS:
                found = (t0, t1)
                break
            last_neg_start = max(last_neg_start, t0)
        if found is None:
            misses += 1
            log(f"  {label} probe {i}: not seen within {timeout:.0f} s")
            continue
        lower = last_neg_start - tw
        upper = found[1] - tw
        samples.append({"lower_ms": lower * 1000, "upper_ms": upper * 1000, "mid_ms": (lower + upper) * 500,
                        "polls": n})
        polls.append((upper - lower) * 1000)
    mids = [s["mid_ms"] for s in samples]
    uppers = [s["upper_ms"] for s in samples]
    lowers = [s["lower_ms"] for s in samples]
    r = {
        "label": label,
        "shot_size": f"{SHOT_W}x{SHOT_H}",
        "probes": probes,
        "seen": len(samples),
        "missed": misses,
        "timeout_s": timeout,
        "masked_pixels": masked,
        "p50_ms": pct(mids, 50), "p99_ms": pct(mids, 99), "max_ms": max(mids) if mids else None,
        "p50_upper_ms": pct(uppers, 50), "p99_upper_ms": pct(uppers, 99),
        "p50_lower_ms": pct(lowers, 50), "p99_lower_ms": pct(lowers, 99),
        "bracket_ms_median": pct(polls, 50), "bracket_ms_max": max(polls) if polls else None,
        "samples": samples,
        "seconds": time.monotonic() - started,
    }
    if mids:
        log(f"  {label}: p50 {r['p50_ms']:.0f} ms, p99 {r['p99_ms']:.0f} ms over {len(mids)} probes "
            f"(polling bracket median {r['bracket_ms_median']:.0f} ms), {misses} missed")
    return r


MARKER_MIN_PIXELS = 8  # magenta pixels (at 320x180) that mean the marked comment is on screen


def magenta_pixels(img):
    """Pixels far more red and blue than green: the probe's #ff00ff name, which no other comment uses."""
    i = img.astype(np.int16)
    return int(((np.minimum(i[:, :, 0], i[:, :, 2]) - i[:, :, 1]) > 100).sum())


def latency_marked(obs, source, write, probes, timeout, jitter, log, label):
    """Latency while other comments keep flowing: each probe's name is magenta, and it counts as shown when
    magenta pixels appear. Before each probe, the previous one must have scrolled away (no magenta)."""
    rng = random.Random(4321)
    samples, misses, polls = [], 0, []
    started = time.monotonic()
    for i in range(probes):
        end = time.monotonic() + 5.0
        while time.monotonic() < end:
            _, _, img = shot(obs, source)
            if magenta_pixels(img) == 0:
                break
            time.sleep(0.05)
        else:
            raise RuntimeError(f"{label}: the previous probe never left the screen")
        time.sleep(rng.uniform(0.0, jitter))
        tw = write(i)
        last_neg_start = tw
        found = None
        n = 0
        while time.monotonic() - tw < timeout:
            t0, t1, img = shot(obs, source)
            n += 1
            if magenta_pixels(img) >= MARKER_MIN_PIXELS:
                found = (t0, t1)
                break
            last_neg_start = max(last_neg_start, t0)
        if found is None:
            misses += 1
            log(f"  {label} probe {i}: not seen within {timeout:.0f} s")
            continue
        lower, upper = last_neg_start - tw, found[1] - tw
        samples.append({"lower_ms": lower * 1000, "upper_ms": upper * 1000, "mid_ms": (lower + upper) * 500,
                        "polls": n})
        polls.append((upper - lower) * 1000)
    mids = [s["mid_ms"] for s in samples]
    uppers = [s["upper_ms"] for s in samples]
    lowers = [s["lower_ms"] for s in samples]
    r = {
        "label": label, "shot_size": f"{SHOT_W}x{SHOT_H}", "probes": probes, "seen": len(samples),
        "missed": misses, "timeout_s": timeout, "masked_pixels": 0,
        "p50_ms": pct(mids, 50), "p99_ms": pct(mids, 99), "max_ms": max(mids) if mids else None,
        "p50_upper_ms": pct(uppers, 50), "p99_upper_ms": pct(uppers, 99),
        "p50_lower_ms": pct(lowers, 50), "p99_lower_ms": pct(lowers, 99),
        "bracket_ms_median": pct(polls, 50), "bracket_ms_max": max(polls) if polls else None,
        "samples": samples, "seconds": time.monotonic() - started,
    }
    if mids:
        log(f"  {label}: p50 {r['p50_ms']:.0f} ms, p99 {r['p99_ms']:.0f} ms over {len(mids)} probes "
            f"(polling bracket median {r['bracket_ms_median']:.0f} ms), {misses} missed")
    return r
