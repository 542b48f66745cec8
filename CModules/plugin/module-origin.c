// SPDX-License-Identifier: GPL-2.0-or-later
/* Where this copy of the module is, and its renderer: see module-origin.h. */
#define _GNU_SOURCE
#include "module-origin.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* OBS's UI adds ${XDG_CONFIG_HOME:-~/.config}/obs-studio/plugins/NAME/bin/64bit/ per user (29 and later),
 * OBS 33 also ${XDG_DATA_HOME:-~/.local/share}/obs-studio/plugins/NAME/ (its layout: NAME/NAME.so). */
#define USER_PLUGIN_MARK "/obs-studio/plugins/"
#define LEGACY_USER_MARK "/bin/64bit/"
/* Distribution packages and OBS's own install: /usr/lib/<triplet>/obs-plugins, /usr/local/lib/obs-plugins;
 * OBS 33's layout /usr/lib/<triplet>/obs-modules/plugins (obs-studio PR #13594, PluginModuleLoader_Linux.cpp). */
#define SYSTEM_PREFIX "/usr/"
#define LEGACY_SYSTEM_MARK "/obs-plugins/"
#define NEW_SYSTEM_MARK "/obs-modules/plugins/"

#define RENDERER_NAME "commentbar"
#define RENDERER_ENV "COMMENTBAR_RENDERER"
/* The .deb's private folder for the renderer: nothing of ours in $PATH. */
#ifndef RENDERER_LIBEXEC_DIR
#define RENDERER_LIBEXEC_DIR "/usr/libexec/comment-bar"
#endif
/* A prefix layout: PREFIX/lib[/<triplet>]/obs-plugins/comment-bar.so (or OBS 33's
 * PREFIX/lib[/<triplet>]/obs-modules/plugins/comment-bar.so) and this under PREFIX. */
#define PLUGINS_FOLDER "obs-plugins"
#define PREFIX_RENDERER "/libexec/comment-bar/" RENDERER_NAME
/* Beside the .so, in the module's prefix, the .deb's folder. */
#define RENDERER_CANDIDATES 3

