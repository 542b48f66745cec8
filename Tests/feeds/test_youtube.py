# SPDX-License-Identifier: GPL-2.0-or-later
"""The `youtube` service against a YouTube-like HTTPS server (youtube_server.py) reached as
www.youtube.com through COMMENTBAR_CONNECT_TO with the test CA: watch pages, InnerTube chat
polls built from recorded responses, viewers, start time, channel @handles, streams that
have not started or are over, and hostile answers (429, junk, huge, endless)."""
import re
import signal
import time

import pytest

from conftest import free_port
from youtube_server import FakeYouTube, Video, fixture_actions

VIDEO = "cbLiveVid01"
START = 1714557600  # 2024-05-01T10:00:00+00:00, the watch page's liveBroadcastDetails.startTimestamp


@pytest.fixture
def youtube(test_ca):
    server = FakeYouTube(free_port(), test_ca)
    yield server
    server.close()


def env_for(youtube, test_ca):
    return {"COMMENTBAR_CA_FILE": test_ca["ca"],
            "COMMENTBAR_CONNECT_TO": f"www.youtube.com:443:127.0.0.1:{youtube.port}"}


def start_tail(tail_factory, youtube, test_ca, stream=VIDEO, *extra):
    return tail_factory("--service", "youtube", "--stream", stream, *extra, env=env_for(youtube, test_ca))


def by_id(ident):
    return lambda e: e.get("id") == ident


def chat_polls(youtube):
    return youtube.requests_to("/youtubei/v1/live_chat/get_live_chat")


