#!/bin/bash
# The data keywords of issue 15 seen in the data they leave on disk:
# compression= (vdbench's warning, gzip ratio), compressionseed= (same
# seed, same bytes), seekpct=poisson (where the blocks land), streams=
# (n sequential streams, each from the start of its part), dedupacross=
# and the sd's own dedupratio= (distinct 4k blocks counted by sha1), the
# dedup keywords vdbc refuses, by name and with the reason, and pattern=
# (the file's bytes on disk in vdbench's order).
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { echo "skipped: needs python3 to count distinct blocks"; exit 77; }

# Non-zero bytes in 4k blocks [from, from+count) of $1.
nonzero() {
	dd if="$1" bs=4096 skip="$2" count="$3" status=none | tr -d '\000' | wc -c
}
# "blocks distinct": the 4k blocks of the files and how many differ;
# sets: how many contents appear more than once (the duplicate sets).
distinct() {
	python3 -c '
import collections, hashlib, sys
seen, n = collections.Counter(), 0
for f in sys.argv[1:]:
    d = open(f, "rb").read()
    for i in range(0, len(d), 4096):
        seen[hashlib.sha1(d[i:i + 4096]).digest()] += 1
        n += 1
print(n, len(seen), sum(1 for c in seen.values() if c > 1))' "$@"
}
# What a lun holds (tests/data/wdata/blocks.py), what the real vdbench's
# held (tests/data/wdata/vdbench.txt), within 15 % of it, a measure of it.
blk() { python3 "$VDBC_SRC/tests/data/wdata/blocks.py" "$@"; }
vfig() { awk -v c="$1" -v m="$2" '$1 == "figure" && $2 == c && $3 == m { print $4 }' "$VDBC_SRC/tests/data/wdata/vdbench.txt"; }
near() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(b > 0 && a >= b * 0.85 && a <= b * 1.15) }'; }
fig() { awk -v m="$2" '$1 == m { print $2 }' "$1"; }
# run NAME PARMTEXT [SEED]: write $T/NAME.parm and run it, rc 0 expected.
run() {
	printf '%b' "$2" >"$T/$1.parm"
	expect_rc 0 "$VDBC" -f "$T/$1.parm" -o "$T/o_$1" --port 0 --seed "${3:-1}"
}

# compression=25 is compratio=4, with vdbench's boxed warning.
run comp "compression=25\nsd=sd1,lun=$T/c,size=8m,threads=1\nwd=wd1,sd=sd1,seekpct=seq,rdpct=0,xfersize=64k\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,maxdata=8m\n"
expect_out "* compression= parameter replaced by compratio=. This no longer is a percentage."
expect_out "* compression= has been converted to 'compratio=4.00'"
gz=$(blk "$T/c" | fig /dev/stdin gzip)
echo "compression=25: the lun gzips ${gz}x (vdbench at compratio=4: $(vfig comp4 gzip)x)"
near "$gz" "$(vfig comp4 gzip)" && ok || bad "compression=25 did not write vdbench's 4:1 data (gzip ${gz}x)"
# Written data as vdbench's (tests/data/wdata/vdbench.txt, measured on
# the real vdbench 5.04.06): a sequential 4k pass over 4 MiB leaves 1,024
# distinct 4k blocks (not a few buffers written again and again), and the
# lun gzips within 15 % of vdbench's at compratio=1, 2, 4 and 8.
for c in 1 2 4 8; do
	rm -f "$T/w"
	run "comp$c" "compratio=$c\nsd=sd1,lun=$T/w,size=4m,threads=1\nwd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=eof\nrd=rd1,wd=wd1,iorate=max,elapsed=10,interval=1\n"
	blk "$T/w" >"$T/w.txt"
	d=$(fig "$T/w.txt" distinct4k) g=$(fig "$T/w.txt" gzip) want=$(vfig "comp$c" gzip)
	echo "compratio=$c: $d distinct 4k blocks of 1024 (vdbench $(vfig seq4k distinct4k)); gzip ${g}x (vdbench ${want}x)"
	[ "$d" -ge 1000 ] && ok || bad "compratio=$c: $d distinct 4k blocks after a sequential pass, wanted >= 1000"
	near "$g" "$want" && ok || bad "compratio=$c: gzip ${g}x, not within 15 % of vdbench's ${want}x"
