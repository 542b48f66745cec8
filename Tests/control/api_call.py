# SPDX-License-Identifier: GPL-2.0-or-later
"""One control API request with the token, as the control tests make it: (status, answer as JSON)."""
import json
import urllib.error
import urllib.request


def api_call(port, token, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)