def test_live_chat_events_viewers_and_start(youtube, test_ca, tail_factory):
    recorded = fixture_actions("chat_downloader_actions.json")
    extra = fixture_actions("extra_actions.json")
    youtube.add(Video(VIDEO, pages=[
        [recorded[0], recorded[1], extra[0], extra[1]],
        fixture_actions("pytchat_superchat.json") + fixture_actions("pytchat_supersticker.json")
        + fixture_actions("pytchat_newSponsor_current.json") + [recorded[2], recorded[4], extra[2], extra[3], extra[4], extra[5], extra[6]],
        [recorded[6], recorded[7], recorded[8], recorded[9], extra[7], extra[8], extra[9]],
    ], timeout_ms=1000))
    tail = start_tail(tail_factory, youtube, test_ca)
    tail.wait_stderr("status: live")

    text, _ = tail.wait_event(by_id("CjoKGkNJLTRuSUMyMHUwQ0ZRMktnZ29kdEZjTjZREhxDTXZ0NEtxMDB1MENGUVhwYUFvZHFnUUxVdy0x"))
    assert text == {**text, "type": "comment", "user": "Naruto Uzumaki", "login": "UCoVFvNv-7cuHNC9v_XKEXhA",
                    "text": "Consistency Level ASL ❤️"}
    owner, _ = tail.wait_event(by_id("ChwKGkNLU3ZtTGU2aTRvREZYRVY1d2NkZW1vamknQQ"))
    assert owner["text"] == "hi 😂 :yt: :_けーぴー:" and owner["badges"] == ["broadcaster", "verified"]
    # Custom emoji are emotes over their shortcut (scalar offsets); 😂 stays text.
    assert owner["emotes"] == [
        {"start": 5, "end": 9, "name": ":yt:",
         "url": "https://yt3.ggpht.com/IkpeJf1g9Lq0WNjvSa4XFq4LVNZ9IP5FKW8yywXb12djo1OGdJtziejNASITyq4L0itkMNw=w24-h24-c-k-nd"},
        {"start": 10, "end": 17, "name": ":_けーぴー:",
         "url": "https://yt3.ggpht.com/7reEmc_TZpS5V4_lkUunwvkX3vnTuN-vK-APZ2u2Cwp8qFm7ILNfS6BMNpHP0NnDVD_-boxarA=w24-h24-c-k-nd"}]
    assert "emotes" not in text
    moderator, _ = tail.wait_event(by_id("ChwKGkNNb2RNc2dJZDAwMDAwMDAwMDAwMDAwMDAw"))
    assert moderator["badges"] == ["moderator", "member"]

    # Paid messages: the amount as shown, the tier colour as the highlight.
    yen, _ = tail.wait_event(lambda e: e.get("gift") == "￥800")
    assert yen == {**yen, "type": "gift", "count": 1, "text": "dummy_message", "highlight": "#1de9b6",
                   "login": "author_channel_id"}
    dollars, _ = tail.wait_event(lambda e: e.get("gift") == "$5.00")
    assert dollars["text"] == "love the stream ❤" and dollars["user"] == "Big Fan"
    sticker, _ = tail.wait_event(lambda e: e.get("gift") == "$9.99")
    assert sticker["text"] == "Shiba dog dressed in a traditional outfit waving Japanese fans"
    assert sticker["highlight"] == "#ffca28"
    gifts, _ = tail.wait_event(lambda e: e.get("gift") == "Gift memberships")
    assert gifts == {**gifts, "type": "gift", "count": 50, "user": "Santa", "login": "UC0Fruh1Rn-PPpb8lrkww_ew"}
    member, _ = tail.wait_event(lambda e: e.get("user") == "bifta89")
    assert member["kind"] == "notice" and member["text"] == "New member"
    milestone, _ = tail.wait_event(lambda e: e.get("user") == "Old Fan")
    assert milestone["text"] == "Member for 6 months — still here"

    # Deletions (both kinds, older and newer actions) and a replacement in place.
    tail.wait_event(lambda e: e == {**e, "type": "delete", "user": "UCunTx7KcIG50KLggQdd5JEQ"})
    tail.wait_event(lambda e: e == {**e, "type": "delete", "user": "UColdfan00000000000000000"})
    tail.wait_event(lambda e: e.get("type") == "delete" and e.get("id") == "ChwKGkNKU3VwZXJDaGF0NVVTRDAwMDAwMDAwMDAw")
    tail.wait_event(lambda e: e.get("type") == "delete" and e.get("id", "").endswith("MTg5NzI2Njc="))
    placeholder, _ = tail.wait_event(lambda e: e.get("id", "").startswith("CkUKGkNManQyNHV6"))
    assert placeholder["type"] == "comment" and placeholder["text"] == "[message hidden]"
    tail.wait_event(lambda e: e.get("text") == "please keep it civil (edited)")

    # The viewer count from updated_metadata and the stream start from the player response.
    viewers, _ = tail.wait_event(lambda e: e.get("type") == "viewers")
    assert viewers["count"] == 4321
    start, _ = tail.wait_event(lambda e: e.get("type") == "start")
    assert start["time"] == START

    rows = [e for e in tail.events if e.get("type") in ("comment", "gift")]
    assert sum(1 for e in rows if e.get("gift") == "Gift memberships") == 1, "one row per gift announcement"
    assert sum(1 for e in rows if e.get("gift") == "$9.99") == 1, "ticker items add no rows"
    assert not any(e.get("user") == "Lucky" for e in rows), "a gift redemption is not a row"
    assert all(e["text"] for e in rows if e["type"] == "comment")

    # The InnerTube requests as the web client makes them; the watch page once per connection.
    polls = chat_polls(youtube)
    assert len(youtube.requests_to("/watch")) == 1
    first = polls[0]
    assert "key=AIzaSyAO_FJ2SlqU8Q4STEHLGCilw_Y9_11qcW8" in first[2]
    assert first[3]["continuation"] == f"{VIDEO}:0" and first[3]["context"]["client"]["clientName"] == "WEB"
    assert first[3]["context"]["client"]["visitorData"] == "CgtWaXNpdG9yRGF0YQ%3D%3D"
    assert first[4].get("Host") == "www.youtube.com"
    metadata = youtube.requests_to("/youtubei/v1/updated_metadata")
    assert metadata and metadata[0][3]["videoId"] == VIDEO

    tail.proc.send_signal(signal.SIGTERM)
    assert tail.proc.wait(timeout=15) == 0


def test_poll_interval_follows_timeout_ms(youtube, test_ca, tail_factory):
    youtube.add(Video(VIDEO, pages=[[]] * 3, timeout_ms=2500))
    tail = start_tail(tail_factory, youtube, test_ca)
    tail.wait_stderr("status: live")
    polls = youtube.wait_requests("/youtubei/v1/live_chat/get_live_chat", 4)
    gaps = [b[0] - a[0] for a, b in zip(polls, polls[1:])]
    assert all(gap >= 2.3 for gap in gaps), gaps
    assert [p[3]["continuation"] for p in polls[:4]] == [f"{VIDEO}:{n}" for n in range(4)]
    assert len(youtube.requests_to("/watch")) == 1, "the watch page is read once, not per poll"
    assert tail.stop() == 0


