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

# --dump=json: the model alone on stdout, the console on stderr.
timeout 60 "$VDBC" -s --dump=json -f "$T/t03.parm" -o "$T/o" >"$T/json" 2>"$T/err"
[ $? = 0 ] && ok || bad "--dump=json failed"
head -c1 "$T/json" | grep -q '{' && ok || bad "--dump=json is not JSON"
grep -q '"model_version": 1' "$T/json" && ok || bad "no model_version"
grep -q '"kind": "xfersize"' "$T/json" && ok || bad "loops missing from the dump"

finish
