#!/bin/bash
# The aio engine (libaio, the default with o_direct): one thread keeps
# threads= I/Os in flight; mix, fixed rates and errors as with sync.
. "$(dirname "$0")/lib.sh"
if ! dd if=/dev/zero of="$T/probe" bs=4k count=1 oflag=direct status=none 2>/dev/null; then
	echo "skip: no O_DIRECT on $T (tmpfs?)"
	exit 77
fi
cat >"$T/a.parm" <<P
sd=sd1,lun=$T/f1,size=16m,openflags=o_direct,threads=16
wd=wd1,sd=sd1,xfersize=4k,rdpct=70
rd=rd1,wd=wd1,iorate=max,elapsed=3,interval=1
rd=rd2,wd=wd1,iorate=1000,elapsed=4,interval=1
P
expect_rc 0 "$VDBC" -f "$T/a.parm" -o "$T/o" --port 0 --seed 11
r1=$(awk '$3 == "rd1" && $4 == "avg_2-3" { print $9 }' "$T/o/flatfile.html")
awk -v r="$r1" 'BEGIN { exit !(r >= 68 && r <= 72) }' && ok || bad "aio read% $r1"
q=$(awk '$3 == "rd1" && $4 == "avg_2-3" { print $25 }' "$T/o/flatfile.html")
awk -v q="$q" 'BEGIN { exit !(q > 1.5) }' && ok || bad "aio kept only $q I/Os in flight"
rate=$(awk '$3 == "rd2" && $4 == "avg_2-4" { print $6 }' "$T/o/flatfile.html")
if [ "${VDBC_SANITIZED:-0}" = 1 ]; then
	echo "skip: rate accuracy not asserted in a sanitizer build ($rate)"
else
	awk -v r="$rate" 'BEGIN { exit !(r >= 950 && r <= 1050) }' && ok || bad "aio iorate=1000 gave $rate"
fi
# An I/O error stops the run at once, not at the end of the interval: the
# I/O thread wakes the slave's loop (an eventfd), which sends the ERROR.
# interval=10; the file shrinks under the run, so reads fail short.
dd if=/dev/zero of="$T/fe" bs=1M count=4 status=none
printf 'data_errors=5\nsd=sd1,lun=%s/fe,size=4m,openflags=o_direct,threads=4\nwd=wd1,sd=sd1,rdpct=100\nrd=rd1,wd=wd1,iorate=200,elapsed=60,interval=10\n' "$T" >"$T/e.parm"
timeout 60 "$VDBC" -f "$T/e.parm" -o "$T/oe" --port 0 --seed 11 >"$T/me" 2>&1 &
mpid=$!
PIDS="$PIDS $mpid"
wait_for "$T/me" "Starting RD=rd1" 20 && ok || bad "error run did not start"
sleep 0.5
t0=$(date +%s%N)
truncate -s 0 "$T/fe"
wait "$mpid"
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ $rc = 157 ] && ok || { bad "I/O errors did not stop the aio run with 157 ($rc)"; cat "$T/me"; }
grep -qF "'data_errors=5' requested. Abort rd=" "$T/me" && ok || bad "data_errors=5 not reported"
if [ "${VDBC_SANITIZED:-0}" = 1 ]; then
	echo "skip: stop latency not asserted in a sanitizer build (${ms} ms)"
else
	[ "$ms" -lt 3000 ] && ok || bad "the run stopped ${ms} ms after the errors, not at once (interval=10)"
fi
# engine=sync overrides the default.
sed -i 's/threads=16$/threads=16,engine=sync/' "$T/a.parm"
expect_rc 0 "$VDBC" -s -f "$T/a.parm" -o "$T/o2"
finish
