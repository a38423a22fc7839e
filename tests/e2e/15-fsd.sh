#!/bin/bash
# File-system workloads on temporary anchors (issue 8's acceptance, scaled
# down): the two seed cases with format=yes then a timed run (counts and
# sizes exact after format, rdpct=70 within 2 points), clean leaving the
# anchor as it was (foreign files included), metadata operations whose
# counts in the reports match what is on disk, a clear error for an
# anchor that cannot be made, and a 20M-file tree whose format starts.
. "$(dirname "$0")/lib.sh"

# The last "Miscellaneous statistics" count of NAME in a logfile.html.
misc() { sed -e 's/<[^>]*>//g' "$1" | awk -v n="$2" '$2 == n { v = $(NF - 1) } END { gsub(",", "", v); print v + 0 }'; }
files() { find "$1" -type f -name 'vdb_f*.file' | wc -l; }
# variant PARM SED-EXPR RC TEXT: a changed copy of a parmfile exits RC
# saying TEXT.
variant() {
	sed "$2" "$T/$1" >"$T/variant.parm"
	expect_rc "$3" "$VDBC" -f "$T/variant.parm" -o "$T/o_variant" --port 0
	expect_out "$4"
}
bytes() { find "$1" -type f -name 'vdb_f*.file' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }

# 1. Seed 1: 5 files of 8 MB written randomly in 128k blocks.
A=$T/a1
printf 'fsd=fsd1,anchor=%s,depth=1,width=1,files=5,size=8m\nfwd=fwd1,fsd=fsd1,operation=write,xfersize=128k,fileio=random,fileselect=random,threads=2\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=3,interval=1\n' "$A" >"$T/s1.parm"
expect_rc 0 "$VDBC" -f "$T/s1.parm" -o "$T/o1" --port 0 --seed 3
expect_out "Starting RD=format_for_rd1"
expect_out "anchor=$A create complete."
expect_out ".Interval. .ReqstdOps... ...cpu%...  read ....read..... ....write...."
[ "$(files "$A")" = 5 ] && ok || bad "seed 1: $(files "$A") files, not 5"
[ "$(bytes "$A")" = $((5 * 8388608)) ] && ok || bad "seed 1: $(bytes "$A") bytes, not 40m"
[ "$(find "$A" -mindepth 1 -type d | wc -l)" = 1 ] && ok || bad "seed 1: not 1 directory"
[ -s "$A/vdb_control.file" ] && ok || bad "no vdb_control.file"
for f in fsd1.html fwd1.html format.html fsd1.histogram.html summary.html totals.html; do
	[ -s "$T/o1/$f" ] && ok || bad "no $f"
done
[ "$(misc "$T/o1/logfile.html" FILE_CREATES)" -ge 5 ] && ok || bad "FILE_CREATES not reported"
# skew.html: vdbench's end-of-run Host:/FSD:/FWD: tables (headers as the
# real vdbench's c_fsd_format_read; the format run has no FWD: table)
tables() { sed -e 's/<[^>]*>//g' "$1" | awk '$2 ~ /^(Host|FSD|FWD):$/ || $2 ~ /^\.ReqstdOps/ { $1 = ""; print }'; }
[ "$(tables "$T/o1/skew.html" | grep -c '^ FWD:')" = 1 ] && [ "$(tables "$T/o1/skew.html" | grep -c '^ FSD:')" = 2 ] &&
	ok || bad "skew.html lacks the Host:/FSD:/FWD: tables"
ref=$VDBC_SRC/../shared/reference/vdbench-5.04.06/c_fsd_format_read/output/skew.html
[ -f "$ref" ] || ref=$VDBC_SRC/tests/data/reference/vdbench-5.04.06/c_fsd_format_read/output/skew.html
if [ -f "$ref" ]; then
	[ "$(tables "$ref")" = "$(tables "$T/o1/skew.html")" ] && ok || bad "skew.html tables differ from the real vdbench's"
