/* SPDX-License-Identifier: MIT */
#ifndef COMMON_ERRMSG_H
#define COMMON_ERRMSG_H

/*
 * A caller-owned error, filled by leaf code that never logs or exits
 * (modelled on jansson's json_error_t). The location is optional: file is
 * empty and line is 0 when the error has no place in a parmfile.
 */
struct errmsg {
	char	text[1024];
	char	file[512];
	int	line;		/* 1-based, 0 = none */
	int	col;		/* 1-based, 0 = none */
	char	source[600];	/* the offending line, "" = none */
	int	caret;		/* 0-based offset of the column in source */
};

void	errmsg_clear(struct errmsg *);
void	errmsg_set(struct errmsg *, const char *file, int line, int col,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* "file:line:col: text", or just "text" without a location. */
const char *errmsg_str(const struct errmsg *, char *buf, unsigned long len);

#endif /* COMMON_ERRMSG_H */
