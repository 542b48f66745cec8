// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check: the verdicts of the shim's test programs ("ok  what" / "FAIL what:
 * detail", then "N passed, M failed") and the clock they measure with.
 * Shared by the stub host and the unit tests.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

extern int passed, failed;

void check(bool ok, const char *what, const char *detail_format, ...) __attribute__((format(printf, 3, 4)));
/* Prints "N passed, M failed"; returns the process's exit status (0: all passed). */
int check_summary(void);

/* CLOCK_MONOTONIC nanoseconds. */
uint64_t now_ns(void);
void sleep_ms(long ms);
