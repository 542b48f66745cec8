/*
 * The Comment Bar source: a synchronous video source that shows the frames
 * `commentbar serve` publishes in the shared-memory pool.
 *
 * Threads (as in obs-text-pthread, registration and properties stay apart from
 * the worker): OBS's threads run the callbacks below and never wait on I/O;
 * the renderer-supervisor thread owns the child process.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <obs-module.h>

#include "bar-live-state.h"
#include "comment-bar-source.h"
#include "commentbar_services.h"
#include "commentbar_settings.h"
#include "frame-pool.h"
#include "plugin-log.h"
#include "renderer-supervisor.h"
#include "safe-text.h"
#include "speech-audio.h"
#include "speech-hotkeys.h"
#include "speech-properties.h"

#define SOURCE_ID "comment_bar_source"
#define RENDERER_NAME "commentbar"
#define RENDERER_ENV "COMMENTBAR_RENDERER"
/* The .deb's private folder for the renderer: nothing of ours in $PATH. */
#ifndef RENDERER_LIBEXEC_DIR
#define RENDERER_LIBEXEC_DIR "/usr/libexec/comment-bar"
#endif
/* Settings rows named "font.X" are member X of OBS's font object "font". */
#define FONT_KEY "font"
#define FONT_ROW_PREFIX "font."
/* A supervisor needs at most 0.5 s (exit grace) + 2 s (reaping after SIGKILL). */
#define UNLOAD_WAIT_MS 5000

static char *renderer_path;
/* Why no usable renderer was found ("" when one was), for the log and the properties. */
static char renderer_problem[768];

struct comment_bar_source {
	obs_source_t *source;
	struct renderer_supervisor *supervisor;
	struct bar_live_state *live; /* OBS's streaming, recording and mic state for the renderer */
	struct speech_audio *audio;     /* the reading's PCM from the pool's ring to OBS */
	struct speech_hotkeys *hotkeys; /* "Skip reading", "Pause reading" */
	/* Written by update, read by get_width/get_height on the graphics thread. */
	atomic_uint width;
	atomic_uint height;

	/* Graphics thread only (video_tick, video_render, destroy). */
	struct frame_pool *pool;
	gs_texture_t *texture;
	uint32_t texture_width;
	uint32_t texture_height;
};

/* The key of a row of the settings table. */
static const char *key_of(enum cb_setting_index index)
{
	return cb_setting_at(index)->key;
}

/* The object a settings row lives in: the font's members in the font object
 * (NULL if there is none), the others at the top. *key is the key within it. */
static obs_data_t *row_container(obs_data_t *top, obs_data_t *font, const struct cb_setting *row, const char **key)
{
	if (strncmp(row->key, FONT_ROW_PREFIX, strlen(FONT_ROW_PREFIX)) == 0) {
		*key = row->key + strlen(FONT_ROW_PREFIX);
		return font;
	}
	*key = row->key;
	return top;
}

/* An editable list, as the renderer reads it: [{"value": …}, …], the entries'
 * other keys (selected, hidden) left out; empty when missing. */
static void copy_list(obs_data_t *out, const char *key, obs_data_t *in)
{
	obs_data_array_t *items = in ? obs_data_get_array(in, key) : NULL;
	obs_data_array_t *values = obs_data_array_create();
	const size_t count = items ? obs_data_array_count(items) : 0;
	for (size_t i = 0; i < count; i++) {
		obs_data_t *item = obs_data_array_item(items, i);
		const char *value = obs_data_get_string(item, "value");
		if (value && *value) {
			obs_data_t *entry = obs_data_create();
			obs_data_set_string(entry, "value", value);
			obs_data_array_push_back(values, entry);
			obs_data_release(entry);
		}
		obs_data_release(item);
	}
	obs_data_set_array(out, key, values);
	obs_data_array_release(values);
	obs_data_array_release(items);
}

/* One row's value from the source's settings into out, as the renderer must
 * get it: strings with a default never empty, integers clamped to the row's
 * range, a value missing altogether as the row's default. */
