// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * secret-store: a source's secrets (the Mirrativ session) as files only the user can
 * read, never in OBS's saved settings (issue 28): <folder>/<id>.<key>, the folder made
 * 0700 (its missing parents too), each file 0600, written atomically (a temporary file in
 * the same folder, flushed, then renamed over the old one), so a crash leaves the old
 * value or the new, never half of one. The id is the source's: 32 lower-case hex digits
 * the shim makes; anything else (it comes from a scene file) is refused, so no id can name
 * a file elsewhere. Blocking I/O: never on OBS's graphics thread. No libobs.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#define SECRET_STORE_ID_SIZE 33            /* 32 hex digits and the NUL */
#define SECRET_STORE_VALUE_MAX (64 * 1024) /* a longer file is not a secret of ours */

/* A new random id (getrandom). False if the kernel gave no randomness. */
bool secret_store_new_id(char id[SECRET_STORE_ID_SIZE]);
bool secret_store_valid_id(const char *id);

/* Each returns false with a reason in why (why_size bytes) on failure. */
bool secret_store_write(const char *folder, const char *id, const char *key, const char *value, char *why,
			size_t why_size);
/* The value (malloc'd), or NULL: no file (*why = ""), or one that cannot be read, is not a
 * regular file or is longer than SECRET_STORE_VALUE_MAX (the reason in why). */
char *secret_store_read(const char *folder, const char *id, const char *key, char *why, size_t why_size);
/* No file is no failure. */
bool secret_store_delete(const char *folder, const char *id, const char *key, char *why, size_t why_size);
