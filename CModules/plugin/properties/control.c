// SPDX-License-Identifier: GPL-2.0-or-later
/* "Control page" (issue 30): a checkable group whose checkbox is `control`: the port, how long a
 * pin holds, and the "Open control page" button. */
#include "property-group.h"

void properties_add_control(obs_properties_t *props, const struct property_context *context)
{
	obs_properties_t *group = obs_properties_create();
	properties_add_int(group, CB_SETTING_INDEX_control_port, "ControlPort");
	obs_property_t *pin = properties_add_int(group, CB_SETTING_INDEX_pin_seconds, "PinSeconds");
	obs_property_int_set_suffix(pin, " s");
	obs_property_set_long_description(pin, obs_module_text("PinSeconds.Description"));
	source_commands_add_open_control(group, context->parts->commands);
	obs_property_t *control = obs_properties_add_group(props, settings_key(CB_SETTING_INDEX_control),
							   obs_module_text("Control"), OBS_GROUP_CHECKABLE, group);
	obs_property_set_long_description(control, obs_module_text("Control.Description"));
}
