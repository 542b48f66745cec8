# SPDX-License-Identifier: GPL-2.0-or-later
"""The dock's token stays with its renderer: Tests/dock/dock_client_probe.cpp (the dock's own
ControlClient, Qt 6 build) follows a port with a token file, as the panel does, and:
- a program squatting the port (Tests/control/squatter.py), lying about the hello or relaying it
  to the real server on another port, never receives the token, and the dock says NotRenderer;
- a port the renderer said it could not bind (control-port-PORT.status "unbound PID" beside the
  token) is sent nothing at all;
- a token file others could read, or a symlink to one, is no token: nothing is sent with it;
- the real API (Tests/dock/fake_control.py, which answers the hello as the renderer does) is
  followed and commanded, also when the status file says the port is bound;
- the hello's proof is kept while the status file names the same live renderer process (one hello
  for many requests), asked again when it names another, and never carried over to a squatter:
  not to one on a port said bound before it proved itself, nor to one that took the port of a
  renderer that crashed (its connections closed, its process gone);
- "Open control page" gives xdg-open a 0600 file leading to the one-time link, never the link (and
  asks a squatter for none).

    PYTHONPATH=Tests python3 Tests/dock/test_dock_token.py --probe build/dock/test/dock_client_probe"""
import argparse
import os
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time

from control.squatter import Squatter
from dock.fake_control import FakeControl
from support.checks import check, finish
from support.processes import wait_for


class LinkingFake(FakeControl):
    """The dock's fake API with POST /api/page-link too, answered as the renderer does
    (Sources/CommentBarControl/ControlReading.swift: {"url", "expires_in"})."""

    def command(self, path, body):
        if path == "/api/page-link":
            return 200, {"url": f"http://127.0.0.1:{self.port}/p/{'a' * 32}/?code={CODE}", "expires_in": 60}
        return super().command(path, body)


CODE = secrets.token_hex(16)


def fake_xdg_open(work):
    """A fake xdg-open first on PATH: records its command line, then the mode and text of the file
    it was given (as the browser would read it). Returns (PATH, the record's path)."""
    fakes = os.path.join(work, "bin")
    os.makedirs(fakes)
    record = os.path.join(work, "xdg-open.log")
    with open(os.path.join(fakes, "xdg-open"), "w") as fake:
        fake.write(f'#!/bin/sh\nlog="{record}"\ntr "\\0" " " < /proc/$$/cmdline >> "$log"; echo >> "$log"\n'
                   'file="${1#file://}"\nif [ -f "$file" ]; then echo "mode $(stat -c %a "$file")" >> "$log"; '
                   'cat "$file" >> "$log"; fi\n')
    os.chmod(os.path.join(fakes, "xdg-open"), 0o755)
    return fakes + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"), record


def write_private(path, text, mode=0o600):
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode), "w") as f:
        f.write(text)
    os.chmod(path, mode)


