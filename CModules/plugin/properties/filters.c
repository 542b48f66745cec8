// SPDX-License-Identifier: GPL-2.0-or-later
/* Filters and highlights, in a group of their own: bots, commands, NG words, hidden viewers,
 * highlighted names and first-time viewers. */
#include "property-group.h"

static void add_list(obs_properties_t *group, enum cb_setting_index index, const char *label_key)
{
	obs_properties_add_editable_list(group, settings_key(index), obs_module_text(label_key),
					 OBS_EDITABLE_LIST_TYPE_STRINGS, NULL, NULL);
}

void properties_add_filters(obs_properties_t *props, const struct property_context *context)
{
	UNUSED_PARAMETER(context);
	obs_properties_t *group = obs_properties_create();
	obs_properties_add_bool(group, settings_key(CB_SETTING_INDEX_hide_bots), obs_module_text("HideBots"));
	add_list(group, CB_SETTING_INDEX_bot_names, "BotNames");
	obs_properties_add_bool(group, settings_key(CB_SETTING_INDEX_hide_commands), obs_module_text("HideCommands"));
	obs_properties_add_bool(group, settings_key(CB_SETTING_INDEX_hide_audience_words),
				obs_module_text("HideAudienceWords"));
	add_list(group, CB_SETTING_INDEX_ng_words, "NGWords");
	properties_add_choices(group, CB_SETTING_INDEX_ng_mode, "NGMode");
	add_list(group, CB_SETTING_INDEX_hidden_users, "HiddenUsers");
	add_list(group, CB_SETTING_INDEX_highlight_names, "HighlightNames");
	obs_properties_add_bool(group, settings_key(CB_SETTING_INDEX_highlight_first), obs_module_text("HighlightFirst"));
	obs_properties_add_group(props, "filters", obs_module_text("Filters"), OBS_GROUP_NORMAL, group);
}
