// SPDX-License-Identifier: GPL-2.0-or-later
/* The source's defaults and properties view: see source-properties.h. */
#include "source-properties.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <util/dstr.h>

#include "commentbar_services.h"
#include "settings-line.h"
#include "source-secrets.h"

/* The locale file's text for key, else fallback (obs_module_text would show the key). */
static const char *localized(const char *key, const char *fallback)
{
	const char *text = NULL;
	return obs_module_get_string(key, &text) && text && *text ? text : fallback;
}

void source_properties_defaults(obs_data_t *settings)
{
	obs_data_t *font = obs_data_create();
	for (size_t i = 0; i < CB_SETTING_COUNT; i++) {
		const struct cb_setting *row = cb_setting_at(i);
		const char *key;
		obs_data_t *target = settings_row_container(settings, font, row, &key);
		switch (row->type) {
		case CB_SETTING_STRING:
			obs_data_set_default_string(target, key, row->default_string);
			break;
		case CB_SETTING_INT:
		case CB_SETTING_COLOR:
			obs_data_set_default_int(target, key, row->default_number);
			break;
		case CB_SETTING_BOOL:
			obs_data_set_default_bool(target, key, row->default_number != 0);
			break;
		case CB_SETTING_LIST: /* an editable list starts empty */
			break;
		}
	}
	obs_data_set_default_obj(settings, SETTINGS_FONT_KEY, font);
	obs_data_release(font);
}

static obs_property_t *add_int(obs_properties_t *props, enum cb_setting_index index, const char *label_key)
{
	const struct cb_setting *row = cb_setting_at(index);
	return obs_properties_add_int(props, row->key, obs_module_text(label_key), (int)row->min, (int)row->max, 1);
}

static obs_property_t *add_int_slider(obs_properties_t *props, enum cb_setting_index index, const char *label_key,
				      const char *suffix)
{
	const struct cb_setting *row = cb_setting_at(index);
	obs_property_t *p =
		obs_properties_add_int_slider(props, row->key, obs_module_text(label_key), (int)row->min, (int)row->max,
					      1);
	obs_property_int_set_suffix(p, suffix);
	return p;
}

/* A string enum of the settings table: its choices in the table's order, each
 * labelled by the locale's "<label_key>.<Value>" (the value's first letter
 * upper-cased: "NGMode.Mask"), or by the value itself when the locale has none. */
static obs_property_t *add_choices(obs_properties_t *props, enum cb_setting_index index, const char *label_key)
{
	const struct cb_setting *row = cb_setting_at(index);
	obs_property_t *list = obs_properties_add_list(props, row->key, obs_module_text(label_key),
						       OBS_COMBO_TYPE_LIST, OBS_COMBO_FORMAT_STRING);
	size_t length;
	const char *choice;
	for (size_t i = 0; (choice = cb_setting_choice(row, i, &length)); i++) {
		char value[64], key[128];
		snprintf(value, sizeof(value), "%.*s", (int)length, choice);
		snprintf(key, sizeof(key), "%s.%c%s", label_key, toupper((unsigned char)value[0]), value[0] ? value + 1 : "");
		obs_property_list_add_string(list, localized(key, value), value);
	}
	return list;
}

/* A service's name as the list shows it: the locale file's "Service.<id>" when
 * translated there, else the registry's (commentbar_services.h). */
static const char *service_name(const char *id, const char *registry_name)
{
	char key[128];
	snprintf(key, sizeof(key), "Service.%s", id);
	return localized(key, registry_name);
}

#ifdef COMMENTBAR_SERVICE_HELP
/* The registry's name of a service, or its id. */
static const char *registry_name(const char *id)
{
#define MATCH_SERVICE(service_id, name) \
	if (strcmp(id, service_id) == 0)  \
		return name;
	COMMENTBAR_SERVICES(MATCH_SERVICE)
#undef MATCH_SERVICE
	return id;
}

/* The Stream ID's help from the renderer's registry, a line per service, in the
 * UI's language (Japanese when OBS's locale is, else English): the help names
 * every service the list offers, a new platform included. */