def probe(binary, port, token_file, until, seconds=8, extra=(), env=None):
    """The probe's output lines: its states, its command's status, its final state."""
    env = {**os.environ, **(env or {}), "QT_QPA_PLATFORM": "offscreen",
           # a proxy the user set must not see the dock's requests
           "http_proxy": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9"}
    run = subprocess.run([binary, "--port", str(port), "--token-file", token_file, "--seconds", str(seconds),
                          "--until", until, *extra], env=env, capture_output=True, text=True, timeout=seconds + 30)
    return run.stdout.splitlines() + [f"exit {run.returncode}"]


def say_bound(path, pid):
    """The status file as the renderer writes it (replaced whole: the dock never reads half of it)."""
    write_private(path + ".new", f"bound {pid}\n")
    os.replace(path + ".new", path)


def proof_kept(args, work, token, token_file):
    """One hello per renderer run; another process named: a new hello; a crash and a squatter on
    the freed port: a hello the squatter cannot answer, and no token."""
    real, other = FakeControl(token), FakeControl(token)
    runs = [subprocess.Popen(["sleep", "60"]) for _ in range(2)]
    status = os.path.join(work, f"control-port-{real.port}.status")
    say_bound(status, runs[0].pid)
    feeding = threading.Event()
    feeding.set()

    def feed():  # news keeps the dock asking
        n = 0
        while feeding.is_set():
            n += 1
            with real.lock:
                real.add({"id": f"k{n}", "name": f"Viewer{n}", "text": f"comment {n}"})
            time.sleep(0.2)
    threading.Thread(target=feed, daemon=True).start()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    probe = subprocess.Popen([args.probe, "--port", str(real.port), "--token-file", token_file, "--seconds", "12"],
                             env=env, stdout=subprocess.PIPE, text=True)
    squatter = None
    try:
        time.sleep(4)
        asked, hellos = len(real.log), real.hellos
        check(hellos == 1 and asked >= 4, "the proof is kept while the same renderer serves the port",
              f"{hellos} hellos for {asked} requests")
        say_bound(status, runs[1].pid)
        time.sleep(3)
        check(real.hellos == 2 and len(real.log) > asked, "another renderer process named: proven again",
              f"{real.hellos} hellos, {len(real.log) - asked} requests since")
        feeding.clear()
        runs[1].kill()
        runs[1].wait()
        real.crash()
        squatter = Squatter("relay", relay_port=other.port, port=real.port)
        lines = probe.communicate(timeout=40)[0].splitlines()
        check(any(r.startswith("GET /api/hello?nonce=") for r in squatter.received())
              and not squatter.saw(token), "a squatter on a crashed renderer's port is asked the hello, never sent the token",
              f"{len(squatter.received())} requests; " + "; ".join(lines))
        check("final NotRenderer" in lines and "command 0" in lines, "the dock says it is not the renderer",
              "; ".join(lines))
    finally:
        feeding.clear()
        if probe.poll() is None:
            probe.kill()
            probe.wait()
        for run in runs:
            run.kill()
            run.wait()
        if squatter:
            squatter.close()
        real.close()
        other.close()
        os.unlink(status)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--probe", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="commentbar-dock-token.") as work:
        token = secrets.token_hex(32)
        token_file = os.path.join(work, "control-token")
        write_private(token_file, token + "\n")
        real = LinkingFake(token)
        path, record = fake_xdg_open(work)
        runtime = os.path.join(work, "runtime")
        os.makedirs(runtime, mode=0o700)
        opening = {"PATH": path, "XDG_RUNTIME_DIR": runtime}
        try:
            for mode in ("liar", "relay"):
                squatter = Squatter(mode, relay_port=real.port)
                try:
                    lines = probe(args.probe, squatter.port, token_file, "NotRenderer", extra=["--open"], env=opening)
                    check(any(r.startswith("GET /api/hello?nonce=") for r in squatter.received()),
                          f"{mode} squatter: the dock asked it to prove itself", "; ".join(lines))
                    check(not squatter.saw(token), f"{mode} squatter: never receives the token",
                          f"{len(squatter.received())} requests")
                    check("final NotRenderer" in lines and "command 0" in lines,
                          f"{mode} squatter: the dock says it is not the renderer and sends it no command", "; ".join(lines))
                    check(any(line.startswith("open refused") for line in lines) and not os.path.exists(record),
                          f"{mode} squatter: Open control page asks it for no link and opens nothing", "; ".join(lines))
                finally:
                    squatter.close()

            # A squatter on a port said bound by a live process: nothing is proven yet, so it is asked the hello.
            squatter = Squatter("relay", relay_port=real.port)
            status = os.path.join(work, f"control-port-{squatter.port}.status")
            write_private(status, f"bound {os.getpid()}\n")
            try:
                lines = probe(args.probe, squatter.port, token_file, "NotRenderer")
                check(any(r.startswith("GET /api/hello?nonce=") for r in squatter.received())
                      and not squatter.saw(token), "a squatter on a port said bound is asked the hello, never sent the token",
                      f"{len(squatter.received())} requests; " + "; ".join(lines))
            finally:
                squatter.close()
                os.unlink(status)

            proof_kept(args, work, token, token_file)

            # The renderer said it could not bind the port: whatever holds it is sent nothing.
            squatter = Squatter("relay", relay_port=real.port)
            status = os.path.join(work, f"control-port-{squatter.port}.status")
            write_private(status, f"unbound {os.getpid()}\n")
            try:
                lines = probe(args.probe, squatter.port, token_file, "PortUnbound", seconds=4)
                check(squatter.received() == [], "a port said unbound is sent nothing",
                      f"{len(squatter.received())} requests")
                check("final PortUnbound" in lines and "command 0" in lines, "the dock says the port is not bound",
                      "; ".join(lines))
            finally:
                squatter.close()
                os.unlink(status)

            # A token file that cannot be trusted is no token, even with the real server.
            loose = os.path.join(work, "loose-token")
            write_private(loose, token + "\n", mode=0o644)
            link = os.path.join(work, "linked-token")
            os.symlink(token_file, link)
            for name, path in (("readable by others", loose), ("a symlink", link)):
                real.log.clear()
                lines = probe(args.probe, real.port, path, "NoToken", seconds=4)
                check("final NoToken" in lines and not any(entry["authorization"] for entry in real.log),
                      f"a token file {name} is not read", "; ".join(lines))

            # The real API (the fake that holds the token), with the port said bound by a live renderer.
            status = os.path.join(work, f"control-port-{real.port}.status")
            write_private(status, f"bound {os.getpid()}\n")
            real.hellos = 0  # the relaying squatters' hellos went to it too
            lines = probe(args.probe, real.port, token_file, "Live", extra=["--open"], env=opening)
            check("final Live" in lines and "command 200" in lines, "the real server is followed and commanded",
                  "; ".join(lines))
            check(real.hellos == 1, "one hello for the whole run (the same renderer process serves the port)",
                  f"{real.hellos} hellos for {len(real.log)} requests")
            # "Open control page": xdg-open is given a private file that leads to the link, never the link.
            check("open started" in lines, "Open control page starts xdg-open", "; ".join(lines))
            check(wait_for(lambda: os.path.exists(record) and "</html>" in open(record).read(), 10),
                  "xdg-open was run with a file it could read")
            with open(record) as log:
                command, mode, *page = log.read().splitlines()
            check(re.search(rf"/xdg-open file://{re.escape(runtime)}/comment-bar/open-[0-9a-f]{{32}}\.html ?$", command)
                  is not None and CODE not in command and "/p/" not in command,
                  "xdg-open's command line holds the file, not the link nor its code", command)
            check(mode == "mode 600", "the file is 0600", mode)
            check(f"url=http://127.0.0.1:{real.port}/p/{'a' * 32}/?code={CODE}" in "\n".join(page),
                  "the file sends the browser on to the one-time link")
            check(os.stat(os.path.join(runtime, "comment-bar")).st_mode & 0o777 == 0o700, "its folder is 0700")
            check(any(entry["authorization"] == f"Bearer {token}" for entry in real.log),
                  "the real server gets the token")
        finally:
            real.close()
    return finish()


if __name__ == "__main__":
    sys.exit(main())
