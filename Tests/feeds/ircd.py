# SPDX-License-Identifier: GPL-2.0-or-later
"""A throwaway InspIRCd (Debian 12's 3.x) on 127.0.0.1 with the IRCv3 modules, and a tiny client."""
import os
import shutil
import signal
import socket
import subprocess
import time

from conftest import EVENTUALLY, wait_for_port

CONFIG = """\
<server name="irc.test" description="CommentBar test server" network="CBTest">
<admin name="Test" nick="test" email="test@example.invalid">
<bind address="127.0.0.1" port="{port}" type="clients">
<connect name="main" allow="*" maxchans="20" timeout="20" pingfreq="120" hardsendq="4M" softsendq="4M" recvq="1M"
         threshold="100000000" commandrate="100000000" fakelag="no" localmax="1000" globalmax="1000"
         useident="no" resolvehostnames="no" limit="5000" modes="">
<dns server="127.0.0.1" timeout="1">
<options defaultmodes="nt">
<performance nouserdns="yes" clonesonconnect="no" quietbursts="yes">
<security hideserver="" runasuser="" runasgroup="">
<limits maxline="8192" maxnick="31" maxchan="64">
<log method="file" type="* -USERINPUT -USEROUTPUT" level="default" target="{dir}/ircd.log">
<module name="cap">
<module name="ircv3">
<module name="ircv3_ctctags">
<module name="ircv3_msgid">
<module name="ircv3_servertime">
"""


class InspIRCd:
    def __init__(self, directory, port):
        if shutil.which("inspircd") is None:
            raise AssertionError("inspircd is not installed (apt-get install inspircd)")
        self.directory = directory
        self.port = port
        self.config = os.path.join(directory, "inspircd.conf")
        with open(self.config, "w") as f:
            f.write(CONFIG.format(port=port, dir=directory))
        self.proc = None

    def start(self):
        log = open(os.path.join(self.directory, "inspircd.out"), "ab")
        # --runasroot: the test may run as root (CI containers); the server only binds loopback.
        self.proc = subprocess.Popen(["inspircd", f"--config={self.config}", "--nofork", "--nopid", "--runasroot"],
                                     stdout=log, stderr=subprocess.STDOUT)
        wait_for_port(self.port)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class IRCClient:
    """Registers, joins a channel and posts: the viewer side of the test."""

    def __init__(self, port, nick):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=EVENTUALLY)
        self.buffer = b""
        self.nick = nick
        self.send(f"NICK {nick}", f"USER {nick} 0 * :test viewer")
        self.read_until(f" 001 {nick} ")

    def send(self, *lines):
        self.sock.sendall("".join(line + "\r\n" for line in lines).encode("utf-8"))

    def read_until(self, marker):
        deadline = time.monotonic() + EVENTUALLY
        while marker.encode() not in self.buffer:
            if time.monotonic() > deadline:
                raise AssertionError(f"IRC server never sent {marker!r}")
            chunk = self.sock.recv(65536)
            if not chunk:
                raise AssertionError("IRC server closed the connection")
            self.buffer += chunk
            # Answer keepalive pings so the server keeps the test client.
            for line in self.buffer.split(b"\r\n"):
                if line.startswith(b"PING "):
                    self.sock.sendall(b"PONG " + line[5:] + b"\r\n")

    def join(self, channel):
        self.send(f"JOIN {channel}")
        self.read_until(f" 366 {self.nick} {channel} ")

    def close(self):
        try:
            self.send("QUIT :bye")
        finally:
            self.sock.close()
