/* SPDX-License-Identifier: MIT */
#ifndef MASTER_DVEND_H
#define MASTER_DVEND_H

/*
 * What the master says of a slave's data validation lines and of its end
 * (vdbench's Reporter.reportEndOfRun, SlaveJvm's messages and aborts;
 * reference validation/ v1, v2a-v2d, v7b): where each line goes (console,
 * errorlog.html), the master's error count before the slave totals, the
 * "Message from slave" form and the slave abort box.
 */
struct master;
struct mslave;

/* A LOG line of a slave by its level: 1 when it is one of these (its
 * "detail", "error", "errorlog", "dv_total" or "message"), 0 else. */
int	dvend_log(struct master *, struct mslave *, const char *level,
	    const char *text);
/* A slave's ERROR of kind "plain" or "abort" (slave/work.h): 1 when it
 * was one of these and the run is stopping, 0 else. */
int	dvend_error(struct master *, struct mslave *, const char *kind,
	    const char *text);

/* The master's error count of the rd between '*' lines, on the console
 * and in errorlog.html, once per rd (Reporter.java:412-422). */
void	dvend_count(struct master *);
/* The end of an rd: after I/O or data validation errors, below the
 * data_errors= limit too, vdbench ends the execution there with its
 * count and "Vdbench terminating due to Data Validation or I/O errors"
 * (rc 157, no later rd): 1 when it does, 0 else. */
int	dvend_end_of_rd(struct master *);

#endif /* MASTER_DVEND_H */
