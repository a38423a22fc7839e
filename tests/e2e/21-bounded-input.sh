#!/bin/bash
# Bounded input: a parmfile or include that is not a regular file (an
# include of a FIFO, /dev/zero; -f may be a pipe) or is over 16 MiB is
# refused at once with a located error (a pipe after 16 MiB, even without
# newlines, with memory bounded); a
# NUL byte, a lun that is not UTF-8, count= over 100,000, more than
# 100,000 sds in all, an rd of more than 100,000 runs and an fsd tree
# too big to count are located errors; 100,000 sds simulate in under 5 s.
. "$(dirname "$0")/lib.sh"

# refused NAME TEXT ARGS...: vdbc -s exits 157 within 10 s saying TEXT.
refused() {
	local name=$1 text=$2 rc; shift 2
	timeout 10 "$VDBC" -s -o "$T/o" "$@" >"$T/$name.log" 2>&1
	rc=$?
	if [ "$rc" = 157 ]; then ok; else
		bad "$name: exit $rc, wanted 157 (124: it hung)"; cat "$T/$name.log"; fi
	if grep -qF -- "$text" "$T/$name.log"; then ok; else
		bad "$name: output lacks: $text"; cat "$T/$name.log"; fi
}

mkfifo "$T/fifo"
refused dev-zero "Parameter file /dev/zero is a character device; a parameter file must be a regular file" -f /dev/zero
# -f may be a pipe, bounded too: a FIFO without a writer is empty at once
# (it hung), and 17 MiB on /dev/stdin, a file or a pipe, are refused.
refused fifo "Early EOF on input parameters" -f "$T/fifo"
yes '*' | head -c 17M >"$T/big-text"
refused stdin-big "Parameter file /dev/stdin has 17825792 bytes; at most 16 MiB are read" -f /dev/stdin <"$T/big-text"
cat "$T/big-text" | refused stdin-pipe "Parameter file /dev/stdin goes on past 16 MiB" -f /dev/stdin
# A pipe without newlines is bounded too: vdbc stops after 16 MiB while the
# writer still writes (getline() read the whole "line" first: 7.3 GB in
# 30 s from /dev/zero, and no error until the writer stopped). Here the
# writer sends 17 MiB and then holds the pipe open for 30 s.
start=$(date +%s%N)
refused stdin-nonl "/dev/stdin:1: Parameter file /dev/stdin goes on past 16 MiB; at most that is read" \
	-f /dev/stdin < <(head -c 17M /dev/zero; exec sleep 30)
w=$!
ms=$((($(date +%s%N) - start) / 1000000))
kill -0 "$w" 2>/dev/null && ok || bad "the writer was gone before vdbc stopped ($ms ms)"
kill "$w" 2>/dev/null
# An endless /dev/zero on stdin, 1 MiB every 20 ms so that the peak RSS of
# vdbc, sampled from /proc while it reads, is seen: it stays near the
# 16 MiB it may read. Release builds also run it under a 1 GiB
# address-space limit so a regression fails at once.
lim=()
[ "${VDBC_SANITIZED:-0}" != 1 ] && lim=(prlimit --as=1073741824)
rm -f "$T/zero.pid"
(while :; do head -c 1M /dev/zero || exit; sleep 0.02; done) |
	timeout 20 bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$T/zero.pid" \
	"${lim[@]}" "$VDBC" -s -o "$T/o" -f /dev/stdin >"$T/zero.log" 2>&1 &
z=$!
PIDS="$PIDS $z"
for ((i = 0; i < 100; i++)); do [ -s "$T/zero.pid" ] && break; sleep 0.05; done
p=$(cat "$T/zero.pid" 2>/dev/null)
peak=0
while [ -n "$p" ] && kill -0 "$p" 2>/dev/null; do
	while read -r k v _; do
		[ "$k" = VmHWM: ] && [ "$v" -gt "$peak" ] && peak=$v
	done <"/proc/$p/status" 2>/dev/null
	sleep 0.01
done
wait "$z"
rc=$?
echo "endless /dev/zero on stdin: exit $rc, peak RSS seen $peak KiB"
[ "$rc" = 157 ] && ok || { bad "endless /dev/zero: exit $rc, wanted 157 (124: it hung)"; cat "$T/zero.log"; }
grep -qF "/dev/stdin:1: Parameter file /dev/stdin goes on past 16 MiB" "$T/zero.log" && ok ||
	{ bad "endless /dev/zero: no 16 MiB error"; cat "$T/zero.log"; }
if [ "${VDBC_SANITIZED:-0}" != 1 ]; then
	[ "$peak" -gt 0 ] && [ "$peak" -lt 65536 ] && ok ||
		bad "endless /dev/zero: peak RSS $peak KiB, wanted under 64 MiB"
