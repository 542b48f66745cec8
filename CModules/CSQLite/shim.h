// SPDX-License-Identifier: GPL-2.0-or-later
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro Swift cannot import: bound text and blobs are copied by SQLite. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
