// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * supervisor-threads: the bookkeeping of the renderer supervisors' threads.
 * A thread that ends is joined later, by whoever comes next and can do it
 * without waiting; module unload waits (bounded) for all of them, so the
 * module's code is not unloaded under a thread still running it.
 */
#pragma once

#include <stdbool.h>

/* Runs main(arg) on a new thread that is counted until main returns.
 * False if the thread could not be created (main does not run). */
bool supervisor_threads_start(void *(*main)(void *), void *arg);
/* Joins the threads that have ended; never waits. */
void supervisor_threads_join_ended(void);
/* Waits up to timeout_ms for every thread to end, and joins them. Returns how
 * many were still running when the time was up. */
unsigned supervisor_threads_wait_all(unsigned timeout_ms);
