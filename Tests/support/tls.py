# SPDX-License-Identifier: GPL-2.0-or-later
"""TLS for the loopback fakes: a CA made with openssl for the run, a server certificate it signs for
localhost, 127.0.0.1 and the real host names the tests route to loopback, and the server side's
context. The renderer trusts the CA through COMMENTBAR_CA_FILE and reaches a fake under a real host
name through COMMENTBAR_CONNECT_TO (curl's --connect-to): TLS stays verified."""
import os
import ssl
import subprocess


def make_test_ca(directory, host_names=()):
    """Writes ca.pem, server.pem and server.key into `directory`; returns their paths as
    {"ca", "cert", "key"}. The server certificate covers localhost, 127.0.0.1 and `host_names`."""
    def run(*args):
        subprocess.run(args, cwd=directory, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.makedirs(directory, exist_ok=True)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run("openssl", "req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
        "-subj", "/CN=CommentBar Test CA", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    run("openssl", "req", *ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost")
    names = ["DNS:localhost", "IP:127.0.0.1"] + [f"DNS:{name}" for name in host_names]
    with open(os.path.join(directory, "server.ext"), "w") as f:
        f.write("basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
                f"subjectAltName={','.join(names)}\n")
    run("openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "server.pem", "-days", "2", "-extfile", "server.ext")
    return {name: os.path.join(directory, file)
            for name, file in (("ca", "ca.pem"), ("cert", "server.pem"), ("key", "server.key"))}


def server_context(test_ca):
    """The server side of TLS with the test CA's server certificate."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(test_ca["cert"], test_ca["key"])
    return context


def connect_to(*routes):
    """COMMENTBAR_CONNECT_TO for (real host, local port) pairs, or (real host, real port, local port)."""
    rules = []
    for route in routes:
        host, port, local = route if len(route) == 3 else (route[0], 443, route[1])
        rules.append(f"{host}:{port}:127.0.0.1:{local}")
    return ",".join(rules)


def renderer_env(test_ca, *routes, **extra):
    """The renderer's variables for a fake: trust the test CA, reach the routes' hosts on loopback."""
    env = {"COMMENTBAR_CA_FILE": test_ca["ca"]}
    if routes:
        env["COMMENTBAR_CONNECT_TO"] = connect_to(*routes)
    env.update(extra)
    return env
