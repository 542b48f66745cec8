# SPDX-License-Identifier: GPL-2.0-or-later
"""How comments flow onto the bar (issue 21), read frame by frame from `commentbar serve`'s pool
(support/pool_frames.py): a YouTube poll's burst of timed messages replayed one by one over the poll, a
moderation delay that keeps a deleted comment off every frame, and the recent messages YouTube
and niconico give on joining as the bar's first rows, never highlighted as first messages.

The timed messages are the recorded pytchat text message (fixtures/youtube, MIT) with our own
ids, texts and `timestampUsec`; the niconico history is a `PackedSegment` written here from the
published schema (niconico_server.py)."""
import copy
import time

import pytest

from conftest import binary
from niconico_server import FakeNiconico, Scenario, chunk, message, next_entry, segment_entry, watch_page, MESSAGES, EDGE
from support.pool_frames import QUIET, ServedBar
from test_youtube import youtube  # noqa: F401 (the fake YouTube fixture)
from youtube_server import Video, fixture_actions

VIDEO = "cbLiveVid01"
FRAME = 1 / 30


@pytest.fixture
def bars():
    started = []

    def start(settings, env):
        bar = ServedBar(binary(), settings, env=env)
        started.append(bar)
        return bar

    yield start
    for bar in started:
        if bar.proc.poll() is None:
            bar.stop()


def text_message(ident, text, sent=None, author="viewer"):
    action = copy.deepcopy(fixture_actions("pytchat_textmessage.json")[0])
    renderer = action["addChatItemAction"]["item"]["liveChatTextMessageRenderer"]
    renderer.update(id=ident, message={"runs": [{"text": text}]}, authorName={"simpleText": author},
                    authorExternalChannelId=f"UC{author}")
    if sent is None:
        renderer.pop("timestampUsec", None)
    else:
        renderer["timestampUsec"] = str(int(sent * 1_000_000))
    return action


def youtube_bar(bars, youtube, test_ca, **settings):
    return bars({**QUIET, "service": "youtube", "stream_id": VIDEO, "max_lines": 6, **settings},
                env={"COMMENTBAR_CA_FILE": test_ca["ca"],
                     "COMMENTBAR_CONNECT_TO": f"www.youtube.com:443:127.0.0.1:{youtube.port}"})


def poll_times(youtube):
    return [r[0] for r in youtube.requests_to("/youtubei/v1/live_chat/get_live_chat")]


def wait_until(condition, what, timeout=45):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what() if callable(what) else what} within {timeout} s")


def teal_pixels(bar, pixels):
    """Pixels of the first-message highlight's colour (#26a69a over the black bar)."""
    count = 0
    for i in range(0, len(pixels), 4):
        b, g, r = pixels[i], pixels[i + 1], pixels[i + 2]
        if g > r + 40 and b > r + 30 and abs(g - b) < 50 and g > 50:
            count += 1
    return count


def test_a_polls_burst_appears_one_by_one_over_the_poll_in_order(bars, youtube, test_ca):
    base = 1714557600.0
    # Poll 0: the recent messages (history); poll 1: nothing; poll 2: ten messages sent 0.25 s
    # apart, each longer than the one before (so the newest row's right edge tells them apart).
    burst = [text_message(f"t{i}", "m" * (1 + 2 * i), sent=base + 10 + 0.25 * i) for i in range(10)]
    youtube.add(Video(VIDEO, pages=[[text_message("h0", "before", sent=base)], [], burst, [], []], timeout_ms=3000))
    bar = youtube_bar(bars, youtube, test_ca)
    wait_until(lambda: len(poll_times(youtube)) >= 4, "four polls", timeout=60)
    polls = poll_times(youtube)
    arrived, next_poll = polls[2], polls[3]
    time.sleep(0.5)
    frames = [f for f in bar.frames if f[0] >= arrived]
    # Each message is one frame, none of them after the next poll.
    assert len(frames) == 10, [round(f[0] - arrived, 2) for f in frames]
    times = [f[0] - arrived for f in frames]
    assert times[-1] < next_poll - arrived, (times, next_poll - arrived)
    assert times[0] < 0.5, "the first of the burst shows at once"
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert all(0.15 < gap < 0.4 for gap in gaps), f"spread by their own times (0.25 s apart): {gaps}"
    edges = [bar.right_edge(f[2], bar.text_lines(f[2])[-1]) for f in frames]
    assert edges == sorted(edges) and len(set(edges)) == 10, f"in order, one by one: {edges}"
    assert bar.stop() == 0


def test_pacing_off_shows_the_burst_at_once(bars, youtube, test_ca):
    base = 1714557600.0
    burst = [text_message(f"t{i}", "m" * (1 + 2 * i), sent=base + 10 + 0.25 * i) for i in range(10)]
    youtube.add(Video(VIDEO, pages=[[], [], burst, [], []], timeout_ms=3000))
    bar = youtube_bar(bars, youtube, test_ca, pace_bursts=False)
    wait_until(lambda: len(poll_times(youtube)) >= 4, "four polls", timeout=60)
    arrived = poll_times(youtube)[2]
    frames = [f for f in bar.frames if f[0] >= arrived]
    assert 1 <= len(frames) <= 2, [round(f[0] - arrived, 2) for f in frames]
    assert frames[-1][0] - arrived < 0.5
    assert bar.stop() == 0


