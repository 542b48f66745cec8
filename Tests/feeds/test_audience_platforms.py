# SPDX-License-Identifier: GPL-2.0-or-later
"""The audience takes part from real platforms' wire formats (issue 48): `commentbar serve` reads a
Twitch-like chat (tagged IRC over a TLS WebSocket, reached as irc-ws.chat.twitch.tv) and a
YouTube-like InnerTube chat (get_live_chat pages built from recorded actions, reached as
www.youtube.com), both with the test CA, the memory on. Votes from both count once per account per
platform (a Twitch viewer who changes their display name is still one account); the 参加型 queue's
rules come from the platforms and the memory: "members only" lets in a Twitch subscriber or
founder and a YouTube member (their badges: Twitch's `badges` tag, YouTube's member badge with its
custom picture) and nobody else; "regulars only" lets in those the memory saw on an earlier
stream, and a second run of the renderer on the same memory is the next stream."""
import copy
import json
import os
import time
import zlib

from conftest import EVENTUALLY, binary, free_port
from control.api_call import api_call
from support.pool_frames import QUIET, ServedBar
from twitch_server import FakeTwitch
from youtube_server import FakeYouTube, Video, fixture_actions

VIDEO = "cbAudience1"
YOUTUBE_CHANNEL_ID = "UCaudience00000000000000"


def youtube_comment(ident, name, channel_id, text, member=False):
    """A liveChatTextMessageRenderer action in the shape of pytchat's recorded one
    (fixtures/youtube/pytchat_textmessage.json), with a member badge as in extra_actions.json."""
    action = copy.deepcopy(fixture_actions("pytchat_textmessage.json")[0])
    item = action["addChatItemAction"]["item"]["liveChatTextMessageRenderer"]
    item.update({"id": ident, "message": {"runs": [{"text": text}]}, "authorName": {"simpleText": name},
                 "authorExternalChannelId": channel_id})
    if member:
        item["authorBadges"] = [{"liveChatAuthorBadgeRenderer": {
            "customThumbnail": {"thumbnails": [{"url": "https://yt3.ggpht.com/member=s16-c-k"}]},
            "tooltip": "Member (2 months)", "accessibility": {"accessibilityData": {"label": "Member (2 months)"}}}}]
    return action


def twitch_line(ident, login, text, name=None, badges=""):
    return (f"@badges={badges};display-name={name or login};id={ident};user-id={zlib.crc32(login.encode())} "
            f":{login}!{login}@{login}.tmi.twitch.tv PRIVMSG #cbaudience :{text}")


def wait_for(condition, what, timeout=EVENTUALLY):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


