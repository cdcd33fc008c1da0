#!/bin/bash
# schedrig plot draws monitor series over time (reports/plot_monitor.c): a
# short real run with monitors at 200 ms while hackbench runs gives, for its
# variant, CPU user/system/idle % per CPU, context switches/s and per-load
# involuntary switches as valid SVG and PNG whose titles name the variant
# literally; a run without monitors draws no monitor figure and prints no
# note about it.
source "$(dirname "$0")/lib.sh"
DB=$WORK/pm.db
command -v gnuplot >/dev/null || fail "gnuplot is not installed (scripts/install-deps)"
cat > "$WORK/mon.yaml" <<'YAML'
name: plotmon
iterations: 2
monitors: {interval_ms: 200}
loads:
  - name: hb
    tool: hackbench
    params: {groups: 2, loops: 1500, ipc: pipe}
YAML
"$SCHEDRIG" run "$WORK/mon.yaml" --db "$DB" > "$WORK/run.txt" 2>&1 ||
	fail "run failed: $(cat "$WORK/run.txt")"
variant=$(q "$DB" "SELECT name FROM variant WHERE run_id = 1")
[ -n "$variant" ] || fail "no variant"
"$SCHEDRIG" plot --db "$DB" plotmon --output-dir "$WORK/out" > "$WORK/files.txt" 2> "$WORK/err.txt" ||
	fail "plot: $(cat "$WORK/err.txt")"
for s in cpu_user_pct cpu_system_pct cpu_idle_pct ctxt_per_s nr_involuntary_switches; do
	f="$variant-$s-monitor"
	for ext in png svg gp dat; do
		[ -s "$WORK/out/$f.$ext" ] || fail "$f.$ext missing: $(ls "$WORK/out")"
	done
	grep -qx "$WORK/out/$f.svg" "$WORK/files.txt" || fail "$f.svg not listed"
done
if [ -r /proc/pressure/cpu ]; then
	[ -s "$WORK/out/$variant-psi_cpu_some_pct-monitor.svg" ] || fail "no PSI figure"
fi
NCPU=$(grep -c '^cpu[0-9]' /proc/stat)
python3 - "$WORK/out" "$variant" "$NCPU" <<'PY' || fail "monitor figure files"
import glob, sys
import xml.etree.ElementTree as ET
d, variant, ncpu = sys.argv[1], sys.argv[2], int(sys.argv[3])
svgs = sorted(glob.glob(d + "/*-monitor.svg"))
assert len(svgs) >= 5, svgs
for s in svgs:
    root = ET.parse(s).getroot()
    assert root.tag.endswith("svg"), s
    texts = ["".join(e.itertext()) for e in root.iter() if e.tag.endswith("}text")]
    assert any(("variant " + variant) in t for t in texts), (s, texts)
    assert any("s since iteration start" in t for t in texts), (s, texts)
for p in glob.glob(d + "/*-monitor.png"):
    assert open(p, "rb").read(8) == b"\x89PNG\r\n\x1a\n", p
def datasets(name):
    text = open("%s/%s-%s-monitor.dat" % (d, variant, name)).read()
    return [[l.split() for l in b.splitlines() if l.strip()] for b in text.split("\n\n\n") if b.strip()]
# one line per CPU (iteration 1), per iteration for context switches
assert len(datasets("cpu_user_pct")) == ncpu, len(datasets("cpu_user_pct"))
ctxt = datasets("ctxt_per_s")
assert len(ctxt) == 2, len(ctxt)
for ds in ctxt:
    assert len(ds) >= 2, ds
    xs = [float(p[0]) for p in ds]
    assert xs == sorted(xs) and 0 < xs[0] < 5, xs
    assert all(float(p[1]) > 0 for p in ds), ds
for ds in datasets("cpu_idle_pct"):
    assert all(0 <= float(p[1]) <= 100 for p in ds if p[1] != "?"), ds
# hackbench's involuntary switches: cumulative, so non-decreasing is not
# guaranteed (threads leave the sum), but some value is positive
inv = datasets("nr_involuntary_switches")
assert inv and any(float(p[1]) > 0 for ds in inv for p in ds), inv
PY
gp="$WORK/out/$variant-ctxt_per_s-monitor.gp"
grep -q "set termoption noenhanced" "$gp" || fail "noenhanced"
grep -q "title 'run 1 plotmon, variant $variant: context switches/s" "$gp" || fail "title: $(grep title "$gp")"
grep -q "monitor" "$WORK/err.txt" && fail "notes about monitors: $(cat "$WORK/err.txt")"

# A run without monitors: the load figures, no monitor figure, nothing said.
sed -e '/^monitors:/d' -e 's/^name: plotmon/name: bare/' "$WORK/mon.yaml" > "$WORK/bare.yaml"
"$SCHEDRIG" run "$WORK/bare.yaml" --db "$DB" --iterations 1 --quiet > /dev/null 2>&1 || fail "bare run"
"$SCHEDRIG" plot --db "$DB" bare --output-dir "$WORK/bare" > "$WORK/bfiles.txt" 2> "$WORK/berr.txt" ||
	fail "plot bare: $(cat "$WORK/berr.txt")"
[ -n "$(ls "$WORK"/bare/*-mean.svg 2>/dev/null)" ] || fail "no load figure for the bare run"
[ -z "$(ls "$WORK"/bare/*-monitor.* 2>/dev/null)" ] || fail "monitor figures without monitors"
grep -q monitor "$WORK/bfiles.txt" "$WORK/berr.txt" && fail "monitor output without monitors: $(cat "$WORK/berr.txt")"
# --metric: no monitor figures either
"$SCHEDRIG" plot --db "$DB" plotmon --metric time --output-dir "$WORK/m" > /dev/null 2>&1 || true
[ -z "$(ls "$WORK"/m/*-monitor.* 2>/dev/null)" ] || fail "monitor figures with --metric"
exit 0
