#!/bin/bash
# hotband= and stride= through the whole path, seen in the data they leave
# in a sparse file (an unwritten 4k block reads as zeros), plus the dedup
# keywords' errors with file:line and the null engine's format skip.
. "$(dirname "$0")/lib.sh"

# Non-zero bytes in 4k blocks [from, from+count) of $1.
nonzero() {
	dd if="$1" bs=4096 skip="$2" count="$3" status=none | tr -d '\000' | wc -c
}

# hotband=(0,100): about 4,000 4k writes over 4,096 blocks. Uniform would
# touch ~62 % of every region; the hot band touches nearly all of the
# first tenth and about a third of the second half.
truncate -s 16m "$T/hot"
printf 'sd=sd1,lun=%s/hot,threads=1\nwd=wd1,sd=sd1,hotband=(0,100),rdpct=0\nrd=rd1,wd=wd1,iorate=2000,elapsed=2,interval=1\n' "$T" >"$T/hot.parm"
expect_rc 0 "$VDBC" -f "$T/hot.parm" -o "$T/o1" --port 0 --seed 11
lo=$(nonzero "$T/hot" 0 409)
hi=$(nonzero "$T/hot" 2048 2048)
echo "hotband: first tenth $((lo * 100 / (409 * 4096))) % written, second half $((hi * 100 / (2048 * 4096))) %"
[ "$lo" -gt $((409 * 4096 * 85 / 100)) ] && ok || bad "hotband: the first tenth is not hot"
[ "$hi" -lt $((2048 * 4096 * 48 / 100)) ] && ok || bad "hotband: the second half is not cold"

# stride=(64k,64k): every write lands on a 64k boundary, so the 4k block
# after each boundary stays zero.
truncate -s 16m "$T/str"
printf 'sd=sd1,lun=%s/str,threads=1\nwd=wd1,sd=sd1,stride=(64k,64k),rdpct=0\nrd=rd1,wd=wd1,iorate=500,elapsed=2,interval=1\n' "$T" >"$T/str.parm"
expect_rc 0 "$VDBC" -f "$T/str.parm" -o "$T/o2" --port 0 --seed 11
on=$(nonzero "$T/str" 16 1)
off=0
for b in 1 17 33 100 255 1023 4001; do
	off=$((off + $(nonzero "$T/str" "$b" 1)))
done
echo "stride: block 16 has $on non-zero bytes, off-stride blocks $off"
[ "$on" -gt 4000 ] && [ "$off" = 0 ] && ok || bad "stride=(64k,64k) wrote off its 64k steps"

# dedup keywords: the error names the file, line and column.
printf 'dedupratio=0.5\nsd=sd1,lun=%s/d\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" >"$T/dd.parm"
expect_rc 157 "$VDBC" -f "$T/dd.parm" -s
expect_out "dd.parm:1:1: dedupratio= must be one number of at least 1: 0.5"
printf 'dedupunit=1000\nsd=sd1,lun=%s/d\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" >"$T/du.parm"
expect_rc 157 "$VDBC" -f "$T/du.parm" -s
expect_out "du.parm:1:1: dedupunit= must be one size, a multiple of 512 bytes"

# engine=null does no I/O: no format run; an empty file is made.
printf 'sd=sd1,lun=%s/nul,size=8m,engine=null\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n' "$T" >"$T/n.parm"
expect_rc 0 "$VDBC" -f "$T/n.parm" -o "$T/o3" --port 0
expect_out "engine=null does no I/O, so the lun is not formatted"
if grep -q 'RD=SD_format' "$T/out"; then bad "null sd was formatted"; else ok; fi
[ -f "$T/nul" ] && ok || bad "no file for the null sd"
finish
