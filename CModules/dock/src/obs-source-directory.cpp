// SPDX-License-Identifier: GPL-2.0-or-later
#include "obs-source-directory.h"

#include <obs-frontend-api.h>
#include <obs.h>

#include <QMetaObject>
#include <QTimer>

#include <algorithm>
#include <cstring>

namespace {

constexpr const char *barKind = "comment_bar_source";
constexpr int refreshDelayMs = 200;
constexpr const char *watchedSignals[] = {"source_create", "source_remove", "source_destroy", "source_rename"};

bool isBar(obs_source_t *source)
{
	const char *kind = obs_source_get_unversioned_id(source);
	return kind && strcmp(kind, barKind) == 0;
}

BarSource describe(obs_source_t *source)
{
	BarSource bar;
	bar.name = QString::fromUtf8(obs_source_get_name(source));
	obs_data_t *settings = obs_source_get_settings(source);
	bar.control = obs_data_get_bool(settings, "control");
	bar.port = static_cast<int>(obs_data_get_int(settings, "control_port"));
	obs_data_release(settings);
	return bar;
}

void sourcesChanged(void *data, calldata_t *)
{
	static_cast<ObsSourceDirectory *>(data)->post();
}

// The bars of SCENE, groups' items included, in the scene's order.
void barsInScene(obs_scene_t *scene, QVector<BarSource> &out)
{
	obs_scene_enum_items(
		scene,
		[](obs_scene_t *, obs_sceneitem_t *item, void *data) {
			auto *found = static_cast<QVector<BarSource> *>(data);
			obs_source_t *source = obs_sceneitem_get_source(item);
			if (obs_sceneitem_is_group(item))
				barsInScene(obs_sceneitem_group_get_scene(item), *found);
			else if (isBar(source))
				found->push_back(describe(source));
			return true;
		},
		&out);
}

} // namespace

ObsSourceDirectory::ObsSourceDirectory(QObject *parent) : QObject(parent)
{
	signal_handler_t *handler = obs_get_signal_handler();
	for (const char *name : watchedSignals)
		signal_handler_connect(handler, name, sourcesChanged, this);
	connected_ = true;
}

ObsSourceDirectory::~ObsSourceDirectory()
{
	disconnectSignals();
}

void ObsSourceDirectory::disconnectSignals()
{
	if (!connected_)
		return;
	// Once this returns no callback of ours runs (libobs holds the signal's lock while calling).
	signal_handler_t *handler = obs_get_signal_handler();
	for (const char *name : watchedSignals)
		signal_handler_disconnect(handler, name, sourcesChanged, this);
	connected_ = false;
}

void ObsSourceDirectory::post()
{
	if (posted_.exchange(true))
		return; // one refresh for a burst (a scene collection loading makes every source at once)
	// OBS signals source_create before it adds the source to the list obs_enum_sources walks:
	// the refresh waits a moment (the panel also looks again each second while it is shown).
	QMetaObject::invokeMethod(
		this,
		[this] {
			QTimer::singleShot(refreshDelayMs, this, [this] {
				posted_ = false;
				if (changed)
					changed();
			});
		},
		Qt::QueuedConnection);
}

QVector<BarSource> ObsSourceDirectory::list()
{
	QVector<BarSource> current;
	if (obs_source_t *scene = obs_frontend_get_current_scene()) {
		barsInScene(obs_scene_from_source(scene), current);
		obs_source_release(scene);
	}
	QVector<BarSource> others;
	obs_enum_sources(
		[](void *data, obs_source_t *source) {
			if (isBar(source))
				static_cast<QVector<BarSource> *>(data)->push_back(describe(source));
			return true;
		},
		&others);
	std::sort(others.begin(), others.end(),
		  [](const BarSource &a, const BarSource &b) { return a.name.localeAwareCompare(b.name) < 0; });
	QVector<BarSource> all;
	for (const BarSource &bar : current + others) {
		if (std::none_of(all.begin(), all.end(), [&bar](const BarSource &known) { return known.name == bar.name; }))
			all.push_back(bar);
	}
	return all;
}

std::optional<BarSource> ObsSourceDirectory::find(const QString &name)
{
	obs_source_t *source = obs_get_source_by_name(name.toUtf8().constData());
	if (!source)
		return std::nullopt;
	std::optional<BarSource> bar;
	if (isBar(source))
		bar = describe(source);
	obs_source_release(source);
	return bar;
}

void ObsSourceDirectory::turnControlOn(const QString &name)
{
	obs_source_t *source = obs_get_source_by_name(name.toUtf8().constData());
	if (!source)
		return;
	if (isBar(source)) {
		obs_data_t *change = obs_data_create();
		obs_data_set_bool(change, "control", true);
		obs_source_update(source, change);
		obs_data_release(change);
	}
	obs_source_release(source);
}
