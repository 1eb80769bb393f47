#!/usr/bin/env bash
# The FlatZinc size (variables / constraints) of each model of sizes.tsv (a global over 20
# variables), compiled with this repository's solver library and with Gecode's; a third library
# directory given as the first argument (say, an older minizinc/ checkout) adds a column.
# Run from the repository root: bash data/minizinc-globals/sizes.sh [OTHER_MINIZINC_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
other=${1:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
count() { [ -s "$1" ] && echo "$(grep -c '^var\|^array.*var' "$1") / $(grep -c '^constraint' "$1")" || echo "fails"; }
compile() { # FLATZINC LIBRARY_DIR SOLVER
    rm -f "$1"
    MZN_SOLVER_PATH=$2 minizinc --solver "$3" -c "$work/model.mzn" --fzn "$1" --ozn /dev/null \
        2> /dev/null || true
}
while IFS=$'\t' read -r name include body; do
    printf 'include "%s";\n%s\nsolve satisfy;\n' "$include" "$body" > "$work/model.mzn"
    compile "$work/ours.fzn" "$root/minizinc" org.csp-rs.csp
    compile "$work/gecode.fzn" "" gecode
    line="$name\t$(count "$work/ours.fzn")\t$(count "$work/gecode.fzn")"
    if [ -n "$other" ]; then
        compile "$work/other.fzn" "$other" org.csp-rs.csp
        line="$line\t$(count "$work/other.fzn")"
    fi
    echo -e "$line"
done < "$here/sizes.tsv"
