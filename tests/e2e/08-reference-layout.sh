#!/bin/bash
# Every case of the real vdbench 5.04.06 (../shared/reference, or its copy
# in tests/data/reference in a plain clone), found by
# listing the directory, run by vdbc made small and temporary (a lun or
# anchor under $T, 8m sds, elapsed=2): the same exit status (0 or not);
# for a run that worked, the output directory has the same files (plus
# vdbc's results.json), the same title lines and headers, the same number
# of fields in every interval and avg line, the same flatfile columns, the
# same histogram blocks (a format run's "No statistics") and summary links,
# the same "Starting RD=" lines and the banner's "Vdbench distribution:"
# line. Numbers differ; the layout does not. A new case directory is picked
# up without a change here. The data validation cases (validation/, their
# luns at the case's size, the v2 cases' corruption by their rd startcmd
# running the reference's corrupt.sh) run by family (dv_family) and also
# compare their data validation lines, console and errorlog.html, with
# vdbench's line for line.
. "$(dirname "$0")/lib.sh"
# ../shared/reference when it is beside the project (then the copy in
# tests/data/reference must still be the same), else that copy: a plain
# clone compares every case too.
ref=$VDBC_SRC/../shared/reference/vdbench-5.04.06
copy=$VDBC_SRC/tests/data/reference/vdbench-5.04.06
if [ -d "$ref" ]; then
	diff -r -q "$ref" "$copy" >"$T/refdiff" 2>&1 && ok ||
		{ bad "tests/data/reference differs from ../shared/reference"; head -5 "$T/refdiff"; }
else
	echo "note: ../shared/reference not found beside the project: the copy in tests/data/reference"
	ref=$copy
fi
# o_direct where the file system has it (tmpfs has not).
direct=1
dd if=/dev/zero of="$T/probe" bs=4k count=1 oflag=direct status=none 2>/dev/null || direct=0
# Data validation (-v) is probed, not assumed: its cases run once vdbc has it.
printf 'sd=sd1,lun=%s/probe,size=4k\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n' "$T" >"$T/probe.parm"
canv=0
timeout 30 "$VDBC" -s -v -f "$T/probe.parm" -o "$T/probe.out" >/dev/null 2>&1 && canv=1

# The data validation families (validation/, its README): "run" when
# vdbc runs them, else why not yet. One line per family: enabling one is
# changing its line to "run".
dv_family() {
	case $1 in
	v1_*) echo run ;;		# -v, clean
	v2?_*) echo run ;;		# -v, corrupted by the rd's startcmd
	v3_*|v4_*) echo run ;;		# -j, then -jr (two steps, below)
	v5_*|v5b_*) echo run ;;		# -v on fsd/fwd (v5b: startcmd)
	v6_*) echo run ;;		# -v with dedup
	v7?_*) echo run ;;		# -vr, -vw
	v8[abc]_*) echo run ;;		# validate=, data_errors=, size box
	v8d_*) echo run ;;		# journal=yes, sd journal=<dir>
	*) echo "no family line in e2e 08 for it" ;;
	esac
}

