// SPDX-License-Identifier: GPL-2.0-or-later
// SourceDirectory: the Comment Bar sources the dock can follow, and the two settings it reads from
// each (control, control_port). In OBS: ObsSourceDirectory; a test hands its own.
#pragma once

#include <QString>
#include <QVector>

#include <functional>
#include <optional>

struct BarSource {
	QString name;
	bool control = false;
	int port = 0;
};

class SourceDirectory {
public:
	virtual ~SourceDirectory() = default;

	// Every Comment Bar source of the scene collection, the current scene's first.
	virtual QVector<BarSource> list() = 0;
	// The source called NAME as its settings are now; nullopt when it is gone.
	virtual std::optional<BarSource> find(const QString &name) = 0;
	// Ticks the source's Control page (its renderer then serves the API).
	virtual void turnControlOn(const QString &name) = 0;

	// Called (on the UI thread) when the list may have changed: a source made, removed or
	// renamed, another scene or scene collection.
	std::function<void()> changed;
};
