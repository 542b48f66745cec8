// SPDX-License-Identifier: GPL-2.0-or-later
/* "Read comments aloud" (issue 20): a checkable group, whose checkbox is the group's name, the
 * `speech` setting; docs/speech.md. */
#include "property-group.h"

void properties_add_speech(obs_properties_t *props, const struct property_context *context)
{
	UNUSED_PARAMETER(context);
	obs_properties_t *group = obs_properties_create();
	properties_add_choices(group, CB_SETTING_INDEX_speech_engine, "SpeechEngine");
	obs_property_t *voice = obs_properties_add_text(group, settings_key(CB_SETTING_INDEX_speech_voice),
							obs_module_text("SpeechVoice"), OBS_TEXT_DEFAULT);
	obs_property_set_long_description(voice, obs_module_text("SpeechVoice.Description"));
	properties_add_choices(group, CB_SETTING_INDEX_speech_voices, "SpeechVoices");
	obs_property_t *server = obs_properties_add_text(group, settings_key(CB_SETTING_INDEX_speech_server),
							 obs_module_text("SpeechServer"), OBS_TEXT_DEFAULT);
	obs_property_set_long_description(server, obs_module_text("SpeechServer.Description"));
	obs_properties_add_bool(group, settings_key(CB_SETTING_INDEX_speech_names), obs_module_text("SpeechNames"));
	properties_add_int(group, CB_SETTING_INDEX_speech_max_chars, "SpeechMaxChars");
	properties_add_int_slider(group, CB_SETTING_INDEX_speech_rate, "SpeechRate", "%");
	properties_add_int_slider(group, CB_SETTING_INDEX_speech_volume, "SpeechVolume", "%");
	properties_add_int_slider(group, CB_SETTING_INDEX_speech_max_delay, "SpeechMaxDelay", " s");
	obs_properties_add_group(props, settings_key(CB_SETTING_INDEX_speech), obs_module_text("Speech"),
				 OBS_GROUP_CHECKABLE, group);
}
