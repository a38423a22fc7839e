/* SPDX-License-Identifier: MIT */
/*
 * YAML front end. The reader turns each "key: value" of an entry into the
 * text "key=value" and hands it to the lexer with its place in the YAML
 * file, so a YAML parmfile gets exactly the checks and messages of a
 * vdbench one. A sequence is one value list; its elements are single
 * values (write "(1-4,1)" as a scalar for vdbench's range syntax).
 */
#include "parmyaml.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <yaml.h>

#include "model_fields.h"
#include "units.h"
#include "xmalloc.h"

/* A node of the small tree built from libyaml's events. */
struct ynode {
	yaml_node_type_t	 type;
	char			*text;		/* scalars */
	int			 line, col;	/* 1-based */
	int			 n;		/* children (pairs for maps) */
	struct ynode		**kids;
};

static const char *const sections[] = {
	"general", "hd", "fsd", "sd", "wd", "fwd", "rd", NULL,
};

/* .yaml or .yml */
int
parmyaml_is_yaml(const char *file)
{
	size_t n = strlen(file);

	return ((n > 5 && strcasecmp(file + n - 5, ".yaml") == 0) ||
	    (n > 4 && strcasecmp(file + n - 4, ".yml") == 0));
}

/* Free a tree. */
static void
ynode_free(struct ynode *y)
{
	int i;

	if (y == NULL)
		return;
	for (i = 0; i < y->n; i++)
		ynode_free(y->kids[i]);
	free(y->kids);
	free(y->text);
	free(y);
}

/* Add a child. */
static void
ynode_add(struct ynode *y, struct ynode *k)
{
	y->kids = xreallocarray(y->kids, (size_t)y->n + 1, sizeof(*y->kids));
	y->kids[y->n++] = k;
}

/* Build a node from the parser's next events; NULL at the end of it. */
static struct ynode *
build(yaml_parser_t *p, const char *file, int *done, struct errmsg *e,
    int depth)
{
	struct ynode *y = NULL, *k;
	yaml_event_t ev;

	for (;;) {
		if (!yaml_parser_parse(p, &ev)) {
			errmsg_set(e, file, (int)p->problem_mark.line + 1,
			    (int)p->problem_mark.column + 1, "YAML: %s",
			    p->problem != NULL ? p->problem : "syntax error");
			*done = -1;
			return (NULL);
		}
		switch (ev.type) {
		case YAML_STREAM_START_EVENT:
		case YAML_DOCUMENT_START_EVENT:
		case YAML_DOCUMENT_END_EVENT:
			yaml_event_delete(&ev);
			continue;
		case YAML_STREAM_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			*done = ev.type == YAML_STREAM_END_EVENT;
			yaml_event_delete(&ev);
			return (NULL);
		case YAML_ALIAS_EVENT:
			errmsg_set(e, file, (int)ev.start_mark.line + 1,
			    (int)ev.start_mark.column + 1, "YAML: aliases are "
			    "not supported in a parmfile");
			yaml_event_delete(&ev);
			*done = -1;
			return (NULL);
		default:
			break;
		}
		y = xcalloc(1, sizeof(*y));
		y->line = (int)ev.start_mark.line + 1;
		y->col = (int)ev.start_mark.column + 1;
		if (ev.type == YAML_SCALAR_EVENT) {
			y->type = YAML_SCALAR_NODE;
			y->text = xstrndup((const char *)ev.data.scalar.value,
			    ev.data.scalar.length);
			yaml_event_delete(&ev);
			return (y);
		}
		y->type = ev.type == YAML_SEQUENCE_START_EVENT ?
		    YAML_SEQUENCE_NODE : YAML_MAPPING_NODE;
		yaml_event_delete(&ev);
		if (depth > 16) {
			errmsg_set(e, file, y->line, y->col, "YAML: nested too "
			    "deeply for a parmfile");
			ynode_free(y);
			*done = -1;
			return (NULL);
		}
		while ((k = build(p, file, done, e, depth + 1)) != NULL)
			ynode_add(y, k);
		if (*done < 0) {
			ynode_free(y);
			return (NULL);
		}
		*done = 0;
		return (y);
	}
}

