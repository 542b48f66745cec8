// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The OBS module comment-bar-dock: plain C, no Qt of its own. It looks at which Qt OBS has already
 * loaded (qt-major.c) and opens only the dock library built for it, from the folder
 * comment-bar-dock/ beside this module (outside OBS's plugin folder scan: OBS never opens those
 * libraries itself). OBS 29 is built with Qt 5, OBS 30 and later with Qt 6; the other library is
 * never mapped into the process. Nothing here fails OBS's start: without a usable dock the log
 * says why and the module stays idle.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <obs-module.h>

#include "../dock-host.h"
#include "commentbar_version.h"
#include "qt-major.h"

#define LOG_PREFIX "[comment-bar-dock] "

OBS_DECLARE_MODULE()
OBS_MODULE_USE_DEFAULT_LOCALE("comment-bar-dock", "en-US")

MODULE_EXPORT const char *obs_module_description(void)
{
	return "Comment Bar dock: the chat of a Comment Bar source in a dock, with pin, nickname, colour and hide";
}

static void *library;
static commentbar_dock_stop_fn stop_dock;
static char *shown_once_path;
static char *settings_path;

static const char *dock_text(const char *key)
{
	return obs_module_text(key);
}

/* FOLDER/comment-bar-dock/comment-bar-dock-qtMAJOR.so, FOLDER being this module's own. */
static bool library_path(int major, char *out, size_t size)
{
	Dl_info self;
	if (!dladdr((void *)library_path, &self) || !self.dli_fname)
		return false;
	const char *slash = strrchr(self.dli_fname, '/');
	int folder = slash ? (int)(slash - self.dli_fname) : 1;
	const char *base = slash ? self.dli_fname : ".";
	int written = snprintf(out, size, "%.*s/comment-bar-dock/comment-bar-dock-qt%d.so", folder, base, major);
	return written > 0 && (size_t)written < size;
}

bool obs_module_load(void)
{
	int major = qt_major_loaded();
	if (major == 0) {
		blog(LOG_INFO, LOG_PREFIX "no Qt widgets in this process: no dock");
		return true;
	}
	if (major < 0) {
		blog(LOG_WARNING, LOG_PREFIX "both Qt 5 and Qt 6 are loaded in this process: no dock");
		return true;
	}
	char path[PATH_MAX];
	if (!library_path(major, path, sizeof(path))) {
		blog(LOG_WARNING, LOG_PREFIX "cannot tell where this module is: no dock");
		return true;
	}
	library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!library) {
		blog(LOG_WARNING, LOG_PREFIX "cannot load the Qt %d dock (%s): %s", major, path, dlerror());
		return true;
	}
	commentbar_dock_start_fn start = (commentbar_dock_start_fn)dlsym(library, COMMENTBAR_DOCK_START);
	stop_dock = (commentbar_dock_stop_fn)dlsym(library, COMMENTBAR_DOCK_STOP);
	if (!start || !stop_dock) {
		blog(LOG_WARNING, LOG_PREFIX "%s is not a Comment Bar dock library", path);
		stop_dock = NULL;
		return true;
	}
	shown_once_path = obs_module_config_path("shown-once");
	settings_path = obs_module_config_path("dock.ini");
	struct commentbar_dock_host host = {
		.abi = COMMENTBAR_DOCK_ABI,
		.text = dock_text,
		.shown_once_path = shown_once_path ? shown_once_path : "",
		.settings_path = settings_path ? settings_path : "",
	};
	if (!start(&host)) {
		stop_dock = NULL;
		return true;
	}
	blog(LOG_INFO, LOG_PREFIX "comment-bar-dock %s: the Qt %d dock from %s", COMMENTBAR_VERSION, major, path);
	return true;
}

/* The library stays mapped: Qt keeps pointers into it (its types' metadata) until the process ends. */
void obs_module_unload(void)
{
	if (stop_dock)
		stop_dock();
	stop_dock = NULL;
	bfree(shown_once_path);
	shown_once_path = NULL;
	bfree(settings_path);
	settings_path = NULL;
}
