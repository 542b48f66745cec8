// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Comment Bar source: a synchronous video source that shows the frames
 * `commentbar serve` publishes in the shared-memory pool. Here: OBS's callbacks
 * and the registration. The settings line is settings-line.c, the defaults and
 * properties view source-properties.c, the renderer's path module-origin.c, the
 * secrets sent once and never saved source-secrets.c, the hotkeys and the
 * buttons' counters source-commands.c.
 *
 * Threads (as in obs-text-pthread, registration and properties stay apart from
 * the worker): OBS's threads run the callbacks below and never wait on I/O;
 * the renderer-supervisor thread owns the child process.
 */
#include <stdatomic.h>
#include <stdio.h>

#include <obs-module.h>

#include "bar-live-state.h"
#include "comment-bar-source.h"
#include "frame-pool.h"
#include "module-origin.h"
#include "plugin-log.h"
#include "renderer-supervisor.h"
#include "safe-text.h"
#include "settings-line.h"
#include "shim-threads.h"
#include "source-commands.h"
#include "source-properties.h"
#include "source-secrets.h"
#include "speech-audio.h"

#define SOURCE_ID "comment_bar_source"
/* A supervisor needs at most 0.5 s (exit grace) + 2 s (reaping after SIGKILL). */
#define UNLOAD_WAIT_MS 5000
/* Source names are the user's text: escaped for the log, this long at most. */
#define SOURCE_NAME_LOG_SIZE 256

static char *renderer_path;
/* Why no usable renderer was found ("" when one was), for the log and the properties. */
static char renderer_problem[768];

struct comment_bar_source {
	obs_source_t *source;
	char name[SOURCE_NAME_LOG_SIZE]; /* escaped for the log, as at create */
	struct renderer_supervisor *supervisor;
	struct bar_live_state *live; /* OBS's streaming, recording and mic state for the renderer */
	struct speech_audio *audio;       /* the reading's PCM from the pool's ring to OBS */
	struct source_commands *commands; /* hotkeys and the buttons' counters */
	/* Written by update, read by get_width/get_height on the graphics thread. */
	atomic_uint width;
	atomic_uint height;

	/* Graphics thread only (video_tick, video_render, destroy). */
	struct frame_pool *pool;
	gs_texture_t *texture;
	uint32_t texture_width;
	uint32_t texture_height;
};

static const char *cb_get_name(void *type_data)
{
	UNUSED_PARAMETER(type_data);
	return obs_module_text("CommentBar");
}

/* The mic the badge shows and whether to meter it: the shim watches them, not the renderer. */
static void configure_live_state(struct comment_bar_source *s, obs_data_t *settings)
{
	bar_live_state_configure(s->live, obs_data_get_string(settings, settings_key(CB_SETTING_INDEX_mic_source)),
				 obs_data_get_bool(settings, settings_key(CB_SETTING_INDEX_mic_meter)));
}

/* The mic the settings name was renamed: the setting follows it, so the properties show it. */
static void mic_renamed(void *data, const char *new_name)
{
	struct comment_bar_source *s = data;
	obs_data_t *settings = obs_source_get_settings(s->source);
	obs_data_set_string(settings, settings_key(CB_SETTING_INDEX_mic_source), new_name);
	obs_data_release(settings);
}

/* The audio thread drains the ring while speech or the first-time sound may play (issue 29:
 * the sound plays with speech off too). */
static bool plays_audio(obs_data_t *settings)
{
	const char *sound = obs_data_get_string(settings, settings_key(CB_SETTING_INDEX_first_time_sound));
	return obs_data_get_bool(settings, settings_key(CB_SETTING_INDEX_speech)) ||
	       (sound && *sound && strcmp(sound, "off") != 0);
}

/* The settings to the renderer and to the parts that follow them; the size follows unless
 * the line was too long to send. A secret in them goes in this line and leaves them.
 * OBS's threads; no I/O. */
