/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_JOURNAL_H
#define SLAVE_JOURNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "jnl_layout.h"

struct errmsg;
struct strlist;

/*
 * Data validation's journal as vdbench 5.04.06 keeps it (validation
 * README section 5; the layout is common/jnl_layout.h): <dir>/<sd>.jnl
 * and <dir>/<sd>.map. The map is dumped to both at the start and end of
 * each run; between, every write of a validated block puts a BEFORE
 * entry (its new key) in the journal before the data write and an AFTER
 * entry after it, each a synchronous rewrite of the current record
 * (O_SYNC unless noflush). Recovery restores the map and applies the
 * entries. Owns the two files; the I/O threads share one journal under
 * its mutex.
 */

struct journal {
	char		*jnl_path;
	char		*map_path;
	int		 fd;		/* the .jnl */
	int		 noflush;	/* no O_SYNC */
	int		 maponly;	/* dumps only, no entries */
	uint64_t	 key_blocks;
	uint32_t	 kb_bytes;
	uint64_t	 tod_ms;	/* of the last dump */
	uint64_t	 rec_off;	/* the current record's offset */
	int		 nent;		/* its entries */
	unsigned char	*rec;		/* 2 sectors: it and the EOF after */
	int		 failed;	/* a journal write failed */
	pthread_mutex_t	 mu;
};

/* dir = NULL or "" for the working directory; the paths are absolute. */
int	 journal_open(struct journal *, const char *dir, const char *sd,
	    uint64_t key_blocks, uint32_t kb_bytes, int noflush, int maponly,
	    struct errmsg *);
void	 journal_close(struct journal *);

/*
 * Dump map (key_blocks entries; busy bits are masked off) to the .map,
 * then to the .jnl, whose journal then starts empty. log gets vdbench's
 * "Writing Data Validation map to ..." lines. 0 or -1 with e.
 */
int	 journal_dump(struct journal *, const _Atomic uint8_t *map,
	    struct strlist *log, struct errmsg *);

/*
 * n entries for the key blocks first.. of one I/O: keys[i] (BEFORE) or
 * all 0 when keys is NULL (AFTER). Written synchronously. 0, or -1 when
 * the write failed.
 */
int	 journal_add(struct journal *, uint64_t first, uint64_t n,
	    const int *keys);

/* A write in flight when the journal ended: BEFORE without AFTER. */
struct jnl_pending {
	uint64_t	block;
	int		old_key;	/* in the map before it */
	int		new_key;	/* of its BEFORE entry */
};

struct jnl_recovery {
	uint64_t		 known;		/* in the restored map */
	uint64_t		 befores, afters;
	int			 from_map;	/* the .jnl header was bad */
	size_t			 npending;
	struct jnl_pending	*pending;	/* caller frees */
};

/*
 * The key block size of the map in <dir>/<sd>.jnl (or its .map when the
 * .jnl's header is incomplete): 0, or -1 when neither has a map header.
 */
int	 journal_peek_kb(const char *dir, const char *sd, uint32_t *kb_bytes);

/*
 * Restore map (key_blocks bytes) from <dir>/<sd>.jnl (or its .map when the
 * .jnl's header is incomplete) and apply the journal's entries; pending
 * writes are left in r, their blocks with the old key in map. log gets
 * vdbench's lines. 0, or -1 with e (no journal, another geometry).
 */
int	 journal_recover(const char *dir, const char *sd, uint8_t *map,
	    uint64_t key_blocks, uint32_t kb_bytes, struct jnl_recovery *r,
	    struct strlist *log, struct errmsg *);

#endif /* SLAVE_JOURNAL_H */