done
# -v at compratio=4: validated blocks are built from the same pattern,
# zeroes included, as vdbench's are (vdb_dv.c FLAG_VALIDATE_COMP); the
# run ends rc 157 "No read validations done", as vdbench's does. Before,
# -v wrote a pattern without zeroes (gzip about 1x) that vdbench's -jr
# found corrupted.
printf 'compratio=4\nsd=sd1,lun=%s/wv,size=4m,threads=1\nwd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=eof\nrd=rd1,wd=wd1,iorate=max,elapsed=10,interval=1\n' "$T" >"$T/comp4v.parm"
expect_rc 157 "$VDBC" -f "$T/comp4v.parm" -o "$T/o_comp4v" -v --port 0 --seed 1
blk "$T/wv" >"$T/wv.txt"
d=$(fig "$T/wv.txt" distinct4k) g=$(fig "$T/wv.txt" gzip) want=$(vfig comp4v gzip)
echo "-v compratio=4: $d distinct 4k blocks of 1024 (vdbench $(vfig comp4v distinct4k)); gzip ${g}x (vdbench ${want}x)"
[ "$d" -ge 1000 ] && ok || bad "-v compratio=4: $d distinct 4k blocks, wanted >= 1000"
near "$g" "$want" && ok || bad "-v compratio=4: gzip ${g}x, not within 15 % of vdbench's ${want}x"
# vdbench's limit: compratio=25 (its table ends there); -s plans it, as
# vdbench's does, a run stops before any I/O with vdbench's words.
printf 'compratio=26\nsd=sd1,lun=%s/c26,size=1m,threads=1\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n' "$T" >"$T/c26.parm"
expect_rc 0 "$VDBC" -f "$T/c26.parm" -s
expect_rc 157 "$VDBC" -f "$T/c26.parm" -o "$T/o_c26" --port 0
expect_out "'compratio=25' is the largest value Vdbench supports. Are you sure your request is valid, asking for compratio=26.00?"
[ -e "$T/c26" ] && bad "compratio=26 created its lun" || ok
printf 'compression=0\nsd=sd1,lun=%s/c\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" >"$T/c0.parm"
expect_rc 157 "$VDBC" -f "$T/c0.parm" -s
expect_out "c0.parm:1:1: 'compression=' must be a percentage above 0 and at most 100: 0"

# compressionseed=: the data comes from the seed alone (vdbench's
# java.util.Random pattern), so two sds get the same bytes but for the
# 8 bytes at the head of each 4k block (its lba, the sd's file handle,
# the time: never two blocks the same); another seed, other bytes.
p="sd=sd1,lun=$T/s1,size=4m,threads=1\nsd=sd2,lun=$T/s2,size=4m,threads=1\nwd=wd1,sd=sd*,seekpct=seq,rdpct=0,xfersize=64k\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,maxdata=8m\n"
# stamped A B: A and B equal but for the first 8 bytes of each 4k block
stamped() {
	python3 -c '
import sys
a, b = (open(f, "rb").read() for f in sys.argv[1:3])
sys.exit(not (len(a) == len(b) and all(a[i + 8:i + 4096] == b[i + 8:i + 4096] for i in range(0, len(a), 4096))))' "$1" "$2"
}
run seed1 "compressionseed=7\n$p" 1
stamped "$T/s1" "$T/s2" && ok || bad "compressionseed=7: two sds got different data"
cmp -s "$T/s1" "$T/s2" && bad "compressionseed=7: two sds got byte-identical luns" || ok
mv "$T/s1" "$T/s7"
rm -f "$T/s2"
run seed2 "$p" 1
stamped "$T/s1" "$T/s7" && bad "compressionseed=7 and the default seed wrote the same data" || ok
printf 'compressionseed=tod\nsd=sd1,lun=%s/c\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" >"$T/tod.parm"
expect_rc 0 "$VDBC" -f "$T/tod.parm" -s
printf 'compressionseed=soon\nsd=sd1,lun=%s/c\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" >"$T/cs.parm"
expect_rc 157 "$VDBC" -f "$T/cs.parm" -s
expect_out "Invalid 'compressionseed=' parameter: soon"

