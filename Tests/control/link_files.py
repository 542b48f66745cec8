# SPDX-License-Identifier: GPL-2.0-or-later
"""The files "Open control page" hands `xdg-open` instead of the one-time link itself
(Sources/CommentBarControl/PageTrampoline.swift): the link, as a test reads it from one."""
import re


def link_in(address):
    """The one-time link the file at `address` (file://PATH) sends the browser to."""
    with open(address.removeprefix("file://")) as page:
        found = re.search(r'http-equiv="refresh" content="0;url=([^"]+)"', page.read())
    if not found:
        raise AssertionError(f"{address} leads nowhere")
    return found.group(1).replace("&amp;", "&")