static void set_stream_id_help(obs_property_t *stream_id)
{
	const char *locale = obs_get_locale();
	const bool japanese = locale && strncmp(locale, "ja", 2) == 0;
	struct dstr help = {0};
#define ADD_HELP(id, help_en, help_ja)                                                                   \
	dstr_catf(&help, "%s%s: %s", help.len ? "\n" : "", service_name(id, registry_name(id)), \
		  japanese ? help_ja : help_en);
	COMMENTBAR_SERVICE_HELP(ADD_HELP)
#undef ADD_HELP
	obs_property_set_long_description(stream_id, help.array);
	dstr_free(&help);
}
#else
/* A services header without help (an older renderer's): the locale file's text. */
static void set_stream_id_help(obs_property_t *stream_id)
{
	obs_property_set_long_description(stream_id, obs_module_text("StreamID.Description"));
}
#endif

/* "Read comments aloud" (issue 20): a checkable group, whose checkbox is the
 * group's name, the `speech` setting; docs/speech.md. */
static void add_speech(obs_properties_t *props)
{
	obs_properties_t *group = obs_properties_create();
	add_choices(group, CB_SETTING_INDEX_speech_engine, "SpeechEngine");
	obs_property_t *voice = obs_properties_add_text(group, settings_key(CB_SETTING_INDEX_speech_voice),
							obs_module_text("SpeechVoice"), OBS_TEXT_DEFAULT);
	obs_property_set_long_description(voice, obs_module_text("SpeechVoice.Description"));
	add_choices(group, CB_SETTING_INDEX_speech_voices, "SpeechVoices");
	obs_property_t *server = obs_properties_add_text(group, settings_key(CB_SETTING_INDEX_speech_server),
							 obs_module_text("SpeechServer"), OBS_TEXT_DEFAULT);
	obs_property_set_long_description(server, obs_module_text("SpeechServer.Description"));
	obs_properties_add_bool(group, settings_key(CB_SETTING_INDEX_speech_names), obs_module_text("SpeechNames"));
	add_int(group, CB_SETTING_INDEX_speech_max_chars, "SpeechMaxChars");
	add_int_slider(group, CB_SETTING_INDEX_speech_rate, "SpeechRate", "%");
	add_int_slider(group, CB_SETTING_INDEX_speech_volume, "SpeechVolume", "%");
	add_int_slider(group, CB_SETTING_INDEX_speech_max_delay, "SpeechMaxDelay", " s");
	obs_properties_add_group(props, settings_key(CB_SETTING_INDEX_speech), obs_module_text("Speech"),
				 OBS_GROUP_CHECKABLE, group);
}

/* Filters and highlights, in a group of their own. */
static void add_filters(obs_properties_t *props)
{
	obs_properties_t *group = obs_properties_create();
	obs_properties_add_bool(group, settings_key(CB_SETTING_INDEX_hide_bots), obs_module_text("HideBots"));
	obs_properties_add_editable_list(group, settings_key(CB_SETTING_INDEX_bot_names), obs_module_text("BotNames"),
					 OBS_EDITABLE_LIST_TYPE_STRINGS, NULL, NULL);
	obs_properties_add_bool(group, settings_key(CB_SETTING_INDEX_hide_commands), obs_module_text("HideCommands"));
	obs_properties_add_editable_list(group, settings_key(CB_SETTING_INDEX_ng_words), obs_module_text("NGWords"),
					 OBS_EDITABLE_LIST_TYPE_STRINGS, NULL, NULL);
	add_choices(group, CB_SETTING_INDEX_ng_mode, "NGMode");
	obs_properties_add_editable_list(group, settings_key(CB_SETTING_INDEX_hidden_users), obs_module_text("HiddenUsers"),
					 OBS_EDITABLE_LIST_TYPE_STRINGS, NULL, NULL);
	obs_properties_add_editable_list(group, settings_key(CB_SETTING_INDEX_highlight_names),
					 obs_module_text("HighlightNames"), OBS_EDITABLE_LIST_TYPE_STRINGS, NULL, NULL);
	obs_properties_add_bool(group, settings_key(CB_SETTING_INDEX_highlight_first), obs_module_text("HighlightFirst"));
	obs_properties_add_group(props, "filters", obs_module_text("Filters"), OBS_GROUP_NORMAL, group);
}

/* How comments flow onto the bar: paced bursts, the moderation delay, and with several
 * streams one viewer count or one per stream (the table's viewers_mode choices). */
