/* SPDX-License-Identifier: MIT */
#ifndef MASTER_LEXER_H
#define MASTER_LEXER_H

#include <stdio.h>

#include "errmsg.h"
#include "model.h"

/*
 * The lexical layer of a parmfile (PARMFILE.md 2.1-2.5, 2.8): physical
 * lines with command-line substitution, comments, eof and include= become
 * logical lines; logical lines become a flat stream of keyword=value items
 * with typed value elements (numbers with suffixes, lists, ranges).
 */

/* A logical line, with where it came from. */
struct pline {
	char	*text;		/* trimmed, after substitution */
	char	*file;
	int	 lineno;	/* 1-based physical line */
	int	 col0;		/* column of text[0] in the physical line */
};

struct plines {
	int		 n;
	struct pline	*v;
};

/* A command-line substitution variable: name=value. */
struct subvar {
	char	*name;
	char	*value;
	int	 used;
};

struct subvars {
	int		 n;
	struct subvar	*v;
};

/* One keyword=value item of the flat stream. */
struct pitem {
	char		*kw;		/* lower-cased, as written */
	char		*text;		/* the item as written */
	char		*value;		/* the value as written */
	int		 paren;		/* the value had parentheses */
	struct pvals	 vals;
	const char	*file;		/* borrowed from the pline */
	int		 lineno;
	int		 col;
	int		 line_idx;	/* index of its logical line */
	const char	*src;		/* its logical line, borrowed */
	int		 src_off;	/* where the item starts in src */
};

struct pitems {
	int		 n;
	struct pitem	*v;
};

/* The most a parmfile (or an include), and all of them together, may
 * hold: 16 MiB. */
#define LEXER_MAX_FILE	(16 << 20)
/*
 * The most keyword=value items of all parmfiles together: real ones have
 * thousands (count= makes many sds from one line); 16 MiB of ",th=1"
 * would be 3 million at some 300 bytes each.
 */
#define LEXER_MAX_ITEMS	1000000

/*
 * Open a parmfile for reading; NULL with e filled when it cannot be
 * opened, is neither a regular file nor a pipe (/dev/zero, a directory)
 * or is over 16 MiB. A pipe (-f /dev/stdin) is read up to 16 MiB, however
 * long its lines (a line is read in bounded pieces, not by getline()); an
 * include= must be a regular file.
 */
FILE	*lexer_open(const char *path, struct errmsg *);
/*
 * Read files in order into logical lines; -1 with e filled. Each file and
 * include must be a regular file (or, -f, a pipe) without NUL bytes, of at
 * most 16 MiB all together.
 */
int	lexer_read_files(struct plines *, int nfiles, char *const files[],
	    struct subvars *, struct errmsg *);
/* Read one buffer as if it were a file named name (tests, fuzzers). */
int	lexer_read_buffer(struct plines *, const char *name, const char *buf,
	    struct subvars *, struct errmsg *);
/* Append ",extras" to every one-line rd (PARMFILE.md 3.3); count them. */
int	lexer_add_extras(struct plines *, const char *extras, int *nrds,
	    struct errmsg *);
/* Split logical lines into items; -1 with e filled. */
int	lexer_tokenize(struct pitems *, const struct plines *,
	    struct errmsg *);

/* One item from "keyword=value" text found at file:lineno:col. The text
 * is kept in keep, which must outlive the items. */
int	lexer_item(struct pitems *, struct plines *keep, const char *file,
	    int lineno, int col, const char *text, struct errmsg *);
/*
 * Replace $name and !name in *line (reallocated) by the values of sv, as
 * the lexer does on every line: for the resolved copy in parmfile.html.
 */
void	lexer_subst(char **line, const struct subvars *);
void	plines_free(struct plines *);
/* Add the item's line and column to an error (for a caret under it). */
void	lexer_point(struct errmsg *, const struct pitem *);
/* Append a copy of a logical line. */
void	plines_add_copy(struct plines *, const struct pline *);
void	pitems_free(struct pitems *);

#endif /* MASTER_LEXER_H */
