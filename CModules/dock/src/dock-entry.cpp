// SPDX-License-Identifier: GPL-2.0-or-later
// The dock library's two exported functions (CModules/dock/dock-host.h), called by the loader
// module on OBS's UI thread: start makes the panel and gives it to OBS as the dock "Comment Bar"
// (obs_frontend_add_dock_by_id on OBS 30+, a QDockWidget through obs_frontend_add_dock on OBS 29:
// both looked up at run time, one library serving every OBS of its Qt major), follows OBS's
// frontend events, and shows the dock the first time OBS starts with it (after that OBS's saved
// layout keeps the user's choice). Nothing of the token reaches OBS's log or its scene collection.
#include "../dock-host.h"
#include "dock-panel.h"
#include "obs-source-directory.h"
#include "token-path.h"

#include <obs-frontend-api.h>
#include <obs-module.h>

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QMainWindow>
#include <QPointer>

#include <dlfcn.h>

#define LOG_PREFIX "[comment-bar-dock] "

namespace {

constexpr const char *dockId = "comment-bar-dock";
// Set on the application by the first copy that starts: a second copy (the .deb's and a user
// folder's) stays idle instead of adding a second dock.
constexpr const char *loadedProperty = "commentbar-dock-loaded";

using AddDockById = bool (*)(const char *id, const char *title, void *widget);
using AddDock = void *(*)(void *dock);
using RemoveDock = void (*)(const char *id);

struct Dock {
	QPointer<DockPanel> panel;
	QPointer<QDockWidget> frame; // OBS's (30+) or ours (29)
	ObsSourceDirectory *directory = nullptr; // the panel's
	QString shownOncePath;
	bool byId = false;
	bool exited = false;
};
Dock *dock;

QDockWidget *frameOf(QWidget *widget)
{
	for (QWidget *w = widget; w; w = w->parentWidget()) {
		if (auto *frame = qobject_cast<QDockWidget *>(w))
			return frame;
	}
	return nullptr;
}

// The first start with the dock: beside the preview, shown. From then on OBS restores its layout.
void showFirstTime()
{
	if (dock->shownOncePath.isEmpty() || QFile::exists(dock->shownOncePath) || !dock->frame)
		return;
	auto *main = static_cast<QMainWindow *>(obs_frontend_get_main_window());
	QDockWidget *frame = dock->frame;
	frame->setFloating(false);
	main->addDockWidget(Qt::RightDockWidgetArea, frame);
	frame->show();
	frame->raise();
	QDir().mkpath(QFileInfo(dock->shownOncePath).absolutePath());
	QFile marker(dock->shownOncePath);
	if (marker.open(QIODevice::WriteOnly))
		marker.write("the Comment Bar dock was shown once: OBS's saved layout decides from now on\n");
}

void onEvent(enum obs_frontend_event event, void *)
{
	if (!dock || dock->exited || !dock->panel)
		return;
	switch (event) {
	case OBS_FRONTEND_EVENT_FINISHED_LOADING:
		showFirstTime();
		dock->panel->refreshSources();
		break;
	case OBS_FRONTEND_EVENT_SCENE_CHANGED:
	case OBS_FRONTEND_EVENT_SCENE_LIST_CHANGED:
	case OBS_FRONTEND_EVENT_SCENE_COLLECTION_CHANGED:
		dock->panel->refreshSources();
		break;
	case OBS_FRONTEND_EVENT_EXIT:
		// OBS deletes its docks with its window after this: nothing of ours runs any more.
		dock->exited = true;
		dock->panel->shutDown();
		dock->directory->disconnectSignals();
		break;
	default:
		break;
	}
}

bool addToObs(DockPanel *panel, const QString &title)
{
	const QByteArray titleUtf8 = title.toUtf8();
	if (auto addById = reinterpret_cast<AddDockById>(dlsym(RTLD_DEFAULT, "obs_frontend_add_dock_by_id"))) {
		if (!addById(dockId, titleUtf8.constData(), panel))
			return false;
		dock->byId = true;
		dock->frame = frameOf(panel);
		return true;
	}
	auto add = reinterpret_cast<AddDock>(dlsym(RTLD_DEFAULT, "obs_frontend_add_dock"));
	auto *main = static_cast<QMainWindow *>(obs_frontend_get_main_window());
	if (!add || !main)
		return false;
	auto *frame = new QDockWidget(main);
	frame->setObjectName(QString::fromLatin1(dockId));
	frame->setWindowTitle(title);
	frame->setWidget(panel);
	main->addDockWidget(Qt::RightDockWidgetArea, frame);
	add(frame);
	dock->frame = frame;
	return true;
}

} // namespace

extern "C" Q_DECL_EXPORT bool commentbar_dock_start(const struct commentbar_dock_host *host)
{
	if (!host || host->abi != COMMENTBAR_DOCK_ABI) {
		blog(LOG_WARNING, LOG_PREFIX "the dock library and its loader do not match: no dock");
		return false;
	}
	if (!qApp || !obs_frontend_get_main_window()) {
		blog(LOG_INFO, LOG_PREFIX "no OBS window in this process: no dock");
		return false;
	}
	if (qApp->property(loadedProperty).toBool()) {
		blog(LOG_WARNING, LOG_PREFIX "another copy of the Comment Bar dock is already loaded: this one stays idle");
		return false;
	}
	const Texts texts(host->text);
	dock = new Dock;
	dock->shownOncePath = QString::fromUtf8(host->shown_once_path);
	dock->directory = new ObsSourceDirectory;
	auto *panel = new DockPanel(dock->directory, texts, controlTokenPath(), QString::fromUtf8(host->settings_path));
	dock->panel = panel;
	if (!addToObs(panel, texts("Dock.Title"))) {
		blog(LOG_WARNING, LOG_PREFIX "OBS did not take the dock: no dock");
		delete panel;
		delete dock;
		dock = nullptr;
		return false;
	}
	qApp->setProperty(loadedProperty, true);
	obs_frontend_add_event_callback(onEvent, nullptr);
	return true;
}

extern "C" Q_DECL_EXPORT void commentbar_dock_stop(void)
{
	if (!dock)
		return;
	obs_frontend_remove_event_callback(onEvent, nullptr);
	// Unloaded while OBS's window is still there (not OBS's own exit): the dock goes with us.
	if (!dock->exited && dock->panel) {
		auto remove = reinterpret_cast<RemoveDock>(dlsym(RTLD_DEFAULT, "obs_frontend_remove_dock"));
		if (dock->byId && remove)
			remove(dockId);
		else
			delete dock->frame.data();
	}
	delete dock;
	dock = nullptr;
}
