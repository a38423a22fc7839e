#!/bin/bash
# Issue 6's statistical acceptance through the whole path (parmfile, slaves,
# reports), with a fixed seed and enough I/Os that noise cannot fail it:
# skew=(70,30) within 2 points (skew.html), rdpct=70 within 1 point and
# iorate=2000 within 3 % (flatfile avg line), over about 20,000 I/Os.
. "$(dirname "$0")/lib.sh"

printf 'sd=sd1,lun=%s/f1,size=16m,engine=null,threads=2\nwd=wd1,sd=sd1,skew=70,rdpct=70\nwd=wd2,sd=sd1,skew=30,rdpct=70\nrd=rd1,wd=wd*,iorate=2000,elapsed=11,interval=1\n' "$T" >"$T/sk.parm"
expect_rc 0 "$VDBC" -f "$T/sk.parm" -o "$T/o" --port 0 --seed 7
# skew.html: the rd1 section's wd lines and total.
sed -e 's/<[^>]*>//g' "$T/o/skew.html" | awk '
	/Starting RD=rd1;/ { on = 1 }
	on && $2 == "wd1" { w1 = $3 }
	on && $2 == "wd2" { w2 = $3 }
	on && $2 == "Total" { t = $3; on = 0 }
	END {
		p = t > 0 ? 100 * w1 / t : 0
		printf "skew: wd1 %.2f %% of %.1f/s (wd2 %.1f/s)\n", p, t, w2
		exit !(p >= 68 && p <= 72)
	}' && ok || bad "skew=(70,30) is not within 2 points"
# skew.html: requested against observed, and the delta is their difference.
sed -e 's/<[^>]*>//g' "$T/o/skew.html" | awk '
	/Starting RD=rd1;/ { on = 1 }
	on && $2 == "Wd:" && $3 == "requested" { cmp = 1; next }
	cmp && $2 == "wd1" { r = $3; o = $4; d = $5 }
	END {
		printf "skew.html wd1: requested %s observed %s delta %s\n", r, o, d
		exit !(r == 70 && o >= 68 && o <= 72 && (o - r - d) ^ 2 < 0.0001)
	}' && ok || bad "skew.html lacks requested/observed/delta for wd1"
awk '$3 == "rd1" && $4 ~ /^avg_/ {
		printf "rate %.1f/s, read%% %.2f\n", $6, $9
		found = 1
		exit !($6 >= 1940 && $6 <= 2060 && $9 >= 69 && $9 <= 71)
	}
	END { if (!found) exit 1 }' "$T/o/flatfile.html" && ok || bad "iorate=2000 within 3 % or rdpct=70 within 1 point"
finish