class Streams:
    """The two fakes and one renderer after another on the same memory (each run is a stream)."""

    def __init__(self, test_ca):
        self.test_ca = test_ca
        self.twitch_port = free_port()
        self.twitch = FakeTwitch(self.twitch_port, test_ca)
        self.youtube = FakeYouTube(free_port(), test_ca)
        self.video = self.youtube.add(Video(VIDEO, timeout_ms=500))
        self.control_port = free_port()
        self.bar = None
        self.token = None

    def start(self):
        env = {"COMMENTBAR_CA_FILE": self.test_ca["ca"],
               "COMMENTBAR_CONNECT_TO": f"irc-ws.chat.twitch.tv:443:127.0.0.1:{self.twitch_port},"
                                        f"www.youtube.com:443:127.0.0.1:{self.youtube.port},"
                                        + os.environ["COMMENTBAR_CONNECT_TO"]}
        settings = {**QUIET, "feeds": [{"value": "https://www.twitch.tv/cbaudience"},
                                       {"value": f"https://www.youtube.com/watch?v={VIDEO}"}],
                    "control": True, "control_port": self.control_port, "remember": True}
        joins = sum(1 for line in list(self.twitch.received) if line.startswith("JOIN "))
        # A new run starts from the watch page's first chat page: the pages the run before read
        # are emptied, so that nothing is heard twice.
        self.video.pages = [[] for _ in self.video.pages]
        self.bar = ServedBar(binary(), settings, width=640, height=240, env=env)
        self.bar.wait_log(f"control page: on port {self.control_port} ")
        self.twitch.wait_joined(count=joins + 1)
        with open(os.path.join(os.environ["XDG_CONFIG_HOME"], "comment-bar", "control-token")) as file:
            self.token = file.read().strip()
        self.youtube.wait_requests("/youtubei/v1/live_chat/get_live_chat", len(self.chat_polls()) + 1)

    def stop(self):
        if self.bar:
            self.bar.stop()
            self.bar = None

    def close(self):
        self.stop()
        self.twitch.close()
        self.youtube.close()

    def call(self, method, path, body=None):
        return api_call(self.control_port, self.token, method, path, body)

    def chat_polls(self):
        return self.youtube.requests_to("/youtubei/v1/live_chat/get_live_chat")

    def say_on_youtube(self, *actions):
        """The actions on the chat page after the next one the renderer asks for (it is never
        the page being answered now, so none is lost or read twice)."""
        asked = [json.loads(json.dumps(body or {})).get("continuation", "") for _, _, _, body, _ in self.chat_polls()]
        last = max((int(token.partition(":")[2]) for token in asked if token.partition(":")[2].isdigit()), default=0)
        page = last + 2
        while len(self.video.pages) <= page:
            self.video.pages.append([])
        self.video.pages[page] = self.video.pages[page] + list(actions)  # a page not yet read grows

    def seen(self, ident):
        """Whether the bar has shown the comment `ident` (the control API's comments)."""
        status, answer = self.call("GET", "/api/comments?limit=1000")
        # The API names a row `N/id`: N is the stream's place in the bar's list.
        return status == 200 and any(comment.get("id", "").partition("/")[2] == ident for comment in answer["comments"])

    def settle(self, marker):
        """Each stream's comments are heard in order: once each stream's marker comment is
        shown, every comment sent before it was heard."""
        self.twitch.send(twitch_line(f"tw-{marker}", "marker", f"marker {marker}"))
        self.say_on_youtube(youtube_comment(f"yt-{marker}", "Marker", "UCmarker0000000000000000", f"marker {marker}"))
        try:
            wait_for(lambda: self.seen(f"tw-{marker}") and self.seen(f"yt-{marker}"), f"the markers {marker}")
        except AssertionError:
            status, answer = self.call("GET", "/api/comments?limit=1000")
            shown = [comment.get("id") for comment in answer.get("comments", [])]
            raise AssertionError(f"the markers {marker} not both shown: shown {shown}; log {self.bar.log[-15:]}") from None

    def waiting(self):
        status, queue = self.call("GET", "/api/queue")
        assert status == 200, queue
        return sorted((entry["platform"], entry["name"]) for entry in queue["waiting"])


