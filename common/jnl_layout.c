/* SPDX-License-Identifier: MIT */
/*
 * vdbench's journal and map file layout (jnl_layout.h): sectors encoded
 * and decoded, no I/O.
 */
#include "jnl_layout.h"

#include <string.h>

uint64_t
jnl_map_records(uint64_t key_blocks)
{
	/* Jnl_entry.java:786, integer division as vdbench does it */
	return ((key_blocks + 511) / JNL_MAP_PER_REC);
}

uint64_t
jnl_first_record_off(uint64_t key_blocks)
{
	return (JNL_SECTOR + jnl_map_records(key_blocks) * JNL_SECTOR);
}

uint32_t
jnl_get32(const unsigned char *sec, unsigned i)
{
	const unsigned char *p = sec + 4 * i;

	return ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24);
}

void
jnl_put32(unsigned char *sec, unsigned i, uint32_t v)
{
	unsigned char *p = sec + 4 * i;

	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

void
jnl_header_encode(unsigned char sec[JNL_SECTOR], const struct jnl_header *h)
{
	memset(sec, 0, JNL_SECTOR);
	jnl_put32(sec, 0, JNL_MAP_EYE);
	jnl_put32(sec, 1, h->complete ? JNL_MAP_EYE : 0xffffffffu);
	jnl_put32(sec, 2, (uint32_t)(h->key_blocks >> 32));
	jnl_put32(sec, 3, (uint32_t)h->key_blocks);
	jnl_put32(sec, 4, h->kb_bytes);
	jnl_put32(sec, 5, (uint32_t)(h->tod_ms >> 32));
	jnl_put32(sec, 6, (uint32_t)h->tod_ms);
	jnl_put32(sec, 7, h->timestamps ? 1 : 0);
}

int
jnl_header_decode(const unsigned char sec[JNL_SECTOR], struct jnl_header *h)
{
	if (jnl_get32(sec, 0) != JNL_MAP_EYE)
		return (-1);
	h->complete = jnl_get32(sec, 1) == JNL_MAP_EYE;
	h->key_blocks = (uint64_t)jnl_get32(sec, 2) << 32 | jnl_get32(sec, 3);
	h->kb_bytes = jnl_get32(sec, 4);
	h->tod_ms = (uint64_t)jnl_get32(sec, 5) << 32 | jnl_get32(sec, 6);
	h->timestamps = jnl_get32(sec, 7) != 0;
	return (0);
}

void
jnl_map_record_encode(unsigned char sec[JNL_SECTOR], const uint8_t *map,
    uint64_t key_blocks, uint64_t rec)
{
	uint64_t b = rec * JNL_MAP_PER_REC;
	unsigned i, j;

	memset(sec, 0, JNL_SECTOR);
	jnl_put32(sec, 0, JNL_MAP_EYE);
	jnl_put32(sec, 1, JNL_MAP_EYE);
	/* 4 map bytes per int, the first in the top byte */
	for (i = 0; i < JNL_MAP_PER_REC / 4; i++) {
		uint32_t v = 0;

		for (j = 0; j < 4; j++, b++)
			v |= (uint32_t)(b < key_blocks ? map[b] : 0) <<
			    (24 - 8 * j);
		jnl_put32(sec, 8 + i, v);
	}
}

int
jnl_map_record_keys(const unsigned char sec[JNL_SECTOR],
    uint8_t keys[JNL_MAP_PER_REC])
{
	unsigned i, j;

	if (jnl_get32(sec, 0) != JNL_MAP_EYE)
		return (-1);
	/* 4 map bytes per int, the first in the top byte */
	for (i = 0; i < JNL_MAP_PER_REC / 4; i++) {
		uint32_t v = jnl_get32(sec, 8 + i);

		for (j = 0; j < 4; j++)
			keys[4 * i + j] = (uint8_t)(v >> (24 - 8 * j));
	}
	return (0);
}

int
jnl_map_record_decode(const unsigned char sec[JNL_SECTOR], uint8_t *map,
    uint64_t key_blocks, uint64_t rec)
{
	uint8_t keys[JNL_MAP_PER_REC];
	uint64_t b = rec * JNL_MAP_PER_REC;
	unsigned i;

	if (jnl_get32(sec, 1) != JNL_MAP_EYE ||
	    jnl_map_record_keys(sec, keys) != 0)
		return (-1);
	for (i = 0; i < JNL_MAP_PER_REC && b + i < key_blocks; i++)
		map[b + i] = keys[i];
	return (0);
}

enum jnl_kind
jnl_kind_of(const unsigned char sec[JNL_SECTOR])
{
	uint32_t w = jnl_get32(sec, 0);

	return (w == JNL_MAP_EYE ? JNL_KIND_MAP : w == JNL_REC_EYE ?
	    JNL_KIND_RECORD : JNL_KIND_OTHER);
}

int
jnl_entries_per_rec(int timestamps)
{
	return (timestamps ? JNL_ENTRIES_PER_REC / 2 : JNL_ENTRIES_PER_REC);
}

void
jnl_record_init(unsigned char sec[JNL_SECTOR], uint64_t off, uint64_t tod_ms)
{
	memset(sec, 0, JNL_SECTOR);
	jnl_put32(sec, 0, JNL_REC_EYE);
	jnl_put32(sec, 1, 0);
	jnl_put32(sec, 2, (uint32_t)(off / JNL_SECTOR));
	jnl_put32(sec, 3, (uint32_t)tod_ms);
}

void
jnl_record_put(unsigned char sec[JNL_SECTOR], int i,
    const struct jnl_entry *en)
{
	jnl_put32(sec, 4 + 2 * (unsigned)i, (uint32_t)en->key << 24 |
	    (uint32_t)(en->block >> 32 & 0xffffff));
	jnl_put32(sec, 5 + 2 * (unsigned)i, (uint32_t)en->block);
	jnl_put32(sec, 1, (uint32_t)i + 1);
}

int
jnl_record_entries(const unsigned char sec[JNL_SECTOR], int timestamps,
    struct jnl_entry out[JNL_ENTRIES_PER_REC])
{
	int32_t n = (int32_t)jnl_get32(sec, 1);
	unsigned w = timestamps ? 4 : 2, i;

	if (jnl_get32(sec, 0) != JNL_REC_EYE)
		return (-1);
	if (n < 0 || n > jnl_entries_per_rec(timestamps))
		return (-2);
	for (i = 0; i < (unsigned)n; i++) {
		uint32_t hi = jnl_get32(sec, 4 + w * i);

		out[i].key = (int)(hi >> 24);
		out[i].block = (uint64_t)(hi & 0xffffff) << 32 |
		    jnl_get32(sec, 5 + w * i);
		out[i].tod_ms = timestamps ? (int64_t)((uint64_t)jnl_get32(sec,
		    6 + w * i) << 32 | jnl_get32(sec, 7 + w * i)) : 0;
	}
	return ((int)n);
}

int
jnl_record_decode(const unsigned char sec[JNL_SECTOR], uint64_t off,
    struct jnl_entry out[JNL_ENTRIES_PER_REC])
{
	int n;

	if (jnl_get32(sec, 2) != (uint32_t)(off / JNL_SECTOR))
		return (-1);
	n = jnl_record_entries(sec, 0, out);
	return (n < 0 ? -1 : n);
}
