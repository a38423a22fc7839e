#!/bin/bash
# The io_uring engine (engine=io_uring on an sd): one thread keeps
# threads= I/Os in flight through liburing, on a file under the test's
# directory, with o_direct where the file system has it, else buffered.
# The mix, fixed rates and the data written hold as with aio; a name the
# table lacks is refused naming the engines there are.
. "$(dirname "$0")/lib.sh"
flags=""
if dd if=/dev/zero of="$T/probe" bs=4k count=1 oflag=direct status=none 2>/dev/null; then
	flags=",openflags=o_direct"
else
	echo "note: no O_DIRECT on $T (tmpfs?): buffered io_uring"
fi
cat >"$T/u.parm" <<P
sd=sd1,lun=$T/f1,size=16m,engine=io_uring,threads=16$flags
wd=wd1,sd=sd1,xfersize=4k,rdpct=70
rd=rd1,wd=wd1,iorate=max,elapsed=3,interval=1
rd=rd2,wd=wd1,iorate=1000,elapsed=4,interval=1
P
timeout 60 "$VDBC" -f "$T/u.parm" -o "$T/o" --port 0 --seed 11 >"$T/m" 2>&1 &
mpid=$!
PIDS="$PIDS $mpid"
# While it runs: the slave does the I/O through an io_uring ring, from
# one I/O thread (not threads=16 of them).
uring=0 tasks=0
if wait_for "$T/m" "Starting RD=rd1" 30 && sleep 1; then
	for p in $(slave_pids "$T/m"); do
		uring=$(ls -l /proc/"$p"/fd 2>/dev/null | grep -c 'io_uring')
		tasks=$(ls /proc/"$p"/task 2>/dev/null | wc -l)
	done
fi
wait "$mpid"
rc=$?
if [ $rc != 0 ] && grep -q "engine=io_uring cannot start" "$T/m"; then
	echo "skip: io_uring_queue_init fails here: $(grep -o "cannot start: .*" "$T/m" | head -1)"
	exit 77
fi
[ $rc = 0 ] && ok || { bad "io_uring run exit $rc"; cat "$T/m"; }
[ "$uring" -ge 1 ] && ok || bad "the slave had no io_uring ring open"
[ "$tasks" -ge 1 ] && [ "$tasks" -lt 8 ] && ok || bad "the slave ran $tasks threads for one io_uring sd"
r1=$(awk '$3 == "rd1" && $4 == "avg_2-3" { print $9 }' "$T/o/flatfile.html")
awk -v r="$r1" 'BEGIN { exit !(r >= 68 && r <= 72) }' && ok || bad "io_uring read% $r1"
n1=$(awk '$3 == "rd1" && $4 == "avg_2-3" { print $6 }' "$T/o/flatfile.html")
awk -v r="$n1" 'BEGIN { exit !(r > 0) }' && ok || bad "io_uring did no I/O ($n1)"
q=$(awk '$3 == "rd1" && $4 == "avg_2-3" { print $25 }' "$T/o/flatfile.html")
awk -v q="$q" 'BEGIN { exit !(q > 1.5) }' && ok || bad "io_uring kept only $q I/Os in flight"
rate=$(awk '$3 == "rd2" && $4 == "avg_2-4" { print $6 }' "$T/o/flatfile.html")
if [ "${VDBC_SANITIZED:-0}" = 1 ]; then
	echo "skip: rate accuracy not asserted in a sanitizer build ($rate)"
else
	awk -v r="$rate" 'BEGIN { exit !(r >= 950 && r <= 1050) }' && ok || bad "io_uring iorate=1000 gave $rate"
fi
# Data written: the lun is all there and not zeros (the write pattern).
[ "$(stat -c %s "$T/f1")" = $((16 * 1024 * 1024)) ] && ok || bad "lun size $(stat -c %s "$T/f1")"
nz=$(od -An -v -tx1 -N 1048576 -j 8388608 "$T/f1" | tr -s ' ' '\n' | grep -vc '^00$\|^$')
[ "$nz" -gt 100000 ] && ok || bad "only $nz non-zero bytes in the middle MiB of the lun"
# No I/O errors: the error log ends at its header.
n=$(grep -c 'failed:' "$T/o/errorlog.html")
[ "$n" = 0 ] && ok || bad "$n I/O errors: $(grep -m1 failed: "$T/o/errorlog.html")"
# An unknown engine names the ones there are.
sed 's/engine=io_uring/engine=uring/' "$T/u.parm" >"$T/bad.parm"
expect_rc 157 "$VDBC" -s -f "$T/bad.parm" -o "$T/o2"
expect_out "expected aio, io_uring, sync or null"
finish
