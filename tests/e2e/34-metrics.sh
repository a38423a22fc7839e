#!/bin/bash
# What repeating a run takes is in its directory: the arguments as
# vdbench logs them ("input argument scanned"), the seed, vdbc's version,
# and the parmfile with the command line's substitutions resolved.
. "$(dirname "$0")/lib.sh"
cat >"$T/m.parm" <<P
sd=sd1,lun=$T/f1,size=4m
wd=wd1,sd=sd1,xfersize=\$xf,rdpct=\$pct
rd=rd1,wd=wd1,iorate=400,elapsed=4,interval=1,forthreads=(1,2)
P
dd if=/dev/zero of="$T/f1" bs=1M count=4 status=none
expect_rc 0 "$VDBC" -f "$T/m.parm" -o "$T/o" --port 0 --seed 5 xf=8k pct=70
# What it takes to repeat the run is in its directory.
sed "s/&#39;/'/g" "$T/o/logfile.html" >"$T/log"
for a in "-f$T/m.parm" "-o$T/o" "--seed=5" "xf=8k" "pct=70"; do
	grep -qF "input argument scanned: '$a'" "$T/log" && ok || bad "logfile.html lacks input argument scanned: '$a'"
done
grep -q "vdbc: random seed 5 (repeat with --seed 5)" "$T/log" && ok || bad "logfile.html lacks the seed"
grep -q "^vdbc [0-9]" "$T/log" && ok || bad "logfile.html lacks vdbc's version"
grep -qF 'xfersize=$xf,rdpct=$pct' "$T/o/parmfile.html" && ok || bad "parmfile.html lost the file as written"
subs=$(grep -F '* Command line substitutions:' "$T/o/parmfile.html")
case $subs in
*" xf=8k"*" pct=70"* | *" pct=70"*" xf=8k"*) ok ;;
*) bad "parmfile.html lacks the substitutions: '$subs'" ;;
esac
grep -qF 'wd=wd1,sd=sd1,xfersize=8k,rdpct=70' "$T/o/parmfile.html" && ok || bad "parmfile.html lacks the resolved parmfile"
python3 - "$T/o/results.json" <<'PY' && ok || bad "results.json lacks arguments, substitutions, seed or version"
import json, re, sys
r = json.load(open(sys.argv[1]))
assert r["seed"] == 5, r["seed"]
assert r["substitutions"] == {"xf": "8k", "pct": "70"}, r["substitutions"]
assert "--seed=5" in r["arguments"] and "xf=8k" in r["arguments"], r["arguments"]
assert re.match(r"\d+\.\d+", r["vdbc_version"]), r["vdbc_version"]
PY
finish
