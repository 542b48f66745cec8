// SPDX-License-Identifier: GPL-2.0-or-later
// The renderer's small private files (the control token, a port's status), read with the checks
// the renderer itself makes (Sources/CommentBarControl/ControlToken.swift, PrivateFiles.swift):
// opened without following a symlink and without blocking (a FIFO put there does not hang OBS's
// UI thread), a regular file, owned by this user, neither readable nor writable by others.
// Anything else reads as nothing: a file another user planted or could read is no token.
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

// The file's bytes (at most `limit`), or nothing when it is missing or cannot be trusted.
std::optional<QByteArray> readPrivateFile(const QString &path, qint64 limit = 4096);

// The control token in `path`: 64 lower-case hex digits, as the renderer makes it; empty when the
// file is missing, cannot be trusted or holds no token.
QByteArray readControlToken(const QString &path);
