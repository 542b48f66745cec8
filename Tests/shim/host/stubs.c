// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "stubs.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <util/text-lookup.h>

#include "check.h"

/*
 * stubs: the parts of libobs that need a running OBS (graphics, source
 * registration, locale loading, the log), defined here so that, linked with
 * -rdynamic, they interpose the real ones for the dlopened plugin. They record
 * what the plugin did for the checks.
 */

struct gs_effect {
	int looping;
};
static int graphics_depth;
unsigned graphics_violations; /* gs calls outside obs_enter_graphics */
unsigned upload_violations;   /* uploads with a wrong line size or outside a pool mapping */
uint64_t total_uploads;
uint64_t upload_time_ns;
uint64_t textures_alive;
static struct gs_effect default_effect;
struct gs_effect_param image_param;
static bool srgb_enabled = true;
static int blend_depth;
static enum gs_blend_type blend_src = GS_BLEND_SRCALPHA, blend_dst = GS_BLEND_INVSRCALPHA;
unsigned draws, bad_draws;

struct obs_source_info registered;
bool registered_any;


static void need_graphics(void)
{
	if (graphics_depth <= 0)
		graphics_violations++;
}

void obs_enter_graphics(void)
{
	graphics_depth++;
}

void obs_leave_graphics(void)
{
	graphics_depth--;
}

gs_texture_t *gs_texture_create(uint32_t width, uint32_t height, enum gs_color_format color_format, uint32_t levels,
				const uint8_t **data, uint32_t flags)
{
	(void)levels;
	(void)data;
	need_graphics();
	gs_texture_t *tex = calloc(1, sizeof(*tex));
	tex->width = width;
	tex->height = height;
	tex->format = color_format;
	tex->flags = flags;
	tex->pixels = calloc((size_t)width * height, 4);
	textures_alive++;
	return tex;
}

void gs_texture_destroy(gs_texture_t *tex)
{
	need_graphics();
	if (!tex)
		return;
	if (image_param.texture == tex)
		image_param.texture = NULL; /* the stub's checks find the texture through this */
	free(tex->pixels);
	free(tex);
	textures_alive--;
}

/* True if [start, end) lies inside one mapping of a commentbar pool memfd. */
static bool inside_pool_mapping(const uint8_t *start, const uint8_t *end)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	if (!maps)
		return false;
	char line[512];
	bool inside = false;
	while (fgets(line, sizeof(line), maps)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && strstr(line, "commentbar-pool") &&
		    (uintptr_t)start >= lo && (uintptr_t)end <= hi) {
			inside = true;
			break;
		}
	}
	fclose(maps);
	return inside;
}

bool check_mappings = true;

void gs_texture_set_image(gs_texture_t *tex, const uint8_t *data, uint32_t linesize, bool invert)
{
	const uint64_t start = now_ns();
	need_graphics();
	if (invert || tex->format != GS_BGRA || !(tex->flags & GS_DYNAMIC) || linesize != tex->width * 4 ||
	    (check_mappings && !inside_pool_mapping(data, data + (size_t)linesize * tex->height))) {
		upload_violations++;
		return;
	}
	memcpy(tex->pixels, data, (size_t)linesize * tex->height);
	memcpy(&tex->last_stamp, data, sizeof(tex->last_stamp));
	tex->uploads++;
	total_uploads++;
	tex->last_upload_ns = now_ns();
	upload_time_ns += tex->last_upload_ns - start;
}

gs_effect_t *obs_get_base_effect(enum obs_base_effect effect)
{
	return effect == OBS_EFFECT_DEFAULT ? &default_effect : NULL;
}

gs_eparam_t *gs_effect_get_param_by_name(const gs_effect_t *effect, const char *name)
{
	return effect == &default_effect && strcmp(name, "image") == 0 ? &image_param : NULL;
}

void gs_effect_set_texture(gs_eparam_t *param, gs_texture_t *val)
{
	need_graphics();
	if (param)
		param->texture = val;
}

bool gs_effect_loop(gs_effect_t *effect, const char *name)
{
	need_graphics();
	if (!effect || strcmp(name, "Draw") != 0)
		return false;
	effect->looping = !effect->looping;
	return effect->looping;
}

