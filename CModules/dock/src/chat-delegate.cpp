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
const QColor teal(0x26, 0xa6, 0x9a);

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

ChatDelegate::ChatDelegate(QAbstractItemView *view, QString firstLabel, QString backLabel)
	: QStyledItemDelegate(view), view_(view), firstLabel_(std::move(firstLabel)), backLabel_(std::move(backLabel))
{
}

int ChatDelegate::rowWidth() const
{
	return qMax(80, view_->viewport()->width());
}

ChatDelegate::Badge ChatDelegate::badge(const QString &text, const QColor &fill, const QColor &ink,
					const QFont &font) const
{
	if (font != badgesFont_) {
		badges_.clear();
		badgesFont_ = font;
	}
	const QString key = text + QChar(1) + fill.name() + QChar(1) + ink.name();
	auto found = badges_.constFind(key);
	if (found != badges_.constEnd())
		return *found;
	if (badges_.size() > 64) // platforms' marks and one label: more means something odd; start again
		badges_.clear();
	const QFont small = smaller(font);
	const QFontMetrics metrics(small);
	Badge made;
	made.width = metrics.horizontalAdvance(text) + 8;
	made.height = metrics.height() + 2;
	const qreal ratio = view_->devicePixelRatioF();
	made.pixmap = QPixmap(QSize(made.width, made.height) * ratio);
	made.pixmap.setDevicePixelRatio(ratio);
	made.pixmap.fill(Qt::transparent);
	QPainter painter(&made.pixmap);
	painter.setRenderHint(QPainter::Antialiasing);
	painter.setPen(Qt::NoPen);
	painter.setBrush(fill);
	painter.drawRoundedRect(QRectF(0, 0, made.width, made.height), 3, 3);
	painter.setFont(small);
	painter.setPen(ink);
	painter.drawText(QRect(0, 0, made.width, made.height), Qt::AlignCenter, text);
	painter.end();
	badges_.insert(key, made);
	return made;
}

ChatDelegate::Prefix ChatDelegate::prefix(const Comment &comment, const QFont &font) const
{
	Prefix p;
	const QString mark = comment.platform.isEmpty() ? QStringLiteral("?") : comment.platform.left(3);
	p.mark = badge(mark, comment.platformColour.isValid() ? comment.platformColour : markGrey, Qt::white, font);
	p.width = pinBar + p.mark.width + gap;
	p.height = p.mark.height;
	if (comment.firstTime || comment.welcomeBack) {
		p.first = comment.firstTime ? badge(firstLabel_, amber, Qt::black, font)
					    : badge(backLabel_, teal, Qt::white, font);
		p.width += p.first.width + gap;
	}
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
		const int indent = first ? p.width : pinBar + p.mark.width + gap;
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
	const bool selected = option.state & QStyle::State_Selected;
	const bool pinned = model->pinnedId() == comment->id;
	const bool hidden = model->isHidden(comment->viewerKey());
	const QString key = comment->id + QChar(1) + QString::number(option.rect.width()) + QChar(1) +
			    QString::number(option.rect.height()) + QChar(selected ? 's' : '-') + QChar(pinned ? 'p' : '-') +
			    QChar(hidden ? 'h' : '-');
	if (const QPixmap *drawn = rows_.object(key)) {
		painter->drawPixmap(option.rect.topLeft(), *drawn);
		return;
	}
	const qreal ratio = painter->device()->devicePixelRatioF();
	auto *drawn = new QPixmap(option.rect.size() * ratio);
	drawn->setDevicePixelRatio(ratio);
	drawn->fill(Qt::transparent);
	QPainter row(drawn);
	const QRect r(QPoint(0, 0), option.rect.size());
	if (selected)
		row.fillRect(r, option.palette.highlight());
	if (pinned)
		row.fillRect(QRect(0, 0, pinBar, r.height()), amber);
	if (hidden)
		row.setOpacity(0.35);
	else if (comment->history)
		row.setOpacity(0.6);
	const Prefix p = prefix(*comment, option.font);
	const QPoint mark(pad + pinBar, pad + 1);
	row.drawPixmap(mark, p.mark.pixmap);
	if (!p.first.pixmap.isNull())
		row.drawPixmap(mark + QPoint(p.mark.width + gap, 0), p.first.pixmap);
	row.setPen(selected ? option.palette.color(QPalette::HighlightedText) : option.palette.color(QPalette::Text));
	laidOut(*comment, option.font).draw(&row, QPointF(pad, pad));
	row.end();
	painter->drawPixmap(option.rect.topLeft(), *drawn);
	rows_.insert(key, drawn, static_cast<int>(drawn->width() * drawn->height() * 4 / 1024));
}

void ChatDelegate::forgetDrawn()
{
	rows_.clear();
	badges_.clear();
}