/* Does a single value need quotes to stay one value? */
static int
needs_quotes(const char *s)
{
	if (s[0] == '(' && s[strlen(s) - 1] == ')')
		return (0);		/* vdbench list syntax, as written */
	return (strpbrk(s, ",()= \t") != NULL || s[0] == '-');
}

/* Append one value to buf, quoted when it must be. */
static void
append_value(char **buf, const char *v, int in_list)
{
	char *n;
	int q = in_list ? strpbrk(v, ",()= \t-") != NULL : needs_quotes(v);

	xasprintf(&n, "%s%s%s%s", *buf, q ? "\"" : "", v, q ? "\"" : "");
	free(*buf);
	*buf = n;
}

/* One "key: value" of an entry as an item. */
static int
add_pair(struct pitems *pi, struct plines *lines, const char *file,
    const struct ynode *k, const struct ynode *v, struct errmsg *e)
{
	char *text;
	int i, rc;

	if (k->type != YAML_SCALAR_NODE) {
		errmsg_set(e, file, k->line, k->col, "YAML: a keyword must be "
		    "a plain word");
		return (-1);
	}
	xasprintf(&text, "%s=", k->text);
	if (v->type == YAML_SCALAR_NODE) {
		if (v->text[0] == '\0') {
			errmsg_set(e, file, v->line, v->col, "YAML: '%s' has no "
			    "value", k->text);
			free(text);
			return (-1);
		}
		append_value(&text, v->text, 0);
	} else if (v->type == YAML_SEQUENCE_NODE) {
		char *n;

		xasprintf(&n, "%s(", text);
		free(text);
		text = n;
		for (i = 0; i < v->n; i++) {
			if (v->kids[i]->type != YAML_SCALAR_NODE) {
				errmsg_set(e, file, v->kids[i]->line,
				    v->kids[i]->col, "YAML: '%s' takes single "
				    "values in its list", k->text);
				free(text);
				return (-1);
			}
			if (i > 0) {
				xasprintf(&n, "%s,", text);
				free(text);
				text = n;
			}
			append_value(&text, v->kids[i]->text, 1);
		}
		xasprintf(&n, "%s)", text);
		free(text);
		text = n;
	} else {
		errmsg_set(e, file, v->line, v->col, "YAML: '%s' wants a value "
		    "or a list of values, not a mapping", k->text);
		free(text);
		return (-1);
	}
	rc = lexer_item(pi, lines, file, k->line, k->col, text, e);
	free(text);
	return (rc);
}

/* An entry: its own keyword first, then the rest in written order. */
static int
add_entry(struct pitems *pi, struct plines *lines, const char *file,
    const char *sec, const struct ynode *m, struct errmsg *e)
{
	int i, own = -1;

	if (m->type != YAML_MAPPING_NODE) {
		errmsg_set(e, file, m->line, m->col, "YAML: each %s entry is a "
		    "mapping of keywords, e.g. { %s: name, ... }", sec, sec);
		return (-1);
	}
	for (i = 0; i + 1 < m->n; i += 2) {
		if (m->kids[i]->type == YAML_SCALAR_NODE &&
		    strcasecmp(m->kids[i]->text, sec) == 0)
			own = i;
	}
	if (own < 0) {
		errmsg_set(e, file, m->line, m->col, "YAML: this %s entry has no "
		    "'%s:' naming it", sec, sec);
		return (-1);
	}
	if (add_pair(pi, lines, file, m->kids[own], m->kids[own + 1], e) != 0)
		return (-1);
	for (i = 0; i + 1 < m->n; i += 2) {
		const struct ynode *k = m->kids[i], *v = m->kids[i + 1];

		if (i == own)
			continue;
		/* luns: [{host: h1, lun: /dev/a}, ...] for host/lun pairs. */
		if (strcmp(sec, "sd") == 0 && k->type == YAML_SCALAR_NODE &&
		    strcmp(k->text, "luns") == 0 &&
		    v->type == YAML_SEQUENCE_NODE) {
			int j, q;

			for (j = 0; j < v->n; j++) {
				const struct ynode *p = v->kids[j];

				if (p->type != YAML_MAPPING_NODE) {
					errmsg_set(e, file, p->line, p->col,
					    "YAML: luns is a list of { host: "
					    "..., lun: ... }");
					return (-1);
				}
				for (q = 0; q + 1 < p->n; q += 2) {
					if (add_pair(pi, lines, file,
					    p->kids[q], p->kids[q + 1], e) != 0)
						return (-1);
				}
			}
			continue;
		}
		if (add_pair(pi, lines, file, k, v, e) != 0)
			return (-1);
	}
	return (0);
}