def test_votes_and_the_queues_rules_from_twitch_and_youtube(test_ca):
    streams = Streams(test_ca)
    try:
        streams.start()
        # A poll: one vote per account per platform; a renamed Twitch viewer is the same account.
        status, poll = streams.call("POST", "/api/poll", {"question": "次は？", "options": ["ラーメン", "寿司"]})
        assert status == 200, poll
        streams.twitch.send(twitch_line("v1", "alice", "!vote 1", name="Alice"),
                            twitch_line("v2", "bob", "寿司", name="Bob"),
                            twitch_line("v3", "alice", "!vote 1", name="AliceRenamed"),
                            twitch_line("v4", "carol", "２", name="Carol"))  # a bare number: not allowed
        streams.say_on_youtube(youtube_comment("y1", "Dan", "UCdan0000000000000000000", "!vote 2"),
                               youtube_comment("y2", "Dan", "UCdan0000000000000000000", "!vote 2"),
                               youtube_comment("y3", "Alice", "UCalice00000000000000000", "ラーメン"))
        streams.settle("poll")
        status, poll = streams.call("GET", "/api/poll")
        assert status == 200
        assert [option["votes"] for option in poll["options"]] == [2, 2], poll
        assert poll["options"][0]["platforms"] == {"twitch": 1, "youtube": 1}, poll
        assert poll["options"][1]["platforms"] == {"twitch": 1, "youtube": 1}, poll
        assert poll["voters"] == 4
        assert streams.call("POST", "/api/poll/close", {})[0] == 200

        # Members only: the platforms say who is one.
        status, queue = streams.call("POST", "/api/queue/open", {"members_only": True})
        assert status == 200 and queue["members_only"] is True and queue["min_streams"] == 0, queue
        streams.twitch.send(twitch_line("j1", "subby", "!join", name="Subby", badges="subscriber/3"),
                            twitch_line("j2", "founda", "!join", name="Founda", badges="founder/0"),
                            twitch_line("j3", "plain", "!join", name="Plain", badges="premium/1"))
        streams.say_on_youtube(youtube_comment("y4", "Membi", "UCmembi00000000000000000", "!参加", member=True),
                               youtube_comment("y5", "Casual", "UCcasual0000000000000000", "!参加"))
        streams.settle("members")
        assert streams.waiting() == [("twitch", "Founda"), ("twitch", "Subby"), ("youtube", "Membi")]
        assert streams.call("POST", "/api/queue/close", {})[0] == 200

        # Regulars only, on the first stream the memory knows: nobody has an earlier one yet.
        status, queue = streams.call("POST", "/api/queue/open", {"min_streams": 1})
        assert status == 200 and queue["min_streams"] == 1, queue
        streams.twitch.send(twitch_line("j4", "bob", "!join", name="Bob"))
        streams.say_on_youtube(youtube_comment("y6", "Dan", "UCdan0000000000000000000", "!join"))
        streams.settle("first-stream")
        assert streams.waiting() == []

        # The next stream (the renderer again, on the same memory; the queue comes back open):
        # Bob and Dan wrote on the stream before, Erin never did.
        streams.stop()
        streams.start()
        status, queue = streams.call("GET", "/api/queue")
        assert status == 200 and queue["open"] and queue["min_streams"] == 1, queue
        streams.twitch.send(twitch_line("j5", "bob", "!join", name="Bob"),
                            twitch_line("j6", "erin", "!join", name="Erin"))
        streams.say_on_youtube(youtube_comment("y7", "Dan", "UCdan0000000000000000000", "!join"))
        streams.settle("second-stream")
        assert streams.waiting() == [("twitch", "Bob"), ("youtube", "Dan")]
        # Erin is counted now: on the stream after this one she is a regular too. A rule that needs
        # two earlier streams keeps everyone out today.
        status, queue = streams.call("POST", "/api/queue/open", {"min_streams": 2})
        assert status == 200 and queue["min_streams"] == 2
        streams.twitch.send(twitch_line("j7", "alice", "!join", name="Alice"))
        streams.settle("two-streams")
        assert streams.waiting() == [("twitch", "Bob"), ("youtube", "Dan")], "who waits stays under new rules"
        for body, words in (({"min_streams": -1}, "min_streams"), ({"min_streams": 1001}, "min_streams"),
                            ({"members_only": "yes"}, "members_only")):
            status, answer = streams.call("POST", "/api/queue/open", body)
            assert status == 400 and words in answer["error"], (body, answer)
    finally:
        streams.close()


def test_regulars_only_needs_the_memory(test_ca, tmp_path):
    port = free_port()
    bar = ServedBar(binary(), {**QUIET, "service": "demo", "stream": "demo", "control": True, "control_port": port,
                               "remember": False})
    try:
        bar.wait_log(f"control page: on port {port} ")
        with open(os.path.join(os.environ["XDG_CONFIG_HOME"], "comment-bar", "control-token")) as file:
            token = file.read().strip()
        status, answer = api_call(port, token, "POST", "/api/queue/open", {"min_streams": 1})
        assert status == 400 and "remember" in answer["error"], answer
        status, answer = api_call(port, token, "POST", "/api/queue/open", {"members_only": True})
        assert status == 200 and answer["members_only"] is True, answer
    finally:
        bar.stop()
