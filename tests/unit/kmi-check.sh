#!/usr/bin/env bash
# tests/unit/kmi-check.sh: scripts/kmi-check (docs/android.md, "The KMI
# check") on a fixture module and on the real one.
#
#   - a fixture module build (two objects compiled here, their Kbuild-style
#     .cmd files, retryscope.mod, a .ko linked from them): an import in no
#     list makes it exit 1 naming it; an import only the ftrace backend's
#     code makes (under #ifdef RS_HAVE_FTRACE_ARGS) is that backend's alone
#     and fails nothing; a symbol one object defines for another is no import
#   - it refuses (exit 2) what it cannot check: no .cmd, a .ko that its
#     objects do not make
#   - the lists in configs/gki: one sorted name a line, the counts that
#     configs/gki/README.md gives
#   - the real module, where build/mod has one: what kmi-check says each
#     backend imports is retryscope.ko's nm -u, the kprobe backend imports
#     none of ftrace's or fprobe's registration calls, and every symbol it
#     names as outside the lists is in none of them
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
unit=kmi-check
. "$top/tests/unit/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kc=$top/scripts/kmi-check

# ------------------------------------------------------------------ fixture
fx=$tmp/mod
mkdir -p "$fx/module"
cat >"$fx/module/fx.c" <<'EOF'
extern int register_kprobe(void *p);
extern int kmi_fixture_unlisted(void);
extern int register_ftrace_function(void *p);
extern int kmi_fixture_ftrace_only(void);
extern int fx_helper(void);
int fx(void);
int fx(void)
{
	int r = register_kprobe(0) + kmi_fixture_unlisted();
#ifdef RS_HAVE_FTRACE_ARGS
	r += register_ftrace_function(0) + kmi_fixture_ftrace_only();
#endif
	return r + fx_helper();
}
EOF
cat >"$fx/module/helper.c" <<'EOF'
extern void kfree(const void *p);
int fx_helper(void);
int fx_helper(void)
{
	kfree(0);
	return 1;
}
EOF
for n in fx helper; do
	printf 'savedcmd_module/%s.o := gcc -Wp,-MMD,module/.%s.o.d -O2 -DRS_HAVE_FTRACE_ARGS -c -o module/%s.o module/%s.c\n' \
		"$n" "$n" "$n" "$n" >"$fx/module/.$n.o.cmd"
	(cd "$fx" && gcc -O2 -DRS_HAVE_FTRACE_ARGS -c -o "module/$n.o" "module/$n.c")
done
printf './module/fx.o\n./module/helper.o\n' >"$fx/retryscope.mod"
ld -r -o "$fx/retryscope.ko" "$fx/module/fx.o" "$fx/module/helper.o"
mkdir -p "$tmp/lists"
printf '[abi_symbol_list]\n  register_kprobe\n# a comment\n  kfree\n\n  register_ftrace_function\n' >"$tmp/lists/fx"
printf 'kmi_fixture_unlisted\n' >"$tmp/more"

out=$("$kc" --mod "$fx" --lists "$tmp/lists" 2>&1)
t "an import in no list: exit 1" "$?" 1
t "the last line names it, and only it" "$(tail -n 1 <<<"$out")" \
	"FAIL: the kprobe backend imports 1 symbol outside the GKI lists: kmi_fixture_unlisted"
t "the ftrace backend's own import is the ftrace backend's alone" \
	"$(awk '$1 == "kmi_fixture_ftrace_only" { print $2 }' <<<"$out")" ftrace
t "the ftrace backend: both outside" "$(grep '^backend ftrace:' <<<"$out")" \
	"backend ftrace: 5 imports (2 of its own), 2 outside the lists: kmi_fixture_ftrace_only kmi_fixture_unlisted"
t "an import in a list shows the list" "$(awk '$1 == "kfree" { print $3, $4 }' <<<"$out")" "fx helper"
t "a symbol of another object is no import" "$(grep -c '^fx_helper ' <<<"$out")" 0

out=$("$kc" --mod "$fx" --lists "$tmp/lists" --list "$tmp/more" 2>&1)
t "kprobe's imports all listed (--list adds one): exit 0, the ftrace-only one outside fails nothing" \
	"$? $(tail -n 1 <<<"$out")" "0 ok: the kprobe backend imports no symbol outside the GKI lists"

