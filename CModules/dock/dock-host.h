// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dock-host: what the loader (the OBS module comment-bar-dock, plain C) hands the dock library it
 * picked (comment-bar-dock-qt5.so or -qt6.so, C++/Qt), and the two functions that library exports.
 * The loader owns OBS's module state (its locale text, its config folder); the library owns every
 * Qt object. COMMENTBAR_DOCK_ABI changes when this struct does: a library of another ABI is refused.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#define COMMENTBAR_DOCK_ABI 2
#define COMMENTBAR_DOCK_START "commentbar_dock_start"
#define COMMENTBAR_DOCK_STOP "commentbar_dock_stop"

struct commentbar_dock_host {
	uint32_t abi;
	/* (The library copies what it keeps: HOST is valid only during start.) */
	/* The dock module's text for KEY in OBS's language (its data folder's locale files); KEY itself when
	 * missing. Valid until the module unloads. */
	const char *(*text)(const char *key);
	/* A file in OBS's config for this module (plugin_config/comment-bar-dock/): its presence
	 * means the dock was shown once, so OBS's saved layout decides from then on. */
	const char *shown_once_path;
	/* The dock's settings file in the same folder (dock.ini): how the streamer left the dock (the
	 * Audience part open or not, its tab), never a secret. Empty: nothing is kept. */
	const char *settings_path;
};

typedef bool (*commentbar_dock_start_fn)(const struct commentbar_dock_host *host);
typedef void (*commentbar_dock_stop_fn)(void);
