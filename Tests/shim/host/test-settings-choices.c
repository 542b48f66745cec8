// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "commentbar_services.h"
#include "commentbar_settings.h"
#include "harness.h"
#include "stubs.h"
#include "tests.h"

/*
 * test-settings-choices: what the settings table's string enums and the
 * renderer's registry give the source: the enum lists, the Stream ID's help,
 * an unknown enum value read as the default; and where the module finds its
 * renderer in a prefix layout (a Flatpak extension).
 */

/* The list property's values joined by '|', and whether every label is translated (not the value). */
static bool list_matches_row(obs_properties_t *props, const char *key, char *values, size_t values_size)
{
	obs_property_t *list = obs_properties_get(props, key);
	values[0] = '\0';
	bool labelled = list != NULL;
	for (size_t i = 0; list && i < obs_property_list_item_count(list); i++) {
		const char *value = obs_property_list_item_string(list, i);
		snprintf(values + strlen(values), values_size - strlen(values), "%s%s", i ? "|" : "", value);
		labelled = labelled && strcmp(obs_property_list_item_name(list, i), value) != 0;
	}
	const struct cb_setting *row = cb_setting_find(key);
	return labelled && row && row->choices && strcmp(values, row->choices) == 0;
}

/* The Stream ID's long description in the locale set now. */
static const char *stream_id_help(obs_properties_t *props)
{
	obs_property_t *p = obs_properties_get(props, "stream_id");
	const char *help = p ? obs_property_long_description(p) : NULL;
	return help ? help : "";
}

#ifdef COMMENTBAR_SERVICE_HELP
/* How many services' help (column 1: English, 2: Japanese) help lacks; their ids into missing. */
static int help_lacks(const char *help, int column, char *missing, size_t missing_size)
{
	static const char *const services[][3] = {
#define HELP_ROW(id, help_en, help_ja) {id, help_en, help_ja},
		COMMENTBAR_SERVICE_HELP(HELP_ROW)
#undef HELP_ROW
	};
	int lacking = 0;
	missing[0] = '\0';
	for (size_t i = 0; i < sizeof(services) / sizeof(*services); i++)
		if (!strstr(help, services[i][column])) {
			lacking++;
			snprintf(missing + strlen(missing), missing_size - strlen(missing), " %s", services[i][0]);
		}
	return lacking;
}
#endif

void test_choices_and_help(void)
{
	obs_properties_t *props = registered.get_properties(NULL);
	char values[256];
	check(list_matches_row(props, "clock_source", values, sizeof(values)),
	      "the clock list is the table's clock_source choices, in order, each labelled", "\"%s\"", values);
	check(list_matches_row(props, "ng_mode", values, sizeof(values)),
	      "the NG mode list is the table's ng_mode choices, in order, each labelled", "\"%s\"", values);

#ifdef COMMENTBAR_SERVICE_HELP
	/* The help is the registry's: every service's, in the UI's language. */
	char missing[512];
	const char *help = stream_id_help(props);
	check(help_lacks(help, 1, missing, sizeof(missing)) == 0,
	      "the Stream ID help has every service's English help from the registry", "missing:%s; \"%s\"", missing,
	      help);
	obs_properties_destroy(props);
	module_set_locale("ja-JP");
	props = registered.get_properties(NULL);
	help = stream_id_help(props);
	check(help_lacks(help, 2, missing, sizeof(missing)) == 0,
	      "in Japanese, the Stream ID help is every service's Japanese help", "missing:%s; \"%s\"", missing, help);
	module_set_locale("en-US");
#else
	/* A renderer whose header has no help: the locale file's text. */
	check(strncmp(stream_id_help(props), "Twitch: the channel name.", 25) == 0,
	      "the Stream ID help is the locale file's without help from the registry", "\"%s\"",
	      stream_id_help(props));
#endif
	obs_properties_destroy(props);
}

void test_unknown_choice(void)
{
	use_renderer(opt.fake, "solid");
	const size_t mark = log_mark();
	obs_data_t *settings = make_settings("demo", "alpha", 320, 96);
	obs_data_set_string(settings, "clock_source", "sundial\n[forged]");
	struct bar b = bar_create(settings);
	const bool sent = log_wait(&b, mark, "renderer: fake: got {\"settings\":", 1, 10) >= 0;
	char line[4096] = "";
	log_find(mark, "renderer: fake: got {\"settings\":", line, sizeof(line));
	check(sent && strstr(line, "\"clock_source\":\"auto\"") && !strstr(line, "sundial"),
	      "an unknown clock_source reaches the renderer as the table's default", "%s", line);
	check(log_find(mark, "setting clock_source: unknown value \"sundial\\n[forged]\"", NULL, 0) == 1,
	      "an unknown value is logged once, escaped, with the choices", NULL);
	bar_destroy(&b);
	wait_supervisors_finished(10);
}

