/* Helpers shared by the parser tests: parse a text, plan it. */
#ifndef TESTS_PARMTEST_H
#define TESTS_PARMTEST_H

#include <string.h>

#include "parmfile.h"
#include "plan.h"

/* Options as the command line gives them when it gives nothing. */
static inline void
pt_opts(struct parm_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->elapsed_s = o->interval_s = o->warmup_s = -1;
}

/* Parse text; *m is NULL and e filled on failure. */
static inline int
pt_parse(const char *text, struct parm_opts *o, struct model **m,
    struct errmsg *e)
{
	struct strlist notes = { 0, NULL, 0 };
	int rc;

	*m = NULL;
	errmsg_clear(e);
	rc = parmfile_load_buffer("t.parm", text, o, m, &notes, e);
	strlist_clear(&notes);
	return (rc);
}

/* Parse with default options, expecting failure; the message. */
static inline const char *
pt_error(const char *text, struct errmsg *e)
{
	struct parm_opts o;
	struct model *m;

	pt_opts(&o);
	if (pt_parse(text, &o, &m, e) == 0) {
		model_free(m);
		return ("(parsed without error)");
	}
	return (e->text);
}

#endif