def test_a_delayed_comment_deleted_meanwhile_never_shows(bars, youtube, test_ca):
    # Poll 2 brings a comment to delete (long) and one to keep (short); poll 4, 2 s later, the deletion.
    doomed = text_message("doomed", "this comment is deleted by a moderator and must never be on air", author="troll")
    kept = text_message("kept", "hi", author="fan")
    deletion = {"markChatItemAsDeletedAction": {"deletedStateMessage": {"runs": [{"text": "[message deleted]"}]},
                                                "targetItemId": "doomed"}}
    youtube.add(Video(VIDEO, pages=[[], [], [doomed, kept], [], [deletion], [], [], [], [], []], timeout_ms=1000))
    bar = youtube_bar(bars, youtube, test_ca, delay_seconds=5)
    wait_until(lambda: len(poll_times(youtube)) >= 9, "nine polls", timeout=60)
    polls = poll_times(youtube)
    arrived, deleted = polls[2], polls[4]
    assert 1.8 < deleted - arrived < 2.6
    time.sleep(0.5)
    frames = [f for f in bar.frames if f[0] >= arrived]
    # Frame by frame: no row ever reaches the width of the deleted comment's text.
    widths = [max([bar.right_edge(f[2], band) for band in bar.text_lines(f[2])] or [-1]) for f in frames]
    assert all(width < 200 for width in widths), f"the deleted comment was drawn: {widths}"
    # The kept comment is the only change: 5 s after it arrived, give or take a frame.
    assert len(frames) == 1, [round(f[0] - arrived, 2) for f in frames]
    shown_after = frames[0][0] - arrived
    assert 5 - FRAME <= shown_after <= 5 + FRAME + 0.15, shown_after
    assert bar.stop() == 0


def test_youtube_history_is_the_first_frame_and_never_a_first_message(bars, youtube, test_ca):
    history = [text_message(f"h{i}", f"said before {i}", sent=1714557600 + i, author=f"old{i}") for i in range(3)]
    # A new writer after joining is highlighted: the check below can see a highlight.
    youtube.add(Video(VIDEO, pages=[history, [], [text_message("new", "first time here", author="newcomer")], []],
                      timeout_ms=1500))
    bar = youtube_bar(bars, youtube, test_ca)
    wait_until(lambda: len(poll_times(youtube)) >= 4, "four polls", timeout=60)
    with_text = [f for f in bar.frames if bar.text_lines(f[2])]
    first = with_text[0]
    assert len(bar.text_lines(first[2])) >= 3, "the first frame with rows shows the recent messages"
    assert first[0] < poll_times(youtube)[1], "before the next poll"
    assert teal_pixels(bar, first[2]) < 300, "history is never highlighted as a first message"
    assert teal_pixels(bar, bar.frames[-1][2]) > 2000, "a first message after joining is"
    assert bar.stop() == 0


def test_niconico_history_is_the_first_frame_and_never_a_first_message(bars, test_ca):
    now = int(time.time())
    scenario = Scenario()
    scenario.pages["/watch/lv1"] = (200, watch_page(
        "lv1", "ON_AIR", "wss://a.live2.nicovideo.jp/unama/wsapi/v2/watch/lv1?audience_token=lv1_tok&frontend_id=9"), {})
    chat = lambda content, user, no: message("NicoliveMessage", chat=message("Chat", content=content, raw_user_id=user, no=no))  # noqa: E731
    packed = MESSAGES[EDGE + "PackedSegment"](messages=[chunk(f"old{i}", message=chat(f"前のコメント {i}", 100 + i, i))
                                                         for i in range(4)])
    backward = MESSAGES[EDGE + "BackwardSegment"](segment=MESSAGES[EDGE + "PackedSegment.Next"](
        uri="https://mpn.live.nicovideo.jp/data/backward/v4/b1"))
    scenario.views["now"] = [MESSAGES[EDGE + "ChunkedEntry"](backward=backward),
                             segment_entry("https://mpn.live.nicovideo.jp/data/segment/v4/s1", now - 2, now + 30),
                             next_entry(1001), ("hold",)]
    scenario.segments["/data/backward/v4/b1"] = [packed.SerializeToString()]
    scenario.segments["/data/segment/v4/s1"] = [("sleep", 2), chunk("new", message=chat("はじめまして", 999, 10)), ("hold",)]
    server = FakeNiconico(test_ca, scenario)
    try:
        bar = bars({**QUIET, "service": "niconico", "stream_id": "lv1", "max_lines": 6},
                   env={"COMMENTBAR_CA_FILE": test_ca["ca"], "COMMENTBAR_CONNECT_TO": server.connect_to()})
        wait_until(lambda: bar.frames and teal_pixels(bar, bar.frames[-1][2]) > 2000,
                   lambda: f"the live comment after history, highlighted as a first message (frames {len(bar.frames)}, lines "
                           f"{[len(bar.text_lines(f[2])) for f in bar.frames]}, log {bar.log[-10:]}, "
                           f"requests {server.requests[-10:]})")
        with_text = [f for f in bar.frames if bar.text_lines(f[2])]
        assert len(bar.text_lines(with_text[0][2])) >= 3, "the first frame with rows shows the recent messages"
        assert teal_pixels(bar, with_text[0][2]) < 300, "history is never highlighted as a first message"
        assert bar.stop() == 0
    finally:
        server.close()
