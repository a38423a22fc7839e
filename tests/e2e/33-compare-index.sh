#!/bin/bash
# vdbc compare on vdbc's output directories and on vdbench's own
# (../shared/reference, when it is there).
. "$(dirname "$0")/lib.sh"
ref=$VDBC_SRC/../shared/reference/vdbench-5.04.06

# Two real runs of the same parmfile: every run matches, none only on one side.
cat >"$T/p" <<P
sd=sd1,lun=$T/f1,size=4m,engine=null
wd=wd1,sd=sd1,xfersize=4k,rdpct=70
rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,forthreads=(1,2)
P
dd if=/dev/zero of="$T/f1" bs=1M count=4 status=none
expect_rc 0 "$VDBC" -f "$T/p" -o "$T/runs/old" --port 0 --seed 1
expect_rc 0 "$VDBC" -f "$T/p" -o "$T/runs/new" --port 0 --seed 2
expect_rc 0 "$VDBC" compare "$T/runs/old" "$T/runs/new" -o "$T/cmp1"
expect_out "rd1 threads=1"
expect_out "rd1 threads=2"
expect_out "2 runs matched"
expect_out "0 only in OLD, 0 only in NEW"
[ -s "$T/cmp1/compare.html" ] && ok || bad "no compare.html"

# Hand-made results: the numbers and verdicts are known.
mkres() { # DIR RATE RESP P99 CPU [extra run]
	mkdir -p "$1"
	cat >"$1/results.json" <<J
{"schema":"vdbc-results","schema_version":1,"started":"2026-11-30T10:00:00+0000","runs":[
 {"name":"rd1","for_loops":"threads=4 xfersize=4k","status":"completed","started":"2026-11-30T10:00:01+0000",
  "average":{"rate":$2,"mb_per_s":$(($2 / 256)),"resp_ms":$3,"resp_max_ms":9,"cpu_sys_user_pct":$5,"errors":0,
   "percentiles_ms":{"all":{"p50":0.5,"p90":0.9,"p99":$4,"p99.9":5,"p99.99":7}}}}$6]}
J
}
mkres "$T/h/old" 10240 1.00 2.0 40 ""
mkres "$T/h/new" 5120 1.02 3.0 40 ',{"name":"rd2","for_loops":"None","status":"stopped: slave lost","average":{"rate":1,"errors":3}}'
expect_rc 0 "$VDBC" compare "$T/h/old" "$T/h/new" -o "$T/cmp2"
expect_out "10240.0"
expect_out "-50.0%  worse"
expect_out "+50.0%  worse"
grep -q "+2.0%" "$T/out" && ! grep -q "+2.0%  " "$T/out" && ok || bad "a 2 % change is marked at a 5 % threshold"
expect_out "rd2: only in NEW"
expect_out "1 runs matched, 3 changes above 5.0% (0 better, 3 worse)"
grep -q '<td class="v worse">-50.0%</td>' "$T/cmp2/compare.html" && ok || bad "compare.html lacks the coloured change"
grep -q 'only in NEW' "$T/cmp2/compare.html" && ok || bad "compare.html lacks the unmatched run"
expect_rc 0 "$VDBC" compare "$T/h/new" "$T/h/old" --threshold 1 -o "$T/cmp3"
expect_out "+100.0%  better"
expect_out "-2.0%  better"
expect_out "rd2: only in OLD"
# Bad input: named, never a crash.
mkdir -p "$T/empty"
expect_rc 1 "$VDBC" compare "$T/empty" "$T/h/old"
expect_out "$T/empty: not an output directory"
expect_rc 2 "$VDBC" compare "$T/h/old" "$T/h/new" --threshold x
expect_out "invalid value for '--threshold': 'x'"
echo '{"schema":"vdbc-results","runs":' >"$T/empty/results.json"
expect_rc 1 "$VDBC" compare "$T/empty" "$T/h/old"
expect_out "$T/empty/results.json: not a readable results.json"
rm "$T/empty/results.json"

# vdbench's own directories.
if [ -d "$ref/b_raw_mixed_forloop/output" ]; then
	expect_rc 0 "$VDBC" compare "$ref/a_raw_randwrite_4k/output" "$ref/a_raw_randwrite_4k_rerun/output" --threshold 1 -o "$T/cmp4"
	expect_out "SD_format threads=2 iorate=max: only in OLD"
	expect_out "rd1 threads=8"
	grep -Eq "^  rate +41018\.8 +41766\.8 +\+1\.8%  better" "$T/out" && ok || bad "vdbench's rates not compared"
	expect_rc 0 "$VDBC" compare "$ref/b_raw_mixed_forloop/output" "$ref/b_raw_mixed_forloop/output" -o "$T/cmp5"
	expect_out "rd1 threads=4 iorate=2000"
	expect_out "4 runs matched, 0 changes"
else
	echo "skip (vdbench part): $ref not found beside the project"
fi

finish
