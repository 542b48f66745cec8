// SPDX-License-Identifier: GPL-2.0-or-later
// What the renderer says of a Control port (Sources/CommentBarControl/ControlPortStatus.swift): the
// file control-port-PORT.status beside the token holds "bound PID" while a renderer serves the
// port and "unbound PID" while the renderer that wants it cannot bind it. The dock sends nothing to
// a port said unbound (what listens there is another program). A file whose process is gone, one
// that cannot be trusted (read with the token's checks) or none at all says nothing. The PID of a
// file that says something tells one renderer's run from the next: the dock keeps a hello's proof
// while the same process is said to serve the port (control-client.h).
#pragma once

#include <QString>

enum class PortSaid { Bound, Unbound, Unknown };

// The status file of `port`, beside the token file `tokenPath`.
QString portStatusPath(const QString &tokenPath, int port);

// PID, if given, gets the file's process (0 when the file says nothing).
PortSaid readPortStatus(const QString &tokenPath, int port, qint64 *pid = nullptr);
