# shellcheck shell=bash
# Common helpers sourced by the scripts in scripts/ (and tests/host/lib.sh).
# Not executable on its own.

RS_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RS_BUILD=${RS_BUILD:-$RS_TOP/build}
RS_START=${RS_START:-$(date +%s)}
export RS_TOP RS_BUILD RS_START

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

# step NAME: print a step banner with the time elapsed since the script began.
step() {
	local now
	now=$(date +%s)
	printf '==> [%4ds] %s\n' "$((now - RS_START))" "$*" >&2
}

need_root() {
	[ "$(id -u)" -eq 0 ] || die "must run as root (it installs Debian packages): try sudo $0"
}

need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "'$c' not found: run scripts/setup (as root) first"
	done
}

# lab_variant NAME: the lab kernel a variant name builds.  "rfc" (the name
# issue 6's comparison uses) is the RFC series, which "patched" has always
# built: the same patches/<base>/series, so one tree, one build, one
# 7.3.4-rs-patched kernel.  Results keep the name they were asked for.
lab_variant() {
	case $1 in
	rfc) echo patched ;;
	*) echo "$1" ;;
	esac
}

# ------------------------------------------------------------ kernel layout
# Where the lab's kernels live.  scripts/build-kernel makes this layout;
# every other script and test asks these functions for it:
#   build/src/linux-source-<base>_*.deb       Debian's source (scripts/setup)
#   build/tree/<base>-<variant>/              its extract, the series applied
#   build/obj/<base>-<variant>-<arch>[-debug]/  the O= build; the image is
#                                             kernel_image_rel inside it
# (scripts/build-kernel --tree DIR: build/obj/custom-<DIR's name>-<arch>...).

# kernel_tag BASE VARIANT ARCH [DEBUG]: a build's name,
# <base>-<variant>-<arch>, -debug added when DEBUG is 1.
kernel_tag() {
	local tag=$1-$2-$3
	[ "${4:-0}" != 1 ] || tag+=-debug
	printf '%s\n' "$tag"
}

# tree_dir BASE VARIANT: the variant's source tree.
tree_dir() {
	printf '%s/tree/%s-%s\n' "$RS_BUILD" "$1" "$(lab_variant "$2")"
}

# obj_dir_tag TAG: the build directory of the build named TAG.
obj_dir_tag() {
	printf '%s/obj/%s\n' "$RS_BUILD" "$1"
}

# obj_dir BASE VARIANT [ARCH [DEBUG]]: the variant's build directory (ARCH
# x86_64, DEBUG 0 unless given).
obj_dir() {
	obj_dir_tag "$(kernel_tag "$1" "$(lab_variant "$2")" "${3:-x86_64}" "${4:-0}")"
}

# mod_dir KDIR: where scripts/build-module builds retryscope.ko against the
# kernel build KDIR (an absolute path): build/mod/<KDIR's name>-<the first
# 8 hex digits of the sha256 of KDIR>, so that /lib/modules/A/build and
# /lib/modules/B/build do not collide.
mod_dir() {
	printf '%s/mod/%s-%s\n' "$RS_BUILD" "$(basename "$1")" "$(printf '%s' "$1" | sha256sum | cut -c1-8)"
}

# host_cpu: the host's CPU time so far, "busy steal total" in jiffies
# (/proc/stat's cpu line: busy is all but idle and iowait)
host_cpu() {
	awk '$1 == "cpu" { t = 0; for (i = 2; i <= NF; i++) t += $i
		print t - $5 - $6, $9 + 0, t; exit }' /proc/stat
}

# host_record START_CPU START_LOAD START_WALL: how the host was over an
# interval that began with those (host_cpu, /proc/loadavg's 1-minute load,
# date -u), as key=value lines for a run's meta.host: a confound (another
# job, steal) can be seen afterwards
host_record() {
	local b0 s0 t0 b1 s1 t1
	read -r b0 s0 t0 <<<"$1"
	read -r b1 s1 t1 <<<"$(host_cpu)"
	printf 'wall_start=%s\nwall_end=%s\n' "$3" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	printf 'host_load_start=%s\nhost_load_end=%s\n' "$2" "$(cut -d' ' -f1 /proc/loadavg)"
	awk -v b=$((b1 - b0)) -v s=$((s1 - s0)) -v t=$((t1 - t0)) -v n="$(nproc)" 'BEGIN {
		printf "host_cpus=%d\nhost_busy_pct=%.1f\nhost_steal_pct=%.1f\n", n, t ? 100 * b / t : 0, t ? 100 * s / t : 0 }'
}

# hog_start SECONDS / hog_stop: a CPU hog, one busy loop per host core,
# each ending by itself after SECONDS; their pids in hogs[]
# (scripts/host-independence, tests/host/32-clock.sh)
hogs=()
hog_start() {
	local _
	for _ in $(seq "$(nproc)"); do
		timeout "$1" sh -c 'while :; do :; done' &
		hogs+=($!)
	done
}
hog_stop() {
	[ "${#hogs[@]}" = 0 ] || { kill "${hogs[@]}" 2>/dev/null || true; wait "${hogs[@]}" 2>/dev/null || true; }
	hogs=()
}

# host_sampler FILE: until killed, every second a line "epoch load1 busy
# steal total" (the 1-minute load, host_cpu's jiffies) appended to FILE:
# what host_window reads
host_sampler() {
	while :; do
		printf '%s %s %s\n' "$(date +%s)" "$(cut -d' ' -f1 /proc/loadavg)" "$(host_cpu)" >>"$1"
		sleep 1
	done
}

# host_window SAMPLES T0 T1: how the host was from epoch T0 to T1 (a run's
# window), as key=value lines for meta.host: run_wall_start/_end/_s, the
# highest 1-minute load sampled in it, and the busy and steal share of the
# host's CPU time between the samples just before T0 and just after T1
# (host_sampler); run_host_samples=0 and no shares when none bracket it
host_window() {
	printf 'run_wall_start=%s\nrun_wall_end=%s\nrun_wall_s=%s\n' \
		"$(date -u -d "@$2" +%Y-%m-%dT%H:%M:%SZ)" "$(date -u -d "@$3" +%Y-%m-%dT%H:%M:%SZ)" $(($3 - $2))
	awk -v t0="$2" -v t1="$3" '
		$1 <= t0 { b0 = $3; s0 = $4; c0 = $5; have0 = 1 }
		$1 >= t0 && $1 <= t1 + 1 && $2 > load { load = $2 }
		$1 >= t1 && !have1 { b1 = $3; s1 = $4; c1 = $5; have1 = 1 }
		$1 >= t0 - 1 && $1 <= t1 + 1 { n++ }
		END {
			if (!have0 || !have1 || c1 <= c0) { print "run_host_samples=0"; exit }
			printf "run_host_samples=%d\nrun_host_load_max=%s\n", n, load + 0
			printf "run_host_busy_pct=%.1f\nrun_host_steal_pct=%.1f\n", 100 * (b1 - b0) / (c1 - c0), 100 * (s1 - s0) / (c1 - c0)
		}' "$1" 2>/dev/null || echo "run_host_samples=0"
}

