// SPDX-License-Identifier: GPL-2.0-or-later
// DockSettings: how the streamer left the dock, kept across OBS restarts: whether the Audience part
// was open and on which tab. A small INI file (QSettings) in OBS's config folder for the dock
// module, plugin_config/comment-bar-dock/dock.ini beside its "shown once" mark (the loader names
// it: dock-host.h): the module's own file, not OBS's global.ini (OBS's, and split into user.ini
// on OBS 31), and one the Qt 6 widget test can give a panel without OBS. Only the layout is kept
// there: never the token, nothing a chat said. QSettings writes it after the change, when the
// event loop comes back (and on OBS's exit): a few bytes on OBS's UI thread, as OBS writes its own
// config. An empty path keeps nothing (the bench, a test's panel that does not look at it).
#pragma once

#include <QString>

#include <memory>

class QSettings;

class DockSettings {
public:
	explicit DockSettings(const QString &path);
	~DockSettings();
	DockSettings(const DockSettings &) = delete;
	DockSettings &operator=(const DockSettings &) = delete;

	struct Audience {
		bool open = false; // closed until the streamer opens it: the chat is the dock's main thing
		QString tab;       // the tab shown, by its name (audience-panel.h); empty: the first
	};
	Audience audience() const;
	void setAudience(const Audience &audience);

private:
	std::unique_ptr<QSettings> file_;
};
