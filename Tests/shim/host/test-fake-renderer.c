// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "commentbar_settings.h"
#include "harness.h"
#include "stubs.h"
#include "tests.h"

/* The settings line the fake got (whole, from its input log: the OBS log cuts long lines),
 * parsed as JSON: every key with its type and value, and nothing else. Writes what is wrong
 * into problems. */
static bool settings_line_complete(const char *json, char *problems, size_t problems_size)
{
	problems[0] = '\0';
	obs_data_t *root = obs_data_create_from_json(json);
	if (!root) {
		snprintf(problems, problems_size, "not JSON");
		return false;
	}
	obs_data_t *settings = obs_data_get_obj(root, "settings");
	size_t root_keys = 0;
	for (obs_data_item_t *item = obs_data_first(root); item; obs_data_item_next(&item))
		root_keys++;
	/* What make_settings gave the source; every other key has the table's default. */
	static const struct {
		const char *key;
		const char *text;
		long long number;
	} given[] = {
		{"service", "demo", 0}, {"stream_id", "alpha", 0}, {"width", NULL, 320},
		{"height", NULL, 96},   {"show_clock", NULL, 0},
	};
	struct {
		const char *key;
		enum obs_data_type type;
		const char *text;
		long long number;
	} expected[CB_SETTING_COUNT];
	size_t expected_keys = 0;
	for (size_t i = 0; i < CB_SETTING_COUNT; i++) {
		const struct cb_setting *row = cb_setting_at(i);
		if (strchr(row->key, '.'))
			continue; /* the font's members: checked below */
		expected[expected_keys].key = row->key;
		expected[expected_keys].type = row->type == CB_SETTING_STRING ? OBS_DATA_STRING
					       : row->type == CB_SETTING_BOOL ? OBS_DATA_BOOLEAN
					       : row->type == CB_SETTING_LIST ? OBS_DATA_ARRAY
									      : OBS_DATA_NUMBER;
		expected[expected_keys].text = row->default_string;
		expected[expected_keys].number = row->default_number;
		for (size_t g = 0; g < sizeof(given) / sizeof(given[0]); g++)
			if (strcmp(given[g].key, row->key) == 0) {
				expected[expected_keys].text = given[g].text;
				expected[expected_keys].number = given[g].number;
			}
		expected_keys++;
	}
	expected[expected_keys].key = "font";
	expected[expected_keys].type = OBS_DATA_OBJECT;
	expected_keys++;

	if (root_keys != 1 || !settings)
		snprintf(problems, problems_size, " root is not {\"settings\":{...}}");
	size_t keys = 0;
	for (obs_data_item_t *item = settings ? obs_data_first(settings) : NULL; item; obs_data_item_next(&item))
		keys++;
	if (settings && keys != expected_keys)
		snprintf(problems + strlen(problems), problems_size - strlen(problems), " %zu keys, not %zu", keys,
			 expected_keys);
	for (size_t i = 0; settings && i < expected_keys; i++) {
		obs_data_item_t *item = obs_data_item_byname(settings, expected[i].key);
		bool good = item && obs_data_item_gettype(item) == expected[i].type;
		if (good && expected[i].type == OBS_DATA_STRING)
			good = strcmp(obs_data_item_get_string(item), expected[i].text) == 0;
		else if (good && expected[i].type == OBS_DATA_NUMBER)
			good = obs_data_item_numtype(item) == OBS_DATA_NUM_INT &&
			       obs_data_item_get_int(item) == expected[i].number;
		else if (good && expected[i].type == OBS_DATA_BOOLEAN)
			good = obs_data_item_get_bool(item) == (expected[i].number != 0);
		obs_data_item_release(&item);
		if (!good)
			snprintf(problems + strlen(problems), problems_size - strlen(problems), " %s", expected[i].key);
	}
	obs_data_t *font = settings ? obs_data_get_obj(settings, "font") : NULL;
	bool font_ok = font != NULL;
	for (size_t i = 0; font_ok && i < CB_SETTING_COUNT; i++) {
		const struct cb_setting *row = cb_setting_at(i);
		if (strncmp(row->key, "font.", 5) != 0)
			continue;
		const char *key = row->key + 5;
		font_ok = obs_data_has_user_value(font, key) &&
			  (row->type == CB_SETTING_STRING ? strcmp(obs_data_get_string(font, key), row->default_string) == 0
							  : obs_data_get_int(font, key) == row->default_number);
	}
	if (settings && !font_ok)
		snprintf(problems + strlen(problems), problems_size - strlen(problems), " font{face,style,size,flags}");
	obs_data_release(font);
	obs_data_release(settings);
	obs_data_release(root);
	return problems[0] == '\0';
}


