// SPDX-License-Identifier: GPL-2.0-or-later
// ChatModel: the rows a list shows, oldest first: the live chat (the newest LIMIT kept, one row
// per comment id: a server that started again sends its history anew) or a search's results.
// It also knows what the rows are drawn with: the pinned comment and the viewers hidden here.
#pragma once

#include "comment.h"

#include <QAbstractListModel>
#include <QSet>
#include <QVector>

#include <deque>

class ChatModel : public QAbstractListModel {
public:
	ChatModel(int limit, QObject *parent);

	int rowCount(const QModelIndex &parent = QModelIndex()) const override;
	// Qt::DisplayRole and Qt::AccessibleTextRole: the row as one line of plain text.
	QVariant data(const QModelIndex &index, int role) const override;

	// New comments at the bottom; one already kept (same id) is left as it is.
	void append(const QVector<Comment> &comments);
	void replaceAll(const QVector<Comment> &comments);
	void clear();
	// The rows a deletion, ban or clear took away go (as the control page drops them).
	void remove(const QVector<Removal> &removals);

	const Comment *at(int row) const;
	int rowOf(const QString &id) const;

	void setPinnedId(const QString &id);
	const QString &pinnedId() const { return pinned_; }
	void setHidden(const QString &viewerKey, bool hidden);
	bool isHidden(const QString &viewerKey) const { return hidden_.contains(viewerKey); }
	// Rows are laid out again (a new font or width changes every row's height).
	void forgetHeights();

private:
	void changedAll();

	std::deque<Comment> rows_;
	QSet<QString> ids_;
	QSet<QString> hidden_;
	QString pinned_;
	int limit_;
};
