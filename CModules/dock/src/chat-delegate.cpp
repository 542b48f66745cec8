// SPDX-License-Identifier: GPL-2.0-or-later
#include "chat-delegate.h"

#include "chat-model.h"

#include <QAbstractItemView>
#include <QPainter>
#include <QTextLayout>

namespace {

constexpr int pad = 4;
constexpr int gap = 5;
constexpr int pinBar = 4;
const QColor amber(0xff, 0xb3, 0x00);
const QColor markGrey(0x78, 0x90, 0x9c);

QFont smaller(const QFont &font)
{
	QFont small = font;
	small.setPointSizeF(font.pointSizeF() > 0 ? font.pointSizeF() * 0.85 : 8);
	small.setBold(true);
	return small;
}

const Comment *commentAt(const QModelIndex &index)
{
	const auto *model = dynamic_cast<const ChatModel *>(index.model());
	return model ? model->at(index.row()) : nullptr;
}

} // namespace

ChatDelegate::ChatDelegate(QAbstractItemView *view, QString firstLabel)
	: QStyledItemDelegate(view), view_(view), firstLabel_(std::move(firstLabel))
{
}

int ChatDelegate::rowWidth() const
{
	return qMax(80, view_->viewport()->width());
}

ChatDelegate::Prefix ChatDelegate::prefix(const Comment &comment, const QFont &font) const
{
	const QFontMetrics small(smaller(font));
	Prefix p;
	p.mark = comment.platform.left(3);
	if (p.mark.isEmpty())
		p.mark = QStringLiteral("?");
	p.markWidth = small.horizontalAdvance(p.mark) + 8;
	p.width = pinBar + p.markWidth + gap;
	if (comment.firstTime) {
		p.firstWidth = small.horizontalAdvance(firstLabel_) + 8;
		p.width += p.firstWidth + gap;
	}
	p.height = small.height() + 2;
	return p;
}

int ChatDelegate::layOut(const Comment &comment, const QFont &font, int width, QTextLayout &layout) const
{
	const Prefix p = prefix(comment, font);
	QString who = comment.shownName();
	if (!comment.nickname.isEmpty())
		who += QStringLiteral(" (") + comment.name + QLatin1Char(')');
	layout.setText(who + QStringLiteral("  ") + comment.giftPrefix() + comment.text);
	layout.setFont(font);
	QTextOption option;
	option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
	option.setTextDirection(Qt::LeftToRight);
	layout.setTextOption(option);
	QTextLayout::FormatRange name;
	name.start = 0;
	name.length = who.size();
	name.format.setFontWeight(QFont::Bold);
	if (comment.colour.isValid())
		name.format.setForeground(comment.colour);
	layout.setFormats({name});
	const int textWidth = qMax(40, width - 2 * pad);
	qreal y = 0;
	layout.beginLayout();
	for (bool first = true;; first = false) {
		QTextLine line = layout.createLine();
		if (!line.isValid())
			break;
		const int indent = first ? p.width : pinBar + p.markWidth + gap;
		line.setLineWidth(qMax(20, textWidth - indent));
		line.setPosition(QPointF(indent, y));
		y += line.height();
	}
	layout.endLayout();
	return qMax(static_cast<int>(y + 0.99), p.height) + 2 * pad;
}

const QTextLayout &ChatDelegate::laidOut(const Comment &comment, const QFont &font) const
{
	const int width = rowWidth();
	if (comment.laidOutWidth != width || !comment.laidOut) {
		comment.laidOut = std::make_shared<QTextLayout>();
		comment.laidOutHeight = layOut(comment, font, width, *comment.laidOut);
		comment.laidOutWidth = width;
	}
	return *comment.laidOut;
}

QSize ChatDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
	const Comment *comment = commentAt(index);
	if (!comment)
		return QStyledItemDelegate::sizeHint(option, index);
	laidOut(*comment, option.font);
	return QSize(rowWidth(), comment->laidOutHeight);
}

void ChatDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
	const Comment *comment = commentAt(index);
	const auto *model = dynamic_cast<const ChatModel *>(index.model());
	if (!comment || !model)
		return;
	painter->save();
	const QRect r = option.rect;
	const bool selected = option.state & QStyle::State_Selected;
	if (selected)
		painter->fillRect(r, option.palette.highlight());
	if (model->pinnedId() == comment->id)
		painter->fillRect(QRect(r.left(), r.top(), pinBar, r.height()), amber);
	if (model->isHidden(comment->viewerKey()))
		painter->setOpacity(0.35);
	else if (comment->history)
		painter->setOpacity(0.6);

	const Prefix p = prefix(*comment, option.font);
	const QFont small = smaller(option.font);
	painter->setFont(small);
	QRect mark(r.left() + pad + pinBar, r.top() + pad + 1, p.markWidth, p.height);
	painter->setPen(Qt::NoPen);
	painter->setBrush(comment->platformColour.isValid() ? comment->platformColour : markGrey);
	painter->drawRoundedRect(mark, 3, 3);
	painter->setPen(Qt::white);
	painter->drawText(mark, Qt::AlignCenter, p.mark);
	if (comment->firstTime) {
		QRect first(mark.right() + 1 + gap, mark.top(), p.firstWidth, p.height);
		painter->setPen(Qt::NoPen);
		painter->setBrush(amber);
		painter->drawRoundedRect(first, 3, 3);
		painter->setPen(Qt::black);
		painter->drawText(first, Qt::AlignCenter, firstLabel_);
	}

	painter->setPen(selected ? option.palette.color(QPalette::HighlightedText) : option.palette.color(QPalette::Text));
	laidOut(*comment, option.font).draw(painter, QPointF(r.left() + pad, r.top() + pad));
	painter->restore();
}
