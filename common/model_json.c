/* SPDX-License-Identifier: MIT */
/*
 * Model codec. Each entry is encoded and decoded by its field table
 * (model_fields.c); this file walks the entry lists. Encoding cannot fail;
 * decoding validates shapes and types (values were validated by the parser
 * that built the model on the other side, but a peer is never trusted to
 * have done so).
 */
#include "model_json.h"

#include <stdlib.h>
#include <string.h>

#include "model_fields.h"

/* An array of the entries of one list, each by its table. */
#define LIST_TO_JSON(a, head, T, desc) do {				\
	const struct T *e_;						\
									\
	TAILQ_FOREACH(e_, head, entry)					\
		json_array_append_new(a, fields_to_json(desc, e_));	\
} while (0)

/* The whole model. */
json_t *
model_to_json(const struct model *m)
{
	json_t *hds = json_array(), *sds = json_array(), *wds = json_array();
	json_t *rds = json_array(), *fsds = json_array(), *fwds = json_array();

	LIST_TO_JSON(hds, &m->hds, hd, &hd_desc);
	LIST_TO_JSON(sds, &m->sds, sd, &sd_desc);
	LIST_TO_JSON(wds, &m->wds, wd, &wd_desc);
	LIST_TO_JSON(rds, &m->rds, rd, &rd_desc);
	LIST_TO_JSON(fsds, &m->fsds, fsd, &fsd_desc);
	LIST_TO_JSON(fwds, &m->fwds, fwd, &fwd_desc);
	return (json_pack("{s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
	    "model_version", 1, "general",
	    fields_to_json(&general_desc, &m->general),
	    "hd", hds, "sd", sds, "wd", wds, "rd", rds, "fsd", fsds,
	    "fwd", fwds, "wd_default", m->wd_default != NULL ?
	    fields_to_json(&wd_desc, m->wd_default) : json_null()));
}

/* One entry of a kind: its defaults, then every field of j. */
static void *
entry_from_json(const struct entry_desc *ed, const json_t *j,
    struct errmsg *e)
{
	void *x = model_entry_new(ed, "");

	if (fields_from_json(ed, x, j, e) != 0) {
		model_entry_free(ed, x);
		return (NULL);
	}
	return (x);
}

/* Decode the array a of one kind onto the tail of head; -1 on error. */
#define LIST_FROM_JSON(head, a, T) do {					\
	json_t *v_;							\
	size_t i_;							\
									\
	if (!json_is_array(a)) {					\
		errmsg_set(e, NULL, 0, 0, "model: %s: not an array",	\
		    #T);						\
		goto fail;						\
	}								\
	json_array_foreach(a, i_, v_) {					\
		struct T *x_ = entry_from_json(&T##_desc, v_, e);	\
									\
		if (x_ == NULL)						\
			goto fail;					\
		TAILQ_INSERT_TAIL(head, x_, entry);			\
	}								\
} while (0)

/* The whole model; NULL with e filled on any bad field. */
struct model *
model_from_json(const json_t *j, struct errmsg *e)
{
	json_t *gen, *hds, *sds, *wds, *rds, *fsds, *fwds, *wdd;
	struct model *m;
	json_error_t je;
	int version;

	if (json_unpack_ex((json_t *)j, &je, 0, "{s:i,s:o,s:o,s:o,s:o,s:o,"
	    "s:o,s:o,s:o}", "model_version", &version, "general", &gen,
	    "hd", &hds, "sd", &sds, "wd", &wds, "rd", &rds, "fsd", &fsds,
	    "fwd", &fwds, "wd_default", &wdd) != 0) {
		errmsg_set(e, NULL, 0, 0, "model: model: %s", je.text);
		return (NULL);
	}
	if (version != 1) {
		errmsg_set(e, NULL, 0, 0, "model: unknown model_version %d",
		    version);
		return (NULL);
	}
	m = model_new();
	if (fields_from_json(&general_desc, &m->general, gen, e) != 0)
		goto fail;
	LIST_FROM_JSON(&m->hds, hds, hd);
	LIST_FROM_JSON(&m->sds, sds, sd);
	LIST_FROM_JSON(&m->wds, wds, wd);
	LIST_FROM_JSON(&m->rds, rds, rd);
	LIST_FROM_JSON(&m->fsds, fsds, fsd);
	LIST_FROM_JSON(&m->fwds, fwds, fwd);
	if (!json_is_null(wdd) && (m->wd_default = entry_from_json(&wd_desc,
	    wdd, e)) == NULL)
		goto fail;
	return (m);
fail:
	model_free(m);
	return (NULL);
}
