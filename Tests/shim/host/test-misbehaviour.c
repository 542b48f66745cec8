// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"
#include "stubs.h"
#include "tests.h"

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

void test_stale_heartbeat(void)
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
		check_summary();
		_exit(1);
	}
	pthread_join(storm_thread, NULL);
	const double storm_s = (double)(now_ns() - storm_start) / 1e9;
	const int calls = atomic_load(&storm.calls);
	printf("     (%d update + video_tick calls in %.2f s while the renderer read nothing; slowest %.2f ms)\n", calls,
	       storm_s, storm.slowest_ns / 1e6);
	/* Once for this renderer: under make check's load the storm can outlast its heartbeat (3 s),
	 * and its successor, frozen too, fills a pipe of its own; lines after the kill are its. */
	char line[512];
	uint64_t kill_ns = UINT64_MAX, full_ns = 0;
	if (!log_nth(mark, "gave no heartbeat", 0, line, sizeof(line), &kill_ns))
		kill_ns = UINT64_MAX;
	size_t full_logged = 0;
	while (log_nth(mark, "is not reading its input", full_logged, line, sizeof(line), &full_ns) && full_ns < kill_ns)
		full_logged++;
	check(calls >= 2000 && full_logged == 1,
	      "a renderer that stops reading stdin never blocks update or video_tick; the full pipe is logged once",
	      "%d calls returned, the full pipe logged %zu times before the renderer was killed", calls, full_logged);

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
	/* Until a new renderer draws, the frozen one's last frame is what OBS shows (not a blank one);
	 * under load a new renderer may already have drawn (the same colour) by the time we look. */
	const pid_t now_pid = renderer_pid();
	const bool restarted = now_pid && now_pid != first;
	const bool same_frame = tex && texture_is_colour(&b, &colour) &&
				(restarted || (bar_texture() == tex && tex->uploads == uploads));
	check(same_frame, "the last frame stays while the renderer is down", "%s",
	      restarted ? "a new renderer has started" : "no new renderer yet");
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
void test_async_destroy(void)
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
	check(plugin_threads(NULL) == 0 && after.children == 0 && after.pool_maps == 0 &&
		      log_find(mark, "did not exit within 0.5 s of its input closing; killed", NULL, 0) == 1,
	      "module unload waits for the supervisor: the renderer is killed and reaped, every thread has ended",
	      "unload took %.2f s; threads %d, children %d, pool maps %d", unload_s, plugin_threads(NULL), after.children,
	      after.pool_maps);
	registered_any = false;
	module_load();
	check(registered_any, "the module loads again after unload", NULL);
}

void test_restart_backoff(void)
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

static bool not_printable(const char *line)
{
	return !printable_utf8(line);
}

void test_fuzzed_header(void)
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
	const size_t status_lines = log_find(mark, "renderer status:", NULL, 0);
	char bad[512] = "";
	const size_t bad_lines = log_find_if(mark, not_printable, bad, sizeof(bad));
	check(bad_lines == 0 && log_find(mark, "renderer status: live: nasty:??????????? end \xc3\xa9", NULL, 0) == 1,
	      "status text from the pool reaches the log as printable UTF-8 (control and invalid bytes as ?)",
	      "%zu status lines, %zu bad, e.g. %s", status_lines, bad_lines, bad);
	unsetenv("COMMENTBAR_FAKE_FUZZ_MS");
}

/* A renderer that floods stderr: the log gets a burst, then a count of the rest. */
void test_chatty_renderer(void)
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

/* Renderer output with control characters or far too long: one log line each,
 * escaped, cut once with its length. */
void test_hostile_output(void)
{
	use_renderer(opt.fake, "hostile-output");
	const size_t mark = log_mark();
	struct bar b = bar_create(make_settings("demo", "eta", 128, 64));
	log_wait(&b, mark, "renderer: fake: wide ", 1, 10);
	bar_destroy(&b);
	wait_supervisors_finished(10);

	char line[4096] = "";
	const size_t forged = log_find(mark, "fake: forged", line, sizeof(line));
	check(forged == 1 && log_find(mark, "[comment-bar] renderer: Host: evil", NULL, 0) == 0 &&
		      strstr(line, "[comment-bar] renderer: fake: forged\\rHost: evil\\tx\\x1b[31m red \\x7f del "
				   "\\xc2\\x9b c1 \\xff bad") &&
		      printable_utf8(line),
	      "control characters in renderer output are logged as visible escapes, in one line", "%zu lines: %s",
	      forged, line);
	const size_t long_lines = log_find(mark, "fake: long ", line, sizeof(line));
	check(long_lines == 1 && log_find(mark, "yyyyyyyyyy", NULL, 0) == 1 &&
		      strstr(line, "y\xe2\x80\xa6 (30011 bytes)") && strlen(line) < 1100,
	      "a 30 KB line of renderer output is logged once, cut, with its length", "%zu lines: %.120s...%s",
	      long_lines, line, strlen(line) > 40 ? line + strlen(line) - 40 : "");
	const size_t wide_lines = log_find(mark, "fake: wide ", line, sizeof(line));
	check(wide_lines == 1 && printable_utf8(line) && strstr(line, "\xe3\x81\x82\xe2\x80\xa6 (3011 bytes)"),
	      "a long line is cut between characters, never inside one", "%zu lines: ...%s", wide_lines,
	      strlen(line) > 40 ? line + strlen(line) - 40 : line);
}

void test_missing_renderer(void)
{
	use_renderer("/nonexistent/commentbar", NULL);
	const size_t mark = log_mark();
	struct bar b = bar_create(make_settings("demo", "demo", 128, 64));
	const double logged = log_wait(&b, mark, "cannot start the renderer /nonexistent/commentbar", 1, 10);
	check(logged >= 0 && b.data, "a missing renderer is logged and the source still works", NULL);
	bar_destroy(&b);
	wait_supervisors_finished(10);
}