static void copy_setting(obs_data_t *out, const char *key, obs_data_t *in, const struct cb_setting *row)
{
	const bool present = in && (obs_data_has_user_value(in, key) || obs_data_has_default_value(in, key));
	switch (row->type) {
	case CB_SETTING_STRING: {
		const char *value = present ? obs_data_get_string(in, key) : NULL;
		obs_data_set_string(out, key, value && *value ? value : row->default_string);
		break;
	}
	case CB_SETTING_INT:
		obs_data_set_int(out, key,
				 cb_setting_clamp(row, present ? obs_data_get_int(in, key) : row->default_number));
		break;
	case CB_SETTING_COLOR: /* OBS colours are 0xAABBGGRR; any value is a colour */
		obs_data_set_int(out, key, present ? obs_data_get_int(in, key) : row->default_number);
		break;
	case CB_SETTING_BOOL:
		obs_data_set_bool(out, key, present ? obs_data_get_bool(in, key) : row->default_number != 0);
		break;
	case CB_SETTING_LIST:
		copy_list(out, key, in);
		break;
	}
}

/*
 * One line for the renderer's stdin: {"settings":{...}}. Every key of the
 * settings table is written, defaults included (obs_data_get_json leaves
 * defaults out). width and height are the clamped size.
 */
static char *settings_line(obs_data_t *settings, uint32_t *width, uint32_t *height)
{
	obs_data_t *out = obs_data_create();
	obs_data_t *font_out = obs_data_create();
	obs_data_t *font_in = obs_data_get_obj(settings, FONT_KEY);
	for (size_t i = 0; i < CB_SETTING_COUNT; i++) {
		const struct cb_setting *row = cb_setting_at(i);
		const char *key;
		obs_data_t *in = row_container(settings, font_in, row, &key);
		copy_setting(row_container(out, font_out, row, &key), key, in, row);
	}
	obs_data_set_obj(out, FONT_KEY, font_out);
	obs_data_release(font_out);
	obs_data_release(font_in);
	*width = (uint32_t)obs_data_get_int(out, cb_setting_at(CB_SETTING_INDEX_width)->key);
	*height = (uint32_t)obs_data_get_int(out, cb_setting_at(CB_SETTING_INDEX_height)->key);

	obs_data_t *wrapper = obs_data_create();
	obs_data_set_obj(wrapper, "settings", out);
	char *line = renderer_supervisor_json_line(wrapper);
	obs_data_release(wrapper);
	obs_data_release(out);
	return line;
}

static const char *cb_get_name(void *type_data)
{
	UNUSED_PARAMETER(type_data);
	return obs_module_text("CommentBar");
}

/* The mic the badge shows and whether to meter it: the shim watches them, not the renderer. */
static void configure_live_state(struct comment_bar_source *s, obs_data_t *settings)
{
	bar_live_state_configure(s->live, obs_data_get_string(settings, key_of(CB_SETTING_INDEX_mic_source)),
				 obs_data_get_bool(settings, key_of(CB_SETTING_INDEX_mic_meter)));
}

/* The mic the settings name was renamed: the setting follows it, so the properties show it. */
static void mic_renamed(void *data, const char *new_name)
{
	struct comment_bar_source *s = data;
	obs_data_t *settings = obs_source_get_settings(s->source);
	obs_data_set_string(settings, key_of(CB_SETTING_INDEX_mic_source), new_name);
	obs_data_release(settings);
}

static void cb_update(void *data, obs_data_t *settings)
{
	struct comment_bar_source *s = data;
	uint32_t width, height;
	char *line = settings_line(settings, &width, &height);
	/* Settings too long to send change nothing, the size included. */
	if (renderer_supervisor_set_settings(s->supervisor, line, width, height)) {
		atomic_store(&s->width, width);
		atomic_store(&s->height, height);
	}
	bfree(line);
	configure_live_state(s, settings);
}

