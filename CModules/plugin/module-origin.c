// SPDX-License-Identifier: GPL-2.0-or-later
/* Which copy of the module this is: see module-origin.h. */
#include "module-origin.h"

#include <string.h>

/* OBS's UI adds ${XDG_CONFIG_HOME:-~/.config}/obs-studio/plugins/NAME/bin/64bit/ per user. */
#define USER_PLUGIN_MARK "/obs-studio/plugins/"
/* Distribution packages and OBS's own install: /usr/lib/<triplet>/obs-plugins, /usr/local/lib/obs-plugins. */
#define SYSTEM_PREFIX "/usr/"

const char *module_origin_kind(const char *so_path)
{
	if (!so_path)
		return "unknown folder";
	if (strstr(so_path, USER_PLUGIN_MARK))
		return "user plugin folder";
	if (strncmp(so_path, SYSTEM_PREFIX, strlen(SYSTEM_PREFIX)) == 0)
		return "system plugin folder";
	return "other folder";
}

struct other_copy_search {
	obs_module_t *self;
	const char *name;
	const char *found;
};

static void look_at_module(void *param, obs_module_t *module)
{
	struct other_copy_search *search = param;
	if (search->found || module == search->self)
		return;
	const char *name = obs_get_module_file_name(module);
	if (name && strcmp(name, search->name) == 0)
		search->found = obs_get_module_binary_path(module);
}

const char *module_origin_other_copy(obs_module_t *self)
{
	if (!self)
		return NULL;
	/* By file name ("comment-bar.so"): obs_get_module_name is NULL for modules without obs_module_name(). */
	struct other_copy_search search = {.self = self, .name = obs_get_module_file_name(self), .found = NULL};
	if (!search.name)
		return NULL;
	/* OBS opens a module and initializes it before it opens the next, so any
	 * other copy in the list has already had its turn to register the source. */
	obs_enum_modules(look_at_module, &search);
	return search.found;
}