# storage_profile NAME: configs/storage/NAME.conf's null_blk settings as
# "completion_nsec hw_queue_depth max_sectors", or die naming what is wrong
# (scripts/vm --storage, scripts/lava-jobs --storage)
storage_profile() {
	local prof=$RS_TOP/configs/storage/$1.conf k v out=''
	case $1 in '' | *[!a-z0-9_-]*) die "--storage: '$1' is not a profile name (virtio, or NAME of configs/storage/NAME.conf)" ;; esac
	[ -f "$prof" ] || die "--storage $1: no $prof (the profiles: virtio $(find "$RS_TOP/configs/storage" -name '*.conf' -printf '%f ' | sed 's/\.conf//g'))"
	for k in completion_nsec hw_queue_depth max_sectors; do
		v=$(status_get "$prof" "$k")
		case $v in '' | *[!0-9]* | 0*) die "$prof: $k must be a positive whole number, not '$v'" ;; esac
		out+="${out:+ }$v"
	done
	printf '%s\n' "$out"
}

# build_progress N M ELAPSED: a build's progress line: N objects built in
# ELAPSED seconds, of about M (0: unknown); the time left is N's pace
# carried on to M, said once N is past 50 and below M.
build_progress() {
	local n=$1 m=$2 el=$3 left
	if [ "$m" -le 0 ]; then
		printf '%d objects so far\n' "$n"
	elif [ "$n" -lt 50 ] || [ "$n" -ge "$m" ]; then
		printf '%d of about %d objects\n' "$n" "$m"
	else
		left=$(((m - n) * el / n))
		printf '%d of about %d objects (%d%%), about %d min %02d s left\n' \
			"$n" "$m" $((100 * n / m)) $((left / 60)) $((left % 60))
	fi
}

# build_kind TAG: a build directory's kind from its name,
# 7.3-<variant>-x86_64[-debug][-llvm|-gki]: x86_64[-debug][-llvm|-gki]
build_kind() {
	sed -E 's/^[^-]+-.*-(x86_64|arm64)((-debug)?(-llvm|-gki)?)$/\1\2/' <<<"$1"
}

# build_record OBJ FIELD: field 1 (objects) or 2 (seconds) of the last full
# build of OBJ's kind on this machine: OBJ's own .retryscope-objects, else
# the largest of another variant's build of the same base, arch and kind
# (debug, llvm, gki), which differ by the series' few files; 0: none seen.
build_record() {
	local obj=$1 field=$2 tag f m=0 n
	tag=${obj##*/}
	if [ -f "$obj/.retryscope-objects" ]; then
		awk -v f="$field" '{ print $f + 0; exit }' "$obj/.retryscope-objects"
		return
	fi
	local base=${tag%%-*} kind
	kind=$(build_kind "$tag")
	for f in "$(dirname "$obj")/$base"-*-"$kind"/.retryscope-objects; do
		[ -f "$f" ] || continue
		n=$(awk -v f="$field" '{ print $f + 0; exit }' "$f")
		[ "${n:-0}" -le "$m" ] || m=$n
	done
	printf '%d\n' "$m"
}

# build_size OBJ: the objects a full build of OBJ's kind makes (0: none
# seen): build_record's count, else configs/build-sizes' figure.
build_size() {
	local obj=$1 tag m
	tag=${obj##*/}
	m=$(build_record "$obj" 1)
	local base=${tag%%-*} kind
	kind=$(build_kind "$tag")
	[ "$m" != 0 ] || [ ! -f "$RS_TOP/configs/build-sizes" ] ||
		m=$(awk -v b="$base" -v k="$kind" '$1 == b && $2 == k { n = $3 } END { print n + 0 }' \
			"$RS_TOP/configs/build-sizes")
	printf '%d\n' "$m"
}

# compare_eta CAP_SECS DONE LEFT BUILD_SECS BUILDS SELF_SECS SELFS [NOW]:
# the estimate on compare's progress line, after DONE captures that took
# CAP_SECS: when the LEFT captures still to make end, and when the whole
# compare ends, adding BUILDS kernels still to build (BUILD_SECS seconds
# in all) and SELFS selftests runs (SELF_SECS); a time of -1 is not known
# yet (nothing of its kind has run on this machine), and the line says so.
compare_eta() {
	local cs=$1 done=$2 left=$3 bs=$4 nb=$5 ss=$6 ns=$7 now=${8:-$(date +%s)} cap rest='' unk=''
	[ "$done" -gt 0 ] || return 0
	cap=$((cs * left / done))
	printf 'captures end in about %d min (at %s)' $((cap / 60)) "$(date -d "@$((now + cap))" +%H:%M)"
	[ "$nb" -gt 0 ] || [ "$ns" -gt 0 ] || { echo; return 0; }
	[ "$nb" = 0 ] || rest="$nb kernel$([ "$nb" = 1 ] || echo s) to build"
	[ "$ns" = 0 ] || rest+="${rest:+, }$ns selftests run$([ "$ns" = 1 ] || echo s)"
	if [ "$nb" -gt 0 ] && [ "$bs" -lt 0 ]; then unk="builds"; fi
	if [ "$ns" -gt 0 ] && [ "$ss" -lt 0 ]; then unk+="${unk:+ and }selftests"; fi
	if [ -n "$unk" ]; then
		printf '; the whole compare ends later (%s; %s not timed on this machine yet)\n' "$rest" "$unk"
		return 0
	fi
	[ "$nb" -gt 0 ] || bs=0
	[ "$ns" -gt 0 ] || ss=0
	printf '; the whole compare in about %d min (at %s; with %s)\n' $(((cap + bs + ss) / 60)) \
		"$(date -d "@$((now + cap + bs + ss))" +%H:%M)" "$rest"
}

# obj_dirs BASE VARIANT: the variant's build directories that exist, one a
# line: every arch, debug or not.
obj_dirs() {
	local d
	for d in "$(obj_dir_tag "$1-$(lab_variant "$2")")"-*; do
		[ ! -d "$d" ] || printf '%s\n' "$d"
	done
}

# LAB_ARCHES: the arches whose lab kernels boot here (qemu under TCG).
LAB_ARCHES='x86_64 arm64'

# lab_arch ARCH: ARCH if lab kernels boot on it (x86, the kernel's name,
# is x86_64), else die.
lab_arch() {
	local a=$1
	[ "$a" != x86 ] || a=x86_64
	case " $LAB_ARCHES " in
	*" $a "*) printf '%s\n' "$a" ;;
	*) die "--arch $1: lab kernels boot on $LAB_ARCHES only (scripts/check-arches compiles the others)" ;;
	esac
}

# kernel_image_rel ARCH: the boot image's path inside a build directory.
kernel_image_rel() {
	case $(lab_arch "$1") in
	x86_64) echo arch/x86/boot/bzImage ;;
	arm64) echo arch/arm64/boot/Image ;;
	esac
}

# cross_prefix ARCH: CROSS_COMPILE= for ARCH on this (x86_64) host: empty
# for x86_64, Debian's gcc-aarch64-linux-gnu for arm64.
cross_prefix() {
	case $(lab_arch "$1") in
	x86_64) ;;
	arm64) echo aarch64-linux-gnu- ;;
	esac
}

# image_arch IMAGE: the arch of a lab kernel image, from its path.
image_arch() {
	local a
	for a in $LAB_ARCHES; do
		case $1 in */"$(kernel_image_rel "$a")") printf '%s\n' "$a"; return ;; esac
	done
	die "$1 is not a lab kernel image (<build dir>/$(kernel_image_rel x86_64) or .../$(kernel_image_rel arm64))"
}

