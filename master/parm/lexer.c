/* SPDX-License-Identifier: MIT */
/*
 * Lexical layer of the parmfile language. vdbench's rules are odd but
 * parmfiles depend on them: everything after the first unquoted blank is a
 * comment, any line starting with '/' is a comment, '-' inside parentheses
 * is a range, "m" means minutes only for time keywords. Each rule below
 * cites PARMFILE.md.
 */
#include "lexer.h"

#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "units.h"
#include "xmalloc.h"

#define LEXER_MAX_RANGE_VALUES	100000
#define LEXER_MAX_NUMBER	9.0e18

/*
 * Room for element n of an array that only grows by appending: it doubles
 * when n reaches a power of two (the capacity follows from n, no field),
 * so a million appends copy it some 20 times, not a million.
 */
static void *
grow(void *v, int n, size_t size)
{
	if (n == 0 || (n & (n - 1)) == 0)
		v = xreallocarray(v, n == 0 ? 1 : (size_t)n * 2, size);
	return (v);
}

/* Append a logical line. */
static void
plines_add(struct plines *pl, const char *text, const char *file, int lineno,
    int col0)
{
	struct pline *p;

	pl->v = grow(pl->v, pl->n, sizeof(*pl->v));
	p = &pl->v[pl->n++];
	p->text = xstrdup(text);
	p->file = xstrdup(file);
	p->lineno = lineno;
	p->col0 = col0;
}

/* Append a copy of a line. */
void
plines_add_copy(struct plines *pl, const struct pline *l)
{
	plines_add(pl, l->text, l->file, l->lineno, l->col0);
}

/* Free all logical lines. */
void
plines_free(struct plines *pl)
{
	int i;

	for (i = 0; i < pl->n; i++) {
		free(pl->v[i].text);
		free(pl->v[i].file);
	}
	free(pl->v);
	memset(pl, 0, sizeof(*pl));
}

/* Free all items. */
void
pitems_free(struct pitems *pi)
{
	int i;

	for (i = 0; i < pi->n; i++) {
		free(pi->v[i].kw);
		free(pi->v[i].text);
		free(pi->v[i].value);
		pvals_clear(&pi->v[i].vals);
	}
	free(pi->v);
	memset(pi, 0, sizeof(*pi));
}

/* Replace every occurrence of from by to in *line (reallocating). */
static int
replace_all(char **line, const char *from, const char *to)
{
	size_t flen = strlen(from), tlen = strlen(to);
	char *p, *out, *s = *line;
	int count = 0;
	size_t n;

	for (p = strstr(s, from); p != NULL; p = strstr(p + flen, from))
		count++;
	if (count == 0)
		return (0);
	out = xmalloc(strlen(s) + (size_t)count * (tlen + 1) + 1);
	out[0] = '\0';
	n = 0;
	while ((p = strstr(s, from)) != NULL) {
		memcpy(out + n, s, (size_t)(p - s));
		n += (size_t)(p - s);
		memcpy(out + n, to, tlen);
		n += tlen;
		s = p + flen;
	}
	strcpy(out + n, s);
	free(*line);
	*line = out;
	return (count);
}

/* Order variables longest name first, so $lun2 is not eaten by $lun. */
static int
subvar_cmp(const void *a, const void *b)
{
	const struct subvar *x = a, *y = b;
	size_t lx = strlen(x->name), ly = strlen(y->name);

	if (lx != ly)
		return (lx > ly ? -1 : 1);
	return (strcmp(x->name, y->name));
}

/* Substitute $name and !name (PARMFILE.md 2.5) and check what is left. */
static int
substitute(char **line, struct subvars *sv, const char *file, int lineno,
    struct errmsg *e)
{
	char from[256];
	int i;

	for (i = 0; i < sv->n; i++) {
		snprintf(from, sizeof(from), "$%s", sv->v[i].name);
		if (replace_all(line, from, sv->v[i].value) > 0)
			sv->v[i].used = 1;
		from[0] = '!';
		if (replace_all(line, from, sv->v[i].value) > 0)
			sv->v[i].used = 1;
	}
	if ((strstr(*line, "=$") != NULL || strstr(*line, "=!") != NULL) &&
	    strstr(*line, "$host") == NULL && strstr(*line, "!host") == NULL) {
		char *t = *line;
		size_t len;

		while (isspace((unsigned char)*t))
			t++;
		len = strlen(t);
		while (len > 0 && isspace((unsigned char)t[len - 1]))
			len--;
		errmsg_set(e, file, lineno, 0, "Unknown variable substitution "
		    "request in parameter file: %.*s", (int)len, t);
		return (-1);
	}
	return (0);
}

