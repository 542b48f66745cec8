#include "speech-properties.h"

#include "commentbar_settings.h"

static const char *key_of(enum cb_setting_index index)
{
	return cb_setting_at(index)->key;
}

static void add_int(obs_properties_t *group, enum cb_setting_index index, const char *label, const char *suffix)
{
	const struct cb_setting *row = cb_setting_at(index);
	obs_property_t *p = obs_properties_add_int_slider(group, row->key, obs_module_text(label), (int)row->min,
							  (int)row->max, 1);
	if (suffix)
		obs_property_int_set_suffix(p, suffix);
}

void speech_properties_add(obs_properties_t *props)
{
	obs_properties_t *group = obs_properties_create();
	obs_property_t *engine = obs_properties_add_list(group, key_of(CB_SETTING_INDEX_speech_engine),
							 obs_module_text("SpeechEngine"), OBS_COMBO_TYPE_LIST,
							 OBS_COMBO_FORMAT_STRING);
	static const char *const engines[][2] = {
		{"auto", "SpeechEngine.Auto"},       {"espeak", "SpeechEngine.ESpeak"},
		{"openjtalk", "SpeechEngine.OpenJTalk"}, {"voicevox", "SpeechEngine.Voicevox"},
		{"bouyomichan", "SpeechEngine.BouyomiChan"},
	};
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		obs_property_list_add_string(engine, obs_module_text(engines[i][1]), engines[i][0]);
	obs_property_t *voice = obs_properties_add_text(group, key_of(CB_SETTING_INDEX_speech_voice),
							obs_module_text("SpeechVoice"), OBS_TEXT_DEFAULT);
	obs_property_set_long_description(voice, obs_module_text("SpeechVoice.Description"));
	obs_property_t *server = obs_properties_add_text(group, key_of(CB_SETTING_INDEX_speech_server),
							 obs_module_text("SpeechServer"), OBS_TEXT_DEFAULT);
	obs_property_set_long_description(server, obs_module_text("SpeechServer.Description"));
	obs_properties_add_bool(group, key_of(CB_SETTING_INDEX_speech_names), obs_module_text("SpeechNames"));
	add_int(group, CB_SETTING_INDEX_speech_max_chars, "SpeechMaxChars", NULL);
	add_int(group, CB_SETTING_INDEX_speech_rate, "SpeechRate", "%");
	add_int(group, CB_SETTING_INDEX_speech_volume, "SpeechVolume", "%");
	add_int(group, CB_SETTING_INDEX_speech_max_delay, "SpeechMaxDelay", " s");
	/* A checkable group's name is its checkbox's setting: `speech`. */
	obs_properties_add_group(props, key_of(CB_SETTING_INDEX_speech), obs_module_text("Speech"), OBS_GROUP_CHECKABLE,
				 group);
}