# guest_tools_dir ARCH: where scripts/build-tools puts the guest's programs
# for ARCH: tools/ itself for x86_64, build/tools-<arch>/ for another.
guest_tools_dir() {
	case $(lab_arch "$1") in
	x86_64) printf '%s\n' "$RS_TOP/tools" ;;
	*) printf '%s\n' "$RS_BUILD/tools-$1" ;;
	esac
}

# guest_tool ARCH NAME: the path of a guest program (faultload, rs-snap,
# rs-edgecase) built for ARCH by scripts/build-tools.
guest_tool() {
	local rel
	case $2 in
	faultload) rel=faultload/faultload ;;
	rs-snap) rel=snap/rs-snap ;;
	rs-edgecase) rel=edgecase/rs-edgecase ;;
	*) die "guest_tool: no guest program '$2'" ;;
	esac
	printf '%s/%s\n' "$(guest_tools_dir "$1")" "$rel"
}

# obj_dir_of IMAGE: the build directory of an image that build-kernel printed.
obj_dir_of() {
	local rel
	rel=$(kernel_image_rel "$(image_arch "$1")")
	printf '%s\n' "${1%/"$rel"}"
}

# series_file BASE VARIANT: the variant's series: none for stock,
# patches/<base>/series for patched (alias rfc), patches/<base>/NAME/series.
series_file() {
	case $(lab_variant "$2") in
	stock) ;;
	patched) printf '%s\n' "$RS_TOP/patches/$1/series" ;;
	*) printf '%s\n' "$RS_TOP/patches/$1/$2/series" ;;
	esac
}

