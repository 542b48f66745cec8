// SPDX-License-Identifier: GPL-2.0-or-later
#include "comment.h"

#include <QRegularExpression>

namespace {

constexpr int nameLimit = 64;
constexpr int textLimit = 600;

// Bidi embeddings, overrides, isolates and marks: text can reorder what follows it with them
// (a name that makes the next row's text read backwards).
bool isBidiControl(char32_t c)
{
	return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
	       (c >= 0x2066 && c <= 0x2069);
}

} // namespace

QString defused(const QString &text, int limit)
{
	QString out;
	out.reserve(qMin(text.size(), limit + 1));
	int kept = 0;
	for (char32_t c : text.toUcs4()) {
		if (kept == limit) {
			out += QChar(0x2026);
			break;
		}
		if (c == '\n' || c == '\r' || c == '\t')
			c = ' ';
		else if (c < 0x20 || (c >= 0x7F && c < 0xA0) || isBidiControl(c))
			continue;
		out += QString::fromUcs4(&c, 1);
		++kept;
	}
	return out;
}

QColor checkedColour(const QString &value)
{
	static const QRegularExpression hex(QStringLiteral("^#[0-9a-fA-F]{6}$"));
	return hex.match(value).hasMatch() ? QColor(value) : QColor();
}

std::optional<Comment> Comment::fromJson(const QJsonObject &object)
{
	const QString type = object.value(QStringLiteral("type")).toString(QStringLiteral("comment"));
	const QString id = object.value(QStringLiteral("id")).toString();
	if ((type != QLatin1String("comment") && type != QLatin1String("gift")) || id.isEmpty())
		return std::nullopt;
	Comment c;
	c.id = id;
	c.platform = defused(object.value(QStringLiteral("platform")).toString(), nameLimit);
	c.channel = defused(object.value(QStringLiteral("channel")).toString(), 200);
	c.user = object.value(QStringLiteral("user")).toString();
	c.name = defused(object.value(QStringLiteral("name")).toString(), nameLimit);
	c.nickname = defused(object.value(QStringLiteral("nickname")).toString(), nameLimit);
	c.text = defused(object.value(QStringLiteral("text")).toString(), textLimit);
	c.kind = object.value(QStringLiteral("kind")).toString(type);
	c.gift = defused(object.value(QStringLiteral("gift")).toString(), nameLimit);
	c.count = object.value(QStringLiteral("count")).toInt();
	c.platformColour = checkedColour(object.value(QStringLiteral("platform_colour")).toString());
	c.colour = checkedColour(object.value(QStringLiteral("colour")).toString());
	c.seq = static_cast<qint64>(object.value(QStringLiteral("seq")).toDouble());
	c.firstTime = object.value(QStringLiteral("first_time")).toBool();
	c.welcomeBack = object.value(QStringLiteral("welcome_back")).toBool();
	c.history = object.value(QStringLiteral("history")).toBool();
	return c;
}

std::optional<Removal> Removal::fromJson(const QJsonObject &object)
{
	const QString type = object.value(QStringLiteral("type")).toString();
	Removal r;
	r.platform = defused(object.value(QStringLiteral("platform")).toString(), nameLimit);
	r.channel = defused(object.value(QStringLiteral("channel")).toString(), 200);
	r.seq = static_cast<qint64>(object.value(QStringLiteral("seq")).toDouble());
	if (type == QLatin1String("delete")) {
		r.kind = Kind::Row;
		r.id = object.value(QStringLiteral("id")).toString();
		if (r.id.isEmpty())
			return std::nullopt;
	} else if (type == QLatin1String("ban")) {
		r.kind = Kind::Viewer;
		r.user = object.value(QStringLiteral("user")).toString().toLower();
		if (r.user.isEmpty())
			return std::nullopt;
	} else if (type == QLatin1String("clear")) {
		r.kind = Kind::Stream;
	} else {
		return std::nullopt;
	}
	return r;
}

bool Removal::takes(const Comment &comment) const
{
	switch (kind) {
	case Kind::Row:
		return comment.id == id;
	case Kind::Viewer:
		return comment.platform == platform && comment.channel == channel && comment.user.toLower() == user;
	case Kind::Stream:
		return comment.platform == platform && comment.channel == channel;
	case Kind::Everything:
		return true;
	}
	return false;
}

QString Comment::viewerKey() const
{
	return platform + QChar(1) + channel + QChar(1) + user.toLower();
}

QString Comment::giftPrefix() const
{
	if (kind != QLatin1String("gift"))
		return QString();
	QString prefix = QStringLiteral("\U0001F381 ") + gift;
	if (count > 1)
		prefix += QStringLiteral(" \u00D7") + QString::number(count);
	return prefix + QLatin1Char(' ');
}

QString Comment::line() const
{
	QString who = shownName();
	if (!nickname.isEmpty())
		who += QStringLiteral(" (") + name + QLatin1Char(')');
	return who + QStringLiteral(": ") + giftPrefix() + text;
}
