// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Comment Bar source's settings: the one table of their keys, types,
 * defaults and ranges. The OBS shim takes its defaults, its properties' ranges
 * and its clamps from it; the Swift renderer (BarSettings) takes its defaults
 * and clamps from it through cb_setting_find().
 *
 * Keys are the keys OBS stores. The font is OBS's font object; its members
 * have their own rows, named "font.face", "font.size", ...
 * Colours are OBS's 0xAABBGGRR integers.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* X(name, key, type, default string, default number, min, max, choices)
 * STRING rows use the default string; INT, COLOR and BOOL rows the default number
 * (BOOL: 0 or 1). INT rows are clamped to [min, max]; the others ignore them.
 * LIST rows are OBS editable lists (an array of {"value": string}), empty by default.
 * choices: NULL, or for a STRING row that names one of a fixed set (an enum), every
 * value it may take, '|'-separated ("mask|hide"); the default is one of them. Both
 * sides read an unknown value as the default and log it once. The properties list
 * them in this order, labelled by the locale key "<Label>.<Value>" with the value's
 * first letter upper-cased ("NGMode.Mask"). */
#define CB_SETTINGS(X)                                                                                 \
	X(service, "service", CB_SETTING_STRING, "demo", 0, 0, 0, NULL)                                \
	X(stream_id, "stream_id", CB_SETTING_STRING, "", 0, 0, 0, NULL)                                \
	X(server, "server", CB_SETTING_STRING, "", 0, 0, 0, NULL)                                      \
	X(mirrativ_session, "mirrativ_session", CB_SETTING_STRING, "", 0, 0, 0, NULL)                  \
	X(feeds, "feeds", CB_SETTING_LIST, NULL, 0, 0, 0, NULL)                                        \
	X(hide_bots, "hide_bots", CB_SETTING_BOOL, NULL, 1, 0, 0, NULL)                                \
	X(bot_names, "bot_names", CB_SETTING_LIST, NULL, 0, 0, 0, NULL)                                \
	X(hide_commands, "hide_commands", CB_SETTING_BOOL, NULL, 1, 0, 0, NULL)                        \
	X(hide_audience_words, "hide_audience_words", CB_SETTING_BOOL, NULL, 1, 0, 0, NULL)            \
	X(ng_words, "ng_words", CB_SETTING_LIST, NULL, 0, 0, 0, NULL)                                  \
	X(ng_mode, "ng_mode", CB_SETTING_STRING, "mask", 0, 0, 0, "mask|hide")                         \
	X(hidden_users, "hidden_users", CB_SETTING_LIST, NULL, 0, 0, 0, NULL)                          \
	X(highlight_names, "highlight_names", CB_SETTING_LIST, NULL, 0, 0, 0, NULL)                    \
	X(highlight_first, "highlight_first", CB_SETTING_BOOL, NULL, 1, 0, 0, NULL)                    \
	X(width, "width", CB_SETTING_INT, NULL, 1280, 64, 3840, NULL)                                  \
	X(height, "height", CB_SETTING_INT, NULL, 360, 64, 3840, NULL)                                 \
	X(max_lines, "max_lines", CB_SETTING_INT, NULL, 6, 1, 50, NULL)                                \
	X(font_face, "font.face", CB_SETTING_STRING, "Noto Sans CJK JP", 0, 0, 0, NULL)                \
	X(font_style, "font.style", CB_SETTING_STRING, "Regular", 0, 0, 0, NULL)                       \
	X(font_size, "font.size", CB_SETTING_INT, NULL, 26, 8, 200, NULL)                              \
	X(font_flags, "font.flags", CB_SETTING_INT, NULL, 0, 0, 15, NULL)                              \
	X(text_color, "text_color", CB_SETTING_COLOR, NULL, 0xFFFFFFFFll, 0, 0, NULL)                  \
	X(bg_color, "bg_color", CB_SETTING_COLOR, NULL, 0xFF1E1414ll, 0, 0, NULL)                      \
	X(bg_opacity, "bg_opacity", CB_SETTING_INT, NULL, 78, 0, 100, NULL)                            \
	X(corner_radius, "corner_radius", CB_SETTING_INT, NULL, 20, 0, 200, NULL)                      \
	X(theme, "theme", CB_SETTING_STRING, "mirrativ", 0, 0, 0, NULL)                                \
	X(layout, "layout", CB_SETTING_STRING, "bar", 0, 0, 0, "bar|box|ticker")                       \
	X(newest, "newest", CB_SETTING_STRING, "bottom", 0, 0, 0, "bottom|top")                        \
	X(text_outline, "text_outline", CB_SETTING_INT, NULL, 0, 0, 8, NULL)                           \
	X(text_shadow, "text_shadow", CB_SETTING_BOOL, NULL, 0, 0, 0, NULL)                            \
	X(outline_color, "outline_color", CB_SETTING_COLOR, NULL, 0xFF000000ll, 0, 0, NULL)            \
	X(row_style, "row_style", CB_SETTING_STRING, "plain", 0, 0, 0, "plain|bubble")                 \
	X(fade_after, "fade_after", CB_SETTING_INT, NULL, 0, 0, 3600, NULL)                            \
	X(enter, "enter", CB_SETTING_STRING, "none", 0, 0, 0, "none|slide|fade")                       \
	X(name_colors, "name_colors", CB_SETTING_STRING, "viewer", 0, 0, 0, "viewer|platform|role")    \
	X(ticker_speed, "ticker_speed", CB_SETTING_INT, NULL, 120, 20, 1000, NULL)                     \
	X(show_clock, "show_clock", CB_SETTING_BOOL, NULL, 1, 0, 0, NULL)                              \
	X(show_viewers, "show_viewers", CB_SETTING_BOOL, NULL, 1, 0, 0, NULL)                          \
	X(show_gifts, "show_gifts", CB_SETTING_BOOL, NULL, 1, 0, 0, NULL)                              \
	X(show_mic, "show_mic", CB_SETTING_BOOL, NULL, 1, 0, 0, NULL)                                  \
	X(clock_source, "clock_source", CB_SETTING_STRING, "auto", 0, 0, 0, "auto|streaming|recording|feed|off") \
	X(mic_source, "mic_source", CB_SETTING_STRING, "", 0, 0, 0, NULL)                              \
	X(mic_meter, "mic_meter", CB_SETTING_BOOL, NULL, 0, 0, 0, NULL)                                \
	X(show_avatar, "show_avatar", CB_SETTING_BOOL, NULL, 1, 0, 0, NULL)                            \
	X(show_badges, "show_badges", CB_SETTING_BOOL, NULL, 1, 0, 0, NULL)                            \
	X(animate_emotes, "animate_emotes", CB_SETTING_BOOL, NULL, 1, 0, 0, NULL)                      \
	X(avatar_path, "avatar_path", CB_SETTING_STRING, "", 0, 0, 0, NULL)                            \
	X(background_path, "background_path", CB_SETTING_STRING, "", 0, 0, 0, NULL)                    \
	X(fps, "fps", CB_SETTING_INT, NULL, 30, 1, 60, NULL)                                           \
	X(pace_bursts, "pace_bursts", CB_SETTING_BOOL, NULL, 1, 0, 0, NULL)                            \
	X(delay_seconds, "delay_seconds", CB_SETTING_INT, NULL, 0, 0, 30, NULL)                        \
	X(viewers_mode, "viewers_mode", CB_SETTING_STRING, "sum", 0, 0, 0, "sum|each")                    \
	X(overlay, "overlay", CB_SETTING_BOOL, NULL, 0, 0, 0, NULL)                                    \
	X(overlay_corner, "overlay_corner", CB_SETTING_STRING, "bottom_right", 0, 0, 0,                  \
	  "top_left|top_right|bottom_left|bottom_right")                                               \
	X(overlay_scale, "overlay_scale", CB_SETTING_INT, NULL, 50, 25, 200, NULL)                     \
	X(overlay_opacity, "overlay_opacity", CB_SETTING_INT, NULL, 90, 10, 100, NULL)                 \
	X(overlay_margin, "overlay_margin", CB_SETTING_INT, NULL, 24, 0, 500, NULL)                             \
	X(speech, "speech", CB_SETTING_BOOL, NULL, 0, 0, 0, NULL)                                                           \
	X(speech_engine, "speech_engine", CB_SETTING_STRING, "auto", 0, 0, 0, "auto|espeak|openjtalk|voicevox|bouyomichan") \
	X(speech_voice, "speech_voice", CB_SETTING_STRING, "", 0, 0, 0, NULL)                                               \
	X(speech_voices, "speech_voices", CB_SETTING_STRING, "one", 0, 0, 0, "one|per_viewer|per_platform")                 \
	X(speech_server, "speech_server", CB_SETTING_STRING, "", 0, 0, 0, NULL)                                             \
	X(speech_names, "speech_names", CB_SETTING_BOOL, NULL, 1, 0, 0, NULL)                                               \
	X(speech_max_chars, "speech_max_chars", CB_SETTING_INT, NULL, 80, 10, 1000, NULL)                                   \
	X(speech_rate, "speech_rate", CB_SETTING_INT, NULL, 100, 50, 300, NULL)                                             \
	X(speech_volume, "speech_volume", CB_SETTING_INT, NULL, 100, 0, 100, NULL)                                          \
	X(speech_max_delay, "speech_max_delay", CB_SETTING_INT, NULL, 10, 2, 120, NULL)                                    \
	X(remember, "remember", CB_SETTING_BOOL, NULL, 1, 0, 0, NULL)                                                       \
	X(log_path, "log_path", CB_SETTING_STRING, "", 0, 0, 0, NULL)                                                       \
	X(log_keep_days, "log_keep_days", CB_SETTING_INT, NULL, 365, 0, 36500, NULL)                                        \
	X(log_max_mb, "log_max_mb", CB_SETTING_INT, NULL, 2048, 0, 1048576, NULL)                                           \
	X(first_time_label, "first_time_label", CB_SETTING_STRING, "", 0, 0, 0, NULL)                                       \
	X(welcome_back_days, "welcome_back_days", CB_SETTING_INT, NULL, 30, 0, 3650, NULL)                                  \
	X(first_time_sound, "first_time_sound", CB_SETTING_STRING, "off", 0, 0, 0, NULL)                                     \
	X(nicknames_from_chat, "nicknames_from_chat", CB_SETTING_BOOL, NULL, 1, 0, 0, NULL)                                 \
	X(show_counts, "show_counts", CB_SETTING_BOOL, NULL, 0, 0, 0, NULL)                                                 \
	X(control, "control", CB_SETTING_BOOL, NULL, 0, 0, 0, NULL)                                                         \
	X(control_port, "control_port", CB_SETTING_INT, NULL, 11190, 1024, 65535, NULL)                                     \
	X(actions_target, "actions_target", CB_SETTING_STRING, "", 0, 0, 0, NULL)                                          \
	X(actions, "actions", CB_SETTING_LIST, NULL, 0, 0, 0, NULL)                                                         \
	X(actions_password, "actions_password", CB_SETTING_STRING, "", 0, 0, 0, NULL)                                      \
	X(actions_per_second, "actions_per_second", CB_SETTING_INT, NULL, 5, 1, 100, NULL)                                  \
	X(onecomme, "onecomme", CB_SETTING_BOOL, NULL, 0, 0, 0, NULL)                                                       \
	X(onecomme_port, "onecomme_port", CB_SETTING_INT, NULL, 11180, 1024, 65535, NULL)                                   \
	X(comment_xml_path, "comment_xml_path", CB_SETTING_STRING, "", 0, 0, 0, NULL)                                      \
	X(pin_seconds, "pin_seconds", CB_SETTING_INT, NULL, 0, 0, 86400, NULL)

