// SPDX-License-Identifier: GPL-2.0-or-later
/* The OBS module: says which version and which copy loaded, and registers the Comment Bar source. */
#define _GNU_SOURCE
#include <stdlib.h>

#include <obs-module.h>

#include "comment-bar-source.h"
#include "commentbar_version.h"
#include "module-origin.h"
#include "on-air.h"
#include "plugin-log.h"
#include "safe-text.h"

OBS_DECLARE_MODULE()
OBS_MODULE_USE_DEFAULT_LOCALE("comment-bar", "en-US")

MODULE_EXPORT const char *obs_module_description(void)
{
	return "Comment Bar: a live stream's comments, gifts, clock and viewers, drawn by the commentbar renderer";
}

/* Only this copy registered: unload must not wait for another copy's renderers. */
static bool registered;

/* A path as the log shows it: resolved (OBS joins folders into "/usr//lib/..."), escaped. */
static void show_path(char *out, size_t out_size, const char *path)
{
	char *resolved = path ? realpath(path, NULL) : NULL;
	safe_text_escape_string(out, out_size, resolved ? resolved : path ? path : "(unknown)");
	free(resolved);
}

bool obs_module_load(void)
{
	char *path = module_origin_binary_path();
	char shown[SAFE_TEXT_LOG_SIZE];
	show_path(shown, sizeof(shown), path);
	const char *other = module_origin_other_copy(obs_current_module());
	if (other) {
		/* Failing the load would show OBS's "plugins failed to load" error for
		 * a harmless duplicate: this copy loads and stays idle instead. */
		char other_shown[SAFE_TEXT_LOG_SIZE];
		show_path(other_shown, sizeof(other_shown), other);
		plugin_log(LOG_WARNING, "comment-bar %s at %s (%s) not used: the copy at %s (%s) is already loaded",
			   COMMENTBAR_VERSION, shown, module_origin_kind(path), other_shown, module_origin_kind(other));
		bfree(path);
		return true;
	}
	plugin_log(LOG_INFO, "comment-bar %s loaded from %s (%s)", COMMENTBAR_VERSION, shown, module_origin_kind(path));
	bfree(path);
	on_air_start();
	comment_bar_source_register();
	registered = true;
	return true;
}

void obs_module_unload(void)
{
	if (registered) {
		comment_bar_source_unregister();
		on_air_stop();
	}
	registered = false;
}
