// SPDX-License-Identifier: GPL-2.0-or-later
#include "port-status.h"
#include "private-file.h"

#include <QFileInfo>
#include <QList>

#include <cerrno>
#include <signal.h>

QString portStatusPath(const QString &tokenPath, int port)
{
	if (tokenPath.isEmpty())
		return QString();
	return QFileInfo(tokenPath).absolutePath() + QStringLiteral("/control-port-%1.status").arg(port);
}

PortSaid readPortStatus(const QString &tokenPath, int port, qint64 *pid)
{
	if (pid)
		*pid = 0;
	const std::optional<QByteArray> text = readPrivateFile(portStatusPath(tokenPath, port), 64);
	if (!text)
		return PortSaid::Unknown;
	const QList<QByteArray> words = text->simplified().split(' ');
	if (words.size() != 2)
		return PortSaid::Unknown;
	bool number = false;
	const int said = words[1].toInt(&number);
	// A renderer that is gone (it crashed) says nothing any more.
	if (!number || said <= 0 || (kill(said, 0) != 0 && errno != EPERM))
		return PortSaid::Unknown;
	if (words[0] != "bound" && words[0] != "unbound")
		return PortSaid::Unknown;
	if (pid)
		*pid = said;
	return words[0] == "bound" ? PortSaid::Bound : PortSaid::Unbound;
}
