#!/bin/bash
# The seams that stay single (DESIGN.md, docs/style.md), checked on the
# source tree: a keyword is read untyped (the model's bag) only by the
# parser and the model's own codecs. Prints each offending line and
# exits 1; exits 0 when the tree keeps the seams.
set -u
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$src" || exit 2

# Who may touch the bag: the parmfile parser (master/parm/parm_*.c,
# parmfile.c), the YAML reader and dump (parmyaml.c) and the model with
# its codecs (common/model*.c).
allowed='^(master/parm/parm_[a-z_]+\.c|master/parm/parmfile\.c|master/parm/parmyaml\.c|common/model[a-z_]*\.c):'
bad=$(grep -nE '\bbag_(get|set|copy|init|clear)\b|struct bag_item|(\.|->)bag\b' \
	common/*.c proto/*.c master/*.c master/*/*.c slave/*.c 2>/dev/null |
	grep -Ev "$allowed")
rc=0
if [ -n "$bad" ]; then
	echo "untyped keyword reads outside the parser (type the keyword in common/model.h and model_fields.c, fill it in master/parm_*.c):"
	echo "$bad"
	rc=1
fi
[ $rc = 0 ] && echo "seams: no bag read outside the parser"
exit $rc
