// SPDX-License-Identifier: GPL-2.0-or-later
#include "private-file.h"

#include <QFile>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

std::optional<QByteArray> readPrivateFile(const QString &path, qint64 limit)
{
	if (path.isEmpty())
		return std::nullopt;
	const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return std::nullopt;
	struct stat info;
	std::optional<QByteArray> bytes;
	if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_uid == getuid() && (info.st_mode & 077) == 0) {
		QByteArray read(static_cast<int>(limit), '\0');
		const ssize_t count = ::read(fd, read.data(), static_cast<size_t>(limit));
		if (count >= 0) {
			read.truncate(static_cast<int>(count));
			bytes = read;
		}
	}
	::close(fd);
	return bytes;
}

QByteArray readControlToken(const QString &path)
{
	const std::optional<QByteArray> bytes = readPrivateFile(path, 256);
	if (!bytes)
		return QByteArray();
	const QByteArray token = bytes->trimmed();
	if (token.size() != 64)
		return QByteArray();
	for (const char c : token) {
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return QByteArray();
	}
	return token;
}
