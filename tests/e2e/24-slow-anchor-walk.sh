#!/bin/bash
# A slow walk of the anchors does not lose the slave (issue 14 part 5).
# Before READY and before RUN_END of a file-system run the slave stats
# what exists of each fsd tree for anchors.html; on NFS or with millions
# of files that takes longer than the master's silence limit (5 s). The
# walk runs on a thread of its own, so heartbeats go on meanwhile. The
# test hook VDBC_TEST_STAT_DELAY_US (read only by the walk) sleeps after
# each file's stat: 300 files x 25 ms make each walk of the formatted
# tree about 7.5 s. The run must end with exit 0, no slave lost, and
# anchors.html saying what is on disk.
. "$(dirname "$0")/lib.sh"

A=$T/a
# messagescan=no: the console holds vdbc's own lines only (the kernel log
# of other programs, which may say "lost", stays out).
printf 'messagescan=no\nfsd=fsd1,anchor=%s,depth=1,width=1,files=300,size=4k\nfwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,fileio=sequential,fileselect=random,threads=1\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=2,interval=1\n' "$A" >"$T/w.parm"
t0=$(date +%s.%N)
VDBC_TEST_STAT_DELAY_US=25000 timeout 120 "$VDBC" -f "$T/w.parm" -o "$T/o" --port 0 --seed 3 >"$T/out" 2>&1
rc=$?
t1=$(date +%s.%N)
[ "$rc" = 0 ] && ok || { bad "slow walk: exit $rc"; tail -20 "$T/out"; }
grep -E "^[0-9:.]{12} (Slave [^ ]+ .*lost: |[0-9]+ slaves lost: )" "$T/out" >"$T/lost" &&
	{ bad "a slave was lost during the walk"; cat "$T/lost"; } || ok
[ "$(find "$A" -type f -name 'vdb_f*.file' | wc -l)" = 300 ] && ok || bad "the format did not make 300 files"
# The walks were slow: three of the formatted tree (after the format,
# before and after the run), each 300 x 25 ms, longer than 5 s of silence.
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
echo "run with three slow walks took $secs s"
awk -v s="$secs" 'BEGIN { exit !(s >= 22.5) }' && ok || bad "the walks were not slow ($secs s): the test hook did nothing"
# anchors.html: the last row has the 300 files of 4 KiB in 1 directory.
awk -v a="$A" '$1 == a { n++; f = $11; d = $12; b = $13 }
	END { printf "anchors.html: %d rows, last %s files %s dirs %s\n", n, f, d, b
	      exit !(n >= 3 && f == 300 && d == 1 && b == "1.2m") }' "$T/o/anchors.html" && ok || bad "anchors.html rows are wrong"
finish
