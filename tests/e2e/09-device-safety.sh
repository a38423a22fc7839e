#!/bin/bash
# Writing to a block device that holds data is refused unless the sd says
# overwrite_data=yes, and a mounted one (or one under a mounted device)
# unless it also says allow_mounted_write=yes; reads are always allowed.
# Signatures are whatever libblkid knows: this test makes every kind
# Debian's tools (or the kind's documented layout) can put on a loop device
# over its own temporary file (never a real disk) and checks each refusal.
# Mount only in a private mount namespace of this test: a mount made in
# the host's namespace is copied into every namespace another process
# creates meanwhile (ip netns exec, unshare) and outlives our umount there,
# so the device would stay busy (and vdbc rightly refuse it).
if [ -z "${VDBC_E2E_PRIVATE_NS:-}" ] && [ "$(id -u)" = 0 ] &&
    unshare -m --propagation private true 2>/dev/null; then
	VDBC_E2E_PRIVATE_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null ||
    ! command -v mkfs.ext4 >/dev/null || ! command -v blkid >/dev/null ||
    ! command -v wipefs >/dev/null || [ ! -e /dev/loop-control ]; then
	echo "skip: needs root, /dev/loop-control, losetup, blkid, wipefs and mkfs.ext4"
	exit 77
fi
NSPID=""
SWAP=""
DM=""
teardown() {
	local l
	if [ -n "$NSPID" ]; then kill "$NSPID" 2>/dev/null; wait "$NSPID" 2>/dev/null; fi
	umount "$T/mnt" 2>/dev/null
	[ -n "$SWAP" ] && swapoff "$SWAP" 2>/dev/null
	[ -n "$DM" ] && dmsetup remove "$DM" 2>/dev/null
	# Newest first: a loop device layered on another goes before it.
	for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done
	cleanup
}
trap teardown EXIT
LOOPS=""	# in this shell, not in $T: teardown must work without $T
newloop() {	# newloop VAR FILE: attach FILE, VAR = the device ("" if none)
	local l
	l=$(timeout 20 losetup -f --show "$2" 2>/dev/null) || l=""
	[ -n "$l" ] && LOOPS="$l $LOOPS"
	printf -v "$1" '%s' "$l"
}
droploop() {	# detach now, and not again in teardown (the name may be reused)
	local l rest=""
	losetup -d "$1"
	for l in $LOOPS; do [ "$l" = "$1" ] || rest="$rest $l"; done
	LOOPS=$rest
}
truncate -s 64M "$T/disk.img"
newloop loop "$T/disk.img"
if [ -z "$loop" ]; then
	echo "skip: cannot make a loop device here"
	exit 77
fi
mkfs.ext4 -q -F "$loop"

