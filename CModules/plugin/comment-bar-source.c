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
#include <libgen.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <obs-module.h>

#include "comment-bar-source.h"
#include "frame-pool.h"
#include "renderer-supervisor.h"

#define LOG_PREFIX "[comment-bar] "
#define SOURCE_ID "comment_bar_source"
#define RENDERER_NAME "commentbar"
#define RENDERER_ENV "COMMENTBAR_RENDERER"

/* Defaults: the same as BarSettings.swift, so an omitted key means the same thing on both sides. */
#define DEFAULT_SERVICE "demo"
#define DEFAULT_WIDTH 1280
#define DEFAULT_HEIGHT 360
#define DEFAULT_MAX_LINES 6
#define DEFAULT_FONT_FACE "Noto Sans CJK JP"
#define DEFAULT_FONT_STYLE "Regular"
#define DEFAULT_FONT_SIZE 26
#define DEFAULT_TEXT_COLOR 0xFFFFFFFFll /* OBS colours are 0xAABBGGRR */
#define DEFAULT_BG_COLOR 0xFF1E1414ll
#define DEFAULT_BG_OPACITY 78
#define DEFAULT_CORNER_RADIUS 20
#define DEFAULT_FPS 30
#define MIN_SIZE 64
#define MAX_SIZE 3840
/* A supervisor needs at most 0.5 s (exit grace) + 2 s (reaping after SIGKILL). */
#define UNLOAD_WAIT_MS 5000

static char *renderer_path;

struct comment_bar_source {
	obs_source_t *source;
	struct renderer_supervisor *supervisor;
	/* Written by update, read by get_width/get_height on the graphics thread. */
	atomic_uint width;
	atomic_uint height;

	/* Graphics thread only (video_tick, video_render, destroy). */
	struct frame_pool *pool;
	gs_texture_t *texture;
	uint32_t texture_width;
	uint32_t texture_height;
};

static long long clamp_ll(long long value, long long low, long long high)
{
	return value < low ? low : value > high ? high : value;
}

static const char *string_or(const char *value, const char *fallback)
{
	return value && *value ? value : fallback;
}

/*
 * One line for the renderer's stdin: {"settings":{...}}. Every key is written,
 * defaults included (obs_data_get_json leaves defaults out).
 */
static char *settings_line(obs_data_t *settings, uint32_t *width, uint32_t *height)
{
	obs_data_t *out = obs_data_create();
	obs_data_set_string(out, "service", string_or(obs_data_get_string(settings, "service"), DEFAULT_SERVICE));
	obs_data_set_string(out, "stream_id", obs_data_get_string(settings, "stream_id"));
	obs_data_set_string(out, "server", obs_data_get_string(settings, "server"));
	*width = (uint32_t)clamp_ll(obs_data_get_int(settings, "width"), MIN_SIZE, MAX_SIZE);
	*height = (uint32_t)clamp_ll(obs_data_get_int(settings, "height"), MIN_SIZE, MAX_SIZE);
	obs_data_set_int(out, "width", *width);
	obs_data_set_int(out, "height", *height);
	obs_data_set_int(out, "max_lines", clamp_ll(obs_data_get_int(settings, "max_lines"), 1, 50));

	obs_data_t *font_in = obs_data_get_obj(settings, "font");
	obs_data_t *font = obs_data_create();
	obs_data_set_string(font, "face", string_or(font_in ? obs_data_get_string(font_in, "face") : NULL, DEFAULT_FONT_FACE));
	obs_data_set_string(font, "style",
			    string_or(font_in ? obs_data_get_string(font_in, "style") : NULL, DEFAULT_FONT_STYLE));
	const long long size = font_in ? obs_data_get_int(font_in, "size") : 0;
	obs_data_set_int(font, "size", size > 0 ? size : DEFAULT_FONT_SIZE);
	obs_data_set_int(font, "flags", font_in ? obs_data_get_int(font_in, "flags") : 0);
	obs_data_set_obj(out, "font", font);
	obs_data_release(font);
	obs_data_release(font_in);

	obs_data_set_int(out, "text_color", obs_data_get_int(settings, "text_color"));
	obs_data_set_int(out, "bg_color", obs_data_get_int(settings, "bg_color"));
	obs_data_set_int(out, "bg_opacity", clamp_ll(obs_data_get_int(settings, "bg_opacity"), 0, 100));
	obs_data_set_int(out, "corner_radius", clamp_ll(obs_data_get_int(settings, "corner_radius"), 0, 200));
	static const char *const toggles[] = {"show_clock", "show_viewers", "show_gifts", "show_mic", "show_avatar"};
	for (size_t i = 0; i < sizeof(toggles) / sizeof(toggles[0]); i++)
		obs_data_set_bool(out, toggles[i], obs_data_get_bool(settings, toggles[i]));
	obs_data_set_string(out, "avatar_path", obs_data_get_string(settings, "avatar_path"));
	obs_data_set_string(out, "background_path", obs_data_get_string(settings, "background_path"));
	obs_data_set_int(out, "fps", clamp_ll(obs_data_get_int(settings, "fps"), 1, 60));

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
	return s;
}

