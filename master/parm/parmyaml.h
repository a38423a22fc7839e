/* SPDX-License-Identifier: MIT */
#ifndef MASTER_PARMYAML_H
#define MASTER_PARMYAML_H

#include <stdio.h>

#include "errmsg.h"
#include "lexer.h"
#include "model.h"

/*
 * The YAML form of a parmfile (docs/parmfile.md): the same keywords,
 * grouped by section, read with libyaml into the same keyword stream as a
 * vdbench parmfile, so every check and message is the same:
 *
 *   general: { compratio: 1 }
 *   sd:
 *     - { sd: sd1, lun: /dev/sdb, size: 10g }
 *   wd:
 *     - { wd: wd1, sd: sd1, xfersize: 4k, rdpct: 70 }
 *   rd:
 *     - { rd: rd1, wd: wd1, iorate: max, elapsed: 60, forthreads: [1, 8] }
 */

/* Does this file name mean YAML (.yaml, .yml)? */
int	parmyaml_is_yaml(const char *file);
/* Read YAML files into items; lines keeps their text for messages. */
int	parmyaml_read(struct pitems *, struct plines *lines, int nfiles,
	    char *const files[], struct subvars *, struct errmsg *);
/* Read one YAML text; file names it in messages (tests, fuzzers). */
int	parmyaml_read_text(struct pitems *, struct plines *lines,
	    const char *file, const char *text, struct errmsg *);
/* Write a model in the YAML form; reading it back gives the same model. */
void	parmyaml_dump(const struct model *, FILE *);

#endif /* MASTER_PARMYAML_H */
