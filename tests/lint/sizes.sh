#!/bin/bash
# Sizes that keep the code easy to enter (issue 27, docs/style.md): no .c
# of common/, proto/, slave/ or master/ over 1,500 lines, no function over
# 120. A function is the house style's: its name at the start of a line,
# its body from a "{" alone at the start of a line to the "}" that ends
# it there. Prints each offender and exits 1; 0 when none.
set -u
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$src" || exit 2
files=$(ls common/*.c proto/*.c slave/*.c master/*.c master/*/*.c 2>/dev/null)
# (mawk, Debian's awk: no ENDFILE; a file's length is seen at the next
# file's first line and at the end)
out=$(awk -v maxfile=1500 -v maxfn=120 '
	function length_check() {
		if (last > maxfile)
			printf "%s: %d lines (at most %d)\n", file, last,
			    maxfile
	}
	FNR == 1 {
		length_check()
		file = FILENAME; name = ""; start = 0; inbody = 0
	}
	{ last = FNR }
	/^[A-Za-z_][A-Za-z0-9_]*\(/ && !inbody {
		name = $0; sub(/\(.*/, "", name); start = FNR
	}
	/^\{/ && name != "" && !inbody { inbody = 1 }
	/^\}/ && inbody {
		if (FNR - start + 1 > maxfn)
			printf "%s:%d: %s is %d lines (at most %d)\n",
			    FILENAME, start, name, FNR - start + 1, maxfn
		inbody = 0; name = ""
	}
	END { length_check() }' $files)
if [ -n "$out" ]; then
	echo "sizes: split these (a module per concern, static helpers):"
	echo "$out"
	exit 1
fi
echo "sizes: no .c over 1,500 lines, no function over 120"