# seekpct=poisson: vdbench's draw, (long)(-ln(U) * blocks/3) % blocks
# (ownmath.distPoisson): up to 2,000 random 4k writes (fixed seed) over a
# sparse 256m file, the written 4k blocks counted by tenth of the file.
# vdbench 5.04.06 on a 16m lun, 4,490 reads (strace of its offsets), by
# tenth: 27.8 20.1 14.3 11.5 8.3 5.7 4.1 3.2 3.0 2.0 %. Each tenth here
# within 4 points of that (the blocks written, so a slow machine's fewer
# I/Os still tell; 256m keeps two writes of one block rare), and the last
# three tenths hold 3 % or more (vdbench 8.2 %; vdbc's old curve ~0 %).
truncate -s 256m "$T/p"
run poi "sd=sd1,lun=$T/p,threads=1\nwd=wd1,sd=sd1,seekpct=poisson,rdpct=0,xfersize=4k\nrd=rd1,wd=wd1,iorate=1000,elapsed=2,interval=1\n"
python3 -c '
import sys
vdb = [27.8, 20.1, 14.3, 11.5, 8.3, 5.7, 4.1, 3.2, 3.0, 2.0]
d, z = open(sys.argv[1], "rb").read(), bytes(4096)
nb = len(d) // 4096
c = [0] * 10
for i in range(nb):
    if d[i * 4096:(i + 1) * 4096] != z:
        c[i * 10 // nb] += 1
n = sum(c)
pct = [100.0 * x / max(n, 1) for x in c]
print("seekpct=poisson: %d blocks written, by tenth %s %%" % (n, " ".join("%.1f" % p for p in pct)))
sys.exit(not (n > 300 and all(abs(p - v) < 4 for p, v in zip(pct, vdb)) and sum(pct[7:]) >= 3))' "$T/p" && ok || bad "seekpct=poisson: not vdbench's curve"
rm -f "$T/p"
printf 'sd=sd1,lun=%s/p\nwd=wd1,sd=sd1,seekpct=(pois,6)\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" >"$T/p6.parm"
expect_rc 0 "$VDBC" -f "$T/p6.parm" -s
# vdbench's parse (WD_entry.java): (poisson,0) is plain random, each
# later number a midpoint, (poisson,2,3) midpoint 3; a word is refused
for v in '(poisson,0)' '(poisson,2,3)'; do
	printf 'sd=sd1,lun=%s/p\nwd=wd1,sd=sd1,seekpct=%s\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" "$v" >"$T/p0.parm"
	got=$("$VDBC" -f "$T/p0.parm" -s --dump=json 2>/dev/null | jq '.wd[0].poisson_mid')
	want=$([ "$v" = '(poisson,0)' ] && echo 0 || echo 3)
	[ "$got" = "$want" ] && ok || bad "seekpct=$v: midpoint ${got:-none}, not $want"
done
printf 'sd=sd1,lun=%s/p\nwd=wd1,sd=sd1,seekpct=(poisson,x)\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" >"$T/p0.parm"
expect_rc 157 "$VDBC" -f "$T/p0.parm" -s
expect_out "p0.parm:2:15: Invalid contents for 'seekpct=': (poisson,x)"

# streams=4 with threads=4: four sequential streams, each from the start
# of its quarter: the first blocks of every quarter are written, the
# middle of each stays empty. Without streams only the first quarter is.
truncate -s 16m "$T/st"
# streams= needs iorate=max on the rd (vdbench's rule); the wd's own
# iorate= (with priority=) keeps the streams slow, as in vdbench 5.04.06,
# which left the same blocks written (32,6xx non-zero bytes per quarter
# start, 0 in the middles).
run streams "sd=sd1,lun=$T/st,threads=4\nwd=wd1,sd=sd1,seekpct=seq,rdpct=0,xfersize=4k,streams=4,iorate=400,priority=1\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n"
starts=0
mids=0
for q in 0 1024 2048 3072; do
	starts=$((starts + $(nonzero "$T/st" "$q" 8)))
	mids=$((mids + $(nonzero "$T/st" $((q + 600)) 100)))
done
echo "streams=4: first 8 blocks of the quarters $starts non-zero bytes, middles $mids"
[ "$starts" -gt $((4 * 8 * 4096 * 95 / 100)) ] && [ "$mids" = 0 ] && ok || bad "streams=4 did not write four streams"
printf 'sd=sd1,lun=%s/st,threads=3\nwd=wd1,sd=sd1,seekpct=seq,streams=4\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n' "$T" >"$T/st3.parm"
expect_rc 157 "$VDBC" -f "$T/st3.parm" -o "$T/o_st3" --port 0
expect_out "wd=wd1,sd=sd1: streams=4 needs threads= a multiple of it; the sd has 3 threads here"
printf 'sd=sd1,lun=%s/st,threads=4\nwd=wd1,sd=sd1,seekpct=seq,streams=4\nwd=wd2,sd=sd1\nrd=rd1,wd=wd*,iorate=100,elapsed=2,interval=1\n' "$T" >"$T/st2.parm"
# vdbench's rule (RD_entry.getWdsForRd, measured with 5.04.06): only
# streams= in the rd's first wd refuses a second wd, in -s too; with the
# streams wd second vdbench runs the rd, and so does vdbc.
expect_rc 157 "$VDBC" -f "$T/st2.parm" -o "$T/o_st2" --port 0
expect_out "Only ONE Workload Definition (WD) allowed when using streams."
expect_rc 157 "$VDBC" -f "$T/st2.parm" -s
expect_out "Only ONE Workload Definition (WD) allowed when using streams."
sed 's/wd=wd\*/wd=(wd2,wd1)/; s/iorate=100/iorate=max/' "$T/st2.parm" >"$T/st2b.parm"
expect_rc 0 "$VDBC" -f "$T/st2b.parm" -o "$T/o_st2b" --port 0
# At a set rate (a curve, N%) vdbench refuses streams= in any wd of the
# rd, once the slaves are up (Work.java:417), before any I/O, not in -s.
sed 's/iorate=max/iorate=100/' "$T/st2b.parm" >"$T/st2c.parm"
expect_rc 0 "$VDBC" -f "$T/st2c.parm" -s
expect_rc 157 "$VDBC" -f "$T/st2c.parm" -o "$T/o_st2c" --port 0
expect_out "Use of the streams= parameter requires iorate=max"
printf 'sd=sd1,lun=%s/st\nwd=wd1,sd=sd1,streams=1\nrd=rd1,wd=wd1,iorate=100,elapsed=2\n' "$T" >"$T/st1.parm"
expect_rc 157 "$VDBC" -f "$T/st1.parm" -s
expect_out "st1.parm:2:15: 'streams=' parameter must specific a minimum of two streams"

# dedupacross=: two 4m sds at dedupratio=2 share the general dedup, so as
# in vdbench the sets are 5 % of both sds' units (102), numbered over the
# two; each holds 460 unique blocks (vdbench's map of each sd) and ~102
# sets. yes: their unique blocks differ, only the sets are shared (~1020
# distinct in both); no (general): each sd picks its unique blocks from
# its own map, and where both have one at the same lba it is the same
# block (~790 distinct in both), the luns not equal. sdno: the general
# yes, each sd's own dedupacross=no (sd=default): each sd then has its
# own dedup, its 51 sets counted alone, as vdbench's clone of it.
for ac in yes no sdno; do
	rm -f "$T/a1" "$T/a2"
	g=$ac sdac=
	[ "$ac" = sdno ] && g=yes sdac=",dedupacross=no"
	run "across_$ac" "dedupratio=2\ndedupunit=4k\ndedupacross=$g\ndedupflipflop=no\nsd=default$sdac\nsd=sd1,lun=$T/a1,size=4m,threads=1\nsd=sd2,lun=$T/a2,size=4m,threads=1\nwd=wd1,sd=sd*,seekpct=seq,rdpct=0,xfersize=4k\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,maxdata=8m\n"
	set -- $(distinct "$T/a1") $(distinct "$T/a1" "$T/a2")
	echo "dedupacross=$ac: sd1 $1 blocks $2 distinct ($3 duplicate sets); both $4 blocks $5 distinct"
	lo=550 hi=570
	[ "$ac" = sdno ] && lo=490 hi=530
	if [ "$ac" = yes ]; then
		[ "$2" -ge $lo ] && [ "$2" -le $hi ] && [ "$5" -ge 1000 ] && ok || bad "dedupacross=yes: $2 / $5 distinct"
	else
		[ "$2" -ge $lo ] && [ "$2" -le $hi ] && [ "$5" -ge 700 ] && [ "$5" -le 800 ] && ok || bad "dedupacross=$ac: $2 / $5 distinct"
		cmp -s "$T/a1" "$T/a2" && bad "dedupacross=$ac: the two luns are byte-identical" || ok
	fi
	# dedupsets=5% (the default) is 5 % of the blocks of the sds that
	# share it: 102 of 2048, or 51 of 1024 for an sd's own
	sets=102
	[ "$ac" = sdno ] && sets=51
	[ "$3" -ge $((sets - 2)) ] && [ "$3" -le "$sets" ] && ok || bad "dedupsets=5%: $3 duplicate sets, wanted $sets"
done

# Dedup data as vdbench's (tests/data/wdata/vdbench.txt): an 8 MiB lun at
# dedupratio=2 with 4k and 32k units, 64k writes: distinct 4k blocks, 32k
# chunks compressed each alone (vdbench's 1.47x at 4k units: a duplicate
# is the pattern at its set's offset, sets 1,388 bytes apart) and 32k
# chunk dedup, each within 15 % of vdbench's; and the auditor's two luns
# at dedupacross=no: not byte-identical, the same blocks at the same
# lba, dedup together as vdbench's.
for u in 4k 32k; do
	rm -f "$T/dd"
	run "dedup$u" "dedupratio=2,dedupunit=$u\nsd=sd1,lun=$T/dd,size=8m,threads=1\nwd=wd1,sd=sd1,xfersize=64k,rdpct=0,seekpct=eof\nrd=rd1,wd=wd1,iorate=max,elapsed=10,interval=1\n"
	blk "$T/dd" >"$T/dd.txt"
	for m in distinct4k gzip chunk32k_zlib chunk32k_dedup; do
		v=$(fig "$T/dd.txt" $m) want=$(vfig "dedup$u" $m)
		echo "dedupunit=$u: $m $v (vdbench $want)"
		near "$v" "$want" && ok || bad "dedupunit=$u: $m $v, not within 15 % of vdbench's $want"
	done
done
rm -f "$T/l1" "$T/l2"
run across_no "dedupratio=2,dedupunit=4k,dedupacross=no\nsd=sd1,lun=$T/l1,size=4m\nsd=sd2,lun=$T/l2,size=4m\nwd=wd1,sd=sd*,xfersize=64k,rdpct=0,seekpct=eof\nrd=rd1,wd=wd1,iorate=max,elapsed=10,interval=1\n"
blk "$T/l1" "$T/l2" >"$T/an.txt"
echo "dedupacross=no: identical $(fig "$T/an.txt" identical) (vdbench $(vfig across_no identical)), dedup together $(fig "$T/an.txt" dedup_together) (vdbench $(vfig across_no dedup_together))"
[ "$(fig "$T/an.txt" identical)" = no ] && ok || bad "dedupacross=no: the two luns are byte-identical"
[ "$(fig "$T/an.txt" same_offset_equal)" = "$(vfig across_no same_offset_equal)" ] && ok || bad "dedupacross=no: $(fig "$T/an.txt" same_offset_equal) blocks equal at the same lba (vdbench $(vfig across_no same_offset_equal))"
near "$(fig "$T/an.txt" dedup_together)" "$(vfig across_no dedup_together)" && ok || bad "dedupacross=no: the luns dedup $(fig "$T/an.txt" dedup_together):1 together"

# dedupratio= on an sd overrides the general one for that sd only.
rm -f "$T/a1" "$T/a2"
run sddedup "dedupratio=2\ndedupunit=4k\nsd=sd1,lun=$T/a1,size=4m,threads=1,dedupratio=4\nsd=sd2,lun=$T/a2,size=4m,threads=1\nwd=wd1,sd=sd*,seekpct=seq,rdpct=0,xfersize=4k\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,maxdata=8m\n"
set -- $(distinct "$T/a1") $(distinct "$T/a2")
echo "sd dedupratio=4: sd1 $2 of $1 distinct; sd2 (general 2) $5 of $4"
[ "$2" -ge 240 ] && [ "$2" -le 280 ] && [ "$5" -ge 490 ] && [ "$5" -le 530 ] && ok || bad "sd dedupratio=4 not applied to sd1 only"
# more duplicate sets (5% of 1024: 51) than distinct blocks (1024/25: 40)
printf 'dedupratio=25\ndedupunit=4k\nsd=sd1,lun=%s/a1,size=4m,threads=1\nwd=wd1,sd=sd1,rdpct=0,xfersize=4k\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' "$T" >"$T/ds.parm"
timeout 60 "$VDBC" -f "$T/ds.parm" -o "$T/o_ds" --port 0 >"$T/out" 2>&1
expect_out "sd=sd1: adjustDedupValue(): requesting more dedupsets (51) than we have non-unique data blocks (41, estimated)"
printf 'sd=sd1,lun=%s/a1,dedupratio=4\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" >"$T/sdd.parm"
expect_rc 157 "$VDBC" -f "$T/sdd.parm" -s
expect_out "sdd.parm:1:$((16 + ${#T})): Requesting Dedup without specifying dedupunit=nnn"
# any dedup keyword turns dedup on: dedupunit= (no default in vdbench)
# and dedupratio= must be there, checked at the end of the general part
printf 'dedupratio=2\nsd=sd1,lun=%s/a1\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" >"$T/gu.parm"
expect_rc 157 "$VDBC" -f "$T/gu.parm" -s
expect_out "gu.parm:2:1: Requesting Dedup without specifying dedupunit=nnn"
printf 'dedupunit=4k,dedupsets=10\nsd=sd1,lun=%s/a1\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" >"$T/gr.parm"
expect_rc 157 "$VDBC" -f "$T/gr.parm" -s
expect_out "gr.parm:2:1: dedupratio= parameter is required."
printf 'dedupratio=2,dedupunit=4k\nsd=sd1,lun=%s/a1,dedupunit=8k\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" >"$T/sdu.parm"
expect_rc 157 "$VDBC" -f "$T/sdu.parm" -s
expect_out "'dedupunit=' may not be specified as an SD or FSD parameter"

# Refused with the reason: hot sets, flip-flop, maxkey. -s plans them;
# a run stops before any I/O, naming each with its place.
printf 'dedupratio=2\ndedupunit=4k\ndeduphotsets=(10,2)\ndedupflipflop=yes\ndedupmaxkey=4\nsd=sd1,lun=%s/r,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n' "$T" >"$T/ref.parm"
expect_rc 0 "$VDBC" -f "$T/ref.parm" -s
expect_rc 157 "$VDBC" -f "$T/ref.parm" -o "$T/o_ref" --port 0
expect_out "ref.parm:3:1) is not supported by vdbc yet"
expect_out "'dedupflipflop=' ($T/ref.parm:4:1) is not supported by vdbc yet"
expect_out "'dedupmaxkey=' ($T/ref.parm:5:1) is not supported by vdbc yet"
expect_out "vdbc: 'deduphotsets=': vdbench's placement of the hot sets' blocks is not in PARMFILE.md"
[ -e "$T/r" ] && bad "a refused run created its lun" || ok
printf 'dedupratio=2,dedupunit=4k\ndeduphotsets=(10,2,5)\nsd=sd1,lun=%s/r\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" >"$T/hp.parm"
expect_rc 157 "$VDBC" -f "$T/hp.parm" -s
expect_out "Specifying deduphotsets= must be done in pairs (10 sets of 3 blocks, hotsets=(10,3,. . . .)"
printf 'dedupratio=2,dedupunit=4k\ndedupflipflop=maybe\nsd=sd1,lun=%s/r\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" >"$T/ff.parm"
expect_rc 157 "$VDBC" -f "$T/ff.parm" -s
expect_out "Dedup parameter scan: unexpected input: maybe"
# dedupflipflop=no and dedupacross=yes are vdbc's behaviour: they run.
# (the dedupacross=yes run above also has dedupflipflop=no)

# pattern=file: every byte written comes from the file, in vdbench's
# order (4-byte big-endian words stored little-endian on x86: "ABCDEFGH"
# is written "DCBAHGFE"); the trailing newline is cut with vdbench's note.
printf 'ABCDEFGH\n' >"$T/pat"
run pat "pattern=$T/pat\nsd=sd1,lun=$T/pl,size=1m,threads=2\nwd=wd1,sd=sd1,seekpct=seq,rdpct=0,xfersize=8k\nrd=rd1,wd=wd1,iorate=200,elapsed=2,interval=1\n"
expect_out "Successfully loaded data pattern from $T/pat"
expect_out "Data pattern length for file '$T/pat' must be a multiple of 4. Input length of 9 truncated. Possible cr/lf?"
if [ "$(printf '\001\000' | od -An -tu2 | tr -d ' ')" = 1 ]; then want=DCBAHGFE; else want=ABCDEFGH; fi
got=$(od -An -c -w8 -v "$T/pl" | tr -d ' ' | sort -u)
[ "$got" = "$want" ] && ok || bad "pattern= wrote '$got', wanted only '$want'"
printf 'pattern=%s/nope\nsd=sd1,lun=%s/pm,size=1m\nwd=wd1,sd=sd1,rdpct=0\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' "$T" "$T" >"$T/pm.parm"
timeout 60 "$VDBC" -f "$T/pm.parm" -o "$T/o_pm" --port 0 >"$T/out" 2>&1
expect_out "readPattern() pattern file does not exist: $T/nope"
[ -e "$T/pm" ] && bad "pattern= with no file created the lun" || ok
printf 'pattern=/x\ndedupratio=2\nsd=sd1,lun=%s/pm\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" >"$T/pd.parm"
expect_rc 157 "$VDBC" -f "$T/pd.parm" -s
expect_out "pd.parm:2:1: parsePatterns(): dedupratio= and pattern= are mutually exclusive"
printf 'compratio=2\npattern=/x\nsd=sd1,lun=%s/pm\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" >"$T/pc.parm"
expect_rc 157 "$VDBC" -f "$T/pc.parm" -s
expect_out "pc.parm:2:1: parsePatterns(): compratio= and pattern= are mutually exclusive"
printf 'pattern=/x\npattern=/y\nsd=sd1,lun=%s/pm\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" >"$T/p2.parm"
expect_rc 157 "$VDBC" -f "$T/p2.parm" -s
expect_out "p2.parm:2:1: 'pattern=' may be used only once."
# pattern= on an fsd is not built: refused by name, nothing made.
printf 'pattern=%s/pat\nfsd=fsd1,anchor=%s/anc,depth=1,width=1,files=2,size=64k\nfwd=fwd1,fsd=fsd1,operation=write,threads=1\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=2,interval=1\n' "$T" "$T" >"$T/pf.parm"
timeout 60 "$VDBC" -f "$T/pf.parm" -o "$T/o_pf" --port 0 >"$T/out" 2>&1
expect_out "'pattern=' with fsd= file-system workloads (vdbc's file-system writes take compratio= and compressionseed= only) is not supported by vdbc yet"
# dedupratio= on fsds: vdbench writes duplicates there (511 of 1,024
# distinct 4k blocks over 4 x 1 MiB files at dedupratio=2, dedupunit=4k,
# gzip 1.567x); vdbc wrote every block unique and said nothing. It is
# refused by name before any I/O until fsd dedup is built.
printf 'dedupratio=2,dedupunit=4k\nfsd=fsd1,anchor=%s/danc,depth=1,width=1,files=2,size=64k\nfwd=fwd1,fsd=fsd1,operation=write,threads=1\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=2,interval=1\n' "$T" >"$T/fdd.parm"
expect_rc 157 "$VDBC" -f "$T/fdd.parm" -o "$T/o_fdd" --port 0
expect_out "'dedupratio=' with fsd= file-system workloads (vdbench writes duplicate blocks there, Dedup.dedupFsdBlock; vdbc's file-system writes take compratio= and compressionseed= only) is not supported by vdbc yet"
[ -e "$T/danc" ] && bad "fsd dedupratio=: the anchor was made before the refusal" || ok
[ -n "$(find "$T/anc" -type f 2>/dev/null)" ] && bad "pattern= with an fsd wrote files" || ok
# An fsd's writes are vdbench's too (pattern.h, the sds' builder): a
# format and 2 s of 4k random fwd writes over 4 files of 1 MiB leave
# 1,024 distinct 4k blocks, and the files gzip within 15 % of vdbench's
# at compratio=1 and 4 (tests/data/wdata/vdbench.txt, fsdN).
for c in 1 4; do
	rm -rf "$T/fa"
	run "fsd$c" "compratio=$c\nfsd=fsd1,anchor=$T/fa,depth=1,width=1,files=4,size=1m\nfwd=fwd1,fsd=fsd1,operation=write,xfersize=4k,fileio=random,fileselect=random,threads=1\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=2,interval=1\n"
	find "$T/fa" -name 'vdb_f*.file' | sort | xargs cat >"$T/fa.all"
	blk "$T/fa.all" >"$T/fa.txt"
	d=$(fig "$T/fa.txt" distinct4k) g=$(fig "$T/fa.txt" gzip) want=$(vfig "fsd$c" gzip)
	echo "fsd compratio=$c: $d distinct 4k blocks (vdbench $(vfig "fsd$c" distinct4k)); gzip ${g}x (vdbench ${want}x)"
	[ "$d" = "$(vfig "fsd$c" distinct4k)" ] && ok || bad "fsd compratio=$c: $d distinct 4k blocks, vdbench's $(vfig "fsd$c" distinct4k)"
	near "$g" "$want" && ok || bad "fsd compratio=$c: gzip ${g}x, not within 15 % of vdbench's ${want}x"
done
# compressionseed= shapes an fsd's data too: not the default seed's.
rm -rf "$T/fa"
run fsdseed "compressionseed=7\nfsd=fsd1,anchor=$T/fa,depth=1,width=1,files=1,size=64k\nfwd=fwd1,fsd=fsd1,operation=read,threads=1\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=2,interval=1\n"
cp "$T/fa/vdb.1_1.dir/vdb_f0001.file" "$T/fa.s7"
rm -rf "$T/fa"
run fsdseed0 "fsd=fsd1,anchor=$T/fa,depth=1,width=1,files=1,size=64k\nfwd=fwd1,fsd=fsd1,operation=read,threads=1\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=2,interval=1\n"
stamped "$T/fa.s7" "$T/fa/vdb.1_1.dir/vdb_f0001.file" && bad "fsd: compressionseed=7 and the default seed wrote the same data" || ok
finish
