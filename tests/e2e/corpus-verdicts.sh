#!/bin/bash
# Compare vdbc -s with the real vdbench's -s on every corpus parmfile:
# same verdict (exit 0 or 157) and, where vdbench succeeded, the same run
# names and "For loops:" texts in the same order. Prints one line per file.
# Usage: corpus-verdicts.sh VDBC SHARED_DIR OUTDIR
vdbc=$1 shared=$2 out=$3
corpus=$shared/corpus
for parm in "$corpus"/parmfiles/*.parm; do
	name=$(basename "$parm" .parm)
	want_rc=$(cat "$corpus/vdbench-simulate/$name.rc")
	( cd "$corpus/parmfiles" && timeout 20 "$vdbc" -s -f "$name.parm" -o "$out/o" ) >"$out/$name.out" 2>&1
	got_rc=$?
	runs_ok=-
	if [ "$want_rc" = 0 ] && [ "$got_rc" = 0 ]; then
		# Run names, For loops texts, and vdbench's plan note on slaves.
		sed -n 's/^[0-9:.]* Simulating RD=\([^;]*\);.*For loops: \(.*\)$/\1|\2/p; s/^[0-9:.]* Simulating RD=\([^;]*\)$/\1|/p; s/^[0-9:.]* \(Adjusted default JVM count.*\)$/\1/p' \
			"$corpus/vdbench-simulate/$name.out" | sed 's/ *$//' >"$out/$name.want"
		sed -n 's/^[0-9:.]* Simulating RD=\([^;]*\);.*For loops: \(.*\)$/\1|\2/p; s/^[0-9:.]* Simulating RD=\([^;]*\)$/\1|/p; s/^[0-9:.]* \(Adjusted default JVM count.*\)$/\1/p' \
			"$out/$name.out" | sed 's/ *$//' >"$out/$name.got"
		if cmp -s "$out/$name.want" "$out/$name.got"; then runs_ok=same; else runs_ok=DIFF; fi
	fi
	echo "$name want=$want_rc got=$got_rc runs=$runs_ok"
done
