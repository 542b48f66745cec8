// SPDX-License-Identifier: GPL-2.0-or-later
// The dock's half of the control server's hello (docs/control-api.md, "Before sending the token";
// the design is explained in Sources/CommentBarControl/ControlHello.swift): before any request that
// carries the token, the dock asks GET /api/hello?nonce=N with 32 fresh random bytes and checks the
// answer's proof, hex(HMAC-SHA256(key: token, message: "commentbar-control-hello|PORT|N")), with the
// token it read and the port it connected to. A program squatting the port cannot make it, so it is
// never sent the token. Qt's QMessageAuthenticationCode computes the HMAC.
#pragma once

#include <QByteArray>

// 32 random bytes from the system's generator, as 64 lower-case hex digits.
QByteArray makeHelloNonce();

// hex(HMAC-SHA256(token, "commentbar-control-hello|" + port + "|" + nonce)).
QByteArray helloProof(const QByteArray &token, int port, const QByteArray &nonce);

// Whether `given` is that proof (compared in time that does not depend on where they differ).
bool helloProofHolds(const QByteArray &given, const QByteArray &token, int port, const QByteArray &nonce);
