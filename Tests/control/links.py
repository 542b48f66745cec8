# SPDX-License-Identifier: GPL-2.0-or-later
"""The control page's one-time links, as a browser's first request sees them."""
import http.client


def first_use(link):
    """The status and headers of a GET of `link`, its redirect not followed (a one-time link
    answers 303 with the page's cookie once, then 401)."""
    address = link.split("//", 1)[1]
    host, _, path = address.partition("/")
    connection = http.client.HTTPConnection(host, timeout=5)
    try:
        connection.request("GET", "/" + path)
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders())
    finally:
        connection.close()