/* Read a whole file, with $name/!name substituted. */
static char *
slurp(const char *file, struct subvars *sv, struct errmsg *e)
{
	FILE *f = lexer_open(file, e);	/* a regular file, <= 16 MiB */
	char *buf, from[256];
	size_t len;
	int i;

	if (f == NULL)
		return (NULL);
	buf = xmalloc(LEXER_MAX_FILE + 1);
	len = fread(buf, 1, LEXER_MAX_FILE + 1, f);
	fclose(f);
	if (len > LEXER_MAX_FILE || memchr(buf, '\0', len) != NULL) {
		errmsg_set(e, file, 0, 0, len > LEXER_MAX_FILE ? "Parameter "
		    "file %s goes on past 16 MiB; at most that is read" :
		    "A NUL byte in parameter file %s; parameter files are "
		    "text", file);
		free(buf);
		return (NULL);
	}
	buf = xreallocarray(buf, len + 1, 1);
	buf[len] = '\0';
	for (i = 0; sv != NULL && i < sv->n; i++) {
		int k;

		for (k = 0; k < 2; k++) {
			char *p;

			snprintf(from, sizeof(from), "%c%s", k ? '!' : '$',
			    sv->v[i].name);
			while ((p = strstr(buf, from)) != NULL) {
				char *n;

				xasprintf(&n, "%.*s%s%s", (int)(p - buf), buf,
				    sv->v[i].value, p + strlen(from));
				free(buf);
				buf = n;
				sv->v[i].used = 1;
			}
		}
	}
	return (buf);
}

/* Read YAML parmfiles into the keyword stream. */
int
parmyaml_read(struct pitems *pi, struct plines *lines, int nfiles,
    char *const files[], struct subvars *sv, struct errmsg *e)
{
	int f, rc;

	for (f = 0; f < nfiles; f++) {
		char *text = slurp(files[f], sv, e);

		if (text == NULL)
			return (-1);
		rc = parmyaml_read_text(pi, lines, files[f], text, e);
		free(text);
		if (rc != 0)
			return (-1);
	}
	return (0);
}

