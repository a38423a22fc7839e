#!/bin/bash
# vdbc -s end to end: the plan of a parmfile, vdbench's error texts with
# file:line:column and exit 157, and --dump=json.
. "$(dirname "$0")/lib.sh"

expect_rc 0 "$VDBC" -s -f "$VDBC_SRC/parmfiles/quick.parm" -o "$T/o" lun="$T/f"
expect_out "Simulating RD=rd1; I/O rate: 100; elapsed=5; For loops: None"
expect_out "SD_format run will precede the first run: lun=$T/f"
expect_out "Vdbench simulation completed successfully. Output directory: $T/o"
[ -d "$T/o" ] && ok || bad "no output directory"

cat >"$T/t03.parm" <<'P'
sd=sd1,lun=/dev/sdb
wd=wd1,sd=sd1
rd=rd1,wd=wd1,iorate=max,elapsed=10,interval=1,forxfersize=(4k,64k),forthreads=(1,8),forrdpct=(0,100)
P
expect_rc 0 "$VDBC" -s -f "$T/t03.parm" -o "$T/o"
n=$(grep -c "Simulating RD=rd1; I/O rate: Uncontrolled MAX; elapsed=10; For loops: " "$T/out")
[ "$n" = 8 ] && ok || bad "T03 gave $n runs, wanted 8"
expect_out "For loops: xfersize=64k threads=8 rdpct=100"

# Argument gluing and overrides: -f glued, -e/-i apart, + extras.
expect_rc 0 "$VDBC" -s -f"$T/t03.parm" -o "$T/o" -e 20 -i2 + iorate=100
expect_out "Adding ',iorate=100' to each one-line RD parameter."
expect_out "Simulating RD=rd1; I/O rate: 100; elapsed=20; For loops: xfersize=4k threads=1 rdpct=0"

# A misspelled keyword: file:line:column, vdbench's text, exit 157.
cat >"$T/bad.parm" <<'P'
sd=sd1,lun=/tmp/x,size=1m
wd=wd1,sd=sd1,xfersise=4k
rd=rd1,wd=wd1,iorate=100,elapsed=4,interval=1
P
expect_rc 157 "$VDBC" -s -f "$T/bad.parm" -o "$T/o"
expect_out "$T/bad.parm:2:15: Unknown keyword: xfersise (did you mean 'xfersize='?)"
expect_out "    wd=wd1,sd=sd1,xfersise=4k"
grep -A1 "    wd=wd1,sd=sd1,xfersise=4k" "$T/out" | tail -1 | cut -c14- | grep -qx "                  ^" && ok || bad "no caret under xfersise"
expect_rc 157 "$VDBC" -f "$T/bad.parm" -o "$T/o"
expect_out "Unknown keyword: xfersise"

expect_rc 157 "$VDBC" -s -f "$T/nope.parm" -o "$T/o"
expect_out "Requested parameter file does not exist: $T/nope.parm"
expect_rc 157 "$VDBC" -s -f "$T/t03.parm" -o "$T/o" -Z
expect_out "Invalid execution parameter: '-Z'"
expect_out "usage:"
expect_rc 157 "$VDBC" -s -f "$T/t03.parm" -o "$T/o" foo=1
expect_out "Unused parameter substitution: foo=1"
expect_out "Unused parameter substitution."
expect_rc 157 "$VDBC" -s -f "$VDBC_SRC/parmfiles/quick.parm" -o "$T/o"
expect_out 'Unknown variable substitution request in parameter file: sd=sd1,lun=$lun,size=40m'

# include= beside the including file; a nested one is refused.
printf 'sd=sd1,lun=/dev/sdb\nsd=sd2,lun=/dev/sdc\n' >"$T/sds.inc"
printf 'include=sds.inc\nwd=wd1,sd=*\nrd=rd1,wd=wd1,iorate=100,elapsed=4,interval=1\n' >"$T/main.parm"
expect_rc 0 "$VDBC" -s -f "$T/main.parm" -o "$T/o"
expect_out "Simulating RD=rd1; I/O rate: 100; elapsed=4; For loops: None"
printf 'include=x\n' >"$T/sds.inc"
expect_rc 157 "$VDBC" -s -f "$T/main.parm" -o "$T/o"
expect_out "Using the 'include=' parameter recusrively is not allowed: include=x"

