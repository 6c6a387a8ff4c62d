#!/usr/bin/env bash
# tests/unit/selftests-toolchain.sh: scripts/lib.sh selftests_toolchain's
# linker for loongarch64 (GNU ld through a wrapper, not lld: lld 19.1.7
# writes R_LARCH_IRELATIVE addends 4 bytes into the resolvers) and
# trixie_wrapper, the script that runs a trixie program through trixie's
# ld.so, on a made-up root whose "ld.so" prints its arguments.
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
t_done
