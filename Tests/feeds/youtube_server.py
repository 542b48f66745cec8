# SPDX-License-Identifier: GPL-2.0-or-later
"""A YouTube-like HTTPS server for the `youtube` feed tests, reached as www.youtube.com through
COMMENTBAR_CONNECT_TO (or as `--server https://localhost:PORT`). It serves watch pages
(`ytcfg.set({...})`, `var ytInitialData = {...};`, `var ytInitialPlayerResponse = {...};`, as the
pages keyless readers such as chat-downloader parse), channel `/@name/live` pages, InnerTube
`get_live_chat` responses built from recorded actions (fixtures/youtube, see SOURCES.md) and
`updated_metadata` viewer counts. Every request is recorded with its arrival time."""
import http.server
import json
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from support.fakes import HTTPSServer

FIXTURES = Path(__file__).parent / "fixtures" / "youtube"
API_KEY = "AIzaSyAO_FJ2SlqU8Q4STEHLGCilw_Y9_11qcW8"
CLIENT_VERSION = "2.20240501.01.00"


def fixture(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def fixture_actions(name):
    """The actions of a recorded get_live_chat response, or a recorded list of actions."""
    data = fixture(name)
    if isinstance(data, list):
        return data
    return data["continuationContents"]["liveChatContinuation"]["actions"]


def chat_response(actions, continuation, timeout_ms):
    """A get_live_chat response as YouTube sends it (the shape of pytchat's recorded ones)."""
    contents = {"actions": actions}
    if continuation is not None:
        contents["continuations"] = [{"invalidationContinuationData": {
            "invalidationId": {"objectSource": 1056, "objectId": "Y2hhdH5", "topic": "chat~live~0000",
                               "subscribeToGcmTopics": True, "protoCreationTimestampMs": "1733370532000"},
            "timeoutMs": timeout_ms, "continuation": continuation}}]
    return {"responseContext": {"serviceTrackingParams": [{"service": "CSI", "params": [{"key": "c", "value": "WEB"}]}]},
            "continuationContents": {"liveChatContinuation": contents}}


class Video:
    """One video's state and its chat script: a list of responses, each a list of actions
    (or ("status", code), ("raw", bytes)); `end` says whether chat ends after the script."""

    def __init__(self, video_id, state="live", pages=(), timeout_ms=1000, end=False,
                 start="2024-05-01T10:00:00+00:00"):
        self.video_id = video_id
        self.state = state  # live, live_no_bar (chat only on /live_chat), upcoming, ended, private, missing, chat_off, consent
        self.pages = list(pages)
        self.timeout_ms = timeout_ms
        self.end = end
        self.start = start


class FakeYouTube:
    def __init__(self, port, test_ca):
        self.videos = {}
        self.channels = {}  # "@name" -> video id (live now) or None
        self.viewers = 4321
        self.requests = []  # (monotonic time, method, path, json body or None)
        self.lock = threading.Lock()
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                owner._record(self, None)
                owner._get(self)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                owner._record(self, body)
                owner._post(self, body)

            def log_message(self, *args):
                pass

        self.server = HTTPSServer(test_ca, Handler, port)
        self.port = self.server.port

    def close(self):
        self.server.close()

    def add(self, video):
        self.videos[video.video_id] = video
        return video

    # What the client asked for

    def _record(self, handler, body):
        with self.lock:
            self.requests.append((time.monotonic(), handler.command, handler.path, body, dict(handler.headers)))

    def requests_to(self, prefix):
        with self.lock:
            return [r for r in self.requests if r[2].startswith(prefix)]

    def wait_requests(self, prefix, count, timeout=45):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.requests_to(prefix)
            if len(found) >= count:
                return found
            time.sleep(0.1)
        raise AssertionError(f"fewer than {count} requests to {prefix} within {timeout} s: "
                             f"{[r[2] for r in self.requests][-20:]}")

    # Responses

    @staticmethod
    def _send(handler, status, body, content_type):
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    def _get(self, handler):
        url = urlsplit(handler.path)
        parts = [p for p in url.path.split("/") if p]
        if parts == ["watch"]:
            video_id = parse_qs(url.query).get("v", [""])[0]
            self._send(handler, 200, self.watch_page(self.videos.get(video_id), video_id), "text/html; charset=utf-8")
        elif parts == ["live_chat"]:
            video_id = parse_qs(url.query).get("v", [""])[0]
            self._send(handler, 200, self.chat_page(self.videos.get(video_id), video_id), "text/html; charset=utf-8")
        elif len(parts) == 2 and parts[0].startswith("@") and parts[1] == "live":
            live = self.channels.get(parts[0])
            video = self.videos.get(live) if live else None
            page = self.watch_page(video, live) if video else self.channel_page(parts[0])
            self._send(handler, 200, page, "text/html; charset=utf-8")
        else:
            self._send(handler, 404, b"<html><title>404 Not Found</title></html>", "text/html")

    def _post(self, handler, body):
        url = urlsplit(handler.path)
        if url.path == "/youtubei/v1/live_chat/get_live_chat":
            self._chat(handler, body or {})
        elif url.path == "/youtubei/v1/updated_metadata":
            data = {"responseContext": {}, "actions": [{"updateViewershipAction": {"viewCount": {"videoViewCountRenderer": {
                "viewCount": {"runs": [{"text": f"{self.viewers:,}"}, {"text": " watching now"}]},
                "isLive": True, "extraShortViewCount": {"simpleText": "4.3K"},
                "unlabeledViewCountValue": {"simpleText": f"{self.viewers:,}"},
                "originalViewCount": str(self.viewers)}}}}]}
            self._send(handler, 200, json.dumps(data).encode(), "application/json")
        else:
            self._send(handler, 404, b"{}", "application/json")

    def _chat(self, handler, body):
        token = body.get("continuation", "")
        video_id, _, index = token.partition(":")
        video = self.videos.get(video_id)
        if video is None or not index.isdigit():
            self._send(handler, 400, b'{"error": {"code": 400, "status": "INVALID_ARGUMENT"}}', "application/json")
            return
        index = int(index)
        if index < len(video.pages):
            page = video.pages[index]
            if isinstance(page, tuple) and page[0] == "status":
                self._send(handler, page[1], b'{"error": {"code": %d}}' % page[1], "application/json")
                # A failed poll is asked again from the watch page: the script moves on.
                video.pages[index] = []
                return
            if isinstance(page, tuple) and page[0] == "raw":
                video.pages[index] = []
                self._send(handler, 200, page[1], page[2] if len(page) > 2 else "application/json")
                return
            data = chat_response(page, f"{video_id}:{index + 1}", video.timeout_ms)
        elif video.end:
            data = chat_response([], None, None)
        else:
            data = chat_response([], f"{video_id}:{index + 1}", video.timeout_ms)
        self._send(handler, 200, json.dumps(data, ensure_ascii=False).encode(), "application/json")

    # Pages

    def watch_page(self, video, video_id):
        config = {"INNERTUBE_API_KEY": API_KEY, "INNERTUBE_API_VERSION": "v1",
                  "INNERTUBE_CLIENT_NAME": "WEB", "INNERTUBE_CLIENT_VERSION": CLIENT_VERSION,
                  "INNERTUBE_CONTEXT": {"client": {"hl": "en", "gl": "US", "visitorData": "CgtWaXNpdG9yRGF0YQ%3D%3D",
                                                   "clientName": "WEB", "clientVersion": CLIENT_VERSION,
                                                   "originalUrl": f"https://www.youtube.com/watch?v={video_id}",
                                                   "platform": "DESKTOP"},
                                        "user": {"lockedSafetyMode": False}, "request": {"useSsl": True}},
                  "INNERTUBE_CONTEXT_CLIENT_NAME": 1, "INNERTUBE_CONTEXT_CLIENT_VERSION": CLIENT_VERSION}
        if video is not None and video.state == "consent":
            return (b"<!DOCTYPE html><html><head><title>Before you continue to YouTube</title></head><body>"
                    b"<form action=\"https://consent.youtube.com/save\" method=\"POST\"></form></body></html>")
        state = video.state if video else "missing"
        live = state in ("live", "chat_off", "live_no_bar")
        playability = {"status": "OK", "playableInEmbed": True}
        if state == "upcoming":
            playability = {"status": "LIVE_STREAM_OFFLINE", "reason": "This live event will begin in a few moments."}
        elif state == "private":
            playability = {"status": "LOGIN_REQUIRED", "reason": "This video is private"}
        elif state == "missing":
            playability = {"status": "ERROR", "reason": "This video isn't available anymore"}
        player = {"responseContext": {}, "playabilityStatus": playability}
        if state != "missing":
            broadcast = {"isLiveNow": live, "startTimestamp": video.start}
            if state == "ended":
                broadcast["endTimestamp"] = "2024-05-01T12:00:00+00:00"
            player["videoDetails"] = {"videoId": video_id, "title": "Test stream", "lengthSeconds": "0",
                                      "isLive": live or None, "isUpcoming": state == "upcoming" or None,
                                      "isLiveContent": True, "author": "Test Channel", "channelId": "UCtestchannel0000000000",
                                      "viewCount": "999999"}
            player["videoDetails"] = {k: v for k, v in player["videoDetails"].items() if v is not None}
            player["microformat"] = {"playerMicroformatRenderer": {"liveBroadcastDetails": broadcast,
                                                                   "publishDate": "2024-05-01T09:00:00-07:00"}}
        conversation = {}
        if state in ("live", "upcoming"):
            first = f"{video_id}:0"
            conversation = {"liveChatRenderer": {
                "continuations": [{"reloadContinuationData": {"continuation": first, "clickTrackingParams": "CAEQl98BIhMI"}}],
                "header": {"liveChatHeaderRenderer": {"viewSelector": {"sortFilterSubMenuRenderer": {"subMenuItems": [
                    {"title": "Top chat", "selected": True,
                     "continuation": {"reloadContinuationData": {"continuation": f"{video_id}:top"}}},
                    {"title": "Live chat", "selected": False,
                     "continuation": {"reloadContinuationData": {"continuation": first}}}]}}}},
                "isReplay": False}}
        elif state == "chat_off":
            conversation = {"conversationBarRenderer": {"availabilityMessage": {"messageRenderer": {
                "text": {"runs": [{"text": "Chat is disabled for this live stream."}]}}}}}
        initial = {"responseContext": {}, "contents": {"twoColumnWatchNextResults": {
            "results": {"results": {"contents": []}}, "conversationBar": conversation}}}
        return self._html(config, initial, player)

    def chat_page(self, video, video_id):
        """The chat's own page (`/live_chat?is_popout=1&v=ID`): its ytInitialData is the chat."""
        config = {"INNERTUBE_API_KEY": API_KEY, "INNERTUBE_CONTEXT": {"client": {"clientName": "WEB", "clientVersion": CLIENT_VERSION}}}
        if video is None or video.state not in ("live", "live_no_bar"):
            return self._html(config, {"responseContext": {}}, None)
        initial = {"responseContext": {}, "continuationContents": {"liveChatContinuation": {
            "continuations": [{"invalidationContinuationData": {"continuation": f"{video_id}:0", "timeoutMs": 1000}}],
            "actions": []}}}
        return self._html(config, initial, None, window_style=True)

    def channel_page(self, handle):
        """A channel with no live stream: YouTube shows the channel's home page (no player)."""
        config = {"INNERTUBE_API_KEY": API_KEY, "INNERTUBE_CONTEXT": {"client": {"clientName": "WEB", "clientVersion": CLIENT_VERSION}}}
        initial = {"responseContext": {}, "contents": {"twoColumnBrowseResultsRenderer": {"tabs": []}},
                   "header": {"pageHeaderRenderer": {"pageTitle": handle}}}
        return self._html(config, initial, None)

    @staticmethod
    def _html(config, initial, player, window_style=False):
        # The scripts as in a real page: a string with braces and an escaped quote precedes the data.
        scripts = [
            '<script nonce="x">var trap = "ytInitialData = {\\"not\\": \\"this}\\"}";</script>',
            f'<script nonce="x">(function() {{window.ytplayer={{}};\nytcfg.set({json.dumps(config)}); '
            f'window.ytcfg.obfuscatedData_ = [];}}).call(this);</script>',
            f'<script nonce="x">ytcfg.set({{"EXPERIMENT_FLAGS": {{"kevlar_watch_flexy": true}}}});</script>',
        ]
        if player is not None:
            scripts.append(f'<script nonce="x">var ytInitialPlayerResponse = {json.dumps(player, ensure_ascii=False)};'
                           'var meta = document.createElement(\'meta\');</script>')
        name = 'window["ytInitialData"]' if window_style else "var ytInitialData"
        scripts.append(f'<script nonce="x">{name} = {json.dumps(initial, ensure_ascii=False)};</script>')
        return ("<!DOCTYPE html><html style=\"font-size: 10px;font-family: Roboto, Arial, sans-serif;\" lang=\"en\">"
                "<head><title>Test stream - YouTube</title></head><body>" + "\n".join(scripts)
                + "<div id=\"content\">{ unbalanced</div></body></html>").encode()
