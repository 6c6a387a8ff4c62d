#!/usr/bin/env bash
# tests/unit/readme-size.sh: README.md reads in five minutes (at most 250
# lines; the rest lives in docs/), and every docs/*.md is linked from it, so
# that nothing moved there is out of reach.  tests/unit/doc-links.sh checks
# that the links resolve.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
max=250
pass=0 fail=0
ok() {
	pass=$((pass + 1))
	echo "ok - readme-size: $1"
}
not_ok() {
	fail=$((fail + 1))
	echo "not ok - readme-size: $1"
}

n=$(wc -l <"$top/README.md")
if [ "$n" -le "$max" ]; then
	ok "README.md has $n lines, at most $max"
else
	not_ok "README.md has $n lines, more than $max: move a section to docs/"
fi

for doc in "$top"/docs/*.md; do
	rel=${doc#"$top"/}
	if grep -qF "]($rel)" "$top/README.md"; then
		ok "README.md links $rel"
	else
		not_ok "README.md does not link $rel (add it under \"Where to read further\")"
	fi
done

echo "# readme-size: $pass passed, $fail failed"
[ "$fail" = 0 ]