/* Read one YAML text (named file in messages) into the keyword stream. */
int
parmyaml_read_text(struct pitems *pi, struct plines *lines,
    const char *file, const char *text, struct errmsg *e)
{
	char *const files[1] = { (char *)file };
	int f, s, i, k, done = 0, rc = -1;

	for (f = 0; f < 1; f++) {
		yaml_parser_t p;
		struct ynode *root;

		yaml_parser_initialize(&p);
		yaml_parser_set_input_string(&p, (unsigned char *)text,
		    strlen(text));
		root = build(&p, files[f], &done, e, 0);
		yaml_parser_delete(&p);
		if (done < 0)
			return (-1);
		if (root == NULL)
			continue;
		if (root->type != YAML_MAPPING_NODE) {
			errmsg_set(e, files[f], root->line, root->col, "YAML: "
			    "a parmfile is a mapping of sections (general, hd, "
			    "fsd, sd, wd, fwd, rd)");
			goto out;
		}
		for (i = 0; i + 1 < root->n; i += 2) {
			const struct ynode *key = root->kids[i];

			for (s = 0; sections[s] != NULL; s++) {
				if (key->type == YAML_SCALAR_NODE &&
				    strcmp(key->text, sections[s]) == 0)
					break;
			}
			if (sections[s] == NULL) {
				errmsg_set(e, files[f], key->line, key->col,
				    "YAML: unknown section '%s' (expected "
				    "general, hd, fsd, sd, wd, fwd or rd)",
				    key->type == YAML_SCALAR_NODE ? key->text :
				    "?");
				goto out;
			}
		}
		/* Sections in vdbench's order, whatever the file's order. */
		for (s = 0; sections[s] != NULL; s++) {
			for (i = 0; i + 1 < root->n; i += 2) {
				const struct ynode *v = root->kids[i + 1];

				if (strcmp(root->kids[i]->text, sections[s]))
					continue;
				if (s == 0) {
					if (v->type != YAML_MAPPING_NODE) {
						errmsg_set(e, files[f], v->line,
						    v->col, "YAML: general is a "
						    "mapping of keywords");
						goto out;
					}
					for (k = 0; k + 1 < v->n; k += 2) {
						if (add_pair(pi, lines,
						    files[f], v->kids[k],
						    v->kids[k + 1], e) != 0)
							goto out;
					}
					continue;
				}
				if (v->type != YAML_SEQUENCE_NODE) {
					errmsg_set(e, files[f], v->line, v->col,
					    "YAML: %s is a list of entries",
					    sections[s]);
					goto out;
				}
				for (k = 0; k < v->n; k++) {
					if (add_entry(pi, lines, files[f],
					    sections[s], v->kids[k], e) != 0)
						goto out;
				}
			}
		}
		ynode_free(root);
		root = NULL;
		continue;
out:
		ynode_free(root);
		return (rc);
	}
	return (0);
}

/* ---- the dump ---------------------------------------------------------- */

/* A string as a YAML double-quoted scalar. */
static void
qstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A number exactly. */
static void
num(FILE *f, double v)
{
	fprintf(f, "%.17g", v);
}

/* A numeric value of an rd rate list: max, curve, N%, or the number. */
static void
rate(FILE *f, double v)
{
	if (v == RD_IORATE_MAX)
		fputs("max", f);
	else if (v == RD_IORATE_CURVE)
		fputs("curve", f);
	else if (v < 0)
		fprintf(f, "\"%.17g%%\"", -v);
	else
		num(f, v);
}

/* "  key: [a, b]" of strings. */
static void
strs(FILE *f, const char *key, const struct strlist *l)
{
	int i;

	if (l->n == 0)
		return;
	fprintf(f, "    %s: [", key);
	for (i = 0; i < l->n; i++) {
		if (i > 0)
			fputs(", ", f);
		qstr(f, l->v[i]);
	}
	fputs("]\n", f);
}

/* "  key: [n, ...]" of numbers. */
static void
nums(FILE *f, const char *key, const double *v, int n, int rates)
{
	int i;

	fprintf(f, "    %s: [", key);
	for (i = 0; i < n; i++) {
		if (i > 0)
			fputs(", ", f);
		if (rates)
			rate(f, v[i]);
		else
			num(f, v[i]);
	}
	fputs("]\n", f);
}

/* The untyped keywords of an entry. */
static void
bag(FILE *f, const struct bag *b, const char *indent)
{
	const struct bag_item *it;
	int i;

	TAILQ_FOREACH(it, b, entry) {
		fprintf(f, "%s%s: [", indent, it->key);
		for (i = 0; i < it->vals.n; i++) {
			if (i > 0)
				fputs(", ", f);
			if (it->vals.v[i].is_num)
				num(f, it->vals.v[i].num);
			else
				qstr(f, it->vals.v[i].str);
		}
		fputs("]\n", f);
	}
}

