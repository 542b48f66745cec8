// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "harness.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "stubs.h"

/*
 * harness: drives the plugin's source the way OBS does (create, show,
 * video_tick at 60 Hz, render, update, hide, destroy) and looks at what the
 * process holds (fds, mappings, children, threads) for the checks.
 */
struct options opt;

void *plugin_handle;
bool (*module_load)(void);
void (*module_unload)(void);
void (*module_set_locale)(const char *);
static char fake_source_storage;
#define FAKE_SOURCE ((obs_source_t *)&fake_source_storage)

static void fake_input_path(char *path, size_t size)
{
	snprintf(path, size, "%s/fake-input.log", opt.work);
}

/* Points the plugin at a renderer: the path is read when the module loads, as in OBS. */
void use_renderer(const char *path, const char *fake_mode)
{
	char input[1024];
	fake_input_path(input, sizeof(input));
	setenv("COMMENTBAR_FAKE_INPUT_LOG", input, 1);
	setenv("COMMENTBAR_RENDERER", path, 1);
	if (fake_mode)
		setenv("COMMENTBAR_FAKE_MODE", fake_mode, 1);
	else
		unsetenv("COMMENTBAR_FAKE_MODE");
	module_unload();
	registered_any = false;
	module_load();
}

void fake_input_clear(void)
{
	char path[1024];
	fake_input_path(path, sizeof(path));
	FILE *f = fopen(path, "w");
	if (f)
		fclose(f);
}

size_t fake_input_find(const char *prefix, char *last, size_t last_size, bool (*each)(const char *line, void *arg),
		       void *arg)
{
	char path[1024];
	fake_input_path(path, sizeof(path));
	FILE *f = fopen(path, "r");
	size_t found = 0, capacity = 0;
	char *line = NULL;
	while (f && getline(&line, &capacity, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, prefix, strlen(prefix)) != 0)
			continue;
		found++;
		if (last)
			snprintf(last, last_size, "%s", line);
		if (each && !each(line, arg))
			break;
	}
	free(line);
	if (f)
		fclose(f);
	return found;
}

obs_data_t *make_settings(const char *service, const char *stream, int width, int height)
{
	obs_data_t *settings = obs_data_create();
	registered.get_defaults(settings);
	obs_data_set_string(settings, "service", service);
	obs_data_set_string(settings, "stream_id", stream);
	obs_data_set_int(settings, "width", width);
	obs_data_set_int(settings, "height", height);
	obs_data_set_bool(settings, "show_clock", false);
	return settings;
}


struct bar bar_create(obs_data_t *settings)
{
	stub_source_settings = settings; /* what obs_source_get_settings gives the plugin */
	struct bar b = {registered.create(settings, FAKE_SOURCE), settings};
	if (b.data)
		registered.show(b.data);
	return b;
}

void bar_destroy(struct bar *b)
{
	if (b->data) {
		registered.hide(b->data);
		registered.destroy(b->data);
	}
	if (stub_source_settings == b->settings)
		stub_source_settings = NULL;
	obs_data_release(b->settings);
	b->data = NULL;
	b->settings = NULL;
}

void bar_update(struct bar *b)
{
	registered.update(b->data, b->settings);
}

void tick_once(struct bar *b)
{
	registered.video_tick(b->data, 1.0f / 60.0f);
	obs_enter_graphics();
	registered.video_render(b->data, NULL);
	obs_leave_graphics();
}

/* The plugin's texture: found through what render last bound. */
gs_texture_t *bar_texture(void)
{
	return image_param.texture;
}


/* Ticks at ~60 Hz until pred holds or timeout; returns the seconds it took, or -1. */
double tick_until(struct bar *b, bar_predicate pred, const void *arg, double timeout_s)
{
	const uint64_t start = now_ns();
	while ((double)(now_ns() - start) / 1e9 < timeout_s) {
		tick_once(b);
		if (pred(b, arg))
			return (double)(now_ns() - start) / 1e9;
		sleep_ms(16);
	}
	return -1;
}

bool always_false(struct bar *b, const void *arg)
{
	(void)b;
	(void)arg;
	return false;
}

bool has_texture(struct bar *b, const void *arg)
{
	(void)b;
	(void)arg;
	return bar_texture() && bar_texture()->uploads > 0;
}