fi
printf '* first\ninclude=/dev/zero\n' >"$T/inc-zero.parm"
refused inc-zero "$T/inc-zero.parm:2:1: Parameter file /dev/zero is a character device" -f "$T/inc-zero.parm"
printf 'include=%s\n' "$T/fifo" >"$T/inc-fifo.parm"
refused inc-fifo "$T/inc-fifo.parm:1:1: Parameter file $T/fifo is a FIFO" -f "$T/inc-fifo.parm"
truncate -s 17M "$T/big.parm"
refused big "Parameter file $T/big.parm has 17825792 bytes; at most 16 MiB are read" -f "$T/big.parm"
printf 'include=%s\n' "$T/big.parm" >"$T/inc-big.parm"
refused inc-big "$T/inc-big.parm:1:1: Parameter file $T/big.parm has 17825792 bytes" -f "$T/inc-big.parm"
cp "$T/big.parm" "$T/big.yaml"
refused big-yaml "at most 16 MiB are read" -f "$T/big.yaml"

# A NUL byte no longer ends the line silently (it dropped size=).
printf 'sd=sd1,lun=%s/x\0,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=4,interval=1\n' "$T" >"$T/nul.parm"
refused nul "$T/nul.parm:1:$((${#T} + 14)): A NUL byte in a parameter file" -f "$T/nul.parm"
# A lun that is not UTF-8 (jansson cannot send it to a slave).
printf 'sd=sd1,lun=%s/x\xff,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=4,interval=1\n' "$T" >"$T/utf8.parm"
refused utf8 "$T/utf8.parm:1:8: 'lun=' is not valid UTF-8 text" -f "$T/utf8.parm"
# count= past the limit says so (it said "requires two values").
printf 'sd=sd,lun=%s/f*,size=1m,count=(1,100001)\nwd=wd1,sd=sd*\nrd=rd1,wd=wd1,iorate=10,elapsed=4,interval=1\n' "$T" >"$T/count.parm"
refused count "'count=(1,100001)' asks for more than 100000 copies of sd=sd; at most 100000 are allowed" -f "$T/count.parm"
# At most 100,000 sds in all, count= copies included: 100 lines of
# count=(1,100000) ran for minutes in gigabytes; now the second line is
# refused at once, in little memory.
for i in $(seq 1 100); do
	echo "sd=a${i}_,lun=$T/y${i}_,size=1m,count=(1,100000)"
done >"$T/c10m.parm"
printf 'wd=wd1,sd=*\nrd=rd1,wd=wd1,iorate=10,elapsed=4,interval=1\n' >>"$T/c10m.parm"
lim=()
[ "${VDBC_SANITIZED:-0}" != 1 ] && lim=(prlimit --as=1073741824)
refused total-sds "$T/c10m.parm:2:1: sd=a2_ with its count= brings the sds to 200000; at most 100000 sds are allowed in all" \
	-f "$T/c10m.parm"
if [ ${#lim[@]} -gt 0 ]; then
	timeout 10 "${lim[@]}" "$VDBC" -s -o "$T/o" -f "$T/c10m.parm" >"$T/c10m.log" 2>&1
	rc=$?
	[ "$rc" = 157 ] && grep -qF "at most 100000 sds are allowed in all" "$T/c10m.log" && ok ||
		{ bad "total sds under a 1 GiB limit: exit $rc"; tail -3 "$T/c10m.log"; }
fi
# An rd of 10^9 runs is refused at its line (it named no place).
printf 'sd=sd1,lun=%s/r,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=4,interval=1,forthreads=(1-100000,1),forrdpct=(1-100,1),forseekpct=(1-100,1)\n' "$T" >"$T/runs.parm"
refused runs "$T/runs.parm:3:1: rd=rd1 expands to 1000000000 runs; vdbc plans at most 100000" -f "$T/runs.parm"
# An fsd whose counts wrap 64 bits (it printed 18446744073709551516 files).
printf 'fsd=fsd1,anchor=%s/a,depth=10,width=100,files=100,size=4k\nfwd=fwd1,fsd=fsd1\nrd=rd1,fwd=fwd1,fwdrate=10,format=yes,elapsed=4,interval=1\n' "$T" >"$T/fsd.parm"
refused fsd "$T/fsd.parm:1:1: fsd=fsd1: depth=10,width=100,files=100 makes more directories, files or bytes than 64 bits can count" -f "$T/fsd.parm"

# 100,000 sds by count=: every one simulated, in under 5 s (was 65 s).
printf 'sd=sd,lun=%s/f*,size=1m,count=(1,100000)\nwd=wd1,sd=sd*\nrd=rd1,wd=wd1,iorate=100,elapsed=4,interval=1\n' "$T" >"$T/many.parm"
start=$(date +%s%N)
expect_rc 0 timeout 120 "$VDBC" -s -f "$T/many.parm" -o "$T/o"
ms=$((($(date +%s%N) - start) / 1000000))
expect_out "Vdbench simulation completed successfully"
n=$(grep -c "an SD_format run will precede the first run: lun=$T/f[0-9]* does not exist" "$T/out")
[ "$n" = 100000 ] && ok || bad "$n sds simulated, wanted 100000"
echo "100,000 sds: -s took $ms ms"
if [ "${VDBC_SANITIZED:-0}" != 1 ]; then
	[ "$ms" -lt 5000 ] && ok || bad "100,000 sds took $ms ms in -s, wanted under 5000"
fi
finish