/* Transfer sizes in vdbench's forms. */
static void
xfer(FILE *f, const struct xfer *x)
{
	int i;

	fputs("    xfersize: [", f);
	if (x->kind == XFER_RANGE)
		fprintf(f, "%llu, %llu, %llu", (unsigned long long)x->min_bytes,
		    (unsigned long long)x->max_bytes,
		    (unsigned long long)x->align_bytes);
	for (i = 0; x->kind != XFER_RANGE && i < x->n; i++) {
		fprintf(f, "%s%llu", i > 0 ? ", " : "",
		    (unsigned long long)x->size_bytes[i]);
		if (x->kind == XFER_DIST) {
			fputs(", ", f);
			num(f, x->pct[i]);
		}
	}
	fputs("]\n", f);
}

/*
 * The fields whose YAML form is not one keyword and one value (Y_HOOK),
 * by entry kind and field name.
 */
static void
hook_histogram(FILE *f, const void *entry)
{
	const struct general *g = entry;
	unsigned int e;

	if (!g->histogram_set)
		return;
	fputs("  histogram: [default", f);
	for (e = 0; e < g->histogram.n; e++)
		fprintf(f, ", %llu", (unsigned long long)g->histogram.edge_us[e]);
	fputs(g->histogram.suppress ? ", suppress]\n" : "]\n", f);
}

/* host/lun pairs, in order, as a list of pairs. */
static void
hook_luns(FILE *f, const void *entry)
{
	const struct sd *s = entry;
	int i;

	fputs("    luns:\n", f);
	for (i = 0; i < s->nluns; i++) {
		fputs("      - { ", f);
		if (strcmp(s->luns[i].host, "*") != 0) {
			fputs("host: ", f);
			qstr(f, s->luns[i].host);
			fputs(", ", f);
		}
		fputs("lun: ", f);
		qstr(f, s->luns[i].lun);
		fputs(" }\n", f);
	}
}

static void
hook_sd_size(FILE *f, const void *entry)
{
	const struct sd *s = entry;

	if (s->size_bytes > 0)
		fprintf(f, "    size: [%llu, %llu]\n", (unsigned long long)
		    (s->size_bytes * s->size_divisor),
		    (unsigned long long)s->size_divisor);
}

static void
hook_wd_xfer(FILE *f, const void *entry)
{
	xfer(f, &((const struct wd *)entry)->xfer);
}

static void
hook_fwd_xfer(FILE *f, const void *entry)
{
	xfer(f, &((const struct fwd *)entry)->xfer);
}

static void
hook_seekpct(FILE *f, const void *entry)
{
	const struct wd *w = entry;

	fputs("    seekpct: ", f);
	if (w->seek_eof)
		fputs("eof", f);
	else
		num(f, w->seekpct);
	fputc('\n', f);
}

/* Whether the rd's fwdrate= list is one of its for-loops. */
static int
rd_fwdrate_looped(const void *entry)
{
	const struct rd *r = entry;
	int i;

	for (i = 0; i < r->nloops; i++)
		if (r->loops[i].kind == LOOP_FWDRATE)
			return (1);
	return (0);
}

static void
hook_loops(FILE *f, const void *entry)
{
	static const char *const loopkw[LOOP_NKINDS] = {
		"forxfersize", "forthreads", "forrdpct", "forrhpct",
		"forwhpct", "forseekpct", "forhitarea", "forcompratio",
		"fordepth", "forwidth", "forfiles", "forsizes",
		"fortotalsize", "forwss", "foroperations", NULL, NULL,
	};
	const struct rd *r = entry;
	int i;

	for (i = 0; i < r->nloops; i++) {
		const struct forloop *l = &r->loops[i];

		if (l->kind == LOOP_FWDRATE && l->vals != NULL) {
			/* a fwdrate= list at its place among the loops */
			nums(f, "fwdrate", l->vals, l->n, 1);
			continue;
		}
		if (loopkw[l->kind] == NULL)
			continue;
		if (l->strs != NULL) {
			struct strlist sl = { l->n, l->strs, 0 };

			strs(f, loopkw[l->kind], &sl);
		} else
			nums(f, loopkw[l->kind], l->vals, l->n, 0);
	}
}

