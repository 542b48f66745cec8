// SPDX-License-Identifier: GPL-2.0-or-later
/* The renderer's stdin: its channels and the one encoder of their lines (see renderer-input.h). */
#include "renderer-input.h"

#include <string.h>

#include <obs-data.h>
#include <util/bmem.h>

#define RENDERER_CHANNEL_KEY(name, key) key,
static const char *const channel_keys[RENDERER_CHANNEL_COUNT] = {RENDERER_CHANNELS(RENDERER_CHANNEL_KEY)};
#undef RENDERER_CHANNEL_KEY

const char *renderer_channel_key(enum renderer_channel channel)
{
	return (unsigned)channel < RENDERER_CHANNEL_COUNT ? channel_keys[channel] : "";
}

/* The wrapper's compact JSON as one line. OBS 29's obs_data_get_json is compact; a raw
 * newline could only be whitespace between tokens (inside strings it is escaped): safe
 * to flatten. */
static char *line_of(obs_data_t *wrapper)
{
	const char *json = obs_data_get_json(wrapper);
	const size_t len = json ? strlen(json) : 0;
	char *line = bmalloc(len + 2);
	memcpy(line, json ? json : "", len);
	for (size_t i = 0; i < len; i++)
		if (line[i] == '\n' || line[i] == '\r')
			line[i] = ' ';
	line[len] = '\n';
	line[len + 1] = '\0';
	return line;
}

char *renderer_input_object_line(enum renderer_channel channel, obs_data_t *value)
{
	obs_data_t *wrapper = obs_data_create();
	obs_data_set_obj(wrapper, renderer_channel_key(channel), value);
	char *line = line_of(wrapper);
	obs_data_release(wrapper);
	return line;
}

char *renderer_input_bool_line(enum renderer_channel channel, bool value)
{
	obs_data_t *wrapper = obs_data_create();
	obs_data_set_bool(wrapper, renderer_channel_key(channel), value);
	char *line = line_of(wrapper);
	obs_data_release(wrapper);
	return line;
}