# dvlines FILE [random]: a console's data validation lines (the slave's
# map lines, report and totals, the master's count, stop and abort lines)
# without what a run cannot repeat: times, dates, pids, paths, counts,
# the lbas and the bytes of random data (their order follows the random
# reads). With random (blocks overwritten with random bytes), not the
# sectors' lines either: how many differ in the reserved bit is chance.
dvlines() {
	sed 's/^[0-9:.]\{12\} \{0,1\}//' "$1" |
		grep -E "^localhost-0: [0-9:.]{12} |^localhost-0: (Allocating|Created new DV map)|^Total Data Validation|^Vdbench terminating|^'data_errors=|^Message from slave|^Slave |^SD size|^No read validations|^\* (Slave|Data Validation has)" |
		sed -E -e 's/^(localhost-0: )[0-9:.]{12} /\1/' -e 's/[0-9:]{8}\.[0-9]{3} op:/op:/' \
		    -e 's/[A-Z][a-z]{2} [A-Z][a-z]{2} [0-9]{2} [0-9]+ [0-9:.]{12} [A-Z]+/DATE/' \
		    -e 's/current pid: [0-9]+ \(0x[0-9a-f]+\)/current pid: PID/' \
		    -e 's#lun=[^ ;,]*#lun=LUN#g' -e 's#lun: [^ ]* +lba: +[0-9]+ 0x[0-9A-F]+#lun: LUN lba: L#' \
		    -e 's#file=[^;]*/(vdb\.[^;]*);#file=F/\1;#' \
		    -e 's/validated: +[0-9,]+;/validated: N;/' \
		    -e 's/lba: [0-9,]+ \(0x[0-9a-f]+\)/lba: L/' -e 's/lba: 0x[0-9a-f]{8}/lba: L/g' \
		    -e 's/Expecting 0x[0-9a-f]{8}, receiving 0x[0-9a-f]+$/Expecting L, receiving X/' \
		    -e 's/received key=0x[0-9a-f]+ \(1\/[0-9]+\)/received key=K/' \
		    -e 's/Checksum: 0x[0-9a-f]+, timestamp: 0x[0-9a-f]+/Checksum: C, timestamp: TS/' \
		    -e 's/Timestamp: 0x[0-9a-f]+; checksum [0-9a-f]+; should be [0-9a-f]+/Timestamp: TS/' \
		    -e "s/'garbage1' \(0x[0-9a-f]{16}\)/'garbage1' (X)/" \
		    -e 's/^(localhost-0: 0x[0-9a-f]{3}[* ] ).*/\1H/' |
		grep -v 'Bad reserved field contents (mbz)' |
		grep -v -E '^Slave [^ ]+ \(pid [0-9]+\) lost: ' |	# vdbc's own (differences.md)
		if [ "${2:-}" = random ]; then
			grep -v -E '^localhost-0: ( {3}(All ([0-9]|corruptions)|Corruption|Error type|===>|Only)| {8}|0x[0-9a-f]{3}|$)'
		else cat; fi
}

# v5bcut: data validation lines up to the end of the first report.
v5bcut() {
	sed -e '/aborting: Duplicate reporting of sector/,$d' -e '/key blocks marked in error: *[1-9]/,$d'
}

# layout DIR: one line per file: name, line-2 title, interval field counts.
layout() {
	local d=$1 f
	for f in $(ls "$d" | sort); do
		[ "$f" = results.json ] && continue
		# fsd runs' binary data for the Swat tool: its layout is not
		# documented (FORMATS.md), vdbc does not write it
		[ "$f" = swat_mon.bin ] && continue
		# vdbc's own file (docs/reports.md), linked from summary.html
		[ "$f" = percentiles.html ] && continue
		case $f in
		summary.html|logfile.html|parmscan.html|parmfile.html|*.txt) t="-" ;;
		*) t=$(sed -n 2p "$d/$f" | sed 's/[0-9][0-9]:[0-9][0-9]:[0-9][0-9] [A-Z][a-z][a-z] [0-9]* [0-9]* [A-Z]*/TIME/') ;;
		esac
		n=$(grep -E '^[0-9:.]{12} +([0-9]+|avg_[0-9]+-[0-9]+) ' "$d/$f" | awk '{ print NF }' | sort -u | tr '\n' ' ')
		echo "$f|$t|$n"
	done
}

# shape FILE: a histogram file without its numbers: the title, each run's
# anchor, its block titles or "No statistics", the number of bucket rows
# and the empty lines between them.
shape() {
	sed -e 's/<[^>]*>//g' -e 's/^[0-9:.]\{12\} Starting RD=\([^;]*\).*/Starting RD=\1/' \
	    -e 's/^ *[0-9.]* < *[0-9.max]* .*/row/' "$1" |
		sed 1d | grep -v '^Link to Run\|^  *[A-Za-z_0-9]* For loops' | uniq -c
}

