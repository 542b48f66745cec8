// SPDX-License-Identifier: GPL-2.0-or-later
// The dock's "Open control page" hands the browser the renderer's one-time link as the renderer
// does (Sources/CommentBarControl/PageTrampoline.swift): in a small HTML file only this user can
// read, which sends the browser on to the link, so neither the link's code nor the page's path is
// in xdg-open's command line (which every user's `ps` shows). The file is open-H.html, H from the
// SHA-256 of the code (the renderer removes it by that name once the code is used), in
// $XDG_RUNTIME_DIR/comment-bar (else the token's folder), made 0700; the file is created 0600
// with O_CREAT|O_EXCL|O_NOFOLLOW, so nothing someone else put at that name is written through.
// Jupyter's server opens its browser the same way (jupyter-server/jupyter_server at 9a4d6ee,
// jupyter_server/serverapp.py lines 3000-3041 and 3082-3086, templates/browser-open.html).
#pragma once

#include <QString>

// Where the files go: $XDG_RUNTIME_DIR/comment-bar when that is a folder of ours, else the token
// file's folder.
QString pageLinkFolder(const QString &tokenPath);

// Writes the file for `link` (http://127.0.0.1:PORT/p/PAGE/?code=CODE) into `folder`; its file://
// address, or empty with `error` set.
QString writePageLinkFile(const QString &folder, const QString &link, QString *error);
