#!/bin/bash
# Issue 6's statistical acceptance through the whole path (parmfile, slaves,
# reports), with a fixed seed and enough I/Os that noise cannot fail it:
# skew=(70,30) within 2 points (skew.html), rdpct=70 within 1 point and
# iorate=2000 within 3 % (flatfile avg line), over about 20,000 I/Os.
# Issue 13: a slave keeps stats only for the workloads its threads run, so
# 64 sds x 8 threads stay under 64 MB (was 2.7 GB), and the per-sd and
# per-wd counts still add up to the totals. A WORK that asks a slave for
# more threads or a larger xfersize than it runs is refused by name.
. "$(dirname "$0")/lib.sh"

printf 'sd=sd1,lun=%s/f1,size=16m,engine=null,threads=2\nwd=wd1,sd=sd1,skew=70,rdpct=70\nwd=wd2,sd=sd1,skew=30,rdpct=70\nrd=rd1,wd=wd*,iorate=2000,elapsed=11,interval=1\n' "$T" >"$T/sk.parm"
expect_rc 0 "$VDBC" -f "$T/sk.parm" -o "$T/o" --port 0 --seed 7
# skew.html: the rd1 section's wd lines and total.
sed -e 's/<[^>]*>//g' "$T/o/skew.html" | awk '
	/Starting RD=rd1;/ { on = 1 }
	on && $2 == "wd1" { w1 = $3 }
	on && $2 == "wd2" { w2 = $3 }
	on && $2 == "Total" { t = $3; on = 0 }
	END {
		p = t > 0 ? 100 * w1 / t : 0
		printf "skew: wd1 %.2f %% of %.1f/s (wd2 %.1f/s)\n", p, t, w2
		exit !(p >= 68 && p <= 72)
	}' && ok || bad "skew=(70,30) is not within 2 points"
# skew.html: requested against observed on the WD: row (vdbench's
# layout), the delta their difference (requested - observed), shown when
# 0.10 or more.
sed -e 's/<[^>]*>//g' "$T/o/skew.html" | awk '
	/Starting RD=rd1;/ { on = 1 }
	on && $2 == "WD:" && $13 == "requested" { cmp = 1; next }
	cmp && $2 == "wd1" { r = $13; o = $14; d = NF >= 15 ? $15 : "0%"; sub(/%/, "", r); sub(/%/, "", o); sub(/%/, "", d) }
	END {
		printf "skew.html wd1: requested %s observed %s delta %s\n", r, o, d
		r += 0; o += 0; d += 0
		exit !(r == 70 && o >= 68 && o <= 72 && (r - o - d) ^ 2 < 0.0001 + (d == 0) * 0.01)
	}' && ok || bad "skew.html lacks requested/observed/delta for wd1"
awk '$3 == "rd1" && $4 ~ /^avg_/ {
		printf "rate %.1f/s, read%% %.2f\n", $6, $9
		found = 1
		exit !($6 >= 1940 && $6 <= 2060 && $9 >= 69 && $9 <= 71)
	}
	END { if (!found) exit 1 }' "$T/o/flatfile.html" && ok || bad "iorate=2000 within 3 % or rdpct=70 within 1 point"
# avg_ rate and read% of an HTML report's rd1 section: "rate read%".
avg_of() {
	sed -e 's/<[^>]*>//g' "$1" | awk '/Starting RD=rd1;/ { on = 1 }
		on && $2 ~ /^avg_/ { print $3, $6; exit }'
}
# 64 sds x 8 threads (512 threads, 64 workloads), null engine, fixed rate:
# the slave's peak RSS (VmHWM) sampled from /proc while it runs.
: >"$T/mem.parm"
for i in $(seq 1 64); do
	echo "sd=sd$i,lun=$T/m$i,size=1m,engine=null,threads=8" >>"$T/mem.parm"
done
printf 'wd=wd1,sd=sd*,rdpct=50\nrd=rd1,wd=wd1,iorate=1280,elapsed=4,interval=1\n' >>"$T/mem.parm"
timeout 120 "$VDBC" -f "$T/mem.parm" -o "$T/mem" --port 0 --seed 7 >"$T/mem.out" 2>&1 &
m=$!
PIDS="$PIDS $m"
peak=0
while kill -0 "$m" 2>/dev/null; do
	for p in $(slave_pids "$T/mem.out"); do
		kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$p/status" 2>/dev/null)
		[ "${kb:-0}" -gt "$peak" ] && peak=$kb
	done
	sleep 0.2