# starting FILE: the console's run lines ("Starting RD=", the end of a
# sequential run, the last line), elapsed= as E, without the output path.
starting() {
	sed -n 's/^[0-9:.]\{12\} \(Starting RD=.*\|All sequential.*\|This triggers end.*\|Vdbench execution.*\)/\1/p' "$1" |
		sed -e 's/elapsed=[0-9]*/elapsed=E/' -e 's/warmup=[0-9]*/warmup=W/' \
		    -e 's/Output directory: .*/Output directory:/' -e 's/ *$//'
}

# lcol DIR: per report file, the columns where its interval and avg
# lines' labels end (vdbench's columns, not only its number of fields).
lcol() {
	local f
	for f in $(ls "$1" | grep 'html$' | grep -v '^percentiles.html$' | sort); do
		awk -v f="$f" 'match($0, /^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9][0-9][0-9] +([0-9]+|avg_[0-9]+-[0-9]+) /) {
			print f, RLENGTH }' "$1/$f" | sort -u
	done
}

# skewshape FILE: skew.html's runs and the titles of their tables.
skewshape() {
	sed -e 's/<[^>]*>//g' "$1" | grep -oE '^[0-9:.]{12} +(Starting RD=[^;]*|[A-Za-z]+:)' | sed 's/^[^ ]* *//'
}

# framed FILE: the first console line framed by two empty ones.
framed() {
	sed 's/^[0-9:.]\{12\} \{0,1\}//' "$1" |
		awk 'NR > 1 && prev == "" && $0 != "" { m = $0; getline n; if (n ~ /^ *$/) { print m; exit } }
		     { prev = $0 }'
}

# The command of case C: the arguments after the parmfile and the output
# directory, from "Command being timed:" (or command.txt).
case_args() {
	local c=$1 line
	line=$(sed -n 's/.*Command being timed: "\(.*\)"/\1/p' "$c/console_stderr_and_time.txt" 2>/dev/null)
	[ -z "$line" ] && [ -f "$c/command.txt" ] && line=$(head -1 "$c/command.txt")
	echo "$line" | awk '{ for (i = 2; i <= NF; i++) { if ($i == "-f" || $i == "-o") { i++; continue } printf "%s ", $i } }'
}

# journal_steps DIR: a journal family's step 1 (j1parm, j1tag, j1args)
# and step 2 (parm, tag, args) in DIR, as the reference's driver scripts:
# v3 kills the slave with SIGKILL under -j (here at interval 2), v4
# corrupts blocks 100 (random) and 300 (one byte) after a clean -j run
# (both with their own elapsed); then -jr.
journal_steps() {
	local d=$1 p i
	cd "$d" || return 1
	case $j1tag in
	validation_v3_*)
		timeout 60 "$VDBC" -f "$j1parm" -o "$T/$j1tag" --port 0 --seed 1 ${j1args% -e 2} >"$T/$j1tag.console" 2>&1 &
		p=$!
		for ((i = 0; i < 300; i++)); do
			grep -qE '^[0-9:.]{12} +2 ' "$T/$j1tag.console" && break
			sleep 0.1
		done
		kill -9 $(slave_pids "$T/$j1tag.console") 2>/dev/null
		wait $p
		echo $? >"$T/$j1tag.rc" ;;
	*)
		# its own elapsed: rd1 writes the lun to its end (eof)
		timeout 60 "$VDBC" -f "$j1parm" -o "$T/$j1tag" --port 0 --seed 1 ${j1args% -e 2} >"$T/$j1tag.console" 2>&1
		echo $? >"$T/$j1tag.rc"
		bash "$ref/validation/scripts/corrupt.sh" random "$d/lun4" 100 >/dev/null
		bash "$ref/validation/scripts/corrupt.sh" byte "$d/lun4" 300 >/dev/null ;;
	esac
	timeout 60 "$VDBC" -f "$parm" -o "$T/$tag" --port 0 --seed 1 $args >"$T/$tag.console" 2>&1
	echo $? >"$T/$tag.rc"
}

