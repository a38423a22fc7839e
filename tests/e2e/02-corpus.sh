#!/bin/bash
# The real-world corpus: vdbc -s reaches the real vdbench's verdict on every
# file, and where vdbench succeeded, vdbc gives the same run names and
# "For loops:" texts in the same order (block and file-system files).
. "$(dirname "$0")/lib.sh"
shared=$VDBC_SRC/../shared
if [ ! -d "$shared/corpus/parmfiles" ]; then
	echo "skip: ../shared/corpus not found beside the project"
	exit 77
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
