// SPDX-License-Identifier: GPL-2.0-or-later
/* The bar's size, rows, font and colours: the first things a streamer sets. */
#include "property-group.h"

void properties_add_size(obs_properties_t *props, const struct property_context *context)
{
	UNUSED_PARAMETER(context);
	properties_add_int(props, CB_SETTING_INDEX_width, "Width");
	properties_add_int(props, CB_SETTING_INDEX_height, "Height");
	properties_add_int(props, CB_SETTING_INDEX_max_lines, "MaxLines");
	obs_properties_add_font(props, SETTINGS_FONT_KEY, obs_module_text("Font"));
	obs_properties_add_color_alpha(props, settings_key(CB_SETTING_INDEX_text_color), obs_module_text("TextColor"));
	obs_properties_add_color(props, settings_key(CB_SETTING_INDEX_bg_color), obs_module_text("BackgroundColor"));
	properties_add_int_slider(props, CB_SETTING_INDEX_bg_opacity, "BackgroundOpacity", "%");
	properties_add_int_slider(props, CB_SETTING_INDEX_corner_radius, "CornerRadius", " px");
}