def test_endless_continuation_with_zero_timeout_polls_at_most_once_a_second(youtube, test_ca, tail_factory):
    youtube.add(Video(VIDEO, timeout_ms=0))
    tail = start_tail(tail_factory, youtube, test_ca)
    tail.wait_stderr("status: live")
    polls = youtube.wait_requests("/youtubei/v1/live_chat/get_live_chat", 5)
    gaps = [b[0] - a[0] for a, b in zip(polls, polls[1:])]
    assert all(gap >= 0.9 for gap in gaps), gaps
    assert tail.stop() == 0


@pytest.mark.long_wait
def test_not_started_video_waits_then_joins(youtube, test_ca, tail_factory):
    video = youtube.add(Video(VIDEO, state="upcoming", pages=[[fixture_actions("pytchat_textmessage.json")[0]]]))
    tail = start_tail(tail_factory, youtube, test_ca, f"https://www.youtube.com/watch?v={VIDEO}")
    line, waited_at = tail.wait_stderr("status: waiting")
    assert "not started" in line
    assert not chat_polls(youtube)
    youtube.wait_requests("/watch", 2)
    video.state = "live"
    tail.wait_stderr("status: live", start=waited_at + 1)
    tail.wait_event(by_id("dummy_id"))
    pages = youtube.requests_to("/watch")
    gaps = [b[0] - a[0] for a, b in zip(pages, pages[1:])]
    assert all(gap >= 4 for gap in gaps), f"a not-live video is checked every few seconds at most: {gaps}"
    assert tail.stop() == 0


def test_channel_handle_resolves_to_its_live_stream(youtube, test_ca, tail_factory):
    youtube.add(Video(VIDEO, pages=[fixture_actions("pytchat_textmessage.json")]))
    youtube.channels["@cbtest"] = VIDEO
    tail = start_tail(tail_factory, youtube, test_ca, "@cbtest")
    tail.wait_stderr("status: live")
    tail.wait_event(by_id("dummy_id"))
    assert youtube.requests_to("/@cbtest/live") and not youtube.requests_to("/watch")
    assert chat_polls(youtube)[0][3]["continuation"] == f"{VIDEO}:0"
    assert tail.stop() == 0


def test_chat_page_names_the_continuation_when_the_watch_page_does_not(youtube, test_ca, tail_factory):
    youtube.add(Video(VIDEO, state="live_no_bar", pages=[fixture_actions("pytchat_textmessage.json")]))
    tail = start_tail(tail_factory, youtube, test_ca)
    tail.wait_stderr("status: live")
    tail.wait_event(by_id("dummy_id"))
    assert len(youtube.requests_to("/live_chat?is_popout=1&v=" + VIDEO)) == 1
    assert tail.stop() == 0


def test_channel_that_is_not_live_waits(youtube, test_ca, tail_factory):
    youtube.channels["@sleepy"] = None
    tail = start_tail(tail_factory, youtube, test_ca, "https://www.youtube.com/@sleepy")
    line, _ = tail.wait_stderr("status: waiting")
    assert "@sleepy is not live" in line
    assert not chat_polls(youtube)
    assert tail.stop() == 0


@pytest.mark.long_wait
def test_channel_joins_its_stream_when_it_starts(youtube, test_ca, tail_factory):
    youtube.add(Video(VIDEO, pages=[fixture_actions("pytchat_textmessage.json")]))
    youtube.channels["@later"] = None
    tail = start_tail(tail_factory, youtube, test_ca, "@later")
    _, waited_at = tail.wait_stderr("status: waiting: @later is not live")
    youtube.channels["@later"] = VIDEO
    # The channel is checked once a minute: a generous wait, no timing asserted beyond the gap.
    tail.wait_stderr("status: live", start=waited_at + 1, timeout=120)
    tail.wait_event(by_id("dummy_id"))
    checks = youtube.requests_to("/@later/live")
    assert len(checks) >= 2 and checks[1][0] - checks[0][0] >= 55, [c[0] for c in checks]
    assert tail.stop() == 0


def test_stream_end_is_ended(youtube, test_ca, tail_factory):
    youtube.add(Video(VIDEO, pages=[fixture_actions("pytchat_textmessage.json")], end=True))
    tail = start_tail(tail_factory, youtube, test_ca)
    _, live_at = tail.wait_stderr("status: live")
    tail.wait_event(by_id("dummy_id"))
    line, _ = tail.wait_stderr("status: ended", start=live_at + 1)
    assert "over" in line
    assert tail.stop() == 0


