// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "harness.h"
#include "stubs.h"
#include "tests.h"

/* bench: frame hand-off latency and upload cost with the fake renderer (make bench-shim). */

static int compare_u64(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

void bench(void)
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

