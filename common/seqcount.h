/* SPDX-License-Identifier: MIT */
#ifndef COMMON_SEQCOUNT_H
#define COMMON_SEQCOUNT_H

#include <sched.h>
#include <stdint.h>

/*
 * A sequence count: one writer publishes a group of counters whole, and
 * a reader takes a copy of the group that no update tore (docs/threads.md,
 * "Counters"). The writer never waits on a free reader and takes no lock:
 * it makes the count odd, writes the group, makes it even again. A reader
 * copies the group between two even, equal counts and copies again when
 * they differ.
 *
 * A writer that updates all the time (the null engine at iorate=max)
 * could keep a reader copying forever, so a reader that had to retry once
 * raises `hold`: the writer waits at its next seqcount_write_begin until
 * the copy is taken, which is a few microseconds. The writer is never
 * held inside its group, so the reader's wait for an even count is
 * bounded by one update.
 *
 * Every field inside a group is written with seqcount_add / seqcount_put
 * (release stores, plain moves on x86 and a store-release on arm64) and
 * read with seqcount_get (acquire loads): that orders them against the
 * count without fences, which ThreadSanitizer does not model. The
 * histograms of common/hist.c follow the same rule.
 */
struct seqcount {
	uint32_t	seq;	/* odd: the writer is inside its group */
	uint32_t	hold;	/* a reader waits for a quiet copy */
};

/* The writer enters its group (waits while a reader holds it). */
static inline void
seqcount_write_begin(struct seqcount *s)
{
	uint32_t v;

	while (__atomic_load_n(&s->hold, __ATOMIC_ACQUIRE) != 0)
		sched_yield();
	v = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);
	__atomic_store_n(&s->seq, v + 1, __ATOMIC_RELAXED);
}

/* The writer leaves its group: everything it wrote is published. */
static inline void
seqcount_write_end(struct seqcount *s)
{
	uint32_t v = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);

	__atomic_store_n(&s->seq, v + 1, __ATOMIC_RELEASE);
}

/* Single-writer add to a field of the group. */
static inline void
seqcount_add(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + v,
	    __ATOMIC_RELEASE);
}

/* Single-writer store to a field of the group. */
static inline void
seqcount_put(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* A reader's load of a field of the group. */
static inline uint64_t
seqcount_get(const uint64_t *p)
{
	return (__atomic_load_n(p, __ATOMIC_ACQUIRE));
}

/*
 * A reader starts a copy: returns the count to hand to seqcount_read_retry.
 * `tries` counts the copies taken so far (0 on the first call); from the
 * second copy on, the writer is held.
 */
static inline uint32_t
seqcount_read_begin(struct seqcount *s, unsigned int tries)
{
	uint32_t v;

	if (tries == 1)
		__atomic_store_n(&s->hold, 1, __ATOMIC_RELEASE);
	while (((v = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE)) & 1) != 0)
		sched_yield();
	return (v);
}

/* 1: the copy may be torn, take it again; 0: it is whole (the hold, if
 * any, is released). */
static inline int
seqcount_read_retry(struct seqcount *s, uint32_t begin, unsigned int tries)
{
	if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) != begin)
		return (1);
	if (tries > 0)
		__atomic_store_n(&s->hold, 0, __ATOMIC_RELEASE);
	return (0);
}

#endif /* COMMON_SEQCOUNT_H */
