// SPDX-License-Identifier: GPL-2.0-or-later
// ChatDelegate: draws one row of a ChatModel: the platform's mark, the first-time label, the name
// in its colour (the nickname first, the name in brackets), the text wrapped to the list's width;
// history rows and hidden viewers' rows dimmed, the pinned row marked in the bar's amber. Text is
// laid out with QTextLayout from plain strings: nothing is read as markup or a link.
#pragma once

#include <QCache>
#include <QFont>
#include <QHash>
#include <QPixmap>
#include <QStyledItemDelegate>

class QAbstractItemView;
class QTextLayout;
struct Comment;

class ChatDelegate : public QStyledItemDelegate {
public:
	ChatDelegate(QAbstractItemView *view, QString firstLabel, QString backLabel);

	void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
	QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
	// Rows are drawn anew (another theme, palette or font).
	void forgetDrawn();

private:
	// A small rounded label (the platform's mark, the first-time label), drawn once into a pixmap:
	// a repaint copies it instead of laying its text out again.
	struct Badge {
		QPixmap pixmap;
		int width = 0;
		int height = 0;
	};
	struct Prefix {
		Badge mark;
		Badge first; // the first-time or welcome-back label; no pixmap: neither
		int width = 0;
		int height = 0;
	};
	Badge badge(const QString &text, const QColor &fill, const QColor &ink, const QFont &font) const;
	Prefix prefix(const Comment &comment, const QFont &font) const;
	// Lays the row's text out in WIDTH (the first line after the prefix); the row's height.
	int layOut(const Comment &comment, const QFont &font, int width, QTextLayout &layout) const;
	// The row's layout at the list's width, made once per width (kept in the Comment).
	const QTextLayout &laidOut(const Comment &comment, const QFont &font) const;
	int rowWidth() const;

	QAbstractItemView *view_;
	QString firstLabel_;
	QString backLabel_;
	mutable QHash<QString, Badge> badges_;
	// The rows as last drawn, by id, size and state (kilobytes, at most 8 MiB): a repaint after
	// new comments copies the rows that did not change instead of drawing their text again.
	mutable QCache<QString, QPixmap> rows_{8 * 1024};
	mutable QFont badgesFont_; // the font the badges were drawn with: another one draws them anew
};