done
wait "$m"
rc=$?
echo "64 sds x 8 threads: exit $rc, slave peak RSS $peak KiB"
[ "$rc" = 0 ] && ok || { bad "64 sds x 8 threads: exit $rc"; tail -5 "$T/mem.out"; }
if [ "${VDBC_SANITIZED:-0}" = 1 ]; then
	echo "skipped the 64 MB bound: the sanitizers inflate memory"
elif [ "$peak" -gt 0 ] && [ "$peak" -lt 65536 ]; then
	ok
else
	bad "the slave of 64 sds x 8 threads peaked at $peak KiB, not under 64 MB"
fi
# Every sd ran, and the sds' rates add up to the total (2 decimals each).
for i in $(seq 1 64); do avg_of "$T/mem/sd$i.html"; done | awk -v t="$(avg_of "$T/mem/summary.html")" '
	{ s += $1; if ($1 > 0) n++ }
	END { split(t, a, " "); printf "64 sds: %d ran, rates sum %.2f, total %.2f\n", n, s, a[1]
		exit !(n == 64 && a[1] > 0 && (s - a[1]) ^ 2 < 0.33 ^ 2) }' &&
	ok || bad "the 64 sds' rates do not add up to the total"

# Two workloads on each of two sds: each thread keeps them in its own
# slots; wd1 only reads and wd2 only writes, and sds and wds both add up.
printf 'sd=sd1,lun=%s/w1,size=1m,engine=null,threads=3\nsd=sd2,lun=%s/w2,size=1m,engine=null,threads=2\nwd=wd1,sd=sd*,rdpct=100,skew=60\nwd=wd2,sd=sd*,rdpct=0,skew=40\nrd=rd1,wd=wd*,iorate=1000,elapsed=4,interval=1\n' "$T" "$T" >"$T/two.parm"
expect_rc 0 "$VDBC" -f "$T/two.parm" -o "$T/two" --port 0 --seed 7
{
	avg_of "$T/two/summary.html"
	for f in sd1 sd2 wd1 wd2; do avg_of "$T/two/$f.html"; done
} | awk '
	{ r[NR] = $1; p[NR] = $2 }
	END {
		printf "total %.2f; sd1 %.2f sd2 %.2f; wd1 %.2f (read %s%%) wd2 %.2f (read %s%%)\n",
		    r[1], r[2], r[3], r[4], p[4], r[5], p[5]
		exit !(NR == 5 && r[2] > 0 && r[3] > 0 && r[4] > 0 && r[5] > 0 &&
		    (r[2] + r[3] - r[1]) ^ 2 < 0.02 ^ 2 &&
		    (r[4] + r[5] - r[1]) ^ 2 < 0.02 ^ 2 &&
		    p[4] == 100 && p[5] == 0)
	}' && ok || bad "per-sd and per-wd counts of two wds on two sds do not add up"
