/* SPDX-License-Identifier: MIT */
#ifndef MASTER_PARMFILE_H
#define MASTER_PARMFILE_H

#include <stdio.h>

#include "errmsg.h"
#include "lexer.h"
#include "model.h"

/*
 * The section parsers of the parmfile language (PARMFILE.md 2.7, 2.9, 4-10):
 * the flat keyword stream is read in vdbench's section order, keywords are
 * matched by prefix against each section's normative table (first match
 * wins), and values are checked and stored into the model. Errors name
 * file:line:column and carry vdbench's message text.
 */
struct parm_opts {
	int		 nfiles;
	char *const	*files;
	struct subvars	 vars;		/* name=value from the command line */
	const char	*extras;	/* "+ ..." RD extras, or NULL */
	long		 elapsed_s;	/* -e, or -1 */
	long		 interval_s;	/* -i, or -1 */
	long		 warmup_s;	/* -w, or -1 */
	int		 force_format;	/* -c 'c', -co 'o', -cy 'y', -cn 'n'; 0 */
	/* parmscan.html: every keyword=value as scanned, or NULL. */
	FILE		*scan;
	/* Does a host's system= resolve? NULL: do not check (tests). */
	int		(*host_exists)(const char *system);
};

/*
 * Read, tokenize and parse. On success *out is the model and notes holds
 * the console lines vdbench would print along the way (warnings, "Adding
 * ... to each one-line RD parameter."). -1 with e filled on the first error.
 */
int	parmfile_load(const struct parm_opts *, struct model **out,
	    struct strlist *notes, struct errmsg *e);
/* The same on an in-memory parmfile (tests, fuzzers). */
int	parmfile_load_buffer(const char *name, const char *text,
	    const struct parm_opts *, struct model **out,
	    struct strlist *notes, struct errmsg *e);
/* Parse items already tokenized into a model (the last step of both). */
int	parmfile_parse_items(const struct pitems *, const struct parm_opts *,
	    struct model **out, struct strlist *notes, struct errmsg *e);

/*
 * What a keyword of the section tables does: typed into the model; kept
 * untyped in the entry's bag (read by name elsewhere); accepted for
 * planning, a run refuses it (unbuilt); accepted with a console warning
 * because vdbc has no behaviour for it; or refused with vdbench's text.
 */
enum parm_kw_kind {
	PARM_KW_TYPED,
	PARM_KW_BAG,
	PARM_KW_UNBUILT,
	PARM_KW_NOEFFECT,
	PARM_KW_REJECT,
};
/* Call fn for every keyword of every section, in table order. */
void	parmfile_keywords(void (*fn)(void *arg, const char *section,
	    const char *kw, enum parm_kw_kind kind), void *arg);

#endif /* MASTER_PARMFILE_H */
