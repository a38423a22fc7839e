/* libFuzzer target: any bytes as a journal or map file for vdbc
 * printjournal (master/printjournal.c). It prints what it can read and
 * stops with an error at damage: never a crash, never a read past the
 * input, never a leak. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "printjournal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct timespec now = { 0, 0 };
	struct pj_opts o = { .find_lba = -1, .fixed_now = &now };
	FILE *in, *null;

	if (size == 0)
		return (0);	/* fmemopen refuses an empty buffer */
	in = fmemopen((void *)(uintptr_t)data, size, "rb");
	null = fopen("/dev/null", "w");
	if (in != NULL && null != NULL) {
		(void)printjournal_stream(in, "fuzz.jnl", &o, null, null);
		/* Same input with -l: the filtered path. */
		rewind(in);
		o.find_lba = 0x1000;
		(void)printjournal_stream(in, "fuzz.jnl", &o, null, null);
	}
	if (in != NULL)
		fclose(in);
	if (null != NULL)
		fclose(null);
	return (0);
}
