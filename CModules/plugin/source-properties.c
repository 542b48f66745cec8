// SPDX-License-Identifier: GPL-2.0-or-later
/* The source's defaults and properties view: see source-properties.h. Each group of the view is
 * a file of properties/ (property-group.h); here are the defaults, the helpers the groups build
 * with, and the groups' order. */
#include "source-properties.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <util/dstr.h>

#include "properties/property-group.h"

/* The groups, in the order the view shows them. */
static const property_group_fn groups[] = {
	properties_add_stream,  /* service, stream id, server, session, more streams */
	properties_add_filters, /* bots, commands, NG words, hidden viewers, highlights */
	properties_add_size,    /* size, rows, font, colours */
	properties_add_look,    /* theme, layout, rows' style, fades, the ticker */
	properties_add_bar,     /* clock, viewers, flow, gifts, mic, avatar, pictures, frame rate */
	properties_add_speech,  /* read comments aloud */
	properties_add_overlay, /* on my screen too */
	properties_add_memory,  /* viewers and chat log, the first-time sound */
	properties_add_control, /* the control page */
	properties_add_doors,   /* actions, OneComme templates, comment.xml */
};

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

obs_properties_t *source_properties_create(const struct source_properties_parts *parts)
{
	obs_properties_t *props = obs_properties_create();
	const struct property_context context = {
		.source = parts->source,
		.settings = parts->source ? obs_source_get_settings(parts->source) : NULL,
		.parts = parts,
	};
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		groups[i](props, &context);
	obs_data_release(context.settings);

	/* What the renderer is doing right now (also in the OBS log). OBS shows an
	 * info property's description when it has no value, so the status goes there. */
	struct dstr line = {0};
	dstr_printf(&line, "%s: %s", obs_module_text("RendererStatus"),
		    parts->status && *parts->status ? parts->status : obs_module_text("RendererStatus.None"));
	obs_properties_add_text(props, "renderer_status", line.array, OBS_TEXT_INFO);
	dstr_free(&line);
	return props;
}

const char *properties_localized(const char *key, const char *fallback)
{
	const char *text = NULL;
	return obs_module_get_string(key, &text) && text && *text ? text : fallback;
}

obs_property_t *properties_add_int(obs_properties_t *props, enum cb_setting_index index, const char *label_key)
{
	const struct cb_setting *row = cb_setting_at(index);
	return obs_properties_add_int(props, row->key, obs_module_text(label_key), (int)row->min, (int)row->max, 1);
}

obs_property_t *properties_add_int_slider(obs_properties_t *props, enum cb_setting_index index, const char *label_key,
					  const char *suffix)
{
	const struct cb_setting *row = cb_setting_at(index);
	obs_property_t *p =
		obs_properties_add_int_slider(props, row->key, obs_module_text(label_key), (int)row->min, (int)row->max,
					      1);
	obs_property_int_set_suffix(p, suffix);
	return p;
}

obs_property_t *properties_add_choices(obs_properties_t *props, enum cb_setting_index index, const char *label_key)
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
		obs_property_list_add_string(list, properties_localized(key, value), value);
	}
	return list;
}

/* `path` listed once, as "<label>: <its name>". */
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
void properties_list_chosen_file(obs_property_t *list, obs_source_t *source, enum cb_setting_index index,
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
bool properties_file_picked(obs_properties_t *props, obs_data_t *settings, const char *picker_key,
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

void properties_file_filter(char *filter, size_t size, const char *kind_key, const char *patterns)
{
	snprintf(filter, size, "%s (%s);;All files (*)", obs_module_text(kind_key), patterns);
}
