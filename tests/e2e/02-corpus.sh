#!/bin/bash
# The real-world corpus: vdbc -s reaches the real vdbench's verdict on every
# file, and where vdbench succeeded, vdbc gives the same run names and
# "For loops:" texts in the same order (block and file-system files).
. "$(dirname "$0")/lib.sh"
# ../shared/corpus when it is beside the project (then the copy in
# tests/data/corpus must still be the same), else that copy: a plain
# clone runs every case too.
shared=$VDBC_SRC/../shared
copy=$VDBC_SRC/tests/data/corpus
if [ -d "$shared/corpus/parmfiles" ]; then
	diff -r "$shared/corpus/parmfiles" "$copy/parmfiles" >/dev/null && ok ||
		bad "tests/data/corpus/parmfiles differs from ../shared/corpus/parmfiles"
	for rc in "$shared"/corpus/vdbench-simulate/*.rc; do
		n=$(basename "$rc" .rc)
		cmp -s "$rc" "$copy/vdbench-simulate/$n.rc" || bad "tests/data/corpus: $n.rc differs from ../shared's"
		[ "$(cat "$rc")" = 0 ] || continue
		grep -E '^[0-9:.]* (Simulating RD=|Adjusted default JVM count)' "${rc%.rc}.out" |
			cmp -s - "$copy/vdbench-simulate/$n.out" || bad "tests/data/corpus: $n.out differs from ../shared's"
	done
	ok
else
	echo "note: ../shared/corpus not found beside the project: the copy in tests/data/corpus"
	shared=$VDBC_SRC/tests/data
fi
# Files whose run list is not compared yet, with the reason (none now).
LATER=""

bash "$(dirname "$0")/corpus-verdicts.sh" "$VDBC" "$shared" "$T" >"$T/verdicts"
same=0
while read -r name want got runs; do
	if [ -n "$LATER" ] && echo "$LATER" | grep -qx "$name"; then
		echo "left to the fsd work: $name ($want $got $runs)"
		continue
	fi
	if [ "$want" != "$got" ]; then
		bad "$name: vdbench $want, vdbc $got"
		sed -n '1,12p' "$T/$name.out"
	elif [ "$runs" = "runs=DIFF" ]; then
		bad "$name: run list differs"
		diff "$T/$name.want" "$T/$name.got" | head -10
	else
		ok
		[ "$runs" = "runs=same" ] && same=$((same + 1))
	fi
done < <(sed 's/ want=/ /; s/ got=/ /' "$T/verdicts")
echo "$same files with the same run list as vdbench"
[ "$same" -ge 14 ] && ok || bad "only $same files compared equal"
finish
