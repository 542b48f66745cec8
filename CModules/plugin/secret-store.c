// SPDX-License-Identifier: GPL-2.0-or-later
/* A source's secrets as 0600 files in a 0700 folder (see secret-store.h). */
#define _GNU_SOURCE
#include "secret-store.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define FOLDER_MODE 0700

bool secret_store_new_id(char id[SECRET_STORE_ID_SIZE])
{
	unsigned char bytes[(SECRET_STORE_ID_SIZE - 1) / 2];
	if (getrandom(bytes, sizeof(bytes), 0) != (ssize_t)sizeof(bytes))
		return false;
	for (size_t i = 0; i < sizeof(bytes); i++)
		snprintf(id + 2 * i, 3, "%02x", bytes[i]);
	return true;
}

bool secret_store_valid_id(const char *id)
{
	size_t length = 0;
	for (; id && id[length]; length++)
		if (!((id[length] >= '0' && id[length] <= '9') || (id[length] >= 'a' && id[length] <= 'f')))
			return false;
	return length == SECRET_STORE_ID_SIZE - 1;
}

static bool valid_key(const char *key)
{
	size_t length = 0;
	for (; key && key[length]; length++)
		if (!((key[length] >= 'a' && key[length] <= 'z') || key[length] == '_'))
			return false;
	return length > 0 && length < 64;
}

static bool fail(char *why, size_t why_size, const char *what, const char *path)
{
	snprintf(why, why_size, "%s %s: %s", what, path, strerror(errno));
	return false;
}

/* <folder>/<id>.<key>, after checking the parts that come from outside. */
static bool file_path(char *path, size_t path_size, const char *folder, const char *id, const char *key, char *why,
		      size_t why_size)
{
	if (!folder || !*folder || !secret_store_valid_id(id) || !valid_key(key)) {
		snprintf(why, why_size, "no secrets folder, or a malformed id or key");
		return false;
	}
	if (snprintf(path, path_size, "%s/%s.%s", folder, id, key) >= (int)path_size) {
		snprintf(why, why_size, "the secrets folder's path is too long");
		return false;
	}
	return true;
}

/* mkdir -p with mode 0700 for what it makes; the folder itself made 0700 if it exists. */
static bool make_folder(const char *folder, char *why, size_t why_size)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s", folder) >= (int)sizeof(path)) {
		snprintf(why, why_size, "the secrets folder's path is too long");
		return false;
	}
	for (char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, FOLDER_MODE) != 0 && errno != EEXIST)
			return fail(why, why_size, "cannot make", path);
		*slash = '/';
	}
	if (mkdir(path, FOLDER_MODE) != 0 && errno != EEXIST)
		return fail(why, why_size, "cannot make", path);
	struct stat info;
	if (lstat(path, &info) != 0)
		return fail(why, why_size, "cannot look at", path);
	if (!S_ISDIR(info.st_mode) || info.st_uid != geteuid()) {
		snprintf(why, why_size, "%s is not a folder of this user's", path);
		return false;
	}
	if ((info.st_mode & 07777) != FOLDER_MODE && chmod(path, FOLDER_MODE) != 0)
		return fail(why, why_size, "cannot make private", path);
	return true;
}

static bool write_all(int fd, const char *bytes, size_t length)
{
	while (length > 0) {
		const ssize_t n = write(fd, bytes, length);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		bytes += n;
		length -= (size_t)n;
	}
	return true;
}

bool secret_store_write(const char *folder, const char *id, const char *key, const char *value, char *why,
			size_t why_size)
{
	char path[PATH_MAX], temporary[PATH_MAX + 8];
	if (!file_path(path, sizeof(path), folder, id, key, why, why_size) || !make_folder(folder, why, why_size))
		return false;
	snprintf(temporary, sizeof(temporary), "%s.XXXXXX", path);
	/* mkostemp makes the file 0600 and O_EXCL: no other user's file is ever written to. */
	const int fd = mkostemp(temporary, O_CLOEXEC);
	if (fd < 0)
		return fail(why, why_size, "cannot create", temporary);
	bool ok = write_all(fd, value, strlen(value)) && fsync(fd) == 0;
	int error = ok ? 0 : errno;
	if (close(fd) != 0 && ok)
		ok = false, error = errno;
	if (ok && rename(temporary, path) != 0)
		ok = false, error = errno;
	if (!ok) {
		unlink(temporary);
		errno = error;
		return fail(why, why_size, "cannot write", path);
	}
	return true;
}

char *secret_store_read(const char *folder, const char *id, const char *key, char *why, size_t why_size)
{
	char path[PATH_MAX];
	why[0] = '\0';
	if (!file_path(path, sizeof(path), folder, id, key, why, why_size))
		return NULL;
	const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		if (errno != ENOENT)
			fail(why, why_size, "cannot read", path);
		return NULL;
	}
	struct stat info;
	char *value = NULL;
	if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size > SECRET_STORE_VALUE_MAX) {
		snprintf(why, why_size, "%s is not a secret of ours (not a regular file of at most %d bytes)", path,
			 SECRET_STORE_VALUE_MAX);
	} else if ((value = malloc((size_t)info.st_size + 1)) != NULL) {
		const ssize_t n = read(fd, value, (size_t)info.st_size);
		value[n > 0 ? n : 0] = '\0';
		if (n < 0)
			fail(why, why_size, "cannot read", path);
	}
	close(fd);
	if (value && why[0]) {
		free(value);
		value = NULL;
	}
	return value;
}

bool secret_store_delete(const char *folder, const char *id, const char *key, char *why, size_t why_size)
{
	char path[PATH_MAX];
	if (!file_path(path, sizeof(path), folder, id, key, why, why_size))
		return false;
	if (unlink(path) != 0 && errno != ENOENT)
		return fail(why, why_size, "cannot delete", path);
	return true;
}