void
lexer_subst(char **line, const struct subvars *sv)
{
	char from[256];
	int i;

	for (i = 0; sv != NULL && i < sv->n; i++) {
		snprintf(from, sizeof(from), "$%s", sv->v[i].name);
		replace_all(line, from, sv->v[i].value);
		from[0] = '!';
		replace_all(line, from, sv->v[i].value);
	}
}

static int read_stream(struct plines *, const char *name, FILE *,
    struct subvars *, int depth, size_t *all, struct errmsg *);

/* What a file that is not a regular file is, for the message. */
static const char *
file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return ("a directory");
	if (S_ISFIFO(mode))
		return ("a FIFO");
	if (S_ISCHR(mode))
		return ("a character device");
	if (S_ISBLK(mode))
		return ("a block device");
	if (S_ISSOCK(mode))
		return ("a socket");
	return ("not a regular file");
}

/*
 * Open a parmfile: a regular file of at most LEXER_MAX_FILE bytes, or
 * with pipe_ok (-f, not include=) also a pipe such as /dev/stdin, whose
 * reading read_stream bounds. NULL with errno when it cannot be opened
 * (e untouched), or with errno 0 and e filled (at file:line, the
 * include= line) when it is refused. The open never waits for a FIFO's
 * writer, and a FIFO without one reads as empty: nothing hangs.
 */
static FILE *
open_bounded(const char *path, int pipe_ok, const char *file, int line,
    int col, struct errmsg *e)
{
	struct stat st;
	FILE *f;
	int fd;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return (NULL);
	if (fstat(fd, &st) != 0 || (!S_ISREG(st.st_mode) &&
	    !(pipe_ok && S_ISFIFO(st.st_mode)))) {
		errmsg_set(e, file, line, col, "Parameter file %s is %s; a "
		    "parameter file must be a regular file%s", path,
		    file_kind(st.st_mode), pipe_ok ? " (or a pipe)" : "");
		close(fd);
		errno = 0;
		return (NULL);
	}
	if (st.st_size > LEXER_MAX_FILE) {
		errmsg_set(e, file, line, col, "Parameter file %s has %lld "
		    "bytes; at most %d MiB are read", path,
		    (long long)st.st_size, LEXER_MAX_FILE >> 20);
		close(fd);
		errno = 0;
		return (NULL);
	}
	if (fcntl(fd, F_SETFL, 0) != 0 || (f = fdopen(fd, "r")) == NULL) {
		int err = errno;

		close(fd);
		errno = err;
		return (NULL);
	}
	return (f);
}

FILE *
lexer_open(const char *path, struct errmsg *e)
{
	FILE *f = open_bounded(path, 1, NULL, 0, 0, e);

	if (f == NULL && errno != 0)
		errmsg_set(e, NULL, 0, 0, "Requested parameter file does not "
		    "exist: %s (%s)", path, strerror(errno));
	return (f);
}

/*
 * Find an include file as vdbench does (PARMFILE.md 2.4); NULL with errno
 * 0 and e filled when what is there is refused (open_bounded).
 */
static FILE *
open_include(const char *name, const char *parent, char *path, size_t len,
    int lineno, struct errmsg *e)
{
	const char *slash;
	FILE *f;

	if (strchr(name, '/') == NULL && (slash = strrchr(parent, '/'))) {
		snprintf(path, len, "%.*s/%s", (int)(slash - parent), parent,
		    name);
		if ((f = open_bounded(path, 0, parent, lineno, 1, e)) !=
		    NULL || errno == 0)
			return (f);
	}
	snprintf(path, len, "%s", name);
	return (open_bounded(path, 0, parent, lineno, 1, e));
}

/* Handle an include= line. */
static int
do_include(struct plines *pl, const char *line, const char *file, int lineno,
    struct subvars *sv, int depth, size_t *all, struct errmsg *e)
{
	const char *name = line + strlen("include=");
	char path[4096];
	FILE *f;
	int rc;

