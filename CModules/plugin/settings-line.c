// SPDX-License-Identifier: GPL-2.0-or-later
/* The source's settings as the renderer's stdin line: see settings-line.h. */
#include "settings-line.h"

#include <string.h>

#include "plugin-log.h"
#include "renderer-input.h"
#include "safe-text.h"

#define FONT_ROW_PREFIX SETTINGS_FONT_KEY "."

obs_data_t *settings_row_container(obs_data_t *top, obs_data_t *font, const struct cb_setting *row, const char **key)
{
	if (strncmp(row->key, FONT_ROW_PREFIX, strlen(FONT_ROW_PREFIX)) == 0) {
		*key = row->key + strlen(FONT_ROW_PREFIX);
		return font;
	}
	*key = row->key;
	return top;
}

/* An editable list, as the renderer reads it: [{"value": …}, …], the entries'
 * other keys (selected, hidden) left out; empty when missing. */
static void copy_list(obs_data_t *out, const char *key, obs_data_t *in)
{
	obs_data_array_t *items = in ? obs_data_get_array(in, key) : NULL;
	obs_data_array_t *values = obs_data_array_create();
	const size_t count = items ? obs_data_array_count(items) : 0;
	for (size_t i = 0; i < count; i++) {
		obs_data_t *item = obs_data_array_item(items, i);
		const char *value = obs_data_get_string(item, "value");
		if (value && *value) {
			obs_data_t *entry = obs_data_create();
			obs_data_set_string(entry, "value", value);
			obs_data_array_push_back(values, entry);
			obs_data_release(entry);
		}
		obs_data_release(item);
	}
	obs_data_set_array(out, key, values);
	obs_data_array_release(values);
	obs_data_array_release(items);
}

/* A string row's value: never empty when the row has a default, one of the
 * row's choices when it has some (a settings file from a newer or an edited
 * version may hold another: the default then, and a line in the log). */
static const char *string_value(const char *value, const struct cb_setting *row, const char *source_name)
{
	if (!value || !*value)
		return row->default_string;
	if (cb_setting_allows(row, value))
		return value;
	char shown[256];
	safe_text_escape_string(shown, sizeof(shown), value);
	source_log(LOG_WARNING, source_name, "setting %s: unknown value \"%s\" (it may be %s); using \"%s\"", row->key,
		   shown, row->choices, row->default_string);
	return row->default_string;
}

/* One row's value from the source's settings into out, as the renderer must
 * get it: strings as string_value says, integers clamped to the row's range,
 * a value missing altogether as the row's default. */
static void copy_setting(obs_data_t *out, const char *key, obs_data_t *in, const struct cb_setting *row,
			 const char *source_name)
{
	const bool present = in && (obs_data_has_user_value(in, key) || obs_data_has_default_value(in, key));
	switch (row->type) {
	case CB_SETTING_STRING:
		obs_data_set_string(out, key, string_value(present ? obs_data_get_string(in, key) : NULL, row, source_name));
		break;
	case CB_SETTING_INT:
		obs_data_set_int(out, key,
				 cb_setting_clamp(row, present ? obs_data_get_int(in, key) : row->default_number));
		break;
	case CB_SETTING_COLOR: /* OBS colours are 0xAABBGGRR; any value is a colour */
		obs_data_set_int(out, key, present ? obs_data_get_int(in, key) : row->default_number);
		break;
	case CB_SETTING_BOOL:
		obs_data_set_bool(out, key, present ? obs_data_get_bool(in, key) : row->default_number != 0);
		break;
	case CB_SETTING_LIST:
		copy_list(out, key, in);
		break;
	}
}

/* obs_data_get_json leaves defaults out: every key is written explicitly instead. */
char *settings_line(obs_data_t *settings, obs_data_t *extra, const char *source_name, uint32_t *width,
		    uint32_t *height)
{
	obs_data_t *out = obs_data_create();
	obs_data_t *font_out = obs_data_create();
	obs_data_t *font_in = obs_data_get_obj(settings, SETTINGS_FONT_KEY);
	for (size_t i = 0; i < CB_SETTING_COUNT; i++) {
		const struct cb_setting *row = cb_setting_at(i);
		const char *key;
		obs_data_t *in = settings_row_container(settings, font_in, row, &key);
		copy_setting(settings_row_container(out, font_out, row, &key), key, in, row, source_name);
	}
	obs_data_set_obj(out, SETTINGS_FONT_KEY, font_out);
	if (extra)
		obs_data_apply(out, extra);
	obs_data_release(font_out);
	obs_data_release(font_in);
	*width = (uint32_t)obs_data_get_int(out, settings_key(CB_SETTING_INDEX_width));
	*height = (uint32_t)obs_data_get_int(out, settings_key(CB_SETTING_INDEX_height));
	char *line = renderer_input_object_line(RENDERER_CHANNEL_SETTINGS, out);
	obs_data_release(out);
	return line;
}