@pytest.mark.parametrize("state,expected", [
    ("private", "status: error: the video is private"),
    ("missing", "status: error: the video is unavailable"),
    ("chat_off", "status: error: Chat is disabled for this live stream."),
    ("ended", "status: ended: the stream is over"),
    ("consent", "status: error: YouTube sent a page without stream data"),
])
def test_unavailable_videos_have_a_clear_status(youtube, test_ca, tail_factory, state, expected):
    youtube.add(Video(VIDEO, state=state))
    tail = start_tail(tail_factory, youtube, test_ca, f"https://youtu.be/{VIDEO}")
    tail.wait_stderr(expected)
    time.sleep(2)
    assert len(youtube.requests_to("/watch")) == 1, "retried slowly, not at once"
    assert not chat_polls(youtube)
    assert not any("status: live" in line for line in tail.errors)
    assert tail.stop() == 0


def test_rate_limit_backs_off_at_least_30_seconds(youtube, test_ca, tail_factory):
    youtube.add(Video(VIDEO, pages=[[], ("status", 429)], timeout_ms=1000))
    tail = start_tail(tail_factory, youtube, test_ca)
    _, live_at = tail.wait_stderr("status: live")
    line, _ = tail.wait_stderr("status: reconnecting", start=live_at + 1)
    assert "429" in line
    delay = int(re.search(r"retrying in (\d+) s", line).group(1))
    assert delay >= 30, line
    count = len(youtube.requests)
    time.sleep(3)
    assert len(youtube.requests) - count <= 1, "no polling during the back-off (a viewer poll may finish)"
    assert tail.stop() == 0


@pytest.mark.parametrize("body,content_type,reason", [
    (b"<html><title>Sorry...</title><body>unusual traffic from your computer network</body></html>", "text/html", "not JSON"),
    (b"[" * 200000 + b"]" * 200000, "application/json", "not JSON"),
    (b"{" + b" " * (9 << 20) + b"}", "application/json", "KiB"),
])
def test_hostile_chat_responses_are_reported_and_retried(youtube, test_ca, tail_factory, body, content_type, reason):
    youtube.add(Video(VIDEO, pages=[[], ("raw", body, content_type), fixture_actions("pytchat_textmessage.json")],
                      timeout_ms=1000))
    tail = start_tail(tail_factory, youtube, test_ca)
    _, live_at = tail.wait_stderr("status: live")
    line, broken_at = tail.wait_stderr("status: reconnecting", start=live_at + 1)
    assert reason in line
    tail.wait_stderr("skipped input from youtube")
    # The next connection reads the watch page again and goes on where the script is.
    youtube.wait_requests("/watch", 2)
    assert tail.proc.poll() is None
    assert tail.stop() == 0


def test_server_setting_takes_every_request_even_for_youtube_urls(youtube, test_ca, tail_factory):
    youtube.add(Video(VIDEO, pages=[fixture_actions("pytchat_textmessage.json")]))
    tail = tail_factory("--service", "youtube", "--stream", f"https://www.youtube.com/live/{VIDEO}?si=x",
                        "--server", f"https://localhost:{youtube.port}", env={"COMMENTBAR_CA_FILE": test_ca["ca"]})
    tail.wait_stderr("status: live")
    tail.wait_event(by_id("dummy_id"))
    assert youtube.requests_to("/watch")[0][4].get("Host") == f"localhost:{youtube.port}"
    assert tail.stop() == 0


def test_certificate_is_verified(youtube, test_ca, tail_factory):
    youtube.add(Video(VIDEO))
    tail = tail_factory("--service", "youtube", "--stream", VIDEO,
                        env={"COMMENTBAR_CONNECT_TO": f"www.youtube.com:443:127.0.0.1:{youtube.port}",
                             "COMMENTBAR_CA_FILE": ""})
    line, _ = tail.wait_stderr("status: reconnecting")
    assert "TLS" in line or "certificate" in line
    assert not youtube.requests
    assert tail.stop() == 0


def test_bad_stream_ids_are_refused(tail_factory):
    tail = tail_factory("--service", "youtube", "--stream", "https://example.com/watch?v=cbLiveVid01")
    assert tail.proc.wait(timeout=15) == 2
    tail.readers[1].join(timeout=5)
    assert any("not a YouTube address" in line for line in tail.errors)
