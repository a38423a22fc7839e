#!/bin/bash
# The reference cases of the real vdbench 5.04.06 (../shared/reference),
# made small and temporary (block and file-system cases): vdbc's output
# directory has the same files (plus vdbc's results.json), the same title
# lines and headers, the same number of fields in every interval and avg
# line, the same flatfile columns. Numbers differ; the layout does not.
. "$(dirname "$0")/lib.sh"
ref=$VDBC_SRC/../shared/reference/vdbench-5.04.06
if [ ! -d "$ref" ]; then
	echo "skip: ../shared/reference not found beside the project"
	exit 77
fi
dd if=/dev/zero of="$T/f1" bs=1M count=8 status=none
# o_direct where the file system has it (tmpfs has not).
direct=1
dd if=/dev/zero of="$T/probe" bs=4k count=1 oflag=direct status=none 2>/dev/null || direct=0

# layout DIR: one line per file: name, line-2 title, interval field counts.
layout() {
	local d=$1 f
	for f in $(ls "$d" | sort); do
		[ "$f" = results.json ] && continue
		case $f in
		summary.html|logfile.html|parmscan.html|parmfile.html|*.txt) t="-" ;;
		*) t=$(sed -n 2p "$d/$f" | sed 's/[0-9][0-9]:[0-9][0-9]:[0-9][0-9] [A-Z][a-z][a-z] [0-9]* [0-9]* [A-Z]*/TIME/') ;;
		esac
		n=$(grep -E '^[0-9:.]{12} +([0-9]+|avg_[0-9]+-[0-9]+) ' "$d/$f" | awk '{ print NF }' | sort -u | tr '\n' ' ')
		echo "$f|$t|$n"
	done
}

# links CASE: summary.html's link block (after the title) as vdbench's.
links() {
	local n
	n=$(sed -e 's/<[^>]*>//g' "$ref/$1/output/summary.html" | grep -n "Link to Run Definitions" | cut -d: -f1)
	if diff <(sed -e 's/<[^>]*>//g' "$ref/$1/output/summary.html" | sed -n "4,${n}p") \
		<(sed -e 's/<[^>]*>//g' "$T/$1/summary.html" | sed -n "4,${n}p"); then ok; else
		bad "$1: summary.html links differ from vdbench's"
	fi
}

for c in a_raw_randwrite_4k_rerun b_raw_mixed_forloop d1_m2_two_slaves d3_hd_localhost_jvms2; do
	sed -e "s|/tmp/vdbdata/f1|$T/f1|" -e 's/size=256m/size=8m/' \
	    -e 's|vdbench=<vdbench>|vdbench=/usr/bin/|' "$ref/$c/parmfile.txt" >"$T/$c.parm"
	[ $direct = 1 ] || sed -i 's/,openflag=o_direct//' "$T/$c.parm"
	args=""
	case $c in d1_*) args="-m2" ;; esac
	expect_rc 0 "$VDBC" -f "$T/$c.parm" -o "$T/$c" --port 0 -e 3 $args
	layout "$ref/$c/output" >"$T/$c.want"
	layout "$T/$c" >"$T/$c.got"
	if cmp -s "$T/$c.want" "$T/$c.got"; then ok; else
		bad "$c: layout differs from vdbench's"
		diff "$T/$c.want" "$T/$c.got"
	fi
	# Headers (without the date) and flatfile columns.
	grep -h -A1 '  interval        i/o' "$ref/$c/output/summary.html" | head -2 | cut -c13- >"$T/h.want"
	for f in summary totals localhost localhost-0 sd1; do
		grep -h -A1 '  interval        i/o' "$T/$c/$f.html" | head -2 | cut -c13- >"$T/h.got"
		cmp -s "$T/h.want" "$T/h.got" && ok || bad "$c: $f.html header"
	done
	grep ' tod ' "$ref/$c/output/flatfile.html" | sed 's/ *$//' >"$T/fc.want"
	grep ' tod ' "$T/$c/flatfile.html" | sed 's/ *$//' >"$T/fc.got"
	cmp -s "$T/fc.want" "$T/fc.got" && ok || bad "$c: flatfile columns"
	links "$c"
done

# The file-system case (format=yes, then a timed read): the same layout,
# the FWD headers of every report and the flatfile columns.
c=c_fsd_format_read
sed -e "s|/tmp/vdbdata/fs|$T/fs|" -e 's/elapsed=10/elapsed=3/' "$ref/$c/parmfile.txt" >"$T/$c.parm"
expect_rc 0 "$VDBC" -f "$T/$c.parm" -o "$T/$c" --port 0
layout "$ref/$c/output" >"$T/$c.want"
layout "$T/$c" >"$T/$c.got"
if cmp -s "$T/$c.want" "$T/$c.got"; then ok; else
	bad "$c: layout differs from vdbench's"
	diff "$T/$c.want" "$T/$c.got"
fi
for f in summary totals fsd1 fwd1 format localhost localhost-0; do
	for o in "$ref/$c/output" "$T/$c"; do
		grep -h -A1 '.Interval. .ReqstdOps' "$o/$f.html" | head -2 | cut -c13- | sed 's/ *$//'
	done >"$T/fh"
	[ "$(sed -n 1,2p "$T/fh")" = "$(sed -n 3,4p "$T/fh")" ] && [ -s "$T/fh" ] && ok || bad "$c: $f.html FWD header"
done
grep ' tod ' "$ref/$c/output/flatfile.html" | sed 's/ *$//' >"$T/fc.want"
grep ' tod ' "$T/$c/flatfile.html" | sed 's/ *$//' >"$T/fc.got"
cmp -s "$T/fc.want" "$T/fc.got" && ok || bad "$c: flatfile columns"
links "$c"
finish