static void *cb_create(obs_data_t *settings, obs_source_t *source)
{
	struct comment_bar_source *s = bzalloc(sizeof(*s));
	s->source = source;
	uint32_t width, height;
	char *line = settings_line(settings, &width, &height);
	atomic_init(&s->width, width);
	atomic_init(&s->height, height);
	/* Not shown anywhere yet: OBS calls show when it is. */
	s->supervisor = renderer_supervisor_start(obs_source_get_name(source), renderer_path, width, height, line, false);
	bfree(line);
	if (!s->supervisor) {
		bfree(s);
		return NULL;
	}
	s->live = bar_live_state_create(obs_source_get_name(source), s->supervisor, mic_renamed, s);
	char name[128];
	safe_text_escape_string(name, sizeof(name), obs_source_get_name(source));
	s->audio = speech_audio_start(source, name);
	s->hotkeys = speech_hotkeys_register(source, s->supervisor);
	configure_live_state(s, settings);
	return s;
}

/* May run on the graphics thread (OBS 29 releases sources in tick_sources):
 * never waits. The supervisor stops the renderer on its own thread. */
static void cb_destroy(void *data)
{
	struct comment_bar_source *s = data;
	/* First: its callbacks hand lines to the supervisor. */
	bar_live_state_destroy(s->live);
	speech_hotkeys_unregister(s->hotkeys);
	speech_audio_stop(s->audio);
	renderer_supervisor_stop(s->supervisor);
	frame_pool_unref(s->pool);
	if (s->texture) {
		obs_enter_graphics();
		gs_texture_destroy(s->texture);
		obs_leave_graphics();
	}
	bfree(s);
}

static void cb_show(void *data)
{
	struct comment_bar_source *s = data;
	renderer_supervisor_set_active(s->supervisor, true);
}

static void cb_hide(void *data)
{
	struct comment_bar_source *s = data;
	renderer_supervisor_set_active(s->supervisor, false);
}

static uint32_t cb_get_width(void *data)
{
	struct comment_bar_source *s = data;
	return atomic_load(&s->width);
}

static uint32_t cb_get_height(void *data)
{
	struct comment_bar_source *s = data;
	return atomic_load(&s->height);
}

/* Runs on the graphics thread but outside the graphics context; never waits. */
static void cb_video_tick(void *data, float seconds)
{
	UNUSED_PARAMETER(seconds);
	struct comment_bar_source *s = data;
	bar_live_state_tick(s->live);
	if (renderer_supervisor_adopt_pool(s->supervisor, &s->pool))
		speech_audio_set_pool(s->audio, s->pool);
	if (!s->pool)
		return;

	const uint8_t *pixels;
	uint64_t sequence;
	if (!frame_pool_take_fresh(s->pool, &pixels, &sequence))
		return; /* nothing new: no upload, the texture keeps the last frame */

	obs_enter_graphics();
	if (!s->texture || s->texture_width != s->pool->width || s->texture_height != s->pool->height) {
		if (s->texture)
			gs_texture_destroy(s->texture);
		s->texture = gs_texture_create(s->pool->width, s->pool->height, GS_BGRA, 1, NULL, GS_DYNAMIC);
		s->texture_width = s->texture ? s->pool->width : 0;
		s->texture_height = s->texture ? s->pool->height : 0;
	}
	if (s->texture)
		gs_texture_set_image(s->texture, pixels, s->pool->stride, false);
	obs_leave_graphics();
}

/*
 * The pixels are Cairo's: premultiplied, sRGB-encoded. They are blended as they
 * are (framebuffer sRGB off, plain sampling), the same arithmetic Cairo uses,
 * so opaque pixels reach the canvas exactly as the renderer drew them.
 */
static void cb_video_render(void *data, gs_effect_t *unused)
{
	UNUSED_PARAMETER(unused);
	struct comment_bar_source *s = data;
	if (!s->texture)
		return;

	gs_effect_t *effect = obs_get_base_effect(OBS_EFFECT_DEFAULT);
	const bool previous_srgb = gs_framebuffer_srgb_enabled();
	gs_enable_framebuffer_srgb(false);
	gs_blend_state_push();
	gs_blend_function(GS_BLEND_ONE, GS_BLEND_INVSRCALPHA);
	gs_effect_set_texture(gs_effect_get_param_by_name(effect, "image"), s->texture);
	while (gs_effect_loop(effect, "Draw"))
		gs_draw_sprite(s->texture, 0, s->texture_width, s->texture_height);
	gs_blend_state_pop();
	gs_enable_framebuffer_srgb(previous_srgb);
}

