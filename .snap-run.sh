#!/usr/bin/env bash
# run scripts/boot-arches from a snapshot of the work tree so edits don't disturb a running job
set -euo pipefail
snap=/work/main/build/arches-boot/snap-$$
mkdir -p "$snap"
cp -r /work/arches-tree/scripts /work/arches-tree/configs /work/arches-tree/tools /work/arches-tree/patches "$snap/"
RS_BUILD=/work/main/build exec "$snap/scripts/boot-arches" "$@"
