#!/bin/bash
# Axis labels from the config name the columns of every table (LABEL:VALUE)
# and the grid's axes; unlabelled axes read in their shortest unambiguous
# form; the stored cell names keep the whole axis.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
cat >lab.yaml <<'YAML'
name: labels
iterations: 2
loads:
  - name: hb
    tool: fake
    role: background
    sched: {nice: {values: [0, 5], label: HB-N}}
  - name: ct
    tool: fake
    params: {mean: [10, 20], spread_pct: 5}
YAML
"$SCHEDRIG" run lab.yaml --db r.db --quiet >/dev/null 2>&1 || fail "run"
assert_eq "$(q r.db "SELECT group_concat(name, ' ') FROM cell")" \
	"hb.nice=0,ct.mean=10 hb.nice=0,ct.mean=20 hb.nice=5,ct.mean=10 hb.nice=5,ct.mean=20" "stored cells"
"$SCHEDRIG" compare --db r.db --load ct >cmp.txt
assert_eq "$(sed -n 2p cmp.txt | tr -s ' ')" " HB-N:0 HB-N:0 HB-N:5 HB-N:5" "header row 1"
assert_eq "$(sed -n 3p cmp.txt | tr -s ' ')" " mean=10 mean=20 mean=10 mean=20" "header row 2"
grep -q '^n: HB-N:0,mean=10 2, HB-N:0,mean=20 2, HB-N:5,mean=10 2, HB-N:5,mean=20 2$' cmp.txt ||
	fail "n line: $(grep '^n:' cmp.txt)"
# the grid by label and by short name; several statistics in a box
"$SCHEDRIG" compare --db r.db --load ct --grid HB-N,mean --stat min,mean,max >grid.txt || fail "grid"
grep -q '^|HB-N *| *mean=10 *| *mean=20 *|$' grid.txt || fail "grid groups: $(cat grid.txt)"
grep -q '^| *| *Min | *Amean | *Max | *Min | *Amean | *Max |$' grid.txt || fail "grid sub-columns"
grep -q '^n: 2 per cell$' grid.txt || fail "grid n"
set +e
err=$("$SCHEDRIG" compare --db r.db --load ct --grid HB-N,nosuch 2>&1)
assert_eq "$?" 2 "grid of a missing axis"
set -e
assert_contains "$err" "nosuch is no axis of the cells of ct value (axes: hb.nice, ct.mean)" "message"
# a label given twice is a config error
sed 's/params: {mean: \[10, 20\], spread_pct: 5}/params: {mean: {values: [10, 20], label: HB-N}}/' lab.yaml >dup.yaml
set +e
err=$("$SCHEDRIG" check-config dup.yaml 2>&1)
assert_eq "$?" 2 "duplicate label"
set -e
assert_contains "$err" "dup.yaml:10:14: label 'HB-N' is given to two axes (line 7 too)" "duplicate label message"
