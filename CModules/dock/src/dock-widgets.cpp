// SPDX-License-Identifier: GPL-2.0-or-later
#include "dock-widgets.h"

#include <QLabel>
#include <QPushButton>

QLabel *plainLabel(QWidget *parent)
{
	auto *label = new QLabel(parent);
	label->setTextFormat(Qt::PlainText);
	label->setWordWrap(true);
	label->setTextInteractionFlags(Qt::NoTextInteraction);
	label->setOpenExternalLinks(false);
	return label;
}

QPushButton *button(const QString &text, QWidget *parent)
{
	auto *made = new QPushButton(text, parent);
	made->setAutoDefault(false);
	return made;
}