/* May run on the graphics thread (OBS 29 releases sources in tick_sources):
 * never waits. The supervisor stops the renderer on its own thread. */
static void cb_destroy(void *data)
{
	struct comment_bar_source *s = data;
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
	renderer_supervisor_adopt_pool(s->supervisor, &s->pool);
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
	obs_data_set_default_string(settings, "service", DEFAULT_SERVICE);
	obs_data_set_default_string(settings, "stream_id", "");
	obs_data_set_default_string(settings, "server", "");
	obs_data_set_default_int(settings, "width", DEFAULT_WIDTH);
	obs_data_set_default_int(settings, "height", DEFAULT_HEIGHT);
	obs_data_set_default_int(settings, "max_lines", DEFAULT_MAX_LINES);

	obs_data_t *font = obs_data_create();
	obs_data_set_default_string(font, "face", DEFAULT_FONT_FACE);
	obs_data_set_default_string(font, "style", DEFAULT_FONT_STYLE);
	obs_data_set_default_int(font, "size", DEFAULT_FONT_SIZE);
	obs_data_set_default_int(font, "flags", 0);
	obs_data_set_default_obj(settings, "font", font);
	obs_data_release(font);

	obs_data_set_default_int(settings, "text_color", DEFAULT_TEXT_COLOR);
	obs_data_set_default_int(settings, "bg_color", DEFAULT_BG_COLOR);
	obs_data_set_default_int(settings, "bg_opacity", DEFAULT_BG_OPACITY);
	obs_data_set_default_int(settings, "corner_radius", DEFAULT_CORNER_RADIUS);
	obs_data_set_default_bool(settings, "show_clock", true);
	obs_data_set_default_bool(settings, "show_viewers", true);
	obs_data_set_default_bool(settings, "show_gifts", true);
	obs_data_set_default_bool(settings, "show_mic", true);
	obs_data_set_default_bool(settings, "show_avatar", true);
	obs_data_set_default_string(settings, "avatar_path", "");
	obs_data_set_default_string(settings, "background_path", "");
	obs_data_set_default_int(settings, "fps", DEFAULT_FPS);
}

