#!/bin/bash
# configs/seed-000-kernbench-tcp-rr.yaml at its smallest size on Debian's
# 6.1 and 6.12 in qemu guests (TCG): kernbench with a small target builds
# in each guest (the tree prepared here, on the guest's scratch disk, the
# toolchain this machine's /usr over 9p) while tcp-rr runs in the
# background until the build ends; both loads' tables come from the same
# iterations, each with both kernels. About 7 min here (plus about 4 min to
# prepare the kernel tree the first time).
source "$(dirname "$0")/../integration/lib.sh"
source "$(dirname "$0")/../integration/debkernel.bash"
source "$(dirname "$0")/seeds.bash"
ls /usr/src/linux-source-*.tar.xz >/dev/null 2>&1 ||
	fail "no kernel source (apt-get install linux-source-6.12; scripts/install-deps)"

seed_run seed-000-kernbench-tcp-rr
for m in elapsed user system; do
	assert_table kernbench "$m" v6.1 v6.12
done
assert_table tcp-rr transactions v6.1 v6.12
# One complete iteration per kernel, the pair stopped with the build and parsed.
assert_eq "$(q "$DB" "SELECT group_concat(status) FROM iteration")" "complete,complete" "iterations"
assert_eq "$(q "$DB" "SELECT count(*) FROM load_instance WHERE name = 'tcp-rr' AND state = 'ok'")" 2 \
	"tcp-rr instances parsed after their stop"
echo ok
