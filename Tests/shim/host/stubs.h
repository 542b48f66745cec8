// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stubs: libobs's running parts, faked for the stub host (stubs.c), and what
 * they recorded: textures and their uploads, draws, the registered source and
 * every log line.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <obs-module.h>

struct gs_texture {
	uint32_t width, height;
	enum gs_color_format format;
	uint32_t flags;
	uint8_t *pixels; /* the last upload, tightly packed */
	uint64_t uploads;
	uint64_t last_upload_ns;
	uint64_t last_stamp; /* first 8 bytes of the last upload (bench) */
};
struct gs_effect_param {
	gs_texture_t *texture;
};

extern unsigned graphics_violations; /* gs calls outside obs_enter_graphics */
extern unsigned upload_violations;   /* uploads with a wrong line size or outside a pool mapping */
extern uint64_t total_uploads;
extern uint64_t upload_time_ns;
extern uint64_t textures_alive;
extern struct gs_effect_param image_param; /* the texture render bound last */
extern unsigned draws, bad_draws;
/* Uploads must come from a pool mapping (off for the benchmark: /proc/self/maps is slow). */
extern bool check_mappings;

extern struct obs_source_info registered; /* what obs_register_source got */
extern bool registered_any;

/* The bundle's data folder (locale files). */
extern const char *data_dir;
/* What obs_source_get_settings returns (a new reference); NULL: new empty settings. */
extern obs_data_t *stub_source_settings;

/* ---- hotkeys the plugin registered (obs_hotkey_register_source) ---- */
#define STUB_HOTKEYS_MAX 256
struct stub_hotkey {
	char name[64];
	char description[128];
	obs_hotkey_func func;
	void *data;
	bool registered;
};
extern struct stub_hotkey stub_hotkeys[STUB_HOTKEYS_MAX];
extern size_t stub_hotkey_count;
/* Presses (and releases) every registered hotkey of that name; false if there is none. */
bool stub_press_hotkey(const char *name);
size_t stub_hotkeys_registered(void);

/* ---- the log: every line blog got, kept for the checks ---- */
extern bool log_echo; /* also to stderr */
/* Also written to path, one "LEVEL text" line each. */
void log_open(const char *path);
void log_close(void);
/* The count of lines so far: checks look at the lines after a mark. */
size_t log_mark(void);
/* Number of log lines since mark that contain needle; the first into first. */
size_t log_find(size_t mark, const char *needle, char *first, size_t first_size);
/* Number of log lines since mark for which matches is true; the first into first. */
size_t log_find_if(size_t mark, bool (*matches)(const char *line), char *first, size_t first_size);
/* The line (copied into out) and time of the nth (0-based) line since mark that
 * contains needle; false if there are not that many. */
bool log_nth(size_t mark, const char *needle, size_t nth, char *out, size_t out_size, uint64_t *when);
