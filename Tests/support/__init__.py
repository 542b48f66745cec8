# SPDX-License-Identifier: GPL-2.0-or-later
"""What the tests share, one of each: run them with PYTHONPATH=Tests (the Makefile does).

    support.processes   free ports, waiting, a child that dies with its parent, cleanup in reverse order
    support.checks      "ok"/"FAIL" lines and the "N passed, M failed" verdict of the script tests
    support.xserver     Xvfb on a free display and a window manager on it (openbox)
    support.websocket   WebSocket client and server for plain threads (Debian's python3-websockets)
    support.obs         real OBS Studio: its private config, the plugin staged for it, starting and
                        stopping it, obs-websocket requests; `python3 -m support.obs` for shell tests
    support.tls         a test CA made for the run, TLS server contexts, COMMENTBAR_CONNECT_TO routes
    support.fakes       the shared parts of a loopback fake service: its routes, its env, its close
    support.pool_frames `commentbar serve` on a frame pool made as the OBS shim makes it, every frame kept
    support.check       `make check`'s runner: the declared steps side by side, a table of times
    support.check_plan  what make check starts next, from each step's needs, held and used resources
"""
