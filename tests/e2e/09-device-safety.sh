#!/bin/bash
# Writing to a block device that holds data is refused unless the sd says
# overwrite_data=yes; reads are always allowed. On a loop device this test
# makes over its own temporary file (never a real disk).
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null ||
    ! command -v mkfs.ext4 >/dev/null; then
	echo "skip: needs root, losetup and mkfs.ext4"
	exit 77
fi
dd if=/dev/zero of="$T/disk.img" bs=1M count=64 status=none
loop=$(losetup -f --show "$T/disk.img" 2>/dev/null)
if [ -z "$loop" ]; then
	echo "skip: cannot make a loop device here"
	exit 77
fi
trap 'umount "$T/mnt" 2>/dev/null; losetup -d "$loop"; cleanup' EXIT
mkfs.ext4 -q -F "$loop"

run() {	# run RDPCT [EXTRA]: a short run on the loop device
	printf 'sd=sd1,lun=%s%s\nwd=wd1,sd=sd1,rdpct=%s\nrd=rd1,wd=wd1,iorate=200,elapsed=2,interval=1\n' \
		"$loop" "${2:-}" "$1" >"$T/l.parm"
	timeout 60 "$VDBC" -f "$T/l.parm" -o "$T/o" --port 0 >"$T/out" 2>&1
}

run 0
[ $? = 157 ] && ok || bad "a write to an ext4 device was not refused"
expect_out "sd=sd1,lun=$loop: refusing to write: it holds an ext2/3/4 file system"
expect_out "add overwrite_data=yes to sd=sd1"
grep -q "refusing to write" "$T/o/errorlog.html" && ok || bad "errorlog.html lacks the refusal"

run 100
[ $? = 0 ] && ok || { bad "reading an ext4 device was refused"; cat "$T/out"; }

mkdir -p "$T/mnt"
if mount "$loop" "$T/mnt" 2>/dev/null; then
	run 0
	[ $? = 157 ] && ok || bad "a write to a mounted device was not refused"
	expect_out "it is mounted on $T/mnt"
	umount "$T/mnt"
else
	echo "note: cannot mount here; the mounted case is not tested"
fi

run 0 ",overwrite_data=yes"
[ $? = 0 ] && ok || { bad "overwrite_data=yes did not allow the write"; cat "$T/out"; }
w=$(awk '$4 == "avg_2-2" { print $5 }' "$T/o/flatfile.html")
awk -v r="$w" 'BEGIN { exit !(r > 100) }' && ok || bad "no writes with overwrite_data=yes ($w)"

wipefs -a -q "$loop" 2>/dev/null || dd if=/dev/zero of="$loop" bs=1M count=1 status=none
run 0
[ $? = 0 ] && ok || { bad "a blank device was refused"; cat "$T/out"; }
finish
