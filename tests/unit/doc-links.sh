#!/usr/bin/env bash
# tests/unit/doc-links.sh: every relative link in README.md and docs/*.md
# ([text](path) or [text](path#anchor)) names a file or directory of the
# checkout, and an anchor names a heading of the target (GitHub's rule:
# lower case, punctuation but - and _ dropped, spaces to -).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
pass=0 fail=0
# anchors FILE: the anchors of FILE's headings, one a line
anchors() {
	sed -n 's/^#\{1,6\} \{1,\}//p' "$1" | tr '[:upper:]' '[:lower:]' | sed -e 's/[^a-z0-9 _-]//g' -e 's/ /-/g'
}
for doc in "$top"/README.md "$top"/docs/*.md; do
	rel=${doc#"$top"/}
	dir=$(dirname "$doc")
	n=0 bad=()
	while IFS= read -r link; do
		n=$((n + 1))
		path=${link%%#*} anchor=''
		[ "$path" = "$link" ] || anchor=${link#*#}
		target=$doc
		[ -z "$path" ] || target=$dir/$path
		if [ ! -e "$target" ]; then
			bad+=("$link (no such file)")
		elif [ -n "$anchor" ] && [ -f "$target" ] && ! anchors "$target" | grep -qxF "$anchor"; then
			bad+=("$link (no heading for #$anchor)")
		fi
	done < <(grep -oE '\]\([^) ]+\)' "$doc" | sed 's/^](\(.*\))$/\1/' | grep -vE '^[a-z]+:')
	if [ "${#bad[@]}" = 0 ]; then
		pass=$((pass + 1))
		echo "ok - doc-links: $rel: its $n relative links resolve"
	else
		fail=$((fail + 1))
		echo "not ok - doc-links: $rel: ${bad[*]}"
	fi
done
echo "# doc-links: $pass passed, $fail failed"
[ "$fail" = 0 ]