# series_diffstat SERIES: the lines a variant's series adds and removes, as
# key=value lines: patches, mm_added, mm_removed (mm/ and the mm headers
# include/linux/mm*, pagemap.h, swap*), arch_added, arch_removed (arch/),
# other_added, other_removed.  All 0 for no series (stock).
series_diffstat() {
	local s=$1
	if [ -z "$s" ]; then
		printf 'patches=0\nmm_added=0\nmm_removed=0\narch_added=0\narch_removed=0\nother_added=0\nother_removed=0\n'
		return
	fi
	# shellcheck disable=SC2016 # an awk program
	grep -v '^[[:space:]]*\(#\|$\)' "$s" | while read -r p _; do
		printf '%s/%s\n' "$(dirname "$s")" "$p"
	done | xargs awk '
		FNR == 1 { patches++; in_hunk = 0 }
		/^diff --git / { f = $3; sub(/^a\//, "", f); in_hunk = 0; next }
		/^@@ / { in_hunk = 1; next }
		/^-- $/ { in_hunk = 0; next }
		!in_hunk { next }
		/^\+/ { add[area(f)]++ } /^-/ { del[area(f)]++ }
		function area(f) { return f ~ /^mm\// || f ~ /^include\/linux\/(mm|pagemap|swap)/ ? "mm" : f ~ /^arch\// ? "arch" : "other" }
		END { printf "patches=%d\n", patches
		      split("mm arch other", a, " ")
		      for (i = 1; i <= 3; i++) printf "%s_added=%d\n%s_removed=%d\n", a[i], add[a[i]], a[i], del[a[i]] }'
}

# series_hash SERIES: the identity of a variant's source tree, a hash of the
# series file and every patch it lists ("stock" for no series), and the
# tree's layout ("linked": extract_tree's hard links; a tree from before
# them is extracted again).
series_hash() {
	local s=$1
	[ -n "$s" ] || { echo 'stock linked'; return; }
	[ -f "$s" ] || die "no series file $s"
	(
		cat "$s"
		grep -v '^[[:space:]]*\(#\|$\)' "$s" | while read -r p _; do
			cat "$(dirname "$s")/$p" || exit 1
		done
	) | sha256sum | cut -c1-16 | sed 's/$/ linked/'
}

# source_tarball BASE: the path of Debian's linux-source-BASE tarball,
# unpacked from the .deb that scripts/setup downloaded on first use.
source_tarball() {
	local base=$1 deb tarball
	deb=$(find "$RS_BUILD/src" -maxdepth 1 -name "linux-source-${base}_*.deb" | head -n 1)
	[ -n "$deb" ] || die "linux-source-$base not downloaded: run scripts/setup (as root)"
	tarball=$RS_BUILD/src/$base/usr/src/linux-source-$base.tar.xz
	[ -f "$tarball" ] || dpkg -x "$deb" "$RS_BUILD/src/$base" >&2
	printf '%s\n' "$tarball"
}

# pristine_tree BASE: the path of the one unpacked linux-source-BASE tree,
# unpacked on first use (and again when the .deb changes).  Never build in
# it or edit it: every other tree is a hard-linked copy of it.
pristine_tree() {
	local base=$1 tarball dir want
	# (a command substitution does not inherit set -e: stop here, not at
	# the stat of an empty path below)
	tarball=$(source_tarball "$base") || exit 1
	dir=$RS_BUILD/src/$base/linux
	want=$(stat -c '%s %Y' "$tarball")
	if [ "$(cat "$dir/.retryscope-pristine" 2>/dev/null)" != "$want" ]; then
		step "unpack linux-source-$base to ${dir#"$RS_TOP"/}"
		rm -rf "$dir" "$dir.tmp"
		mkdir -p "$dir.tmp"
		tar -xf "$tarball" -C "$dir.tmp" --strip-components=1
		echo "$want" >"$dir.tmp/.retryscope-pristine"
		mv "$dir.tmp" "$dir"
	fi
	printf '%s\n' "$dir"
}

# extract_tree BASE DIR: a clean Debian source tree for BASE in DIR (made
# beside it and renamed, so DIR is never half there).  DIR hard-links the
# pristine tree's files: a 7.3 tree costs about 0.1 GB, not 1.8 GB.  That is
# safe because nothing writes a file of a tree in place: git apply writes a
# patched file anew (its link to the pristine file breaks), and every build
# is out of tree (O=).  A write in place would change every tree at once:
# tests/host/20-kernels.sh, which checks that the stock and patched trees
# differ in exactly the files the series touches, would fail.
extract_tree() {
	local dir=$2 pristine
	pristine=$(pristine_tree "$1")
	rm -rf "$dir.tmp"
	mkdir -p "$(dirname "$dir")"
	cp -al "$pristine" "$dir.tmp"
	rm -f "$dir.tmp/.retryscope-pristine"
	mv "$dir.tmp" "$dir"
}

# ----------------------------------------------------------------- results
# parse_spec SPEC: a scenario spec [LABEL=]SCENARIO[:ARGS] (scripts/capture,
# scripts/compare) into spec_label (LABEL, default SCENARIO), spec_scenario
# and spec_args (ARGS, faultload options separated by commas, with the
# commas turned into spaces).  Dies on a bad name.
# shellcheck disable=SC2034 # the spec_* variables are its result
parse_spec() {
	local spec=$1 head
	head=${spec%%:*}
	spec_label=''
	case $head in
	*=*)
		spec_label=${head%%=*}
		spec=${spec#*=}
		[ -n "$spec_label" ] || die "bad scenario name '' in '$1'"
		;;
	esac
	spec_scenario=${spec%%:*}
	spec_label=${spec_label:-$spec_scenario}
	spec_args=''
	[ "$spec_scenario" = "$spec" ] || spec_args=${spec#*:}
	spec_args=${spec_args//,/ }
	case $spec_label in
	'' | *[!a-z0-9-]*) die "bad scenario name '$spec_label' in '$1'" ;;
	esac
}

# other_build DEST CFG: the first DEST/<scenario>/<n>/meta.host (a kernel's
# runs in a results directory) of a build other than config hash CFG, or
# nothing.  One build of a kernel per run id: runs of two builds (an arm64
# and an x86 one, or one before a config change) would be averaged together.
other_build() {
	local m had
	for m in "$1"/*/*/meta.host; do
		[ -f "$m" ] || continue
		had=$(status_get "$m" config_hash)
		if [ -n "$had" ] && [ "$had" != "$2" ]; then
			printf '%s\n' "$m"
			return
		fi
	done
}

# status_get FILE KEY: the value of KEY in a key=value file of a run
# directory (status, guest-status, meta, meta.host); empty if it has none.
# A status file of the form before key=value ("ok", "lossy: WHY",
# "failed: WHY" on its first line) answers result and reason.
status_get() {
	local file=$1 key=$2 first
	[ -f "$file" ] || return 0
	if grep -q "^$key=" "$file"; then
		awk -v k="$key" 'index($0, k "=") == 1 { print substr($0, length(k) + 2); exit }' "$file"
		return
	fi
	first=$(head -n 1 "$file")
	case $key:$first in
	result:ok | result:lossy:* | result:failed:*) printf '%s\n' "${first%%:*}" ;;
	reason:lossy:* | reason:failed:*) printf '%s\n' "${first#*: }" ;;
	esac
}

# crash_kind CONSOLE_LOG VM_LOG VM_EXIT: how the guest of a scripts/vm run
# died: oops (an Oops or BUG: on its console), panic (a kernel panic
# without one), hang (no such line, and scripts/vm exited non-zero without
# seeing the command end: its timeout, or qemu gone), else none.
crash_kind() {
	if grep -qE 'Oops|BUG:' "$1" 2>/dev/null; then
		echo oops
	elif grep -q 'Kernel panic' "$1" 2>/dev/null; then
		echo panic
	elif [ "$3" != 0 ] && ! grep -q 'guest command exited' "$2" 2>/dev/null; then
		echo hang
	else
		echo none
	fi
}

# llvm_prefix: the bin/ directory (with its trailing /) of Debian's clang-19
# when it is installed (scripts/setup), for LLVM=<prefix> builds: 7.3 needs
# LLVM 17 or later and bookworm's default clang is 14; "" without it.
llvm_prefix() {
	[ ! -x /usr/lib/llvm-19/bin/clang ] || echo /usr/lib/llvm-19/bin/
}

# ------------------------------------------------------ other-arch boots
# scripts/boot-arches (issue 32): the five arches beside x86_64 and arm64,
# cross-built from tinyconfig + configs/arches/, booted under qemu TCG with
# a nolibc init (tools/archboot).

# ARCHBOOT_ARCHES: the arches scripts/boot-arches builds and boots;
# ARCHBOOT_LAB_ARCHES: those it boots the lab's own kernels of
# (scripts/build-kernel's, configs/common.config), built by nothing here.
ARCHBOOT_ARCHES='riscv arm s390 powerpc loongarch'
ARCHBOOT_LAB_ARCHES='x86_64 arm64'

# archboot_info ARCH: the arch's build and boot facts in ab_* variables:
# ab_karch (ARCH=), ab_cross (CROSS_COMPILE=, or LLVM for clang), ab_image
# (the boot image inside the build directory), ab_qemu (qemu binary),
# ab_pkg (the Debian package that has it), ab_qemu_min (the oldest qemu
# that boots it; boot-arches takes trixie-backports' qemu through
# scripts/qemu-trixie when bookworm's is older), ab_mem (guest MiB), ab_qargs
# (machine, cpu, firmware), ab_disk (the virtio disk device: a qemu -device
# name; the drive id is appended), ab_console (console= and earlycon= for
# the command line: the console log shows an early crash too), ab_lab (1:
# a lab kernel of scripts/build-kernel, booted as it is).
# shellcheck disable=SC2034 # the ab_* variables are its result
archboot_info() {
	ab_mem=256 ab_lab=0 ab_qemu_min=''
	case $1 in
	x86_64)
		ab_karch=x86 ab_cross='' ab_image=arch/x86/boot/bzImage ab_lab=1
		ab_qemu=qemu-system-x86_64 ab_pkg=qemu-system-x86
		ab_qargs='-M q35 -cpu max' ab_disk=virtio-blk-pci ab_console='console=ttyS0' ;;
	arm64)
		ab_karch=arm64 ab_cross=aarch64-linux-gnu- ab_image=arch/arm64/boot/Image ab_lab=1
		ab_qemu=qemu-system-aarch64 ab_pkg=qemu-system-arm
		ab_qargs='-M virt -cpu max' ab_disk=virtio-blk-pci ab_console='console=ttyAMA0' ;;
	riscv)
		ab_karch=riscv ab_cross=riscv64-linux-gnu- ab_image=arch/riscv/boot/Image
		ab_qemu=qemu-system-riscv64 ab_pkg=qemu-system-misc
		ab_qargs='-M virt -cpu rv64 -bios default' ab_disk=virtio-blk-device
		ab_console='console=ttyS0 earlycon=uart8250,mmio,0x10000000' ;;
	arm)
		ab_karch=arm ab_cross=arm-linux-gnueabihf- ab_image=arch/arm/boot/zImage
		ab_qemu=qemu-system-arm ab_pkg=qemu-system-arm
		ab_qargs='-M virt,highmem=off -cpu cortex-a15' ab_disk=virtio-blk-device
		ab_console='console=ttyAMA0 earlycon=pl011,0x09000000' ;;
	s390)
		ab_karch=s390 ab_cross=s390x-linux-gnu- ab_image=arch/s390/boot/bzImage
		ab_qemu=qemu-system-s390x ab_pkg=qemu-system-misc
		ab_qargs='-M s390-ccw-virtio -cpu qemu' ab_disk=virtio-blk-ccw ab_console='console=ttysclp0' ;;
	powerpc)
		ab_karch=powerpc ab_cross=powerpc64le-linux-gnu- ab_image=vmlinux
		ab_qemu=qemu-system-ppc64 ab_pkg=qemu-system-ppc
		ab_qargs='-M pseries -cpu power9' ab_disk=virtio-blk-pci ab_console='console=hvc0' ;;
	loongarch)
		ab_karch=loongarch ab_cross=LLVM ab_image=vmlinux
		# qemu 7.2's direct -kernel boot printed nothing in 150 s, even
		# with earlycon; 11.1.3 boots the vmlinux, handing it a device
		# tree.  The 8.1 bound is not measured: no qemu between 7.2 and
		# 11.1.3 was tried.  -nic none: 11.1's default NIC wants
		# efi-virtio.rom, which scripts/qemu-trixie does not fetch.
		ab_qemu=qemu-system-loongarch64 ab_pkg=qemu-system-misc ab_qemu_min=8.1
		ab_qargs='-M virt -cpu la464 -nic none' ab_disk=virtio-blk-pci
		ab_console='console=ttyS0,115200 earlycon=uart,mmio,0x1fe001e0' ;;
	*) die "archboot_info: unknown arch '$1' (known: $ARCHBOOT_ARCHES $ARCHBOOT_LAB_ARCHES)" ;;
	esac
}