void gs_draw_sprite(gs_texture_t *tex, uint32_t flip, uint32_t width, uint32_t height)
{
	need_graphics();
	draws++;
	/* Premultiplied pixels: ONE, INVSRCALPHA, blended as encoded. */
	if (!tex || tex != image_param.texture || blend_depth <= 0 || blend_src != GS_BLEND_ONE ||
	    blend_dst != GS_BLEND_INVSRCALPHA || srgb_enabled || flip || width != tex->width || height != tex->height)
		bad_draws++;
}

void gs_blend_state_push(void)
{
	need_graphics();
	blend_depth++;
}

void gs_blend_state_pop(void)
{
	need_graphics();
	blend_depth--;
	blend_src = GS_BLEND_SRCALPHA;
	blend_dst = GS_BLEND_INVSRCALPHA;
}

void gs_blend_function(enum gs_blend_type src, enum gs_blend_type dest)
{
	need_graphics();
	blend_src = src;
	blend_dst = dest;
}

void gs_enable_framebuffer_srgb(bool enable)
{
	need_graphics();
	srgb_enabled = enable;
}

bool gs_framebuffer_srgb_enabled(void)
{
	return srgb_enabled;
}

void obs_register_source_s(const struct obs_source_info *info, size_t size)
{
	memset(&registered, 0, sizeof(registered));
	memcpy(&registered, info, size < sizeof(registered) ? size : sizeof(registered));
	registered_any = true;
}

const char *obs_source_get_name(const obs_source_t *source)
{
	(void)source;
	return "stub source";
}

/* No OBS core here: no other sources, no global signals, no audio channels.
 * The shim's OBS-state parts see "unknown" and stay quiet. */
void obs_enum_sources(bool (*enum_proc)(void *, obs_source_t *), void *param)
{
	(void)enum_proc;
	(void)param;
}

signal_handler_t *obs_get_signal_handler(void)
{
	return NULL;
}

/* The settings of the bar the tests drive (harness.c), as OBS keeps a source's own. */
obs_data_t *stub_source_settings;

obs_data_t *obs_source_get_settings(const obs_source_t *source)
{
	(void)source;
	if (stub_source_settings) {
		obs_data_addref(stub_source_settings);
		return stub_source_settings;
	}
	return obs_data_create();
}

/* ---- hotkeys: kept so the tests can press them ---- */
struct stub_hotkey stub_hotkeys[STUB_HOTKEYS_MAX];
size_t stub_hotkey_count;

obs_hotkey_id obs_hotkey_register_source(obs_source_t *source, const char *name, const char *description,
					 obs_hotkey_func func, void *data)
{
	(void)source;
	size_t id = 0;
	while (id < stub_hotkey_count && stub_hotkeys[id].registered)
		id++; /* the slot of one unregistered, or a new one */
	if (id == STUB_HOTKEYS_MAX)
		return OBS_INVALID_HOTKEY_ID;
	struct stub_hotkey *key = &stub_hotkeys[id];
	snprintf(key->name, sizeof(key->name), "%s", name);
	snprintf(key->description, sizeof(key->description), "%s", description ? description : "");
	key->func = func;
	key->data = data;
	key->registered = true;
	if (id == stub_hotkey_count)
		stub_hotkey_count++;
	return (obs_hotkey_id)id;
}

void obs_hotkey_unregister(obs_hotkey_id id)
{
	if (id < stub_hotkey_count)
		stub_hotkeys[id].registered = false;
}

bool stub_press_hotkey(const char *name)
{
	bool pressed = false;
	for (size_t i = 0; i < stub_hotkey_count; i++) {
		struct stub_hotkey *key = &stub_hotkeys[i];
		if (key->registered && strcmp(key->name, name) == 0) {
			key->func(key->data, (obs_hotkey_id)i, NULL, true);
			key->func(key->data, (obs_hotkey_id)i, NULL, false);
			pressed = true;
		}
	}
	return pressed;
}

size_t stub_hotkeys_registered(void)
{
	size_t count = 0;
	for (size_t i = 0; i < stub_hotkey_count; i++)
		count += stub_hotkeys[i].registered;
	return count;
}


const char *data_dir = "plugin/data";

/* The locale the plugin was last given (obs_module_set_locale), as OBS's own. */
static char ui_locale[32] = "en-US";

