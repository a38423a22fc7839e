#!/bin/bash
# Data validation with dedup (reference/vdbench-5.04.06/validation/
# v6_dedup_validate): -v with dedupratio=2,dedupunit=4k forces flipflop
# on with vdbench's banner, runs a v6-like pair of rds with rc 0 and
# vdbench's read percentage, writes unique and duplicate blocks as
# vdbench does (bytes checked here at two blocks whose kind follows from
# vdbench's java.util.Random bitmap seeded with "sd=sd1".hashCode()),
# and finds corrupted duplicate blocks (zeros, one byte, a lost write =
# the stale copy with the other flipflop key, another set's block) and a
# corrupted unique block, with vdbench's dedup report lines.
. "$(dirname "$0")/lib.sh"

BANNER="* Data Validation with Dedup requires 'dedup=flipflop'. Flipflop now activated. *"
STARS="*********************************************************************************"

# 1. v6: one sequential write pass, then random 50/50 (rc 0).
cat >"$T/v6.parm" <<P
dedupratio=2
dedupunit=4k
sd=sd1,lun=$T/lun6,size=128m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=eof
wd=wd2,sd=sd1,xfersize=4k,rdpct=50,seekpct=random
rd=rd1,wd=wd1,iorate=max,elapsed=30,interval=1,threads=2
rd=rd2,wd=wd2,iorate=max,elapsed=2,interval=1,threads=2
P
expect_rc 0 "$VDBC" -f "$T/v6.parm" -o "$T/o6" -v --port 0 --seed 1
expect_out "$BANNER"
[ "$(grep -cE "^[0-9:.]+ \*{81}$" "$T/out")" = 2 ] && ok || bad "banner: not two star lines"
grep -B2 -F -- "$BANNER" "$T/out" | head -1 | grep -qE ' \*$' && ok || bad "banner: no '*' line before"
expect_out "Creating bitmap for unique blocks for sd=sd1. 1 bitmaps for a total of 32,768 bits, identifying 14,745 unique blocks"
expect_out "Total amount of key blocks read and validated:        0; key blocks marked in error:    0 "
# rd2's read percentage follows from the pre-reads: 66.6 as vdbench's
pct=$(awk '/avg_2-/ { v = $6 } END { print v }' "$T/out")
awk -v p="$pct" 'BEGIN { exit !(p > 64 && p < 69) }' && ok || bad "rd2 read pct $pct, wanted about 66.6"
grep -q "Total amount of key blocks read and validated: *[1-9]" "$T/out" && ok || bad "rd2 validated nothing"
# only the flipflop keys 1 and 2
grep -h "Key  *[0-9]*: reads:" "$T/o6"/*.html | grep -vq "Key   [12]: " && bad "a key other than 1 and 2" || ok
# 32,768 units, 1,638 sets (5%); unit 2000 is unique (vdbench's
# bitmap): the usual header, dedup type 1 in byte 0x11; unit 3000
# duplicates set 3000 % 1638 = 1362 (0x552): bytes 0-7 = key << 56 |
# type 1 << 32 | 1362, little-endian words
hdr=$(od -A n -t x1 -j $((2000 * 4096)) -N 20 "$T/lun6" | tr -d ' \n')
case $hdr in 0000000000007d00????????????????0001??0[12]) ok ;; *) bad "unique block 2000 header $hdr" ;; esac
hdr=$(od -A n -t x1 -j $((3000 * 4096 + 512)) -N 8 "$T/lun6" | tr -d ' \n')
case $hdr in 0100000[12]52050000) ok ;; *) bad "duplicate block 3000 sector 1 starts $hdr" ;; esac
# two duplicates of one set hold the same bytes (300 and 5214 = 300 +
# 3 * 1638) past each sector's set word (which holds the key)
same=1
for s in 0 1 2 3 4 5 6 7; do
	cmp -s <(dd if="$T/lun6" bs=512 skip=$((300 * 8 + s)) count=1 status=none | tail -c 504) \
		<(dd if="$T/lun6" bs=512 skip=$((5214 * 8 + s)) count=1 status=none | tail -c 504) || same=0
done
[ $same = 1 ] && ok || bad "duplicates 300 and 5214 differ past the set words"

# 2. Corruption: rd1 writes every block (key 1), p1 reads the end while
# the test keeps block 1023 (a duplicate, key 1), rd2 writes every block
# again (key 2), p2 reads the end while the test corrupts five blocks in
# the first 15%, rd3 reads that range once (seekpct=eof).
cat >"$T/c.parm" <<P
dedupratio=2
dedupunit=4k
sd=sd1,lun=$T/lun,size=128m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=eof
wd=wd2,sd=sd1,xfersize=4k,rdpct=100,seekpct=eof,range=(0,15)
wd=wdp,sd=sd1,xfersize=4k,rdpct=100,seekpct=random,range=(80,100)
rd=rd1,wd=wd1,iorate=max,elapsed=30,interval=1,threads=2
rd=p1,wd=wdp,iorate=100,elapsed=2,interval=1,threads=1
rd=rd2,wd=wd1,iorate=max,elapsed=30,interval=1,threads=2
rd=p2,wd=wdp,iorate=100,elapsed=3,interval=1,threads=1
rd=rd3,wd=wd2,iorate=max,elapsed=30,interval=1,threads=2
P
timeout 60 "$VDBC" -f "$T/c.parm" -o "$T/oc" -v --port 0 --seed 3 >"$T/out" 2>&1 &
pid=$!
PIDS="$PIDS $pid"
if wait_for "$T/out" "Starting RD=p1;" 30; then
	dd if="$T/lun" of="$T/stale" bs=4096 skip=1023 count=1 status=none
else bad "rd p1 never started"; fi
if wait_for "$T/out" "Starting RD=p2;" 30; then
	dd if=/dev/zero of="$T/lun" bs=4096 seek=3000 count=1 conv=notrunc status=none
	off=$((1000 * 4096 + 1280))	# one byte of duplicate 1000
	old=$(od -A n -t x1 -j $off -N 1 "$T/lun" | tr -d ' ')
	printf "\\x$(printf '%02x' $((0x$old ^ 0xff)))" |
		dd of="$T/lun" bs=1 seek=$off count=1 conv=notrunc status=none
	dd if="$T/stale" of="$T/lun" bs=4096 seek=1023 count=1 conv=notrunc status=none
	dd if="$T/lun" of="$T/lun" bs=4096 skip=5 seek=1500 count=1 conv=notrunc status=none
	dd if=/dev/urandom of="$T/lun" bs=4096 seek=2000 count=1 conv=notrunc status=none
	grep -q "Starting RD=rd3;" "$T/out" &&
		bad "the corruption ended after rd3 began (machine too slow)"
else bad "rd p2 never started"; fi
wait $pid
rc=$?
[ "$rc" = 157 ] && ok || { bad "corruption run: exit $rc, wanted 157"; tail -30 "$T/out"; }
[ "$(grep -c 'Corrupted data block for' "$T/out")" = 5 ] && ok || bad "not 5 corrupted data blocks"
grep -qF "key blocks marked in error:    5 " "$T/out" && ok || bad "not 5 key blocks in error"

section() {
	sed -n "/Corrupted data block for sd=sd1,lun=.*(0x$1) xfersize=4096/,/ op: read /p" "$T/out"
}
has() { # LBA_HEX TEXT
	if section "$1" | grep -qF -- "$2"; then ok; else bad "block 0x$1: lacks '$2'"; section "$1" | head -40; fi
}
# zeroed duplicate 3000 (set 1362): set word and pattern both wrong
has 00bb8000 "All corruptions are of the same type: "
has 00bb8000 "   ===> Compression pattern miscompare."
has 00bb8000 "   ===> Bad dedup set value."
has 00bb8000 "   ===> This is a duplicate (dedup) block."
section 00bb8000 | grep -qE "0x000\*  02000001 00000552 [0-9a-f]{8} [0-9a-f]{8}   00000000 00000000 00000000 00000000" && ok ||
	bad "zeroed duplicate: no 0x000* line with the set word 02000001 00000552"
section 00bb8000 | grep -q "Timestamp found in sector" && bad "a dedup report with a timestamp line" || ok
# a duplicate holds no write time: its timeline has only when it was found
section 00bb8000 | grep -q "Sector last written" && bad "a duplicate's timeline with a write time" || ok
# one byte of duplicate 1000: one sector, pattern only
has 003e8000 "   1 of 8 sectors are corrupted."
has 003e8000 "        ===> Compression pattern miscompare."
has 003e8000 "        ===> This is a duplicate (dedup) block."
section 003e8000 | grep -q "Bad dedup set value" && bad "one byte: a set word error" || ok
# the lost write of duplicate 1023: the same set with key 1, not 2
has 003ff000 "   ===> Bad dedup set value."
section 003ff000 | grep -q "Compression pattern" && bad "stale duplicate: a pattern error" || ok
section 003ff000 | grep -qE "0x000\*  02000001 000003ff [0-9a-f]{8} [0-9a-f]{8}   01000001 000003ff " && ok ||
	bad "stale duplicate: no 0x000* line, key 2 expected, key 1 found"
# another set's duplicate (block 5, set 5) over block 1500 (set 1500)
has 005dc000 "   ===> Bad dedup set value."
has 005dc000 "   ===> Compression pattern miscompare."
# random bytes over unique 2000
has 007d0000 "===> This is a unique (dedup) block."
has 007d0000 "===> Compression pattern miscompare."

finish
