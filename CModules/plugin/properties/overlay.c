// SPDX-License-Identifier: GPL-2.0-or-later
/* "On my screen too (over games)": the overlay (issue 24), a checkable group whose checkbox is
 * the `overlay` setting; the renderer shows the bar above every window while it is ticked. */
#include "property-group.h"

void properties_add_overlay(obs_properties_t *props, const struct property_context *context)
{
	UNUSED_PARAMETER(context);
	obs_properties_t *group = obs_properties_create();
	properties_add_choices(group, CB_SETTING_INDEX_overlay_corner, "OverlayCorner");
	properties_add_int_slider(group, CB_SETTING_INDEX_overlay_scale, "OverlayScale", "%");
	properties_add_int_slider(group, CB_SETTING_INDEX_overlay_opacity, "OverlayOpacity", "%");
	obs_property_int_set_suffix(properties_add_int(group, CB_SETTING_INDEX_overlay_margin, "OverlayMargin"), " px");
	obs_property_t *overlay = obs_properties_add_group(props, settings_key(CB_SETTING_INDEX_overlay),
							   obs_module_text("Overlay"), OBS_GROUP_CHECKABLE, group);
	obs_property_set_long_description(overlay, obs_module_text("Overlay.Description"));
}
