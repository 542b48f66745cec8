// SPDX-License-Identifier: GPL-2.0-or-later
// What the renderer says of a Control port (Sources/CommentBarControl/ControlPortStatus.swift): the
// file control-port-PORT.status beside the token holds "bound PID" while a renderer serves the
// port and "unbound PID" while the renderer that wants it cannot bind it. The dock sends nothing to
// a port said unbound (what listens there is another program). A file whose process is gone, one
// that cannot be trusted (read with the token's checks) or none at all says nothing.
#pragma once

#include <QString>

enum class PortSaid { Bound, Unbound, Unknown };

// The status file of `port`, beside the token file `tokenPath`.
QString portStatusPath(const QString &tokenPath, int port);

PortSaid readPortStatus(const QString &tokenPath, int port);