static void
hook_fsd_sizes(FILE *f, const void *entry)
{
	const struct fsd *fs = entry;
	int i;

	fputs("    sizes: [", f);
	for (i = 0; i < fs->nsizes; i++) {
		fprintf(f, "%s%llu", i > 0 ? ", " : "",
		    (unsigned long long)fs->size_bytes[i]);
		if (fs->size_pct != NULL) {
			fputs(", ", f);
			num(f, fs->size_pct[i]);
		}
	}
	fputs(fs->size_avg ? ", 0]\n" : "]\n", f);
}

static void
hook_stopafter(FILE *f, const void *entry)
{
	const struct fwd *fw = entry;

	if (fw->stopafter != 0) {
		fputs("    stopafter: ", f);
		rate(f, fw->stopafter);
		fputc('\n', f);
	}
}

static void
hook_fileio(FILE *f, const void *entry)
{
	const struct fwd *fw = entry;

	if (fw->fileio_shared || fw->fileio_delete)
		fprintf(f, "    fileio: [%s, %s]\n", fw->fileio,
		    fw->fileio_shared ? "shared" : "delete");
	else
		fprintf(f, "    fileio: %s\n", fw->fileio);
}

static const struct {
	const struct entry_desc	*ed;
	const char		*field;
	void			(*fn)(FILE *, const void *);
} hooks[] = {
	{ &general_desc, "histogram_set", hook_histogram },
	{ &sd_desc, "luns", hook_luns },
	{ &sd_desc, "size_bytes", hook_sd_size },
	{ &wd_desc, "xfer", hook_wd_xfer },
	{ &wd_desc, "seekpct", hook_seekpct },
	{ &rd_desc, "loops", hook_loops },
	{ &fsd_desc, "size_bytes", hook_fsd_sizes },
	{ &fwd_desc, "stopafter", hook_stopafter },
	{ &fwd_desc, "fileio", hook_fileio },
	{ &fwd_desc, "xfer", hook_fwd_xfer },
};

/* The int flag a field's dump depends on. */
static int
set_flag(const struct field_desc *fd, const void *entry)
{
	return (*(const int *)((const char *)entry + fd->aux_off));
}

/* An integer field as its C type prints it; 0 when not positive. */
static int
uint_field(FILE *f, const char *ind, const struct field_desc *fd,
    const void *p, int nonzero)
{
	switch (fd->type) {
	case FT_INT:
		if (nonzero && *(const int *)p <= 0)
			return (0);
		fprintf(f, "%s%s: %d\n", ind, fd->yaml, *(const int *)p);
		return (1);
	case FT_U32:
		if (nonzero && *(const uint32_t *)p == 0)
			return (0);
		fprintf(f, "%s%s: %u\n", ind, fd->yaml, *(const uint32_t *)p);
		return (1);
	default:
		if (nonzero && *(const uint64_t *)p == 0)
			return (0);
		fprintf(f, "%s%s: %llu\n", ind, fd->yaml,
		    (unsigned long long)*(const uint64_t *)p);
		return (1);
	}
}

