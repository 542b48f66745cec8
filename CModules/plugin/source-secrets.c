// SPDX-License-Identifier: GPL-2.0-or-later
/* A source's secrets: sent once, never saved by OBS (see source-secrets.h). */
#define _GNU_SOURCE
#include "source-secrets.h"

#include <stdio.h>
#include <sys/random.h>

#include "plugin-log.h"
#include "settings-line.h"

/* The one list of secret rows: a later secret is one more line (and its locale texts). */
static const struct secret_row {
	enum cb_setting_index index;
	const char *label; /* locale keys <label>, <label>.Set, .None, .Description, .Forget */
} secret_rows[] = {
	{CB_SETTING_INDEX_mirrativ_session, "MirrativSession"},
	{CB_SETTING_INDEX_actions_password, "ActionsPassword"},
};
#define SECRET_COUNT (sizeof(secret_rows) / sizeof(secret_rows[0]))

/* Not settings table rows: the renderer reads them beside the table's keys. */
#define ID_KEY "secrets_id"
#define ID_DIGITS 32

static const char *row_key(const struct secret_row *row)
{
	return settings_key(row->index);
}

/* "<key>_saved": the settings' flag that the renderer keeps this secret. */
static void saved_key(const struct secret_row *row, char *out, size_t size)
{
	snprintf(out, size, "%s_saved", row_key(row));
}

/* 32 lower-case hex digits: the renderer names the file by it and refuses anything else. */
static bool valid_id(const char *id)
{
	size_t length = 0;
	for (; id && id[length]; length++)
		if (!((id[length] >= '0' && id[length] <= '9') || (id[length] >= 'a' && id[length] <= 'f')))
			return false;
	return length == ID_DIGITS;
}

/* A new random id in settings; false when the kernel gave no randomness. */
static bool give_id(obs_data_t *settings)
{
	unsigned char bytes[ID_DIGITS / 2];
	if (getrandom(bytes, sizeof(bytes), 0) != (ssize_t)sizeof(bytes))
		return false;
	char id[ID_DIGITS + 1];
	for (size_t i = 0; i < sizeof(bytes); i++)
		snprintf(id + 2 * i, 3, "%02x", bytes[i]);
	obs_data_set_string(settings, ID_KEY, id);
	return true;
}

char *source_secrets_settings_line(obs_data_t *settings, const char *source_name, uint32_t *width,
				   uint32_t *height)
{
	obs_data_t *keys = obs_data_create(); /* what the line says beside the table's rows */
	bool has_id = valid_id(obs_data_get_string(settings, ID_KEY));
	for (size_t i = 0; i < SECRET_COUNT; i++) {
		char saved[128];
		saved_key(&secret_rows[i], saved, sizeof(saved));
		const char *value = obs_data_get_string(settings, row_key(&secret_rows[i]));
		if (value && *value) {
			has_id = has_id || give_id(settings);
			obs_data_set_bool(settings, saved, has_id);
			if (!has_id)
				source_log(LOG_WARNING, source_name,
					   "no random id to name its file: the renderer gets the secret once and cannot keep it");
		}
		if (obs_data_get_bool(settings, saved))
			obs_data_set_bool(keys, saved, true);
	}
	if (has_id)
		obs_data_set_string(keys, ID_KEY, obs_data_get_string(settings, ID_KEY));
	char *line = settings_line(settings, keys, source_name, width, height);
	obs_data_release(keys);
	/* Sent once, in this line; an empty field (a properties view opened again) changes nothing. */
	for (size_t i = 0; i < SECRET_COUNT; i++)
		obs_data_erase(settings, row_key(&secret_rows[i]));
	return line;
}

void source_secrets_forget(obs_data_t *settings)
{
	for (size_t i = 0; i < SECRET_COUNT; i++) {
		char saved[128];
		saved_key(&secret_rows[i], saved, sizeof(saved));
		obs_data_erase(settings, saved);
	}
}

static const char *text(const struct secret_row *row, const char *suffix)
{
	char key[128];
	snprintf(key, sizeof(key), "%s%s", row->label, suffix);
	return obs_module_text(key);
}

void source_secrets_add_properties(obs_properties_t *props, obs_data_t *settings, enum cb_setting_index index,
				   obs_property_clicked_t forget, void *data)
{
	for (size_t i = 0; i < SECRET_COUNT; i++) {
		const struct secret_row *row = &secret_rows[i];
		if (row->index != index)
			continue;
		char name[128];
		saved_key(row, name, sizeof(name));
		const bool saved = settings && obs_data_get_bool(settings, name);
		snprintf(name, sizeof(name), "%s_state", row_key(row));
		/* OBS shows an info property's description when it has no value. */
		obs_properties_add_text(props, name, text(row, saved ? ".Set" : ".None"), OBS_TEXT_INFO);
		obs_property_t *field = obs_properties_add_text(props, row_key(row), text(row, ""), OBS_TEXT_PASSWORD);
		obs_property_set_long_description(field, text(row, ".Description"));
		snprintf(name, sizeof(name), "%s_forget", row_key(row));
		obs_property_t *button = obs_properties_add_button2(props, name, text(row, ".Forget"), forget, data);
		obs_property_set_enabled(button, saved);
	}
}
