// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "commentbar_services.h"
#include "commentbar_settings.h"
#include "harness.h"
#include "stubs.h"
#include "tests.h"

/* test-registration: what the source registers: its id, flags, names, defaults, properties, services. */

void test_registration(void)
{
	check(registered_any, "obs_module_load registers a source", NULL);
	if (!registered_any)
		return;
	check(registered.id && strcmp(registered.id, "comment_bar_source") == 0, "source id is comment_bar_source",
	      "%s", registered.id ? registered.id : "(null)");
	check(registered.type == OBS_SOURCE_TYPE_INPUT, "it is an input", NULL);
	check((registered.output_flags & (OBS_SOURCE_VIDEO | OBS_SOURCE_CUSTOM_DRAW)) ==
			      (OBS_SOURCE_VIDEO | OBS_SOURCE_CUSTOM_DRAW) &&
		      !(registered.output_flags & OBS_SOURCE_ASYNC),
	      "synchronous video source with custom draw", "flags 0x%x", registered.output_flags);
	check(registered.video_tick && registered.video_render && registered.show && registered.hide &&
		      registered.get_width && registered.get_height && registered.get_properties &&
		      registered.get_defaults && registered.update,
	      "has tick, render, show/hide, size, properties, defaults, update", NULL);

	module_set_locale("en-US");
	const char *name = registered.get_name(NULL);
	check(strcmp(name, "Comment Bar") == 0, "display name from en-US.ini", "\"%s\"", name);
	module_set_locale("ja-JP");
	name = registered.get_name(NULL);
	check(strcmp(name, "コメントバー") == 0, "display name from ja-JP.ini", "\"%s\"", name);
	/* Every label of the properties resolves in Japanese (a missing key shows as itself, ASCII). */
	obs_properties_t *props = registered.get_properties(NULL);
	int untranslated = 0;
	char which[256] = "";
	for (obs_property_t *p = obs_properties_first(props); p; obs_property_next(&p)) {
		const char *label = obs_property_description(p);
		bool ascii = true;
		for (const char *c = label; c && *c; c++)
			ascii &= (unsigned char)*c < 0x80;
		if (ascii && strcmp(obs_property_name(p), "fps") != 0) {
			untranslated++;
			snprintf(which, sizeof(which), "%s=\"%s\"", obs_property_name(p), label);
		}
	}
	obs_properties_destroy(props);
	check(untranslated == 0, "every property label is translated in ja-JP.ini", "%d untranslated, e.g. %s",
	      untranslated, which);
	module_set_locale("en-US");
}

/* A row's key within its object: the font's rows ("font.size") live in "font". */
static obs_data_t *row_object(obs_data_t *top, obs_data_t *font, const struct cb_setting *row, const char **key)
{
	const char *dot = strchr(row->key, '.');
	*key = dot ? dot + 1 : row->key;
	return dot ? font : top;
}

