// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <cairo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"
#include "stubs.h"
#include "tests.h"

/* test-real-renderer: the real `commentbar serve` in the stub host; its pixels are compared
 * with `commentbar render` of the same state. */

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

void test_real_renderer(void)
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

void test_cycles(const char *renderer, const char *label)
{
	use_renderer(renderer, NULL);
	/* Warm-up cycles: first-use allocations (thread stacks glibc keeps for reuse, the
	 * sanitizer allocator's regions for each size class) are not leaks. */
	for (int i = 0; i < 10; i++) {
		struct bar warm = bar_create(make_settings("demo", "demo", 320, 96));
		const bool warm_framed = tick_until(&warm, has_texture, NULL, 15) >= 0;
		bar_destroy(&warm);
		wait_supervisors_finished(10);
		if (!warm_framed) {
			check(false, "100 create/destroy cycles", "the %s showed no frame in 15 s", label);
			return;
		}
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
	/* A mapping leaked per cycle would add 100, one leaked every fifth cycle 20; a few come and
	 * go with the allocators (glibc's thread arenas, the sanitizer's size classes: 6 seen once). */
	check(finished >= 0 && after.fds == before.fds && after.maps < before.maps + 20 && after.pool_maps == 0 &&
		      after.children == 0 && framed == 100,
	      what, "fds %d -> %d, maps %d -> %d, children %d, %d/100 showed a frame, %.1f s (+%.2f s to finish)",
	      before.fds, after.fds, before.maps, after.maps, after.children, framed, cycles_s, finished);
}

