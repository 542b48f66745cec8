// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * harness: the stub host's way of driving the plugin like OBS (harness.c),
 * and of looking at what the process holds afterwards.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <obs-module.h>

struct options {
	const char *plugin, *renderer, *fake, *fixtures, *work;
	bool bench;
};
extern struct options opt;

/* The plugin, dlopened, and its module entry points. */
extern void *plugin_handle;
extern bool (*module_load)(void);
extern void (*module_unload)(void);
extern void (*module_set_locale)(const char *);

/* Points the plugin at a renderer (fake_mode: COMMENTBAR_FAKE_MODE for the
 * fake, or NULL): the path is read when the module loads, as in OBS. */
void use_renderer(const char *path, const char *fake_mode);
/* The fake renderer's stdin, whole lines, as it got them (COMMENTBAR_FAKE_INPUT_LOG). */
void fake_input_clear(void);
/* The lines since the last clear that start with prefix; the last one into last (may be
 * NULL); each (may be NULL) sees them in order and stops the walk by returning false. */
size_t fake_input_find(const char *prefix, char *last, size_t last_size, bool (*each)(const char *line, void *arg),
		       void *arg);
/* The source's defaults with these values (the clock off). */
obs_data_t *make_settings(const char *service, const char *stream, int width, int height);

/* One Comment Bar source, created and shown. */
struct bar {
	void *data;
	obs_data_t *settings;
};
struct bar bar_create(obs_data_t *settings);
void bar_destroy(struct bar *b);
void bar_update(struct bar *b);
/* One OBS frame: video_tick, then video_render inside the graphics context. */
void tick_once(struct bar *b);
/* The plugin's texture: found through what render last bound. */
gs_texture_t *bar_texture(void);

typedef bool (*bar_predicate)(struct bar *b, const void *arg);
/* Ticks at ~60 Hz until pred holds or timeout; returns the seconds it took, or -1. */
double tick_until(struct bar *b, bar_predicate pred, const void *arg, double timeout_s);
bool always_false(struct bar *b, const void *arg);
bool has_texture(struct bar *b, const void *arg);
/* The fake renderer's solid colour for a stream id. */
uint32_t fake_colour(const char *stream_id);
bool texture_is_colour(struct bar *b, const void *arg);  /* arg: const uint32_t * */
bool texture_width_is(struct bar *b, const void *arg);   /* arg: const uint32_t * */

/* The source's status line as the properties view shows it. */
void properties_status(struct bar *b, char *out, size_t out_size);
struct status_arg {
	const char *want[3]; /* all of these (NULL ends the list) */
	const char *unwanted;
};
bool status_shows(struct bar *b, const void *arg); /* arg: const struct status_arg * */

/* Ticks b (if any) at ~60 Hz until the log has at least count lines since mark
 * containing needle; returns the seconds it took, or -1 after timeout_s. */
double log_wait(struct bar *b, size_t mark, const char *needle, size_t count, double timeout_s);

/* ---- what a process holds: fds, pool mappings, children ---- */
struct resources {
	int fds;
	int maps;
	int pool_maps;
	int children;
};
struct resources resources_now(void);
int count_children(pid_t *first);
/* The one child's pid, or 0 if there is not exactly one. */
pid_t renderer_pid(void);
/* The plugin's threads alive now whose name starts with name (NULL: every thread of the
 * plugin, "comment-bar-"); they name themselves: "comment-bar-sup", "comment-bar-aud". */
int plugin_threads(const char *name);
int supervisor_threads(void); /* plugin_threads("comment-bar-sup") */
/* How many times the threads named name went to sleep and woke (voluntary context
 * switches, from /proc): a thread asleep for good adds none. -1: no such thread. */
long long thread_wakeups(const char *name);
/* Polls until every thread of the plugin has ended; the seconds it took, or -1 after timeout_s. */
double wait_supervisors_finished(double timeout_s);
/* True if pid is gone or a zombie. */
bool process_gone(pid_t pid);
/* Our end of the pipe that is pid's stdin: its status flags (fcntl F_GETFL), or -1 if not found. */
int stdin_pipe_flags(pid_t pid);
/* Valid UTF-8 without control characters (what the plugin may put in the log). */
bool printable_utf8(const char *text);