static void add_flow(obs_properties_t *props)
{
	obs_property_t *pace = obs_properties_add_bool(props, settings_key(CB_SETTING_INDEX_pace_bursts),
						       obs_module_text("PaceBursts"));
	obs_property_set_long_description(pace, obs_module_text("PaceBursts.Description"));
	obs_property_t *delay = add_int_slider(props, CB_SETTING_INDEX_delay_seconds, "DelaySeconds", " s");
	obs_property_set_long_description(delay, obs_module_text("DelaySeconds.Description"));
	add_choices(props, CB_SETTING_INDEX_viewers_mode, "ViewersMode");
}

/* "Clock shows": the choices of the table's clock_source (BarSettings.clockSource). */
static void add_clock_source(obs_properties_t *props)
{
	obs_property_t *list = add_choices(props, CB_SETTING_INDEX_clock_source, "ClockSource");
	obs_property_set_long_description(list, obs_module_text("ClockSource.Description"));
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
static void add_mic_source(obs_properties_t *props, obs_source_t *source)
{
	obs_property_t *list = obs_properties_add_list(props, settings_key(CB_SETTING_INDEX_mic_source),
						       obs_module_text("MicSource"), OBS_COMBO_TYPE_LIST,
						       OBS_COMBO_FORMAT_STRING);
	obs_property_list_add_string(list, obs_module_text("MicSource.Default"), "");
	obs_enum_sources(add_audio_source, list);
	obs_property_set_long_description(list, obs_module_text("MicSource.Description"));
	if (!source)
		return;
	obs_data_t *settings = obs_source_get_settings(source);
	const char *chosen = obs_data_get_string(settings, settings_key(CB_SETTING_INDEX_mic_source));
	bool listed = !chosen || !*chosen;
	for (size_t i = 0; !listed && i < obs_property_list_item_count(list); i++)
		listed = strcmp(obs_property_list_item_string(list, i), chosen) == 0;
	if (!listed) {
		char label[512];
		snprintf(label, sizeof(label), "%s (%s)", chosen, obs_module_text("MicSource.Missing"));
		obs_property_list_add_string(list, label, chosen);
	}
	obs_data_release(settings);
}

/* "On my screen too (over games)": the overlay (issue 24), a checkable group whose checkbox is
 * the `overlay` setting; the renderer shows the bar above every window while it is ticked. */
static void add_overlay(obs_properties_t *props)
{
	obs_properties_t *group = obs_properties_create();
	add_choices(group, CB_SETTING_INDEX_overlay_corner, "OverlayCorner");
	add_int_slider(group, CB_SETTING_INDEX_overlay_scale, "OverlayScale", "%");
	add_int_slider(group, CB_SETTING_INDEX_overlay_opacity, "OverlayOpacity", "%");
	obs_property_int_set_suffix(add_int(group, CB_SETTING_INDEX_overlay_margin, "OverlayMargin"), " px");
	obs_property_t *overlay = obs_properties_add_group(props, settings_key(CB_SETTING_INDEX_overlay),
							   obs_module_text("Overlay"), OBS_GROUP_CHECKABLE, group);
	obs_property_set_long_description(overlay, obs_module_text("Overlay.Description"));
}

/* A setting that names a choice or a file, shown by two properties: its list (the file the
 * setting names listed too, as "<label>: <its name>") and a picker whose file becomes the
 * setting and is listed at once. The first-time sound and the theme are such settings. */
static void list_file(obs_property_t *list, const char *path, const char *label_key)
{
	for (size_t i = 0; i < obs_property_list_item_count(list); i++)
		if (strcmp(obs_property_list_item_string(list, i), path) == 0)
			return;
	const char *slash = strrchr(path, '/');
	char label[512];
	snprintf(label, sizeof(label), "%s: %s", obs_module_text(label_key), slash ? slash + 1 : path);
	obs_property_list_add_string(list, label, path);
}

/* The file the setting names now, listed (the properties of a source, not of its type). */
static void list_chosen_file(obs_property_t *list, obs_source_t *source, enum cb_setting_index index,
			     const char *label_key)
{
	if (!source)
		return;
	obs_data_t *settings = obs_source_get_settings(source);
	const char *chosen = obs_data_get_string(settings, settings_key(index));
	if (chosen && *chosen)
		list_file(list, chosen, label_key);
	obs_data_release(settings);
}

/* The picker `picker_key` picked a file: it becomes the setting `index` and is listed. */
static bool file_picked(obs_properties_t *props, obs_data_t *settings, const char *picker_key,
			enum cb_setting_index index, const char *label_key)
{
	const char *path = obs_data_get_string(settings, picker_key);
	if (!path || !*path)
		return false;
	const char *key = settings_key(index);
	obs_data_set_string(settings, key, path);
	list_file(obs_properties_get(props, key), path, label_key);
	obs_data_erase(settings, picker_key); /* a picker, not a setting: the list shows the choice */
	return true;
}

/* The first-time viewer's sound: off, the chime, or a WAV/OGG file. */
#define SOUND_FILE_KEY "first_time_sound_file"

static bool sound_file_picked(obs_properties_t *props, obs_property_t *picker, obs_data_t *settings)
{
	UNUSED_PARAMETER(picker);
	return file_picked(props, settings, SOUND_FILE_KEY, CB_SETTING_INDEX_first_time_sound, "FirstTimeSound.File");
}

static void add_first_time_sound(obs_properties_t *props, obs_source_t *source)
{
	obs_property_t *list = add_choices(props, CB_SETTING_INDEX_first_time_sound, "FirstTimeSound");
	obs_property_list_add_string(list, obs_module_text("FirstTimeSound.Off"), "off");
	obs_property_list_add_string(list, obs_module_text("FirstTimeSound.Chime"), "chime");
	list_chosen_file(list, source, CB_SETTING_INDEX_first_time_sound, "FirstTimeSound.File");
	char filter[256];
	snprintf(filter, sizeof(filter), "%s (*.wav *.ogg *.oga);;All files (*)", obs_module_text("SoundFiles"));
	obs_property_t *picker = obs_properties_add_path(props, SOUND_FILE_KEY, obs_module_text("FirstTimeSoundFile"),
							 OBS_PATH_FILE, filter, NULL);
	obs_property_set_modified_callback(picker, sound_file_picked);
}

/* The look (issue 38). `theme` is a setting like the first-time sound: the list of the built-in
 * themes and a picker for a theme file. "Save the look to a file" is a picker too: its file is
 * handed to the renderer, which writes the look it draws there (an `actions` counter), and it is
 * never a setting. */
#define THEME_FILE_KEY "theme_file"
#define THEME_SAVE_KEY "theme_save"

static bool theme_file_picked(obs_properties_t *props, obs_property_t *picker, obs_data_t *settings)
{
	UNUSED_PARAMETER(picker);
	return file_picked(props, settings, THEME_FILE_KEY, CB_SETTING_INDEX_theme, "Theme.File");
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

static void add_look(obs_properties_t *props, obs_source_t *source, struct source_commands *commands)
{
	obs_properties_t *group = obs_properties_create();
	const char *key = settings_key(CB_SETTING_INDEX_theme);
	obs_property_t *list = obs_properties_add_list(group, key, obs_module_text("Theme"), OBS_COMBO_TYPE_LIST,
						       OBS_COMBO_FORMAT_STRING);
	const char *names = CB_BUILTIN_THEMES;
	for (const char *name = names; *name;) {
		const size_t length = strcspn(name, "|");
		char value[64], label_key[128];
		snprintf(value, sizeof(value), "%.*s", (int)length, name);
		snprintf(label_key, sizeof(label_key), "Theme.%c%s", toupper((unsigned char)value[0]), value + 1);
		obs_property_list_add_string(list, localized(label_key, value), value);
		name += length + (name[length] == '|');
	}
	obs_property_set_long_description(list, obs_module_text("Theme.Description"));
	list_chosen_file(list, source, CB_SETTING_INDEX_theme, "Theme.File");
	char filter[256];
	snprintf(filter, sizeof(filter), "%s (*.json);;All files (*)", obs_module_text("ThemeFiles"));
	obs_property_t *picker =
		obs_properties_add_path(group, THEME_FILE_KEY, obs_module_text("ThemeFile"), OBS_PATH_FILE, filter, NULL);
	obs_property_set_modified_callback(picker, theme_file_picked);
	obs_property_t *save =
		obs_properties_add_path(group, THEME_SAVE_KEY, obs_module_text("ThemeSave"), OBS_PATH_FILE_SAVE, filter, NULL);
	obs_property_set_long_description(save, obs_module_text("ThemeSave.Description"));
	obs_property_set_modified_callback2(save, theme_save_picked, commands);
	obs_property_set_enabled(save, commands != NULL);

	add_choices(group, CB_SETTING_INDEX_layout, "Layout");
	add_choices(group, CB_SETTING_INDEX_newest, "Newest");
	add_int_slider(group, CB_SETTING_INDEX_text_outline, "TextOutline", " px");
	obs_properties_add_bool(group, settings_key(CB_SETTING_INDEX_text_shadow), obs_module_text("TextShadow"));
	obs_properties_add_color(group, settings_key(CB_SETTING_INDEX_outline_color), obs_module_text("OutlineColor"));
	add_choices(group, CB_SETTING_INDEX_row_style, "RowStyle");
	obs_property_t *fade = add_int(group, CB_SETTING_INDEX_fade_after, "FadeAfter");
	obs_property_int_set_suffix(fade, " s");
	obs_property_set_long_description(fade, obs_module_text("FadeAfter.Description"));
	add_choices(group, CB_SETTING_INDEX_enter, "Enter");
	add_choices(group, CB_SETTING_INDEX_name_colors, "NameColors");
	obs_property_int_set_suffix(add_int(group, CB_SETTING_INDEX_ticker_speed, "TickerSpeed"), " px/s");
	obs_properties_add_group(props, "look", obs_module_text("Look"), OBS_GROUP_NORMAL, group);
}

/* "Viewers and chat log" (issue 29): a checkable group whose checkbox is `remember`. */
static void add_viewer_memory(obs_properties_t *props, obs_source_t *source)
{
	obs_properties_t *group = obs_properties_create();
	obs_property_t *label = obs_properties_add_text(group, settings_key(CB_SETTING_INDEX_first_time_label),
							obs_module_text("FirstTimeLabel"), OBS_TEXT_DEFAULT);
	obs_property_set_long_description(label, obs_module_text("FirstTimeLabel.Description"));
	obs_property_t *back = add_int(group, CB_SETTING_INDEX_welcome_back_days, "WelcomeBackDays");
	obs_property_set_long_description(back, obs_module_text("WelcomeBackDays.Description"));
	add_first_time_sound(group, source);
	obs_properties_add_bool(group, settings_key(CB_SETTING_INDEX_nicknames_from_chat),
				obs_module_text("NicknamesFromChat"));
	obs_properties_add_bool(group, settings_key(CB_SETTING_INDEX_show_counts), obs_module_text("ShowCounts"));
	char filter[256];
	snprintf(filter, sizeof(filter), "%s (*.sqlite3 *.db);;All files (*)", obs_module_text("ChatLogFiles"));
	obs_property_t *log = obs_properties_add_path(group, settings_key(CB_SETTING_INDEX_log_path),
						      obs_module_text("LogPath"), OBS_PATH_FILE_SAVE, filter, NULL);
	obs_property_set_long_description(log, obs_module_text("LogPath.Description"));
	obs_property_t *keep = add_int(group, CB_SETTING_INDEX_log_keep_days, "LogKeepDays");
	obs_property_set_long_description(keep, obs_module_text("LogKeepDays.Description"));
	obs_property_t *cap = add_int(group, CB_SETTING_INDEX_log_max_mb, "LogMaxMB");
	obs_property_int_set_suffix(cap, " MB");
	obs_property_set_long_description(cap, obs_module_text("LogMaxMB.Description"));
	obs_property_t *remember = obs_properties_add_group(props, settings_key(CB_SETTING_INDEX_remember),
							    obs_module_text("Remember"), OBS_GROUP_CHECKABLE, group);
	obs_property_set_long_description(remember, obs_module_text("Remember.Description"));
}

/* "Control page" (issue 30): a checkable group whose checkbox is `control`. */
static void add_control_page(obs_properties_t *props, struct source_commands *commands)
{
	obs_properties_t *group = obs_properties_create();
	add_int(group, CB_SETTING_INDEX_control_port, "ControlPort");
	obs_property_t *pin = add_int(group, CB_SETTING_INDEX_pin_seconds, "PinSeconds");
	obs_property_int_set_suffix(pin, " s");
	obs_property_set_long_description(pin, obs_module_text("PinSeconds.Description"));
	source_commands_add_open_control(group, commands);
	obs_property_t *control = obs_properties_add_group(props, settings_key(CB_SETTING_INDEX_control),
							   obs_module_text("Control"), OBS_GROUP_CHECKABLE, group);
	obs_property_set_long_description(control, obs_module_text("Control.Description"));
}

/* "Streamer.bot / Cuebot actions" (issue 39): where DoAction goes, the rules (EVENT=Action name),
 * the rate, and the WebSocket server's password as a secret (never in the saved settings). */
static void add_actions(obs_properties_t *props, obs_data_t *settings, const struct source_properties_parts *parts)
{
	obs_properties_t *group = obs_properties_create();
	obs_property_t *target = obs_properties_add_text(group, settings_key(CB_SETTING_INDEX_actions_target),
							 obs_module_text("ActionsTarget"), OBS_TEXT_DEFAULT);
	obs_property_set_long_description(target, obs_module_text("ActionsTarget.Description"));
	obs_property_t *rules = obs_properties_add_editable_list(group, settings_key(CB_SETTING_INDEX_actions),
								 obs_module_text("Actions"), OBS_EDITABLE_LIST_TYPE_STRINGS,
								 NULL, NULL);
	obs_property_set_long_description(rules, obs_module_text("Actions.Description"));
	obs_property_t *rate = add_int(group, CB_SETTING_INDEX_actions_per_second, "ActionsPerSecond");
	obs_property_int_set_suffix(rate, obs_module_text("ActionsPerSecond.Suffix"));
	source_secrets_add_properties(group, settings, CB_SETTING_INDEX_actions_password, parts->forget,
				      parts->forget_data);
	obs_property_t *actions = obs_properties_add_group(props, "actions_group", obs_module_text("ActionsGroup"),
							   OBS_GROUP_NORMAL, group);
	obs_property_set_long_description(actions, obs_module_text("ActionsGroup.Description"));
}

/* "OneComme templates" (issue 39): a checkable group whose checkbox is `onecomme`, a read-only
 * server on loopback that OneComme's templates read; and HTML5コメジェネ's comment.xml. */
static void add_onecomme(obs_properties_t *props)
{
	obs_properties_t *group = obs_properties_create();
	obs_property_t *port = add_int(group, CB_SETTING_INDEX_onecomme_port, "OneCommePort");
	obs_property_set_long_description(port, obs_module_text("OneCommePort.Description"));
	obs_property_t *onecomme = obs_properties_add_group(props, settings_key(CB_SETTING_INDEX_onecomme),
							    obs_module_text("OneComme"), OBS_GROUP_CHECKABLE, group);
	obs_property_set_long_description(onecomme, obs_module_text("OneComme.Description"));
	char filter[256];
	snprintf(filter, sizeof(filter), "%s (*.xml);;All files (*)", obs_module_text("CommentXMLFiles"));
	obs_property_t *xml = obs_properties_add_path(props, settings_key(CB_SETTING_INDEX_comment_xml_path),
						      obs_module_text("CommentXMLPath"), OBS_PATH_FILE_SAVE, filter, NULL);
	obs_property_set_long_description(xml, obs_module_text("CommentXMLPath.Description"));
}

obs_properties_t *source_properties_create(const struct source_properties_parts *parts)
{
	obs_source_t *source = parts->source;
	const char *status = parts->status;
	obs_properties_t *props = obs_properties_create();

	obs_property_t *service = obs_properties_add_list(props, settings_key(CB_SETTING_INDEX_service),
							  obs_module_text("Service"), OBS_COMBO_TYPE_LIST,
							  OBS_COMBO_FORMAT_STRING);
#define ADD_SERVICE(id, name) obs_property_list_add_string(service, service_name(id, name), id);
	COMMENTBAR_SERVICES(ADD_SERVICE)
#undef ADD_SERVICE
	obs_property_t *stream_id = obs_properties_add_text(props, settings_key(CB_SETTING_INDEX_stream_id),
							    obs_module_text("StreamID"), OBS_TEXT_DEFAULT);
	set_stream_id_help(stream_id);
	obs_property_t *server = obs_properties_add_text(props, settings_key(CB_SETTING_INDEX_server),
							 obs_module_text("Server"), OBS_TEXT_DEFAULT);
	obs_property_set_long_description(server, obs_module_text("Server.Description"));
	/* Never in the saved settings: whether one is saved, a field for a new one, "Forget". */
	obs_data_t *settings = source ? obs_source_get_settings(source) : NULL;
	source_secrets_add_properties(props, settings, CB_SETTING_INDEX_mirrativ_session, parts->forget,
				      parts->forget_data);
	obs_property_t *feeds = obs_properties_add_editable_list(props, settings_key(CB_SETTING_INDEX_feeds),
								 obs_module_text("Feeds"), OBS_EDITABLE_LIST_TYPE_STRINGS,
								 NULL, NULL);
	obs_property_set_long_description(feeds, obs_module_text("Feeds.Description"));
	add_filters(props);

	add_int(props, CB_SETTING_INDEX_width, "Width");
	add_int(props, CB_SETTING_INDEX_height, "Height");
	add_int(props, CB_SETTING_INDEX_max_lines, "MaxLines");
	obs_properties_add_font(props, SETTINGS_FONT_KEY, obs_module_text("Font"));
	obs_properties_add_color_alpha(props, settings_key(CB_SETTING_INDEX_text_color), obs_module_text("TextColor"));
	obs_properties_add_color(props, settings_key(CB_SETTING_INDEX_bg_color), obs_module_text("BackgroundColor"));
	add_int_slider(props, CB_SETTING_INDEX_bg_opacity, "BackgroundOpacity", "%");
	add_int_slider(props, CB_SETTING_INDEX_corner_radius, "CornerRadius", " px");
	add_look(props, source, parts->commands);

	obs_properties_add_bool(props, settings_key(CB_SETTING_INDEX_show_clock), obs_module_text("ShowClock"));
	add_clock_source(props);
	obs_properties_add_bool(props, settings_key(CB_SETTING_INDEX_show_viewers), obs_module_text("ShowViewers"));
	add_flow(props);
	obs_properties_add_bool(props, settings_key(CB_SETTING_INDEX_show_gifts), obs_module_text("ShowGifts"));
	obs_properties_add_bool(props, settings_key(CB_SETTING_INDEX_show_mic), obs_module_text("ShowMic"));
	add_mic_source(props, source);
	obs_properties_add_bool(props, settings_key(CB_SETTING_INDEX_mic_meter), obs_module_text("MicMeter"));
	obs_properties_add_bool(props, settings_key(CB_SETTING_INDEX_show_avatar), obs_module_text("ShowAvatar"));
	obs_properties_add_bool(props, settings_key(CB_SETTING_INDEX_show_badges), obs_module_text("ShowBadges"));
	obs_properties_add_bool(props, settings_key(CB_SETTING_INDEX_animate_emotes), obs_module_text("AnimateEmotes"));

	const char *images = obs_module_text("ImageFiles");
	char filter[256];
	snprintf(filter, sizeof(filter), "%s (*.png *.jpg *.jpeg *.gif *.bmp *.webp);;All files (*)", images);
	obs_properties_add_path(props, settings_key(CB_SETTING_INDEX_avatar_path), obs_module_text("AvatarImage"),
				OBS_PATH_FILE, filter, NULL);
	obs_properties_add_path(props, settings_key(CB_SETTING_INDEX_background_path), obs_module_text("BackgroundImage"),
				OBS_PATH_FILE, filter, NULL);
	add_int(props, CB_SETTING_INDEX_fps, "FPS");
	add_speech(props);
	add_overlay(props);
	add_viewer_memory(props, source);
	add_control_page(props, parts->commands);
	add_actions(props, settings, parts);
	add_onecomme(props);
	obs_data_release(settings);

	/* What the renderer is doing right now (also in the OBS log). OBS shows an
	 * info property's description when it has no value, so the status goes there. */
	struct dstr line = {0};
	dstr_printf(&line, "%s: %s", obs_module_text("RendererStatus"),
		    status && *status ? status : obs_module_text("RendererStatus.None"));
	obs_properties_add_text(props, "renderer_status", line.array, OBS_TEXT_INFO);
	dstr_free(&line);
	return props;
}
