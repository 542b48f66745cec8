// SPDX-License-Identifier: GPL-2.0-or-later
/* "Viewers and chat log" (issue 29): a checkable group whose checkbox is `remember`: the 初見
 * label, welcome back, the first-time sound, nicknames, counts, and the chat log's file and limits. */
#include "property-group.h"

#include <stdio.h>

/* The first-time viewer's sound: off, the chime, or a WAV/OGG file. */
#define SOUND_FILE_KEY "first_time_sound_file"

static bool sound_file_picked(obs_properties_t *props, obs_property_t *picker, obs_data_t *settings)
{
	UNUSED_PARAMETER(picker);
	return properties_file_picked(props, settings, SOUND_FILE_KEY, CB_SETTING_INDEX_first_time_sound,
				      "FirstTimeSound.File");
}

static void add_first_time_sound(obs_properties_t *props, obs_source_t *source)
{
	obs_property_t *list = properties_add_choices(props, CB_SETTING_INDEX_first_time_sound, "FirstTimeSound");
	obs_property_list_add_string(list, obs_module_text("FirstTimeSound.Off"), "off");
	obs_property_list_add_string(list, obs_module_text("FirstTimeSound.Chime"), "chime");
	properties_list_chosen_file(list, source, CB_SETTING_INDEX_first_time_sound, "FirstTimeSound.File");
	char filter[256];
	properties_file_filter(filter, sizeof(filter), "SoundFiles", "*.wav *.ogg *.oga");
	obs_property_t *picker = obs_properties_add_path(props, SOUND_FILE_KEY, obs_module_text("FirstTimeSoundFile"),
							 OBS_PATH_FILE, filter, NULL);
	obs_property_set_modified_callback(picker, sound_file_picked);
}

/* A number with its help and, when it has one, its unit. */
static void add_described_int(obs_properties_t *group, enum cb_setting_index index, const char *label_key,
			      const char *description_key, const char *suffix)
{
	obs_property_t *number = properties_add_int(group, index, label_key);
	if (suffix)
		obs_property_int_set_suffix(number, suffix);
	obs_property_set_long_description(number, obs_module_text(description_key));
}

void properties_add_memory(obs_properties_t *props, const struct property_context *context)
{
	obs_properties_t *group = obs_properties_create();
	obs_property_t *label = obs_properties_add_text(group, settings_key(CB_SETTING_INDEX_first_time_label),
							obs_module_text("FirstTimeLabel"), OBS_TEXT_DEFAULT);
	obs_property_set_long_description(label, obs_module_text("FirstTimeLabel.Description"));
	add_described_int(group, CB_SETTING_INDEX_welcome_back_days, "WelcomeBackDays", "WelcomeBackDays.Description", NULL);
	add_first_time_sound(group, context->source);
	obs_properties_add_bool(group, settings_key(CB_SETTING_INDEX_nicknames_from_chat),
				obs_module_text("NicknamesFromChat"));
	obs_properties_add_bool(group, settings_key(CB_SETTING_INDEX_show_counts), obs_module_text("ShowCounts"));
	char filter[256];
	properties_file_filter(filter, sizeof(filter), "ChatLogFiles", "*.sqlite3 *.db");
	obs_property_t *log = obs_properties_add_path(group, settings_key(CB_SETTING_INDEX_log_path),
						      obs_module_text("LogPath"), OBS_PATH_FILE_SAVE, filter, NULL);
	obs_property_set_long_description(log, obs_module_text("LogPath.Description"));
	add_described_int(group, CB_SETTING_INDEX_log_keep_days, "LogKeepDays", "LogKeepDays.Description", NULL);
	add_described_int(group, CB_SETTING_INDEX_log_max_mb, "LogMaxMB", "LogMaxMB.Description", " MB");
	obs_property_t *remember = obs_properties_add_group(props, settings_key(CB_SETTING_INDEX_remember),
							    obs_module_text("Remember"), OBS_GROUP_CHECKABLE, group);
	obs_property_set_long_description(remember, obs_module_text("Remember.Description"));
}