/* The built-in themes (the `theme` setting: one of these, or the path of a theme file), in the
 * order the properties list them; the first is the default look. The renderer's themes are
 * checked against this list (ThemeTests). */
#define CB_BUILTIN_THEMES "mirrativ|light|box-outline|ticker"

enum cb_setting_type {
	CB_SETTING_STRING,
	CB_SETTING_INT,
	CB_SETTING_COLOR,
	CB_SETTING_BOOL,
	CB_SETTING_LIST,
};

struct cb_setting {
	const char *key;
	enum cb_setting_type type;
	const char *default_string;
	long long default_number;
	long long min;
	long long max;
	const char *choices; /* NULL, or "a|b|c": see CB_SETTINGS */
};

/* Indexes into the table, in table order: CB_SETTING_INDEX_width, ... */
#define CB_SETTING_INDEX_ENTRY(name, key, type, string, number, min, max, choices) CB_SETTING_INDEX_##name,
enum cb_setting_index { CB_SETTINGS(CB_SETTING_INDEX_ENTRY) CB_SETTING_COUNT };
#undef CB_SETTING_INDEX_ENTRY

/* The row at index (< CB_SETTING_COUNT), or NULL. */
const struct cb_setting *cb_setting_at(size_t index);
/* The row with this key, or NULL. */
const struct cb_setting *cb_setting_find(const char *key);
/* value clamped to the row's range (INT rows; others return value). */
long long cb_setting_clamp(const struct cb_setting *setting, long long value);
/* Whether value is one the row may take: any value when the row has no choices. */
bool cb_setting_allows(const struct cb_setting *setting, const char *value);
/* The row's choice at index: its start in setting->choices and its length in *length;
 * NULL past the last one (or when the row has none). */
const char *cb_setting_choice(const struct cb_setting *setting, size_t index, size_t *length);
