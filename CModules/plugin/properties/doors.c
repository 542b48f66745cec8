// SPDX-License-Identifier: GPL-2.0-or-later
/* The doors to other tools (issue 39): Streamer.bot / Cuebot actions (where DoAction goes, the
 * rules, the rate, the WebSocket password as a secret, never in the saved settings), the
 * OneComme-compatible server (a checkable group whose checkbox is `onecomme`), and HTML5コメジェネ's
 * comment.xml. */
#include "property-group.h"

#include "../source-secrets.h"

static void add_actions(obs_properties_t *props, const struct property_context *context)
{
	obs_properties_t *group = obs_properties_create();
	obs_property_t *target = obs_properties_add_text(group, settings_key(CB_SETTING_INDEX_actions_target),
							 obs_module_text("ActionsTarget"), OBS_TEXT_DEFAULT);
	obs_property_set_long_description(target, obs_module_text("ActionsTarget.Description"));
	obs_property_t *rules = obs_properties_add_editable_list(group, settings_key(CB_SETTING_INDEX_actions),
								 obs_module_text("Actions"), OBS_EDITABLE_LIST_TYPE_STRINGS,
								 NULL, NULL);
	obs_property_set_long_description(rules, obs_module_text("Actions.Description"));
	obs_property_t *rate = properties_add_int(group, CB_SETTING_INDEX_actions_per_second, "ActionsPerSecond");
	obs_property_int_set_suffix(rate, obs_module_text("ActionsPerSecond.Suffix"));
	source_secrets_add_properties(group, context->settings, CB_SETTING_INDEX_actions_password,
				      context->parts->forget, context->parts->forget_data);
	obs_property_t *actions = obs_properties_add_group(props, "actions_group", obs_module_text("ActionsGroup"),
							   OBS_GROUP_NORMAL, group);
	obs_property_set_long_description(actions, obs_module_text("ActionsGroup.Description"));
}

static void add_onecomme(obs_properties_t *props)
{
	obs_properties_t *group = obs_properties_create();
	obs_property_t *port = properties_add_int(group, CB_SETTING_INDEX_onecomme_port, "OneCommePort");
	obs_property_set_long_description(port, obs_module_text("OneCommePort.Description"));
	obs_property_t *onecomme = obs_properties_add_group(props, settings_key(CB_SETTING_INDEX_onecomme),
							    obs_module_text("OneComme"), OBS_GROUP_CHECKABLE, group);
	obs_property_set_long_description(onecomme, obs_module_text("OneComme.Description"));
}

static void add_comment_xml(obs_properties_t *props)
{
	char filter[256];
	properties_file_filter(filter, sizeof(filter), "CommentXMLFiles", "*.xml");
	obs_property_t *xml = obs_properties_add_path(props, settings_key(CB_SETTING_INDEX_comment_xml_path),
						      obs_module_text("CommentXMLPath"), OBS_PATH_FILE_SAVE, filter, NULL);
	obs_property_set_long_description(xml, obs_module_text("CommentXMLPath.Description"));
}

void properties_add_doors(obs_properties_t *props, const struct property_context *context)
{
	add_actions(props, context);
	add_onecomme(props);
	add_comment_xml(props);
}
