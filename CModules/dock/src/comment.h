// SPDX-License-Identifier: GPL-2.0-or-later
// Comment: one comment or gift of the control API (docs/control-api.md, "Events"), as the dock
// keeps it. Everything in it came from a chat: its strings are defused on the way in (no bidi
// controls, no control characters, bounded length) and are only ever shown as plain text.
#pragma once

#include <QColor>
#include <QJsonObject>
#include <QString>

#include <memory>
#include <optional>

class QTextLayout;

struct Comment {
	QString id;
	QString platform;
	QString channel;
	QString user; // what POST /api/viewer takes
	QString name;
	QString nickname;
	QString text;
	QString kind; // comment, action, notice, gift
	QString gift;
	QColor platformColour; // invalid: none given
	QColor colour;         // the name's colour; invalid: none
	qint64 seq = 0;
	int count = 0;
	bool firstTime = false;
	bool welcomeBack = false; // back after a while (the viewer memory)
	bool history = false;
	// The row laid out at a width (ChatDelegate): the list asks every row's height after each new
	// comment and paints the visible ones after each scroll, and shaping text is what costs, so a
	// row is shaped once per width, not on every layout and paint.
	mutable std::shared_ptr<QTextLayout> laidOut;
	mutable int laidOutWidth = -1;
	mutable int laidOutHeight = 0;

	// From a comment or gift event; nullopt without an id or with another type.
	static std::optional<Comment> fromJson(const QJsonObject &object);

	// The nickname when there is one, else the name.
	QString shownName() const { return nickname.isEmpty() ? name : nickname; }
	// The viewer on this channel (platform, channel, user), as hiding is kept by the renderer.
	QString viewerKey() const;
	// "Name: text", the row as one line of plain text (screen readers, tests).
	QString line() const;
	// The gift's prefix ("🎁 rose ×3 "), empty for other kinds.
	QString giftPrefix() const;
};

// What a deletion, a ban or a clear of the control API took away (the `removed` list of
// GET /api/comments, docs/control-api.md): one row, a viewer's rows on a stream, a stream's rows,
// or every row (the server no longer kept every removal since the last poll: all is read anew).
struct Removal {
	enum class Kind { Row, Viewer, Stream, Everything };
	Kind kind = Kind::Everything;
	QString id;       // Row
	QString platform; // Viewer, Stream: defused as a Comment's are, so they compare equal
	QString channel;
	QString user; // Viewer: compared case-blind, as the renderer does
	qint64 seq = 0;

	// From a delete, ban or clear event; nullopt for another type or one missing its keys.
	static std::optional<Removal> fromJson(const QJsonObject &object);
	bool takes(const Comment &comment) const;
};

// TEXT with every bidi control and control character out (a line break becomes a space) and at
// most LIMIT characters (an ellipsis when cut): what a hostile chat sends is shown as typed, never
// reordered or as markup.
QString defused(const QString &text, int limit);

// "#rrggbb" as a colour; an invalid colour for anything else.
QColor checkedColour(const QString &value);
