// SPDX-License-Identifier: GPL-2.0-or-later
/* The look (issue 38). `theme` is a setting like the first-time sound: the list of the built-in
 * themes and a picker for a theme file. "Save the look to a file" is a picker too: its file is
 * handed to the renderer, which writes the look it draws there (an `actions` counter), and it is
 * never a setting. Then the layout, the rows' style and how they come and go. */
#include "property-group.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define THEME_FILE_KEY "theme_file"
#define THEME_SAVE_KEY "theme_save"

static bool theme_file_picked(obs_properties_t *props, obs_property_t *picker, obs_data_t *settings)
{
	UNUSED_PARAMETER(picker);
	return properties_file_picked(props, settings, THEME_FILE_KEY, CB_SETTING_INDEX_theme, "Theme.File");
}

static bool theme_save_picked(void *data, obs_properties_t *props, obs_property_t *picker, obs_data_t *settings)
{
	UNUSED_PARAMETER(props);
	UNUSED_PARAMETER(picker);
	const char *path = obs_data_get_string(settings, THEME_SAVE_KEY);
	if (!path || !*path)
		return false;
	source_commands_save_theme(data, path);
	obs_data_erase(settings, THEME_SAVE_KEY); /* a request, not a setting: the same file can be saved again */
	return true;
}

/* The built-in themes (CB_BUILTIN_THEMES, "a|b|c"), each labelled by the locale's "Theme.<Name>". */
static void add_theme_list(obs_properties_t *group, obs_source_t *source)
{
	obs_property_t *list = obs_properties_add_list(group, settings_key(CB_SETTING_INDEX_theme),
						       obs_module_text("Theme"), OBS_COMBO_TYPE_LIST,
						       OBS_COMBO_FORMAT_STRING);
	const char *names = CB_BUILTIN_THEMES;
	for (const char *name = names; *name;) {
		const size_t length = strcspn(name, "|");
		char value[64], label_key[128];
		snprintf(value, sizeof(value), "%.*s", (int)length, name);
		snprintf(label_key, sizeof(label_key), "Theme.%c%s", toupper((unsigned char)value[0]), value + 1);
		obs_property_list_add_string(list, properties_localized(label_key, value), value);
		name += length + (name[length] == '|');
	}
	obs_property_set_long_description(list, obs_module_text("Theme.Description"));
	properties_list_chosen_file(list, source, CB_SETTING_INDEX_theme, "Theme.File");
}

static void add_theme_pickers(obs_properties_t *group, struct source_commands *commands)
{
	char filter[256];
	properties_file_filter(filter, sizeof(filter), "ThemeFiles", "*.json");
	obs_property_t *picker =
		obs_properties_add_path(group, THEME_FILE_KEY, obs_module_text("ThemeFile"), OBS_PATH_FILE, filter, NULL);
	obs_property_set_modified_callback(picker, theme_file_picked);
	obs_property_t *save =
		obs_properties_add_path(group, THEME_SAVE_KEY, obs_module_text("ThemeSave"), OBS_PATH_FILE_SAVE, filter, NULL);
	obs_property_set_long_description(save, obs_module_text("ThemeSave.Description"));
	obs_property_set_modified_callback2(save, theme_save_picked, commands);
	obs_property_set_enabled(save, commands != NULL);
}

void properties_add_look(obs_properties_t *props, const struct property_context *context)
{
	obs_properties_t *group = obs_properties_create();
	add_theme_list(group, context->source);
	add_theme_pickers(group, context->parts->commands);
	properties_add_choices(group, CB_SETTING_INDEX_layout, "Layout");
	properties_add_choices(group, CB_SETTING_INDEX_newest, "Newest");
	properties_add_int_slider(group, CB_SETTING_INDEX_text_outline, "TextOutline", " px");
	obs_properties_add_bool(group, settings_key(CB_SETTING_INDEX_text_shadow), obs_module_text("TextShadow"));
	obs_properties_add_color(group, settings_key(CB_SETTING_INDEX_outline_color), obs_module_text("OutlineColor"));
	properties_add_choices(group, CB_SETTING_INDEX_row_style, "RowStyle");
	obs_property_t *fade = properties_add_int(group, CB_SETTING_INDEX_fade_after, "FadeAfter");
	obs_property_int_set_suffix(fade, " s");
	obs_property_set_long_description(fade, obs_module_text("FadeAfter.Description"));
	properties_add_choices(group, CB_SETTING_INDEX_enter, "Enter");
	properties_add_choices(group, CB_SETTING_INDEX_name_colors, "NameColors");
	obs_property_int_set_suffix(properties_add_int(group, CB_SETTING_INDEX_ticker_speed, "TickerSpeed"), " px/s");
	obs_properties_add_group(props, "look", obs_module_text("Look"), OBS_GROUP_NORMAL, group);
}
