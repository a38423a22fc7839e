/* SPDX-License-Identifier: MIT */
/*
 * Constructors, deep copies and destructors of the model's entries. Copies
 * matter: vdbench makes each new entry a copy of its kind's default entry
 * as it stands when the entry is opened.
 */
#include "model.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model_fields.h"
#include "xmalloc.h"

static const char *const loop_labels[LOOP_NKINDS] = {
	[LOOP_XFERSIZE] = "xfersize",	[LOOP_THREADS] = "threads",
	[LOOP_RDPCT] = "rdpct",		[LOOP_RHPCT] = "rhpct",
	[LOOP_WHPCT] = "whpct",		[LOOP_SEEKPCT] = "seekpct",
	[LOOP_HITAREA] = "hitarea",	[LOOP_COMP] = "comp",
	[LOOP_DEPTH] = "depth",		[LOOP_WIDTH] = "width",
	[LOOP_FILES] = "files",		[LOOP_SIZES] = "sizes",
	[LOOP_TOTALSIZE] = "totalsize",	[LOOP_WSS] = "wss",
	[LOOP_OPERATION] = "operation",	[LOOP_IORATE] = "iorate",
	[LOOP_FWDRATE] = "fwdrate",
};

/* The label vdbench prints for a loop in "For loops:". */
const char *
loop_label(enum loop_kind k)
{
	return ((unsigned int)k < LOOP_NKINDS ? loop_labels[k] : "?");
}

/* Deep-copy a value list. */
void
pvals_copy(struct pvals *dst, const struct pvals *src)
{
	int i;

	dst->n = src->n;
	dst->cap = src->n > 0 ? src->n : 1;
	dst->v = xcalloc((size_t)dst->cap, sizeof(*dst->v));
	for (i = 0; i < src->n; i++) {
		dst->v[i] = src->v[i];
		dst->v[i].str = xstrdup(src->v[i].str);
	}
}

/* Free a value list's contents. */
void
pvals_clear(struct pvals *p)
{
	int i;

	for (i = 0; i < p->n; i++)
		free(p->v[i].str);
	free(p->v);
	p->v = NULL;
	p->n = 0;
	p->cap = 0;
}

/* An empty bag. */
void
bag_init(struct bag *b)
{
	TAILQ_INIT(b);
}

/* Set a key, replacing what it held. */
void
bag_set(struct bag *b, const char *key, const struct pvals *vals)
{
	struct bag_item *it;

	TAILQ_FOREACH(it, b, entry) {
		if (strcmp(it->key, key) == 0) {
			pvals_clear(&it->vals);
			pvals_copy(&it->vals, vals);
			return;
		}
	}
	it = xcalloc(1, sizeof(*it));
	it->key = xstrdup(key);
	pvals_copy(&it->vals, vals);
	TAILQ_INSERT_TAIL(b, it, entry);
}

/* The values of a key, or NULL. */
const struct pvals *
bag_get(const struct bag *b, const char *key)
{
	const struct bag_item *it;

	TAILQ_FOREACH(it, b, entry) {
		if (strcmp(it->key, key) == 0)
			return (&it->vals);
	}
	return (NULL);
}

/* Deep-copy a bag into an empty one. */
void
bag_copy(struct bag *dst, const struct bag *src)
{
	const struct bag_item *it;

	TAILQ_INIT(dst);
	TAILQ_FOREACH(it, src, entry)
		bag_set(dst, it->key, &it->vals);
}

/* Free a bag's items. */
void
bag_clear(struct bag *b)
{
	struct bag_item *it;

	while ((it = TAILQ_FIRST(b)) != NULL) {
		TAILQ_REMOVE(b, it, entry);
		free(it->key);
		pvals_clear(&it->vals);
		free(it);
	}
}

/* Append a copy of s (the array grows geometrically). */
void
strlist_add(struct strlist *l, const char *s)
{
	if (l->n >= l->cap) {
		l->cap = l->cap < 8 ? 8 : l->cap * 2;
		l->v = xreallocarray(l->v, (size_t)l->cap, sizeof(*l->v));
	}
	l->v[l->n++] = xstrdup(s);
}

/* Deep copy into an empty list. */
void
strlist_copy(struct strlist *dst, const struct strlist *src)
{
	int i;

	memset(dst, 0, sizeof(*dst));
	for (i = 0; i < src->n; i++)
		strlist_add(dst, src->v[i]);
}