cp -a "$fx" "$tmp/nocmd"
rm "$tmp/nocmd/module/.fx.o.cmd"
out=$("$kc" --mod "$tmp/nocmd" --lists "$tmp/lists" 2>&1)
t "no .cmd: exit 2, saying so" "$? $(grep -c 'cannot check: no .*\.fx\.o\.cmd' <<<"$out")" "2 1"

cp -a "$fx" "$tmp/stale"
printf 'extern int kmi_fixture_gone(void);\nint fx_stale(void);\nint fx_stale(void) { return kmi_fixture_gone(); }\n' >"$tmp/stale.c"
gcc -O2 -c -o "$tmp/stale.o" "$tmp/stale.c"
ld -r -o "$tmp/stale/retryscope.ko" "$tmp/stale/module/fx.o" "$tmp/stale/module/helper.o" "$tmp/stale.o"
out=$("$kc" --mod "$tmp/stale" --lists "$tmp/lists" 2>&1)
t "a .ko its objects do not make: exit 2, saying so" "$? $(grep -c "cannot check: the objects' imports are not retryscope.ko's" <<<"$out")" "2 1"

# ---------------------------------------------------------- configs/gki lists
gki=$top/configs/gki
for f in "$gki"/*/*; do
	[ -f "$f" ] || continue
	rel=${f#"$gki"/}
	t "$rel: one symbol name a line, sorted, unique" \
		"$(grep -cvE '^[A-Za-z_][A-Za-z0-9_.$]*$' "$f"; LC_ALL=C sort -cu "$f" 2>&1 | wc -l)" "0
0"
	# README.md's row of the file: | `rel` | ... | N symbols |
	want=$(awk -F'|' -v f="\`$rel\`" '$2 ~ f { gsub(/[^0-9]/, "", $(NF - 1)); print $(NF - 1) }' "$gki/README.md")
	t "$rel: as many names as configs/gki/README.md says" "$(wc -l <"$f")" "${want:-no row}"
done

# ------------------------------------------------------------ the real module
. "$top/scripts/lib.sh"
real=0
for arch in x86_64 arm64; do
	mod=$(mod_dir "$(obj_dir 7.3 stock "$arch")")
	[ -f "$mod/retryscope.ko" ] || continue
	real=1
	out=$("$kc" --arch "$arch" 2>&1)
	rc=$?
	name="real module, $arch (${mod#"$top"/})"
	# a build its kernel tree or sources moved on from is no result either way
	if [ "$rc" = 2 ] && grep -qE "sources changed since the build|older or newer than its objects|compiling .* again without .* failed" <<<"$out"; then
		echo "ok - $unit: $name # SKIP stale build: $(tail -n 1 <<<"$out" | cut -c1-160)"
		continue
	fi
	t "$name: checked (exit 0 or 1)" "$([ "$rc" = 0 ] || [ "$rc" = 1 ] && echo yes || echo "exit $rc: $(tail -n 1 <<<"$out")")" yes
	t "$name: the table's symbols are retryscope.ko's nm -u" \
		"$(awk '/^symbol /{ f = 1; next } f && NF == 0 { exit } f { print $1 }' <<<"$out" | LC_ALL=C sort | tr '\n' ' ')" \
		"$(nm -u "$mod/retryscope.ko" | awk '{ print $2 }' | LC_ALL=C sort | tr '\n' ' ')"
	t "$name: the kprobe backend imports no ftrace or fprobe registration" \
		"$(awk '$2 ~ /kprobe/ && $1 ~ /^(register|unregister)_(ftrace_function|fprobe)/ { print $1 }' <<<"$out" | tr '\n' ' ')" ""
	bad='' outside=()
	read -ra outside <<<"$(sed -n 's/^FAIL: .*: //p' <<<"$out")"
	for s in "${outside[@]}"; do
		! grep -qxF -- "$s" "$gki"/android16-6.12/* || bad+=" $s"
	done
	t "$name: what it names as outside is in no list" "$bad" ""
	t "$name: exit 1 exactly when it names one" "$rc" "$(grep -q '^FAIL: ' <<<"$out" && echo 1 || echo 0)"
done
[ "$real" = 1 ] ||
	echo "ok - $unit: real module # SKIP no module build of the stock kernel under build/mod (scripts/build-module --base 7.3 --variant stock [--arch arm64])"
t_done