/* Copies file to path (made executable when mode says so); false on failure. */
static bool copy_file(const char *from, const char *to, mode_t mode)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	char buffer[65536];
	size_t n;
	bool good = in && out;
	while (good && (n = fread(buffer, 1, sizeof(buffer), in)) > 0)
		good = fwrite(buffer, 1, n, out) == n;
	if (in)
		fclose(in);
	if (out && fclose(out) != 0)
		good = false;
	return good && chmod(to, mode) == 0;
}

/* Loads a copy of the plugin from so_path with no COMMENTBAR_RENDERER: the renderer it logs. */
static bool renderer_found_by_copy(const char *so_path, const char *expected)
{
	void *copy = dlopen(so_path, RTLD_NOW | RTLD_LOCAL);
	bool (*load)(void) = copy ? (bool (*)(void))dlsym(copy, "obs_module_load") : NULL;
	void (*unload)(void) = copy ? (void (*)(void))dlsym(copy, "obs_module_unload") : NULL;
	if (!load || !unload) {
		if (copy)
			dlclose(copy);
		return false;
	}
	char needle[1200];
	snprintf(needle, sizeof(needle), "renderer executable: %s", expected);
	const size_t mark = log_mark();
	load();
	const bool found = log_find(mark, needle, NULL, 0) == 1;
	unload();
	dlclose(copy);
	return found;
}

void test_prefix_layout(void)
{
	/* PREFIX/lib/obs-plugins/comment-bar.so and PREFIX/libexec/comment-bar/commentbar (a Flatpak extension). */
	char prefix[512], so[1024], renderer[1024], dir[1024];
	char *work = realpath(opt.work, NULL);
	snprintf(prefix, sizeof(prefix), "%s/prefix", work ? work : opt.work);
	free(work);
	const char *folders[] = {"", "/lib", "/lib/obs-plugins", "/lib/x86_64-linux-gnu",
				 "/lib/x86_64-linux-gnu/obs-plugins", "/libexec", "/libexec/comment-bar"};
	for (size_t i = 0; i < sizeof(folders) / sizeof(*folders); i++) {
		snprintf(dir, sizeof(dir), "%s%s", prefix, folders[i]);
		mkdir(dir, 0755);
	}
	snprintf(renderer, sizeof(renderer), "%s/libexec/comment-bar/commentbar", prefix);
	const bool ready = copy_file(opt.fake, renderer, 0755);

	unsetenv("COMMENTBAR_RENDERER");
	snprintf(so, sizeof(so), "%s/lib/obs-plugins/comment-bar.so", prefix);
	check(ready && copy_file(opt.plugin, so, 0644) && renderer_found_by_copy(so, renderer),
	      "a module in PREFIX/lib/obs-plugins runs PREFIX/libexec/comment-bar/commentbar", "%s", renderer);
	snprintf(so, sizeof(so), "%s/lib/x86_64-linux-gnu/obs-plugins/comment-bar.so", prefix);
	check(ready && copy_file(opt.plugin, so, 0644) && renderer_found_by_copy(so, renderer),
	      "so does one in PREFIX/lib/<triplet>/obs-plugins", "%s", renderer);
	/* A renderer beside the .so comes first (the user plugin folder's layout). */
	char sibling[1024];
	snprintf(sibling, sizeof(sibling), "%s/lib/obs-plugins/commentbar", prefix);
	snprintf(so, sizeof(so), "%s/lib/obs-plugins/comment-bar.so", prefix);
	check(copy_file(opt.fake, sibling, 0755) && renderer_found_by_copy(so, sibling),
	      "a renderer beside the module comes before the prefix's", "%s", sibling);
	unlink(sibling);
	/* None usable: the log names each place looked at. */
	unlink(renderer);
	const size_t mark = log_mark();
	char expected[1024];
	snprintf(expected, sizeof(expected), "%s/lib/obs-plugins/commentbar", prefix);
	renderer_found_by_copy(so, expected);
	char problem[2048] = "";
	log_find(mark, "no usable renderer:", problem, sizeof(problem));
	check(strstr(problem, sibling) && strstr(problem, renderer) && strstr(problem, "/usr/libexec/comment-bar/commentbar"),
	      "with none usable, the log names the sibling, the prefix's and the .deb's places", "%s", problem);
	setenv("COMMENTBAR_RENDERER", opt.fake, 1);
}
