/* SPDX-License-Identifier: MIT */
/*
 * Data validation's journal and map files (journal.h): opening, the map
 * dumps, the synchronous BEFORE/AFTER entries, and recovery.
 */
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dv.h"
#include "errmsg.h"
#include "model.h"
#include "xmalloc.h"

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u);
}

/* <dir>/<sd><ext>, dir made absolute ("." -> the working directory). */
static char *
jnl_path(const char *dir, const char *sd, const char *ext)
{
	char cwd[PATH_MAX], *p;

	if (dir == NULL || *dir == '\0' || strcmp(dir, ".") == 0) {
		if (getcwd(cwd, sizeof(cwd)) == NULL)
			snprintf(cwd, sizeof(cwd), ".");
		xasprintf(&p, "%s/%s%s", cwd, sd, ext);
	} else if (dir[0] != '/' && getcwd(cwd, sizeof(cwd)) != NULL)
		xasprintf(&p, "%s/%s/%s%s", cwd, dir, sd, ext);
	else
		xasprintf(&p, "%s/%s%s", dir, sd, ext);
	return (p);
}

static int
write_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const unsigned char *p = buf;

	while (len > 0) {
		ssize_t r = pwrite(fd, p, len, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return (-1);
		p += r;
		len -= (size_t)r;
		off += (uint64_t)r;
	}
	return (0);
}

