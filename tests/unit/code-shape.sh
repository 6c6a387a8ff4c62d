#!/usr/bin/env bash
# tests/unit/code-shape.sh: the structure rules of module/ and tools/ that a
# compiler does not check (docs/module.md, "Module layout").
#
#   - every module/ file says its layer in its first lines ("Layer N (name)")
#   - a module file includes only module headers of its own layer or below
#   - no include cycle between module units (X.c with its X.h): tsort
#   - no C function in module/ or tools/ longer than 80 lines, counted from
#     the "{" in column 0 to the "}" in column 0 (kernel style)
#
# Prints TAP-style "ok"/"not ok" lines.  tests/unit/code-shape.sh --layers
# prints the layer of every module file and its includes.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
mod=$top/module
MAX_FUNC_LINES=${MAX_FUNC_LINES:-80}

# layer_of FILE: the N of the first "Layer N" in its first 5 lines, or "".
layer_of() {
	head -n 5 "$1" | sed -n 's/.*Layer \([0-9]\+\).*/\1/p' | head -n 1
}

# includes FILE: the module headers FILE includes ("x.h" form, in module/).
includes() {
	sed -n 's/^#include "\([^"/]*\.h\)".*/\1/p' "$1" | while read -r h; do
		[ -f "$mod/$h" ] && echo "$h"
	done
}

unit() { local b=${1##*/}; echo "${b%.*}"; }

if [ "${1:-}" = --layers ]; then
	for f in "$mod"/*.[ch]; do
		printf '%s %s: %s\n' "$(layer_of "$f")" "${f##*/}" "$(includes "$f" | tr '\n' ' ')"
	done | sort -n
	exit 0
fi

bad=0
for f in "$mod"/*.[ch]; do
	[ -n "$(layer_of "$f")" ] || { echo "#   ${f##*/}: no 'Layer N' in its first lines"; bad=1; }
done
if [ "$bad" = 0 ]; then
	echo "ok - every module/ file names its layer"
else
	echo "not ok - every module/ file names its layer"
fi

bad=0
for f in "$mod"/*.[ch]; do
	lf=$(layer_of "$f")
	[ -n "$lf" ] || continue
	for h in $(includes "$f"); do
		lh=$(layer_of "$mod/$h")
		if [ -n "$lh" ] && [ "$lh" -gt "$lf" ]; then
			echo "#   ${f##*/} (layer $lf) includes $h (layer $lh)"
			bad=1
		fi
	done
done
if [ "$bad" = 0 ]; then
	echo "ok - module/ files include only their own layer or below"
else
	echo "not ok - module/ files include only their own layer or below"
fi

# The unit graph: an edge from every included unit to the includer; tsort
# fails on a cycle and names it.
edges=$(for f in "$mod"/*.[ch]; do
	for h in $(includes "$f"); do
		[ "$(unit "$h")" = "$(unit "$f")" ] || echo "$(unit "$h") $(unit "$f")"
	done
done)
if out=$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null) && [ -z "$out" ]; then
	echo "ok - no include cycle between module/ units (tsort)"
else
	printf '%s\n' "$out" | sed 's/^/#   /'
	echo "not ok - no include cycle between module/ units (tsort)"
fi

long=$(find "$mod" "$top/tools" -name '*.c' -print0 | xargs -0 awk -v max="$MAX_FUNC_LINES" '
	FNR == 1 { start = 0 }
	/^\{/ { start = FNR; name = prev }
	/^\}/ && start { n = FNR - start + 1; if (n > max) printf "%s:%d %s: %d lines\n", FILENAME, start, name, n; start = 0 }
	{ prev = $0 }')
if [ -z "$long" ]; then
	echo "ok - no function in module/ or tools/ over $MAX_FUNC_LINES lines"
else
	printf '%s\n' "$long" | sed "s|$top/||; s/^/#   /"
	echo "not ok - no function in module/ or tools/ over $MAX_FUNC_LINES lines"
fi