fi
# anchors.html: before any run nothing exists; after the runs 5 files in
# 1 directory, 40 MiB, of an anchor size of the same.
awk -v a="$A" '$1 == a { n++; f[n] = $11; d[n] = $12; b[n] = $13; s = $2 " " $3 " " $4 }
	END { printf "anchors.html: %d rows, size %s, first %s, last %s %s %s\n", n, s, f[1], f[n], d[n], b[n]
	      exit !(n == 3 && s == "5 1 40.0m" && f[1] == 0 && f[n] == 5 && d[n] == 1 && b[n] == "40.0m") }' \
	"$T/o1/anchors.html" && ok || bad "anchors.html rows are wrong"

# 2. Seed 2: 2,000 files of 64 KB, 70/30 reads and writes in 4k blocks.
B=$T/b2
printf 'fsd=fsd1,anchor=%s,depth=1,width=20,files=100,size=64k\nfwd=fwd1,fsd=fsd1,rdpct=70,xfersize=4k,fileio=random,fileselect=random,threads=4\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=4,interval=1\n' "$B" >"$T/s2.parm"
expect_rc 0 "$VDBC" -f "$T/s2.parm" -o "$T/o2" --port 0 --seed 5
[ "$(files "$B")" = 2000 ] && ok || bad "seed 2: $(files "$B") files, not 2000"
[ "$(bytes "$B")" = $((2000 * 65536)) ] && ok || bad "seed 2: wrong total size"
[ "$(find "$B" -mindepth 1 -type d | wc -l)" = 20 ] && ok || bad "seed 2: not 20 directories"
sed -e 's/<[^>]*>//g' "$T/o2/summary.html" | awk '
	/Starting RD=rd1;/ { on = 1 }
	on && $2 ~ /^avg_/ { p = $7 }
	END { printf "seed 2: read pct %s\n", p; exit !(p >= 68 && p <= 72) }' &&
	ok || bad "rdpct=70 is not within 2 points"