static int
read_all(int fd, void *buf, size_t len, uint64_t off)
{
	unsigned char *p = buf;

	while (len > 0) {
		ssize_t r = pread(fd, p, len, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return (-1);
		p += r;
		len -= (size_t)r;
		off += (uint64_t)r;
	}
	return (0);
}

/* mkdir -p dir; 0, or -1 with errno. */
static int
mkdir_p(const char *dir)
{
	char *p = xstrdup(dir), *q;
	int rc = 0;

	for (q = p + 1; rc == 0 && *q != '\0'; q++) {
		if (*q != '/')
			continue;
		*q = '\0';
		if (mkdir(p, 0755) != 0 && errno != EEXIST)
			rc = -1;
		*q = '/';
	}
	if (rc == 0 && mkdir(p, 0755) != 0 && errno != EEXIST)
		rc = -1;
	free(p);
	return (rc);
}

int
journal_open(struct journal *j, const char *dir, const char *sd,
    uint64_t key_blocks, uint32_t kb_bytes, int noflush, int maponly,
    struct errmsg *e)
{
	memset(j, 0, sizeof(*j));
	j->fd = -1;
	if (dir != NULL && *dir != '\0' && mkdir_p(dir) != 0) {
		errmsg_set(e, NULL, 0, 0, "sd=%s: cannot create the journal "
		    "directory %s: %s", sd, dir, strerror(errno));
		return (-1);
	}
	j->jnl_path = jnl_path(dir, sd, ".jnl");
	j->map_path = jnl_path(dir, sd, ".map");
	/* <sd>.jnl and <sd>.map often sit in a shared working directory:
	 * a link planted there is not followed (ELOOP, named) */
	j->fd = open(j->jnl_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW |
	    (noflush ? 0 : O_SYNC), 0644);
	if (j->fd < 0) {
		errmsg_set(e, NULL, 0, 0, "sd=%s: cannot open the journal "
		    "file %s: %s", sd, j->jnl_path, strerror(errno));
		journal_close(j);
		return (-1);
	}
	j->noflush = noflush;
	j->maponly = maponly;
	j->key_blocks = key_blocks;
	j->kb_bytes = kb_bytes;
	j->rec = xcalloc(2, JNL_SECTOR);
	pthread_mutex_init(&j->mu, NULL);
	return (0);
}

void
journal_close(struct journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	if (j->rec != NULL)
		pthread_mutex_destroy(&j->mu);
	free(j->jnl_path);
	free(j->map_path);
	free(j->rec);
	memset(j, 0, sizeof(*j));
	j->fd = -1;
}

/*
 * One dump: the header marked incomplete, the map records, an EOF
 * record where the journal starts, then the header marked complete. A
 * file cut anywhere in between keeps the incomplete header.
 */
static int
dump_one(int fd, const uint8_t *map, const struct journal *j,
    uint64_t tod_ms)
{
	uint64_t nrec = jnl_map_records(j->key_blocks), r;
	size_t len = (size_t)(nrec * JNL_SECTOR);
	unsigned char *buf = xmalloc(len), sec[JNL_SECTOR];
	struct jnl_header h;
	int rc;

	memset(&h, 0, sizeof(h));
	h.key_blocks = j->key_blocks;
	h.kb_bytes = j->kb_bytes;
	h.tod_ms = tod_ms;
	jnl_header_encode(sec, &h);
	for (r = 0; r < nrec; r++)
		jnl_map_record_encode(buf + r * JNL_SECTOR, map, j->key_blocks,
		    r);
	rc = write_all(fd, sec, JNL_SECTOR, 0);
	if (rc == 0)
		rc = write_all(fd, buf, len, JNL_SECTOR);
	jnl_record_init(sec, jnl_first_record_off(j->key_blocks), tod_ms);
	if (rc == 0)
		rc = write_all(fd, sec, JNL_SECTOR,
		    jnl_first_record_off(j->key_blocks));
	h.complete = 1;
	jnl_header_encode(sec, &h);
	if (rc == 0)
		rc = write_all(fd, sec, JNL_SECTOR, 0);
	free(buf);
	return (rc);
}

int
journal_dump(struct journal *j, const _Atomic uint8_t *keys,
    struct strlist *log, struct errmsg *e)
{
	uint8_t *map = xmalloc(j->key_blocks ? j->key_blocks : 1);
	uint64_t b, tod = now_ms();
	char line[PATH_MAX + 64];
	int fd, rc;

	for (b = 0; b < j->key_blocks; b++)
		map[b] = (uint8_t)(atomic_load_explicit(&keys[b],
		    memory_order_relaxed) & ~DV_KEY_BUSY);
	/*
	 * The .map first: while the .jnl is rewritten its header says
	 * incomplete and recovery takes the .map, which then already holds
	 * this map (vdbench writes the .jnl first; see differences.md).
	 */
	snprintf(line, sizeof(line), "Writing Data Validation map to %s",
	    j->map_path);
	strlist_add(log, line);
	fd = open(j->map_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW |
	    (j->noflush ? 0 : O_SYNC), 0644);
	if (fd < 0 || dump_one(fd, map, j, tod) != 0) {
		errmsg_set(e, NULL, 0, 0, "cannot write the Data Validation "
		    "map to %s: %s", j->map_path, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(map);
		return (-1);
	}
	close(fd);
	snprintf(line, sizeof(line), "Writing Data Validation map to %s",
	    j->jnl_path);
	strlist_add(log, line);
	pthread_mutex_lock(&j->mu);
	rc = dump_one(j->fd, map, j, tod);
	j->tod_ms = tod;
	j->rec_off = jnl_first_record_off(j->key_blocks);
	j->nent = 0;
	jnl_record_init(j->rec, j->rec_off, tod);
	pthread_mutex_unlock(&j->mu);
	free(map);
	if (rc != 0) {
		errmsg_set(e, NULL, 0, 0, "cannot write the Data Validation "
		    "map to %s: %s", j->jnl_path, strerror(errno));
		return (-1);
	}
	return (0);
}

int
journal_add(struct journal *j, uint64_t first, uint64_t n, const int *keys)
{
	uint64_t i;
	int rc = 0, dirty = 0;

	if (j->maponly)
		return (0);
	pthread_mutex_lock(&j->mu);
	for (i = 0; i < n && rc == 0; i++) {
		struct jnl_entry en;

		en.key = keys != NULL ? keys[i] : 0;
		en.block = first + i;
		jnl_record_put(j->rec, j->nent++, &en);
		dirty = 1;
		if (j->nent < JNL_ENTRIES_PER_REC)
			continue;
		/* full: it and an EOF record after it, in one write */
		jnl_record_init(j->rec + JNL_SECTOR, j->rec_off + JNL_SECTOR,
		    j->tod_ms);
		rc = write_all(j->fd, j->rec, 2 * JNL_SECTOR, j->rec_off);
		j->rec_off += JNL_SECTOR;
		memcpy(j->rec, j->rec + JNL_SECTOR, JNL_SECTOR);
		j->nent = 0;
		dirty = 0;
	}
	if (rc == 0 && dirty)
		rc = write_all(j->fd, j->rec, JNL_SECTOR, j->rec_off);
	if (rc != 0)
		j->failed = 1;
	pthread_mutex_unlock(&j->mu);
	return (rc);
}

/* vdbench's words when a journal sector cannot be read whole. */
#define JNL_SHORT	"Journal read failed: INCORRECT_SIZE: 'Vdbench " \
	"determined that not enough bytes were read or written'"

/*
 * Sector off of path (the journal or map file on fd), what it should
 * be named in the message: 0, or -1 with the message in e (the file's
 * size, the offset and what was expected there), vdbench's words first.
 */
static int
read_sec(int fd, const char *path, uint64_t off, unsigned char *sec,
    const char *lead, const char *what, struct errmsg *e)
{
	struct stat st;

	if (read_all(fd, sec, JNL_SECTOR, off) == 0)
		return (0);
	if (fstat(fd, &st) != 0)
		st.st_size = -1;
	errmsg_set(e, NULL, 0, 0, "%s %s: %s: offset 0x%08llx: the file "
	    "has %lld bytes; expected %s (512 bytes) there: the journal is "
	    "damaged, not the lun", lead, JNL_SHORT, path,
	    (unsigned long long)off, (long long)st.st_size, what);
	return (-1);
}

/* Header and map records of one file into map: 0, 1 if the header says
 * incomplete, -1 if not usable (the journal damaged, or of another
 * geometry), with the message in e. */
static int
load_map(int fd, uint8_t *map, uint64_t key_blocks, uint32_t kb_bytes,
    struct jnl_header *h, const char *path, struct errmsg *e)
{
	static const char lead[] = "Error while restoring the journal map. "
	    "Journal likely is corrupted.";
	unsigned char sec[JNL_SECTOR];
	char what[64];
	/*
	 * The records that hold key blocks: vdbench reserves
	 * jnl_map_records() but writes only these, so a reserved record past
	 * them may be zeros (key blocks a multiple of 480).
	 */
	uint64_t r, nrec = (key_blocks + JNL_MAP_PER_REC - 1) /
	    JNL_MAP_PER_REC;

	if (read_sec(fd, path, 0, sec, lead, "the map header", e) != 0)
		return (-1);
	if (jnl_header_decode(sec, h) != 0) {
		/* Jnl_entry.restoreMap(): no fall back to the .map */
		errmsg_set(e, NULL, 0, 0, "Invalid contents on journal or map "
		    "file: %08x: %s: offset 0x00000000: expected the map "
		    "header's eye catcher %08x (\".PAM\"): the journal is "
		    "damaged, not the lun", jnl_get32(sec, 0), path,
		    JNL_MAP_EYE);
		return (-1);
	}
	if (!h->complete)
		return (1);
	if (h->key_blocks != key_blocks || h->kb_bytes != kb_bytes) {
		errmsg_set(e, NULL, 0, 0, "%s: the journal's map has %llu key "
		    "blocks of %u bytes; this sd has %llu of %u", path,
		    (unsigned long long)h->key_blocks, h->kb_bytes,
		    (unsigned long long)key_blocks, kb_bytes);
		return (-1);
	}
	for (r = 0; r < nrec; r++) {
		uint64_t off = JNL_SECTOR + r * JNL_SECTOR;

		snprintf(what, sizeof(what), "map record %llu of %llu",
		    (unsigned long long)r + 1, (unsigned long long)nrec);
		if (read_sec(fd, path, off, sec, lead, what, e) != 0)
			return (-1);
		if (jnl_map_record_decode(sec, map, key_blocks, r) != 0) {
			errmsg_set(e, NULL, 0, 0, "Expecting MAP record but "
			    "receiving %s 0x%08x record from %s: offset "
			    "0x%08llx, %s: the journal is damaged, not the "
			    "lun", jnl_get32(sec, 0) == JNL_REC_EYE ? "JNL" :
			    "unknown", jnl_get32(sec, 0), path,
			    (unsigned long long)off, what);
			return (-1);
		}
	}
	return (0);
}

int
journal_peek_kb(const char *dir, const char *sd, uint32_t *kb_bytes)
{
	static const char *const ext[] = { ".jnl", ".map" };
	unsigned char sec[JNL_SECTOR];
	struct jnl_header h;
	int i, fd, rc = -1;

	for (i = 0; i < 2 && rc != 0; i++) {
		char *p = jnl_path(dir, sd, ext[i]);

		fd = open(p, O_RDONLY | O_CLOEXEC);
		free(p);
		if (fd < 0)
			continue;
		if (read_all(fd, sec, JNL_SECTOR, 0) == 0 &&
		    jnl_header_decode(sec, &h) == 0 && h.complete &&
		    h.kb_bytes > 0) {
			*kb_bytes = h.kb_bytes;
			rc = 0;
		}
		close(fd);
	}
	return (rc);
}

/*
 * The record walk ended at off (a record of fewer than 62 entries, or
 * one not of this dump): the journal's end, unless a record of this dump
 * with entries lies further on, or the walk stopped on a zeroed sector.
 * The writer only appends (journal_add) and never writes a sector of
 * zeros, so either is damage in the file: a record zeroed, cut short or
 * punched out, which would otherwise drop every write after it and
 * blame the lun for them (attacker review of issue 28, 2026-12-06).
 * 0, or -1 with the journal named damaged in e.
 */
static int
walk_end_check(int fd, const char *jpath, uint64_t off,
    const unsigned char end[JNL_SECTOR], uint32_t tod, struct errmsg *e)
{
	static const unsigned char zero[JNL_SECTOR];
	unsigned char *buf;
	uint64_t at = off + JNL_SECTOR;
	size_t chunk = 256 * JNL_SECTOR, i;
	ssize_t r;

	if (memcmp(end, zero, JNL_SECTOR) == 0) {
		errmsg_set(e, NULL, 0, 0, "Error while reading journal "
		    "records: %s: offset 0x%08llx: all zeros where this "
		    "dump's records go on: the journal is damaged, not the "
		    "lun", jpath, (unsigned long long)off);
		return (-1);
	}
	buf = xmalloc(chunk);
	for (;;) {
		r = pread(fd, buf, chunk, (off_t)at);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < (ssize_t)JNL_SECTOR)
			break;		/* the file's end (or unreadable) */
		for (i = 0; i + JNL_SECTOR <= (size_t)r; i += JNL_SECTOR) {
			const unsigned char *sec = buf + i;
			uint64_t so = at + i;
			uint32_t n = jnl_get32(sec, 1);

			if (jnl_get32(sec, 0) != JNL_REC_EYE ||
			    jnl_get32(sec, 3) != tod ||
			    jnl_get32(sec, 2) != (uint32_t)(so / JNL_SECTOR) ||
			    n == 0 || n > JNL_ENTRIES_PER_REC)
				continue;
			errmsg_set(e, NULL, 0, 0, "Error while reading "
			    "journal records: %s: offset 0x%08llx: the "
			    "records end there, but the one at offset "
			    "0x%08llx is of the same dump (%u entries): the "
			    "journal is damaged, not the lun", jpath,
			    (unsigned long long)off, (unsigned long long)so,
			    n);
			free(buf);
			return (-1);
		}
		at += (uint64_t)r - (uint64_t)r % JNL_SECTOR;
	}
	free(buf);
	return (0);
}

/*
 * The journal's records after its map, applied to map: a BEFORE entry
 * (a key) marks its block pending in before[], an AFTER entry (key 0)
 * puts the pending key in the map. vdbench ends every record walk on a
 * record of fewer than 62 entries (a full one is written with the EOF
 * record after it): a file that ends first, or a record that is not
 * this dump's, is a damaged journal (Jnl_entry.jnl_read_next_record's
 * words).
 */
static int
apply_records(int fd, const char *jpath, const struct jnl_header *h,
    uint8_t *map, uint64_t key_blocks, uint8_t *before,
    struct jnl_recovery *r, struct errmsg *e)
{
	unsigned char sec[JNL_SECTOR];
	struct jnl_entry en[JNL_ENTRIES_PER_REC];
	uint64_t off;
	int n, i;

	for (off = jnl_first_record_off(key_blocks);; off += JNL_SECTOR) {
		if (read_sec(fd, jpath, off, sec, "Error while reading "
		    "journal records. This very likely means that the "
		    "storage or file system where you wrote the journal was "
		    "corrupted due to the writes of the journal records NOT "
		    "being done synchronously.", "a journal record or its "
		    "EOF record", e) != 0)
			return (-1);
		if (jnl_get32(sec, 3) != (uint32_t)h->tod_ms)	/* the end */
			return (walk_end_check(fd, jpath, off, sec,
			    (uint32_t)h->tod_ms, e));
		if ((n = jnl_record_decode(sec, off, en)) < 0) {
			errmsg_set(e, NULL, 0, 0, "Expecting JNL record but "
			    "receiving %s 0x%08x record from %s: offset "
			    "0x%08llx (its count %u, its offset field 0x%x): "
			    "the journal is damaged, not the lun",
			    jnl_get32(sec, 0) == JNL_MAP_EYE ? "MAP" :
			    "unknown", jnl_get32(sec, 0), jpath,
			    (unsigned long long)off, jnl_get32(sec, 1),
			    jnl_get32(sec, 2) * JNL_SECTOR);
			return (-1);
		}
		for (i = 0; i < n; i++) {
			if (en[i].block >= key_blocks || en[i].key > DV_KEY_MAX)
				continue;
			if (en[i].key != 0) {
				before[en[i].block] = (uint8_t)en[i].key;
				r->befores++;
			} else {
				if (before[en[i].block] != 0)
					map[en[i].block] = before[en[i].block];
				before[en[i].block] = 0;
				r->afters++;
			}
		}
		if (n < JNL_ENTRIES_PER_REC)		/* the end */
			return (walk_end_check(fd, jpath, off, sec,
			    (uint32_t)h->tod_ms, e));
	}
}

int
journal_recover(const char *dir, const char *sd, uint8_t *map,
    uint64_t key_blocks, uint32_t kb_bytes, struct jnl_recovery *r,
    struct strlist *log, struct errmsg *e)
{
	char *jpath = jnl_path(dir, sd, ".jnl"), *mpath = jnl_path(dir, sd,
	    ".map"), line[PATH_MAX + 128], a[32];
	struct jnl_header h;
	uint8_t *before = NULL;
	uint64_t b;
	int fd, mfd, rc = -1, n, apply = 1;

	memset(r, 0, sizeof(*r));
	fd = open(jpath, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		errmsg_set(e, NULL, 0, 0, "sd=%s: journal recovery: cannot "
		    "open %s: %s", sd, jpath, strerror(errno));
		goto out;
	}
	snprintf(line, sizeof(line), "Restoring Data Validation map from: %s",
	    jpath);
	strlist_add(log, line);
	n = load_map(fd, map, key_blocks, kb_bytes, &h, jpath, e);
	if (n == -1)
		goto out;
	if (n == 1) {
		/*
		 * The .jnl dump was cut short: its .map holds the map, and
		 * the .jnl's entries are older than it (none apply). A .jnl
		 * without its header is damaged (load_map said so), as in
		 * vdbench's restoreMap.
		 */
		r->from_map = 1;
		apply = 0;
		snprintf(line, sizeof(line), "Journal map header of %s is "
		    "incomplete; restoring Data Validation map from: %s", jpath,
		    mpath);
		strlist_add(log, line);
		mfd = open(mpath, O_RDONLY | O_CLOEXEC);
		if (mfd < 0) {
			errmsg_set(e, NULL, 0, 0, "sd=%s: journal recovery: "
			    "cannot open %s: %s", sd, mpath, strerror(errno));
			goto out;
		}
		n = load_map(mfd, map, key_blocks, kb_bytes, &h, mpath, e);
		close(mfd);
		if (n != 0) {
			if (n == 1)
				errmsg_set(e, NULL, 0, 0, "sd=%s: journal "
				    "recovery: neither %s nor %s holds a "
				    "complete map", sd, jpath, mpath);
			goto out;
		}
	}
	for (b = 0; b < key_blocks; b++)
		r->known += map[b] != 0;
	snprintf(line, sizeof(line), "Data Validation map restored for "
	    "%s.%s. Map contains %16s known blocks.", sd, r->from_map ?
	    "map" : "jnl", dv_commas(a, sizeof(a), r->known));
	strlist_add(log, line);
	snprintf(line, sizeof(line), "Applying journal records from %s",
	    jpath);
	strlist_add(log, line);
	before = xcalloc(key_blocks ? key_blocks : 1, 1);
	/* an incomplete .jnl dump reset nothing yet; its entries are older
	 * than the .map: none are applied */
	if (apply && apply_records(fd, jpath, &h, map, key_blocks, before, r,
	    e) != 0)
		goto out;
	snprintf(line, sizeof(line), "Completed apply of journal records "
	    "(before/after): %llu/%llu", (unsigned long long)r->befores,
	    (unsigned long long)r->afters);
	strlist_add(log, line);
	for (b = 0; b < key_blocks; b++) {
		if (before[b] == 0)
			continue;
		if (r->npending == 0) {
			strlist_add(log, "");
			strlist_add(log, "Note that i/o still pending at the "
			    "end of the previous run's NORMAL completion may "
			    "be included here.");
			strlist_add(log, "");
		}
		r->pending = xreallocarray(r->pending, r->npending + 1,
		    sizeof(*r->pending));
		r->pending[r->npending].block = b;
		r->pending[r->npending].old_key = map[b];
		r->pending[r->npending].new_key = before[b];
		r->npending++;
		snprintf(line, sizeof(line), "I/O pending for key block at lba "
		    "0x%08llx flag 0x%02x key 0x%02x", (unsigned long long)(b *
		    kb_bytes), map[b] != 0 ? 0x81 : 0x80, before[b]);
		strlist_add(log, line);
	}
	if (r->npending > 0) {
		snprintf(line, sizeof(line), "sd=%s %zu pending writes found "
		    "in this journal need to be checked.", sd, r->npending);
		strlist_add(log, line);
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	free(before);
	free(jpath);
	free(mpath);
	return (rc);
}
