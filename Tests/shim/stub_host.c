/*
 * stub_host: the shim's test. It dlopens the plugin .so, captures the source it
 * registers and drives it like OBS would (create, show, video_tick at 60 Hz,
 * video_render, update, hide, destroy), against the real renderer and against
 * fake_renderer where misbehaviour is needed.
 *
 * libobs: the real library provides the pure data parts (obs_data,
 * obs_properties, text lookup, bmalloc). The parts that need a running OBS
 * (graphics, source registration, the log) are defined below; this executable
 * is linked with -rdynamic, so its definitions come first in symbol lookup and
 * interpose the real ones for the plugin. Texture uploads are recorded.
 *
 *   stub_host --plugin SO --renderer COMMENTBAR --fake FAKE --fixtures DIR --work DIR
 *   stub_host --bench --plugin SO --fake FAKE --work DIR
 * Prints "N passed, M failed" and exits non-zero on any failure.
 */
#define _GNU_SOURCE
#include <cairo.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <obs-module.h>
#include <util/text-lookup.h>

/* ================= fakes of libobs's running parts ================= */

struct gs_texture {
	uint32_t width, height;
	enum gs_color_format format;
	uint32_t flags;
	uint8_t *pixels; /* the last upload, tightly packed */
	uint64_t uploads;
	uint64_t last_upload_ns;
	uint64_t last_stamp; /* first 8 bytes of the last upload (bench) */
};
struct gs_effect {
	int looping;
};
struct gs_effect_param {
	gs_texture_t *texture;
};

static int graphics_depth;
static unsigned graphics_violations; /* gs calls outside obs_enter_graphics */
static unsigned upload_violations;   /* uploads with a wrong line size or outside a pool mapping */
static uint64_t total_uploads;
static uint64_t upload_time_ns;
static uint64_t textures_alive;
static struct gs_effect default_effect;
static struct gs_effect_param image_param;
static bool srgb_enabled = true;
static int blend_depth;
static enum gs_blend_type blend_src = GS_BLEND_SRCALPHA, blend_dst = GS_BLEND_INVSRCALPHA;
static unsigned draws, bad_draws;

static struct obs_source_info registered;
static bool registered_any;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

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

static bool check_mappings = true;

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

static const char *data_dir = "plugin/data";

