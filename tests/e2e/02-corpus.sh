#!/bin/bash
# The real-world corpus: vdbc -s reaches the real vdbench's verdict on every
# file, and where vdbench succeeded on a block (sd/wd/rd) file, vdbc gives
# the same run names and "For loops:" texts in the same order.
. "$(dirname "$0")/lib.sh"
shared=$VDBC_SRC/../shared
if [ ! -d "$shared/corpus/parmfiles" ]; then
	echo "skip: ../shared/corpus not found beside the project"
	exit 77
fi
# File-system (fsd/fwd) files: their format_for_<rd> runs and anchor checks
# come with the parmfile and fsd issues; their run lists are not compared
# yet, and Harsha-IOPS fails in vdbench on an fsd size check vdbc lacks.
LATER="Avilir__vdbench-performanc__conf_Nimble_NimbleBasicRWMix
mfinkelstine__vdbenchScripts__example7
zwwhdls__vdbench-in-k8s__sample.yaml
Avilir__vdbench-performanc__conf_IOPS_File-Harsha-IOPS"

bash "$(dirname "$0")/corpus-verdicts.sh" "$VDBC" "$shared" "$T" >"$T/verdicts"
same=0
while read -r name want got runs; do
	if echo "$LATER" | grep -qx "$name"; then
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
echo "$same block files with the same run list as vdbench"
[ "$same" -ge 11 ] && ok || bad "only $same files compared equal"
finish
