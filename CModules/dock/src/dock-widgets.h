// SPDX-License-Identifier: GPL-2.0-or-later
// The small widgets every part of the dock makes alike: labels that show chat text as plain text
// (never markup or a link), buttons that Return in a field does not press.
#pragma once

class QLabel;
class QPushButton;
class QString;
class QWidget;

// A word-wrapped plain-text label that takes no clicks or keys.
QLabel *plainLabel(QWidget *parent);
// A button that is never the dialog's default: Return in a field beside it does not press it.
QPushButton *button(const QString &text, QWidget *parent);