run() {	# run RDPCT [EXTRA [LUN]]: a short run on the loop device
	local lun=${3:-$loop} of=""
	# vdbench's Linux rule: a /dev/ lun needs an open flag (o_direct)
	case $lun in /dev/*) of=",openflags=o_direct" ;; esac
	printf 'sd=sd1,lun=%s%s%s\nwd=wd1,sd=sd1,rdpct=%s\nrd=rd1,wd=wd1,iorate=200,elapsed=2,interval=1\n' \
		"$lun" "$of" "${2:-}" "$1" >"$T/l.parm"
	timeout 60 "$VDBC" -f "$T/l.parm" -o "$T/o" --port 0 --seed 1 >"$T/out" 2>&1
}
blank() {	# remove every signature from the loop device
	local i
	# wipefs opens it O_EXCL: wait out a mount that is still going away.
	for i in $(seq 100); do
		timeout 20 wipefs -a -q "$loop" 2>/dev/null && break
		sleep 0.1
	done
	dd if=/dev/zero of="$loop" bs=1M count=2 conv=notrunc status=none
}
writes() {	# write I/Os per second of the last run's avg line
	awk '$4 ~ /^avg_/ { print $5 }' "$T/o/flatfile.html"
}

run 0
[ $? = 157 ] && ok || bad "a write to an ext4 device was not refused"
expect_out "sd=sd1,lun=$loop: refusing to write: signature check: libblkid finds ext4 (filesystem"
expect_out "add overwrite_data=yes to sd=sd1"
grep -q "refusing to write" "$T/o/errorlog.html" && ok || bad "errorlog.html lacks the refusal"

run 100
[ $? = 0 ] && ok || { bad "reading an ext4 device was refused"; cat "$T/out"; }

# Mounted: overwrite_data=yes alone is not enough; both keywords are.
mkdir -p "$T/mnt"
if mount "$loop" "$T/mnt" 2>/dev/null; then
	run 0
	[ $? = 157 ] && ok || bad "a write to a mounted device was not refused"
	expect_out "refusing to write: mount check: $loop is mounted on $T/mnt"
	run 0 ",overwrite_data=yes"
	[ $? = 157 ] && ok || bad "overwrite_data=yes wrote a mounted device"
	expect_out "mount check: $loop is mounted on $T/mnt"
	expect_out "add overwrite_data=yes,allow_mounted_write=yes to sd=sd1"
	run 0 ",allow_mounted_write=yes"
	[ $? = 157 ] && ok || bad "allow_mounted_write=yes alone wrote a mounted device"
	# The file under the loop device is the same blocks.
	run 0 ",overwrite_data=yes" "$T/disk.img"
	[ $? = 157 ] && ok || bad "the backing file of a mounted loop device was written"
	expect_out "mount check: ${loop#/dev/} (loop device on $T/disk.img) is mounted on $T/mnt"

	# A loop device layered on the mounted one writes the same blocks.
	newloop over "$loop"
	if [ -n "$over" ]; then
		run 0 ",overwrite_data=yes" "$over"
		[ $? = 157 ] && ok || bad "a loop device over a mounted device was written"
		expect_out "mount check: ${loop#/dev/} (backing device of ${over#/dev/}) is mounted on $T/mnt"
		expect_out "allow_mounted_write=yes"
		droploop "$over"
	else
		echo "note: cannot layer a loop device on a loop device here"
	fi

	# Both keywords: the write happens (the last 10% of the device, so
	# the file system survives to be unmounted).
	run 0 ",range=(90,100),overwrite_data=yes,allow_mounted_write=yes"
	[ $? = 0 ] && ok || { bad "both keywords did not allow the write"; cat "$T/out"; }
	w=$(writes)
	awk -v r="$w" 'BEGIN { exit !(r > 100) }' && ok || bad "no writes with both keywords ($w)"
	umount "$T/mnt"
else
	echo "note: cannot mount here; the mounted cases are not tested"
fi

# A loop device layered on the lun is another user of it (holder check).
newloop over "$loop"
if [ -n "$over" ]; then
	run 0
	[ $? = 157 ] && ok || bad "a device under a loop device was written"
	expect_out "holder check: ${over#/dev/} (loop device on ${loop#/dev/}) uses it"
	droploop "$over"
fi
# A device-mapper target on it is a sysfs holder (when this kernel has dm).
DM=vdbc-e2e-$$
if command -v dmsetup >/dev/null && [ -e /dev/mapper/control ] &&
    timeout 20 dmsetup create "$DM" --table "0 8192 linear $loop 0" 2>/dev/null; then
	run 0
	[ $? = 157 ] && ok || bad "a device under a dm target was written"
	expect_out "(holder of ${loop#/dev/}) uses it"
	timeout 20 dmsetup remove "$DM"
else
	echo "note: no device-mapper here; the dm holder is not tested"
fi
DM=""
# So is a loop device on a file lun; a file no loop device reads is the
# user's own.
run 0 "" "$T/disk.img"
[ $? = 157 ] && ok || bad "the backing file of a loop device was written"
expect_out "holder check: ${loop#/dev/} (loop device on $T/disk.img) uses it"
expect_out "add overwrite_data=yes to sd=sd1"
truncate -s 8M "$T/plain.img"
run 0 "" "$T/plain.img"
[ $? = 0 ] && ok || { bad "a file no loop device reads was refused"; cat "$T/out"; }

run 0 ",overwrite_data=yes"
[ $? = 0 ] && ok || { bad "overwrite_data=yes did not allow the write"; cat "$T/out"; }
w=$(writes)
awk -v r="$w" 'BEGIN { exit !(r > 100) }' && ok || bad "no writes with overwrite_data=yes ($w)"

# A mount in another mount namespace is not in our mountinfo; the
# exclusive-open check still sees it.
if command -v unshare >/dev/null; then
	mkdir -p "$T/mnt2"
	mkfs.ext4 -q -F "$loop"
	unshare -m --propagation private sh -c \
		"mount $loop $T/mnt2 && echo mounted >$T/ns && exec sleep 60" &
	NSPID=$!
	if wait_for "$T/ns" mounted 10; then
		run 0 ",overwrite_data=yes"
		[ $? = 157 ] && ok || bad "a device mounted in another namespace was written"
		expect_out "exclusive check: $loop is opened exclusively (O_EXCL)"
		expect_out "allow_mounted_write=yes"
	else
		echo "note: cannot mount in a private namespace; not tested"
	fi
	kill "$NSPID" 2>/dev/null
	wait "$NSPID" 2>/dev/null
	NSPID=""
fi

# A program that keeps an exclusive flock on the device node (systemd's
# convention while a tool rewrites a device) is waited for 5 s, then named.
if command -v flock >/dev/null; then
	# One process (the subshell becomes sleep) holds the lock: kill ends it.
	(exec 9<"$loop" && flock -x 9 && echo locked >"$T/lk" && exec sleep 30) &
	LKPID=$!
	PIDS="$PIDS $LKPID"
	if wait_for "$T/lk" locked 10; then
		run 0 ",overwrite_data=yes"
		[ $? = 157 ] && ok || bad "a device another program keeps locked was written"
		expect_out "exclusive check: $loop stays locked (flock) by another program"
	fi
	kill "$LKPID" 2>/dev/null
	wait "$LKPID" 2>/dev/null
fi

# Active swap counts as mounted: overwrite_data=yes is not enough.
if command -v swapon >/dev/null && mkswap "$loop" >/dev/null 2>&1 &&
    swapon "$loop" 2>/dev/null; then
	SWAP=$loop
	run 0 ",overwrite_data=yes"
	[ $? = 157 ] && ok || bad "active swap was written"
	expect_out "mount check: $loop is active swap space (/proc/swaps)"
	expect_out "allow_mounted_write=yes"
	swapoff "$loop"
	SWAP=""
else
	echo "note: cannot swapon a loop device here; active swap is not tested"
fi

blank
run 0
[ $? = 0 ] && ok || { bad "a blank device was refused"; cat "$T/out"; }
# What vdbc wrote is no signature: a second run writes again.
run 0
[ $? = 0 ] && ok || { bad "a device vdbc wrote was refused"; cat "$T/out"; }

# One signature kind after the other. refused TYPE: blkid sees TYPE on the
# device, and vdbc refuses the write naming it.
le32() {
	local v=$1
	printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) \
		$(((v >> 8) & 255)) $(((v >> 16) & 255)) $(((v >> 24) & 255)))"
}
poke() {	# poke OFFSET: write stdin at byte OFFSET of the device
	dd of="$loop" bs=1 seek="$1" conv=notrunc status=none
}
refused() {
	local want=$1 got
	got=$(blkid -p -o export "$loop" 2>/dev/null | sed -n 's/^\(PT\)\{0,1\}TYPE=//p' | head -1)
	if [ "$got" != "$want" ]; then
		bad "blkid -p finds '$got' on the device, wanted '$want' (test setup)"
		return
	fi
	run 0
	if [ $? = 157 ] && grep -qF "signature check: libblkid finds $want (" "$T/out" &&
	    grep -qF "add overwrite_data=yes to sd=sd1" "$T/out"; then
		ok
		echo "refused: blkid TYPE=$want: $(grep -o 'libblkid finds [^.]*' "$T/out" | head -1)"
	else
		bad "a write over $want was not refused"
		cat "$T/out"
	fi
}

blank; mkfs.ext4 -q -F "$loop"; refused ext4
blank; mkswap -q "$loop" >/dev/null 2>&1 || mkswap "$loop" >/dev/null; refused swap
if command -v pvcreate >/dev/null; then
	blank
	if timeout 30 pvcreate -q -ff -y --config 'devices { filter=["a|.*|"] use_devicesfile=0 }' \
	    "$loop" >/dev/null 2>&1 ||
	    timeout 30 pvcreate -q -ff -y "$loop" >/dev/null 2>&1; then
		refused LVM2_member
	else
		echo "note: pvcreate failed here; LVM is not tested"
	fi
	# pvcreate may have started lvm's cache; nothing of it stays on the device.
else
	echo "note: no pvcreate (lvm2); LVM is not tested"
fi
blank
if [ -e /proc/mdstat ] && command -v mdadm >/dev/null; then
	truncate -s 64M "$T/md2.img"
	newloop l2 "$T/md2.img"
	if timeout 30 mdadm --create /dev/md/vdbce2e --metadata=1.2 --level=1 \
	    --raid-devices=2 "$loop" "$l2" --run >/dev/null 2>&1; then
		timeout 30 mdadm --stop /dev/md/vdbce2e >/dev/null 2>&1
	fi
fi
if ! blkid -p -o export "$loop" | grep -q linux_raid_member; then
	# No md in this kernel (no /proc/mdstat): mdadm cannot create an
	# array, so write the md 1.2 superblock itself: magic 0xa92b4efc,
	# major version 1, the set name, super_offset 8 sectors, at 4 KiB.
	echo "note: no md in this kernel; writing an md 1.2 superblock by hand"
	{ le32 0xa92b4efc; le32 1; } | poke 4096
	printf 'vdbc-e2e:0' | poke $((4096 + 32))
	{ le32 1; le32 0; } | poke $((4096 + 72))	# level 1
	{ le32 0; le32 2; } | poke $((4096 + 88))	# 2 raid disks
	{ le32 8; le32 0; } | poke $((4096 + 144))	# super_offset
fi
refused linux_raid_member
if command -v genisoimage >/dev/null || command -v xorriso >/dev/null; then
	blank
	mkdir -p "$T/iso"
	echo "vdbc" >"$T/iso/readme.txt"
	if command -v genisoimage >/dev/null; then
		genisoimage -quiet -V VDBC -o "$T/image.iso" "$T/iso" 2>/dev/null
	else
		xorriso -as mkisofs -quiet -V VDBC -o "$T/image.iso" "$T/iso" 2>/dev/null
	fi
	dd if="$T/image.iso" of="$loop" bs=64k conv=notrunc status=none
	refused iso9660
else
	echo "note: no genisoimage or xorriso; iso9660 is not tested"
fi
# Oracle ASM (asmlib): "ORCLDISK" at byte 32, the disk's label after it.
blank; printf 'ORCLDISKVDBCE2E1' | poke 32; refused oracleasm
# ZFS: libblkid wants 4 uberblocks (magic 0x00bab10c, then the version)
# in the 128 KiB uberblock area of a vdev label; label 0 is at byte 0.
blank
for i in 0 1 2 3; do
	{ le32 0x00bab10c; le32 0; le32 5000; le32 0; } | poke $((128 * 1024 + i * 1024))
done
refused zfs_member
# A DOS partition table: one Linux partition from sector 2048, 0x55aa.
blank
{ printf '\x00\x20\x21\x00\x83\xfe\xff\xff'; le32 2048; le32 8192; } | poke 446
printf '\x55\xaa' | poke 510
refused dos

# vdbench's Linux slave (SD_entry.openOneSd): a lun under /dev/ opened
# with no open flag would measure the page cache; the slave aborts before
# any I/O, in vdbench's words. Any open flag (o_dsync here) lets it run,
# as vdbench's rule has it.
blank
nd() {	# nd FLAGS: the parmfile, the lun with FLAGS
	printf 'sd=sd1,lun=%s%s\nwd=wd1,sd=sd1,rdpct=0\nrd=rd1,wd=wd1,iorate=200,elapsed=2,interval=1\n' "$loop" "$1" >"$T/nd.parm"
}
nd ""
before=$(md5sum <"$loop")
expect_rc 157 "$VDBC" -f "$T/nd.parm" -o "$T/o_nd" --port 0 --seed 1
expect_out "* Slave localhost-0 aborting: On Linux 'openflags=o_direct' is required for any lun starting with '/dev/': $loop *"
expect_out "Slave aborted. Abort message received: "
grep -q "Starting RD=rd1" "$T/out" && bad "a /dev/ lun without o_direct started its run" || ok
[ "$(md5sum <"$loop")" = "$before" ] && ok || bad "a /dev/ lun without o_direct was written"
expect_rc 0 "$VDBC" -s -f "$T/nd.parm"
nd ",openflags=o_dsync"
expect_rc 0 "$VDBC" -f "$T/nd.parm" -o "$T/o_nd2" --port 0 --seed 1
finish
