#!/bin/bash
# configs/seed-002-latency-nice-grid.yaml at its smallest size (--iterations
# 2) in qemu guests (TCG): the rig builds Debian's linux-source-6.12
# (tinyconfig + guest) and the same tree with the latency-nice series (from
# the base's objects), vanilla runs the cell (0, 0) only, the patched kernel
# the 3 x 3 grid. Checked: the grid's shape (rows 0, 19, -20 of hackbench,
# three cyclictest columns on the patched kernel, one cell on vanilla), and
# the read-back: every load instance on the patched kernel read back the
# latency_nice it asked for (sched_getattr, stored as sched_applied), none
# on vanilla has the attribute, and no instance failed as "scheduling
# attributes not applied". The kernels are cached in results/seeds/cache
# (a cold build is ~17 min here, load average 25-40); the run ~3 min.
source "$(dirname "$0")/../integration/lib.sh"

TOP=$(cd "$TESTS_DIR/.." && pwd)
RESULTS=${SCHEDRIG_SEED_RESULTS:-$TOP/results/seeds}
DB=$RESULTS/seed-002.db
mkdir -p "$RESULTS"
rm -f "$DB"
cd "$TOP"
start=$(date +%s)
rc=0
timeout 3000 "$SCHEDRIG" run configs/seed-002-latency-nice-grid.yaml --iterations 2 --db "$DB" \
	>"$WORK/run.out" 2>"$WORK/run.err" || rc=$?
echo "seed-002 at --iterations 2: $(($(date +%s) - start)) s (load average $(cut -d' ' -f1 /proc/loadavg))"
assert_eq "$rc" 0 "exit status ($(tail -5 "$WORK/run.err"))"

grid=$("$SCHEDRIG" compare --db "$DB" latest --grid hackbench.latency_nice,cyclictest.latency_nice \
	--metric max_latency --load cyclictest 2>&1)
patched=$(printf '%s\n' "$grid" | sed -n '/variant v6.12-latnice/,/^Significance/p')
rows=$(printf '%s\n' "$patched" | sed -n 's/^ *\(-\{0,1\}[0-9]*\): .*/\1/p' | tr '\n' ' ')
assert_eq "$rows" "0 19 -20 " "the patched grid's rows, in the config's order"
for col in CT-LN:19 CT-LN:0 CT-LN:-20; do
	assert_contains "$(printf '%s\n' "$patched" | sed -n 2p)" "$col" "column $col"
done
assert_contains "$patched" "against HB-LN:0,CT-LN:0" "the baseline cell (0, 0)"
vanilla=$(printf '%s\n' "$grid" | sed -n '/variant v6.12,/,/^Significance/p')
assert_eq "$(printf '%s\n' "$vanilla" | grep -c '^ *-\{0,1\}[0-9]*: ')" 1 "vanilla's one cell"

n_cells=$(q "$DB" "SELECT count(DISTINCT c.name) FROM iteration i JOIN variant v ON v.id = i.variant_id
	JOIN cell c ON c.id = i.cell_id WHERE v.name = 'v6.12-latnice' AND i.status = 'complete'")
assert_eq "$n_cells" 9 "complete cells of the patched kernel"
n=0
while IFS='|' read -r requested applied; do
	want=$(printf '%s\n' "$requested" | grep -o 'latency_nice=-\{0,1\}[0-9]*')
	case " $applied " in *" $want "*) n=$((n + 1)) ;;
	*) fail "asked for '$requested', read back '$applied'" ;; esac
done < <(q "$DB" "SELECT li.sched_requested, li.sched_applied FROM load_instance li
	JOIN iteration i ON i.id = li.iteration_id JOIN variant v ON v.id = i.variant_id
	WHERE v.name = 'v6.12-latnice'")
[ "$n" -ge 36 ] || fail "only $n load instances on the patched kernel (9 cells x 2 x 2 at least)"
assert_eq "$(q "$DB" "SELECT count(*) FROM load_instance li JOIN iteration i ON i.id = li.iteration_id
	JOIN variant v ON v.id = i.variant_id WHERE v.name = 'v6.12' AND
	li.sched_applied LIKE '%latency_nice%'")" 0 "vanilla read back no latency_nice"
assert_eq "$(q "$DB" "SELECT count(*) FROM load_instance WHERE reason LIKE
	'scheduling attributes not applied%'")" 0 "read-back failures"
echo ok