static void send_settings(struct comment_bar_source *s, obs_data_t *settings)
{
	uint32_t width, height;
	char *line = source_secrets_settings_line(settings, s->name, &width, &height);
	if (renderer_supervisor_set_settings(s->supervisor, line, width, height)) {
		atomic_store(&s->width, width);
		atomic_store(&s->height, height);
	}
	bfree(line);
	configure_live_state(s, settings);
	speech_audio_set_enabled(s->audio, plays_audio(settings));
}

static void cb_update(void *data, obs_data_t *settings)
{
	send_settings(data, settings);
}

static void *cb_create(obs_data_t *settings, obs_source_t *source)
{
	struct comment_bar_source *s = bzalloc(sizeof(*s));
	s->source = source;
	safe_text_escape_string(s->name, sizeof(s->name), obs_source_get_name(source));
	/* Before anything reads the settings: an older scene collection's secret leaves them now. */
	uint32_t width, height;
	char *line = source_secrets_settings_line(settings, s->name, &width, &height);
	atomic_init(&s->width, width);
	atomic_init(&s->height, height);
	s->supervisor = renderer_supervisor_start(obs_source_get_name(source), renderer_path, width, height, line);
	bfree(line);
	if (!s->supervisor) {
		bfree(s);
		return NULL;
	}
	/* Not shown anywhere yet: OBS calls show when it is. */
	char *hidden = renderer_input_bool_line(RENDERER_CHANNEL_ACTIVE, false);
	renderer_supervisor_send(s->supervisor, RENDERER_CHANNEL_ACTIVE, hidden);
	bfree(hidden);
	s->live = bar_live_state_create(obs_source_get_name(source), s->supervisor, mic_renamed, s);
	s->audio = speech_audio_start(source, s->name, plays_audio(settings));
	s->commands = source_commands_register(source, s->supervisor);
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
	source_commands_unregister(s->commands);
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

static void set_active(struct comment_bar_source *s, bool active)
{
	char *line = renderer_input_bool_line(RENDERER_CHANNEL_ACTIVE, active);
	renderer_supervisor_send(s->supervisor, RENDERER_CHANNEL_ACTIVE, line);
	bfree(line);
}

static void cb_show(void *data)
{
	set_active(data, true);
}

static void cb_hide(void *data)
{
	set_active(data, false);
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
	source_properties_defaults(settings);
}

/* "Forget" the secrets: the settings no longer say one is saved (the renderer stops using
 * it), and the forget_secrets counter has the renderer delete its file. */
static bool forget_clicked(obs_properties_t *props, obs_property_t *property, void *data)
{
	UNUSED_PARAMETER(props);
	UNUSED_PARAMETER(property);
	struct comment_bar_source *s = data;
	if (!s)
		return false;
	obs_data_t *settings = obs_source_get_settings(s->source);
	source_secrets_forget(settings);
	send_settings(s, settings);
	obs_data_release(settings);
	source_commands_forget_secrets(s->commands);
	return true; /* the properties show it is gone */
}

static obs_properties_t *cb_get_properties(void *data)
{
	struct comment_bar_source *s = data;
	char status[sizeof(renderer_problem)] = "";
	if (renderer_problem[0])
		snprintf(status, sizeof(status), "%s", renderer_problem);
	else if (s)
		renderer_supervisor_describe(s->supervisor, status, sizeof(status));
	const struct source_properties_parts parts = {
		.source = s ? s->source : NULL,
		.status = status,
		.forget = forget_clicked,
		.forget_data = s,
		.commands = s ? s->commands : NULL,
	};
	return source_properties_create(&parts);
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

void comment_bar_source_register(void)
{
	bfree(renderer_path);
	renderer_path = module_origin_find_renderer(renderer_problem, sizeof(renderer_problem));
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
	/* Every source is destroyed by now, but their supervisors may still be stopping
	 * renderers (and audio threads ending): the module's code must stay until they are done. */
	shim_threads_wait_all(UNLOAD_WAIT_MS);
	bfree(renderer_path);
	renderer_path = NULL;
}