# archboot_qemu ARCH [nofetch]: the qemu to boot ARCH with (after
# archboot_info ARCH): the host's ab_qemu or, when the arch needs a newer
# one (ab_qemu_min) than the host has, trixie-backports' through
# scripts/qemu-trixie (nofetch: not fetched, the host's is kept).  Sets
# have_qemu (0: none), qemu_bin, qemu_desc (binary and version), qemu_note
# (for a table row) and qemu_err (why a needed newer one could not be had).
# scripts/boot-arches and scripts/arch-selftests boot through it.
# shellcheck disable=SC2034 # the qemu_* variables are its result
archboot_qemu() {
	local hostver='' v
	have_qemu=1 qemu_bin=$ab_qemu qemu_note='' qemu_err=''
	command -v "$ab_qemu" >/dev/null 2>&1 || have_qemu=0
	[ "$have_qemu" = 0 ] || hostver=$("$ab_qemu" --version 2>/dev/null | sed -n 's/^QEMU emulator version \([0-9.]*\).*/\1/p')
	qemu_desc="$ab_qemu ${hostver:-(version unknown)}"
	[ -n "$ab_qemu_min" ] && [ "${2:-}" != nofetch ] || return 0
	if [ -n "$hostver" ] && [ "$(printf '%s\n%s\n' "$ab_qemu_min" "$hostver" | sort -V | sed -n 1p)" = "$ab_qemu_min" ]; then
		return 0
	fi
	if [ -n "$hostver" ]; then
		v="$hostver is older than $ab_qemu_min (the oldest that boots it)"
	else
		v="is not installed"
	fi
	step "$1: $ab_qemu $v: taking trixie-backports' (scripts/qemu-trixie)"
	if ! qemu_bin=$("$RS_TOP/scripts/qemu-trixie" "$ab_qemu"); then
		qemu_err="bookworm's $ab_qemu ${hostver:-missing}, older than $ab_qemu_min, and scripts/qemu-trixie failed"
		return 0
	fi
	v=$("$qemu_bin" --version | sed -n 's/^QEMU emulator version //p')
	have_qemu=1
	qemu_desc="trixie-backports' qemu $v (${qemu_bin#"$RS_BUILD"/}, not bookworm's ${hostver:-none})"
	qemu_note=", qemu ${v%% *} of trixie-backports"
	step "$1: booting under $qemu_desc"
}

# selftests_toolchain ARCH: how scripts/build-selftests builds the mm
# selftests statically for ARCH (x86_64, arm64 or an ARCHBOOT_ARCHES name),
# in st_* variables: st_cc (the compiler command, an array), st_march (the
# ARCH the mm Makefile wants: riscv64, s390x, powerpc, ...), st_karch (the
# kernel's ARCH, for headers_install), st_libc (the static libc.a it links),
# st_pkgs (the Debian packages that give the compiler and libc.a),
# st_debarch (Debian's name of the arch: scripts/userland's --arch for the
# static libnuma, libcap and liburing), st_ld (a linker of trixie's that
# scripts/build-selftests fetches first, when there is one: loongarch),
# st_missing (what is missing, when the arch cannot be built here: the row
# says it).
# shellcheck disable=SC2034 # the st_* variables are its result
selftests_toolchain() {
	local triple='' libcarch=''
	st_cc=() st_missing='' st_debarch='' st_ld=''
	case $1 in
	x86_64) st_march=x86_64 st_karch=x86 st_debarch=amd64 ;;
	arm64) triple=aarch64-linux-gnu libcarch=arm64 st_march=arm64 st_karch=arm64 st_debarch=arm64 ;;
	arm) triple=arm-linux-gnueabihf libcarch=armhf st_march=arm st_karch=arm st_debarch=armhf ;;
	riscv) triple=riscv64-linux-gnu libcarch=riscv64 st_march=riscv64 st_karch=riscv ;;
	s390) triple=s390x-linux-gnu libcarch=s390x st_march=s390x st_karch=s390 st_debarch=s390x ;;
	powerpc) triple=powerpc64le-linux-gnu libcarch=ppc64el st_march=powerpc st_karch=powerpc st_debarch=ppc64el ;;
	loongarch)
		# bookworm has no libc6-dev-loong64-cross (nor a loongarch gcc):
		# trixie's (glibc 2.41) and its libgcc-14-dev-loong64-cross,
		# extracted under build/selftests/sysroot-loong64 by
		# scripts/build-selftests, with clang-19.
		# The linker is GNU ld (st_ld: trixie's
		# binutils-loongarch64-linux-gnu 2.44, unpacked under
		# build/selftests/binutils-loong64 by scripts/build-selftests
		# and run through trixie's ld.so), not Debian's lld 19.1.7: lld
		# deletes the 4-byte R_LARCH_ALIGN nop that begins each of
		# libc.a's IFUNC resolvers but writes the R_LARCH_IRELATIVE
		# addend for the resolver's old address, 4 bytes into it, so
		# static startup (apply_irel) enters memset_ifunc past its
		# pcalau12i and dies of SIGBUS (llvm/llvm-project PR #179063,
		# "[ELF] Fix IRELATIVE addend if the resolver address is
		# updated by linker relaxation"; -Wl,--no-relax does not help).
		# No -mno-lsx: libc.a itself uses LSX outside its HWCAP-picked
		# string routines (__libc_setup_tls starts with a vld), so the
		# kernel needs CPU_HAS_LSX (configs/arches/loongarch.config)
		# whatever the tests are compiled with.
		local sr=$RS_BUILD/selftests/sysroot-loong64
		st_march=loongarch64 st_karch=loongarch st_pkgs=(clang-19)
		st_libc=$sr/usr/loongarch64-linux-gnu/lib/libc.a
		st_ld=$RS_BUILD/selftests/binutils-loong64/bin/loongarch64-linux-gnu-ld
		st_cc=("$(llvm_prefix)clang" --target=loongarch64-linux-gnu --sysroot="$sr" --gcc-toolchain="$sr/usr"
			--ld-path="$st_ld")
		[ -n "$(llvm_prefix)" ] || st_missing="clang-19 (Debian has no loongarch gcc; scripts/setup installs clang-19 lld-19)"
		return ;;
	*) die "selftests_toolchain: unknown arch '$1'" ;;
	esac
	if [ -z "$triple" ]; then
		st_cc=(gcc) st_pkgs=(build-essential) st_libc=/usr/lib/x86_64-linux-gnu/libc.a
	else
		st_cc=("$triple-gcc") st_pkgs=("gcc-$triple" "libc6-dev-$libcarch-cross") st_libc=/usr/$triple/lib/libc.a
	fi
}

# irelative_stray FILE: the R_*_IRELATIVE addends of FILE (a static
# executable with its .symtab; RELA relocations, as on loongarch64) that
# are not the address of a FUNC or IFUNC symbol, one hex address a line;
# nothing when each points at the start of a function, as an IFUNC
# resolver's address must.  lld 19.1.7 left every one 4 bytes past its
# resolver on loongarch64 (see selftests_toolchain); scripts/build-selftests
# refuses such a test.  Reads readelf -rW and -sW (any binutils: the
# output is generic); fails when readelf does (under pipefail, which the
# scripts set).
irelative_stray() {
	{ readelf -rW "$1" && echo '@rs-symtab' && readelf -sW "$1"; } | awk '
		$0 == "@rs-symtab" { sym = 1; next }
		!sym && $3 ~ /_IRELATIVE$/ { a[$NF] = 1 }
		sym && ($4 == "FUNC" || $4 == "IFUNC") { v = $2; sub(/^0+/, "", v); s[v] = 1 }
		END {
			if (!sym) exit 2
			for (x in a) { y = x; sub(/^0+/, "", y); if (!(y in s)) print x }
		}' | LC_ALL=C sort
}