const char *obs_get_locale(void)
{
	return ui_locale;
}

/* The real one needs a loaded obs_module_t; this reads the bundle's files the same way. */
lookup_t *obs_module_load_locale(obs_module_t *module, const char *default_locale, const char *locale)
{
	(void)module;
	snprintf(ui_locale, sizeof(ui_locale), "%s", locale ? locale : default_locale);
	char path[1024];
	snprintf(path, sizeof(path), "%s/locale/%s.ini", data_dir, default_locale);
	lookup_t *lookup = text_lookup_create(path);
	if (lookup && locale && strcmp(locale, default_locale) != 0) {
		snprintf(path, sizeof(path), "%s/locale/%s.ini", data_dir, locale);
		text_lookup_add(lookup, path);
	}
	return lookup;
}

/* ---- the log: kept for the checks, and written to work/stub.log ---- */
static pthread_mutex_t log_mutex = PTHREAD_MUTEX_INITIALIZER;
static char **log_lines;
static uint64_t *log_times; /* CLOCK_MONOTONIC ns when each line was logged */
static size_t log_count, log_capacity;
FILE *log_file;
bool log_echo;

void blog(int log_level, const char *format, ...)
{
	char text[4096];
	va_list args;
	va_start(args, format);
	vsnprintf(text, sizeof(text), format, args);
	va_end(args);
	pthread_mutex_lock(&log_mutex);
	if (log_count == log_capacity) {
		log_capacity = log_capacity ? log_capacity * 2 : 1024;
		log_lines = realloc(log_lines, log_capacity * sizeof(*log_lines));
		log_times = realloc(log_times, log_capacity * sizeof(*log_times));
	}
	log_times[log_count] = now_ns();
	log_lines[log_count++] = strdup(text);
	if (log_file) {
		fprintf(log_file, "%d %s\n", log_level, text);
		fflush(log_file);
	}
	if (log_echo)
		fprintf(stderr, "  log: %s\n", text);
	pthread_mutex_unlock(&log_mutex);
}

/* Number of log lines since mark that contain needle. */
size_t log_find(size_t mark, const char *needle, char *first, size_t first_size)
{
	size_t found = 0;
	pthread_mutex_lock(&log_mutex);
	for (size_t i = mark; i < log_count; i++)
		if (strstr(log_lines[i], needle)) {
			if (!found && first)
				snprintf(first, first_size, "%s", log_lines[i]);
			found++;
		}
	pthread_mutex_unlock(&log_mutex);
	return found;
}

size_t log_mark(void)
{
	pthread_mutex_lock(&log_mutex);
	const size_t mark = log_count;
	pthread_mutex_unlock(&log_mutex);
	return mark;
}

/* The line (copied into out) and time of the nth (0-based) line since mark that
 * contains needle; false if there are not that many. */
bool log_nth(size_t mark, const char *needle, size_t nth, char *out, size_t out_size, uint64_t *when)
{
	bool found = false;
	pthread_mutex_lock(&log_mutex);
	for (size_t i = mark; i < log_count && !found; i++)
		if (strstr(log_lines[i], needle) && nth-- == 0) {
			if (out)
				snprintf(out, out_size, "%s", log_lines[i]);
			if (when)
				*when = log_times[i];
			found = true;
		}
	pthread_mutex_unlock(&log_mutex);
	return found;
}

size_t log_find_if(size_t mark, bool (*matches)(const char *line), char *first, size_t first_size)
{
	size_t found = 0;
	pthread_mutex_lock(&log_mutex);
	for (size_t i = mark; i < log_count; i++)
		if (matches(log_lines[i])) {
			if (!found && first)
				snprintf(first, first_size, "%s", log_lines[i]);
			found++;
		}
	pthread_mutex_unlock(&log_mutex);
	return found;
}

void log_open(const char *path)
{
	log_file = fopen(path, "w");
}

void log_close(void)
{
	for (size_t i = 0; i < log_count; i++)
		free(log_lines[i]);
	free(log_lines);
	free(log_times);
	log_lines = NULL;
	log_times = NULL;
	log_count = log_capacity = 0;
	if (log_file)
		fclose(log_file);
	log_file = NULL;
}
