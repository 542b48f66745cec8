// SPDX-License-Identifier: GPL-2.0-or-later
/* Which chat the bar reads: the service, the stream id (its help from the renderer's registry),
 * the server, the session secret (never in the saved settings) and more streams to merge. */
#include "property-group.h"

#include <stdio.h>
#include <string.h>

#include <util/dstr.h>

#include "commentbar_services.h"
#include "../source-secrets.h"

/* A service's name as the list shows it: the locale file's "Service.<id>" when
 * translated there, else the registry's (commentbar_services.h). */
static const char *service_name(const char *id, const char *registry_name)
{
	char key[128];
	snprintf(key, sizeof(key), "Service.%s", id);
	return properties_localized(key, registry_name);
}

#ifdef COMMENTBAR_SERVICE_HELP
/* The registry's name of a service, or its id. */
static const char *registry_name(const char *id)
{
#define MATCH_SERVICE(service_id, name) \
	if (strcmp(id, service_id) == 0)  \
		return name;
	COMMENTBAR_SERVICES(MATCH_SERVICE)
#undef MATCH_SERVICE
	return id;
}

/* The Stream ID's help from the renderer's registry, a line per service, in the
 * UI's language (Japanese when OBS's locale is, else English): the help names
 * every service the list offers, a new platform included. */
static void set_stream_id_help(obs_property_t *stream_id)
{
	const char *locale = obs_get_locale();
	const bool japanese = locale && strncmp(locale, "ja", 2) == 0;
	struct dstr help = {0};
#define ADD_HELP(id, help_en, help_ja)                                                                   \
	dstr_catf(&help, "%s%s: %s", help.len ? "\n" : "", service_name(id, registry_name(id)), \
		  japanese ? help_ja : help_en);
	COMMENTBAR_SERVICE_HELP(ADD_HELP)
#undef ADD_HELP
	obs_property_set_long_description(stream_id, help.array);
	dstr_free(&help);
}
#else
/* A services header without help (an older renderer's): the locale file's text. */
static void set_stream_id_help(obs_property_t *stream_id)
{
	obs_property_set_long_description(stream_id, obs_module_text("StreamID.Description"));
}
#endif

void properties_add_stream(obs_properties_t *props, const struct property_context *context)
{
	obs_property_t *service = obs_properties_add_list(props, settings_key(CB_SETTING_INDEX_service),
							  obs_module_text("Service"), OBS_COMBO_TYPE_LIST,
							  OBS_COMBO_FORMAT_STRING);
#define ADD_SERVICE(id, name) obs_property_list_add_string(service, service_name(id, name), id);
	COMMENTBAR_SERVICES(ADD_SERVICE)
#undef ADD_SERVICE
	obs_property_t *stream_id = obs_properties_add_text(props, settings_key(CB_SETTING_INDEX_stream_id),
							    obs_module_text("StreamID"), OBS_TEXT_DEFAULT);
	set_stream_id_help(stream_id);
	obs_property_t *server = obs_properties_add_text(props, settings_key(CB_SETTING_INDEX_server),
							 obs_module_text("Server"), OBS_TEXT_DEFAULT);
	obs_property_set_long_description(server, obs_module_text("Server.Description"));
	/* Never in the saved settings: whether one is saved, a field for a new one, "Forget". */
	source_secrets_add_properties(props, context->settings, CB_SETTING_INDEX_mirrativ_session,
				      context->parts->forget, context->parts->forget_data);
	obs_property_t *feeds = obs_properties_add_editable_list(props, settings_key(CB_SETTING_INDEX_feeds),
								 obs_module_text("Feeds"), OBS_EDITABLE_LIST_TYPE_STRINGS,
								 NULL, NULL);
	obs_property_set_long_description(feeds, obs_module_text("Feeds.Description"));
}