# apt_install_missing PKG...: install those of the Debian packages that are
# not installed (as root; not root: say so and return 1), and say which, or
# that all were there.  Returns 1 when the install failed.  scripts/setup's
# package list and the tools each step needs go through it.
apt_install_missing() {
	local p missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
	done
	if [ "${#missing[@]}" = 0 ]; then
		step "all $# packages already installed"
		return 0
	fi
	if [ "$(id -u)" -ne 0 ]; then
		printf '%s: missing Debian packages %s (not root: scripts/setup installs them)\n' "${0##*/}" "${missing[*]}" >&2
		return 1
	fi
	step "installing ${#missing[@]} packages: ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || {
		printf '%s: apt-get install failed for: %s\n' "${0##*/}" "${missing[*]}" >&2
		return 1
	}
}

# trixie_apt DIR SUITE...: an APT state of its own under DIR (sources
# list with SUITE..., lists, cache, preferences and an empty dpkg status)
# for packages the host's bookworm has not (scripts/qemu-trixie,
# build-selftests' loong64 sysroot), updated now (log: DIR/update.log); the
# host's sources, lists, cache and dpkg status are neither read nor
# written.  Sets trixie_apt_opts, the options apt-get and apt-cache take
# to use it.
trixie_apt() {
	local dir=$1 suite key=/usr/share/keyrings/debian-archive-keyring.gpg
	shift
	[ -f "$key" ] || die "no $key (Debian's debian-archive-keyring)"
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/sources.list.d" "$dir/preferences.d"
	for suite in "$@"; do
		echo "deb [signed-by=$key] http://deb.debian.org/debian $suite main"
	done >"$dir/sources.list"
	: >"$dir/status"
	trixie_apt_opts=(-o Dir::Etc::SourceList="$dir/sources.list" -o Dir::Etc::SourceParts="$dir/sources.list.d"
		-o Dir::Etc::Preferences="$dir/preferences" -o Dir::Etc::PreferencesParts="$dir/preferences.d"
		-o Dir::State::Lists="$dir/lists" -o Dir::State::status="$dir/status"
		-o Dir::Cache="$dir/cache" -o APT::Architecture=amd64 -o APT::Architectures=amd64
		-o Acquire::Languages=none -o APT::Sandbox::User=root -o Debug::NoLocking=1)
	step "apt-get update for $* (APT state in ${dir#"$RS_BUILD"/})"
	apt-get "${trixie_apt_opts[@]}" update >"$dir/update.log" 2>&1 ||
		die "apt-get update of $* failed ($dir/update.log)"
}

# trixie_wrapper ROOT BINARY WRAPPER [COMMENT]: write WRAPPER, a sh script
# that runs ROOT/BINARY (a trixie x86_64 program unpacked under ROOT with
# dpkg-deb -x, and trixie's libc6 with it: bookworm's glibc 2.36 is too
# old for it) through ROOT's own ld.so, with ROOT's x86_64 library
# directory first and bookworm's after it (--library-path; ld.so's cache
# and default directories still apply).  --argv0 keeps the program's name
# in its messages.  COMMENT, when given, goes into the script's header.
trixie_wrapper() {
	local root=$1 bin=$2 wrapper=$3 comment=${4:-}
	mkdir -p "$(dirname "$wrapper")"
	{
		echo '#!/bin/sh'
		[ -z "$comment" ] || printf '# %s\n' "$comment"
		# shellcheck disable=SC2016 # $0 and $@ are the wrapper's
		printf 'exec "%s" --argv0 "$0" --library-path "%s" "%s" "$@"\n' \
			"$root/usr/lib64/ld-linux-x86-64.so.2" "$root/usr/lib/x86_64-linux-gnu" "$root/${bin#/}"
	} >"$wrapper"
	chmod +x "$wrapper"
}

# archboot_block FILE: the result block the guest printed on its console
# (the lines between "rs-archboot: begin" and "rs-archboot: end", without
# the prefix and without the console's carriage returns); nothing if the
# block is missing or was cut before its end line.
archboot_block() {
	tr -d '\r' <"$1" | awk '
		/^rs-archboot: begin$/ { on = 1; n = 0; next }
		/^rs-archboot: end$/ { if (on) { for (i = 1; i <= n; i++) print l[i] } on = 0; exit }
		on && /^rs-archboot: / { l[++n] = substr($0, 14) }'
}

# archboot_get BLOCK PHASE KEY: KEY's value on PHASE's line of a result
# block ("-" when absent).
archboot_get() {
	awk -v p="$2" -v k="$3" '
		$1 == "phase=" p { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) { print kv[2]; f = 1 } } }
		END { if (!f) print "-" }' <<<"$1"
}

# archboot_verdict VARIANT BLOCK: the oracle on a result block, one line
# per phase: "PHASE ok|FAIL retries=R kept=K fallbacks=F maxretry=M: why".
# fallbacks = pgfault - vma_lock_success: the faults of the phase that did
# not complete under the VMA lock (every completed fault counts pgfault
# once, every fault completed under the VMA lock counts vma_lock_success
# once); kept = retries that went on under the VMA lock (on stock none can:
# a VMA-lock retry always falls back).  Expected:
#   every phase: the data read back is right (bad=0), some retry (> 0),
#     and no single fault retried under the VMA lock more than twice
#     (maxretry <= 2: stock's one VMA-lock retry plus one under mmap_lock
#     before FAULT_FLAG_TRIED stops further lock drops);
#   stock: every retry fell back (fallbacks >= retries);
#   rfc/patched: readahead and swap retries all kept (fallbacks = 0);
#     random (MADV_RANDOM: filemap_fault()'s page_not_uptodate path, which
#     the RFC does not mark VM_FAULT_RETRY_VMA) falls back as on stock;
#   retry-hard: every phase kept (fallbacks = 0): none of them returns
#     VM_FAULT_RETRY_HARD.
# Exit status 1 if any phase is FAIL or missing.
archboot_verdict() {
	local variant=$1 block=$2 ph fail=0 bad r s f kept m want why
	for ph in readahead random swap; do
		bad=$(archboot_get "$block" "$ph" bad)
		r=$(archboot_get "$block" "$ph" vma_lock_retry)
		s=$(archboot_get "$block" "$ph" vma_lock_success)
		f=$(archboot_get "$block" "$ph" pgfault)
		m=$(archboot_get "$block" "$ph" maxretry)
		if [ "$bad" = - ] || [ "$r" = - ] || [ "$s" = - ] || [ "$f" = - ] || [ "$m" = - ]; then
			echo "$ph FAIL: no result (the guest printed no complete $ph line)"
			fail=1
			continue
		fi
		f=$((f - s))
		case $(lab_variant "$variant") in
		stock) want=fallback ;;
		patched) [ "$ph" = random ] && want=fallback || want=kept ;;
		retry-hard) want=kept ;;
		*) want=any ;;
		esac
		kept=$((r - (f < r ? f : r)))
		why=''
		[ "$bad" = 0 ] || why+=" $bad pages read back wrong;"
		[ "$r" -gt 0 ] || why+=" no fault retried;"
		[ "$m" -le 2 ] || why+=" a fault retried $m times under the VMA lock;"
		case $want in
		fallback) [ "$f" -ge "$r" ] || why+=" expected every retry to fall back, $f fallbacks for $r retries;" ;;
		kept) [ "$f" = 0 ] || why+=" expected the retries kept on the VMA lock, $f faults fell back;" ;;
		esac
		if [ -z "$why" ]; then
			echo "$ph ok retries=$r kept=$kept fallbacks=$f maxretry=$m: as expected for $variant ($want)"
		else
			echo "$ph FAIL retries=$r kept=$kept fallbacks=$f maxretry=$m:${why%;}"
			fail=1
		fi
	done
	return "$fail"
}