# Issue 26 item 2: skew= at iorate=max ("Controlled MAX") held across sds
# as vdbench holds it, each wd within 1 point of its skew (vdbench
# 5.04.06: 69.99/30.01 on two sds, 69.72/30.28 on two hosts of two
# slaves). sd1 has 2 threads and sd2 4, so without the hold wd2 takes
# most.
# Shares from the wds' avg rates (counts over the same intervals).
share_wd1() {
	local a b
	a=$(avg_of "$1/wd1.html"); b=$(avg_of "$1/wd2.html")
	echo "${a% *} ${b% *}" | awk '{ printf "%.2f", ($1 + $2 > 0 ? 100 * $1 / ($1 + $2) : 0) }'
}
held() {	# held NAME DIR: wd1 within 1 point of 70
	local p
	p=$(share_wd1 "$2")
	echo "$1: wd1 $p % (skew=70)"
	awk -v p="$p" 'BEGIN { exit !(p >= 69 && p <= 71) }' && ok ||
		bad "$1: wd1 ran $p % of the I/Os, not within 1 point of skew=70"
}
mx() {	# mx FILE HDLINES SD1HOST SD2HOST
	printf '%bsd=sd1%s,lun=%s/x1,size=1m,engine=null,threads=2\nsd=sd2%s,lun=%s/x2,size=1m,engine=null,threads=4\nwd=wd1,sd=sd1,rdpct=100,skew=70\nwd=wd2,sd=sd2,rdpct=100,skew=30\nrd=rd1,wd=wd*,iorate=max,elapsed=3,interval=1\n' \
	    "$2" "$3" "$T" "$4" "$T" >"$1"
}
two_hd='hd=default,jvms=1\nhd=hd1,system=localhost\nhd=hd2,system=localhost\n'
mx "$T/mx.parm" 'hd=default,jvms=1\n' "" ""
expect_rc 0 "$VDBC" -f "$T/mx.parm" -o "$T/mx1" --port 0 --seed 7
expect_out "I/O rate: Controlled MAX"
held "two sds, one slave" "$T/mx1"
expect_rc 0 "$VDBC" -f "$T/mx.parm" -o "$T/mx2" --port 0 --seed 7 -m 2
held "two sds, two slaves" "$T/mx2"
mx "$T/mh.parm" "$two_hd" "" ""
expect_rc 0 "$VDBC" -f "$T/mh.parm" -o "$T/mh" --port 0 --seed 7
held "two sds, two hosts" "$T/mh"
# Each sd on one host only: no slave runs both wds, so no slave's own
# gate can hold the skew (vdbench: 54.14/45.86, with its "Observed
# Workload skew" box); vdbc's master holds it across them (skewsync.h).
mx "$T/ms.parm" "$two_hd" ",host=hd1" ",host=hd2"
expect_rc 0 "$VDBC" -f "$T/ms.parm" -o "$T/ms" --port 0 --seed 7
held "each sd on its own host" "$T/ms"
grep -q "Observed Workload skew" "$T/ms/summary.html" &&
	bad "summary.html has the skew box of a run that held its skew" || ok
# The same split by placement (issue 26, D2): sd1's one thread on one
# slave, sd2's eight on both, skew 99/1 (vdbench 82.98/17.02).
printf 'sd=sd1,lun=%s/y1,size=1m,engine=null,threads=1\nsd=sd2,lun=%s/y2,size=1m,engine=null,threads=8\nwd=wd1,sd=sd1,rdpct=100,skew=99\nwd=wd2,sd=sd2,rdpct=100,skew=1\nrd=rd1,wd=wd*,iorate=max,elapsed=3,interval=1\n' "$T" "$T" >"$T/d2.parm"
expect_rc 0 "$VDBC" -f "$T/d2.parm" -o "$T/d2" --port 0 --seed 7
expect_out "Adjusted default JVM count for host=localhost from jvms=1 to jvms=2"
p=$(share_wd1 "$T/d2")
echo "threads 1 and 8 on two slaves: wd1 $p % (skew=99)"
awk -v p="$p" 'BEGIN { exit !(p >= 98 && p <= 100) }' && ok ||
	bad "threads 1 and 8: wd1 ran $p % of the I/Os, not within 1 point of skew=99"
# File system, fwdrate=max: fwd skew 70/30 gives 70 % reads (vdbench 5.04.06
# on parmfiles/fs-format-then-run.parm: 70.5 %), one host and two.
fs_read_pct() {
	sed -e 's/<[^>]*>//g' "$1/totals.html" | awk '$2 ~ /^avg_/ { p = $7 } END { print p + 0 }'
}
# Two hosts: vdbench holds fwd skew only when every fwd runs on every
# host, so one fsd on both (shared=yes: made by a format run first).
fs_parm() {	# fs_parm N: N hosts
	printf 'hd=default,jvms=1\n'
	[ "$1" = 2 ] && printf 'hd=hd1,system=localhost\nhd=hd2,system=localhost\n'
	printf 'fsd=fsd1,anchor=%s/fa%s,depth=1,width=2,files=16,size=256k%s\n' "$T" "$1" "$([ "$1" = 2 ] && echo ,shared=yes)"
	printf 'fwd=default,fsd=fsd1,xfersize=4k,fileio=random,fileselect=random,threads=2\n'
	printf 'fwd=fwdr,operation=read,skew=70\nfwd=fwdw,operation=write,skew=30\n'
	if [ "$1" = 2 ]; then
		printf 'rd=rd0,fwd=fwdr,fwdrate=max,format=(restart,only),elapsed=2,interval=1\n'
		printf 'rd=rd1,fwd=fwd*,fwdrate=max,format=no,elapsed=3,interval=1\n'
	else
		printf 'rd=rd1,fwd=fwd*,fwdrate=max,format=yes,elapsed=3,interval=1\n'
	fi
}
for h in 1 2; do
	fs_parm "$h" >"$T/fs$h.parm"
	expect_rc 0 "$VDBC" -f "$T/fs$h.parm" -o "$T/fs$h" --port 0 --seed 7
	p=$(fs_read_pct "$T/fs$h")
	echo "fwd skew 70/30 at fwdrate=max, $h host(s): $p % reads"
	awk -v p="$p" 'BEGIN { exit !(p >= 69 && p <= 71) }' && ok ||
		bad "fwd skew=70 ran $p % reads on $h host(s), not within 1 point"
	# skew.html: vdbench's "FWD skew requested vs. actual" table
	sed -e 's/<[^>]*>//g' "$T/fs$h/skew.html" | awk '
		/FWD skew requested vs. actual/ { on = 1 }
		on && $2 == "fwdr" { r = $4; a = $5 + 0 }
		END { printf "skew.html fwdr: requested %s actual %.2f %%\n", r, a
			exit !(r == "70.00%" && a >= 69 && a <= 71) }' && ok ||
		bad "skew.html lacks fwdr's requested 70.00% and actual share"
