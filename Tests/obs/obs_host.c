// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * obs_host: the plugin in real libobs (OpenGL on Xvfb), without the OBS UI.
 * Loads only the comment-bar module from the build, puts the source in a scene
 * at a known position, reads the composited output with a raw video callback
 * and checks that the bar's pixels are where they belong: equal to
 * `commentbar render` of the same state inside the bar, black outside.
 *
 * Then the mic badge: an ffmpeg_source looping a WAV as OBS's Mic/Aux channel,
 * named in the bar's settings; muting it, removing it and creating it again must
 * each bring the bar to `commentbar render --obs-mic on|muted|none`.
 *
 *   obs_host --plugin SO --data DIR --fixture FILE --reference PNG --mic-wav WAV
 *            --mic-on PNG --mic-muted PNG --mic-none PNG
 *   obs_host --bench-upload   (the cost of the shim's per-frame upload on this GPU)
 * (COMMENTBAR_RENDERER names the renderer; DISPLAY the X server.)
 * Prints "N passed, M failed"; exits non-zero on any failure.
 */
#define _GNU_SOURCE
#include <X11/Xlib.h>
#include <cairo.h>
#include <dirent.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <obs.h>
#include <obs-module.h>
#include <obs-nix-platform.h>

#define CANVAS_WIDTH 1280
#define CANVAS_HEIGHT 720
#define BAR_X 100
#define BAR_Y 300
#define BAR_WIDTH 640
#define BAR_HEIGHT 200
/* An opaque grey under the bar: OBS composites a transparent canvas over black in
 * linear light at output time, which would hide how the bar itself is blended. */
#define BACKDROP 128

static int passed, failed;

static void check(bool ok, const char *what, const char *detail_format, ...) __attribute__((format(printf, 3, 4)));
static void check(bool ok, const char *what, const char *detail_format, ...)
{
	char detail[1024] = "";
	va_list args;
	va_start(args, detail_format);
	vsnprintf(detail, sizeof(detail), detail_format, args);
	va_end(args);
	ok ? passed++ : failed++;
	printf("%s %s%s%s\n", ok ? "ok  " : "FAIL", what, detail[0] ? ": " : "", detail);
	fflush(stdout);
}

/* Whether the log said the module runs without a frontend (it must, here, once). */
static int frontend_fallback_lines;
static int missing_mic_lines;

/* libobs's log goes to stderr (run.sh keeps it in build/obs/obs.log); stdout is the verdicts. */
static void log_to_stderr(int level, const char *format, va_list args, void *param)
{
	(void)param;
	char line[4096];
	vsnprintf(line, sizeof(line), format, args);
	fprintf(stderr, "%d: %s\n", level, line);
	if (strstr(line, "[comment-bar]") && strstr(line, "no OBS frontend in this host"))
		__atomic_add_fetch(&frontend_fallback_lines, 1, __ATOMIC_RELAXED);
	if (strstr(line, "[comment-bar]") && strstr(line, "no such source: the mic badge shows \"no mic\""))
		__atomic_add_fetch(&missing_mic_lines, 1, __ATOMIC_RELAXED);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The newest composited frame, BGRA. */
static pthread_mutex_t frame_mutex = PTHREAD_MUTEX_INITIALIZER;
static uint8_t *frame_pixels;
static uint32_t frame_linesize;
static uint64_t frame_count;

static void on_raw_video(void *param, struct video_data *frame)
{
	(void)param;
	pthread_mutex_lock(&frame_mutex);
	if (!frame_pixels)
		frame_pixels = malloc((size_t)frame->linesize[0] * CANVAS_HEIGHT);
	frame_linesize = frame->linesize[0];
	memcpy(frame_pixels, frame->data[0], (size_t)frame_linesize * CANVAS_HEIGHT);
	frame_count++;
	pthread_mutex_unlock(&frame_mutex);
}

struct comparison {
	double mean;      /* mean absolute B, G, R difference inside the bar */
	double off_share; /* share of bar pixels off by more than 2 in a channel */
	int outside_lit;  /* samples outside the bar that are not the backdrop (on a grid) */
	double bar_lit;   /* share of bar pixels that differ from the backdrop */
};

/* The reference is premultiplied: over the backdrop each channel is ref + BACKDROP * (1 - alpha),
 * in gamma space, the blend (ONE, INVSRCALPHA) the source asks for. */
static struct comparison compare(cairo_surface_t *reference)
{
	struct comparison c = {0};
	const uint8_t *ref = cairo_image_surface_get_data(reference);
	const int ref_stride = cairo_image_surface_get_stride(reference);
	uint64_t sum = 0, off = 0, lit = 0;
	pthread_mutex_lock(&frame_mutex);
	for (int y = 0; y < BAR_HEIGHT; y++)
		for (int x = 0; x < BAR_WIDTH; x++) {
			const uint8_t *out = frame_pixels + (size_t)(BAR_Y + y) * frame_linesize + (size_t)(BAR_X + x) * 4;
			const uint8_t *want = ref + (size_t)y * ref_stride + (size_t)x * 4;
			int worst = 0;
			for (int ch = 0; ch < 3; ch++) {
				const int expected = want[ch] + (BACKDROP * (255 - want[3]) + 127) / 255;
				const int d = abs((int)out[ch] - expected);
				sum += (uint64_t)d;
				worst = d > worst ? d : worst;
			}
			off += worst > 2; /* GPU rounding: at most 2 */
			lit += abs(out[0] - BACKDROP) + abs(out[1] - BACKDROP) + abs(out[2] - BACKDROP) > 24;
		}
	for (int y = 0; y < CANVAS_HEIGHT; y += 8)
		for (int x = 0; x < CANVAS_WIDTH; x += 8) {
			if (x >= BAR_X && x < BAR_X + BAR_WIDTH && y >= BAR_Y && y < BAR_Y + BAR_HEIGHT)
				continue;
			const uint8_t *out = frame_pixels + (size_t)y * frame_linesize + (size_t)x * 4;
			c.outside_lit += abs(out[0] - BACKDROP) > 2 || abs(out[1] - BACKDROP) > 2 || abs(out[2] - BACKDROP) > 2;
		}
	pthread_mutex_unlock(&frame_mutex);
	c.mean = (double)sum / (BAR_WIDTH * BAR_HEIGHT * 3.0);
	c.off_share = (double)off / (BAR_WIDTH * BAR_HEIGHT);
	c.bar_lit = (double)lit / (BAR_WIDTH * BAR_HEIGHT);
	return c;
}

static void save_output(const char *path)
{
	pthread_mutex_lock(&frame_mutex);
	cairo_surface_t *s = cairo_image_surface_create_for_data(frame_pixels, CAIRO_FORMAT_RGB24, CANVAS_WIDTH,
								 CANVAS_HEIGHT, (int)frame_linesize);
	cairo_surface_write_to_png(s, path);
	cairo_surface_destroy(s);
	pthread_mutex_unlock(&frame_mutex);
}

/* Opens the system modules the test needs: image-source (the colour source) and
 * obs-ffmpeg (a media source that plays a WAV: an audio source without a device). */
static obs_module_t *image_source_module;
static obs_module_t *ffmpeg_module;
static void open_system_modules(void *param, const struct obs_module_info2 *info)
{
	(void)param;
	obs_module_t **slot = !strcmp(info->name, "image-source") ? &image_source_module
			      : !strcmp(info->name, "obs-ffmpeg") ? &ffmpeg_module
								  : NULL;
	if (!slot || *slot)
		return;
	if (obs_open_module(slot, info->bin_path, info->data_path) != MODULE_SUCCESS || !obs_init_module(*slot))
		*slot = NULL;
}

/* Waits up to limit_s for the composited bar to equal reference; the seconds it took, or -1. */
static double wait_for_match(cairo_surface_t *reference, double limit_s, struct comparison *last)
{
	const uint64_t start = now_ns();
	while (now_ns() - start < (uint64_t)(limit_s * 1e9)) {
		*last = compare(reference);
		if (last->mean < 0.25 && last->off_share < 0.001 && last->outside_lit == 0)
			return (double)(now_ns() - start) / 1e9;
		usleep(10000);
	}
	return -1;
}

static obs_source_t *create_mic(const char *wav)
{
	obs_data_t *settings = obs_data_create();
	obs_data_set_bool(settings, "is_local_file", true);
	obs_data_set_string(settings, "local_file", wav);
	obs_data_set_bool(settings, "looping", true);
	obs_source_t *mic = obs_source_create("ffmpeg_source", "Mic", settings, NULL);
	obs_data_release(settings);
	if (mic)
		obs_set_output_source(3, mic); /* OBS's first Mic/Aux channel: active, like a real mic */
	return mic;
}

/* The mic badge follows the OBS source the bar names: mute, removal, re-creation. */
static void test_mic_badge(obs_source_t *bar, const char *wav, cairo_surface_t *on, cairo_surface_t *muted,
			   cairo_surface_t *none)
{
	check(ffmpeg_module != NULL, "OBS's obs-ffmpeg module (media source) loads", "%s", "");
	obs_source_t *mic = create_mic(wav);
	check(mic != NULL, "an ffmpeg_source playing a WAV is the mic", "%s", "");
	if (!mic)
		return;
	obs_data_t *update = obs_data_create();
	obs_data_set_string(update, "mic_source", "Mic");
	obs_source_update(bar, update);
	obs_data_release(update);

	struct comparison c;
	double took = wait_for_match(on, 10, &c);
	check(took >= 0, "the mic badge shows on for the named, unmuted source", "mean difference %.3f", c.mean);

	obs_source_set_muted(mic, true);
	took = wait_for_match(muted, 10, &c);
	check(took >= 0, "obs_source_set_muted(true) turns the badge to muted", "after %.3f s; mean difference %.3f",
	      took, c.mean);
	printf("     (mute to composited badge: %.0f ms, at 30 fps)\n", took * 1000);

	obs_source_set_muted(mic, false);
	took = wait_for_match(on, 10, &c);
	check(took >= 0, "unmuting turns it back on", "mean difference %.3f", c.mean);

	obs_source_set_volume(mic, 0.0f);
	took = wait_for_match(muted, 10, &c);
	check(took >= 0, "volume 0 shows as muted", "mean difference %.3f", c.mean);
	obs_source_set_volume(mic, 1.0f);
	took = wait_for_match(on, 10, &c);

	/* A video source is no mic. */
	update = obs_data_create();
	obs_data_set_string(update, "mic_source", "backdrop");
	obs_source_update(bar, update);
	took = wait_for_match(none, 10, &c);
	check(took >= 0, "naming a video source shows \"no mic\"", "mean difference %.3f", c.mean);
	obs_data_set_string(update, "mic_source", "Mic");
	obs_source_update(bar, update);
	obs_data_release(update);
	took = wait_for_match(on, 10, &c);
	check(took >= 0, "naming the mic again shows it on", "mean difference %.3f", c.mean);

	obs_set_output_source(3, NULL);
	obs_source_remove(mic);
	obs_source_release(mic);
	took = wait_for_match(none, 10, &c);
	check(took >= 0, "removing the source shows \"no mic\"", "mean difference %.3f", c.mean);
	check(__atomic_load_n(&missing_mic_lines, __ATOMIC_RELAXED) == 1, "one log line says the mic is missing",
	      "%d lines", missing_mic_lines);

	mic = create_mic(wav);
	took = wait_for_match(on, 10, &c);
	check(took >= 0, "a new source of that name is followed", "mean difference %.3f", c.mean);

	/* Renamed: the bar keeps following it, and its setting takes the new name. */
	if (mic) {
		obs_source_set_name(mic, "Mic (renamed)");
		obs_source_set_muted(mic, true);
		took = wait_for_match(muted, 10, &c);
		obs_data_t *after = obs_source_get_settings(bar);
		const bool renamed_setting = strcmp(obs_data_get_string(after, "mic_source"), "Mic (renamed)") == 0;
		obs_data_release(after);
		check(took >= 0 && renamed_setting, "a renamed mic is still followed, and the setting names it anew",
		      "mean difference %.3f, setting %s", c.mean, renamed_setting ? "renamed" : "not renamed");
		obs_source_set_muted(mic, false);
	}
	obs_set_output_source(3, NULL);
	if (mic) {
		obs_source_remove(mic);
		obs_source_release(mic);
	}
}

static int compare_u64(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* What the shim's video_tick does for a changed frame: gs_texture_set_image into a
 * GS_DYNAMIC BGRA texture inside obs_enter_graphics, timed on the calling thread. */
static void bench_upload(uint32_t width, uint32_t height)
{
	enum { ROUNDS = 300 };
	uint8_t *pixels = malloc((size_t)width * height * 4);
	for (size_t i = 0; i < (size_t)width * height * 4; i++)
		pixels[i] = (uint8_t)(i * 31);
	uint64_t cost[ROUNDS];
	obs_enter_graphics();
	gs_texture_t *tex = gs_texture_create(width, height, GS_BGRA, 1, NULL, GS_DYNAMIC);
	obs_leave_graphics();
	for (int i = 0; i < ROUNDS; i++) {
		pixels[i] ^= 0xFF;
		const uint64_t t0 = now_ns();
		obs_enter_graphics();
		gs_texture_set_image(tex, pixels, width * 4, false);
		obs_leave_graphics();
		cost[i] = now_ns() - t0;
		usleep(16000); /* one upload per 60 Hz tick, as in OBS */
	}
	obs_enter_graphics();
	gs_texture_destroy(tex);
	obs_leave_graphics();
	free(pixels);
	qsort(cost, ROUNDS, sizeof(cost[0]), compare_u64);
	printf("bench: real libobs-opengl (%s) upload of a %ux%u frame: p50 %.3f ms, p99 %.3f ms\n",
	       "Mesa llvmpipe under Xvfb", width, height, cost[ROUNDS / 2] / 1e6, cost[ROUNDS * 99 / 100] / 1e6);
}

static int count_children(void)
{
	DIR *proc = opendir("/proc");
	int count = 0;
	struct dirent *entry;
	while ((entry = readdir(proc))) {
		char path[300], text[1024];
		snprintf(path, sizeof(path), "/proc/%s/stat", entry->d_name);
		FILE *f = entry->d_name[0] >= '0' && entry->d_name[0] <= '9' ? fopen(path, "r") : NULL;
		if (!f)
			continue;
		const size_t n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
		text[n] = '\0';
		const char *paren = strrchr(text, ')');
		char state;
		int ppid;
		if (paren && sscanf(paren + 1, " %c %d", &state, &ppid) == 2 && ppid == getpid())
			count++;
	}
	closedir(proc);
	return count;
}

int main(int argc, char **argv)
{
	const char *plugin = NULL, *data = NULL, *fixture = NULL, *reference_path = NULL, *save = NULL;
	const char *mic_wav = NULL, *mic_on = NULL, *mic_muted = NULL, *mic_none = NULL;
	const bool bench = argc == 2 && !strcmp(argv[1], "--bench-upload");
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--plugin"))
			plugin = argv[i + 1];
		else if (!strcmp(argv[i], "--data"))
			data = argv[i + 1];
		else if (!strcmp(argv[i], "--fixture"))
			fixture = argv[i + 1];
		else if (!strcmp(argv[i], "--reference"))
			reference_path = argv[i + 1];
		else if (!strcmp(argv[i], "--save"))
			save = argv[i + 1];
		else if (!strcmp(argv[i], "--mic-wav"))
			mic_wav = argv[i + 1];
		else if (!strcmp(argv[i], "--mic-on"))
			mic_on = argv[i + 1];
		else if (!strcmp(argv[i], "--mic-muted"))
			mic_muted = argv[i + 1];
		else if (!strcmp(argv[i], "--mic-none"))
			mic_none = argv[i + 1];
	}
	if (!bench && (!plugin || !data || !fixture || !reference_path || !mic_wav || !mic_on || !mic_muted || !mic_none)) {
		fprintf(stderr, "usage: obs_host --plugin SO --data DIR --fixture FILE --reference PNG --mic-wav WAV "
				"--mic-on PNG --mic-muted PNG --mic-none PNG [--save PNG]\n");
		return 2;
	}
	cairo_surface_t *reference = cairo_image_surface_create_from_png(bench ? "/nonexistent" : reference_path);
	if (!bench && (cairo_surface_status(reference) != CAIRO_STATUS_SUCCESS ||
		       cairo_image_surface_get_width(reference) != BAR_WIDTH ||
		       cairo_image_surface_get_height(reference) != BAR_HEIGHT)) {
		printf("FAIL reference %s is not a %dx%d PNG\n0 passed, 1 failed\n", reference_path, BAR_WIDTH, BAR_HEIGHT);
		return 1;
	}

	base_set_log_handler(log_to_stderr, NULL);
	Display *display = XOpenDisplay(NULL);
	if (!display) {
		printf("FAIL XOpenDisplay(%s)\n0 passed, 1 failed\n", getenv("DISPLAY"));
		return 1;
	}
	obs_set_nix_platform(OBS_NIX_PLATFORM_X11_EGL);
	obs_set_nix_platform_display(display);
	check(obs_startup("en-US", NULL, NULL), "obs_startup", "%s", "");

	struct obs_video_info ovi = {
		.graphics_module = "libobs-opengl",
		.fps_num = 30,
		.fps_den = 1,
		.base_width = CANVAS_WIDTH,
		.base_height = CANVAS_HEIGHT,
		.output_width = CANVAS_WIDTH,
		.output_height = CANVAS_HEIGHT,
		.output_format = VIDEO_FORMAT_BGRA,
		.adapter = 0,
		.gpu_conversion = true,
		.colorspace = VIDEO_CS_SRGB,
		.range = VIDEO_RANGE_FULL,
		.scale_type = OBS_SCALE_BILINEAR,
	};
	const int video = obs_reset_video(&ovi);
	check(video == OBS_VIDEO_SUCCESS, "obs_reset_video with libobs-opengl", "code %d", video);
	if (video != OBS_VIDEO_SUCCESS)
		goto done;
	if (bench) {
		bench_upload(1280, 360);
		bench_upload(1920, 1080);
		goto done;
	}

	obs_module_t *module = NULL;
	const int opened = obs_open_module(&module, plugin, data);
	check(opened == MODULE_SUCCESS && obs_init_module(module), "the comment-bar module loads in libobs", "code %d",
	      opened);
	if (opened != MODULE_SUCCESS)
		goto done;
	const char *name = obs_source_get_display_name("comment_bar_source");
	check(name && !strcmp(name, "Comment Bar"), "libobs knows comment_bar_source by its locale name", "\"%s\"",
	      name ? name : "(null)");

	check(frontend_fallback_lines == 1, "without a frontend the module loads and logs its fallback once",
	      "%d lines", frontend_fallback_lines);
	struct obs_audio_info audio = {.samples_per_sec = 48000, .speakers = SPEAKERS_STEREO};
	check(obs_reset_audio(&audio), "obs_reset_audio", "%s", "");

	obs_find_modules2(open_system_modules, NULL);
	check(image_source_module != NULL, "OBS's image-source module (colour source) loads", "%s", "");
	obs_data_t *backdrop_settings = obs_data_create();
	obs_data_set_int(backdrop_settings, "color", 0xFF000000 | BACKDROP << 16 | BACKDROP << 8 | BACKDROP);
	obs_data_set_int(backdrop_settings, "width", CANVAS_WIDTH);
	obs_data_set_int(backdrop_settings, "height", CANVAS_HEIGHT);
	obs_source_t *backdrop = obs_source_create("color_source_v3", "backdrop", backdrop_settings, NULL);
	obs_data_release(backdrop_settings);

	obs_data_t *settings = obs_data_create();
	obs_data_set_string(settings, "service", "file");
	obs_data_set_string(settings, "stream_id", fixture);
	obs_data_set_int(settings, "width", BAR_WIDTH);
	obs_data_set_int(settings, "height", BAR_HEIGHT);
	obs_data_set_bool(settings, "show_clock", false);
	obs_source_t *bar = obs_source_create("comment_bar_source", "bar", settings, NULL);
	obs_data_release(settings);
	check(bar != NULL, "obs_source_create(comment_bar_source)", "%s", "");
	if (!bar)
		goto done;

	obs_scene_t *scene = obs_scene_create("scene");
	if (backdrop)
		obs_scene_add(scene, backdrop);
	obs_sceneitem_t *item = obs_scene_add(scene, bar);
	struct vec2 pos;
	vec2_set(&pos, BAR_X, BAR_Y);
	obs_sceneitem_set_pos(item, &pos);
	obs_set_output_source(0, obs_scene_get_source(scene));
	obs_add_raw_video_callback(NULL, on_raw_video, NULL);

	check(obs_source_get_width(bar) == BAR_WIDTH && obs_source_get_height(bar) == BAR_HEIGHT,
	      "the source has the size of its settings", "%ux%u", obs_source_get_width(bar), obs_source_get_height(bar));

	/* The file replays in real time: wait until the composited bar settles on the reference. */
	struct comparison c = {0};
	const uint64_t start = now_ns();
	bool matched = false;
	while (now_ns() - start < 20ull * 1000000000ull) {
		usleep(200000);
		pthread_mutex_lock(&frame_mutex);
		const bool have = frame_count > 0;
		pthread_mutex_unlock(&frame_mutex);
		if (!have)
			continue;
		c = compare(reference);
		if (c.mean < 0.25 && c.off_share < 0.001 && c.outside_lit == 0) {
			matched = true;
			break;
		}
	}
	const double took = (double)(now_ns() - start) / 1e9;
	if (save)
		save_output(save);
	check(frame_count > 0, "the raw video callback gets composited frames", "%llu frames",
	      (unsigned long long)frame_count);
	check(c.bar_lit > 0.5, "the bar is drawn where it was placed", "%.1f%% of its area differs from the backdrop",
	      c.bar_lit * 100);
	check(c.outside_lit == 0, "outside the bar the canvas is the backdrop", "%d other samples outside",
	      c.outside_lit);
	check(matched, "the bar composited over the backdrop equals `commentbar render` blended (ONE, INVSRCALPHA)",
	      "after %.1f s: mean difference %.3f, %.3f%% pixels off", took, c.mean, c.off_share * 100);

	cairo_surface_t *on = cairo_image_surface_create_from_png(mic_on);
	cairo_surface_t *muted = cairo_image_surface_create_from_png(mic_muted);
	cairo_surface_t *none = cairo_image_surface_create_from_png(mic_none);
	test_mic_badge(bar, mic_wav, on, muted, none);
	cairo_surface_destroy(on);
	cairo_surface_destroy(muted);
	cairo_surface_destroy(none);

	obs_remove_raw_video_callback(on_raw_video, NULL);
	obs_set_output_source(0, NULL);
	obs_scene_release(scene);
	obs_source_remove(bar);
	obs_source_release(bar);
	obs_source_release(backdrop);

done:
	obs_shutdown();
	check(count_children() == 0, "no renderer process is left after obs_shutdown", "%d children", count_children());
	cairo_surface_destroy(reference);
	free(frame_pixels);
	XCloseDisplay(display);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
