// SPDX-License-Identifier: GPL-2.0-or-later
/* The settings table of commentbar_settings.h, shared by the OBS shim and the Swift renderer. */
#include "commentbar_settings.h"

#include <string.h>

#define CB_SETTING_ROW(name, key, type, string, number, min, max, choices) {key, type, string, number, min, max, choices},
static const struct cb_setting settings[CB_SETTING_COUNT] = {CB_SETTINGS(CB_SETTING_ROW)};
#undef CB_SETTING_ROW

const struct cb_setting *cb_setting_at(size_t index)
{
	return index < CB_SETTING_COUNT ? &settings[index] : NULL;
}

const struct cb_setting *cb_setting_find(const char *key)
{
	if (!key)
		return NULL;
	for (size_t i = 0; i < CB_SETTING_COUNT; i++)
		if (strcmp(settings[i].key, key) == 0)
			return &settings[i];
	return NULL;
}

long long cb_setting_clamp(const struct cb_setting *setting, long long value)
{
	if (!setting || setting->type != CB_SETTING_INT)
		return value;
	return value < setting->min ? setting->min : value > setting->max ? setting->max : value;
}

const char *cb_setting_choice(const struct cb_setting *setting, size_t index, size_t *length)
{
	const char *start = setting ? setting->choices : NULL;
	for (; start && index > 0; index--) {
		start = strchr(start, '|');
		start = start ? start + 1 : NULL;
	}
	if (!start)
		return NULL;
	const char *end = strchr(start, '|');
	*length = end ? (size_t)(end - start) : strlen(start);
	return start;
}

bool cb_setting_allows(const struct cb_setting *setting, const char *value)
{
	if (!setting || !setting->choices)
		return true;
	if (!value)
		return false;
	size_t length;
	const char *choice;
	for (size_t i = 0; (choice = cb_setting_choice(setting, i, &length)); i++)
		if (strlen(value) == length && strncmp(choice, value, length) == 0)
			return true;
	return false;
}
