// SPDX-License-Identifier: GPL-2.0-or-later
#include "page-link-file.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QUrl>
#include <QUrlQuery>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

// The folder, made 0700 if missing: it must be a folder of ours (not a symlink), closed to others.
bool privateFolder(const QString &folder, QString *error)
{
	const QByteArray path = QFile::encodeName(folder);
	if (mkdir(path.constData(), 0700) != 0 && errno != EEXIST) {
		*error = folder + QStringLiteral(": ") + QString::fromLocal8Bit(strerror(errno));
		return false;
	}
	struct stat info;
	if (lstat(path.constData(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != getuid()) {
		*error = folder + QStringLiteral(" is not a folder of ours");
		return false;
	}
	if ((info.st_mode & 077) != 0 && chmod(path.constData(), 0700) != 0) {
		*error = folder + QStringLiteral(" is open to others");
		return false;
	}
	return true;
}

QString escaped(const QString &text)
{
	return text.toHtmlEscaped().replace(QLatin1Char('\''), QStringLiteral("&#39;"));
}

} // namespace

QString pageLinkFolder(const QString &tokenPath)
{
	const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
	struct stat info;
	if (runtime.startsWith(QLatin1Char('/')) && stat(QFile::encodeName(runtime).constData(), &info) == 0 &&
	    S_ISDIR(info.st_mode) && info.st_uid == getuid())
		return runtime + QStringLiteral("/comment-bar");
	return tokenPath.isEmpty() ? QString() : QFileInfo(tokenPath).absolutePath();
}

QString writePageLinkFile(const QString &folder, const QString &link, QString *error)
{
	const QUrl url(link);
	const QString code = QUrlQuery(url).queryItemValue(QStringLiteral("code"));
	if (url.scheme() != QLatin1String("http") || code.isEmpty()) {
		*error = QStringLiteral("the renderer gave no one-time link");
		return QString();
	}
	if (folder.isEmpty() || !privateFolder(folder, error))
		return QString();
	const QByteArray hash = QCryptographicHash::hash("commentbar-trampoline|" + code.toUtf8(), QCryptographicHash::Sha256);
	const QString path = folder + QStringLiteral("/open-") + QString::fromLatin1(hash.toHex().left(32)) +
			     QStringLiteral(".html");
	const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
			      0600);
	if (fd < 0) {
		*error = path + QStringLiteral(": ") + QString::fromLocal8Bit(strerror(errno));
		return QString();
	}
	const QString target = escaped(link);
	const QByteArray page = QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><meta name=\"referrer\" "
					       "content=\"no-referrer\">\n<meta http-equiv=\"refresh\" content=\"0;url=%1\">\n"
					       "<title>Comment Bar control page</title></head>\n<body><p><a href=\"%1\">Open the "
					       "Comment Bar control page</a></p></body></html>\n")
					.arg(target)
					.toUtf8();
	const bool written = ::write(fd, page.constData(), static_cast<size_t>(page.size())) == page.size() &&
			     fchmod(fd, 0600) == 0;
	if (::close(fd) != 0 || !written) {
		*error = path + QStringLiteral(": cannot be written");
		::unlink(QFile::encodeName(path).constData());
		return QString();
	}
	return QUrl::fromLocalFile(path).toString(QUrl::FullyEncoded);
}
