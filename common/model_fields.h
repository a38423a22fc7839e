/* SPDX-License-Identifier: MIT */
#ifndef COMMON_MODEL_FIELDS_H
#define COMMON_MODEL_FIELDS_H

#include <stddef.h>

#include <jansson.h>

#include "errmsg.h"

/*
 * The fields of each model entry kind, described once (redis config.c and
 * fio options.c style): JSON name, type, offset, default, bounds, flags and
 * how the YAML dump writes it. The descriptors drive the defaults of the
 * *_new() constructors, the deep copies and frees (model.c), both
 * directions of the JSON codec (model_json.c) and the YAML dump
 * (master/parmyaml.c). A field that is not a scalar (lists, transfer
 * sizes, for-loops, histogram edges) has type FT_CUSTOM and a codec of its
 * own. Adding a typed keyword is one struct member plus one row here.
 */

enum field_type {
	FT_BOOL,	/* int 0/1; JSON true/false */
	FT_INT,		/* int; JSON integer */
	FT_U32,		/* uint32_t; JSON integer */
	FT_U64,		/* uint64_t; JSON integer, >= 0 */
	FT_DOUBLE,	/* double; JSON number */
	FT_STR,		/* char *; JSON string, null when NULL */
	FT_STRLIST,	/* struct strlist; JSON array of strings */
	FT_RANGE,	/* double[2]; JSON [low, high] */
	FT_DOUBLES,	/* double * with an int count at count_off */
	FT_ENUM,	/* int index into names[]; JSON string */
	FT_BAG,		/* struct bag; JSON object of value lists */
	FT_CUSTOM,	/* a codec of its own (struct field_codec) */
};

/* Flags of a field. */
#define F_NAME		0x01	/* the entry's name (YAML: "- sd: name") */
#define F_NONNULL	0x02	/* FT_STR: a string, never null */
#define F_OPTIONAL	0x04	/* decoding: may be missing (newer fields) */
#define F_NULLABLE	0x08	/* FT_DOUBLES: null when the array is NULL */
/*
 * Typed from a keyword that the entry's bag still carries too (until every
 * reader takes the typed field): the YAML dump leaves it to the bag.
 */
#define F_BAGCOPY	0x10

/* How the YAML dump writes a field (master/parmyaml.c). */
enum yaml_style {
	Y_NONE,		/* not written (part of another field's form) */
	Y_NUM,		/* "kw: <number>" always */
	Y_NUM_SET,	/* ... when the int at set_off is true */
	Y_UINT,		/* "kw: %llu" / "%u" / "%d" always */
	Y_UINT_NZ,	/* ... when not 0 */
	Y_UINT_SET,	/* ... when the int at set_off is true */
	Y_YESNO,	/* FT_INT -1 unset, 0 no, 1 yes */
	Y_WORD,		/* FT_BOOL: "kw: names[0]" when true; FT_STR: bare */
	Y_WORD_NN,	/* FT_STR bare when not NULL */
	Y_QSTR_NN,	/* FT_STR quoted when not NULL */
	Y_QSTR,		/* FT_STR quoted always ("" for NULL) */
	Y_STRS,		/* FT_STRLIST as [..] when not empty */
	Y_RANGE_SET,	/* FT_RANGE when the int at set_off is true */
	Y_RATES,	/* FT_DOUBLES as rd rates when not empty */
	Y_NUMS_NN,	/* FT_DOUBLES when not NULL */
	Y_ENUM_NZ,	/* FT_ENUM by name when not the first */
	Y_BAG,		/* FT_BAG: each keyword as kw: [..] */
	Y_HOOK,		/* the dump's own function for this kind of field */
};

struct field_desc;

/* The whole entry comes in: a custom field may span struct members. */
struct field_codec {
	void	 (*init)(void *entry, const struct field_desc *);
	void	 (*copy)(void *dst, const void *src,
		    const struct field_desc *);
	void	 (*clear)(void *entry, const struct field_desc *);
	json_t	*(*to_json)(const void *entry, const struct field_desc *);
	/* -1 when j has the wrong shape; the caller names the field. */
	int	 (*from_json)(void *entry, const struct field_desc *,
		    const json_t *j, struct errmsg *);
};

struct field_desc {
	const char			*name;		/* JSON key */
	enum field_type			 type;
	size_t				 off;
	double				 def;		/* numeric default */
	const char			*defstr;	/* FT_STR default */
	/* Inclusive bounds the parser checks; max < min: none. */
	double				 min, max;
	unsigned int			 flags;
	size_t				 aux_off;	/* set flag / count */
	const char *const		*names;		/* FT_ENUM, Y_WORD */
	const struct field_codec	*codec;		/* FT_CUSTOM */
	const char			*yaml;		/* the keyword */
	enum yaml_style			 ystyle;
};

/* One entry kind: its name and fields, in JSON (and YAML) order. */
struct entry_desc {
	const char		*name;
	size_t			 size;
	const struct field_desc	*fields;
	int			 nfields;
};

extern const struct entry_desc general_desc, hd_desc, sd_desc, wd_desc,
	    rd_desc, fsd_desc, fwd_desc;

/* A new entry of a named kind with its defaults; its free (model.c). */
void	*model_entry_new(const struct entry_desc *, const char *name);
void	 model_entry_free(const struct entry_desc *, void *entry);
/* Defaults, deep copy (every field, name included), free of contents. */
void	 fields_init(const struct entry_desc *, void *entry);
void	 fields_copy(const struct entry_desc *, void *dst, const void *src);
void	 fields_clear(const struct entry_desc *, void *entry);
/* The entry as a JSON object; decode into an entry with its defaults. */
json_t	*fields_to_json(const struct entry_desc *, const void *entry);
int	 fields_from_json(const struct entry_desc *, void *entry,
	    const json_t *, struct errmsg *);
/* The field of a kind by YAML keyword or JSON name; NULL if none. */
const struct field_desc *field_find(const struct entry_desc *,
	    const char *kw);
int	 field_in_bounds(const struct field_desc *, double v);
/* A field's member inside an entry. */
#define FIELD_PTR(entry, fd)	((void *)((char *)(entry) + (fd)->off))
#define FIELD_CPTR(entry, fd)	\
	((const void *)((const char *)(entry) + (fd)->off))

#endif /* COMMON_MODEL_FIELDS_H */
