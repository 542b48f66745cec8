// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * settings-line: the source's settings as the renderer reads them, one line for
 * its stdin, {"settings":{...}}, built from the settings table
 * (commentbar_settings.h): every key written, defaults included, integers
 * clamped, an unknown choice of a string enum replaced by its default.
 * Runs on OBS's threads (create, update); no I/O.
 */
#pragma once

#include <stdint.h>

#include <obs-data.h>

#include "commentbar_settings.h"

/* Settings rows named "font.X" are member X of OBS's font object "font". */
#define SETTINGS_FONT_KEY "font"

/* The key of a row of the settings table. */
static inline const char *settings_key(enum cb_setting_index index)
{
	return cb_setting_at(index)->key;
}

/* The object a settings row lives in: the font's members in font (NULL if
 * there is none), the others in top. *key is the key within it. */
obs_data_t *settings_row_container(obs_data_t *top, obs_data_t *font, const struct cb_setting *row, const char **key);

/* The line (ending in '\n'; bfree() it) and the clamped size it asks for. extra (may be
 * NULL) holds keys beyond the table's, added as they are (source-secrets: the id of the
 * secrets' file and which are saved). source_name (escaped for the log) names the source in
 * the line logged for an unknown choice. */
char *settings_line(obs_data_t *settings, obs_data_t *extra, const char *source_name, uint32_t *width,
		    uint32_t *height);