/* The real one needs a loaded obs_module_t; this reads the bundle's files the same way. */
lookup_t *obs_module_load_locale(obs_module_t *module, const char *default_locale, const char *locale)
{
	(void)module;
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
static FILE *log_file;
static bool log_echo;

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
static size_t log_find(size_t mark, const char *needle, char *first, size_t first_size)
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

static size_t log_mark(void)
{
	pthread_mutex_lock(&log_mutex);
	const size_t mark = log_count;
	pthread_mutex_unlock(&log_mutex);
	return mark;
}

/* The line (copied into out) and time of the nth (0-based) line since mark that
 * contains needle; false if there are not that many. */
static bool log_nth(size_t mark, const char *needle, size_t nth, char *out, size_t out_size, uint64_t *when)
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

/* ================= the test harness ================= */

static int passed, failed;

static void check(bool ok, const char *what, const char *detail_format, ...) __attribute__((format(printf, 3, 4)));
static void check(bool ok, const char *what, const char *detail_format, ...)
{
	char detail[1024] = "";
	if (detail_format) {
		va_list args;
		va_start(args, detail_format);
		vsnprintf(detail, sizeof(detail), detail_format, args);
		va_end(args);
	}
	if (ok)
		passed++;
	else
		failed++;
	printf("%s %s%s%s\n", ok ? "ok  " : "FAIL", what, detail[0] ? ": " : "", detail);
	fflush(stdout);
}

static struct {
	const char *plugin, *renderer, *fake, *fixtures, *work;
	bool bench;
} opt;

static void *plugin_handle;
static bool (*module_load)(void);
static void (*module_unload)(void);
static void (*module_set_locale)(const char *);
static char fake_source_storage;
#define FAKE_SOURCE ((obs_source_t *)&fake_source_storage)

/* Points the plugin at a renderer: the path is read when the module loads, as in OBS. */
static void use_renderer(const char *path, const char *fake_mode)
{
	setenv("COMMENTBAR_RENDERER", path, 1);
	if (fake_mode)
		setenv("COMMENTBAR_FAKE_MODE", fake_mode, 1);
	else
		unsetenv("COMMENTBAR_FAKE_MODE");
	module_unload();
	registered_any = false;
	module_load();
}

static obs_data_t *make_settings(const char *service, const char *stream, int width, int height)
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

struct bar {
	void *data;
	obs_data_t *settings;
};

static struct bar bar_create(obs_data_t *settings)
{
	struct bar b = {registered.create(settings, FAKE_SOURCE), settings};
	if (b.data)
		registered.show(b.data);
	return b;
}

static void bar_destroy(struct bar *b)
{
	if (b->data) {
		registered.hide(b->data);
		registered.destroy(b->data);
	}
	obs_data_release(b->settings);
	b->data = NULL;
	b->settings = NULL;
}

static void bar_update(struct bar *b)
{
	registered.update(b->data, b->settings);
}

static void tick_once(struct bar *b)
{
	registered.video_tick(b->data, 1.0f / 60.0f);
	obs_enter_graphics();
	registered.video_render(b->data, NULL);
	obs_leave_graphics();
}

/* The plugin's texture: found through what render last bound. */
static gs_texture_t *bar_texture(void)
{
	return image_param.texture;
}

typedef bool (*bar_predicate)(struct bar *b, const void *arg);

/* Ticks at ~60 Hz until pred holds or timeout; returns the seconds it took, or -1. */
static double tick_until(struct bar *b, bar_predicate pred, const void *arg, double timeout_s)
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

static bool always_false(struct bar *b, const void *arg)
{
	(void)b;
	(void)arg;
	return false;
}

static bool has_texture(struct bar *b, const void *arg)
{
	(void)b;
	(void)arg;
	return bar_texture() && bar_texture()->uploads > 0;
}

/* ---- what a process holds: fds, pool mappings, children ---- */
struct resources {
	int fds;
	int maps;
	int pool_maps;
	int children;
};

static int count_children(pid_t *first)
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

static struct resources resources_now(void)
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

static pid_t renderer_pid(void)
{
	pid_t pid = 0;
	return count_children(&pid) == 1 ? pid : 0;
}

/* Ticks b (if any) at ~60 Hz until the log has at least count lines since mark
 * containing needle; returns the seconds it took, or -1 after timeout_s. */
static double log_wait(struct bar *b, size_t mark, const char *needle, size_t count, double timeout_s)
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

/* The plugin's supervisor threads alive now (they name themselves). */
static int supervisor_threads(void)
{
	DIR *tasks = opendir("/proc/self/task");
	int count = 0;
	struct dirent *entry;
	while ((entry = readdir(tasks))) {
		if (entry->d_name[0] == '.')
			continue;
		char path[300], name[32] = "";
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", entry->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) && strcmp(name, "comment-bar-sup\n") == 0)
			count++;
		fclose(f);
	}
	closedir(tasks);
	return count;
}

/* Destroy returns at once and the supervisor stops the renderer on its own
 * thread: polls until every supervisor thread has ended. Returns the seconds
 * it took, or -1 after timeout_s. */
static double wait_supervisors_finished(double timeout_s)
{
	const uint64_t start = now_ns();
	while (supervisor_threads() > 0) {
		if ((double)(now_ns() - start) / 1e9 >= timeout_s)
			return -1;
		sleep_ms(10);
	}
	return (double)(now_ns() - start) / 1e9;
}

/* True if pid is gone or a zombie (dead, waiting for its reaper). */
static bool process_gone(pid_t pid)
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
static int stdin_pipe_flags(pid_t pid)
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
static bool printable_utf8(const char *text)
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

/* ================= pixel references from `commentbar render` ================= */

static bool run_command(char *const argv[], char *err, size_t err_size)
{
	char log_path[1024];
	snprintf(log_path, sizeof(log_path), "%s/command.log", opt.work);
	const pid_t pid = fork();
	if (pid == 0) {
		FILE *out = freopen(log_path, "w", stderr);
		(void)out;
		dup2(2, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return true;
	FILE *f = fopen(log_path, "r");
	size_t n = f ? fread(err, 1, err_size - 1, f) : 0;
	if (f)
		fclose(f);
	err[n] = '\0';
	return false;
}

/* Renders the reference PNG for a file stream and loads it (premultiplied BGRA, like the pool). */
static cairo_surface_t *reference_frame(const char *fixture, int width, int height, char *err, size_t err_size)
{
	char settings_path[1024], png_path[1024], width_text[16], height_text[16];
	snprintf(settings_path, sizeof(settings_path), "%s/reference-settings.json", opt.work);
	snprintf(png_path, sizeof(png_path), "%s/reference.png", opt.work);
	obs_data_t *settings = make_settings("file", fixture, width, height);
	FILE *f = fopen(settings_path, "w");
	fputs(obs_data_get_json(settings), f);
	fclose(f);
	obs_data_release(settings);
	snprintf(width_text, sizeof(width_text), "%d", width);
	snprintf(height_text, sizeof(height_text), "%d", height);
	char *argv[] = {(char *)opt.renderer, "render", "--service", "file", "--stream", (char *)fixture, "--at", "60",
			"--settings", settings_path, "--width", width_text, "--height", height_text, "--out", png_path,
			NULL};
	if (!run_command(argv, err, err_size))
		return NULL;
	cairo_surface_t *image = cairo_image_surface_create_from_png(png_path);
	if (cairo_surface_status(image) != CAIRO_STATUS_SUCCESS) {
		snprintf(err, err_size, "%s: %s", png_path, cairo_status_to_string(cairo_surface_status(image)));
		cairo_surface_destroy(image);
		return NULL;
	}
	return image;
}

struct frame_difference {
	double mean;      /* mean absolute channel difference */
	double off_share; /* share of pixels with a channel off by more than 24 */
	int max;
};

static struct frame_difference compare_frame(const gs_texture_t *tex, cairo_surface_t *image)
{
	struct frame_difference d = {255, 1, 255};
	const int width = cairo_image_surface_get_width(image), height = cairo_image_surface_get_height(image);
	if (!tex || (int)tex->width != width || (int)tex->height != height)
		return d;
	cairo_surface_flush(image);
	const uint8_t *ref = cairo_image_surface_get_data(image);
	const int ref_stride = cairo_image_surface_get_stride(image);
	uint64_t sum = 0, off = 0;
	d.max = 0;
	for (int y = 0; y < height; y++)
		for (int x = 0; x < width; x++) {
			const uint8_t *a = tex->pixels + ((size_t)y * width + x) * 4;
			const uint8_t *b = ref + (size_t)y * ref_stride + x * 4;
			int worst = 0;
			for (int c = 0; c < 4; c++) {
				const int delta = abs((int)a[c] - (int)b[c]);
				sum += (uint64_t)delta;
				worst = delta > worst ? delta : worst;
			}
			off += worst > 24;
			d.max = worst > d.max ? worst : d.max;
		}
	d.mean = (double)sum / ((double)width * height * 4);
	d.off_share = (double)off / ((double)width * height);
	return d;
}

static bool matches(struct frame_difference d)
{
	return d.mean < 1.5 && d.off_share < 0.005;
}

struct reference_arg {
	cairo_surface_t *image;
};

static bool matches_reference(struct bar *b, const void *arg)
{
	(void)b;
	const struct reference_arg *r = arg;
	return bar_texture() && matches(compare_frame(bar_texture(), r->image));
}

static void save_texture_png(const gs_texture_t *tex, const char *name)
{
	if (!tex)
		return;
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", opt.work, name);
	cairo_surface_t *s = cairo_image_surface_create_for_data(tex->pixels, CAIRO_FORMAT_ARGB32, (int)tex->width,
								 (int)tex->height, (int)tex->width * 4);
	cairo_surface_write_to_png(s, path);
	cairo_surface_destroy(s);
}

/* ================= the tests ================= */

static void test_registration(void)
{
	check(registered_any, "obs_module_load registers a source", NULL);
	if (!registered_any)
		return;
	check(registered.id && strcmp(registered.id, "comment_bar_source") == 0, "source id is comment_bar_source",
	      "%s", registered.id ? registered.id : "(null)");
	check(registered.type == OBS_SOURCE_TYPE_INPUT, "it is an input", NULL);
	check((registered.output_flags & (OBS_SOURCE_VIDEO | OBS_SOURCE_CUSTOM_DRAW)) ==
			      (OBS_SOURCE_VIDEO | OBS_SOURCE_CUSTOM_DRAW) &&
		      !(registered.output_flags & OBS_SOURCE_ASYNC),
	      "synchronous video source with custom draw", "flags 0x%x", registered.output_flags);
	check(registered.video_tick && registered.video_render && registered.show && registered.hide &&
		      registered.get_width && registered.get_height && registered.get_properties &&
		      registered.get_defaults && registered.update,
	      "has tick, render, show/hide, size, properties, defaults, update", NULL);

	module_set_locale("en-US");
	const char *name = registered.get_name(NULL);
	check(strcmp(name, "Comment Bar") == 0, "display name from en-US.ini", "\"%s\"", name);
	module_set_locale("ja-JP");
	name = registered.get_name(NULL);
	check(strcmp(name, "コメントバー") == 0, "display name from ja-JP.ini", "\"%s\"", name);
	/* Every label of the properties resolves in Japanese (a missing key shows as itself, ASCII). */
	obs_properties_t *props = registered.get_properties(NULL);
	int untranslated = 0;
	char which[256] = "";
	for (obs_property_t *p = obs_properties_first(props); p; obs_property_next(&p)) {
		const char *label = obs_property_description(p);
		bool ascii = true;
		for (const char *c = label; c && *c; c++)
			ascii &= (unsigned char)*c < 0x80;
		if (ascii && strcmp(obs_property_name(p), "fps") != 0) {
			untranslated++;
			snprintf(which, sizeof(which), "%s=\"%s\"", obs_property_name(p), label);
		}
	}
	obs_properties_destroy(props);
	check(untranslated == 0, "every property label is translated in ja-JP.ini", "%d untranslated, e.g. %s",
	      untranslated, which);
	module_set_locale("en-US");
}

static void test_defaults_and_properties(void)
{
	obs_data_t *s = obs_data_create();
	registered.get_defaults(s);
	/* The defaults of Sources/CommentBarCore/BarSettings.swift. */
	obs_data_t *font = obs_data_get_obj(s, "font");
	const bool ok = strcmp(obs_data_get_string(s, "service"), "demo") == 0 &&
			strcmp(obs_data_get_string(s, "stream_id"), "") == 0 &&
			strcmp(obs_data_get_string(s, "server"), "") == 0 && obs_data_get_int(s, "width") == 1280 &&
			obs_data_get_int(s, "height") == 360 && obs_data_get_int(s, "max_lines") == 6 && font &&
			strcmp(obs_data_get_string(font, "face"), "Noto Sans CJK JP") == 0 &&
			strcmp(obs_data_get_string(font, "style"), "Regular") == 0 &&
			obs_data_get_int(font, "size") == 26 && obs_data_get_int(font, "flags") == 0 &&
			(uint32_t)obs_data_get_int(s, "text_color") == 0xFFFFFFFFu &&
			(uint32_t)obs_data_get_int(s, "bg_color") == 0xFF1E1414u &&
			obs_data_get_int(s, "bg_opacity") == 78 && obs_data_get_int(s, "corner_radius") == 20 &&
			obs_data_get_bool(s, "show_clock") && obs_data_get_bool(s, "show_viewers") &&
			obs_data_get_bool(s, "show_gifts") && obs_data_get_bool(s, "show_mic") &&
			obs_data_get_bool(s, "show_avatar") && strcmp(obs_data_get_string(s, "avatar_path"), "") == 0 &&
			strcmp(obs_data_get_string(s, "background_path"), "") == 0 && obs_data_get_int(s, "fps") == 30;
	obs_data_release(font);
	obs_data_release(s);
	check(ok, "defaults match BarSettings.swift", NULL);

	obs_properties_t *props = registered.get_properties(NULL);
	static const struct {
		const char *name;
		enum obs_property_type type;
		int min, max;
	} expected[] = {
		{"service", OBS_PROPERTY_LIST, 0, 0},        {"stream_id", OBS_PROPERTY_TEXT, 0, 0},
		{"server", OBS_PROPERTY_TEXT, 0, 0},         {"width", OBS_PROPERTY_INT, 64, 3840},
		{"height", OBS_PROPERTY_INT, 64, 3840},      {"max_lines", OBS_PROPERTY_INT, 1, 50},
		{"font", OBS_PROPERTY_FONT, 0, 0},           {"text_color", OBS_PROPERTY_COLOR_ALPHA, 0, 0},
		{"bg_color", OBS_PROPERTY_COLOR, 0, 0},      {"bg_opacity", OBS_PROPERTY_INT, 0, 100},
		{"corner_radius", OBS_PROPERTY_INT, 0, 200}, {"show_clock", OBS_PROPERTY_BOOL, 0, 0},
		{"show_viewers", OBS_PROPERTY_BOOL, 0, 0},   {"show_gifts", OBS_PROPERTY_BOOL, 0, 0},
		{"show_mic", OBS_PROPERTY_BOOL, 0, 0},       {"show_avatar", OBS_PROPERTY_BOOL, 0, 0},
		{"avatar_path", OBS_PROPERTY_PATH, 0, 0},    {"background_path", OBS_PROPERTY_PATH, 0, 0},
		{"fps", OBS_PROPERTY_INT, 1, 60},
	};
	char problems[512] = "";
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		obs_property_t *p = obs_properties_get(props, expected[i].name);
		bool good = p && obs_property_get_type(p) == expected[i].type;
		if (good && expected[i].type == OBS_PROPERTY_INT)
			good = obs_property_int_min(p) == expected[i].min && obs_property_int_max(p) == expected[i].max;
		if (!good)
			snprintf(problems + strlen(problems), sizeof(problems) - strlen(problems), " %s", expected[i].name);
	}
	obs_property_t *service = obs_properties_get(props, "service");
	const char *services[] = {"demo", "file", "twitch", "irc", "websocket"};
	bool services_ok = service && obs_property_list_item_count(service) == 5;
	for (size_t i = 0; services_ok && i < 5; i++)
		services_ok = strcmp(obs_property_list_item_string(service, i), services[i]) == 0;
	obs_properties_destroy(props);
	check(!problems[0], "properties have the right keys, types and ranges", "wrong:%s", problems);
	check(services_ok, "service list is demo, file, twitch, irc, websocket", NULL);
}

static uint32_t fake_colour(const char *stream_id)
{
	uint32_t hash = 2166136261u;
	for (const char *p = stream_id; *p; p++)
		hash = (hash ^ (uint8_t)*p) * 16777619u;
	return 0xFF000000u | (hash & 0x00FFFFFFu);
}

static bool texture_is_colour(struct bar *b, const void *arg)
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

static bool texture_width_is(struct bar *b, const void *arg)
{
	(void)b;
	return bar_texture() && bar_texture()->uploads && bar_texture()->width == *(const uint32_t *)arg;
}

/* The settings line the fake echoed ("fake: got {...}"), parsed as JSON: every
 * key with its type and value, and nothing else. Writes what is wrong into problems. */
static bool settings_line_complete(const char *log_line, char *problems, size_t problems_size)
{
	problems[0] = '\0';
	const char *json = strstr(log_line, "fake: got ");
	obs_data_t *root = json ? obs_data_create_from_json(json + strlen("fake: got ")) : NULL;
	if (!root) {
		snprintf(problems, problems_size, "not JSON");
		return false;
	}
	obs_data_t *settings = obs_data_get_obj(root, "settings");
	size_t root_keys = 0;
	for (obs_data_item_t *item = obs_data_first(root); item; obs_data_item_next(&item))
		root_keys++;
	static const struct {
		const char *key;
		enum obs_data_type type;
		const char *text;
		long long number;
	} expected[] = {
		{"service", OBS_DATA_STRING, "demo", 0},
		{"stream_id", OBS_DATA_STRING, "alpha", 0},
		{"server", OBS_DATA_STRING, "", 0},
		{"width", OBS_DATA_NUMBER, NULL, 320},
		{"height", OBS_DATA_NUMBER, NULL, 96},
		{"max_lines", OBS_DATA_NUMBER, NULL, 6},
		{"font", OBS_DATA_OBJECT, NULL, 0},
		{"text_color", OBS_DATA_NUMBER, NULL, 4294967295ll},
		{"bg_color", OBS_DATA_NUMBER, NULL, 4280161300ll},
		{"bg_opacity", OBS_DATA_NUMBER, NULL, 78},
		{"corner_radius", OBS_DATA_NUMBER, NULL, 20},
		{"show_clock", OBS_DATA_BOOLEAN, NULL, 0},
		{"show_viewers", OBS_DATA_BOOLEAN, NULL, 1},
		{"show_gifts", OBS_DATA_BOOLEAN, NULL, 1},
		{"show_mic", OBS_DATA_BOOLEAN, NULL, 1},
		{"show_avatar", OBS_DATA_BOOLEAN, NULL, 1},
		{"avatar_path", OBS_DATA_STRING, "", 0},
		{"background_path", OBS_DATA_STRING, "", 0},
		{"fps", OBS_DATA_NUMBER, NULL, 30},
	};
	const size_t expected_keys = sizeof(expected) / sizeof(expected[0]);
	if (root_keys != 1 || !settings)
		snprintf(problems, problems_size, " root is not {\"settings\":{...}}");
	size_t keys = 0;
	for (obs_data_item_t *item = settings ? obs_data_first(settings) : NULL; item; obs_data_item_next(&item))
		keys++;
	if (settings && keys != expected_keys)
		snprintf(problems + strlen(problems), problems_size - strlen(problems), " %zu keys, not %zu", keys,
			 expected_keys);
	for (size_t i = 0; settings && i < expected_keys; i++) {
		obs_data_item_t *item = obs_data_item_byname(settings, expected[i].key);
		bool good = item && obs_data_item_gettype(item) == expected[i].type;
		if (good && expected[i].type == OBS_DATA_STRING)
			good = strcmp(obs_data_item_get_string(item), expected[i].text) == 0;
		else if (good && expected[i].type == OBS_DATA_NUMBER)
			good = obs_data_item_numtype(item) == OBS_DATA_NUM_INT &&
			       obs_data_item_get_int(item) == expected[i].number;
		else if (good && expected[i].type == OBS_DATA_BOOLEAN)
			good = obs_data_item_get_bool(item) == (expected[i].number != 0);
		obs_data_item_release(&item);
		if (!good)
			snprintf(problems + strlen(problems), problems_size - strlen(problems), " %s", expected[i].key);
	}
	obs_data_t *font = settings ? obs_data_get_obj(settings, "font") : NULL;
	if (settings && !(font && strcmp(obs_data_get_string(font, "face"), "Noto Sans CJK JP") == 0 &&
			  strcmp(obs_data_get_string(font, "style"), "Regular") == 0 &&
			  obs_data_get_int(font, "size") == 26 && obs_data_has_user_value(font, "flags") &&
			  obs_data_get_int(font, "flags") == 0))
		snprintf(problems + strlen(problems), problems_size - strlen(problems), " font{face,style,size,flags}");
	obs_data_release(font);
	obs_data_release(settings);
	obs_data_release(root);
	return problems[0] == '\0';
}

/* The source's status line as the properties view shows it. */
static void properties_status(struct bar *b, char *out, size_t out_size)
{
	obs_properties_t *props = registered.get_properties(b->data);
	obs_property_t *status = obs_properties_get(props, "renderer_status");
	snprintf(out, out_size, "%s", status ? obs_property_description(status) : "");
	obs_properties_destroy(props);
}

struct status_arg {
	const char *want[3]; /* all of these (NULL ends the list) */
	const char *unwanted;
};

static bool status_shows(struct bar *b, const void *arg)
{
	const struct status_arg *a = arg;
	char text[1024];
	properties_status(b, text, sizeof(text));
	for (int i = 0; i < 3 && a->want[i]; i++)
		if (!strstr(text, a->want[i]))
			return false;
	return !a->unwanted || !strstr(text, a->unwanted);
}

static void test_with_fake_renderer(void)
{
	use_renderer(opt.fake, "solid");
	size_t mark = log_mark();
	struct bar b = bar_create(make_settings("demo", "alpha", 320, 96));
	check(b.data != NULL, "create returns a source", NULL);
	if (!b.data)
		return;
	uint32_t alpha = fake_colour("alpha");
	double took = tick_until(&b, texture_is_colour, &alpha, 10);
	check(took >= 0, "first frame from the renderer is uploaded", "after %.2f s", took);
	check(bar_texture() && bar_texture()->width == 320 && bar_texture()->height == 96 &&
		      registered.get_width(b.data) == 320 && registered.get_height(b.data) == 96,
	      "texture and source size follow the settings", NULL);
	check(graphics_violations == 0, "every gs call is inside obs_enter_graphics", "%u outside", graphics_violations);
	check(draws > 0 && bad_draws == 0, "render draws the texture premultiplied (ONE, INVSRCALPHA, sRGB off)",
	      "%u of %u draws wrong", bad_draws, draws);
	const struct status_arg running = {{"Renderer: running (pid ", "live: fake renderer", NULL}, NULL};
	took = tick_until(&b, status_shows, &running, 10);
	char status_text[1024];
	properties_status(&b, status_text, sizeof(status_text));
	check(took >= 0, "the properties show the renderer's status", "\"%s\"", status_text);

	char line[4096] = "", problems[512] = "";
	log_wait(&b, mark, "renderer: fake: got {\"active\":true}", 1, 10);
	const size_t settings_lines = log_find(mark, "renderer: fake: got {\"settings\":", line, sizeof(line));
	const bool complete = settings_lines == 1 && settings_line_complete(line, problems, sizeof(problems));
	check(complete, "the renderer gets one settings line, valid JSON with every key, type and value",
	      "%zu lines; wrong:%s; line: %s", settings_lines, problems, line);
	check(log_find(mark, "renderer: fake: got {\"active\":true}", NULL, 0) == 1,
	      "show sends {\"active\":true}", NULL);
	check(log_find(mark, "[comment-bar] renderer: fake: pid", NULL, 0) == 1,
	      "renderer stderr reaches the log with the [comment-bar] renderer: prefix", NULL);
	const pid_t pid_before = renderer_pid();
	char attach[64], attached[512] = "";
	snprintf(attach, sizeof(attach), "renderer pid %d attached to its pool (producer_pid %d)", (int)pid_before,
		 (int)pid_before);
	check(pid_before && log_wait(&b, mark, attach, 1, 10) >= 0 && log_find(mark, "attached to its pool", attached,
										sizeof(attached)) == 1,
	      "the renderer's producer_pid is logged once when it attaches", "%s", attached);

	/* An update reaches the same renderer as a new line. */
	mark = log_mark();
	obs_data_set_string(b.settings, "stream_id", "beta");
	bar_update(&b);
	uint32_t beta = fake_colour("beta");
	took = tick_until(&b, texture_is_colour, &beta, 10);
	check(took >= 0 && renderer_pid() == pid_before && pid_before != 0,
	      "a new stream id reaches the running renderer and the pixels change", "after %.2f s, pid %d -> %d", took,
	      pid_before, renderer_pid());

	/* The same settings again: nothing to tell the renderer. */
	mark = log_mark();
	bar_update(&b);
	bar_update(&b);
	tick_until(&b, always_false, NULL, 0.3);
	check(log_find(mark, "got {\"settings\"", NULL, 0) == 0, "an update with unchanged settings sends nothing", NULL);

	/* Settings too long to send: not sent, logged once (rate-limited), shown in the properties. */
	mark = log_mark();
	enum { LONG_SERVER = 40000 };
	char *server = malloc(LONG_SERVER + 1);
	memset(server, 'x', LONG_SERVER);
	server[LONG_SERVER] = '\0';
	obs_data_set_int(b.settings, "width", 256); /* not applied either: the whole update is refused */
	for (int i = 0; i < 50; i++) {
		server[0] = (char)('a' + i % 26);
		obs_data_set_string(b.settings, "server", server);
		bar_update(&b);
	}
	free(server);
	const struct status_arg refused = {{"Renderer: running (pid ", "settings were not sent", "more than 32768"},
					   NULL};
	took = tick_until(&b, status_shows, &refused, 10);
	properties_status(&b, status_text, sizeof(status_text));
	check(took >= 0, "settings over 32 KiB are shown as not sent in the properties", "\"%s\"", status_text);
	char refusal[1024] = "";
	log_wait(&b, mark, "longer than the 32768 bytes the shim sends", 1, 10);
	tick_until(&b, always_false, NULL, 0.3);
	const size_t refusals = log_find(mark, "longer than the 32768 bytes the shim sends", refusal, sizeof(refusal));
	check(refusals == 1, "50 updates with settings over 32 KiB log one warning (at most one per 10 s)",
	      "%zu warnings: %s", refusals, refusal);
	check(log_find(mark, "got {\"settings\"", NULL, 0) == 0 && renderer_pid() == pid_before &&
		      registered.get_width(b.data) == 320 && texture_is_colour(&b, &beta),
	      "the renderer keeps its settings, size and pixels when settings are not sent", "width %u",
	      registered.get_width(b.data));
	obs_data_set_string(b.settings, "server", "");
	obs_data_set_int(b.settings, "width", 320);
	bar_update(&b);
	const struct status_arg cleared = {{"Renderer: running (pid ", NULL, NULL}, "not sent"};
	took = tick_until(&b, status_shows, &cleared, 10);
	check(took >= 0, "settings that fit again clear the warning in the properties", NULL);

	/* Hide, show. */
	mark = log_mark();
	registered.hide(b.data);
	const double hidden = log_wait(&b, mark, "got {\"active\":false}", 1, 10);
	registered.show(b.data);
	const double shown = log_wait(&b, mark, "got {\"active\":true}", 1, 10);
	tick_until(&b, always_false, NULL, 0.2);
	check(hidden >= 0 && shown >= 0 && log_find(mark, "got {\"active\":false}", NULL, 0) == 1 &&
		      log_find(mark, "got {\"active\":true}", NULL, 0) == 1,
	      "hide and show send {\"active\":false} and {\"active\":true}", "after %.2f s and %.2f s", hidden, shown);

	/* A new size: a new pool and a new renderer; the old texture is drawn until then. */
	mark = log_mark();
	const unsigned draws_before = draws;
	const gs_texture_t *old = bar_texture();
	obs_data_set_int(b.settings, "width", 200);
	bar_update(&b);
	uint32_t new_width = 200;
	unsigned ticks = 0;
	const uint64_t start = now_ns();
	bool kept = true;
	while ((double)(now_ns() - start) / 1e9 < 10 && !texture_width_is(&b, &new_width)) {
		tick_once(&b);
		ticks++;
		kept &= bar_texture() == old || bar_texture()->width == 200;
		sleep_ms(16);
	}
	check(texture_width_is(&b, &new_width) && renderer_pid() != pid_before && registered.get_width(b.data) == 200,
	      "a new width respawns the renderer on a new pool", "pid %d -> %d", pid_before, renderer_pid());
	check(kept && draws - draws_before >= ticks, "the old frame is drawn until the new one arrives", NULL);
	check(log_find(mark, "the size changed", NULL, 0) == 1, "the respawn is logged", NULL);

	const struct resources before_destroy = resources_now();
	bar_destroy(&b);
	check(textures_alive == 0, "destroy frees the texture", "%llu alive", (unsigned long long)textures_alive);
	const double finished = wait_supervisors_finished(10);
	const struct resources after = resources_now();
	check(finished >= 0 && after.children == 0 && after.pool_maps == 0 && after.fds < before_destroy.fds,
	      "destroy leaves no child, pool mapping or fd once the supervisor has finished",
	      "finished after %.2f s; children %d, pool maps %d, fds %d -> %d", finished, after.children,
	      after.pool_maps, before_destroy.fds, after.fds);
}

/* Updates and ticks from another thread, so that a call that blocked would show
 * as a failure instead of hanging the test. */
struct update_storm {
	struct bar *bar;
	size_t mark;
	atomic_int calls; /* update + video_tick pairs that returned */
	atomic_bool done;
	uint64_t slowest_ns;
};

static void *update_storm_thread(void *data)
{
	struct update_storm *storm = data;
	char server[1024];
	memset(server, 'x', sizeof(server) - 1);
	server[sizeof(server) - 1] = '\0';
	const uint64_t start = now_ns();
	/* At least 2000 updates of ~1.4 KB (far more than a pipe holds) and on until
	 * the supervisor has found the pipe full, within 30 s. */
	for (int i = 0; (i < 2000 || !log_find(storm->mark, "is not reading its input", NULL, 0)) &&
			(double)(now_ns() - start) / 1e9 < 30;
	     i++) {
		server[0] = (char)('a' + i % 26);
		server[1] = (char)('a' + i / 26 % 26);
		obs_data_set_string(storm->bar->settings, "server", server);
		const uint64_t t0 = now_ns();
		bar_update(storm->bar);
		registered.video_tick(storm->bar->data, 1.0f / 60.0f);
		const uint64_t spent = now_ns() - t0;
		storm->slowest_ns = spent > storm->slowest_ns ? spent : storm->slowest_ns;
		atomic_fetch_add(&storm->calls, 1);
	}
	atomic_store(&storm->done, true);
	return NULL;
}

static void test_stale_heartbeat(void)
{
	use_renderer(opt.fake, "hang");
	const size_t mark = log_mark();
	const uint64_t created_at = now_ns();
	struct bar b = bar_create(make_settings("demo", "gamma", 128, 64));
	uint32_t colour = fake_colour("gamma");
	tick_until(&b, texture_is_colour, &colour, 10);
	const pid_t first = renderer_pid();
	const gs_texture_t *tex = bar_texture();
	const uint64_t uploads = tex ? tex->uploads : 0;

	/* The frozen renderer reads nothing: megabytes of settings must not block OBS's threads. */
	const double frozen = log_wait(&b, mark, "fake: frozen", 1, 10);
	const int flags = first ? stdin_pipe_flags(first) : -1;
	check(frozen >= 0 && flags >= 0 && (flags & O_ACCMODE) == O_WRONLY && (flags & O_NONBLOCK),
	      "the renderer's stdin pipe is non-blocking on the shim's side", "flags 0x%x", flags);
	struct update_storm storm = {.bar = &b, .mark = mark};
	pthread_t storm_thread;
	pthread_create(&storm_thread, NULL, update_storm_thread, &storm);
	const uint64_t storm_start = now_ns();
	while (!atomic_load(&storm.done) && (double)(now_ns() - storm_start) / 1e9 < 60)
		sleep_ms(10);
	if (!atomic_load(&storm.done)) {
		/* The calls are stuck inside the plugin: nothing further can be trusted. */
		check(false, "a renderer that stops reading stdin never blocks update or video_tick",
		      "stuck after %d calls", atomic_load(&storm.calls));
		printf("%d passed, %d failed\n", passed, failed);
		fflush(stdout);
		_exit(1);
	}
	pthread_join(storm_thread, NULL);
	const double storm_s = (double)(now_ns() - storm_start) / 1e9;
	const int calls = atomic_load(&storm.calls);
	printf("     (%d update + video_tick calls in %.2f s while the renderer read nothing; slowest %.2f ms)\n", calls,
	       storm_s, storm.slowest_ns / 1e6);
	check(calls >= 2000 && log_find(mark, "is not reading its input", NULL, 0) == 1,
	      "a renderer that stops reading stdin never blocks update or video_tick; the full pipe is logged once",
	      "%d calls returned", calls);

	const double killed = log_wait(&b, mark, "gave no heartbeat", 1, 15);
	uint64_t killed_ns = 0;
	char kill_line[512] = "";
	log_nth(mark, "gave no heartbeat", 0, kill_line, sizeof(kill_line), &killed_ns);
	const double after_start = killed >= 0 ? (double)(killed_ns - created_at) / 1e9 : -1;
	const char *silent_text = strstr(kill_line, "no heartbeat for ");
	const double silent = silent_text ? atof(silent_text + strlen("no heartbeat for ")) : -1;
	/* It beat until 0.5 s after its start: the kill cannot come before 3 s after that. */
	check(killed >= 0 && after_start >= 3.3 && silent >= 3.0,
	      "a renderer without heartbeat is killed, not before 3 s after its last one",
	      "killed %.2f s after start (its heartbeat stopped 0.5 s after its start), after %.1f s of silence",
	      after_start, silent);
	const bool same_frame = bar_texture() == tex && tex && tex->uploads == uploads && texture_is_colour(&b, &colour);
	check(same_frame, "the last frame stays while the renderer is down", NULL);
	const uint64_t restart_start = now_ns();
	pid_t second = 0;
	while ((double)(now_ns() - restart_start) / 1e9 < 10) {
		tick_once(&b);
		second = renderer_pid();
		if (second && second != first)
			break;
		sleep_ms(16);
	}
	check(second != 0 && second != first, "it is restarted", "pid %d -> %d", first, second);
	bar_destroy(&b);
	wait_supervisors_finished(10);
}

/* Destroy must not wait for the renderer: OBS 29 may release a source on its
 * graphics thread. Module unload waits for the supervisors instead. */
static void test_async_destroy(void)
{
	use_renderer(opt.fake, "hang");
	size_t mark = log_mark();
	struct bar b = bar_create(make_settings("demo", "epsilon", 128, 64));
	uint32_t colour = fake_colour("epsilon");
	tick_until(&b, texture_is_colour, &colour, 10);
	/* Frozen: it will not exit on stdin EOF, only the SIGKILL 0.5 s later ends it. */
	const double frozen = log_wait(&b, mark, "fake: frozen", 1, 10);
	const pid_t pid = renderer_pid();
	mark = log_mark();
	const uint64_t t0 = now_ns();
	bar_destroy(&b);
	const double destroy_ms = (double)(now_ns() - t0) / 1e6;
	const bool not_killed_yet = log_find(mark, "did not exit within", NULL, 0) == 0;
	const int threads = supervisor_threads();
	const bool child_alive = pid && !process_gone(pid);
	printf("     (destroy returned after %.2f ms)\n", destroy_ms);
	check(frozen >= 0 && pid && not_killed_yet && threads == 1 && child_alive,
	      "destroy returns before the supervisor has stopped a renderer that ignores EOF",
	      "kill already logged: %s, supervisor threads %d, renderer alive: %s", not_killed_yet ? "no" : "yes", threads,
	      child_alive ? "yes" : "no");

	const uint64_t t1 = now_ns();
	module_unload();
	const double unload_s = (double)(now_ns() - t1) / 1e9;
	const struct resources after = resources_now();
	check(supervisor_threads() == 0 && after.children == 0 && after.pool_maps == 0 &&
		      log_find(mark, "did not exit within 0.5 s of its input closing; killed", NULL, 0) == 1,
	      "module unload waits for the supervisor: the renderer is killed and reaped, the thread has ended",
	      "unload took %.2f s; threads %d, children %d, pool maps %d", unload_s, supervisor_threads(), after.children,
	      after.pool_maps);
	registered_any = false;
	module_load();
	check(registered_any, "the module loads again after unload", NULL);
}

static void test_restart_backoff(void)
{
	use_renderer(opt.fake, "exit");
	const size_t mark = log_mark();
	struct bar b = bar_create(make_settings("demo", "delta", 128, 64));
	/* 0.25 + 0.5 + 1 + 2 s of delays and five runs of 0.1 s: about 4.3 s unloaded. */
	const double took = log_wait(&b, mark, "restarting in", 4, 20);
	const double fifth = log_wait(&b, mark, "started renderer pid", 5, 10);
	char first[512] = "", delays[256] = "", gaps[256] = "";
	const size_t exits = log_find(mark, "exited with status 3", first, sizeof(first));
	bool doubling = true, waited = true;
	double expected = 0.25;
	for (size_t i = 0; i < 4; i++, expected *= 2) {
		char line[512] = "";
		uint64_t announced_ns = 0, started_ns = 0;
		const bool have = log_nth(mark, "restarting in", i, line, sizeof(line), &announced_ns) &&
				  log_nth(mark, "started renderer pid", i + 1, NULL, 0, &started_ns);
		const char *in = strstr(line, "restarting in ");
		const double delay = in ? atof(in + strlen("restarting in ")) : -1;
		const double gap = have ? (double)(started_ns - announced_ns) / 1e9 : -1;
		snprintf(delays + strlen(delays), sizeof(delays) - strlen(delays), "%s%.2f", i ? ", " : "", delay);
		snprintf(gaps + strlen(gaps), sizeof(gaps) - strlen(gaps), "%s%.2f", i ? ", " : "", gap);
		doubling &= have && fabs(delay - expected) < 0.001;
		/* The next start comes no earlier than announced (0.1 s allowed for when the line was logged). */
		waited &= have && gap >= delay - 0.1;
	}
	printf("     (announced delays %s s; measured %s s)\n", delays, gaps);
	check(took >= 0 && fifth >= 0 && exits >= 4 && doubling && waited,
	      "a crashing renderer is restarted with doubling delays (0.25, 0.5, 1, 2 s), each waited, exit code logged",
	      "%zu exits in %.1f s; first: %s", exits, took, first);
	bar_destroy(&b);
	const double finished = wait_supervisors_finished(10);
	check(finished >= 0 && resources_now().children == 0, "no child left after destroy during backoff",
	      "finished after %.2f s", finished);
}

static void test_fuzzed_header(void)
{
	use_renderer(opt.fake, "fuzz");
	setenv("COMMENTBAR_FAKE_FUZZ_MS", "2500", 1);
	const size_t mark = log_mark();
	const unsigned violations_before = upload_violations;
	struct bar b = bar_create(make_settings("demo", "fuzz", 256, 80));
	/* Tick as fast as possible while the header is garbage (2.5 s), until the fake says it is done. */
	const uint64_t start = now_ns();
	uint64_t ticks = 0;
	while (!log_find(mark, "fake: fuzzed the header", NULL, 0) && (double)(now_ns() - start) / 1e9 < 20) {
		tick_once(&b);
		ticks++;
		if ((ticks & 7) == 0)
			sleep_ms(1);
	}
	const pid_t pid = renderer_pid();
	check(log_find(mark, "fake: fuzzed the header", NULL, 0) >= 1, "the header was fuzzed while ticking",
	      "%llu ticks", (unsigned long long)ticks);
	check(log_find(mark, "seal-check shrink=refused grow=refused", NULL, 0) >= 1,
	      "the sealed pool refuses the renderer's ftruncate", NULL);
	check(upload_violations == violations_before && graphics_violations == 0,
	      "every upload stayed inside the pool with the shim's own geometry", "%u bad uploads",
	      upload_violations - violations_before);
	uint32_t colour = fake_colour("fuzz");
	const double took = tick_until(&b, texture_is_colour, &colour, 10);
	check(took >= 0 && bar_texture()->width == 256 && bar_texture()->height == 80,
	      "frames flow again after the fuzzing, at the shim's size", "after %.2f s", took);
	tick_until(&b, always_false, NULL, 0.2);
	bar_destroy(&b);
	wait_supervisors_finished(10);
	/* Rate-limited: one report at once, the rest in the final one when the renderer goes. */
	char report[1024] = "", who[64];
	const size_t reports = log_find(mark, "broke the frame hand-off", report, sizeof(report));
	snprintf(who, sizeof(who), "renderer pid %d (producer_pid ", (int)pid);
	check(reports >= 1 && reports <= 3 && strstr(report, who) && strstr(report, " in all"),
	      "invalid hand-offs are logged, rate-limited, with the renderer's pid and producer_pid", "%zu reports: %s",
	      reports, report);
	/* Whatever the garbage status text was, the log got printable UTF-8. */
	size_t bad_lines = 0, status_lines = log_find(mark, "renderer status:", NULL, 0);
	char bad[512] = "";
	pthread_mutex_lock(&log_mutex);
	for (size_t i = mark; i < log_count; i++)
		if (!printable_utf8(log_lines[i])) {
			if (!bad_lines)
				snprintf(bad, sizeof(bad), "%s", log_lines[i]);
			bad_lines++;
		}
	pthread_mutex_unlock(&log_mutex);
	check(bad_lines == 0 && log_find(mark, "renderer status: live: nasty:??????????? end \xc3\xa9", NULL, 0) == 1,
	      "status text from the pool reaches the log as printable UTF-8 (control and invalid bytes as ?)",
	      "%zu status lines, %zu bad, e.g. %s", status_lines, bad_lines, bad);
	unsetenv("COMMENTBAR_FAKE_FUZZ_MS");
}

/* A renderer that floods stderr: the log gets a burst, then a count of the rest. */
static void test_chatty_renderer(void)
{
	enum { LINES = 3000, BURST = 200, PER_S = 20 };
	setenv("COMMENTBAR_FAKE_LINES", "3000", 1);
	use_renderer(opt.fake, "chatty");
	const size_t mark = log_mark();
	const uint64_t start = now_ns();
	struct bar b = bar_create(make_settings("demo", "zeta", 128, 64));
	uint32_t colour = fake_colour("zeta");
	const double took = tick_until(&b, texture_is_colour, &colour, 10);
	bar_destroy(&b);
	wait_supervisors_finished(10);
	const double elapsed = (double)(now_ns() - start) / 1e9;
	const size_t logged = log_find(mark, "renderer: fake: chatter ", NULL, 0);
	uint64_t counted = 0;
	char line[512] = "";
	for (size_t i = 0; log_nth(mark, "lines of the renderer's output were not logged", i, line, sizeof(line), NULL);
	     i++) {
		const char *n = strstr(line, "': ");
		counted += n ? strtoull(n + 3, NULL, 10) : 0;
	}
	check(took >= 0 && logged >= BURST / 2 && logged <= BURST + PER_S * elapsed + 1 && logged + counted >= LINES,
	      "a renderer flooding stderr gets a burst into the log, then a count of the lines left out",
	      "%zu of %d lines logged in %.1f s, %llu counted as not logged", logged, LINES, elapsed,
	      (unsigned long long)counted);
	unsetenv("COMMENTBAR_FAKE_LINES");
}

static void test_real_renderer(void)
{
	use_renderer(opt.renderer, NULL);
	char fixture_a[1024], fixture_b[1024], err[2048] = "";
	snprintf(fixture_a, sizeof(fixture_a), "%s/chat-a.jsonl", opt.fixtures);
	snprintf(fixture_b, sizeof(fixture_b), "%s/chat-b.jsonl", opt.fixtures);
	char *abs_a = realpath(fixture_a, NULL), *abs_b = realpath(fixture_b, NULL);
	if (!abs_a || !abs_b) {
		check(false, "fixtures exist", "%s, %s", fixture_a, fixture_b);
		return;
	}
	const int width = 640, height = 200;
	cairo_surface_t *ref_a = reference_frame(abs_a, width, height, err, sizeof(err));
	check(ref_a != NULL, "`commentbar render` makes the reference for fixture A", "%s", err);
	cairo_surface_t *ref_b = ref_a ? reference_frame(abs_b, width, height, err, sizeof(err)) : NULL;
	check(ref_b != NULL, "`commentbar render` makes the reference for fixture B", "%s", err);

	const size_t mark = log_mark();
	struct bar b = bar_create(make_settings("file", abs_a, width, height));
	double took = tick_until(&b, has_texture, NULL, 15);
	check(took >= 0, "the real renderer's first frame is uploaded", "after %.2f s", took);
	if (ref_a && ref_b && took >= 0) {
		struct reference_arg arg = {ref_a};
		took = tick_until(&b, matches_reference, &arg, 8);
		const struct frame_difference d = compare_frame(bar_texture(), ref_a);
		save_texture_png(bar_texture(), "served-a.png");
		check(took >= 0, "served pixels equal `commentbar render` of fixture A",
		      "mean %.3f, %.3f%% pixels off, max %d (see %s/served-a.png)", d.mean, d.off_share * 100, d.max,
		      opt.work);

		const pid_t pid = renderer_pid();
		obs_data_set_string(b.settings, "stream_id", abs_b);
		bar_update(&b);
		arg.image = ref_b;
		took = tick_until(&b, matches_reference, &arg, 8);
		const struct frame_difference d2 = compare_frame(bar_texture(), ref_b);
		save_texture_png(bar_texture(), "served-b.png");
		check(took >= 0 && renderer_pid() == pid,
		      "an update with a new stream id reaches the renderer: pixels equal fixture B's",
		      "after %.2f s, mean %.3f, %.3f%% off, pid %d -> %d", took, d2.mean, d2.off_share * 100, pid,
		      renderer_pid());

		/* kill -9: the last frame stays, a new renderer comes after the 0.25 s delay. */
		gs_texture_t *tex = bar_texture();
		const uint64_t uploads = tex->uploads;
		const size_t kill_mark = log_mark();
		const uint64_t killed_at = now_ns();
		kill(pid, SIGKILL);
		double restarted = -1;
		bool frame_kept = true;
		while ((double)(now_ns() - killed_at) / 1e9 < 10) {
			tick_once(&b);
			const pid_t now_pid = renderer_pid();
			if (restarted < 0 && now_pid && now_pid != pid)
				restarted = (double)(now_ns() - killed_at) / 1e9;
			if (restarted >= 0 && bar_texture()->uploads > uploads)
				break;
			if (bar_texture() != tex || tex->uploads != uploads)
				frame_kept = false;
			sleep_ms(16);
		}
		check(restarted >= 0.25 && restarted < 5,
		      "after kill -9 the renderer is restarted after its 0.25 s delay, within 5 s", "after %.2f s",
		      restarted);
		check(frame_kept, "the last frame stays until the new renderer's first frame", NULL);
		check(log_find(kill_mark, "was killed by signal 9 (SIGKILL)", NULL, 0) == 1, "the kill is logged with its signal",
		      NULL);
		took = tick_until(&b, matches_reference, &arg, 8);
		check(took >= 0, "the restarted renderer shows the same bar", "after %.2f s", took);
	}
	check(log_find(mark, "renderer status: live", NULL, 0) >= 1, "the renderer's status reaches the log", NULL);

	const struct resources before_destroy = resources_now();
	bar_destroy(&b);
	const double finished = wait_supervisors_finished(10);
	const struct resources after = resources_now();
	check(finished >= 0 && after.children == 0 && after.pool_maps == 0 && after.fds < before_destroy.fds,
	      "destroy with the real renderer leaves no child, pool mapping or fd once the supervisor has finished",
	      "finished after %.2f s; children %d, pool maps %d, fds %d -> %d", finished, after.children,
	      after.pool_maps, before_destroy.fds, after.fds);
	if (ref_a)
		cairo_surface_destroy(ref_a);
	if (ref_b)
		cairo_surface_destroy(ref_b);
	free(abs_a);
	free(abs_b);
}

static void test_cycles(const char *renderer, const char *label)
{
	use_renderer(renderer, NULL);
	/* One warm-up cycle: first-use allocations (thread stacks, caches) are not leaks. */
	struct bar warm = bar_create(make_settings("demo", "demo", 320, 96));
	const bool warm_framed = tick_until(&warm, has_texture, NULL, 15) >= 0;
	bar_destroy(&warm);
	wait_supervisors_finished(10);
	if (!warm_framed) {
		check(false, "100 create/destroy cycles", "the %s showed no frame in 15 s", label);
		return;
	}
	const struct resources before = resources_now();
	const uint64_t start = now_ns();
	int framed = 0;
	for (int i = 0; i < 100; i++) {
		struct bar b = bar_create(make_settings("demo", "demo", 320, 96));
		if (tick_until(&b, has_texture, NULL, 10) >= 0)
			framed++;
		bar_destroy(&b);
	}
	const double cycles_s = (double)(now_ns() - start) / 1e9;
	/* The last supervisors may still be stopping their renderers. */
	const double finished = wait_supervisors_finished(10);
	const struct resources after = resources_now();
	char what[256];
	snprintf(what, sizeof(what), "100 create/destroy cycles (%s) leak no fd, mapping, thread or process", label);
	check(finished >= 0 && after.fds == before.fds && after.maps <= before.maps + 2 && after.pool_maps == 0 &&
		      after.children == 0 && framed == 100,
	      what, "fds %d -> %d, maps %d -> %d, children %d, %d/100 showed a frame, %.1f s (+%.2f s to finish)",
	      before.fds, after.fds, before.maps, after.maps, after.children, framed, cycles_s, finished);
}

static void test_missing_renderer(void)
{
	use_renderer("/nonexistent/commentbar", NULL);
	const size_t mark = log_mark();
	struct bar b = bar_create(make_settings("demo", "demo", 128, 64));
	const double logged = log_wait(&b, mark, "cannot start the renderer /nonexistent/commentbar", 1, 10);
	check(logged >= 0 && b.data, "a missing renderer is logged and the source still works", NULL);
	bar_destroy(&b);
	wait_supervisors_finished(10);
}

/* ================= the benchmark ================= */

static int compare_u64(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void bench(void)
{
	check_mappings = false; /* the /proc/self/maps check would dominate the upload time */
	use_renderer(opt.fake, "bench");
	setenv("COMMENTBAR_FAKE_FRAMES", "300", 1);
	setenv("COMMENTBAR_FAKE_FPS", "30", 1);
	struct bar b = bar_create(make_settings("demo", "bench", 1280, 360));
	enum { MAX_SAMPLES = 1000 };
	uint64_t latency[MAX_SAMPLES], upload_cost[MAX_SAMPLES], idle_cost[4 * MAX_SAMPLES];
	size_t latencies = 0, uploads = 0, idles = 0;
	uint64_t last_stamp = 0;
	const uint64_t period = 1000000000ull / 60;
	uint64_t next = now_ns();
	const uint64_t end = next + 13ull * 1000000000ull;
	while (now_ns() < end) {
		next += period;
		const uint64_t before_uploads = total_uploads, t0 = now_ns();
		registered.video_tick(b.data, 1.0f / 60.0f);
		const uint64_t cost = now_ns() - t0;
		obs_enter_graphics();
		registered.video_render(b.data, NULL);
		obs_leave_graphics();
		gs_texture_t *tex = bar_texture();
		if (total_uploads > before_uploads && tex) {
			if (uploads < MAX_SAMPLES)
				upload_cost[uploads++] = cost;
			if (tex->last_stamp && tex->last_stamp != last_stamp && latencies < MAX_SAMPLES)
				latency[latencies++] = tex->last_upload_ns - tex->last_stamp;
			last_stamp = tex->last_stamp;
		} else if (idles < 4 * MAX_SAMPLES) {
			idle_cost[idles++] = cost;
		}
		while (now_ns() < next)
			sleep_ms(1);
	}
	bar_destroy(&b);
	qsort(latency, latencies, sizeof(uint64_t), compare_u64);
	qsort(upload_cost, uploads, sizeof(uint64_t), compare_u64);
	qsort(idle_cost, idles, sizeof(uint64_t), compare_u64);
	printf("bench: 1280x360 frames published at 30 fps, video_tick at 60 Hz, %zu frames uploaded\n", uploads);
	if (latencies)
		printf("bench: publish -> texture upload latency p50 %.2f ms, p99 %.2f ms (%zu frames)\n",
		       latency[latencies / 2] / 1e6, latency[latencies * 99 / 100] / 1e6, latencies);
	if (uploads)
		printf("bench: video_tick with an upload: p50 %.3f ms, p99 %.3f ms (stub upload = memcpy of %u bytes)\n",
		       upload_cost[uploads / 2] / 1e6, upload_cost[uploads * 99 / 100] / 1e6, 1280u * 360u * 4u);
	if (idles)
		printf("bench: video_tick without a new frame: p50 %.4f ms, p99 %.4f ms, %zu ticks, uploads 0\n",
		       idle_cost[idles / 2] / 1e6, idle_cost[idles * 99 / 100] / 1e6, idles);
	check(latencies > 250, "bench: the frames were delivered", "%zu", latencies);
	check(uploads <= 301, "bench: an unchanged frame costs no upload", "%zu uploads for 300 frames", uploads);
}

/* ================= main ================= */

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--bench") == 0)
			opt.bench = true;
		else if (strcmp(a, "--verbose") == 0)
			log_echo = true;
		else if (v && strcmp(a, "--plugin") == 0)
			opt.plugin = v, i++;
		else if (v && strcmp(a, "--renderer") == 0)
			opt.renderer = v, i++;
		else if (v && strcmp(a, "--fake") == 0)
			opt.fake = v, i++;
		else if (v && strcmp(a, "--fixtures") == 0)
			opt.fixtures = v, i++;
		else if (v && strcmp(a, "--work") == 0)
			opt.work = v, i++;
		else if (v && strcmp(a, "--data") == 0)
			data_dir = v, i++;
		else {
			fprintf(stderr, "unknown argument %s\n", a);
			return 2;
		}
	}
	if (!opt.plugin || !opt.fake || !opt.work || (!opt.bench && (!opt.renderer || !opt.fixtures))) {
		fprintf(stderr, "usage: stub_host [--bench] --plugin SO --fake FAKE --work DIR [--renderer R --fixtures DIR]\n");
		return 2;
	}
	mkdir(opt.work, 0755);
	char log_path[1024];
	snprintf(log_path, sizeof(log_path), "%s/stub.log", opt.work);
	log_file = fopen(log_path, "w");

	plugin_handle = dlopen(opt.plugin, RTLD_NOW | RTLD_LOCAL);
	if (!plugin_handle) {
		printf("FAIL dlopen %s: %s\n0 passed, 1 failed\n", opt.plugin, dlerror());
		return 1;
	}
	module_load = (bool (*)(void))dlsym(plugin_handle, "obs_module_load");
	module_unload = (void (*)(void))dlsym(plugin_handle, "obs_module_unload");
	module_set_locale = (void (*)(const char *))dlsym(plugin_handle, "obs_module_set_locale");
	void (*module_free_locale)(void) = (void (*)(void))dlsym(plugin_handle, "obs_module_free_locale");
	if (!module_load || !module_unload || !module_set_locale || !module_free_locale) {
		printf("FAIL the plugin exports obs_module_load/unload/set_locale\n0 passed, 1 failed\n");
		return 1;
	}
	setenv("COMMENTBAR_RENDERER", opt.fake, 1);
	check(module_load(), "obs_module_load succeeds", NULL);

	if (opt.bench) {
		bench();
	} else {
		test_registration();
		if (registered_any) {
			test_defaults_and_properties();
			test_with_fake_renderer();
			test_stale_heartbeat();
			test_async_destroy();
			test_restart_backoff();
			test_fuzzed_header();
			test_chatty_renderer();
			test_missing_renderer();
			test_real_renderer();
			test_cycles(opt.renderer, "real renderer");
		}
	}
	/* Unload waits for the supervisors that are still stopping. */
	module_unload();
	const struct resources end = resources_now();
	check(end.children == 0 && end.pool_maps == 0 && supervisor_threads() == 0,
	      "nothing is left after module unload", "children %d, pool maps %d, supervisor threads %d", end.children,
	      end.pool_maps, supervisor_threads());
	module_free_locale();
	dlclose(plugin_handle);
	for (size_t i = 0; i < log_count; i++)
		free(log_lines[i]);
	free(log_lines);
	free(log_times);
	if (log_file)
		fclose(log_file);
	printf("%d passed, %d failed\n", passed, failed);
	fflush(stdout); /* LeakSanitizer may end the process before stdio's own flush */
	return failed ? 1 : 0;
}
