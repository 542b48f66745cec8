// SPDX-License-Identifier: GPL-2.0-or-later
// The control API's token file, found as the renderer finds it (Sources/CommentBarControl/
// ControlToken.swift): $XDG_CONFIG_HOME/comment-bar/control-token, else
// $HOME/.config/comment-bar/control-token; only absolute folders count. Empty when neither is set.
#pragma once

#include <QString>

inline QString controlTokenPath()
{
	const QString config = qEnvironmentVariable("XDG_CONFIG_HOME");
	if (config.startsWith(QLatin1Char('/')))
		return config + QStringLiteral("/comment-bar/control-token");
	const QString home = qEnvironmentVariable("HOME");
	if (home.startsWith(QLatin1Char('/')))
		return home + QStringLiteral("/.config/comment-bar/control-token");
	return QString();
}