const char *module_origin_kind(const char *so_path)
{
	if (!so_path)
		return "unknown folder";
	const bool user = strstr(so_path, USER_PLUGIN_MARK) != NULL;
	const bool modern = user ? !strstr(so_path, LEGACY_USER_MARK) : strstr(so_path, NEW_SYSTEM_MARK) != NULL;
	const bool legacy = user ? !modern : strstr(so_path, LEGACY_SYSTEM_MARK) != NULL;
	if (user)
		return modern ? "user plugin folder, OBS 33 layout" : "user plugin folder, legacy layout";
	if (strncmp(so_path, SYSTEM_PREFIX, strlen(SYSTEM_PREFIX)) == 0)
		return modern ? "system plugin folder, OBS 33 layout"
		       : legacy ? "system plugin folder, legacy layout"
				: "system plugin folder";
	return modern ? "other folder, OBS 33 layout" : legacy ? "other folder, legacy layout" : "other folder";
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

char *module_origin_binary_path(void)
{
	obs_module_t *self = obs_current_module();
	const char *path = self ? obs_get_module_binary_path(self) : NULL;
	Dl_info info;
	if (!path && dladdr((void *)module_origin_binary_path, &info))
		path = info.dli_fname;
	if (!path)
		return NULL;
	/* OBS joins folders into "/usr//lib/..."; dli_fname may be relative. */
	char *resolved = realpath(path, NULL);
	char *copy = bstrdup(resolved ? resolved : path);
	free(resolved);
	return copy;
}

/* Why path cannot be run as the renderer ("missing", "not executable", ...), or NULL if it can. */
static const char *unusable_because(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return errno == ENOENT ? "missing" : strerror(errno);
	if (!S_ISREG(st.st_mode))
		return "not a regular file";
	if (access(path, X_OK) != 0)
		return "not executable";
	return NULL;
}

/* folder minus its last component (in place); false when it has none left. */
static bool strip_last(char *folder, const char **last)
{
	char *slash = strrchr(folder, '/');
	if (!slash || slash == folder)
		return false;
	*slash = '\0';
	*last = slash + 1;
	return true;
}

/* PREFIX/libexec/comment-bar/commentbar for a module in PREFIX/lib[/<triplet>]/obs-plugins
 * or PREFIX/lib[/<triplet>]/obs-modules/plugins, else NULL. folder is the module's. */
static char *prefix_renderer(const char *folder)
{
	char *prefix = bstrdup(folder);
	const char *last = NULL;
	bool found = strip_last(prefix, &last);
	if (found && strcmp(last, "plugins") == 0) /* OBS 33's lib[/<triplet>]/obs-modules/plugins */
		found = strip_last(prefix, &last) && strcmp(last, "obs-modules") == 0;
	else
		found = found && strcmp(last, PLUGINS_FOLDER) == 0;
	found = found && strip_last(prefix, &last);
	if (found && strcmp(last, "lib") != 0)
		found = strip_last(prefix, &last) && strcmp(last, "lib") == 0; /* lib/<triplet> */
	char *path = NULL;
	if (found) {
		const size_t size = strlen(prefix) + sizeof(PREFIX_RENDERER);
		path = bmalloc(size);
		snprintf(path, size, "%s%s", prefix, PREFIX_RENDERER);
	}
	bfree(prefix);
	return path;
}

/* The candidates 2-4 of module_origin_find_renderer, in order; unknown ones NULL. */
static void renderer_candidates(char *candidates[RENDERER_CANDIDATES])
{
	char *so_path = module_origin_binary_path();
	char *folder = so_path ? bstrdup(so_path) : NULL;
	const char *name = NULL;
	if (folder && strip_last(folder, &name)) {
		const size_t size = strlen(folder) + sizeof("/" RENDERER_NAME);
		candidates[0] = bmalloc(size);
		snprintf(candidates[0], size, "%s/%s", folder, RENDERER_NAME);
		candidates[1] = prefix_renderer(folder);
	}
	bfree(folder);
	bfree(so_path);
	/* /usr's own prefix layout is the .deb's: listed once. */
	if (candidates[1] && strcmp(candidates[1], RENDERER_LIBEXEC_DIR "/" RENDERER_NAME) == 0) {
		bfree(candidates[1]);
		candidates[1] = NULL;
	}
	candidates[2] = bstrdup(RENDERER_LIBEXEC_DIR "/" RENDERER_NAME);
}

char *module_origin_find_renderer(char *problem, size_t problem_size)
{
	problem[0] = '\0';
	const char *override = getenv(RENDERER_ENV);
	if (override && *override) {
		const char *why = unusable_because(override);
		if (why)
			snprintf(problem, problem_size, "renderer %s (from %s) is %s", override, RENDERER_ENV, why);
		return bstrdup(override);
	}
	char *candidates[RENDERER_CANDIDATES] = {NULL};
	renderer_candidates(candidates);
	size_t chosen = RENDERER_CANDIDATES, first = RENDERER_CANDIDATES;
	size_t used = (size_t)snprintf(problem, problem_size, "no usable renderer:");
	for (size_t i = 0; i < RENDERER_CANDIDATES && chosen == RENDERER_CANDIDATES; i++) {
		if (!candidates[i])
			continue;
		if (first == RENDERER_CANDIDATES)
			first = i;
		const char *why = unusable_because(candidates[i]);
		if (!why)
			chosen = i;
		else if (used < problem_size)
			used += (size_t)snprintf(problem + used, problem_size - used, " %s is %s;", candidates[i], why);
	}
	if (chosen < RENDERER_CANDIDATES) {
		problem[0] = '\0';
	} else {
		if (used < problem_size)
			snprintf(problem + used, problem_size - used,
				 " reinstall Comment Bar (the .deb, or install.sh from the tarball)");
		chosen = first; /* the libexec one at least is always there */
	}
	char *path = candidates[chosen];
	candidates[chosen] = NULL;
	for (size_t i = 0; i < RENDERER_CANDIDATES; i++)
		bfree(candidates[i]);
	return path;
}