	if (depth > 0) {
		errmsg_set(e, file, lineno, 1, "Using the 'include=' parameter "
		    "recusrively is not allowed: %s", line);
		return (-1);
	}
	if (strchr(name, '=') != NULL) {
		errmsg_set(e, file, lineno, 1, "'include=' parameter must have "
		    "only one subparameter");
		return (-1);
	}
	if ((f = open_include(name, file, path, sizeof(path), lineno,
	    e)) == NULL) {
		if (errno != 0)
			errmsg_set(e, file, lineno, 1, "include=%s file not "
			    "found", name);
		return (-1);
	}
	rc = read_stream(pl, path, f, sv, depth + 1, all, e);
	fclose(f);
	return (rc);
}

/*
 * Read one physical line, its '\n' included, as getline() does, but at
 * most max bytes: a line without a newline (a pipe of /dev/zero) stops
 * there instead of growing without end. The length read, with *buf NUL
 * terminated after it; -1 at end of input with nothing read.
 */
static ssize_t
read_line(char **buf, size_t *cap, size_t max, FILE *f)
{
	size_t n = 0;
	int c;

	flockfile(f);
	while (n < max && (c = getc_unlocked(f)) != EOF) {
		if (n + 2 > *cap) {
			*cap = *cap < 128 ? 128 : *cap * 2;
			if (*cap > max + 2)
				*cap = max + 2;
			*buf = xreallocarray(*buf, *cap, 1);
		}
		(*buf)[n++] = (char)c;
		if (c == '\n')
			break;
	}
	funlockfile(f);
	if (n == 0)
		return (-1);
	(*buf)[n] = '\0';
	return ((ssize_t)n);
}

/*
 * Read one file's physical lines into logical lines; *all counts the
 * bytes of every file and include read so far, which together stay
 * within LEXER_MAX_FILE too (a hundred include= lines of a 16 MiB file
 * would keep 1.6 GB of lines).
 */
static int
read_stream(struct plines *pl, const char *name, FILE *f,
    struct subvars *sv, int depth, size_t *all, struct errmsg *e)
{
	char *buf = NULL, *line = NULL, *t;
	size_t cap = 0, len, total = 0;
	int lineno = 0, rc = -1;
	ssize_t n;

	/* one byte past the bound is enough to know the input goes on */
	while ((n = read_line(&buf, &cap, LEXER_MAX_FILE + 1 - *all, f)) !=
	    -1) {
		lineno++;
		/* a file that grows while it is read, or a pipe, stops at the
		 * bound too, however long its lines */
		total += (size_t)n;
		if ((*all += (size_t)n) > LEXER_MAX_FILE) {
			if (total > LEXER_MAX_FILE)
				errmsg_set(e, name, lineno, 0, "Parameter file "
				    "%s goes on past %d MiB; at most that is "
				    "read", name, LEXER_MAX_FILE >> 20);
			else
				errmsg_set(e, name, lineno, 0, "Parameter files "
				    "and includes go on past %d MiB in all "
				    "here; at most that is read",
				    LEXER_MAX_FILE >> 20);
			goto out;
		}
		if ((t = memchr(buf, '\0', (size_t)n)) != NULL) {
			errmsg_set(e, name, lineno, (int)(t - buf) + 1, "A NUL "
			    "byte in a parameter file; parameter files are "
			    "text");
			goto out;
		}
		free(line);
		line = xstrdup(buf);
		len = strlen(line);
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r'))
			line[--len] = '\0';
		if (substitute(&line, sv, name, lineno, e) != 0)
			goto out;
		for (t = line; *t == ' ' || *t == '\t' || *t == '\r'; t++)
			;
		len = strlen(t);
		while (len > 0 && isspace((unsigned char)t[len - 1]))
			t[--len] = '\0';
		if (strncmp(t, "eof", 3) == 0)
			break;
		if (*t == '\0' || *t == '*' || *t == '#' || *t == '/')
			continue;
		if (strncmp(t, "include=", 8) == 0) {
			if (do_include(pl, t, name, lineno, sv, depth, all,
			    e) != 0)
				goto out;
			continue;
		}
		plines_add(pl, t, name, lineno, (int)(t - line));
	}
	rc = 0;
out:
	free(line);
	free(buf);
	return (rc);
}

/* Sort the variables once, before any line is read. */
static void
sort_subvars(struct subvars *sv)
{
	if (sv != NULL && sv->n > 1)
		qsort(sv->v, (size_t)sv->n, sizeof(*sv->v), subvar_cmp);
}