# Two cases at a time (each has its own ports, luns and output).
throttle() {
	while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
}
: >"$T/cases"
for c in $(find "$ref" -mindepth 1 -type d -name output | sed 's|/output$||' | sort); do
	name=${c#"$ref"/}
	compare=1
	tag=$(echo "$name" | tr '/' '_')
	dv=0
	case $name in
	validation/*)
		if [ $canv = 0 ]; then
			echo "skip: $name: vdbc has no data validation yet ('vdbc -s -v' refused)"
			continue
		fi
		why=$(dv_family "${name#validation/}")
		# CI time (docs/testing.md): the sanitizer build runs these
		# code paths in e2e 31, 32 and 35-38; the layout and the
		# line-for-line diff are the release build's.
		[ "${VDBC_SANITIZED:-0}" = 1 ] && why="compared in the release build (CI time; e2e 31-38 run it under ASan)"
		if [ "$why" != run ]; then
			echo "skip: $name: $why"
			continue
		fi
		dv=1 ;;
	esac
	want_rc=$(sed -n 's/.*rc=\([0-9]*\).*/\1/p' "$c/exitcode.txt" 2>/dev/null)
	want_rc=${want_rc:-0}
	args=$(case_args "$c")
	# a journal family's two steps share their lun and journal (and
	# cwd: v3's journal is in ".")
	dtag=$tag
	case $name in validation/v[34]_*/*) dtag=$(echo "${name%/*}" | tr '/' '_') ;; esac
	mkdir -p "$T/data-$dtag"
	parm=$T/$tag.parm
	if [ ! -f "$c/parmfile.txt" ] || head -c1 "$c/parmfile.txt" | grep -q '('; then
		parm=$T/data-$dtag/does_not_exist.parm	# the case has no parmfile
	else
		# 8m luns; data validation's keep their size (its size
		# requirement: 32m, v8c's 8m too small on purpose)
		lunmb=8
		[ $dv = 1 ] && lunmb=$(sed -n 's/^sd=.*size=\([0-9]*\)m.*/\1/p' "$c/parmfile.txt" | head -1)
		# (a file of an fsd keeps its path under the anchor: v5b)
		sed -e 's#/tmp/\([^,) ]*/\)*\([^/,) ]*\)\(/vdb\.[^,) ]*\)#@DATA@/\2\3#g' \
		    -e 's#/tmp/\([^,) ]*/\)*\([^/,) ]*\)#@DATA@/\2#g' -e "s|@DATA@|$T/data-$dtag|g" \
		    -e "/^sd=/s/size=[0-9]*[mg]/size=${lunmb}m/" -e 's|vdbench=<vdbench>|vdbench=/usr/bin/|' \
		    "$c/parmfile.txt" >"$parm"
		[ $direct = 1 ] || sed -i 's/,openflag=o_direct//' "$parm"
		# the corruption step of the v2 cases: the rd's startcmd runs
		# the reference's corrupt.sh (now beside the lun)
		if grep -q 'corrupt\.sh' "$parm"; then
			cp "$ref/validation/scripts/corrupt.sh" "$T/data-$dtag/corrupt.sh"
			chmod +x "$T/data-$dtag/corrupt.sh"
		fi
		# a lun vdbench had to create (its SD_format run) starts absent
		if ! ls "$c/output" | grep -q '^SD_format_'; then
			for l in $(sed -n 's/^sd=.*lun=\([^,]*\).*/\1/p' "$parm"); do
				if [ $dv = 1 ]; then truncate -s "${lunmb}m" "$l"
				else dd if=/dev/zero of="$l" bs=1M count="$lunmb" status=none; fi
			done
		fi
	fi
	# short runs: elapsed=2 (a warm-up of 1 interval where one is given)
	[ -f "$parm" ] && sed -i 's/warmup=[0-9]*/warmup=1/' "$parm"
	args="$args -e 2"
	# vdbench's -d (its own debug trace) is not an option of vdbc
	case " $args " in *" -d"*)
		echo "note: $name: vdbench's debug option $(echo " $args" | grep -o ' -d[^ ]*') left out"
		args=$(echo " $args" | sed 's/ -d[^ ]*//g') ;;
	esac
	case $name in d2_hd_host1_system_localhost_FAILS)
		# docs/differences.md: a host whose system= is this machine gets
		# local slaves whatever its label; vdbench fails for host1
		echo "note: $name: vdbc runs it (docs/differences.md), vdbench failed"
		want_rc=0
		compare=0 ;;
	esac
	echo "$c $tag $want_rc $compare $dv" >>"$T/cases"
	case $name in
	validation/v[34]_*/1_*)
		j1parm=$parm j1tag=$tag j1args=$args
		continue ;;		# run with its step 2
	validation/v[34]_*/2_*)
		throttle
		journal_steps "$T/data-$dtag" &
		PIDS="$PIDS $!"
		continue ;;
	esac
	throttle
	( timeout 60 "$VDBC" -f "$parm" -o "$T/$tag" --port 0 --seed 1 $args >"$T/$tag.console" 2>&1
	  echo $? >"$T/$tag.rc" ) &
	PIDS="$PIDS $!"
