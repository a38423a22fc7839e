#!/bin/bash
# The include graph of the product stays a ladder (docs/architecture.md,
# "Layers"): no circle of #include between modules anywhere in common/,
# proto/, slave/ and master/, and no wing including a header of a wing on
# its own rung or above. A module is a .c and its .h (x_int.h, a module's
# private header, belongs to x). Prints each offence and exits 1; exits 0
# when the tree keeps the ladder.
set -u
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$src" || exit 2

# The rungs, bottom up; a wing may include only wings on lower rungs.
# slave/ and master/plan share a rung: neither knows the other.
rungs='common 0
proto 1
slave 2
master/plan 2
master/parm 3
master/report 4
master/run 5
master/tools 5
master 6'

# Known circles still to be cut (issue 27), one per line: a circle passes
# when all its modules are on one line here. A circle with a module of
# its own fails, and so does a line no circle meets any more (take it
# off, the ladder is one rung better).
known='common/model common/model_fields common/model_json
slave/fs slave/fswork
slave/dv_session slave/pace slave/sd_dv slave/target slave/werr slave/work slave/wstats
master/run/dvend master/run/intervals master/run/rkeys master/run/run
master/parm/parm master/parm/parmfile'

files=$(ls common/*.[ch] proto/*.[ch] slave/*.[ch] master/*.[ch] \
	master/*/*.[ch] 2>/dev/null)
# file -> header it includes, for every project header found
edges=$(for f in $files; do
	sed -n 's/^#include "\(.*\)".*/\1/p' "$f" | while read -r h; do
		for d in "$(dirname "$f")" common proto slave master master/*; do
			if [ -f "$d/$h" ]; then
				echo "$f $d/$h"
				break
			fi
		done
	done
done)

printf '%s\n' "$edges" | awk -v rungs="$rungs" -v known="$known" '
function wing(f,   n, a) {
	n = split(f, a, "/")
	return n == 3 ? a[1] "/" a[2] : a[1]
}
function module(f,   m) {
	m = f
	sub(/\.[ch]$/, "", m)
	sub(/_int$/, "", m)
	return m
}
BEGIN {
	n = split(rungs, r, "\n")
	for (i = 1; i <= n; i++) {
		split(r[i], kv, " ")
		rung[kv[1]] = kv[2]
	}
	nknown = split(known, kline, "\n")
	for (i = 1; i <= nknown; i++) {
		m = split(kline[i], km, " ")
		for (j = 1; j <= m; j++)
			inknown[i, km[j]] = 1
	}
	bad = 0
}
NF == 2 {
	wa = wing($1); wb = wing($2)
	if (wa != wb) {
		if (!(wa in rung) || !(wb in rung)) {
			print "layers: " wa " or " wb " has no rung in tests/lint/layers.sh"
			bad = 1
		} else if (rung[wb] >= rung[wa]) {
			print "layers: " $1 " includes " $2 ": " wa " (rung " \
			    rung[wa] ") may not reach " wb " (rung " rung[wb] ")"
			bad = 1
		}
	}
	a = module($1); b = module($2)
	if (a != b && !((a, b) in edge)) {
		edge[a, b] = 1
		out[a] = out[a] " " b
		node[a] = 1; node[b] = 1
	}
}
# Tarjan: strongly connected components of more than one module.
function visit(v,   i, n, w, ws, comp, sorted, j, t, ok) {
	idx[v] = low[v] = ++counter
	stack[++sp] = v; on[v] = 1
	n = split(out[v], ws, " ")
	for (i = 1; i <= n; i++) {
		w = ws[i]
		if (!(w in idx)) {
			visit(w)
			if (low[w] < low[v]) low[v] = low[w]
		} else if (on[w] && idx[w] < low[v])
			low[v] = idx[w]
	}
	if (low[v] == idx[v]) {
		n = 0
		do {
			w = stack[sp--]; on[w] = 0
			comp[++n] = w
		} while (w != v)
		if (n > 1) {
			for (i = 2; i <= n; i++)	# insertion sort
				for (j = i; j > 1 && comp[j] < comp[j-1]; j--) {
					t = comp[j]; comp[j] = comp[j-1]; comp[j-1] = t
				}
			sorted = comp[1]
			for (i = 2; i <= n; i++)
				sorted = sorted " " comp[i]
			ok = 0
			for (t = 1; t <= nknown && !ok; t++) {
				ok = 1
				for (i = 1; i <= n; i++)
					if (!((t, comp[i]) in inknown))
						ok = 0
				if (ok)
					met[t] = 1
			}
			if (!ok) {
				print "layers: an include circle: " sorted
				bad = 1
			}
		}
	}
}
END {
	for (v in node)
		if (!(v in idx))
			visit(v)
	for (t = 1; t <= nknown; t++)
		if (!(t in met)) {
			print "layers: the known circle \"" kline[t] "\" is gone: take it off the list in tests/lint/layers.sh"
			bad = 1
		}
	if (!bad)
		print "layers: wings on their rungs, no include circle but the known ones"
	exit bad
}'
