/* SPDX-License-Identifier: MIT */
/*
 * A raw run's errors and its queues of lines (werr.h).
 */
#include "werr.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>

#include "fswork.h"
#include "mtime.h"
#include "pace.h"
#include "work.h"

/*
 * data_errors=remove_device: the sd's threads stop using it (once), the
 * others go on. When it was the last sd of this slave, the rd goes on
 * without I/O to its end, as vdbench's, whose end of rd then says the
 * error count and terminates (before, vdbc stopped at once with words of
 * its own: re-audit of issue 26, D6).
 */
static void
remove_sd(struct work *w, struct sdw *s)
{
	int expected = 0;
	char note[800], tod[16];

	if (!__atomic_compare_exchange_n(&s->removed, &expected, 1, 0,
	    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;			/* already out */
	/* vdbench's words (IO_task.java:200), on the console and in
	 * errorlog.html, before the error's own line */
	snprintf(note, sizeof(note), "%c%s 'data_errors=remove_device' "
	    "requested for sd=%s No longer issuing i/o against this SD",
	    WORK_DETAIL_MARK, mtime_tod(mtime_wall_ns(), tod), s->name);
	pthread_mutex_lock(&w->err_mu);
	strlist_add(&w->err_queue, note);
	pthread_mutex_unlock(&w->err_mu);
}

/*
 * An I/O error: queue its text for the master (off the hot path: errors
 * are rare, so a mutex is fine) and stop the run once data_errors= of
 * them have happened (vdbench's rule).
 */
void
werr_io(struct work *w, struct sdw *s, int dir, uint64_t off, uint64_t len,
    int err)
{
	char text[800], tod[16], eno[300];
	const char *name = err ? strerrorname_np(err) : NULL;

	/* vdbench's Errno.xlate_errno: "ENOSPC: 'No space left on device'" */
	if (err == 0)
		snprintf(eno, sizeof(eno), "short transfer (end of file)");
	else if (name == NULL)
		snprintf(eno, sizeof(eno), "ErrnoLinux: Unknown Linux errno "
		    "value number '%d'. Try to find errno=%d in 'errno.h'",
		    err, err);
	else
		snprintf(eno, sizeof(eno), "%s: '%s'", name, err == ENOENT ?
		    "No such file or directory. Seek error? File not open "
		    "for output? 512 vs 4096 byte device?" : strerror(err));
	/* vdbench's line (IO_task.java:242), which its DvPost parses */
	snprintf(text, sizeof(text), "%s op: %-6s lun: %-30s lba: %12llu "
	    "0x%08llX xfer: %8llu errno: %s ", mtime_tod(mtime_wall_ns(), tod),
	    dir ? "write" : "read", s->lun, (unsigned long long)off,
	    (unsigned long long)off, (unsigned long long)len, eno);
	werr_io_text(w, s, text);
}

/* An I/O error (io_error) by its text. */
void
werr_io_text(struct work *w, struct sdw *s, const char *text)
{
	uint64_t n = __atomic_add_fetch(&w->nerrors, 1, __ATOMIC_ACQ_REL);
	int expected = 0;

	if (w->remove_device && n < w->max_errors)
		remove_sd(w, s);	/* its line first, as vdbench's */
	pthread_mutex_lock(&w->err_mu);
	if (w->err_queue.n < 100)
		strlist_add(&w->err_queue, text);
	pthread_mutex_unlock(&w->err_mu);
	if (n < w->max_errors)
		return;
	/* claim (1), write the text, then publish it (2): the main thread
	 * reads the text only once it sees 2, so never half of it */
	if (__atomic_compare_exchange_n(&w->has_error, &expected, 1, 0,
	    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		/* vdbench's words, printed as the master's (the master
		 * says the same when its count gets there first) */
		snprintf(w->error, sizeof(w->error), "%c'data_errors=%llu' "
		    "requested. Abort rd=%s after last error.",
		    WORK_PLAIN_ERROR, (unsigned long long)w->max_errors,
		    w->run);
		__atomic_store_n(&w->has_error, 2, __ATOMIC_RELEASE);
		/* wake the slave's loop: it sends the ERROR now */
		if (w->wake_fd >= 0)
			(void)eventfd_write(w->wake_fd, 1);
	}
	pace_stop(w);
}

/* The run stops with text (the first one wins; work_error). */
void
werr_stop(struct work *w, const char *text)
{
	int expected = 0;

	if (__atomic_compare_exchange_n(&w->has_error, &expected, 1, 0,
	    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		snprintf(w->error, sizeof(w->error), "%s", text);
		__atomic_store_n(&w->has_error, 2, __ATOMIC_RELEASE);
		if (w->wake_fd >= 0)
			(void)eventfd_write(w->wake_fd, 1);
	}
	pace_stop(w);
}

/* Lines for the slave's own log only (the caller frees the list). */
void
work_take_own_log(struct work *w, struct strlist *out)
{
	memset(out, 0, sizeof(*out));
	if (w->fs == NULL) {
		*out = w->own_log;
		memset(&w->own_log, 0, sizeof(w->own_log));
	} else
		fswork_take_own_log(w->fs, out);
}

/* Take the queued error texts (the caller frees the list). */
void
work_take_errors(struct work *w, struct strlist *out)
{
	if (w->fs != NULL) {
		fswork_take_errors(w->fs, out);	/* -v on fsds */
		return;
	}
	pthread_mutex_lock(&w->err_mu);
	*out = w->err_queue;
	memset(&w->err_queue, 0, sizeof(w->err_queue));
	pthread_mutex_unlock(&w->err_mu);
}

/* Progress lines of a file-system run. */
void
work_take_notes(struct work *w, struct strlist *out)
{
	memset(out, 0, sizeof(*out));
	if (w->fs != NULL) {
		fswork_take_notes(w->fs, out);
		return;
	}
	pthread_mutex_lock(&w->err_mu);
	*out = w->note_queue;
	memset(&w->note_queue, 0, sizeof(w->note_queue));
	pthread_mutex_unlock(&w->err_mu);
}

const char *
work_error(const struct work *w)
{
	if (w->fs != NULL)
		return (fswork_error(w->fs));
	return (__atomic_load_n(&w->has_error, __ATOMIC_ACQUIRE) == 2 ?
	    w->error : NULL);
}
