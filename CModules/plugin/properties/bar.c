// SPDX-License-Identifier: GPL-2.0-or-later
/* What the bar shows besides the comments, and how they flow: the clock and what it counts, the
 * viewer count, paced bursts and the moderation delay, gifts, the mic and its source, the
 * avatar, badges, emotes, the pictures, and the frame rate. */
#include "property-group.h"

#include <stdio.h>
#include <string.h>

/* "Clock shows": the choices of the table's clock_source (BarSettings.clockSource). */
static void add_clock_source(obs_properties_t *props)
{
	obs_property_t *list = properties_add_choices(props, CB_SETTING_INDEX_clock_source, "ClockSource");
	obs_property_set_long_description(list, obs_module_text("ClockSource.Description"));
}

/* How comments flow onto the bar: paced bursts, the moderation delay, and with several
 * streams one viewer count or one per stream (the table's viewers_mode choices). */
static void add_flow(obs_properties_t *props)
{
	obs_property_t *pace = obs_properties_add_bool(props, settings_key(CB_SETTING_INDEX_pace_bursts),
						       obs_module_text("PaceBursts"));
	obs_property_set_long_description(pace, obs_module_text("PaceBursts.Description"));
	obs_property_t *delay = properties_add_int_slider(props, CB_SETTING_INDEX_delay_seconds, "DelaySeconds", " s");
	obs_property_set_long_description(delay, obs_module_text("DelaySeconds.Description"));
	properties_add_choices(props, CB_SETTING_INDEX_viewers_mode, "ViewersMode");
}

static bool add_audio_source(void *data, obs_source_t *source)
{
	obs_property_t *list = data;
	const char *name = obs_source_get_name(source);
	if ((obs_source_get_output_flags(source) & OBS_SOURCE_AUDIO) && name && *name)
		obs_property_list_add_string(list, name, name);
	return true;
}

/* "Microphone": OBS's first Mic/Aux channel, then every audio source by name;
 * a name the settings hold that no longer exists stays listed, marked missing. */
static void add_mic_source(obs_properties_t *props, obs_data_t *settings)
{
	obs_property_t *list = obs_properties_add_list(props, settings_key(CB_SETTING_INDEX_mic_source),
						       obs_module_text("MicSource"), OBS_COMBO_TYPE_LIST,
						       OBS_COMBO_FORMAT_STRING);
	obs_property_list_add_string(list, obs_module_text("MicSource.Default"), "");
	obs_enum_sources(add_audio_source, list);
	obs_property_set_long_description(list, obs_module_text("MicSource.Description"));
	if (!settings)
		return;
	const char *chosen = obs_data_get_string(settings, settings_key(CB_SETTING_INDEX_mic_source));
	bool listed = !chosen || !*chosen;
	for (size_t i = 0; !listed && i < obs_property_list_item_count(list); i++)
		listed = strcmp(obs_property_list_item_string(list, i), chosen) == 0;
	if (!listed) {
		char label[512];
		snprintf(label, sizeof(label), "%s (%s)", chosen, obs_module_text("MicSource.Missing"));
		obs_property_list_add_string(list, label, chosen);
	}
}

static void add_bool(obs_properties_t *props, enum cb_setting_index index, const char *label_key)
{
	obs_properties_add_bool(props, settings_key(index), obs_module_text(label_key));
}

void properties_add_bar(obs_properties_t *props, const struct property_context *context)
{
	add_bool(props, CB_SETTING_INDEX_show_clock, "ShowClock");
	add_clock_source(props);
	add_bool(props, CB_SETTING_INDEX_show_viewers, "ShowViewers");
	add_flow(props);
	add_bool(props, CB_SETTING_INDEX_show_gifts, "ShowGifts");
	add_bool(props, CB_SETTING_INDEX_show_mic, "ShowMic");
	add_mic_source(props, context->settings);
	add_bool(props, CB_SETTING_INDEX_mic_meter, "MicMeter");
	add_bool(props, CB_SETTING_INDEX_show_avatar, "ShowAvatar");
	add_bool(props, CB_SETTING_INDEX_show_badges, "ShowBadges");
	add_bool(props, CB_SETTING_INDEX_animate_emotes, "AnimateEmotes");

	char filter[256];
	properties_file_filter(filter, sizeof(filter), "ImageFiles", "*.png *.jpg *.jpeg *.gif *.bmp *.webp");
	obs_properties_add_path(props, settings_key(CB_SETTING_INDEX_avatar_path), obs_module_text("AvatarImage"),
				OBS_PATH_FILE, filter, NULL);
	obs_properties_add_path(props, settings_key(CB_SETTING_INDEX_background_path), obs_module_text("BackgroundImage"),
				OBS_PATH_FILE, filter, NULL);
	properties_add_int(props, CB_SETTING_INDEX_fps, "FPS");
}