# archboot_module_verdict VARIANT BLOCK: the module's counts in a
# --module boot's result block (scripts/boot-arches), one line per backend
# and phase: "PHASE@BACKEND ok|FAIL ...: why", and "BACKEND refused: ..."
# for a backend the module would not load with (a FAIL for auto and
# kprobe, which every arch here has; fprobe's refusal is the arch's lack,
# with the kernel's reason).  Over each phase the module must count what
# the kernel and the process did: vma_lock_success, _abort and _retry
# equal to /proc/vmstat's deltas, user_faults - faults_abandoned to
# getrusage()'s minflt + majflt, major_faults to majflt, its mmap_lock
# read and write acquisitions (acquire + trylock) to the init's
# mmap_lock_acquire_returned events tracefs itself counted (tp_read,
# tp_write, pid 1: the module counts a task's requests on its own mm; none
# lost; other tasks', tp_other, are shown), no probe missed, no per-task
# slot short and every page read back right; no report in the kernel log
# (a WARNING, BUG, Oops, or a work queued on a deprecated workqueue:
# "kernel log FAIL").  And where the retries went, as archboot_verdict
# expects for VARIANT: on stock none kept on the VMA lock
# (retry_kept_vma_lock 0) and some fell back after I/O
# (fallback_after_file_io + fallback_after_swap_io > 0), each taking
# mmap_lock for read (mmap_lock_read_acquire, from the mmap_lock
# tracepoint, at least as many); where the variant keeps them, some kept
# and none fell back after I/O.
archboot_module_verdict() {
	local variant=$1 block=$2 b ph P fail=0 why want c k m kept fb mn mj w
	local -A cnt
	# a report in the kernel log the init read (klog lines), the module's
	# load and unload included
	w=$(awk '$1 == "klog" && /WARNING:|BUG:|Oops|\[retryscope\] enqueued on deprecated workqueue/ { sub(/^klog /, ""); print; exit }' <<<"$block")
	if [ -n "$w" ]; then
		echo "kernel log FAIL: $w"
		fail=1
	fi
	while read -r b; do
		[ -n "$b" ] || continue
		case $b in
		fprobe) echo "fprobe refused: $(awk '$1 == "klog" && /backend=fprobe/ { sub(/^klog +(\[[^]]*\] )?/, ""); print; exit }' <<<"$block")" ;;
		*) echo "$b refused: $(awk -v b="$b" '$1 == "module" && $2 == "backend=" b { print $4 }' <<<"$block") (every arch here has it)"; fail=1 ;;
		esac
	done < <(awk '$1 == "module" && $3 == "refused" { sub(/^backend=/, "", $2); print $2 }' <<<"$block")
	while read -r b; do
		[ -n "$b" ] || continue
		for ph in readahead random swap; do
			P=$ph@$b why=''
			cnt=()
			while IFS='=' read -r k m; do cnt[$k]=$m; done < <(awk -v p="phase=$P" '$1 == p { for (i = 2; i <= NF; i++) print $i }' <<<"$block")
			for k in bad vma_lock_success vma_lock_abort vma_lock_retry minflt majflt m.vma_lock_success m.vma_lock_abort \
				m.vma_lock_retry m.user_faults m.faults_abandoned m.major_faults m.probe_nmissed m.state_table_full \
				m.retry_kept_vma_lock m.fallback_after_file_io m.fallback_after_swap_io m.mmap_lock_read_acquire \
				m.mmap_lock_read_trylock m.mmap_lock_write_acquire m.mmap_lock_write_trylock tp_read tp_write tp_overrun; do
				[[ ${cnt[$k]:--} =~ ^[0-9]+$ ]] || why+=" no $k;"
			done
			if [ -n "$why" ]; then
				echo "$P FAIL:${why%;}"
				fail=1
				continue
			fi
			for c in vma_lock_success vma_lock_abort vma_lock_retry; do
				[ "${cnt[m.$c]}" = "${cnt[$c]}" ] || why+=" module $c ${cnt[m.$c]} != /proc/vmstat's ${cnt[$c]};"
			done
			mn=${cnt[minflt]} mj=${cnt[majflt]}
			[ "$((${cnt[m.user_faults]} - ${cnt[m.faults_abandoned]}))" = "$((mn + mj))" ] ||
				why+=" module user_faults - faults_abandoned ${cnt[m.user_faults]} - ${cnt[m.faults_abandoned]} != getrusage minflt + majflt $mn + $mj;"
			[ "${cnt[m.major_faults]}" = "$mj" ] || why+=" module major_faults ${cnt[m.major_faults]} != getrusage majflt $mj;"
			[ "${cnt[bad]}" = 0 ] || why+=" ${cnt[bad]} pages read back wrong;"
			[ "${cnt[m.probe_nmissed]}" = 0 ] || why+=" probe_nmissed ${cnt[m.probe_nmissed]};"
			[ "${cnt[tp_overrun]}" = 0 ] || why+=" tracefs lost ${cnt[tp_overrun]} events (overrun);"
			[ "$((${cnt[m.mmap_lock_read_acquire]} + ${cnt[m.mmap_lock_read_trylock]}))" = "${cnt[tp_read]}" ] ||
				why+=" module mmap_lock read acquire + trylock ${cnt[m.mmap_lock_read_acquire]} + ${cnt[m.mmap_lock_read_trylock]} != tracefs's ${cnt[tp_read]};"
			[ "$((${cnt[m.mmap_lock_write_acquire]} + ${cnt[m.mmap_lock_write_trylock]}))" = "${cnt[tp_write]}" ] ||
				why+=" module mmap_lock write acquire + trylock ${cnt[m.mmap_lock_write_acquire]} + ${cnt[m.mmap_lock_write_trylock]} != tracefs's ${cnt[tp_write]};"
			[ "${cnt[m.state_table_full]}" = 0 ] || why+=" state_table_full ${cnt[m.state_table_full]};"
			case $(lab_variant "$variant") in
			stock) want=fallback ;;
			patched) [ "$ph" = random ] && want=fallback || want=kept ;;
			retry-hard) want=kept ;;
			*) want=any ;;
			esac
			kept=${cnt[m.retry_kept_vma_lock]} fb=$((${cnt[m.fallback_after_file_io]} + ${cnt[m.fallback_after_swap_io]}))
			case $want in
			fallback)
				[ "$kept" = 0 ] && [ "$fb" -gt 0 ] || why+=" expected no retry kept and some fallbacks after I/O, $kept kept, $fb fell back;"
				[ "${cnt[m.mmap_lock_read_acquire]}" -ge "$fb" ] ||
					why+=" fewer mmap_lock read acquisitions (${cnt[m.mmap_lock_read_acquire]}, its tracepoint) than fallbacks ($fb);" ;;
			kept) [ "$kept" -gt 0 ] && [ "$fb" = 0 ] || why+=" expected retries kept and no fallback after I/O, $kept kept, $fb fell back;" ;;
			esac
			k="vma_lock_retry=${cnt[m.vma_lock_retry]} faults=$((mn + mj)) major=$mj mmap_lock_read=${cnt[m.mmap_lock_read_acquire]} kept=$kept fallbacks_after_io=$fb"
			# other tasks' acquisitions (a kernel thread's on init_mm, say): shown, not the module's
			[ -z "${cnt[tp_other]:-}" ] || [ "${cnt[tp_other]}" = 0 ] || k+=" other_tasks_mmap_lock=${cnt[tp_other]}"
			if [ -z "$why" ]; then
				echo "$P ok $k: module = /proc/vmstat and getrusage, as expected for $variant ($want)"
			else
				echo "$P FAIL $k:${why%;}"
				fail=1
			fi
		done
	done < <(awk '$1 == "module" && $3 == "loaded" { sub(/^backend=/, "", $2); print $2 }' <<<"$block")
	return "$fail"
}