done
# Each fwd on its own fsd and the fsds on two slaves (-m 2): no slave runs
# both fwds, and the master holds their skew (it ran 10.43/89.57).
printf 'fsd=fsd1,anchor=%s/fm1,depth=1,width=2,files=8,size=64k\nfsd=fsd2,anchor=%s/fm2,depth=1,width=2,files=8,size=64k\nfwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,fileio=random,fileselect=random,threads=1,skew=70\nfwd=fwd2,fsd=fsd2,operation=read,xfersize=4k,fileio=random,fileselect=random,threads=8,skew=30\nrd=rd1,fwd=fwd*,fwdrate=max,format=yes,elapsed=3,interval=1\n' "$T" "$T" >"$T/fm.parm"
expect_rc 0 "$VDBC" -f "$T/fm.parm" -o "$T/fm" --port 0 --seed 7 -m 2
sed -e 's/<[^>]*>//g' "$T/fm/skew.html" | awk '
	/FWD skew requested vs. actual/ { on = 1 }
	on && $2 == "fwd1" { a = $5 + 0 }
	END { printf "fwds on two slaves: fwd1 %.2f %% (skew=70)\n", a
		exit !(a >= 69 && a <= 71) }' && ok ||
	bad "fwds on two slaves: fwd1 not within 1 point of skew=70"
# fwds with skew= on different hosts: refused as vdbench refuses them.
printf 'hd=hd1,system=localhost\nhd=hd2,system=localhost\nfsd=fsd1,anchor=%s/fh1,depth=1,width=1,files=2,size=64k\nfsd=fsd2,anchor=%s/fh2,depth=1,width=1,files=2,size=64k\nfwd=fwdr,fsd=fsd1,operation=read,skew=70,host=hd1\nfwd=fwdw,fsd=fsd2,operation=write,skew=30,host=hd2\nrd=rd1,fwd=fwd*,fwdrate=max,format=yes,elapsed=2,interval=1\n' "$T" "$T" >"$T/fh.parm"
expect_rc 157 "$VDBC" -s -f "$T/fh.parm" -o "$T/fh" --port 0
expect_out "When specifying FWD workload skew, all requested host names for 'rd=rd1' must be identical."
expect_out "FWD workload skew control not possible"
# What one WORK may ask of a slave: more stops the run before any I/O with
# the field and the limit (threads=100000 once hung the slave in WORK).
printf 'sd=sd1,lun=%s/l1,size=1m,engine=null,threads=100000\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' "$T" >"$T/lim.parm"
expect_rc 157 "$VDBC" -f "$T/lim.parm" -o "$T/lim" --port 0 --seed 7
expect_out "WORK: the sds of this slave ask for 100000 threads in all; a slave runs at most 4096 (threads=)"
expect_out "before its first interval"
printf 'sd=sd1,lun=%s/l2,size=8g,engine=null,threads=1\nwd=wd1,sd=sd1,xfersize=2g\nrd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n' "$T" >"$T/lim.parm"
expect_rc 157 "$VDBC" -f "$T/lim.parm" -o "$T/lim" --port 0 --seed 7
expect_out "WORK: wd=wd1,sd=sd1: xfersize=2147483648 is over the limit of 1073741824 bytes (1g) per I/O"
finish