/* Read parmfiles in order as one stream. */
int
lexer_read_files(struct plines *pl, int nfiles, char *const files[],
    struct subvars *sv, struct errmsg *e)
{
	struct subvars none = { 0, NULL };
	size_t all = 0;
	FILE *f;
	int i;

	if (sv == NULL)
		sv = &none;
	sort_subvars(sv);
	for (i = 0; i < nfiles; i++) {
		if ((f = lexer_open(files[i], e)) == NULL)
			return (-1);
		if (read_stream(pl, files[i], f, sv, 0, &all, e) != 0) {
			fclose(f);
			return (-1);
		}
		fclose(f);
	}
	return (0);
}

/* Read a buffer as a parmfile. */
int
lexer_read_buffer(struct plines *pl, const char *name, const char *buf,
    struct subvars *sv, struct errmsg *e)
{
	struct subvars none = { 0, NULL };
	size_t all = 0;
	FILE *f;
	int rc;

	if (sv == NULL)
		sv = &none;
	sort_subvars(sv);
	if ((f = fmemopen((void *)buf, strlen(buf), "r")) == NULL) {
		errmsg_set(e, name, 0, 0, "cannot read buffer: %s",
		    strerror(errno));
		return (-1);
	}
	rc = read_stream(pl, name, f, sv, 0, &all, e);
	fclose(f);
	return (rc);
}

/* Length of a line up to its trailing comment (the first unquoted blank). */
static size_t
content_len(const char *s)
{
	int q = 0;
	size_t i;

	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] == '"')
			q = !q;
		else if (!q && (s[i] == ' ' || s[i] == '\t'))
			break;
	}
	return (i);
}

/* Append the + extras to each one-line rd. */
int
lexer_add_extras(struct plines *pl, const char *extras, int *nrds,
    struct errmsg *e)
{
	int i;

	*nrds = 0;
	if (extras == NULL || *extras == '\0')
		return (0);
	if (strchr(extras, ' ') != NULL || strchr(extras, '\t') != NULL) {
		errmsg_set(e, NULL, 0, 0, "Embedded blanks not acceptable: "
		    "'%s'", extras);
		return (-1);
	}
	for (i = 0; i < pl->n; i++) {
		char *t = pl->v[i].text, *n;
		size_t len;

		if (strncasecmp(t, "rd", 2) != 0)
			continue;
		len = content_len(t);
		if (len > 0 && t[len - 1] == ',')
			continue;
		/* A continued rd (next line goes on) is not a one-line rd. */
		if (i > 0) {
			const char *p = pl->v[i - 1].text;
			size_t pl_len = content_len(p);

			if (pl_len > 0 && p[pl_len - 1] == ',')
				continue;
		}
		xasprintf(&n, "%.*s,%s", (int)len, t, extras);
		free(pl->v[i].text);
		pl->v[i].text = n;
		(*nrds)++;
	}
	return (0);
}

/* Does written keyword kw name one of these (as a prefix either way)? */
static int
kw_in(const char *kw, const char *const *names)
{
	size_t len = strlen(kw);

	for (; *names != NULL; names++) {
		if (strncmp(kw, *names, strlen(*names)) == 0 ||
		    (len >= 2 && strncmp(*names, kw, len) == 0))
			return (1);
	}
	return (0);
}

/* Append one element. */
static void
pvals_add(struct pvals *p, int is_num, double num, const char *str)
{
	if (p->n >= p->cap) {
		p->cap = p->cap < 2 ? 2 : p->cap * 2;
		p->v = xreallocarray(p->v, (size_t)p->cap, sizeof(*p->v));
	}
	p->v[p->n].is_num = is_num;
	p->v[p->n].num = num;
	p->v[p->n].str = xstrdup(str);
	p->n++;
}

/* Split off an unquoted copy of a raw element; *quoted if it had quotes. */
static char *
unquote(const char *s, size_t len, int *quoted)
{
	char *out = xmalloc(len + 1);
	size_t i, n = 0;

	*quoted = 0;
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			*quoted = 1;
		else
			out[n++] = s[i];
	}
	out[n] = '\0';
	return (out);
}

/* Put the item's line and column into an error, for the caret. */
void
lexer_point(struct errmsg *e, const struct pitem *it)
{
	if (e == NULL || it == NULL || it->src == NULL)
		return;
	snprintf(e->source, sizeof(e->source), "%s", it->src);
	e->caret = it->src_off < (int)sizeof(e->source) ? it->src_off : 0;
}

