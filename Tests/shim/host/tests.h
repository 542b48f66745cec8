// SPDX-License-Identifier: GPL-2.0-or-later
/* The stub host's tests, by area; each prints its checks (check.h). */
#pragma once

/* test-registration.c: the source's registration, locale, defaults, properties, services. */
void test_registration(void);
void test_defaults_and_properties(void);
void test_properties_view(void);
/* test-settings-choices.c: the enums' lists, the Stream ID help, an unknown enum value, a prefix layout's renderer. */
void test_choices_and_help(void);
void test_unknown_choice(void);
void test_prefix_layout(void);
/* test-fake-renderer.c: the source's life with a well-behaved fake renderer. */
void test_with_fake_renderer(void);
/* test-input-channels.c: the renderer's stdin channels (OBS state with the locale, the hotkeys'
 * and the control page button's counters), the audio thread asleep with speech off. */
void test_input_channels(void);
void test_speech_thread_sleeps(void);
/* test-secrets.c: the Mirrativ session sent once to the renderer, never in the saved settings. */
void test_secrets(void);
void test_secrets_real_renderer(void);
/* test-misbehaviour.c: renderers that hang, crash, scribble, flood or are missing. */
void test_stale_heartbeat(void);
void test_async_destroy(void);
void test_restart_backoff(void);
void test_fuzzed_header(void);
void test_chatty_renderer(void);
void test_hostile_output(void);
void test_missing_renderer(void);
/* test-real-renderer.c: the real `commentbar serve`, pixels compared with `commentbar render`. */
void test_real_renderer(void);
void test_cycles(const char *renderer, const char *label);
/* bench.c: frame hand-off latency and upload cost (make bench-shim). */
void bench(void);
