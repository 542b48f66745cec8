// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stub_host: the shim's test. It dlopens the plugin .so, captures the source it
 * registers and drives it like OBS would (create, show, video_tick at 60 Hz,
 * video_render, update, hide, destroy), against the real renderer and against
 * fake_renderer where misbehaviour is needed.
 *
 * libobs: the real library provides the pure data parts (obs_data,
 * obs_properties, text lookup, bmalloc). The parts that need a running OBS
 * (graphics, source registration, the log) are defined in stubs.c; this
 * executable is linked with -rdynamic, so its definitions come first in symbol
 * lookup and interpose the real ones for the plugin. harness.c drives the
 * source; the test-*.c files hold the tests by area.
 *
 *   stub_host --plugin SO --renderer COMMENTBAR --fake FAKE --fixtures DIR --work DIR
 *   stub_host --bench --plugin SO --fake FAKE --work DIR
 *   (--only NAME,NAME runs only those tests: see tests[] below)
 * Prints "N passed, M failed" and exits non-zero on any failure.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "harness.h"
#include "stubs.h"
#include "tests.h"



static void cycles_with_real_renderer(void)
{
	test_cycles(opt.renderer, "real renderer");
}

/* In order; `--only a,b` runs those whose names it lists (while working on them). */
static const struct {
	const char *name;
	void (*run)(void);
} tests[] = {
	{"properties", test_defaults_and_properties},
	{"view", test_properties_view},
	{"choices", test_choices_and_help},
	{"prefix", test_prefix_layout},
	{"unknown-choice", test_unknown_choice},
	{"fake-renderer", test_with_fake_renderer},
	{"channels", test_input_channels},
	{"speech-thread", test_speech_thread_sleeps},
	{"secrets", test_secrets},
	{"stale-heartbeat", test_stale_heartbeat},
	{"async-destroy", test_async_destroy},
	{"backoff", test_restart_backoff},
	{"fuzzed-header", test_fuzzed_header},
	{"chatty", test_chatty_renderer},
	{"hostile-output", test_hostile_output},
	{"missing-renderer", test_missing_renderer},
	{"real-renderer", test_real_renderer},
	{"secrets-real-renderer", test_secrets_real_renderer},
	{"cycles", cycles_with_real_renderer},
};

int main(int argc, char **argv)
{
	const char *only = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--bench") == 0)
			opt.bench = true;
		else if (strcmp(a, "--verbose") == 0)
			log_echo = true;
		else if (v && strcmp(a, "--only") == 0)
			only = v, i++;
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
	log_open(log_path);

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
		for (size_t i = 0; registered_any && i < sizeof(tests) / sizeof(tests[0]); i++)
			if (!only || strstr(only, tests[i].name))
				tests[i].run();
	}
	/* Unload waits for the supervisors that are still stopping. */
	module_unload();
	const struct resources end = resources_now();
	check(end.children == 0 && end.pool_maps == 0 && plugin_threads(NULL) == 0,
	      "nothing is left after module unload", "children %d, pool maps %d, threads of the plugin %d", end.children,
	      end.pool_maps, plugin_threads(NULL));
	module_free_locale();
	dlclose(plugin_handle);
	log_close();
	return check_summary();
}

