// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One group of the source's properties view per file (properties/<group>.c), and the helpers
 * every group builds with (source-properties.c): each group adds its properties in the order
 * OBS shows them; source_properties_create calls the groups in the order of its table.
 */
#pragma once

#include <obs-module.h>

#include "commentbar_settings.h"
#include "../settings-line.h"
#include "../source-properties.h"

/* What a group may read while it builds: the source (NULL for the type's view), its settings
 * (NULL then too), and the parts the view was asked with. */
struct property_context {
	obs_source_t *source;
	obs_data_t *settings;
	const struct source_properties_parts *parts;
};

typedef void (*property_group_fn)(obs_properties_t *props, const struct property_context *context);

/* The groups, in the order the view shows them (source-properties.c's table). */
void properties_add_stream(obs_properties_t *props, const struct property_context *context);
void properties_add_filters(obs_properties_t *props, const struct property_context *context);
void properties_add_size(obs_properties_t *props, const struct property_context *context);
void properties_add_look(obs_properties_t *props, const struct property_context *context);
void properties_add_bar(obs_properties_t *props, const struct property_context *context);
void properties_add_speech(obs_properties_t *props, const struct property_context *context);
void properties_add_overlay(obs_properties_t *props, const struct property_context *context);
void properties_add_memory(obs_properties_t *props, const struct property_context *context);
void properties_add_control(obs_properties_t *props, const struct property_context *context);
void properties_add_doors(obs_properties_t *props, const struct property_context *context);

/* The locale file's text for key, else fallback (obs_module_text would show the key). */
const char *properties_localized(const char *key, const char *fallback);

/* A number of the settings table: its range from the table, as a field or a slider with a suffix. */
obs_property_t *properties_add_int(obs_properties_t *props, enum cb_setting_index index, const char *label_key);
obs_property_t *properties_add_int_slider(obs_properties_t *props, enum cb_setting_index index, const char *label_key,
					  const char *suffix);

/* A string enum of the settings table: its choices in the table's order, each labelled by the
 * locale's "<label_key>.<Value>" (the value's first letter upper-cased: "NGMode.Mask"), or by the
 * value itself when the locale has none. */
obs_property_t *properties_add_choices(obs_properties_t *props, enum cb_setting_index index, const char *label_key);

/* A setting that names a choice or a file, shown by two properties: its list (the file the setting
 * names listed too, as "<label>: <its name>") and a picker whose file becomes the setting and is
 * listed at once. The first-time sound and the theme are such settings. */
void properties_list_chosen_file(obs_property_t *list, obs_source_t *source, enum cb_setting_index index,
				 const char *label_key);
bool properties_file_picked(obs_properties_t *props, obs_data_t *settings, const char *picker_key,
			    enum cb_setting_index index, const char *label_key);

/* A file dialog's filter: the locale's name for the kind of file, its patterns, then all files. */
void properties_file_filter(char *filter, size_t size, const char *kind_key, const char *patterns);