done
# bg NAME CMD...: run CMD as the cases run, output in $T/NAME.console.
bg() {
	local n=$1
	shift
	throttle
	( timeout 60 "$@" >"$T/$n.console" 2>&1; echo $? >"$T/$n.rc" ) &
	PIDS="$PIDS $!"
}
# A numeric fwdrate: "fwdrate=300;" in a run and in -s (vdbench's console;
# "fwdrate=max." keeps its dot, checked with the cases).
sed -e "s|/tmp/vdbdata/fs|$T/fs300|" -e 's/fwdrate=max/fwdrate=300/' \
    "$ref/c_fsd_format_read/parmfile.txt" >"$T/f300.parm"
bg f300 "$VDBC" -f "$T/f300.parm" -o "$T/f300" --port 0 --seed 1 -e 2
bg f300s "$VDBC" -s -f "$T/f300.parm" -o "$T/f300s"
# report=host_detail,slave_detail: the sd files' titles as vdbench's.
printf 'report=(host_detail,slave_detail)\nsd=sd1,lun=%s/hd1,size=1m\nwd=wd1,sd=sd1,xfersize=4k\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' "$T" >"$T/hd.parm"
bg hd "$VDBC" -f "$T/hd.parm" -o "$T/hd" --port 0 --seed 1
wait
ncase=0
while read -r c tag want_rc compare dv; do
	name=${c#"$ref"/}
	ncase=$((ncase + 1))
	rc=$(cat "$T/$tag.rc")
	if [ "$want_rc" = 0 ]; then [ "$rc" = 0 ]; else [ "$rc" != 0 ] && [ "$rc" != 124 ] && { [ "$rc" -lt 128 ] || [ "$rc" = 157 ]; }; fi
	if [ $? = 0 ]; then ok; else
		bad "$name: vdbc exit $rc where vdbench's was $want_rc"
		tail -5 "$T/$tag.console"
		continue
	fi
	if [ "$dv" = 1 ]; then
		# data validation: vdbench's lines, line for line (without
		# what a run cannot repeat), and its errorlog.html's
		rnd=""
		grep -q 'corrupt\.sh random' "$c/parmfile.txt" && rnd=random
		case $name in */v4_journal_corrupt_after/2_*) rnd=random ;; esac
		# v5b: up to the end of the first report (vdbench crashed
		# there, docs/differences.md; vdbc goes on to the rd's end)
		cut=cat
		[ "$name" = validation/v5b_validate_fsd_corrupt ] && cut=v5bcut
		if diff <(dvlines "$c/console_stdout.txt" $rnd | $cut) <(dvlines "$T/$tag.console" $rnd | $cut) >"$T/dvdiff"; then ok; else
			bad "$name: data validation lines differ from vdbench's"
			head -20 "$T/dvdiff"
		fi
		if [ -f "$c/output/errorlog.html" ]; then
			el() { sed -e 's/<[^>]*>//g' -e 's/&gt;/>/g' -e 's/&lt;/</g' -e "s/&#39;/'/g" -e 's/&amp;/\&/g' "$1" |
				grep -v 'Created new mmap file' | dvlines /dev/stdin $rnd; }
			if diff <(el "$c/output/errorlog.html" | $cut) <(el "$T/$tag/errorlog.html" | $cut) >"$T/dvdiff"; then ok; else
				bad "$name: errorlog.html's data validation lines differ from vdbench's"
				head -20 "$T/dvdiff"
			fi
		fi
	fi
	if [ "$want_rc" != 0 ]; then
		# vdbench's message (the line framed by empty ones; for a
		# "Parameterscan error" the one in parmscan.html), up to its
		# first path, is on vdbc's console too.
		msg=$(framed "$c/console_stdout.txt")
		case $msg in "Parameterscan error"*)
			msg=$(sed -n 's/^[0-9:.]\{12\} //p' "$c/output/parmscan.html" | tail -1) ;;
		esac
		msg=${msg%%/*}
		if [ "$name" = validation/v5b_validate_fsd_corrupt ]; then
			# vdbench crashed there ("Duplicate reporting of
			# sector"): vdbc ends as for an sd (docs/differences.md)
			echo "note: $name: vdbench's end is its own crash, vdbc's the rd's totals"
		elif [ -z "$msg" ] || grep -q '^java\.' "$c/console_stdout.txt"; then
			echo "note: $name: vdbench's message is a Java exception, vdbc's its own"
		elif grep -qF -- "$msg" "$T/$tag.console"; then ok; else
			bad "$name: vdbc's console lacks vdbench's message '$msg'"
			tail -5 "$T/$tag.console"
		fi
	fi
	[ "$want_rc" = 0 ] && [ $compare = 1 ] || continue
	o=$c/output
	layout "$o" >"$T/$tag.want"
	layout "$T/$tag" >"$T/$tag.got"
	if cmp -s "$T/$tag.want" "$T/$tag.got"; then ok; else
		bad "$name: layout differs from vdbench's"
		diff "$T/$tag.want" "$T/$tag.got"
	fi
	if diff <(lcol "$o") <(lcol "$T/$tag") >"$T/ldiff"; then ok; else
		bad "$name: interval labels end in other columns than vdbench's"
		head -4 "$T/ldiff"
	fi
	# The headers (without the date) of every file that has one.
	for f in $(grep -l -E '  interval        i/o|.Interval. .ReqstdOps' "$o"/*.html); do
		f=$(basename "$f")
		for d in "$o" "$T/$tag"; do
			grep -h -A1 -E '  interval        i/o|.Interval. .ReqstdOps' "$d/$f" | head -2 | cut -c13- | sed 's/ *$//'
		done >"$T/fh"
		[ -s "$T/fh" ] && [ "$(sed -n 1,2p "$T/fh")" = "$(sed -n 3,4p "$T/fh")" ] && ok || bad "$name: $f header"
	done
	grep ' tod ' "$o/flatfile.html" | sed 's/ *$//' >"$T/fc.want"
	grep ' tod ' "$T/$tag/flatfile.html" | sed 's/ *$//' >"$T/fc.got"
	cmp -s "$T/fc.want" "$T/fc.got" && ok || bad "$name: flatfile columns"
	# summary.html's link block (after the title) as vdbench's (without
	# vdbc's data validation box above it, docs/reports.md).
	n=$(sed -e 's/<[^>]*>//g' "$o/summary.html" | grep -n "Link to Run Definitions" | cut -d: -f1)
	if diff <(sed -e 's/<[^>]*>//g' "$o/summary.html" | sed -n "4,${n}p") \
		<(sed -e '/<div id="data-validation"/,/<\/div><pre>/d' -e 's/<[^>]*>//g' \
		"$T/$tag/summary.html" | sed -n "4,${n}p"); then ok; else
		bad "$name: summary.html links differ from vdbench's"
	fi
	# Histogram files: title, blocks, a format run's "No statistics".
	for f in $(cd "$o" && ls | grep 'histogram.html$'); do
		if diff <(shape "$o/$f") <(shape "$T/$tag/$f") >"$T/hdiff"; then ok; else
			bad "$name: $f blocks differ from vdbench's"
			cat "$T/hdiff"
		fi
	done
	if diff <(skewshape "$o/skew.html") <(skewshape "$T/$tag/skew.html") >"$T/sdiff"; then ok; else
		bad "$name: skew.html tables differ from vdbench's"
		cat "$T/sdiff"
	fi
	# The run lines and the banner's version line (no time of day).
	if diff <(starting "$c/console_stdout.txt") <(starting "$T/$tag.console"); then ok; else
		bad "$name: Starting RD= and run end lines differ from vdbench's"
	fi
	grep -q '^Vdbench distribution: vdbc-[0-9][0-9.]* *' "$T/$tag.console" && ok ||
		bad "$name: console has no 'Vdbench distribution: vdbc-X.Y.Z' line"
	[ "$(sed -n 3p "$T/$tag/logfile.html" | cut -d' ' -f1-2)" = "$(sed -n 3p "$o/logfile.html" | cut -d' ' -f1-2)" ] &&
		sed -n 3p "$T/$tag/logfile.html" | grep -q '^Vdbench distribution: vdbc-' && ok ||
		bad "$name: logfile.html line 3 is not 'Vdbench distribution: vdbc-X.Y.Z'"
	# Rates are counts per nominal interval, as vdbench divides: whole
	# numbers at interval=1 in every interval line of every report.
	if [ "$(grep -c 'interval=1\b' "$c/parmfile.txt")" -gt 0 ]; then
		cat "$T/$tag"/*.html | grep -E '^[0-9:.]{12} +[0-9]+ ' |
			awk '$3 !~ /^[0-9]+(\.0+)?$/ { print; b = 1 } END { exit b }' >"$T/frac"
		[ -s "$T/frac" ] && bad "$name: interval rates that are not whole numbers: $(head -2 "$T/frac")" || ok
	fi
done <"$T/cases"

[ $ncase -ge 10 ] && ok || bad "only $ncase reference cases found"

# extra NAME TEXT: the run NAME exited 0 and its console has TEXT.
extra() {
	[ "$(cat "$T/$1.rc")" = 0 ] && grep -qF -- "$2" "$T/$1.console" && ok || {
		bad "$1: exit $(cat "$T/$1.rc") or no '$2' on its console"
		tail -5 "$T/$1.console"
	}
}
extra f300 "Starting RD=rd1; elapsed=2; fwdrate=300; For loops: None"
extra f300s "Simulating RD=rd1; elapsed=10; fwdrate=300; For loops: None"
extra hd "Vdbench execution completed successfully"
[ "$(sed -n 2p "$T/hd/localhost.sd1.html")" = "Host SD report for sd=sd1,host=localhost,lun=$T/hd1" ] && ok ||
	bad "host_detail title: $(sed -n 2p "$T/hd/localhost.sd1.html")"
[ "$(sed -n 2p "$T/hd/localhost-0.sd1.html")" = "Slave SD report for sd=sd1" ] && ok ||
	bad "slave_detail title: $(sed -n 2p "$T/hd/localhost-0.sd1.html")"

finish