/* One field of an entry in its YAML form. */
static void
dump_field(FILE *f, const char *ind, const struct entry_desc *ed,
    const struct field_desc *fd, const void *entry)
{
	const void *p = FIELD_CPTR(entry, fd);
	const char *str = fd->type == FT_STR ? *(char *const *)p : NULL;
	size_t i;

	if (fd->flags & F_BAGCOPY)
		return;
	switch (fd->ystyle) {
	case Y_NONE:
		return;
	case Y_NUM_SET:
		if (!set_flag(fd, entry))
			return;
		/* FALLTHROUGH */
	case Y_NUM:
		fprintf(f, "%s%s: ", ind, fd->yaml);
		num(f, *(const double *)p);
		fputc('\n', f);
		return;
	case Y_UINT_SET:
		if (set_flag(fd, entry))
			uint_field(f, ind, fd, p, 0);
		return;
	case Y_UINT:
	case Y_UINT_NZ:
		uint_field(f, ind, fd, p, fd->ystyle == Y_UINT_NZ);
		return;
	case Y_YESNO:
		if (*(const int *)p >= 0)
			fprintf(f, "%s%s: %s\n", ind, fd->yaml,
			    *(const int *)p ? "yes" : "no");
		return;
	case Y_WORD:
		if (fd->type == FT_BOOL) {
			if (*(const int *)p)
				fprintf(f, "%s%s: %s\n", ind, fd->yaml,
				    fd->names[0]);
			return;
		}
		/* FALLTHROUGH */
	case Y_WORD_NN:
		if (str != NULL)
			fprintf(f, "%s%s: %s\n", ind, fd->yaml, str);
		return;
	case Y_QSTR_NN:
		if (str == NULL)
			return;
		/* FALLTHROUGH */
	case Y_QSTR:
		fprintf(f, "%s%s: ", ind, fd->yaml);
		qstr(f, str != NULL ? str : "");
		fputc('\n', f);
		return;
	case Y_STRS:
		strs(f, fd->yaml, p);
		return;
	case Y_RANGE_SET:
		if (set_flag(fd, entry))
			nums(f, fd->yaml, p, 2, 0);
		return;
	case Y_RATES:
		if (ed == &rd_desc && strcmp(fd->name, "fwdrate") == 0 &&
		    rd_fwdrate_looped(entry))
			return;	/* hook_loops writes it at its place */
		/* FALLTHROUGH */
	case Y_NUMS_NN:
		if (*(double *const *)p != NULL && set_flag(fd, entry) > 0)
			nums(f, fd->yaml, *(double *const *)p,
			    set_flag(fd, entry), fd->ystyle == Y_RATES);
		return;
	case Y_ENUM_NZ:
		if (*(const int *)p != 0)
			fprintf(f, "%s%s: %s\n", ind, fd->yaml,
			    fd->names[*(const int *)p]);
		return;
	case Y_BAG:
		bag(f, p, ind);
		return;
	case Y_HOOK:
		for (i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++) {
			if (hooks[i].ed == ed &&
			    strcmp(hooks[i].field, fd->name) == 0)
				hooks[i].fn(f, entry);
		}
		return;
	}
}

/* An entry: "  - kind: name" and its fields, or general's fields. */
static void
dump_entry(FILE *f, const struct entry_desc *ed, const void *entry)
{
	const char *ind = "  ";
	int i;

	if (ed->fields[0].flags & F_NAME) {
		fprintf(f, "  - %s: ", ed->name);
		qstr(f, *(char *const *)FIELD_CPTR(entry, &ed->fields[0]));
		fputc('\n', f);
		ind = "    ";
	}
	for (i = 0; i < ed->nfields; i++)
		dump_field(f, ind, ed, &ed->fields[i], entry);
}

/* "kind:" and each entry of a list. */
#define DUMP_LIST(f, head, T) do {					\
	const struct T *e_;						\
									\
	if (!TAILQ_EMPTY(head))						\
		fputs(#T ":\n", f);					\
	TAILQ_FOREACH(e_, head, entry)					\
		dump_entry(f, &T##_desc, e_);				\
} while (0)

/* The model as YAML keywords, from the field tables; defaults applied. */
void
parmyaml_dump(const struct model *m, FILE *f)
{
	const struct wd *w;

	fputs("# vdbc parmfile, YAML form (vdbc -s --dump=yaml)\n", f);
	fputs("general:\n", f);
	dump_entry(f, &general_desc, &m->general);
	DUMP_LIST(f, &m->hds, hd);
	DUMP_LIST(f, &m->fsds, fsd);
	DUMP_LIST(f, &m->sds, sd);
	if (!TAILQ_EMPTY(&m->wds) || m->wd_default != NULL)
		fputs("wd:\n", f);
	TAILQ_FOREACH(w, &m->wds, entry)
		dump_entry(f, &wd_desc, w);
	/* The default last: it only matters to an rd with sd= and no wd=. */
	if (m->wd_default != NULL)
		dump_entry(f, &wd_desc, m->wd_default);
	DUMP_LIST(f, &m->fwds, fwd);
	DUMP_LIST(f, &m->rds, rd);
}
