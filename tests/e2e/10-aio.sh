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
# engine=sync overrides the default.
sed -i 's/threads=16$/threads=16,engine=sync/' "$T/a.parm"
expect_rc 0 "$VDBC" -s -f "$T/a.parm" -o "$T/o2"
finish
