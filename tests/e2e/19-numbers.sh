#!/bin/bash
# Silent wrong numbers (issue 13, section 5): every number a report
# prints comes from what was measured in the span it names.
. "$(dirname "$0")/lib.sh"

# 1. An interval's percentile max is that interval's own max (it was the
# run's running max), and the avg's excludes the warm-up.
dd if=/dev/zero of="$T/f1" bs=1M count=8 status=none
printf 'sd=sd1,lun=%s/f1,size=8m\nwd=wd1,sd=sd1,xfersize=4k,rdpct=70\nrd=rd1,wd=wd1,iorate=max,elapsed=8,warmup=2,interval=1,threads=2\n' "$T" >"$T/p1.parm"
expect_rc 0 "$VDBC" -f "$T/p1.parm" -o "$T/o1" --port 0 --seed 1
jq -r '.runs[0].intervals[] | "\(.interval) \(.resp_max_ms) \(.percentiles_ms.all.max)"' "$T/o1/results.json" >"$T/max1"
# The max column counts by completion time, the histograms by when the
# slave took its snapshot, so an I/O at an interval's edge may land in
# different intervals of the two: allow 2 of 10 to differ. The running
# max (the defect) differs in every interval after a higher one.
awk '{ n++; d = $2 - $3; if (d < 0) d = -d; if (d > $2 / 64) bad++; if ($3 + 0 < run) below++; if ($3 + 0 > run) run = $3 + 0 }
	END { printf "per-interval max: %d intervals, %d differ from the max column, %d below the running max\n", n, bad, below
	      exit !(n == 10 && bad <= 2) }' "$T/max1" && ok || bad "interval percentile max is not the interval's max"
a=$(jq -r '.runs[0].average.percentiles_ms.all.max' "$T/o1/results.json")
w=$(jq -r '[.runs[0].intervals[2:][] | .percentiles_ms.all.max] | max' "$T/o1/results.json")
awk -v a="$a" -v w="$w" 'BEGIN { exit !(a == w) }' && ok || bad "average max $a is not the max of the intervals after warm-up ($w)"
grep -q "vdbc: avg_3-10 response time percentiles (ms):.* max=$(printf %.3f "$a")" "$T/o1/summary.html" && ok ||
	bad "summary's percentile line max is not the avg's"

# 2. fsd=...,openflags=o_direct opens the files with O_DIRECT (it was
# parsed and ignored): on an ext4 loop device the timed read run's bytes
# reach the device, not the page cache the format just filled.
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null || ! command -v mkfs.ext4 >/dev/null; then
	echo "skipped case 2: needs root, losetup and mkfs.ext4 for an ext4 loop device"
else
	truncate -s 96m "$T/img"
	LOOP=$(losetup -f --show "$T/img" 2>/dev/null)
	if [ -z "$LOOP" ] || ! mkfs.ext4 -q "$LOOP" 2>/dev/null || ! mkdir -p "$T/mnt" || ! mount "$LOOP" "$T/mnt" 2>/dev/null; then
		echo "skipped case 2: cannot make or mount an ext4 loop device here"
	else
		dev=${LOOP#/dev/}
		fs='fsd=fsd1,anchor=%s/mnt/a,depth=1,width=1,files=4,size=8m%s\n'
		fw='fwd=fwd1,fsd=fsd1,operation=read,xfersize=64k,fileio=random,fileselect=random,threads=2\n'
		printf "$fs${fw}rd=rd1,fwd=fwd1,fwdrate=max,format=only,elapsed=2,interval=1\n" "$T" "" >"$T/f0.parm"
		expect_rc 0 "$VDBC" -f "$T/f0.parm" -o "$T/o2f" --port 0 --seed 2
		for flags in ",openflags=o_direct" ""; do
			printf "$fs${fw}rd=rd1,fwd=fwd1,fwdrate=max,format=no,elapsed=2,interval=1\n" "$T" "$flags" >"$T/f1.parm"
			before=$(awk '{ print $3 }' "/sys/block/$dev/stat")
			expect_rc 0 "$VDBC" -f "$T/f1.parm" -o "$T/o2${flags:+d}" --port 0 --seed 2
			after=$(awk '{ print $3 }' "/sys/block/$dev/stat")
			rb=$(jq '[.runs[-1].intervals[].read_bytes] | add' "$T/o2${flags:+d}/results.json")
			dev_b=$(((after - before) * 512))
			echo "fsd openflags='${flags#,}': $rb bytes read, $dev_b bytes at $dev"
			if [ -n "$flags" ]; then
				awk -v r="$rb" -v d="$dev_b" 'BEGIN { exit !(r > 0 && d >= 0.9 * r) }' && ok ||
					bad "fsd openflags=o_direct: $rb bytes read but only $dev_b reached the device"
			else
				# the control: without o_direct the page cache serves
				# them, so the check above can tell the two apart
				awk -v r="$rb" -v d="$dev_b" 'BEGIN { exit !(r > 0 && d < 0.5 * r) }' && ok ||
					bad "without o_direct $dev_b of $rb bytes reached the device: the o_direct check cannot tell"
			fi
		done
		umount "$T/mnt"
	fi
	[ -n "$LOOP" ] && losetup -d "$LOOP"
fi

finish
