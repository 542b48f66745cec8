// SPDX-License-Identifier: GPL-2.0-or-later
/* libvorbisfile (Xiph.Org), for the first-time sound's Ogg Vorbis files. The file is read into
 * memory first (bounded), then decoded from there through these callbacks: vorbisfile never
 * opens a path itself. */
#define OV_EXCLUDE_STATIC_CALLBACKS
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <vorbis/vorbisfile.h>

struct cvorbis_memory {
	const unsigned char *bytes;
	size_t size;
	size_t offset;
};

static inline size_t cvorbis_read(void *into, size_t size, size_t count, void *source)
{
	struct cvorbis_memory *memory = source;
	if (size == 0 || memory->offset >= memory->size)
		return 0;
	size_t items = (memory->size - memory->offset) / size;
	if (items > count)
		items = count;
	memcpy(into, memory->bytes + memory->offset, items * size);
	memory->offset += items * size;
	return items;
}

static inline int cvorbis_seek(void *source, ogg_int64_t offset, int whence)
{
	struct cvorbis_memory *memory = source;
	ogg_int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (ogg_int64_t)memory->offset
				 : whence == SEEK_END ? (ogg_int64_t)memory->size : -1;
	if (base < 0 || offset < -base || base + offset > (ogg_int64_t)memory->size)
		return -1;
	memory->offset = (size_t)(base + offset);
	return 0;
}

static inline long cvorbis_tell(void *source)
{
	return (long)((struct cvorbis_memory *)source)->offset;
}

/* ov_open_callbacks over `memory`, which must outlive `file`; 0 or an OV_E… code. */
static inline int cvorbis_open_memory(struct cvorbis_memory *memory, OggVorbis_File *file)
{
	ov_callbacks callbacks = {cvorbis_read, cvorbis_seek, NULL, cvorbis_tell};
	return ov_open_callbacks(memory, file, NULL, 0, callbacks);
}
