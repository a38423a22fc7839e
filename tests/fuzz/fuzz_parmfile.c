/* libFuzzer target: any bytes as a parmfile; parse and plan, never crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parmfile.h"
#include "plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strlist notes = { 0, NULL, 0 };
	struct parm_opts o;
	struct model *m = NULL;
	struct errmsg e;
	struct plan p;
	char *text = malloc(size + 1);

	memcpy(text, data, size);
	text[size] = '\0';
	memset(&o, 0, sizeof(o));
	o.elapsed_s = o.interval_s = o.warmup_s = -1;
	if (parmfile_load_buffer("fuzz", text, &o, &m, &notes, &e) == 0) {
		if (plan_build(m, &p, &e) == 0)
			plan_free(&p);
		model_free(m);
	}
	strlist_clear(&notes);
	free(text);
	return (0);
}
