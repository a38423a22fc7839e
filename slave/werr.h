/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_WERR_H
#define SLAVE_WERR_H

/*
 * A raw run's errors: I/O errors counted against data_errors= (the
 * run's stop, or remove_device's sd out of the run), the run's one stop
 * text (work_error, work.h), and the queues of lines for the slave's
 * loop (errors, notes, its own log: work_take_*, work.h), all under
 * work->err_mu; the loop's eventfd is written when the run must stop.
 * Safe from any thread.
 */
#include <stdint.h>

#include "work_int.h"

/* An I/O error of sd s: its text, counted against data_errors=. err 0:
 * a short transfer. */
void	werr_io(struct work *w, struct sdw *s, int dir, uint64_t off,
	    uint64_t len, int err);
/* The same, with the text made by the caller. */
void	werr_io_text(struct work *w, struct sdw *s, const char *text);
/* The run stops with text (the first one wins). */
void	werr_stop(struct work *w, const char *text);

#endif /* SLAVE_WERR_H */
