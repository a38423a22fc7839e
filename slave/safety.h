/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_SAFETY_H
#define SLAVE_SAFETY_H

#include <stddef.h>

/*
 * May a lun be written? Files always; a block device only when it is not
 * mounted, not held (dm, md, LVM, swap, an exclusive opener) and carries
 * no file-system, partition or volume signature, unless the sd gives
 * overwrite_data=yes (allowed). 0 = yes; -1 = no, with the reason.
 */
int	safety_check_write(const char *lun, int allowed, char *why,
	    size_t len);

#endif /* SLAVE_SAFETY_H */