void test_with_fake_renderer(void)
{
	use_renderer(opt.fake, "solid");
	fake_input_clear();
	size_t mark = log_mark();
	struct bar b = bar_create(make_settings("demo", "alpha", 320, 96));
	check(b.data != NULL, "create returns a source", NULL);
	if (!b.data)
		return;
	uint32_t alpha = fake_colour("alpha");
	double took = tick_until(&b, texture_is_colour, &alpha, 10);
	check(took >= 0, "first frame from the renderer is uploaded", "after %.2f s", took);
	check(bar_texture() && bar_texture()->width == 320 && bar_texture()->height == 96 &&
		      registered.get_width(b.data) == 320 && registered.get_height(b.data) == 96,
	      "texture and source size follow the settings", NULL);
	check(graphics_violations == 0, "every gs call is inside obs_enter_graphics", "%u outside", graphics_violations);
	check(draws > 0 && bad_draws == 0, "render draws the texture premultiplied (ONE, INVSRCALPHA, sRGB off)",
	      "%u of %u draws wrong", bad_draws, draws);
	const struct status_arg running = {{"Renderer: running (pid ", "live: fake renderer", NULL}, NULL};
	took = tick_until(&b, status_shows, &running, 10);
	char status_text[1024];
	properties_status(&b, status_text, sizeof(status_text));
	check(took >= 0, "the properties show the renderer's status", "\"%s\"", status_text);

	char line[4096] = "", problems[512] = "";
	log_wait(&b, mark, "renderer: fake: got {\"active\":true}", 1, 10);
	const size_t settings_lines = fake_input_find("{\"settings\":", line, sizeof(line), NULL, NULL);
	const bool complete = settings_lines == 1 && settings_line_complete(line, problems, sizeof(problems));
	check(complete, "the renderer gets one settings line, valid JSON with every key, type and value",
	      "%zu lines; wrong:%s; line: %s", settings_lines, problems, line);
	check(log_find(mark, "renderer: fake: got {\"active\":true}", NULL, 0) == 1,
	      "show sends {\"active\":true}", NULL);
	check(log_find(mark, "[comment-bar] renderer: fake: pid", NULL, 0) == 1,
	      "renderer stderr reaches the log with the [comment-bar] renderer: prefix", NULL);
	const pid_t pid_before = renderer_pid();
	char attach[64], attached[512] = "";
	snprintf(attach, sizeof(attach), "renderer pid %d attached to its pool (producer_pid %d)", (int)pid_before,
		 (int)pid_before);
	check(pid_before && log_wait(&b, mark, attach, 1, 10) >= 0 && log_find(mark, "attached to its pool", attached,
										sizeof(attached)) == 1,
	      "the renderer's producer_pid is logged once when it attaches", "%s", attached);

	/* An update reaches the same renderer as a new line. */
	mark = log_mark();
	obs_data_set_string(b.settings, "stream_id", "beta");
	bar_update(&b);
	uint32_t beta = fake_colour("beta");
	took = tick_until(&b, texture_is_colour, &beta, 10);
	check(took >= 0 && renderer_pid() == pid_before && pid_before != 0,
	      "a new stream id reaches the running renderer and the pixels change", "after %.2f s, pid %d -> %d", took,
	      pid_before, renderer_pid());

	/* The same settings again: nothing to tell the renderer. */
	mark = log_mark();
	bar_update(&b);
	bar_update(&b);
	tick_until(&b, always_false, NULL, 0.3);
	check(log_find(mark, "got {\"settings\"", NULL, 0) == 0, "an update with unchanged settings sends nothing", NULL);

	/* Settings too long to send: not sent, logged once (rate-limited), shown in the properties. */
	mark = log_mark();
	enum { LONG_SERVER = 1100000 };
	char *server = malloc(LONG_SERVER + 1);
	memset(server, 'x', LONG_SERVER);
	server[LONG_SERVER] = '\0';
	obs_data_set_int(b.settings, "width", 256); /* not applied either: the whole update is refused */
	const uint64_t t_updates = now_ns();
	for (int i = 0; i < 50; i++) {
		server[0] = (char)('a' + i % 26);
		obs_data_set_string(b.settings, "server", server);
		bar_update(&b);
	}
	free(server);
	const struct status_arg refused = {{"Renderer: running (pid ", "settings were not sent", "more than 1048576"},
					   NULL};
	took = tick_until(&b, status_shows, &refused, 10);
	properties_status(&b, status_text, sizeof(status_text));
	check(took >= 0, "settings over 1 MiB are shown as not sent in the properties", "\"%s\"", status_text);
	char refusal[1024] = "";
	log_wait(&b, mark, "longer than the 1048576 bytes the shim sends", 1, 10);
	tick_until(&b, always_false, NULL, 0.3);
	const size_t refusals = log_find(mark, "longer than the 1048576 bytes the shim sends", refusal, sizeof(refusal));
	/* Under ASan, on a busy machine, building 50 such lines can itself take longer than 10 s. */
	const double elapsed = (double)(now_ns() - t_updates) / 1e9;
	const size_t allowed = 1 + (size_t)(elapsed / 10.0);
	check(refusals >= 1 && refusals <= allowed,
	      "50 updates with settings over 1 MiB log one warning (at most one per 10 s)",
	      "%zu warnings in %.1f s: %s", refusals, elapsed, refusal);
	check(log_find(mark, "got {\"settings\"", NULL, 0) == 0 && renderer_pid() == pid_before &&
		      registered.get_width(b.data) == 320 && texture_is_colour(&b, &beta),
	      "the renderer keeps its settings, size and pixels when settings are not sent", "width %u",
	      registered.get_width(b.data));
	obs_data_set_string(b.settings, "server", "");
	obs_data_set_int(b.settings, "width", 320);
	bar_update(&b);
	const struct status_arg cleared = {{"Renderer: running (pid ", NULL, NULL}, "not sent"};
	took = tick_until(&b, status_shows, &cleared, 10);
	check(took >= 0, "settings that fit again clear the warning in the properties", NULL);

	/* Hide, show. */
	mark = log_mark();
	registered.hide(b.data);
	const double hidden = log_wait(&b, mark, "got {\"active\":false}", 1, 10);
	registered.show(b.data);
	const double shown = log_wait(&b, mark, "got {\"active\":true}", 1, 10);
	tick_until(&b, always_false, NULL, 0.2);
	check(hidden >= 0 && shown >= 0 && log_find(mark, "got {\"active\":false}", NULL, 0) == 1 &&
		      log_find(mark, "got {\"active\":true}", NULL, 0) == 1,
	      "hide and show send {\"active\":false} and {\"active\":true}", "after %.2f s and %.2f s", hidden, shown);

	/* A new size: a new pool and a new renderer; the old texture is drawn until then. */
	mark = log_mark();
	const unsigned draws_before = draws;
	const gs_texture_t *old = bar_texture();
	obs_data_set_int(b.settings, "width", 200);
	bar_update(&b);
	uint32_t new_width = 200;
	unsigned ticks = 0;
	const uint64_t start = now_ns();
	bool kept = true;
	while ((double)(now_ns() - start) / 1e9 < 10 && !texture_width_is(&b, &new_width)) {
		tick_once(&b);
		ticks++;
		kept &= bar_texture() == old || bar_texture()->width == 200;
		sleep_ms(16);
	}
	check(texture_width_is(&b, &new_width) && renderer_pid() != pid_before && registered.get_width(b.data) == 200,
	      "a new width respawns the renderer on a new pool", "pid %d -> %d", pid_before, renderer_pid());
	check(kept && draws - draws_before >= ticks, "the old frame is drawn until the new one arrives", NULL);
	check(log_find(mark, "the size changed", NULL, 0) == 1, "the respawn is logged", NULL);

	const struct resources before_destroy = resources_now();
	bar_destroy(&b);
	check(textures_alive == 0, "destroy frees the texture", "%llu alive", (unsigned long long)textures_alive);
	const double finished = wait_supervisors_finished(10);
	const struct resources after = resources_now();
	check(finished >= 0 && after.children == 0 && after.pool_maps == 0 && after.fds < before_destroy.fds,
	      "destroy leaves no child, pool mapping or fd once the supervisor has finished",
	      "finished after %.2f s; children %d, pool maps %d, fds %d -> %d", finished, after.children,
	      after.pool_maps, before_destroy.fds, after.fds);
}
