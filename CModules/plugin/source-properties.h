// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source-properties: the Comment Bar source's defaults and its properties view,
 * built from the settings table (commentbar_settings.h: keys, ranges, the
 * choices of string enums) and the renderer's service registry
 * (commentbar_services.h). OBS's UI thread calls these; they never wait.
 */
#pragma once

#include <obs-module.h>

#include "source-commands.h"

/* The settings table's defaults, the font's members in the "font" object. */
void source_properties_defaults(obs_data_t *settings);

/* What the properties view shows of one source; everything is NULL when OBS asks for
 * the type's view (no current mic or sound file to keep listed, no secret saved). */
struct source_properties_parts {
	obs_source_t *source;
	const char *status; /* what the renderer is doing, "" when nothing is known */
	obs_property_clicked_t forget; /* the secrets' "Forget" button */
	void *forget_data;
	struct source_commands *commands; /* the "Open control page" button */
};

obs_properties_t *source_properties_create(const struct source_properties_parts *parts);
