// SPDX-License-Identifier: GPL-2.0-or-later
#include "chat-model.h"

#include <algorithm>

ChatModel::ChatModel(int limit, QObject *parent) : QAbstractListModel(parent), limit_(limit) {}

int ChatModel::rowCount(const QModelIndex &parent) const
{
	return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

QVariant ChatModel::data(const QModelIndex &index, int role) const
{
	const Comment *comment = at(index.row());
	if (!comment || (role != Qt::DisplayRole && role != Qt::AccessibleTextRole))
		return QVariant();
	return comment->line();
}

const Comment *ChatModel::at(int row) const
{
	if (row < 0 || row >= static_cast<int>(rows_.size()))
		return nullptr;
	return &rows_[static_cast<size_t>(row)];
}

int ChatModel::rowOf(const QString &id) const
{
	if (!ids_.contains(id))
		return -1;
	for (size_t i = 0; i < rows_.size(); ++i) {
		if (rows_[i].id == id)
			return static_cast<int>(i);
	}
	return -1;
}

void ChatModel::append(const QVector<Comment> &comments)
{
	QVector<Comment> fresh;
	for (const Comment &comment : comments) {
		if (!ids_.contains(comment.id)) {
			ids_.insert(comment.id);
			fresh.push_back(comment);
		}
	}
	// Only the newest LIMIT of a large batch ever become rows.
	if (fresh.size() > limit_) {
		for (int i = 0; i < fresh.size() - limit_; ++i)
			ids_.remove(fresh[i].id);
		fresh.erase(fresh.begin(), fresh.end() - limit_);
	}
	const int over = static_cast<int>(rows_.size()) + fresh.size() - limit_;
	if (over > 0) {
		beginRemoveRows(QModelIndex(), 0, over - 1);
		for (int i = 0; i < over; ++i) {
			ids_.remove(rows_.front().id);
			rows_.pop_front();
		}
		endRemoveRows();
	}
	if (fresh.isEmpty())
		return;
	const int first = static_cast<int>(rows_.size());
	beginInsertRows(QModelIndex(), first, first + fresh.size() - 1);
	for (Comment &comment : fresh)
		rows_.push_back(std::move(comment));
	endInsertRows();
}

void ChatModel::replaceAll(const QVector<Comment> &comments)
{
	beginResetModel();
	rows_.clear();
	ids_.clear();
	endResetModel();
	append(comments);
}

void ChatModel::clear()
{
	replaceAll({});
}

void ChatModel::remove(const QVector<Removal> &removals)
{
	if (removals.isEmpty())
		return;
	auto taken = [&removals](const Comment &comment) {
		return std::any_of(removals.begin(), removals.end(),
				   [&comment](const Removal &removal) { return removal.takes(comment); });
	};
	// Each run of taken rows goes at once, from the bottom up, so the rows still to look at keep
	// their numbers (a clear is one removal, not one per row).
	for (int last = static_cast<int>(rows_.size()) - 1; last >= 0; --last) {
		if (!taken(rows_[static_cast<size_t>(last)]))
			continue;
		int first = last;
		while (first > 0 && taken(rows_[static_cast<size_t>(first - 1)]))
			--first;
		beginRemoveRows(QModelIndex(), first, last);
		for (int row = first; row <= last; ++row)
			ids_.remove(rows_[static_cast<size_t>(row)].id);
		rows_.erase(rows_.begin() + first, rows_.begin() + last + 1);
		endRemoveRows();
		last = first;
	}
}

void ChatModel::setPinnedId(const QString &id)
{
	if (id == pinned_)
		return;
	pinned_ = id;
	changedAll();
}

void ChatModel::setHidden(const QString &viewerKey, bool hidden)
{
	if (hidden == hidden_.contains(viewerKey))
		return;
	if (hidden)
		hidden_.insert(viewerKey);
	else
		hidden_.remove(viewerKey);
	changedAll();
}

void ChatModel::forgetHeights()
{
	for (const Comment &comment : rows_) {
		comment.laidOutWidth = -1;
		comment.laidOut.reset();
	}
}

void ChatModel::changedAll()
{
	if (!rows_.empty())
		emit dataChanged(index(0), index(static_cast<int>(rows_.size()) - 1));
}
