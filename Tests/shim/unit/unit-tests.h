// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit_tests: the shim's libobs-free parts tested alone (make test-shim-unit):
 * the stdin queue, the log limiter, safe text, the stderr log, the settings
 * table's choices, the speech ring and the pool ABI (and the overlay's pool
 * reader).
 */
#pragma once

#include <stddef.h>

void test_stdin_queue(void);
void test_log_limiter(void);
void test_safe_text(void);
void test_stderr_log(void);
void test_settings_choices(void);
void test_speech_ring(void);
/* The pool ABI's writer and check, and the overlay helper's reader (test-pool-abi.c). */
void test_pool_abi(void);
/* The shim's pool reader's latency probe stamps (test-frame-pool.c). */
void test_frame_pool(void);

/* blog, as the unit tests define it: every line kept for the checks. */
size_t logged_count(void);
const char *logged_line(size_t index);
/* Lines logged from index `from` on that contain needle; the first into first. */
size_t logged_find(size_t from, const char *needle, const char **first);
void logged_clear(void);
