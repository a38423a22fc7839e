/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_SAFETY_H
#define SLAVE_SAFETY_H

#include <stddef.h>

/*
 * May a lun be written (DESIGN.md, Safety)? Files, unless a loop device
 * reads from one (then the mount and holder checks of what rests on it). A
 * block device,
 * and every device a loop device rests on, is checked for
 *   mount:      mounted (or a partition, holder or loop device on it is),
 *               active swap, a device of a mounted btrfs;
 *   holder:     held by another kernel user (sysfs holders: dm, md, LVM;
 *               a loop device layered on it);
 *   signature:  any superblock or partition table libblkid knows;
 *   exclusive:  opened exclusively by someone none of the above explains
 *               (a mount in another namespace, a ZFS pool, ...).
 * vdbc's own slaves never count as a user: nothing here holds the device
 * beyond a moment, and the exclusive-open test is serialised between
 * slaves with flock(2) on the device node.
 */
enum safety_verdict {
	SAFETY_OK = 0,
	SAFETY_NEEDS_OVERWRITE,	/* holder, signature: overwrite_data=yes */
	SAFETY_NEEDS_MOUNTED,	/* mount, exclusive: both keywords */
};

/*
 * overwrite: the sd's overwrite_data=yes; mounted_ok: its
 * allow_mounted_write=yes. On a refusal, why names the check and what it
 * found ("mount check: loop0 is mounted on /mnt").
 */
enum safety_verdict safety_check_write(const char *lun, int overwrite,
	    int mounted_ok, char *why, size_t len);

#endif /* SLAVE_SAFETY_H */