# ------------------------------------------------- other-arch selftests
# scripts/arch-selftests (issue 32): the mm selftests under the nolibc
# runner tools/archboot/rs-kselftest.c, whose console lines these read.

# kselftest_collect TIMEOUT LOGDIR TSV: the consoles of one kernel's boots,
# in order, on stdin (carriage returns and all): TSV (scripts/selftests' columns: name result rc
# seconds tap_pass tap_fail tap_skip note) and LOGDIR/<test>.log and
# .dmesg.  result: pass (rc 0), skip (rc 4), timeout (the runner killed it
# at TIMEOUT), fail (else; a signal's note says which), oops (Oops/BUG:/
# WARNING:/KASAN in the kernel log it caused, whatever its rc), notrun,
# crash (the guest died in it: no result line before the next boot or the
# end; its note is the console's last other line).  Prints the index of
# the test after the last one started when the last boot did not reach
# "rs-kselftest: done" (where the next boot starts), else nothing.
kselftest_collect() {
	tr -d '\r' | awk -v dir="$2" -v tsv="$3" -v tmo="$1" '
	function flush_crash(   why) {
		if (cur == "") return
		why = "guest died in it: " (lastline == "" ? "no console line" : lastline)
		printf "%s\tcrash\t-\t-\t0\t0\t0\t%s\n", cur, substr(why, 1, 150) >> tsv
		cur = ""
	}
	BEGIN { printf "name\tresult\trc\tseconds\ttap_pass\ttap_fail\ttap_skip\tnote\n" > tsv; next_from = 0 }
	/^rs-kselftest: start / { flush_crash(); done = 0; next }
	/^rs-kselftest: done/ { done = 1; next }
	/^rs-kselftest: run / { flush_crash(); idx = $3; cur = $4; next_from = idx + 1; inlog = 0; next }
	/^rs-kselftest: notrun / { n = $3; sub(/:$/, "", n); w = $0; sub(/^[^:]*: [^:]*: /, "", w)
		printf "%s\tnotrun\t-\t0\t0\t0\t0\tnot run: %s\n", n, w >> tsv; cur = ""; next }
	/^rs-kselftest: log-begin / { inlog = 1; tp = tf = ts = 0; note1 = ""; skip1 = ""; tail1 = ""; bail = ""
		lf = dir "/" $3 ".log"; df = dir "/" $3 ".dmesg"; printf "" > lf; printf "" > df; oops = ""; next }
	/^rs-kselftest: log-end / { inlog = 0; close(lf); next }
	/^rs-kselftest: dmesg / { if (cur == "") next; m = substr($0, 21); print m >> df
		if (oops == "" && m ~ /Oops|BUG:|WARNING:|KASAN|general protection fault/) oops = m; next }
	/^rs-kselftest: result / {
		split($4, a, "="); rc = a[2]; split($5, b, "="); secs = b[2]; split($6, c, "="); to = c[2]
		res = rc == 0 ? "pass" : rc == 4 ? "skip" : "fail"; note = ""
		if (to == 1) { res = "timeout"; note = "killed after " tmo "s" }
		else if (res == "fail" && rc > 128) note = "killed by signal " (rc - 128)
		if (oops != "") { res = "oops"; note = (note == "" ? "" : note "; ") oops }
		if (note == "" && res == "fail") note = note1 != "" ? note1 (tf > 1 ? " (+" tf - 1 " more)" : "") : bail != "" ? bail : tail1
		if (note == "" && res == "pass" && tf > 0) note = "exit 0, but " tf " TAP case(s) not ok: " note1
		if (note == "" && res == "skip") note = skip1 != "" ? skip1 : tail1
		gsub(/\t/, " ", note)
		printf "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\n", $3, res, rc, secs, tp, tf, ts, substr(note, 1, 150) >> tsv
		close(df); cur = ""; next }
	/^rs-kselftest: / { next }
	inlog { print >> lf
		if ($0 ~ /^ok [0-9]+/) { if ($0 ~ /# SKIP/) { ts++; if (skip1 == "") skip1 = $0 } else tp++ }
		if ($0 ~ /^not ok [0-9]+/) { if ($0 ~ /# SKIP/) { ts++; if (skip1 == "") skip1 = $0 } else { tf++; if (note1 == "") note1 = $0 } }
		if (bail == "" && $0 ~ /^Bail out!/) bail = $0
		if (skip1 == "" && $0 ~ /# SKIP/) skip1 = $0
		if ($0 != "") tail1 = $0
		next }
	{ if ($0 != "") lastline = $0 }
	END { flush_crash(); if (!done) print next_from }
'
}

# kselftest_counts TSV: "N pass / N fail / N skip", then "/ N timeout",
# oops, crash and notrun where there are any.
kselftest_counts() {
	awk -F'\t' 'NR > 1 { n[$2]++ } END {
		s = sprintf("%d pass / %d fail / %d skip", n["pass"], n["fail"], n["skip"])
		split("timeout oops crash notrun", k, " ")
		for (i = 1; i <= 4; i++) if (n[k[i]]) s = s sprintf(" / %d %s", n[k[i]], k[i])
		print s }' "$1"
}

# kselftest_compare TSV_A TSV_B NAME_A NAME_B: per test (A's order, then
# B's tests A lacks) "name A B same|DIFFERS", a header first, where A and B
# are the result and its TAP counts ("fail 13/3/17": ok, not ok, skipped
# cases): a test failing on both with other cases failing differs too; "-"
# for a test one of them lacks.
kselftest_compare() {
	awk -F'\t' -v va="$3" -v vb="$4" 'FNR == 1 { f++; next }
		f == 1 { ra[$1] = $2 " " $5 "/" $6 "/" $7; order[++n] = $1 }
		f == 2 { rb[$1] = $2 " " $5 "/" $6 "/" $7; if (!($1 in ra)) order[++n] = $1 }
		END { printf "name\t%s\t%s\tsame\n", va, vb
			for (i = 1; i <= n; i++) { t = order[i]; x = t in ra ? ra[t] : "-"; y = t in rb ? rb[t] : "-"
				printf "%s\t%s\t%s\t%s\n", t, x, y, x == y ? "same" : "DIFFERS" } }' "$1" "$2"
}
