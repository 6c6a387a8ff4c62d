#!/usr/bin/env bash
# tests/unit/selftests-toolchain.sh: scripts/lib.sh selftests_toolchain's
# linker for loongarch64 (GNU ld through a wrapper, not lld: lld 19.1.7
# writes R_LARCH_IRELATIVE addends 4 bytes into the resolvers),
# trixie_wrapper, the script that runs a trixie program through trixie's
# ld.so, on a made-up root whose "ld.so" prints its arguments, and
# irelative_stray, which finds those addends, on made-up readelf output.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unit=selftests-toolchain
# shellcheck source=tests/unit/lib/check.sh
. "$top/tests/unit/lib/check.sh"

RS_BUILD=$tmp/build
selftests_toolchain loongarch
ld=$tmp/build/selftests/binutils-loong64/bin/loongarch64-linux-gnu-ld
t "loongarch: st_ld is the GNU ld wrapper under build/selftests" "${st_ld-unset}" "$ld"
t "loongarch: clang links with it (--ld-path)" \
	"$(printf '%s\n' "${st_cc[@]}" | grep -c -xF -- "--ld-path=$ld")" 1
t "loongarch: no lld, no -mno-lsx" "$(printf '%s\n' "${st_cc[@]}" | grep -c -E -- '^-fuse-ld=|^-mno-lsx$')" 0
t "loongarch: the sysroot's libc.a" "$st_libc" "$tmp/build/selftests/sysroot-loong64/usr/loongarch64-linux-gnu/lib/libc.a"
selftests_toolchain riscv
t "riscv: no linker to fetch" "${st_ld-unset}:${st_cc[*]}" ":riscv64-linux-gnu-gcc"

root="$tmp/a root"
mkdir -p "$root/usr/lib64" "$root/usr/bin"
cat >"$root/usr/lib64/ld-linux-x86-64.so.2" <<'SH'
#!/bin/sh
for a in "$@"; do printf '[%s]' "$a"; done
SH
chmod +x "$root/usr/lib64/ld-linux-x86-64.so.2"
trixie_wrapper "$root" usr/bin/prog "$tmp/bin/prog" "a comment"
t "the wrapper is executable, with the comment" "$([ -x "$tmp/bin/prog" ] && sed -n 2p "$tmp/bin/prog")" "# a comment"
t "it runs the program through the root's ld.so, its libraries first, arguments as given" \
	"$("$tmp/bin/prog" "one two" "\$x" '')" \
	"[--argv0][$tmp/bin/prog][--library-path][$root/usr/lib/x86_64-linux-gnu][$root/usr/bin/prog][one two][\$x][]"
trixie_wrapper "$root" /usr/bin/prog "$tmp/bin/prog2"
t "an absolute BINARY is inside the root too; no comment line" \
	"$(sed -n 2p "$tmp/bin/prog2" | grep -c -F "\"$root/usr/bin/prog\" \"\$@\"")" 1

# irelative_stray on readelf's output for a static loongarch64 binary (the
# lines as GNU readelf 2.40 prints them for lld's hello, shortened): a
# made-up readelf stands in for the real one.
cat >"$tmp/relocs" <<'OUT'

Relocation section '.rela.dyn' at offset 0x330 contains 3 entries:
    Offset             Info             Type               Symbol's Value  Symbol's Name + Addend
00000000000d6bf0  000000000000000c R_LARCH_IRELATIVE                         6d5b0
00000000000d6bf8  000000000000000c R_LARCH_IRELATIVE                         6d644
00000000000d6c00  000000000000000c R_LARCH_IRELATIVE                         6d514
OUT
cat >"$tmp/syms" <<'OUT'

Symbol table '.symtab' contains 5 entries:
   Num:    Value          Size Type    Bind   Vis      Ndx Name
     0: 0000000000000000     0 NOTYPE  LOCAL  DEFAULT  UND 
     1: 000000000006d514     0 NOTYPE  LOCAL  HIDDEN     9 L0^A
 57875: 000000000006d5b0    80 FUNC    LOCAL  DEFAULT    9 memset_ifunc
 57925: 000000000006d640    64 FUNC    LOCAL  DEFAULT    9 strlen_ifunc
 57930: 000000000006d510    64 IFUNC   GLOBAL DEFAULT    9 memcpy
OUT
readelf() {
	[ -e "$2" ] || { echo "readelf: Error: '$2': No such file" >&2; return 1; }
	case $1 in -rW) cat "$tmp/relocs" ;; -sW) cat "$tmp/syms" ;; esac
}
touch "$tmp/elf"
t "irelative_stray: the addends 4 bytes into a function, not a NOTYPE label's" \
	"$(irelative_stray "$tmp/elf" | tr '\n' ' ')" "6d514 6d644 "
sed -i -e 's/6d644$/6d640/' -e 's/6d514$/6d510/' "$tmp/relocs"
t "irelative_stray: every addend a FUNC's or an IFUNC's address: nothing" "$(irelative_stray "$tmp/elf")" ""
t "irelative_stray: readelf fails, so does it" \
	"$(irelative_stray "$tmp/none" >/dev/null 2>&1 && echo ok || echo fails)" fails
t_done
