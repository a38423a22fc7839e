/* SPDX-License-Identifier: MIT */
/*
 * A slave's data validation lines on the master (dvend.h), as vdbench
 * places them: a report line is "<slave>: <slave tod> text" on the
 * console and in errorlog.html; the map lines go to errorlog.html only;
 * before the first end-of-rd totals line of an rd with errors the master
 * prints its own count between '*' lines (Reporter.java:412-425); a
 * message from a slave and its abort have vdbench's console form
 * (v7b).
 */
#include "dvend.h"

#include <stdio.h>
#include <string.h>

#include "console.h"
#include "dataerr.h"
#include "run_int.h"

/* An error log line of a slave: "<slave>: text". */
static void
errlog(struct master *m, const struct mslave *s, const char *text)
{
	char line[8192];

	snprintf(line, sizeof(line), "%s: %s", s->name, text);
	report_error(m->rep, line);
}

/* The master's line on the console and in errorlog.html. */
static void
both(struct master *m, const char *text)
{
	console_line("%s", text);
	report_error(m->rep, text);
}

void
dvend_count(struct master *m)
{
	char count[80];

	if (m->derr.count == 0 || m->derr_said)
		return;
	m->derr_said = 1;
	snprintf(count, sizeof(count), "Total Data Validation or I/O error "
	    "count: %llu", (unsigned long long)m->derr.count);
	both(m, "*");
	both(m, count);
	both(m, "*");
}

int
dvend_end_of_rd(struct master *m)
{
	if (m->derr.count == 0 || m->aborting)
		return (0);
	dvend_count(m);
	m->cb->fail(m, "Vdbench terminating due to Data Validation or I/O "
	    "errors. See errorlog.html.");
	return (1);
}

int
dvend_log(struct master *m, struct mslave *s, const char *level,
    const char *text)
{
	if (strcmp(level, "errorlog") == 0) {
		errlog(m, s, text);
		return (1);
	}
	if (strcmp(level, "detail") == 0 || strcmp(level, "error") == 0) {
		console_line("%s: %s", s->name, text);
		errlog(m, s, text);
		if (strcmp(level, "error") == 0)
			m->cb->data_error(m);	/* data_errors= */
		return (1);
	}
	if (strcmp(level, "dv_total") == 0) {
		/* vdbench's slave is gone once data_errors= stopped the
		 * run: no totals then (v2d) */
		if (m->aborting)
			return (1);
		dvend_count(m);
		console_line("%s: %s", s->name, text);
		errlog(m, s, text);
		return (1);
	}
	if (strcmp(level, "message") == 0) {
		/* SlaveJvm.sendMessageToConsole: console and logfile.html */
		if (!s->msg_said) {
			s->msg_said = 1;
			console_line("%s", "");
			console_line("Message from slave %s: ", s->name);
		}
		console_line("%s", text);
		return (1);
	}
	return (0);
}

int
dvend_error(struct master *m, struct mslave *s, const char *kind,
    const char *text)
{
	char line[1200], stars[1200], last[1200];
	size_t n;

	if (strcmp(kind, "plain") == 0) {
		m->cb->fail(m, text);
		return (1);
	}
	if (strcmp(kind, "abort") != 0)
		return (0);
	/* vdbench's slave abort (common.failure on a slave, v7b): its box,
	 * then the master's lines on the slave's end */
	snprintf(line, sizeof(line), "* Slave %s aborting: %s *", s->name,
	    text);
	n = strlen(line);
	memset(stars, '*', n);
	stars[n] = '\0';
	console_line("*");
	console_line("%s", stars);
	console_line("%s", line);
	console_line("%s", stars);
	console_line("*");
	console_line("%s", "");
	console_line("Slave %s prematurely terminated. ", s->name);
	console_line("%s", "");
	console_line("Slave aborted. Abort message received: ");
	console_line("%s", text);
	console_line("%s", "");
	console_line("Look at file %s.stdout.html for more information.",
	    s->name);
	snprintf(last, sizeof(last), "Slave %s prematurely terminated. ",
	    s->name);
	m->cb->fail(m, last);
	return (1);
}