/* Context for turning one value's elements into pvals. */
struct valctx {
	const struct pitem	*it;
	enum units_mode		 mode;
	int			 alpha_only;
	int			 no_range;
	int			 iorate_max;
	struct errmsg		*e;
};

/* Fail at the item. */
static int __attribute__((format(printf, 2, 3)))
item_error(struct valctx *c, const char *fmt, ...)
{
	char text[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	errmsg_set(c->e, c->it->file, c->it->lineno, c->it->col, "%s", text);
	lexer_point(c->e, c->it);
	return (-1);
}

/* Position of the trailing digit run of s (strlen if none). */
static size_t
digits_start(const char *s)
{
	size_t n = strlen(s);

	while (n > 0 && isdigit((unsigned char)s[n - 1]))
		n--;
	return (n);
}

/* Expand an alpha range "sd1-sd5" (PARMFILE.md 2.8). */
static int
alpha_range(struct valctx *c, struct pvals *p, const char *a, const char *b)
{
	size_t da = digits_start(a), db = digits_start(b);
	long lo, hi, i;
	char buf[512];

	if (da == strlen(a))
		return (item_error(c, "Parameter range value '%s' must be "
		    "alphanumeric, ending with a numeric value.", a));
	if (db == strlen(b))
		return (item_error(c, "Parameter range value '%s' must be "
		    "alphanumeric, ending with a numeric value.", b));
	if (da != db || strncmp(a, b, da) != 0) {
		snprintf(buf, sizeof(buf), "%s/%s", a, b);
		return (item_error(c, "Alpha portions of alphanumeric range "
		    "values must be equal: %s", buf));
	}
	lo = strtol(a + da, NULL, 10);
	hi = strtol(b + db, NULL, 10);
	if (lo >= hi) {
		snprintf(buf, sizeof(buf), "%s/%s", a, b);
		return (item_error(c, "Numeric portions of alphanumeric re "
		    "values must be incremental: %s", buf));
	}
	if (hi - lo > LEXER_MAX_RANGE_VALUES)
		return (item_error(c, "Range '%s-%s' has too many values",
		    a, b));
	pvals_add(p, 0, 0, a);
	for (i = lo + 1; i <= hi; i++) {
		snprintf(buf, sizeof(buf), "%.*s%ld", (int)da, a, i);
		pvals_add(p, 0, 0, buf);
	}
	return (0);
}

/* Text of a generated numeric value. */
static void
add_num(struct pvals *p, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.17g", v);
	pvals_add(p, 1, v, buf);
}

/* Expand a numeric range a-b with step s, or doubling/halving ("d"). */
static int
numeric_range(struct valctx *c, struct pvals *p, double a, double b,
    const char *step, const char *text)
{
	double s, v;
	int n = 0;

	if (step == NULL)
		return (item_error(c, "Range '%s' requires an increment, e.g. "
		    "(a-b,s) or (a-b,d)", text));
	if (strcasecmp(step, "d") == 0) {
		if (a <= 0 || b <= 0)
			return (item_error(c, "Range '%s' cannot double or "
			    "halve a value of zero or less", text));
		if (a <= b) {
			for (v = a; v <= b; v *= 2)
				add_num(p, v);
		} else {
			for (v = a; v >= b; v /= 2)
				add_num(p, v);
		}
		return (0);
	}
	if (units_parse(step, c->mode, &s) != 0 || s <= 0)
		return (item_error(c, "Range '%s' has an invalid increment: "
		    "%s", text, step));
	if (a > b)
		return (item_error(c, "Range '%s' must go from low to high "
		    "with an increment (use 'd' to halve)", text));
	for (v = a; v <= b + 1e-9; v += s) {
		if (++n > LEXER_MAX_RANGE_VALUES)
			return (item_error(c, "Range '%s' has too many values",
			    text));
		add_num(p, v);
	}
	return (0);
}

/*
 * Turn one element into one or more values. *consumed is set when a
 * numeric range took the next element as its step.
 */
static int
element(struct valctx *c, struct pvals *p, const char *el, int quoted,
    int in_paren, const char *next, int *consumed)
{
	const char *dash;
	double v;

	*consumed = 0;
	if (c->alpha_only) {
		pvals_add(p, 0, 0, el);
		return (0);
	}
	if (c->iorate_max && strcasecmp(el, "max") == 0) {
		pvals_add(p, 1, RD_IORATE_MAX, "max");
		return (0);
	}
	if (in_paren && !quoted && !c->no_range && el[0] != '\0' &&
	    (dash = strchr(el + 1, '-')) != NULL) {
		char *a = xstrndup(el, (size_t)(dash - el));
		const char *b = dash + 1;
		double da, db;
		int rc;

		if (units_parse(a, c->mode, &da) == 0 &&
		    units_parse(b, c->mode, &db) == 0) {
			if (fabs(da) > LEXER_MAX_NUMBER ||
			    fabs(db) > LEXER_MAX_NUMBER) {
				free(a);
				return (item_error(c, "Numeric value out of "
				    "range: %s", el));
			}
			rc = numeric_range(c, p, da, db, next, el);
			*consumed = next != NULL;
		} else
			rc = alpha_range(c, p, a, b);
		free(a);
		return (rc);
	}
	if (units_parse(el, c->mode, &v) == 0) {
		/* Every numeric value must fit a 64-bit count of bytes. */
		if (fabs(v) > LEXER_MAX_NUMBER)
			return (item_error(c, "Numeric value out of range: %s",
			    el));
		pvals_add(p, 1, v, el);
	}
	else
		pvals_add(p, 0, 0, el);
	return (0);
}

static const char *const mixed_ok[] = {
	"seekpct", "fileselect", "openflags", "startcmd", "start_cmd",
	"endcmd", "end_cmd", "misc", "dedup", NULL,
};
static const char *const plain_kws[] = { "hd", "host", "system", NULL };

/* Parse the value of an item into typed elements. */
static int
parse_value(struct pitem *it, struct errmsg *e)
{
	struct valctx c = { it, UNITS_SIZE, 0, 0, 0, e };
	const char *v = it->value, *s;
	char **els = NULL;
	int *q = NULL, nel = 0, i, depth, quote, consumed;
	size_t len = strlen(v);

	c.alpha_only = strcmp(it->kw, "replay") == 0 ||
	    strcmp(it->kw, "histogram") == 0 || strncmp(it->kw, "misc", 4) == 0;
	c.no_range = strcmp(it->kw, "host") == 0 || strcmp(it->kw, "hd") == 0 ||
	    strcmp(it->kw, "replay") == 0 || strncmp(it->kw, "misc", 4) == 0;
	c.iorate_max = strcmp(it->kw, "iorate") == 0;
	if (strcmp(it->kw, "histogram") == 0)
		c.mode = UNITS_PLAIN;
	else {
		for (i = 0; plain_kws[i] != NULL; i++) {
			if (strcmp(it->kw, plain_kws[i]) == 0)
				c.mode = UNITS_PLAIN;
		}
	}
	if (strncmp(it->kw, "el", 2) == 0 || strncmp(it->kw, "in", 2) == 0 ||
	    strncmp(it->kw, "pa", 2) == 0 || strncmp(it->kw, "wa", 2) == 0)
		c.mode = UNITS_TIME;

	if (v[0] == '(') {
		it->paren = 1;
		if (len < 2 || v[len - 1] != ')') {
			errmsg_set(e, it->file, it->lineno, it->col,
			    "Unmatched Parenthesis ");
			return (-1);
		}
		s = v + 1;
		len -= 2;
	} else
		s = v;
	/* Split on top-level commas. */
	for (;;) {
		size_t n = 0;

		depth = quote = 0;
		while (n < len && (s[n] != ',' || depth > 0 || quote)) {
			if (s[n] == '"')
				quote = !quote;
			else if (!quote && s[n] == '(')
				depth++;
			else if (!quote && s[n] == ')')
				depth--;
			n++;
		}
		els = xreallocarray(els, (size_t)nel + 1, sizeof(*els));
		q = xreallocarray(q, (size_t)nel + 1, sizeof(*q));
		els[nel] = unquote(s, n, &q[nel]);
		nel++;
		if (n >= len)
			break;
		s += n + 1;
		len -= n + 1;
	}
	for (i = 0; i < nel; i++) {
		if (element(&c, &it->vals, els[i], q[i], it->paren,
		    i + 1 < nel ? els[i + 1] : NULL, &consumed) != 0)
			goto fail;
		i += consumed;
	}
	/* A value may not mix alpha and numeric elements (2.8 item 5). */
	if (!kw_in(it->kw, mixed_ok)) {
		for (i = 1; i < it->vals.n; i++) {
			if (it->vals.v[i].is_num != it->vals.v[0].is_num) {
				errmsg_set(e, it->file, it->lineno, it->col,
				    "Mix of alpha and numeric values not "
				    "allowed: (%s) %s", it->kw,
				    it->vals.v[i].str);
				goto fail;
			}
		}
	}
	for (i = 0; i < nel; i++)
		free(els[i]);
	free(els);
	free(q);
	return (0);
fail:
	for (i = 0; i < nel; i++)
		free(els[i]);
	free(els);
	free(q);
	return (-1);
}

/* Make one item from text[0..len) of line l. */
static int
make_item(struct pitems *pi, const struct pline *l, int line_idx,
    const char *text, size_t len, struct errmsg *e)
{
	struct pitem *it;
	const char *eq = NULL;
	size_t i;
	int quote = 0;

	for (i = 0; i < len; i++) {
		if (text[i] == '"')
			quote = !quote;
		else if (!quote && text[i] == '=') {
			eq = text + i;
			break;
		}
	}
	pi->v = grow(pi->v, pi->n, sizeof(*pi->v));
	it = &pi->v[pi->n];
	memset(it, 0, sizeof(*it));
	it->file = l->file;
	it->lineno = l->lineno;
	it->col = l->col0 + (int)(text - l->text) + 1;
	it->line_idx = line_idx;
	it->src = l->text;
	it->src_off = (int)(text - l->text);
	it->text = xstrndup(text, len);
	if (eq == NULL) {
		errmsg_set(e, it->file, it->lineno, it->col,
		    "Expecting 'keyword=' in parameter: %s", it->text);
		free(it->text);
		return (-1);
	}
	if (eq - text < 2) {
		errmsg_set(e, it->file, it->lineno, it->col, "Keyword must "
		    "contain a minimum of 2 characters: %s", it->text);
		free(it->text);
		return (-1);
	}
	it->kw = xstrndup(text, (size_t)(eq - text));
	for (i = 0; it->kw[i] != '\0'; i++)
		it->kw[i] = (char)tolower((unsigned char)it->kw[i]);
	it->value = xstrndup(eq + 1, len - (size_t)(eq + 1 - text));
	pi->n++;
	return (parse_value(it, e));
}

/* One item from "keyword=value" text at a place (the YAML reader). */
int
lexer_item(struct pitems *pi, struct plines *keep, const char *file,
    int lineno, int col, const char *text, struct errmsg *e)
{
	const struct pline *l;

	/* The line is kept so that errors can point into it. */
	plines_add(keep, text, file, lineno, col - 1);
	l = &keep->v[keep->n - 1];
	return (make_item(pi, l, keep->n - 1, l->text, strlen(l->text), e));
}

/* Split every logical line into keyword=value items. */
int
lexer_tokenize(struct pitems *pi, const struct plines *pl, struct errmsg *e)
{
	int i;

	for (i = 0; i < pl->n; i++) {
		const struct pline *l = &pl->v[i];
		const char *t = l->text;
		size_t end = content_len(t), start = 0, k;
		int depth = 0, quote = 0;

		for (k = 0; k <= end; k++) {
			char ch = k < end ? t[k] : ',';

			if (ch == '"')
				quote = !quote;
			else if (quote && k < end)
				continue;
			else if (ch == '(')
				depth++;
			else if (ch == ')') {
				if (--depth < 0) {
					errmsg_set(e, l->file, l->lineno,
					    l->col0 + (int)k + 1,
					    "Unmatched Parenthesis ");
					return (-1);
				}
			} else if (ch == ',' && (depth == 0 || k == end)) {
				if (k == end && depth > 0) {
					errmsg_set(e, l->file, l->lineno,
					    l->col0 + (int)start + 1,
					    "Unmatched Parenthesis ");
					return (-1);
				}
				if (k > start && pi->n >= LEXER_MAX_ITEMS) {
					errmsg_set(e, l->file, l->lineno,
					    l->col0 + (int)start + 1, "More "
					    "than %d keyword=value items in "
					    "the parameter files", LEXER_MAX_ITEMS);
					return (-1);
				}
				if (k > start && make_item(pi, l, i, t + start,
				    k - start, e) != 0)
					return (-1);
				start = k + 1;
			}
		}
	}
	return (0);
}
