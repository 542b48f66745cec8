// SPDX-License-Identifier: GPL-2.0-or-later
// The questions the dock asks about a viewer: a nickname, a name colour, a voice. The viewer's name
// (chat text) is shown in a plain-text label, never in a widget that reads markup.
#pragma once

#include <QColor>
#include <QString>

#include <optional>

class QWidget;
class Texts;

// The nickname typed (empty: remove it), or nullopt when cancelled.
std::optional<QString> askNickname(QWidget *parent, const Texts &texts, const QString &who, const QString &current);
// "#rrggbb", "" (the platform's colour), or nullopt when cancelled.
std::optional<QString> askColour(QWidget *parent, const Texts &texts, const QString &who, const QColor &current);
// The voice typed (what the source's speech engine takes; empty: the source's voice again), or
// nullopt when cancelled. The control API does not say a viewer's voice, so the field starts empty.
std::optional<QString> askVoice(QWidget *parent, const Texts &texts, const QString &who);