static void cb_get_defaults(obs_data_t *settings)
{
	obs_data_t *font = obs_data_create();
	for (size_t i = 0; i < CB_SETTING_COUNT; i++) {
		const struct cb_setting *row = cb_setting_at(i);
		const char *key;
		obs_data_t *target = row_container(settings, font, row, &key);
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
	obs_data_set_default_obj(settings, FONT_KEY, font);
	obs_data_release(font);
}

static obs_property_t *add_int(obs_properties_t *props, enum cb_setting_index index, const char *label_key)
{
	const struct cb_setting *row = cb_setting_at(index);
	return obs_properties_add_int(props, row->key, obs_module_text(label_key), (int)row->min, (int)row->max, 1);
}

static obs_property_t *add_int_slider(obs_properties_t *props, enum cb_setting_index index, const char *label_key,
				      const char *suffix)
{
	const struct cb_setting *row = cb_setting_at(index);
	obs_property_t *p =
		obs_properties_add_int_slider(props, row->key, obs_module_text(label_key), (int)row->min, (int)row->max,
					      1);
	obs_property_int_set_suffix(p, suffix);
	return p;
}

/* A service of the renderer's registry (commentbar_services.h): its name in
 * the locale file as "Service.<id>" when translated there, else the registry's. */
static void add_service(obs_property_t *list, const char *id, const char *registry_name)
{
	char key[128];
	snprintf(key, sizeof(key), "Service.%s", id);
	const char *translated = NULL;
	const bool found = obs_module_get_string(key, &translated) && translated && *translated;
	obs_property_list_add_string(list, found ? translated : registry_name, id);
}

/* Filters and highlights, in a group of their own. */
static void add_filters(obs_properties_t *props)
{
	obs_properties_t *group = obs_properties_create();
	obs_properties_add_bool(group, key_of(CB_SETTING_INDEX_hide_bots), obs_module_text("HideBots"));
	obs_properties_add_editable_list(group, key_of(CB_SETTING_INDEX_bot_names), obs_module_text("BotNames"),
					 OBS_EDITABLE_LIST_TYPE_STRINGS, NULL, NULL);
	obs_properties_add_bool(group, key_of(CB_SETTING_INDEX_hide_commands), obs_module_text("HideCommands"));
	obs_properties_add_editable_list(group, key_of(CB_SETTING_INDEX_ng_words), obs_module_text("NGWords"),
					 OBS_EDITABLE_LIST_TYPE_STRINGS, NULL, NULL);
	obs_property_t *mode = obs_properties_add_list(group, key_of(CB_SETTING_INDEX_ng_mode),
						       obs_module_text("NGMode"), OBS_COMBO_TYPE_LIST,
						       OBS_COMBO_FORMAT_STRING);
	obs_property_list_add_string(mode, obs_module_text("NGMode.Mask"), "mask");
	obs_property_list_add_string(mode, obs_module_text("NGMode.Hide"), "hide");
	obs_properties_add_editable_list(group, key_of(CB_SETTING_INDEX_hidden_users), obs_module_text("HiddenUsers"),
					 OBS_EDITABLE_LIST_TYPE_STRINGS, NULL, NULL);
	obs_properties_add_editable_list(group, key_of(CB_SETTING_INDEX_highlight_names),
					 obs_module_text("HighlightNames"), OBS_EDITABLE_LIST_TYPE_STRINGS, NULL, NULL);
	obs_properties_add_bool(group, key_of(CB_SETTING_INDEX_highlight_first), obs_module_text("HighlightFirst"));
	obs_properties_add_group(props, "filters", obs_module_text("Filters"), OBS_GROUP_NORMAL, group);
}

/* "Clock shows": the values BarSettings.clockSource knows. */
static void add_clock_source(obs_properties_t *props)
{
	obs_property_t *list = obs_properties_add_list(props, key_of(CB_SETTING_INDEX_clock_source),
						       obs_module_text("ClockSource"), OBS_COMBO_TYPE_LIST,
						       OBS_COMBO_FORMAT_STRING);
	static const char *const values[] = {"auto", "streaming", "recording", "feed", "off"};
	static const char *const labels[] = {"ClockSource.Auto", "ClockSource.Streaming", "ClockSource.Recording",
					     "ClockSource.Feed", "ClockSource.Off"};
	for (size_t i = 0; i < sizeof(values) / sizeof(*values); i++)
		obs_property_list_add_string(list, obs_module_text(labels[i]), values[i]);
	obs_property_set_long_description(list, obs_module_text("ClockSource.Description"));
}

static bool add_audio_source(void *data, obs_source_t *source)
{
	obs_property_t *list = data;
	const char *name = obs_source_get_name(source);
	if ((obs_source_get_output_flags(source) & OBS_SOURCE_AUDIO) && name && *name)
		obs_property_list_add_string(list, name, name);
	return true;
}

/* "Microphone": OBS's first Mic/Aux channel, then every audio source by name;
 * a name the settings hold that no longer exists stays listed, marked missing. */
static void add_mic_source(obs_properties_t *props, struct comment_bar_source *s)
{
	obs_property_t *list = obs_properties_add_list(props, key_of(CB_SETTING_INDEX_mic_source),
						       obs_module_text("MicSource"), OBS_COMBO_TYPE_LIST,
						       OBS_COMBO_FORMAT_STRING);
	obs_property_list_add_string(list, obs_module_text("MicSource.Default"), "");
	obs_enum_sources(add_audio_source, list);
	obs_property_set_long_description(list, obs_module_text("MicSource.Description"));
	if (!s)
		return;
	obs_data_t *settings = obs_source_get_settings(s->source);
	const char *chosen = obs_data_get_string(settings, key_of(CB_SETTING_INDEX_mic_source));
	bool listed = !chosen || !*chosen;
	for (size_t i = 0; !listed && i < obs_property_list_item_count(list); i++)
		listed = strcmp(obs_property_list_item_string(list, i), chosen) == 0;
	if (!listed) {
		char label[512];
		snprintf(label, sizeof(label), "%s (%s)", chosen, obs_module_text("MicSource.Missing"));
		obs_property_list_add_string(list, label, chosen);
	}
	obs_data_release(settings);
}

static obs_properties_t *cb_get_properties(void *data)
{
	struct comment_bar_source *s = data;
	obs_properties_t *props = obs_properties_create();

	obs_property_t *service = obs_properties_add_list(props, key_of(CB_SETTING_INDEX_service),
							  obs_module_text("Service"), OBS_COMBO_TYPE_LIST,
							  OBS_COMBO_FORMAT_STRING);
#define ADD_SERVICE(id, name) add_service(service, id, name);
	COMMENTBAR_SERVICES(ADD_SERVICE)
#undef ADD_SERVICE
	obs_property_t *stream_id = obs_properties_add_text(props, key_of(CB_SETTING_INDEX_stream_id),
							    obs_module_text("StreamID"), OBS_TEXT_DEFAULT);
	obs_property_set_long_description(stream_id, obs_module_text("StreamID.Description"));
	obs_property_t *server = obs_properties_add_text(props, key_of(CB_SETTING_INDEX_server),
							 obs_module_text("Server"), OBS_TEXT_DEFAULT);
	obs_property_set_long_description(server, obs_module_text("Server.Description"));
	obs_property_t *feeds = obs_properties_add_editable_list(props, key_of(CB_SETTING_INDEX_feeds),
								 obs_module_text("Feeds"), OBS_EDITABLE_LIST_TYPE_STRINGS,
								 NULL, NULL);
	obs_property_set_long_description(feeds, obs_module_text("Feeds.Description"));
	add_filters(props);

	add_int(props, CB_SETTING_INDEX_width, "Width");
	add_int(props, CB_SETTING_INDEX_height, "Height");
	add_int(props, CB_SETTING_INDEX_max_lines, "MaxLines");
	obs_properties_add_font(props, FONT_KEY, obs_module_text("Font"));
	obs_properties_add_color_alpha(props, key_of(CB_SETTING_INDEX_text_color), obs_module_text("TextColor"));
	obs_properties_add_color(props, key_of(CB_SETTING_INDEX_bg_color), obs_module_text("BackgroundColor"));
	add_int_slider(props, CB_SETTING_INDEX_bg_opacity, "BackgroundOpacity", "%");
	add_int_slider(props, CB_SETTING_INDEX_corner_radius, "CornerRadius", " px");

	obs_properties_add_bool(props, key_of(CB_SETTING_INDEX_show_clock), obs_module_text("ShowClock"));
	add_clock_source(props);
	obs_properties_add_bool(props, key_of(CB_SETTING_INDEX_show_viewers), obs_module_text("ShowViewers"));
	obs_properties_add_bool(props, key_of(CB_SETTING_INDEX_show_gifts), obs_module_text("ShowGifts"));
	obs_properties_add_bool(props, key_of(CB_SETTING_INDEX_show_mic), obs_module_text("ShowMic"));
	add_mic_source(props, s);
	obs_properties_add_bool(props, key_of(CB_SETTING_INDEX_mic_meter), obs_module_text("MicMeter"));
	obs_properties_add_bool(props, key_of(CB_SETTING_INDEX_show_avatar), obs_module_text("ShowAvatar"));
	obs_properties_add_bool(props, key_of(CB_SETTING_INDEX_show_badges), obs_module_text("ShowBadges"));
	obs_properties_add_bool(props, key_of(CB_SETTING_INDEX_animate_emotes), obs_module_text("AnimateEmotes"));

	const char *images = obs_module_text("ImageFiles");
	char filter[256];
	snprintf(filter, sizeof(filter), "%s (*.png *.jpg *.jpeg *.gif *.bmp *.webp);;All files (*)", images);
	obs_properties_add_path(props, key_of(CB_SETTING_INDEX_avatar_path), obs_module_text("AvatarImage"),
				OBS_PATH_FILE, filter, NULL);
	obs_properties_add_path(props, key_of(CB_SETTING_INDEX_background_path), obs_module_text("BackgroundImage"),
				OBS_PATH_FILE, filter, NULL);
	add_int(props, CB_SETTING_INDEX_fps, "FPS");
	speech_properties_add(props);

	/* What the renderer is doing right now (also in the OBS log). OBS shows an
	 * info property's description when it has no value, so the status goes there. */
	char status[sizeof(renderer_problem)] = "";
	if (renderer_problem[0])
		snprintf(status, sizeof(status), "%s", renderer_problem);
	else if (s)
		renderer_supervisor_describe(s->supervisor, status, sizeof(status));
	char line[sizeof(status) + 128];
	snprintf(line, sizeof(line), "%s: %s", obs_module_text("RendererStatus"),
		 status[0] ? status : obs_module_text("RendererStatus.None"));
	obs_properties_add_text(props, "renderer_status", line, OBS_TEXT_INFO);
	return props;
}

static struct obs_source_info comment_bar_source_info = {
	.id = SOURCE_ID,
	.type = OBS_SOURCE_TYPE_INPUT,
	.output_flags = OBS_SOURCE_VIDEO | OBS_SOURCE_AUDIO | OBS_SOURCE_CUSTOM_DRAW | OBS_SOURCE_SRGB,
	.get_name = cb_get_name,
	.create = cb_create,
	.destroy = cb_destroy,
	.update = cb_update,
	.get_defaults = cb_get_defaults,
	.get_properties = cb_get_properties,
	.show = cb_show,
	.hide = cb_hide,
	.get_width = cb_get_width,
	.get_height = cb_get_height,
	.video_tick = cb_video_tick,
	.video_render = cb_video_render,
	.icon_type = OBS_ICON_TYPE_TEXT,
};

/* Why path cannot be run as the renderer ("missing", "not executable", ...), or NULL if it can. */
static const char *unusable_because(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return errno == ENOENT ? "missing" : strerror(errno);
	if (!S_ISREG(st.st_mode))
		return "not a regular file";
	if (access(path, X_OK) != 0)
		return "not executable";
	return NULL;
}

/* The folder of this module's .so (resolved), or NULL. */
static char *module_folder(void)
{
	Dl_info info;
	if (!dladdr((void *)module_folder, &info) || !info.dli_fname)
		return NULL;
	/* dli_fname is the path the .so was opened by, which may be relative. */
	char *resolved = realpath(info.dli_fname, NULL);
	char *so_path = bstrdup(resolved ? resolved : info.dli_fname);
	free(resolved);
	char *folder = bstrdup(dirname(so_path));
	bfree(so_path);
	return folder;
}

/*
 * The renderer to run, first usable of: $COMMENTBAR_RENDERER (tests), beside
 * the .so (the user-folder layout of `make install` and the tarball), the
 * package's libexec folder (the .deb). When none is usable, the first
 * candidate is kept (the supervisor keeps retrying, so installing it later
 * works) and renderer_problem says what was wrong with each.
 */
static char *find_renderer(void)
{
	renderer_problem[0] = '\0';
	const char *override = getenv(RENDERER_ENV);
	if (override && *override) {
		const char *why = unusable_because(override);
		if (why)
			snprintf(renderer_problem, sizeof(renderer_problem), "renderer %s (from %s) is %s", override,
				 RENDERER_ENV, why);
		return bstrdup(override);
	}
	char *folder = module_folder();
	char *candidates[2] = {NULL, bstrdup(RENDERER_LIBEXEC_DIR "/" RENDERER_NAME)};
	if (folder) {
		const size_t size = strlen(folder) + sizeof("/" RENDERER_NAME);
		candidates[0] = bmalloc(size);
		snprintf(candidates[0], size, "%s/%s", folder, RENDERER_NAME);
		bfree(folder);
	}
	char *chosen = NULL;
	size_t used = (size_t)snprintf(renderer_problem, sizeof(renderer_problem), "no usable renderer:");
	for (size_t i = 0; i < 2 && !chosen; i++) {
		if (!candidates[i])
			continue;
		const char *why = unusable_because(candidates[i]);
		if (!why) {
			chosen = candidates[i];
			candidates[i] = NULL;
		} else if (used < sizeof(renderer_problem)) {
			used += (size_t)snprintf(renderer_problem + used, sizeof(renderer_problem) - used, " %s is %s;",
						 candidates[i], why);
		}
	}
	if (chosen) {
		renderer_problem[0] = '\0';
	} else {
		if (used < sizeof(renderer_problem))
			snprintf(renderer_problem + used, sizeof(renderer_problem) - used,
				 " reinstall Comment Bar (the .deb, or install.sh from the tarball)");
		chosen = candidates[0] ? candidates[0] : candidates[1];
		if (chosen == candidates[0])
			candidates[0] = NULL;
		else
			candidates[1] = NULL;
	}
	bfree(candidates[0]);
	bfree(candidates[1]);
	return chosen;
}

void comment_bar_source_register(void)
{
	bfree(renderer_path);
	renderer_path = find_renderer();
	char shown[SAFE_TEXT_LOG_SIZE];
	safe_text_escape_string(shown, sizeof(shown), renderer_path);
	plugin_log(LOG_INFO, "renderer executable: %s", shown);
	if (renderer_problem[0]) {
		char problem[SAFE_TEXT_LOG_SIZE];
		safe_text_escape_string(problem, sizeof(problem), renderer_problem);
		plugin_log(LOG_ERROR, "%s", problem);
	}
	obs_register_source(&comment_bar_source_info);
}

void comment_bar_source_unregister(void)
{
	/* Every source is destroyed by now, but their supervisors may still be
	 * stopping renderers: the module's code must stay until they are done. */
	renderer_supervisor_wait_all(UNLOAD_WAIT_MS);
	bfree(renderer_path);
	renderer_path = NULL;
}
