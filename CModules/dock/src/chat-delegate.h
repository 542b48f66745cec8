// SPDX-License-Identifier: GPL-2.0-or-later
// ChatDelegate: draws one row of a ChatModel: the platform's mark, the first-time label, the name
// in its colour (the nickname first, the name in brackets), the text wrapped to the list's width;
// history rows and hidden viewers' rows dimmed, the pinned row marked in the bar's amber. Text is
// laid out with QTextLayout from plain strings: nothing is read as markup or a link.
#pragma once

#include <QStyledItemDelegate>

class QAbstractItemView;
class QTextLayout;
struct Comment;

class ChatDelegate : public QStyledItemDelegate {
public:
	ChatDelegate(QAbstractItemView *view, QString firstLabel);

	void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
	QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
	struct Prefix {
		QString mark;
		int markWidth = 0;
		int firstWidth = 0;
		int width = 0;
		int height = 0;
	};
	Prefix prefix(const Comment &comment, const QFont &font) const;
	// Lays the row's text out in WIDTH (the first line after the prefix); the row's height.
	int layOut(const Comment &comment, const QFont &font, int width, QTextLayout &layout) const;
	// The row's layout at the list's width, made once per width (kept in the Comment).
	const QTextLayout &laidOut(const Comment &comment, const QFont &font) const;
	int rowWidth() const;

	QAbstractItemView *view_;
	QString firstLabel_;
};
