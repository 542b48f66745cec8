// SPDX-License-Identifier: GPL-2.0-or-later
// ObsSourceDirectory: the scene collection's Comment Bar sources (kind comment_bar_source) and
// their control settings, read from OBS on the UI thread. OBS's source signals (made, removed,
// renamed) come on any thread: they only post a refresh to the UI thread.
#pragma once

#include "source-directory.h"

#include <QObject>

#include <atomic>

class ObsSourceDirectory : public QObject, public SourceDirectory {
public:
	explicit ObsSourceDirectory(QObject *parent = nullptr);
	~ObsSourceDirectory() override;

	QVector<BarSource> list() override;
	std::optional<BarSource> find(const QString &name) override;
	void turnControlOn(const QString &name) override;

	// From any thread: the sources may have changed (coalesced on the UI thread).
	void post();
	// Stops listening to OBS (before OBS shuts down).
	void disconnectSignals();

private:
	bool connected_ = false;
	std::atomic<bool> posted_{false};
};
