/* libFuzzer target: any bytes as a frame stream; never crash. */
#include <stddef.h>
#include <stdint.h>

#include "frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct frame_hdr h;
	struct errmsg e;
	size_t n;

	for (n = 0; n <= size; n++)
		if (frame_decode(data, n, &h, &e) != 0)
			break;
	return (0);
}