static obs_properties_t *cb_get_properties(void *data)
{
	struct comment_bar_source *s = data;
	obs_properties_t *props = obs_properties_create();

	obs_property_t *service = obs_properties_add_list(props, "service", obs_module_text("Service"),
							  OBS_COMBO_TYPE_LIST, OBS_COMBO_FORMAT_STRING);
	obs_property_list_add_string(service, obs_module_text("Service.Demo"), "demo");
	obs_property_list_add_string(service, obs_module_text("Service.File"), "file");
	obs_property_list_add_string(service, obs_module_text("Service.Twitch"), "twitch");
	obs_property_list_add_string(service, obs_module_text("Service.IRC"), "irc");
	obs_property_list_add_string(service, obs_module_text("Service.WebSocket"), "websocket");
	obs_property_t *stream_id = obs_properties_add_text(props, "stream_id", obs_module_text("StreamID"), OBS_TEXT_DEFAULT);
	obs_property_set_long_description(stream_id, obs_module_text("StreamID.Description"));
	obs_property_t *server = obs_properties_add_text(props, "server", obs_module_text("Server"), OBS_TEXT_DEFAULT);
	obs_property_set_long_description(server, obs_module_text("Server.Description"));

	obs_properties_add_int(props, "width", obs_module_text("Width"), MIN_SIZE, MAX_SIZE, 1);
	obs_properties_add_int(props, "height", obs_module_text("Height"), MIN_SIZE, MAX_SIZE, 1);
	obs_properties_add_int(props, "max_lines", obs_module_text("MaxLines"), 1, 50, 1);
	obs_properties_add_font(props, "font", obs_module_text("Font"));
	obs_properties_add_color_alpha(props, "text_color", obs_module_text("TextColor"));
	obs_properties_add_color(props, "bg_color", obs_module_text("BackgroundColor"));
	obs_property_t *opacity =
		obs_properties_add_int_slider(props, "bg_opacity", obs_module_text("BackgroundOpacity"), 0, 100, 1);
	obs_property_int_set_suffix(opacity, "%");
	obs_property_t *radius =
		obs_properties_add_int_slider(props, "corner_radius", obs_module_text("CornerRadius"), 0, 200, 1);
	obs_property_int_set_suffix(radius, " px");

	obs_properties_add_bool(props, "show_clock", obs_module_text("ShowClock"));
	obs_properties_add_bool(props, "show_viewers", obs_module_text("ShowViewers"));
	obs_properties_add_bool(props, "show_gifts", obs_module_text("ShowGifts"));
	obs_properties_add_bool(props, "show_mic", obs_module_text("ShowMic"));
	obs_properties_add_bool(props, "show_avatar", obs_module_text("ShowAvatar"));

	const char *images = obs_module_text("ImageFiles");
	char filter[256];
	snprintf(filter, sizeof(filter), "%s (*.png *.jpg *.jpeg *.gif *.bmp *.webp);;All files (*)", images);
	obs_properties_add_path(props, "avatar_path", obs_module_text("AvatarImage"), OBS_PATH_FILE, filter, NULL);
	obs_properties_add_path(props, "background_path", obs_module_text("BackgroundImage"), OBS_PATH_FILE, filter,
				NULL);
	obs_properties_add_int(props, "fps", obs_module_text("FPS"), 1, 60, 1);

	/* What the renderer is doing right now (also in the OBS log). OBS shows an
	 * info property's description when it has no value, so the status goes there. */
	char status[512] = "";
	if (s)
		renderer_supervisor_describe(s->supervisor, status, sizeof(status));
	char line[600];
	snprintf(line, sizeof(line), "%s: %s", obs_module_text("RendererStatus"),
		 status[0] ? status : obs_module_text("RendererStatus.None"));
	obs_properties_add_text(props, "renderer_status", line, OBS_TEXT_INFO);
	return props;
}

static struct obs_source_info comment_bar_source_info = {
	.id = SOURCE_ID,
	.type = OBS_SOURCE_TYPE_INPUT,
	.output_flags = OBS_SOURCE_VIDEO | OBS_SOURCE_CUSTOM_DRAW | OBS_SOURCE_SRGB,
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

/* The renderer ships beside the plugin's .so; tests point elsewhere with the env. */
static char *find_renderer(void)
{
	const char *override = getenv(RENDERER_ENV);
	if (override && *override)
		return bstrdup(override);
	Dl_info info;
	if (!dladdr((void *)find_renderer, &info) || !info.dli_fname)
		return bstrdup(RENDERER_NAME);
	/* dli_fname is the path the .so was opened by, which may be relative. */
	char *resolved = realpath(info.dli_fname, NULL);
	char *so_path = bstrdup(resolved ? resolved : info.dli_fname);
	free(resolved);
	const char *dir = dirname(so_path);
	const size_t size = strlen(dir) + sizeof("/" RENDERER_NAME);
	char *path = bmalloc(size);
	snprintf(path, size, "%s/%s", dir, RENDERER_NAME);
	bfree(so_path);
	return path;
}

void comment_bar_source_register(void)
{
	bfree(renderer_path);
	renderer_path = find_renderer();
	blog(LOG_INFO, LOG_PREFIX "renderer executable: %s", renderer_path);
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
