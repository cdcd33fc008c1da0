#!/bin/bash
# configs/seed-004-oltp-place-lag.yaml at its smallest size on Debian's 6.1
# and 6.12 in qemu guests (TCG), 6.12 also with NO_PLACE_LAG and
# NO_RUN_TO_PARITY set in the guest: MariaDB and sysbench packed into each
# guest, the data directory on its scratch disk, the server at SCHED_OTHER
# and SCHED_BATCH. The OLTP tables hold every kernel in both cells, and the
# guest's feature changes are journalled. About 8 min here (load average 15).
source "$(dirname "$0")/../integration/lib.sh"
source "$(dirname "$0")/../integration/debkernel.bash"
source "$(dirname "$0")/seeds.bash"

seed_run seed-004-oltp-place-lag
for m in transactions_per_s queries_per_s latency_p95; do
	assert_table oltp "$m" v6.1 v6.12 v6.12-no-place-lag
done
assert_contains "$OUT" "cell oltp.policy=other" "the SCHED_OTHER cell"
assert_contains "$OUT" "cell oltp.policy=batch" "the SCHED_BATCH cell"
assert_eq "$(q "$DB" "SELECT count(*) FROM iteration WHERE status = 'complete'")" 6 \
	"complete iterations (3 kernels x 2 cells)"
assert_eq "$(q "$DB" "SELECT group_concat(applied_value, ' ') FROM knob WHERE variant = 'v6.12-no-place-lag' ORDER BY seq")" \
	"NO_PLACE_LAG NO_RUN_TO_PARITY" "the guest's sched_features, as it read them back"
echo ok
