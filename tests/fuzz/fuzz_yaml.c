/* libFuzzer target: any bytes as a YAML parmfile; never crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parmfile.h"
#include "parmyaml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strlist notes = { 0, NULL, 0 };
	struct pitems pi = { 0, NULL };
	struct plines lines = { 0, NULL };
	struct parm_opts o;
	struct model *m = NULL;
	struct errmsg e;
	char *text = malloc(size + 1);

	memcpy(text, data, size);
	text[size] = '\0';
	memset(&o, 0, sizeof(o));
	o.elapsed_s = o.interval_s = o.warmup_s = -1;
	if (parmyaml_read_text(&pi, &lines, "fuzz.yaml", text, &e) == 0 &&
	    parmfile_parse_items(&pi, &o, &m, &notes, &e) == 0)
		model_free(m);
	pitems_free(&pi);
	plines_free(&lines);
	strlist_clear(&notes);
	free(text);
	return (0);
}