# 100,000 sds on separate lines (review2 finding 2): each name is looked
# up in an index, not compared with every sd before it. The lines took 51 s
# (quadratic); issue 7 asks for under 5 s. Wildcards, a wd list and an rd
# list all resolve to every sd; a repeated name is still found at the end.
seq 1 100000 | awk '{ printf "sd=sd%d,lun=%s/x%d,size=1m\n", $1, T, $1 }' T="$T" >"$T/100k.sds"
{ cat "$T/100k.sds"; echo 'wd=wd1,sd=sd*,xfersize=4k'
  echo 'rd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1'; } >"$T/100k.parm"
{ cat "$T/100k.sds"; echo 'wd=wd1,sd=(sd1-sd100000),xfersize=4k'
  echo 'rd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1'
  echo 'rd=rd2,wd=wd1,sd=(sd50001-sd100000),iorate=10,elapsed=2,interval=1'; } >"$T/100klist.parm"
# Not a timing limit (a loaded machine would fail it): the time of
# 100,000 sds against that of 10,000, linear about 10x, quadratic 100x.
{ head -10000 "$T/100k.sds"; echo 'wd=wd1,sd=sd*,xfersize=4k'
  echo 'rd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1'; } >"$T/10k.parm"
start=$(date +%s%N)
expect_rc 0 "$VDBC" -s -f "$T/10k.parm" -o "$T/o10k"
ms10=$(( ($(date +%s%N) - start) / 1000000 ))
for f in 100k 100klist; do
	start=$(date +%s%N)
	expect_rc 0 "$VDBC" -s -f "$T/$f.parm" -o "$T/o$f"
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	expect_out "Vdbench simulation completed successfully"
	n=$(grep -c "an SD_format run will precede the first run: lun=$T/x" "$T/out")
	[ "$n" = 100000 ] && ok || bad "$f.parm: $n of 100000 sds planned"
	echo "$f.parm: 100,000 sds simulated in $ms ms (10,000 in $ms10 ms)"
	[ "$ms" -lt $(( 40 * (ms10 > 100 ? ms10 : 100) )) ] && ok ||
		bad "$f.parm: 100,000 sds took $ms ms, over 40 times the $ms10 ms of 10,000: not linear"
done
{ cat "$T/100k.sds"; echo "sd=sd99999,lun=$T/y"; } >"$T/100kdup.parm"
expect_rc 157 "$VDBC" -s -f "$T/100kdup.parm" -o "$T/o"
expect_out "100kdup.parm:100001:1: An SD can only be defined once: sd=sd99999"

# The same planning in a real run (not a simulation): 5,000 existing luns.
# Looking each lun up among the slave's INFO answer by walking it kept the
# master busy past the slaves' 5 s heartbeat limit ("lost: connection
# error"); indexed, the run completes.
mkdir "$T/luns" && (cd "$T/luns" && seq 1 5000 | sed 's/^/x/' | xargs truncate -s 64k)
{ echo 'sd=default,threads=1,size=64k'
  seq 1 5000 | awk '{ printf "sd=sd%d,lun=%s/luns/x%d\n", $1, T, $1 }' T="$T"
  echo 'wd=wd1,sd=sd*,xfersize=4k'
  echo 'rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1'; } >"$T/5k.parm"
# A scale check: a sanitizer build's master is several times slower and
# can still pass the 5 s on its own (that is what it measures): not there.
if [ "${VDBC_SANITIZED:-0}" != 1 ]; then
	expect_rc 0 "$VDBC" -f "$T/5k.parm" -o "$T/o5k" -m 2 --port 0 --seed 1
	expect_out "Vdbench execution completed successfully"
fi

# --dump=json: the model alone on stdout, the console on stderr.
timeout 60 "$VDBC" -s --dump=json -f "$T/t03.parm" -o "$T/o" >"$T/json" 2>"$T/err"
[ $? = 0 ] && ok || bad "--dump=json failed"
head -c1 "$T/json" | grep -q '{' && ok || bad "--dump=json is not JSON"
grep -q '"model_version": 1' "$T/json" && ok || bad "no model_version"
grep -q '"kind": "xfersize"' "$T/json" && ok || bad "loops missing from the dump"

finish
