// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shim-threads: every thread the shim starts (a renderer supervisor, a speech audio
 * thread per source) is counted here. A thread that ends is joined later, by whoever
 * comes next and can do it without waiting (OBS may destroy a source on its graphics
 * thread, which must not wait); module unload waits (bounded) for all of them, so the
 * module's code is not unloaded under a thread still running it.
 */
#pragma once

#include <stdbool.h>

/* Runs main(arg) on a new thread named name (at most 15 bytes: the tests find the shim's
 * threads by name) that is counted until main returns. False if the thread could not be
 * created (main does not run). */
bool shim_threads_start(const char *name, void *(*main)(void *), void *arg);
/* Joins the threads that have ended; never waits. */
void shim_threads_join_ended(void);
/* Module unload: waits up to timeout_ms for every thread to end, and joins them. Returns
 * true when all did; false, after logging how many are left, otherwise. */
bool shim_threads_wait_all(unsigned timeout_ms);
