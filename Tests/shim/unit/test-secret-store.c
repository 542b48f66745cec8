// SPDX-License-Identifier: GPL-2.0-or-later
/* The secrets' file store (secret-store.c): a 0700 folder, 0600 files written by rename, read
 * back, deleted; ids and files from outside cannot name or read anything else. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "secret-store.h"
#include "unit-tests.h"

static mode_t mode_of(const char *path)
{
	struct stat info;
	return lstat(path, &info) == 0 ? info.st_mode & 07777 : (mode_t)-1;
}

/* Entries in folder other than . and .. */
static int entries(const char *folder)
{
	DIR *dir = opendir(folder);
	int count = 0;
	for (struct dirent *entry; dir && (entry = readdir(dir));)
		count += entry->d_name[0] != '.';
	if (dir)
		closedir(dir);
	return count;
}

static void remove_tree(const char *top)
{
	char command[600];
	snprintf(command, sizeof(command), "rm -rf '%s'", top);
	if (system(command) != 0)
		fprintf(stderr, "could not remove %s\n", top);
}

void test_secret_store(void)
{
	char top[] = "/tmp/commentbar-secrets-XXXXXX";
	if (!mkdtemp(top)) {
		check(false, "secret store: a temporary folder", NULL);
		return;
	}
	char folder[256], file[400], why[512];
	snprintf(folder, sizeof(folder), "%s/config/comment-bar/secrets", top);
	char id[SECRET_STORE_ID_SIZE], other[SECRET_STORE_ID_SIZE];
	check(secret_store_new_id(id) && secret_store_new_id(other) && secret_store_valid_id(id) &&
		      strcmp(id, other) != 0,
	      "secret store: new ids are 32 hex digits, and differ", "%s %s", id, other);
	check(!secret_store_valid_id("../../../../etc/passwd") && !secret_store_valid_id("ABCDEF0123456789abcdef0123456789") &&
		      !secret_store_valid_id("abc") && !secret_store_valid_id("") && !secret_store_valid_id(NULL),
	      "secret store: an id that is not 32 lower-case hex digits is refused", NULL);
	check(!secret_store_write(folder, "../../x", "mirrativ_session", "v", why, sizeof(why)) && entries(top) == 0,
	      "secret store: a malformed id (from a scene file) writes nothing", "%s", why);

	umask(022);
	const mode_t umask_was = umask(022);
	const bool wrote = secret_store_write(folder, id, "mirrativ_session", "hunter2", why, sizeof(why));
	umask(umask_was);
	snprintf(file, sizeof(file), "%s/%s.mirrativ_session", folder, id);
	char parent[300];
	snprintf(parent, sizeof(parent), "%s/config/comment-bar", top);
	check(wrote && mode_of(folder) == 0700 && mode_of(parent) == 0700 && mode_of(file) == 0600,
	      "secret store: the folder (and the parents it made) is 0700, the file 0600, under umask 022",
	      "%s; folder %o, parent %o, file %o", why, mode_of(folder), mode_of(parent), mode_of(file));
	char *value = secret_store_read(folder, id, "mirrativ_session", why, sizeof(why));
	check(value && strcmp(value, "hunter2") == 0, "secret store: the value reads back", "%s", why);
	free(value);

	/* Replaced by rename: a reader of the old file keeps the old value, whole. */
	const int old = open(file, O_RDONLY);
	const bool rewrote = secret_store_write(folder, id, "mirrativ_session", "correct horse", why, sizeof(why));
	char old_text[64] = "";
	const ssize_t n = old >= 0 ? read(old, old_text, sizeof(old_text) - 1) : -1;
	if (old >= 0)
		close(old);
	value = secret_store_read(folder, id, "mirrativ_session", why, sizeof(why));
	check(rewrote && n == 7 && strcmp(old_text, "hunter2") == 0 && value && strcmp(value, "correct horse") == 0 &&
		      entries(folder) == 1 && mode_of(file) == 0600,
	      "secret store: a new value replaces the file atomically (new file renamed over it, no temporary left)",
	      "old fd read \"%s\", new \"%s\", %d entries", old_text, value ? value : "(null)", entries(folder));
	free(value);

	chmod(folder, 0755);
	secret_store_write(folder, id, "mirrativ_session", "again", why, sizeof(why));
	check(mode_of(folder) == 0700, "secret store: a folder found open to others is made 0700 again", "%o",
	      mode_of(folder));

	value = secret_store_read(folder, other, "mirrativ_session", why, sizeof(why));
	check(!value && why[0] == '\0', "secret store: no file is no secret, and no error", "%s", why);

	/* A symbolic link where the file should be is not followed. */
	char link_path[400];
	snprintf(link_path, sizeof(link_path), "%s/%s.mirrativ_session", folder, other);
	if (symlink("/etc/hostname", link_path) != 0)
		check(false, "secret store: a symbolic link to plant", NULL);
	value = secret_store_read(folder, other, "mirrativ_session", why, sizeof(why));
	check(!value && why[0], "secret store: a symbolic link in place of a secret is not read", "%s",
	      value ? value : "(null)");
	free(value);
	unlink(link_path);

	/* A file far too long is not a secret of ours. */
	char *big = malloc(SECRET_STORE_VALUE_MAX + 2);
	memset(big, 'x', SECRET_STORE_VALUE_MAX + 1);
	big[SECRET_STORE_VALUE_MAX + 1] = '\0';
	secret_store_write(folder, other, "mirrativ_session", big, why, sizeof(why));
	value = secret_store_read(folder, other, "mirrativ_session", why, sizeof(why));
	check(!value && strstr(why, "at most"), "secret store: a file longer than 64 KiB is refused", "%s", why);
	free(big);

	check(secret_store_delete(folder, id, "mirrativ_session", why, sizeof(why)) && access(file, F_OK) != 0 &&
		      secret_store_delete(folder, id, "mirrativ_session", why, sizeof(why)),
	      "secret store: delete removes the file; deleting what is gone is no failure", "%s", why);
	remove_tree(top);
}
