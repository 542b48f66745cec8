// SPDX-License-Identifier: GPL-2.0-or-later
/* overlay-input.c: the helper's stdin, parsed with jansson. */
#include "overlay-input.h"

#include <errno.h>
#include <jansson.h>
#include <string.h>
#include <unistd.h>

static int clamp(json_int_t value, int low, int high)
{
	return value < low ? low : value > high ? high : (int)value;
}

static void apply_int(json_t *object, const char *key, int low, int high, int *field, bool *changed)
{
	json_t *value = json_object_get(object, key);
	if (!json_is_integer(value))
		return;
	int next = clamp(json_integer_value(value), low, high);
	if (next != *field) {
		*field = next;
		*changed = true;
	}
}

void overlay_input_apply(const char *line, struct overlay_settings *settings, struct overlay_news *news)
{
	json_t *object = json_loads(line, JSON_REJECT_DUPLICATES, NULL);
	if (!json_is_object(object)) {
		json_decref(object);
		return;
	}
	if (json_is_integer(json_object_get(object, "frame")))
		news->frame_published = true;
	static const char *const corners[] = {"top_left", "top_right", "bottom_left", "bottom_right"};
	const char *corner = json_string_value(json_object_get(object, "corner"));
	for (size_t i = 0; corner && i < sizeof(corners) / sizeof(corners[0]); i++) {
		if (strcmp(corner, corners[i]) == 0 && settings->corner != (enum overlay_corner)i) {
			settings->corner = (enum overlay_corner)i;
			news->settings_changed = true;
		}
	}
	apply_int(object, "scale", 25, 200, &settings->scale, &news->settings_changed);
	apply_int(object, "opacity", 10, 100, &settings->opacity, &news->settings_changed);
	apply_int(object, "margin", 0, 500, &settings->margin, &news->settings_changed);
	json_decref(object);
}

bool overlay_input_read(struct overlay_input *in, int fd, struct overlay_settings *settings,
			struct overlay_news *news)
{
	char chunk[4096];
	for (;;) {
		ssize_t got = read(fd, chunk, sizeof(chunk));
		if (got == 0)
			return false;
		if (got < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
		for (ssize_t i = 0; i < got; i++) {
			char c = chunk[i];
			if (c == '\n') {
				if (!in->discarding) {
					in->line[in->length] = '\0';
					overlay_input_apply(in->line, settings, news);
				}
				in->length = 0;
				in->discarding = false;
			} else if (in->discarding) {
				continue;
			} else if (in->length + 1 >= sizeof(in->line)) {
				in->discarding = true;
				in->length = 0;
			} else {
				in->line[in->length++] = c;
			}
		}
	}
}