void test_defaults_and_properties(void)
{
	obs_data_t *s = obs_data_create();
	registered.get_defaults(s);
	/* The defaults of the settings table (commentbar_settings.h), which BarSettings.swift follows too. */
	obs_data_t *font = obs_data_get_obj(s, "font");
	char wrong_defaults[512] = "";
	for (size_t i = 0; i < CB_SETTING_COUNT; i++) {
		const struct cb_setting *row = cb_setting_at(i);
		const char *key;
		obs_data_t *in = row_object(s, font, row, &key);
		bool good = in != NULL;
		if (good && row->type == CB_SETTING_STRING)
			good = strcmp(obs_data_get_string(in, key), row->default_string) == 0;
		else if (good && row->type == CB_SETTING_BOOL)
			good = obs_data_get_bool(in, key) == (row->default_number != 0);
		else if (good && row->type == CB_SETTING_LIST)
			good = !obs_data_has_default_value(in, key); /* an editable list starts empty */
		else if (good)
			good = obs_data_get_int(in, key) == row->default_number;
		if (!good)
			snprintf(wrong_defaults + strlen(wrong_defaults), sizeof(wrong_defaults) - strlen(wrong_defaults),
				 " %s", row->key);
	}
	obs_data_release(font);
	obs_data_release(s);
	check(!wrong_defaults[0], "defaults match the settings table (and so BarSettings.swift)", "wrong:%s",
	      wrong_defaults);

	obs_properties_t *props = registered.get_properties(NULL);
	/* Ranges of the INT rows come from the table; the property kinds are the shim's choice. */
	static const struct {
		const char *name;
		enum obs_property_type type;
	} expected[] = {
		{"service", OBS_PROPERTY_LIST},        {"stream_id", OBS_PROPERTY_TEXT},
		{"server", OBS_PROPERTY_TEXT},         {"width", OBS_PROPERTY_INT},
		{"height", OBS_PROPERTY_INT},          {"max_lines", OBS_PROPERTY_INT},
		{"font", OBS_PROPERTY_FONT},           {"text_color", OBS_PROPERTY_COLOR_ALPHA},
		{"bg_color", OBS_PROPERTY_COLOR},      {"bg_opacity", OBS_PROPERTY_INT},
		{"corner_radius", OBS_PROPERTY_INT},   {"show_clock", OBS_PROPERTY_BOOL},
		{"show_viewers", OBS_PROPERTY_BOOL},   {"show_gifts", OBS_PROPERTY_BOOL},
		{"show_mic", OBS_PROPERTY_BOOL},       {"show_avatar", OBS_PROPERTY_BOOL},
		{"avatar_path", OBS_PROPERTY_PATH},    {"background_path", OBS_PROPERTY_PATH},
		{"fps", OBS_PROPERTY_INT},
		/* Viewers and chat log (issue 29), in a checkable group. */
		{"remember", OBS_PROPERTY_GROUP},      {"first_time_label", OBS_PROPERTY_TEXT},
		{"welcome_back_days", OBS_PROPERTY_INT}, {"first_time_sound", OBS_PROPERTY_LIST},
		{"first_time_sound_file", OBS_PROPERTY_PATH}, {"nicknames_from_chat", OBS_PROPERTY_BOOL},
		{"show_counts", OBS_PROPERTY_BOOL},    {"log_path", OBS_PROPERTY_PATH},
		/* Control page (issue 30), in a checkable group. */
		{"control", OBS_PROPERTY_GROUP},       {"control_port", OBS_PROPERTY_INT},
		{"pin_seconds", OBS_PROPERTY_INT},     {"open_control_page", OBS_PROPERTY_BUTTON},
		/* The session: its state, a field for a new one, Forget. */
		{"mirrativ_session_state", OBS_PROPERTY_TEXT}, {"mirrativ_session_forget", OBS_PROPERTY_BUTTON},
	};
	char problems[512] = "";
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		obs_property_t *p = obs_properties_get(props, expected[i].name);
		bool good = p && obs_property_get_type(p) == expected[i].type;
		const struct cb_setting *row = cb_setting_find(expected[i].name);
		if (good && expected[i].type == OBS_PROPERTY_INT)
			good = row && row->type == CB_SETTING_INT && obs_property_int_min(p) == row->min &&
			       obs_property_int_max(p) == row->max;
		if (!good)
			snprintf(problems + strlen(problems), sizeof(problems) - strlen(problems), " %s", expected[i].name);
	}
	check(!problems[0], "properties have the right keys, types and ranges", "wrong:%s", problems);

	/* The new groups are checkable (their checkbox is the setting), the log a file to save, and
	 * the first-time sound a list of off, chime (and a picked file). */
	obs_property_t *remember = obs_properties_get(props, "remember");
	obs_property_t *control = obs_properties_get(props, "control");
	obs_property_t *log = obs_properties_get(props, "log_path");
	obs_property_t *sound = obs_properties_get(props, "first_time_sound");
	check(remember && obs_property_group_type(remember) == OBS_GROUP_CHECKABLE && control &&
		      obs_property_group_type(control) == OBS_GROUP_CHECKABLE && log &&
		      obs_property_path_type(log) == OBS_PATH_FILE_SAVE && sound &&
		      obs_property_list_item_count(sound) == 2 &&
		      strcmp(obs_property_list_item_string(sound, 0), "off") == 0 &&
		      strcmp(obs_property_list_item_string(sound, 1), "chime") == 0,
	      "viewers and chat log, and the control page: checkable groups; the log a file to save; sounds off, chime",
	      NULL);

	/* The Mirrativ session is a password field, as OBS shows a stream key. */
	obs_property_t *session = obs_properties_get(props, "mirrativ_session");
	check(session && obs_property_get_type(session) == OBS_PROPERTY_TEXT &&
		      obs_property_text_type(session) == OBS_TEXT_PASSWORD,
	      "the Mirrativ session is a password field", "type %d", session ? (int)obs_property_text_type(session) : -1);

	/* The service list is the renderer's registry (the generated header), in its order,
	 * with the registry's names where the locale has none (en-US has none). */
	static const char *const registry[][2] = {
#define SERVICE_ROW(id, name) {id, name},
		COMMENTBAR_SERVICES(SERVICE_ROW)
#undef SERVICE_ROW
	};
	const size_t services = sizeof(registry) / sizeof(registry[0]);
	obs_property_t *service = obs_properties_get(props, "service");
	bool services_ok = service && obs_property_list_item_count(service) == services;
	char listed[512] = "";
	for (size_t i = 0; service && i < obs_property_list_item_count(service); i++) {
		const char *id = obs_property_list_item_string(service, i);
		const char *name = obs_property_list_item_name(service, i);
		snprintf(listed + strlen(listed), sizeof(listed) - strlen(listed), " %s=\"%s\"", id, name);
		services_ok = services_ok && i < services && strcmp(id, registry[i][0]) == 0 &&
			      strcmp(name, registry[i][1]) == 0;
	}
	obs_properties_destroy(props);
	check(services_ok, "the service list is the renderer's registry, with its names", "listed:%s", listed);

	/* A locale may name a service ("Service.<id>"): ja-JP does for demo. */
	module_set_locale("ja-JP");
	props = registered.get_properties(NULL);
	service = obs_properties_get(props, "service");
	const char *demo = NULL;
	for (size_t i = 0; service && i < obs_property_list_item_count(service); i++)
		if (strcmp(obs_property_list_item_string(service, i), "demo") == 0)
			demo = obs_property_list_item_name(service, i);
	check(demo && strcmp(demo, "デモ（内蔵のサンプルチャット）") == 0,
	      "a service's name comes from the locale file when it has Service.<id>", "demo is \"%s\"",
	      demo ? demo : "(missing)");
	obs_properties_destroy(props);
	module_set_locale("en-US");
}
