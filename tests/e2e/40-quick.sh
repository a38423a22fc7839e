#!/bin/bash
# vdbc quick (issue 29 item 1): one command, the standard matrix.
# - bad arguments and targets refused before any I/O, naming what and why
# - a directory TARGET gets vdbc_quick.dat in it
# - quick -s: quick.parm (the lines of parmfiles/quick-matrix.parm with
#   the values filled in: the two stay one matrix) simulated, 25 runs as
#   vdbench -s plans it (25 "Simulating RD" lines, 2026-12-05), no I/O
# - a real run on a file (release build only: 25 runs of 2 s): the table
#   has every run with MB/s, IOPS, p50 and p99, quick.html the desktop
#   figures, the read % matrix and the transfer sweep, with no "n/a"
. "$(dirname "$0")/lib.sh"

expect_rc 2 "$VDBC" quick
expect_out "vdbc quick: a TARGET is needed"
expect_rc 2 "$VDBC" quick "$T/x" --time 1
expect_out "invalid value for '--time': '1'"
expect_rc 2 "$VDBC" quick "$T/x" --size 1m
expect_out "invalid value for '--size': '1m' (expected a size of at least 16m"
expect_rc 2 "$VDBC" quick "$T/x" --hosts h1,h2
expect_out "--hosts is not built yet"
expect_rc 2 "$VDBC" quick "$T/x" "$T/y"
expect_out "one TARGET only"
expect_rc 2 "$VDBC" quick "$T/x" --frob
expect_out "unknown option"
expect_rc 157 "$VDBC" quick "$T/nodir/x" -o "$T/o1"
expect_out "'$T/nodir/x': no directory '$T/nodir' to make it in"
expect_rc 157 "$VDBC" quick /dev/null -o "$T/o1"
expect_out "'/dev/null' is neither a file nor a block device"
[ ! -e "$T/x" ] && ok || bad "a refused quick made its target"
expect_rc 0 "$VDBC" quick --help
expect_out "usage: vdbc quick TARGET"
# a file holding data is written over only with --overwrite
printf 'precious\n' >"$T/keep"
expect_rc 157 "$VDBC" quick "$T/keep" -o "$T/o1"
expect_out "'$T/keep' exists and holds 9 bytes, which the runs would write over: give --overwrite"
[ "$(cat "$T/keep")" = precious ] && ok || bad "a refused quick touched the file"
# no room: refused before any I/O, naming the need and the free space
expect_rc 157 "$VDBC" quick "$T/huge" --size 900t -o "$T/o1"
expect_out "'$T/huge' needs 900t and its file system"
[ ! -e "$T/huge" ] && ok || bad "a refused quick made its file"

# The parmfile: a directory target, a size, a time; the matrix lines
# after the sd are quick-matrix.parm's, $time filled in.
mkdir -p "$T/d"
# a relative TARGET is written absolute: quick.parm runs from anywhere
expect_rc 0 bash -c "cd '$T' && '$VDBC' quick d --size 32m --time 3 -o '$T/o2' -s"
n=$(grep -c "Simulating RD=" "$T/out")
[ "$n" = 25 ] && ok || bad "quick -s planned $n runs, not vdbench's 25"
[ ! -e "$T/d/vdbc_quick.dat" ] && ok || bad "quick -s made its target"
grep -q "^sd=sd1,lun=$T/d/vdbc_quick.dat,size=32m" "$T/o2/quick.parm" && ok ||
	bad "quick.parm's sd: $(grep '^sd=' "$T/o2/quick.parm")"
grep -v '^\*' "$VDBC_SRC/parmfiles/quick-matrix.parm" | grep -v '^sd=' |
	sed 's/\$time/3/' >"$T/want"
grep -v '^\*' "$T/o2/quick.parm" | grep -v '^sd=' >"$T/got"
cmp -s "$T/want" "$T/got" && ok || { bad "quick.parm is not quick-matrix.parm's matrix"; diff "$T/want" "$T/got"; }

if [ "${VDBC_SANITIZED:-0}" = 1 ]; then
	echo "skip: the quick matrix is run in the release build only"
	finish
	exit
fi
timeout 300 "$VDBC" quick "$T/q.dat" --size 16m --time 2 -o "$T/oq" --seed 7 >"$T/q.out" 2>&1
rc=$?
[ "$rc" = 0 ] && ok || { bad "quick: exit $rc"; tail -20 "$T/q.out"; }
grep -q "^vdbc quick: $T/q.dat, a 16m file, " "$T/q.out" && ok || bad "no header line: $(head -1 "$T/q.out")"
grep -q "vdbc: run 2 of 26; about " "$T/q.out" && ok || bad "no progress line with the time left"
# the table: 25 runs, each with 4 figures
sed -n '/^run  *queue for-loop/,/^(MB\/s/p' "$T/q.out" >"$T/table"
n=$(awk 'NR > 1 && $1 ~ /^(seq|rnd|mix|xfer)/ && $(NF) ~ /^[0-9.]+$/ && $(NF - 3) > 0 { n++ } END { print n + 0 }' "$T/table")
[ "$n" = 25 ] && ok || { bad "the table has $n runs with figures, not 25"; cat "$T/table"; }
grep -q "^rnd_read_4k_q1  *1  " "$T/table" && ok || bad "no queue 1 random read row"
h="$T/oq/quick.html"
for s in "The desktop figures" "Random read 4k, queue 32" "0 % reads" "random 4k, queue 32" \
    "512k" 'href="summary.html"' 'href="quick.parm"' "<svg"; do
	grep -qF "$s" "$h" && ok || bad "quick.html lacks '$s'"
done
! grep -q "n/a\|not run" "$h" && ok || bad "quick.html has cells without figures"
[ -s "$T/oq/summary.html" ] && [ -s "$T/oq/results.json" ] && ok || bad "no ordinary report beside quick.html"
finish