# vdbench's warning boxes after the avg line exactly when the averages
# call for them: cpu over 80 %, more than 100,000 ops/s on the one slave.
sed -e 's/<[^>]*>//g' "$T/o2/summary.html" | awk '
	/Starting RD=rd1;/ { on = 1 }
	on && $2 ~ /^avg_/ { rate = $3; cpu = $5 }
	on && /Warning for host=localhost: average processor utilization/ { wc = 1; pct = $(NF - 1) }
	on && /Warning: total amount of i\/o per second per slave \(/ { wi = 1 }
	END { printf "warnings: cpu %s (box %d, %s), rate %s (box %d)\n", cpu, wc, pct, rate, wi
	      exit !(wc == (cpu > 80) && wi == (rate > 100000) && (!wc || pct == sprintf("%.1f%%", cpu))) }' &&
	ok || bad "warning boxes do not follow the averages"

# 3. format=(clean,only): what vdbc made goes, foreign files stay.
echo mine >"$B/notes.txt"
echo mine >"$B/vdb.1_3.dir/keep.txt"
printf 'fsd=fsd1,anchor=%s,depth=1,width=20,files=100,size=64k\nfwd=fwd1,fsd=fsd1,threads=2\nrd=rd1,fwd=fwd1,fwdrate=max,format=(clean,only),elapsed=2,interval=1\n' "$B" >"$T/cl.parm"
expect_rc 0 "$VDBC" -f "$T/cl.parm" -o "$T/o3" --port 0
expect_out "anchor=$B deleted 2000 files; "
expect_out "anchor=$B deleted 19 directories; "
grep -q "All sequential workloads" "$T/out" && bad "a format run said 'All sequential workloads'" || ok
left=$(cd "$B" && find . -mindepth 1 | sort | tr '\n' ' ')
[ "$left" = "./notes.txt ./vdb.1_3.dir ./vdb.1_3.dir/keep.txt " ] && ok || bad "clean left: $left"

# 4. Metadata operations: counts in the reports = what is on disk.
C=$T/c4
meta() {	# name operation [extra fwd keywords]
	printf 'fsd=fsd1,anchor=%s,depth=1,width=2,files=50,size=4k\nfwd=fwd1,fsd=fsd1,operation=%s,threads=2%s\nrd=rd1,fwd=fwd1,fwdrate=max,elapsed=2,interval=1%s\n' \
	    "$C" "$2" "${3:-}" "${4:-}" >"$T/$1.parm"
	expect_rc 0 "$VDBC" -f "$T/$1.parm" -o "$T/o_$1" --port 0 --seed 1
}
meta fmt getattr "" ",format=yes"
[ "$(files "$C")" = 100 ] && ok || bad "metadata tree: $(files "$C") files"
sed -e 's/<[^>]*>//g' "$T/o_fmt/summary.html" | grep -q '..getattr...' && ok || bad "no getattr column"
meta del delete
[ "$(files "$C")" = 0 ] && ok || bad "delete left $(files "$C") files"
[ "$(misc "$T/o_del/logfile.html" FILE_DELETES)" = 100 ] && ok || bad "FILE_DELETES $(misc "$T/o_del/logfile.html" FILE_DELETES), 100 were deleted"
# results.json has them too: every interval's delete count sums to 100.
awk '/"intervals"/ { on = 1 } /"average"/ { on = 0 }
	on && /"delete": \{/ { d = 1; next }
	d && /"count"/ { gsub(/[^0-9]/, ""); n += $0; d = 0 }
	END { printf "results.json: %d deletes over the intervals\n", n; exit !(n == 100) }' \
	"$T/o_del/results.json" && ok || bad "results.json intervals do not hold the 100 deletes"
meta rmd rmdir
[ "$(find "$C" -mindepth 1 -type d | wc -l)" = 0 ] && ok || bad "rmdir left directories"
[ "$(misc "$T/o_rmd/logfile.html" DIRECTORY_DELETES)" = 2 ] && ok || bad "DIRECTORY_DELETES is not 2"
meta mkd mkdir
[ "$(find "$C" -mindepth 1 -type d | wc -l)" = 2 ] && ok || bad "mkdir did not make 2 directories"
[ "$(misc "$T/o_mkd/logfile.html" DIRECTORY_CREATES)" = 2 ] && ok || bad "DIRECTORY_CREATES is not 2"
meta cre create
[ "$(files "$C")" = "$(misc "$T/o_cre/logfile.html" FILE_CREATES)" ] && [ "$(files "$C")" = 100 ] && ok ||
	bad "create: $(files "$C") files on disk, FILE_CREATES $(misc "$T/o_cre/logfile.html" FILE_CREATES)"
[ "$(bytes "$C")" = $((100 * 4096)) ] && ok || bad "created files are not 4k each"

# A create run that ends before it is done (fwdrate=200 for 3 s of 2,000
# files): the count in the report is still exactly what is on disk.
D=$T/d4
printf 'fsd=fsd1,anchor=%s,depth=1,width=2,files=1000,size=4k\nfwd=fwd1,fsd=fsd1,operation=create,threads=2\nrd=rd1,fwd=fwd1,fwdrate=200,format=directories,elapsed=3,interval=1\n' "$D" >"$T/cr2.parm"
expect_rc 0 "$VDBC" -f "$T/cr2.parm" -o "$T/o_cr2" --port 0 --seed 2
n=$(files "$D")
echo "partial create: $n files on disk, FILE_CREATES $(misc "$T/o_cr2/logfile.html" FILE_CREATES)"
[ "$n" -gt 300 ] && [ "$n" -lt 1000 ] && [ "$n" = "$(misc "$T/o_cr2/logfile.html" FILE_CREATES)" ] && ok ||
	bad "a stopped create run: $n files on disk, FILE_CREATES $(misc "$T/o_cr2/logfile.html" FILE_CREATES)"

# An interrupted format (files missing, one cut short, a directory gone)
# is completed by format=restart: exact sizes again, nothing rewritten
# that was whole (its modification time stays).
R=$T/r4
printf 'fsd=fsd1,anchor=%s,depth=1,width=2,files=10,size=256k\nfwd=fwd1,fsd=fsd1,threads=2\nrd=rd1,fwd=fwd1,fwdrate=max,format=(%s,only),elapsed=2,interval=1\n' "$R" yes >"$T/r1.parm"
expect_rc 0 "$VDBC" -f "$T/r1.parm" -o "$T/o_r1" --port 0
touch -d '2001-01-01' "$R/vdb.1_1.dir/vdb_f0001.file"
rm -f "$R/vdb.1_1.dir/vdb_f0002.file" "$R/vdb.1_1.dir/vdb_f0003.file"
truncate -s 100k "$R/vdb.1_1.dir/vdb_f0004.file"
rm -rf "$R/vdb.1_2.dir"
sed 's/format=(yes,only)/format=(restart,only)/' "$T/r1.parm" >"$T/r2.parm"
expect_rc 0 "$VDBC" -f "$T/r2.parm" -o "$T/o_r2" --port 0
[ "$(files "$R")" = 20 ] && [ "$(bytes "$R")" = $((20 * 262144)) ] && ok || bad "restart: $(files "$R") files, $(bytes "$R") bytes"
[ "$(stat -c %Y "$R/vdb.1_1.dir/vdb_f0001.file")" = "$(date -d 2001-01-01 +%s)" ] && ok || bad "restart rewrote a whole file"
[ "$(misc "$T/o_r2/logfile.html" FILE_CREATES)" = 12 ] && ok || bad "restart created $(misc "$T/o_r2/logfile.html" FILE_CREATES) files, not 12"

# fileselect=once: each file read once, then the threads wait.
printf 'fsd=fsd1,anchor=%s,depth=1,width=2,files=10,size=256k\nfwd=fwd1,fsd=fsd1,operation=read,xfersize=64k,fileselect=once,threads=2\nrd=rd1,fwd=fwd1,fwdrate=max,elapsed=2,interval=1\n' "$R" >"$T/once.parm"
expect_rc 0 "$VDBC" -f "$T/once.parm" -o "$T/o_once" --port 0
[ "$(misc "$T/o_once/logfile.html" READ_OPENS)" = 20 ] && ok || bad "fileselect=once opened $(misc "$T/o_once/logfile.html" READ_OPENS) files, not 20"

# workingsetsize=: runs use only the first files that fit (4 of 20).
W=$T/w4
printf 'fsd=fsd1,anchor=%s,depth=1,width=2,files=10,size=64k,workingsetsize=256k\nfwd=fwd1,fsd=fsd1,operation=delete,threads=1\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=2,interval=1\n' "$W" >"$T/wss.parm"
expect_rc 0 "$VDBC" -f "$T/wss.parm" -o "$T/o_wss" --port 0
[ "$(files "$W")" = 16 ] && [ "$(misc "$T/o_wss/logfile.html" FILE_DELETES)" = 4 ] && ok ||
	bad "workingsetsize=256k: $(files "$W") files left, FILE_DELETES $(misc "$T/o_wss/logfile.html" FILE_DELETES)"

# copy and move to a target fsd: the target tree gets every file.
S=$T/src D2=$T/dst
printf 'fsd=fsd1,anchor=%s,depth=1,width=2,files=10,size=64k\nfsd=fsd2,anchor=%s,depth=1,width=2,files=10,size=64k\nfwd=fwd1,fsd=fsd1,operation=copy,target=fsd2,threads=2\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=2,interval=1\n' "$S" "$D2" >"$T/cp.parm"
expect_rc 0 "$VDBC" -f "$T/cp.parm" -o "$T/o_cp" --port 0
[ "$(files "$D2")" = 20 ] && [ "$(bytes "$D2")" = $((20 * 65536)) ] && ok || bad "copy: $(files "$D2") files in the target"
sed -e 's/<[^>]*>//g' "$T/o_cp/summary.html" | grep -q '\.\.\.\.copy\.\.\.\.' && ok || bad "no copy column"
rm -rf "$D2"
sed 's/operation=copy/operation=move/; s/format=yes/format=no/' "$T/cp.parm" >"$T/mv.parm"
expect_rc 0 "$VDBC" -f "$T/mv.parm" -o "$T/o_mv" --port 0
[ "$(files "$D2")" = 20 ] && [ "$(files "$S")" = 0 ] && ok || bad "move: $(files "$S") left, $(files "$D2") moved"

# fileselect=once ends the run when every file had its turn, elapsed or
# not (vdbench), and says when.
O=$T/once2
printf 'fsd=fsd1,anchor=%s,depth=1,width=2,files=50,size=4k\nfwd=fwd1,fsd=fsd1,operation=create,fileselect=once,threads=2\nrd=rd1,fwd=fwd1,fwdrate=max,format=(directories),elapsed=600,interval=1\n' "$O" >"$T/once2.parm"
t0=$(date +%s)
expect_rc 0 "$VDBC" -f "$T/once2.parm" -o "$T/o_once2" --port 0
[ $(($(date +%s) - t0)) -lt 30 ] && ok || bad "fileselect=once did not end the run"
expect_out "Reached 'fileselect=once' for anchor $O"
expect_out "All 'fileselect=once' workloads on all slaves are done; this ends rd=rd1."
# histogram.html: vdbench's one "Total of all requested operations"
# histogram, the 100 creates (not their writes)
sed -e 's/<[^>]*>//g' "$T/o_once2/histogram.html" | awk '
	/Starting RD=rd1;/ { on = 1 } on && /Total of all requested operations:/ { t = 1 }
	on && $2 == "<" { gsub(",", "", $4); n += $4 }
	END { exit !(t && n == 100) }' && ok || bad "histogram.html: not the 100 requested creates"
[ "$(files "$O")" = 100 ] && [ "$(misc "$T/o_once2/logfile.html" FILE_CREATES)" = 100 ] && ok ||
	bad "once create: $(files "$O") files, FILE_CREATES $(misc "$T/o_once2/logfile.html" FILE_CREATES)"

# fileselect=(poisson,3): vdbench's FileAnchor picks the file as
# ownmath.distPoisson(files, 3) = (long)(-ln(U) * files/3) % files. 2,000
# files, ~300 deletes (fixed seed), the deleted files counted by tenth of
# the list. vdbench 5.04.06 on this parmfile deleted 265 files, by tenth
# 23.8 20.0 14.0 12.1 11.3 6.0 4.2 3.0 4.5 1.1 %; its curve is
# 27.3 20.2 15.0 11.1 8.2 6.1 4.5 3.3 2.5 1.8 % (a file deleted twice
# counts once, so the first tenths come out a little lower). Each tenth
# within 6 points of the curve, the first the largest, and the last three
# 3 % or more (vdbc's old curve left them empty).
P=$T/pois
printf 'fsd=fsd1,anchor=%s,depth=1,width=1,files=2000,size=1k\nfwd=fwd1,fsd=fsd1,operation=delete,threads=1,fileselect=(poisson,3)\nrd=rd1,fwd=fwd1,fwdrate=100,format=yes,elapsed=3,interval=1\n' "$P" >"$T/pois.parm"
expect_rc 0 "$VDBC" -f "$T/pois.parm" -o "$T/o_pois" --port 0 --seed 7
ls "$P/vdb.1_1.dir" | sed -n 's/^vdb_f0*\([0-9][0-9]*\)\.file$/\1/p' | awk '
	{ have[$1] = 1 }
	END {
		split("27.3 20.2 15.0 11.1 8.2 6.1 4.5 3.3 2.5 1.8", want, " ")
		for (i = 1; i <= 2000; i++) if (!have[i]) { g[int((i - 1) / 200)]++; n++ }
		printf "poisson: %d deleted, by tenth", n; ok = n > 100
		for (k = 0; k < 10; k++) {
			p = 100 * g[k] / (n ? n : 1); printf " %.1f", p
			d = p - want[k + 1]; if (d < -6 || d > 6) ok = 0
			if (k > 0 && g[k] > g[0]) ok = 0
		}
		printf " %%\n"
		exit !(ok && (g[7] + g[8] + g[9]) * 100 >= 3 * n) }' && ok || bad "fileselect=poisson is not vdbench's curve"

# fileio=(random,shared): 4 threads on one file, all of them at work.
H=$T/shared
printf 'fsd=fsd1,anchor=%s,depth=1,width=1,files=1,size=64k\nfwd=fwd1,fsd=fsd1,operation=read,threads=4,fileio=(random,shared),xfersize=4k\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=2,interval=1\n' "$H" >"$T/sh.parm"
expect_rc 0 "$VDBC" -f "$T/sh.parm" -o "$T/o_sh" --port 0
grep -q "has no file" "$T/out" && bad "fileio=(random,shared): a thread had no file" || ok
[ "$(misc "$T/o_sh/logfile.html" READ_OPENS)" -gt 4 ] && ok || bad "fileio=(random,shared): no reads"
# without shared, threads 2-4 have nothing: said, not hidden
variant sh.parm 's/fileio=(random,shared)/fileio=random/' 0 \
	"fwd=fwd1: thread 1 has no file of anchor=$H to work on"
printf 'fsd=fsd1,anchor=%s,depth=1,width=1,files=1,size=64k\nfwd=fwd1,fsd=fsd1,operation=read,fileio=(random,shared),fileselect=random\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=2,interval=1\n' "$H" >"$T/shr.parm"
expect_rc 157 "$VDBC" -f "$T/shr.parm" -o "$T/o_shr" --port 0
expect_out "'fileio=(random,shared)' may not be used together with 'fileselect=random'"

# fileio=(sequential,delete): each write deletes and recreates the file;
# the counts in the reports add up to what is on disk.
Q=$T/seqdel
printf 'fsd=fsd1,anchor=%s,depth=1,width=1,files=4,size=16k\nfwd=fwd1,fsd=fsd1,operation=write,threads=1,fileio=(sequential,delete),xfersize=4k\nrd=rd1,fwd=fwd1,fwdrate=40,format=yes,elapsed=3,interval=1\n' "$Q" >"$T/sd.parm"
expect_rc 0 "$VDBC" -f "$T/sd.parm" -o "$T/o_sd" --port 0
cr=$(misc "$T/o_sd/logfile.html" FILE_CREATES) de=$(misc "$T/o_sd/logfile.html" FILE_DELETES)
# format made 4; the run deleted de and created cr of them again
[ "$de" -ge 4 ] && [ $((4 + cr - de)) = "$(files "$Q")" ] && ok ||
	bad "(sequential,delete): creates $cr, deletes $de, $(files "$Q") files"

# rd operations=: one workload per operation, the fwd's threads divided
# over them; upper case as written is fine.
X=$T/ops
printf 'fsd=fsd1,anchor=%s,depth=1,width=2,files=50,size=16k\nfwd=fwd1,fsd=fsd1,threads=3,fileselect=random,fileio=random,xfersize=4k\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=2,interval=1,operations=(READ,write,getattr)\n' "$X" >"$T/ops.parm"
expect_rc 0 "$VDBC" -f "$T/ops.parm" -o "$T/o_ops" --port 0 --seed 2
sed -e 's/<[^>]*>//g' "$T/o_ops/summary.html" | awk '
	/Starting RD=rd1;/ { on = 1 }
	on && $2 ~ /^avg_/ { r = $8; w = $10; g = $(NF - 1) }
	END { printf "operations=: read %s write %s getattr %s per s\n", r, w, g
	      exit !(r > 0 && w > 0 && g > 0) }' && ok || bad "rd operations= did not run all three"
# two fwds on one file: never both at once (vdbench's busy file)
printf 'fsd=fsd1,anchor=%s,depth=1,width=1,files=1,size=16k\nfwd=fwd1,fsd=fsd1,operation=read,threads=1,fileio=random,xfersize=4k\nfwd=fwd2,fsd=fsd1,operation=write,threads=1,fileio=random,xfersize=4k\nrd=rd1,fwd=fwd*,fwdrate=max,format=yes,elapsed=2,interval=1\n' "$X" >"$T/busy.parm"
expect_rc 0 "$VDBC" -f "$T/busy.parm" -o "$T/o_busy" --port 0
[ "$(misc "$T/o_busy/logfile.html" FILE_BUSY)" -gt 0 ] && ok || bad "two fwds on one file: no FILE_BUSY"

# format=(only,limited) stops the format after elapsed= (500,000 files
# could not be made in 2 s on any 2-core machine); format=(no,complete)
# trusts the tree: anchors.html shows its counts without a stat of every
# file.
L=$T/lim
printf 'fsd=fsd1,anchor=%s,depth=2,width=10,files=5000,size=4k\nfwd=fwd1,fsd=fsd1,operation=read,threads=2\nrd=rd1,fwd=fwd1,fwdrate=max,format=(only,limited),elapsed=2,interval=1\n' "$L" >"$T/lim.parm"
t0=$(date +%s)
expect_rc 0 "$VDBC" -f "$T/lim.parm" -o "$T/o_lim" --port 0
n=$(files "$L")
[ "$n" -gt 0 ] && [ "$n" -lt 500000 ] && [ $(($(date +%s) - t0)) -lt 20 ] && ok || bad "format=limited made $n of 500000 files"
grep -q "create complete" "$T/out" && bad "format=limited said the format completed" || ok
sed 's/format=(only,limited)/format=(no,complete)/' "$T/lim.parm" >"$T/comp.parm"
expect_rc 0 "$VDBC" -f "$T/comp.parm" -o "$T/o_comp" --port 0
awk -v a="$L" '$1 == a { last = $11 " " $14 } END { exit !(last == "500000 500000") }' \
	"$T/o_comp/anchors.html" && ok || bad "format=complete: anchors.html row"
rm -rf "$L"

# Two hosts (both this machine) with 2 slaves each on one shared=yes fsd:
# format in vdbench's two steps, each slave makes only its slice (every
# file made once), then all four read it. Without shared=yes, or with
# format=yes, vdbench's refusals.
M=$T/multi
printf 'hd=default,jvms=2\nhd=hosta,system=localhost\nhd=hostb,system=localhost\nfsd=fsd1,anchor=%s,depth=1,width=4,files=100,size=8k,shared=yes\nfwd=format,threads=4\nfwd=fwd1,fsd=fsd1,operation=read,threads=8,fileselect=random\nrd=clean,fwd=fwd1,fwdrate=max,format=(clean,only),elapsed=2,interval=1\nrd=make,fwd=fwd1,fwdrate=max,format=(restart,only),elapsed=2,interval=1\nrd=rd1,fwd=fwd1,fwdrate=max,format=no,elapsed=2,interval=1\n' "$M" >"$T/multi.parm"
expect_rc 0 "$VDBC" -f "$T/multi.parm" -o "$T/o_multi" --port 0
[ "$(files "$M")" = 400 ] && [ "$(bytes "$M")" = $((400 * 8192)) ] && ok || bad "shared fsd: $(files "$M") files"
# the make run's FILE_CREATES (the second Miscellaneous block) = 400
sed -e 's/<[^>]*>//g' "$T/o_multi/logfile.html" | awk '$2 == "FILE_CREATES" { c = $(NF - 1) } END { gsub(",", "", c); exit !(c == 400) }' &&
	ok || bad "shared fsd: files made more than once"
for s in hosta-0 hosta-1 hostb-0 hostb-1; do
	grep -q "$s: anchor=$M create complete." "$T/out" && ok || bad "$s did not format its slice"
done
variant multi.parm 's/,shared=yes//' 157 \
	"Multiple hosts may only be requested for an FSD when 'shared=yes' is specified. rd=clean"
variant multi.parm 's/format=(clean,only)/format=yes/' 157 \
	"'format=yes' not allowed for shared FSDs used in rd=clean"

# 5. An anchor that cannot be made: the error names it and what failed.
printf 'fsd=fsd1,anchor=%s/no/such/dir,depth=1,width=1,files=1,size=4k\nfwd=fwd1,fsd=fsd1,threads=1\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=2,interval=1\n' "$T" >"$T/bad.parm"
expect_rc 157 "$VDBC" -f "$T/bad.parm" -o "$T/o5" --port 0
expect_out "anchor=$T/no/such/dir: cannot create the anchor directory: No such file or directory (its parent must exist)"
# 6. Out of space during format: the run stops, naming anchor and file,
# says so and prints no average (a 1 MiB tmpfs of the test's own, where it may mount one).
mkdir -p "$T/small"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=1m vdbc-e2e "$T/small" 2>/dev/null; then
	trap 'umount "$T/small" 2>/dev/null; cleanup' EXIT
	printf 'fsd=fsd1,anchor=%s/small/a,depth=1,width=1,files=4,size=1m\nfwd=fwd1,fsd=fsd1,threads=1\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=2,interval=1\n' "$T" >"$T/full.parm"
	expect_rc 157 "$VDBC" -f "$T/full.parm" -o "$T/o6" --port 0
	expect_out "anchor=$T/small/a: write $T/small/a/vdb.1_1.dir/vdb_f000"
	expect_out "No space left on device"
	# ... and says it stopped, with no average over the interval the
	# format broke off in (issue 28 item 9: "avg_2-1" and no stop line)
	expect_out "vdbc: stopped during run format_for_rd1 after"
	grep -q " avg_" "$T/out" && bad "an average line for a format stopped by ENOSPC: $(grep -m1 " avg_" "$T/out")" || ok
	umount "$T/small"
else
	echo "out-of-space case skipped: cannot mount a tmpfs here"
fi
# 7. A tree of 20 million files (vdbench formats trees this size): the
# slave walks what exists for anchors.html on a thread of its own, reading
# only the directories there are, so it is not lost for silence and the
# format starts at once; format=(only,limited) stops it after 2 s. Empty
# files on a tmpfs of the test's own (no millions of files on disk).
mkdir -p "$T/big"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=16m vdbc-e2e "$T/big" 2>/dev/null; then
	trap 'umount "$T/big" 2>/dev/null; cleanup' EXIT
	printf 'fsd=fsd1,anchor=%s/big/a,depth=2,width=100,files=2000,size=0\nfwd=fwd1,fsd=fsd1,threads=1\nrd=rd1,fwd=fwd1,fwdrate=max,format=(only,limited),elapsed=2,interval=1\n' "$T" >"$T/big.parm"
	expect_rc 0 "$VDBC" -f "$T/big.parm" -o "$T/o7" --port 0
	grep -q "lost: silent" "$T/out" && bad "20M-file tree: the slave was lost" || ok
	expect_out "anchor=$T/big/a mkdir complete."
	# the first interval within 3 s of the slave's connection
	if [ "${VDBC_SANITIZED:-0}" != 1 ]; then
		awk 'function s(t) { split(t, a, ":"); return a[1] * 3600 + a[2] * 60 + a[3] }
			/All slaves are now connected/ { c = s($1) }
			c && $2 == "1" && $3 ~ /^[0-9.]+$/ && !i { i = s($1) }
			END { d = i - c; if (d < 0) d += 86400
			      printf "20M-file tree: first interval %.3f s after the connection\n", d
			      exit !(i && d <= 3) }' "$T/out" && ok || bad "20M-file tree: the format did not start within 3 s"
	fi
	# anchors.html: nothing before; after, what is on disk
	n=$(find "$T/big/a" -type f -name 'vdb_f*.file' | wc -l)
	awk -v a="$T/big/a" -v n="$n" '$1 == a { r++; f[r] = $11; d[r] = $12; o[r] = $14 }
		END { printf "anchors.html: %d rows, before %s files %s dirs, after %s files (%s full) %s dirs, %s on disk\n", r, f[1], d[1], f[r], o[r], d[r], n
		      exit !(r == 2 && f[1] == 0 && d[1] == 0 && f[r] == n && o[r] == n && d[r] == 10100 && n > 0) }' \
		"$T/o7/anchors.html" && ok || bad "20M-file tree: anchors.html rows are wrong"
	umount "$T/big"
else
	echo "20M-file tree case skipped: cannot mount a tmpfs here"
fi
# skew.html of a run with two fwds: vdbench's SkewReport adds a Total row
# under a table of more than one fwd (its v5_validate_fsd skew.html).
printf 'fsd=fsd1,anchor=%s/sk,depth=1,width=1,files=4,size=8k\nfwd=fwdr,fsd=fsd1,operation=read,xfersize=4k,threads=1\nfwd=fwdw,fsd=fsd1,operation=write,xfersize=4k,threads=1\nrd=rd1,fwd=fwd*,fwdrate=100,format=yes,elapsed=2,interval=1\n' "$T" >"$T/sk.parm"
expect_rc 0 "$VDBC" -f "$T/sk.parm" -o "$T/o_sk" --port 0
sed -n '/ FWD: /,/ Total /p' "$T/o_sk/skew.html" | grep -qE '^[0-9:.]+ Total +[0-9]' && ok || bad "skew.html: no Total under the FWD table"

finish