/* ---- what a process holds: fds, pool mappings, children ---- */

int count_children(pid_t *first)
{
	DIR *proc = opendir("/proc");
	int count = 0;
	struct dirent *entry;
	const pid_t self = getpid();
	while ((entry = readdir(proc))) {
		if (entry->d_name[0] < '0' || entry->d_name[0] > '9')
			continue;
		char path[300], stat_text[1024];
		snprintf(path, sizeof(path), "/proc/%s/stat", entry->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		const size_t n = fread(stat_text, 1, sizeof(stat_text) - 1, f);
		fclose(f);
		stat_text[n] = '\0';
		const char *close_paren = strrchr(stat_text, ')');
		char state;
		int ppid;
		if (close_paren && sscanf(close_paren + 1, " %c %d", &state, &ppid) == 2 && ppid == self) {
			if (first && !count)
				*first = (pid_t)atoi(entry->d_name);
			count++;
		}
	}
	closedir(proc);
	return count;
}

struct resources resources_now(void)
{
	struct resources r = {0};
	DIR *fds = opendir("/proc/self/fd");
	struct dirent *entry;
	while ((entry = readdir(fds)))
		if (entry->d_name[0] != '.')
			r.fds++;
	closedir(fds);
	r.fds--; /* the directory stream itself */
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[512];
	while (fgets(line, sizeof(line), maps)) {
		r.maps++;
		if (strstr(line, "commentbar-pool"))
			r.pool_maps++;
	}
	fclose(maps);
	r.children = count_children(NULL);
	return r;
}

pid_t renderer_pid(void)
{
	pid_t pid = 0;
	return count_children(&pid) == 1 ? pid : 0;
}

/* Ticks b (if any) at ~60 Hz until the log has at least count lines since mark
 * containing needle; returns the seconds it took, or -1 after timeout_s. */
double log_wait(struct bar *b, size_t mark, const char *needle, size_t count, double timeout_s)
{
	const uint64_t start = now_ns();
	for (;;) {
		if (log_find(mark, needle, NULL, 0) >= count)
			return (double)(now_ns() - start) / 1e9;
		if ((double)(now_ns() - start) / 1e9 >= timeout_s)
			return -1;
		if (b)
			tick_once(b);
		sleep_ms(16);
	}
}

/* Calls each(name, tid path, arg) for every thread of this process. */
static void for_each_thread(void (*each)(const char *name, const char *task, void *arg), void *arg)
{
	DIR *tasks = opendir("/proc/self/task");
	struct dirent *entry;
	while ((entry = readdir(tasks))) {
		if (entry->d_name[0] == '.')
			continue;
		char path[300], name[32] = "";
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", entry->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = '\0';
		fclose(f);
		snprintf(path, sizeof(path), "/proc/self/task/%s", entry->d_name);
		each(name, path, arg);
	}
	closedir(tasks);
}

struct thread_count {
	const char *prefix;
	int count;
};

static void count_thread(const char *name, const char *task, void *arg)
{
	(void)task;
	struct thread_count *c = arg;
	c->count += strncmp(name, c->prefix, strlen(c->prefix)) == 0;
}

int plugin_threads(const char *name)
{
	struct thread_count c = {name ? name : "comment-bar-", 0};
	for_each_thread(count_thread, &c);
	return c.count;
}

int supervisor_threads(void)
{
	return plugin_threads("comment-bar-sup");
}

struct switch_count {
	const char *name;
	long long switches;
};

static void add_switches(const char *name, const char *task, void *arg)
{
	struct switch_count *c = arg;
	if (strcmp(name, c->name) != 0)
		return;
	char path[400], line[128];
	snprintf(path, sizeof(path), "%s/status", task);
	FILE *f = fopen(path, "r");
	long long value;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %lld", &value) == 1)
			c->switches = (c->switches < 0 ? 0 : c->switches) + value;
	if (f)
		fclose(f);
}

long long thread_wakeups(const char *name)
{
	struct switch_count c = {name, -1};
	for_each_thread(add_switches, &c);
	return c.switches;
}

/* Destroy returns at once and the supervisor stops the renderer on its own
 * thread: polls until every thread of the plugin has ended. Returns the seconds
 * it took, or -1 after timeout_s. */
double wait_supervisors_finished(double timeout_s)
{
	const uint64_t start = now_ns();
	while (plugin_threads(NULL) > 0) {
		if ((double)(now_ns() - start) / 1e9 >= timeout_s)
			return -1;
		sleep_ms(10);
	}
	return (double)(now_ns() - start) / 1e9;
}

/* True if pid is gone or a zombie (dead, waiting for its reaper). */
bool process_gone(pid_t pid)
{
	char path[64], text[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return true;
	const size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	const char *paren = strrchr(text, ')');
	return !paren || paren[1] == '\0' || paren[2] == 'Z';
}

/* Our end of the pipe that is pid's stdin: its status flags (fcntl F_GETFL), or -1 if not found. */
int stdin_pipe_flags(pid_t pid)
{
	char path[300], target[128], ours[128];
	snprintf(path, sizeof(path), "/proc/%d/fd/0", (int)pid);
	const ssize_t n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return -1;
	target[n] = '\0';
	if (strncmp(target, "pipe:", 5) != 0)
		return -1;
	DIR *fds = opendir("/proc/self/fd");
	int flags = -1;
	struct dirent *entry;
	while ((entry = readdir(fds))) {
		if (entry->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", entry->d_name);
		const ssize_t m = readlink(path, ours, sizeof(ours) - 1);
		if (m <= 0)
			continue;
		ours[m] = '\0';
		if (strcmp(ours, target) == 0) {
			flags = fcntl(atoi(entry->d_name), F_GETFL);
			break;
		}
	}
	closedir(fds);
	return flags;
}

/* Valid UTF-8 without control characters (what the plugin may put in the log). */
bool printable_utf8(const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	while (*s) {
		if (*s < 0x20 || *s == 0x7f)
			return false;
		if (*s < 0x80) {
			s++;
			continue;
		}
		int n;
		uint32_t cp;
		if ((*s & 0xE0) == 0xC0)
			n = 2, cp = *s & 0x1Fu;
		else if ((*s & 0xF0) == 0xE0)
			n = 3, cp = *s & 0x0Fu;
		else if ((*s & 0xF8) == 0xF0)
			n = 4, cp = *s & 0x07u;
		else
			return false;
		for (int i = 1; i < n; i++) {
			if ((s[i] & 0xC0) != 0x80)
				return false;
			cp = cp << 6 | (s[i] & 0x3Fu);
		}
		static const uint32_t min_for_length[] = {0, 0, 0x80, 0x800, 0x10000};
		if (cp < min_for_length[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || (cp >= 0x80 && cp < 0xA0))
			return false;
		s += n;
	}
	return true;
}

uint32_t fake_colour(const char *stream_id)
{
	uint32_t hash = 2166136261u;
	for (const char *p = stream_id; *p; p++)
		hash = (hash ^ (uint8_t)*p) * 16777619u;
	return 0xFF000000u | (hash & 0x00FFFFFFu);
}

bool texture_is_colour(struct bar *b, const void *arg)
{
	(void)b;
	const uint32_t colour = *(const uint32_t *)arg;
	const gs_texture_t *tex = bar_texture();
	if (!tex || !tex->uploads)
		return false;
	const uint32_t *px = (const uint32_t *)tex->pixels;
	const size_t count = (size_t)tex->width * tex->height;
	return px[0] == colour && px[count / 2] == colour && px[count - 1] == colour;
}

bool texture_width_is(struct bar *b, const void *arg)
{
	(void)b;
	return bar_texture() && bar_texture()->uploads && bar_texture()->width == *(const uint32_t *)arg;
}

/* The source's status line as the properties view shows it. */
void properties_status(struct bar *b, char *out, size_t out_size)
{
	obs_properties_t *props = registered.get_properties(b->data);
	obs_property_t *status = obs_properties_get(props, "renderer_status");
	snprintf(out, out_size, "%s", status ? obs_property_description(status) : "");
	obs_properties_destroy(props);
}


bool status_shows(struct bar *b, const void *arg)
{
	const struct status_arg *a = arg;
	char text[1024];
	properties_status(b, text, sizeof(text));
	for (int i = 0; i < 3 && a->want[i]; i++)
		if (!strstr(text, a->want[i]))
			return false;
	return !a->unwanted || !strstr(text, a->unwanted);
}