/* Free a list's strings. */
void
strlist_clear(struct strlist *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* Make x a single transfer size. */
void
xfer_set_single(struct xfer *x, uint64_t bytes)
{
	xfer_clear(x);
	x->kind = XFER_SINGLE;
	x->n = 1;
	x->size_bytes = xcalloc(1, sizeof(*x->size_bytes));
	x->size_bytes[0] = bytes;
}

/* Deep copy. */
void
xfer_copy(struct xfer *dst, const struct xfer *src)
{
	*dst = *src;
	dst->size_bytes = NULL;
	dst->pct = NULL;
	if (src->n > 0) {
		dst->size_bytes = xcalloc((size_t)src->n, sizeof(uint64_t));
		memcpy(dst->size_bytes, src->size_bytes,
		    (size_t)src->n * sizeof(uint64_t));
	}
	if (src->pct != NULL) {
		dst->pct = xcalloc((size_t)src->n, sizeof(double));
		memcpy(dst->pct, src->pct, (size_t)src->n * sizeof(double));
	}
}

/* Free the arrays. */
void
xfer_clear(struct xfer *x)
{
	free(x->size_bytes);
	free(x->pct);
	memset(x, 0, sizeof(*x));
}

/* Largest transfer this xfer can produce. */
uint64_t
xfer_max_bytes(const struct xfer *x)
{
	uint64_t m = 0;
	int i;

	if (x->kind == XFER_RANGE)
		return (x->max_bytes);
	for (i = 0; i < x->n; i++) {
		if (x->size_bytes[i] > m)
			m = x->size_bytes[i];
	}
	return (m);
}

/* Deep copy. */
void
forloop_copy(struct forloop *dst, const struct forloop *src)
{
	int i;

	*dst = *src;
	dst->vals = NULL;
	dst->strs = NULL;
	if (src->vals != NULL) {
		dst->vals = xcalloc((size_t)src->n, sizeof(double));
		memcpy(dst->vals, src->vals, (size_t)src->n * sizeof(double));
	}
	if (src->strs != NULL) {
		dst->strs = xcalloc((size_t)src->n, sizeof(char *));
		for (i = 0; i < src->n; i++)
			dst->strs[i] = xstrdup(src->strs[i]);
	}
}

/* Free the arrays. */
void
forloop_clear(struct forloop *l)
{
	int i;

	if (l->strs != NULL) {
		for (i = 0; i < l->n; i++)
			free(l->strs[i]);
	}
	free(l->strs);
	free(l->vals);
	memset(l, 0, sizeof(*l));
}

/* A new entry of kind ed with its defaults and name. */
void *
model_entry_new(const struct entry_desc *ed, const char *name)
{
	void *e = xcalloc(1, ed->size);

	fields_init(ed, e);
	/* every kind but general starts with its name */
	*(char **)FIELD_PTR(e, &ed->fields[0]) = xstrdup(name);
	return (e);
}

/* A deep copy of src named name. */
static void *
entry_copy(const struct entry_desc *ed, const void *src, const char *name)
{
	void *e = xcalloc(1, ed->size);
	char **np = FIELD_PTR(e, &ed->fields[0]);

	fields_copy(ed, e, src);
	free(*np);
	*np = xstrdup(name);
	return (e);
}

/* Free an entry; NULL is fine. */
void
model_entry_free(const struct entry_desc *ed, void *e)
{
	if (e == NULL)
		return;
	fields_clear(ed, e);
	free(e);
}

/* General parameters with vdbench's defaults. */
void
general_init(struct general *g)
{
	memset(g, 0, sizeof(*g));
	fields_init(&general_desc, g);
}

/* Free the general parameters' contents. */
void
general_clear(struct general *g)
{
	fields_clear(&general_desc, g);
}

/*
 * Each kind's constructor (the defaults of its field table), copy (vdbench
 * makes a new entry a copy of its kind's default entry) and destructor.
 */
#define ENTRY_FUNCS(T)							\
struct T *								\
T##_new(const char *name)						\
{									\
	return (model_entry_new(&T##_desc, name));			\
}									\
struct T *								\
T##_copy(const struct T *src, const char *name)				\
{									\
	return (entry_copy(&T##_desc, src, name));			\
}									\
void									\
T##_free(struct T *e)							\
{									\
	model_entry_free(&T##_desc, e);					\
}
ENTRY_FUNCS(hd)
ENTRY_FUNCS(sd)
ENTRY_FUNCS(wd)
ENTRY_FUNCS(rd)
ENTRY_FUNCS(fsd)
ENTRY_FUNCS(fwd)

static void	sd_index_free(struct sd_index *);

/* An empty model. */
struct model *
model_new(void)
{
	struct model *m = xcalloc(1, sizeof(*m));

	general_init(&m->general);
	TAILQ_INIT(&m->hds);
	TAILQ_INIT(&m->sds);
	TAILQ_INIT(&m->wds);
	TAILQ_INIT(&m->rds);
	TAILQ_INIT(&m->fsds);
	TAILQ_INIT(&m->fwds);
	return (m);
}

/* Free a model and everything in it. NULL is fine. */
void
model_free(struct model *m)
{
	struct hd *h;
	struct sd *s;
	struct wd *w;
	struct rd *r;
	struct fsd *f;
	struct fwd *fw;

	if (m == NULL)
		return;
	general_clear(&m->general);
	while ((h = TAILQ_FIRST(&m->hds)) != NULL) {
		TAILQ_REMOVE(&m->hds, h, entry);
		hd_free(h);
	}
	while ((s = TAILQ_FIRST(&m->sds)) != NULL) {
		TAILQ_REMOVE(&m->sds, s, entry);
		sd_free(s);
	}
	while ((w = TAILQ_FIRST(&m->wds)) != NULL) {
		TAILQ_REMOVE(&m->wds, w, entry);
		wd_free(w);
	}
	while ((r = TAILQ_FIRST(&m->rds)) != NULL) {
		TAILQ_REMOVE(&m->rds, r, entry);
		rd_free(r);
	}
	while ((f = TAILQ_FIRST(&m->fsds)) != NULL) {
		TAILQ_REMOVE(&m->fsds, f, entry);
		fsd_free(f);
	}
	while ((fw = TAILQ_FIRST(&m->fwds)) != NULL) {
		TAILQ_REMOVE(&m->fwds, fw, entry);
		fwd_free(fw);
	}
	wd_free(m->wd_default);
	strlist_clear(&m->unbuilt);
	sd_index_free(m->sd_index);
	free(m);
}

/*
 * The sd name index: open addressing with linear probing over a power of
 * two slots, at most half full. A name maps to its first sd in list order
 * (the one the list walk found before); `dups` says a later sd repeated a
 * name, so a removal rebuilds instead of uncovering the next one. `tail`
 * is the list's last sd when the index was last in step with it.
 */
struct sd_index {
	size_t		  cap;
	size_t		  n;
	struct sd	**slot;
	const struct sd	 *tail;
	int		  dups;
};

/* FNV-1a over the name's bytes: names compare exactly (strcmp). */
static size_t
sd_index_hash(const char *name)
{
	uint64_t h = 14695981039346656037ull;

	for (; *name != '\0'; name++)
		h = (h ^ (unsigned char)*name) * 1099511628211ull;
	return ((size_t)h);
}

static void
sd_index_free(struct sd_index *x)
{
	if (x == NULL)
		return;
	free(x->slot);
	free(x);
}

/* The slot holding name, or the empty slot where it would go. */
static size_t
sd_index_slot(const struct sd_index *x, const char *name)
{
	size_t i = sd_index_hash(name) & (x->cap - 1);

	while (x->slot[i] != NULL && strcmp(x->slot[i]->name, name) != 0)
		i = (i + 1) & (x->cap - 1);
	return (i);
}

/* Index s unless an earlier sd has its name; grows at half full. */
static void
sd_index_add(struct sd_index *x, struct sd *s)
{
	size_t i;

	if (2 * (x->n + 1) > x->cap) {
		struct sd **old = x->slot;
		size_t k, oldcap = x->cap;

		x->cap = oldcap * 2;
		x->slot = xcalloc(x->cap, sizeof(*x->slot));
		for (k = 0; k < oldcap; k++) {
			if (old[k] != NULL)
				x->slot[sd_index_slot(x, old[k]->name)] =
				    old[k];
		}
		free(old);
	}
	i = sd_index_slot(x, s->name);
	if (x->slot[i] != NULL) {
		x->dups = 1;
		return;
	}
	x->slot[i] = s;
	x->n++;
}

/* Index every sd of m, first name wins. */
static struct sd_index *
sd_index_build(const struct model *m)
{
	struct sd_index *x = xcalloc(1, sizeof(*x));
	struct sd *s;

	x->cap = 64;
	x->slot = xcalloc(x->cap, sizeof(*x->slot));
	TAILQ_FOREACH(s, &m->sds, entry)
		sd_index_add(x, s);
	x->tail = TAILQ_LAST(&m->sds, sd_list);
	return (x);
}

/* Drop m's index; the next lookup builds it again. */
static void
sd_index_drop(struct model *m)
{
	sd_index_free(m->sd_index);
	m->sd_index = NULL;
}

/* Add s to m's sds before `before` (NULL: at the end), and to the index. */
void
model_insert_sd(struct model *m, struct sd *s, struct sd *before)
{
	struct sd_index *x = m->sd_index;

	if (before != NULL)
		TAILQ_INSERT_BEFORE(before, s, entry);
	else
		TAILQ_INSERT_TAIL(&m->sds, s, entry);
	if (x == NULL)
		return;
	/*
	 * Out of step (a direct insert), or s lands before an sd of its
	 * name, which would then no longer be the first: build again.
	 */
	if (before != NULL ? x->tail != TAILQ_LAST(&m->sds, sd_list) ||
	    x->slot[sd_index_slot(x, s->name)] != NULL :
	    x->tail != TAILQ_PREV(s, sd_list, entry)) {
		sd_index_drop(m);
		return;
	}
	sd_index_add(x, s);
	x->tail = TAILQ_LAST(&m->sds, sd_list);
}

/* Take s out of m's sds and the index; the caller frees it. */
void
model_remove_sd(struct model *m, struct sd *s)
{
	struct sd_index *x = m->sd_index;
	size_t i, j, k, mask;

	if (x == NULL) {
		TAILQ_REMOVE(&m->sds, s, entry);
		return;
	}
	i = sd_index_slot(x, s->name);
	/* A later sd of its name would become the first: build again. */
	if (x->dups || x->tail != TAILQ_LAST(&m->sds, sd_list) ||
	    x->slot[i] != s) {
		sd_index_drop(m);
		TAILQ_REMOVE(&m->sds, s, entry);
		return;
	}
	TAILQ_REMOVE(&m->sds, s, entry);
	/* Linear probing's deletion: pull later entries of the run back. */
	mask = x->cap - 1;
	x->slot[i] = NULL;
	x->n--;
	for (j = i;;) {
		j = (j + 1) & mask;
		if (x->slot[j] == NULL)
			break;
		k = sd_index_hash(x->slot[j]->name) & mask;
		if (i <= j ? i < k && k <= j : i < k || k <= j)
			continue;
		x->slot[i] = x->slot[j];
		x->slot[j] = NULL;
		i = j;
	}
	x->tail = TAILQ_LAST(&m->sds, sd_list);
}

/*
 * The first sd named exactly (case-sensitively) `name`. The index is a
 * cache: built here when missing or out of step, hence the cast (models
 * come from model_new, never const objects; one thread uses a model).
 */
struct sd *
model_find_sd(const struct model *m, const char *name)
{
	struct model *mm = (struct model *)(uintptr_t)m;
	struct sd_index *x = mm->sd_index;

	if (x != NULL && x->tail != TAILQ_LAST(&m->sds, sd_list)) {
		sd_index_drop(mm);
		x = NULL;
	}
	if (x == NULL)
		x = mm->sd_index = sd_index_build(m);
	return (x->slot[sd_index_slot(x, name)]);
}

/* Find a wd by exact name. */
struct wd *
model_find_wd(const struct model *m, const char *name)
{
	struct wd *w;

	TAILQ_FOREACH(w, &m->wds, entry) {
		if (strcmp(w->name, name) == 0)
			return (w);
	}
	return (NULL);
}

/* Find an rd by exact name. */
struct rd *
model_find_rd(const struct model *m, const char *name)
{
	struct rd *r;

	TAILQ_FOREACH(r, &m->rds, entry) {
		if (strcmp(r->name, name) == 0)
			return (r);
	}
	return (NULL);
}

/* Find a host by label, case-insensitively as vdbench does. */
struct hd *
model_find_hd(const struct model *m, const char *name)
{
	struct hd *h;

	TAILQ_FOREACH(h, &m->hds, entry) {
		if (strcasecmp(h->name, name) == 0)
			return (h);
	}
	return (NULL);
}

/* vdbench wildcards: a trailing '*' means "starts with"; '*' is all. */
int
name_matches(const char *pattern, const char *name)
{
	size_t len = strlen(pattern);

	if (len > 0 && pattern[len - 1] == '*')
		return (strncmp(pattern, name, len - 1) == 0);
	return (strcmp(pattern, name) == 0);
}
