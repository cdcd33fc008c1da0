#!/bin/bash
# A grid of nine column values (about 220 characters) on a narrower
# terminal: compare transposes it when that makes it narrower (nine rows,
# three columns) and says so; on a wide terminal, into a pipe or a file,
# or with --width 0 it stays as --grid names it. COLUMNS overrides the
# terminal's own width; --width N lays it out for N columns anywhere. Every
# cell of the transposed grid is the mean of its three samples, recomputed
# here.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
python3 - >grid9.csv <<'PY'
import random
random.seed(9)
print("run,variant,cell,load,metric,unit,better,op,iteration,value,tool")
for nice in (0, 10, 19):
    for sl in (100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600):
        for it in (1, 2, 3):
            v = 6.0 + nice * 0.05 + sl / 10000.0 + random.gauss(0, 0.05)
            print('grid9,running,"hb.nice=%d,hb.slice_us=%d",hb,time,s,lower,4,%d,%.4f,hackbench'
                  % (nice, sl, it, v))
PY
"$SCHEDRIG" import --db r.db --csv grid9.csv >/dev/null || fail "import"

# on_tty COLS OUT ARG...: run schedrig with stdout on a pseudo-terminal
# COLS wide (stderr and the environment as they are), its output into OUT.
on_tty() {
	python3 - "$@" <<'PY'
import fcntl, os, pty, struct, sys, termios
cols, out, argv = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
master, slave = pty.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, cols, 0, 0))
attrs = termios.tcgetattr(slave)
attrs[1] &= ~termios.ONLCR  # the bytes as written, no \r added
termios.tcsetattr(slave, termios.TCSANOW, attrs)
pid = os.fork()
if pid == 0:
    os.dup2(slave, 1)
    os.close(master)
    os.close(slave)
    os.execv(argv[0], argv)
os.close(slave)
text = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    text += chunk
_, status = os.waitpid(pid, 0)
open(out, "wb").write(text)
sys.exit(os.waitstatus_to_exitcode(status))
PY
}
# widest FILE: the widest line of the grid itself (its header and rows;
# the title and footers are prose)
widest() {
	grep -E '^( *[0-9]+|nice|slice_us):' "$1" | awk '{ if (length($0) > m) m = length($0) } END { print m }'
}
grid="compare --db $WORK/r.db --grid nice,slice_us"

# as asked: a pipe, a wide terminal, --width 0, --output
"$SCHEDRIG" $grid >piped.txt
[ "$(widest piped.txt)" -gt 200 ] || fail "the grid as asked is $(widest piped.txt) wide"
grep -q '^nice: *slice_us=100 ' piped.txt || fail "nice down, slice_us across: $(head -3 piped.txt)"
on_tty 300 wide.txt "$SCHEDRIG" $grid || fail "compare on a 300-column terminal"
cmp -s piped.txt wide.txt || fail "a 300-column terminal changed the grid"
on_tty 100 zero.txt "$SCHEDRIG" $grid --width 0 || fail "--width 0"
cmp -s piped.txt zero.txt || fail "--width 0 changed the grid"
on_tty 100 /dev/null "$SCHEDRIG" $grid --output file.txt || fail "--output"
cmp -s piped.txt file.txt || fail "a grid written to a file changed"

# transposed: a 100-column terminal, COLUMNS on a wide one, --width
on_tty 100 narrow.txt "$SCHEDRIG" $grid || fail "compare on a 100-column terminal"
grep -q '^slice_us: *nice=0 *nice=10 *nice=19$' narrow.txt || fail "transposed header: $(head -3 narrow.txt)"
[ "$(widest narrow.txt)" -le 100 ] || fail "the transposed grid is $(widest narrow.txt) wide"
grep -qx "Transposed to fit 100 columns (rows and columns as --grid names them: $(widest piped.txt) wide; --width 0 keeps them)" \
	narrow.txt || fail "the line that says so: $(cat narrow.txt)"
grep -q '; rows slice_us, columns nice$' narrow.txt || fail "the title names the axes as laid out"
COLUMNS=100 on_tty 300 columns.txt "$SCHEDRIG" $grid || fail "COLUMNS=100"
cmp -s narrow.txt columns.txt || fail "COLUMNS=100 on a 300-column terminal differs"
"$SCHEDRIG" $grid --width 100 >width.txt
cmp -s narrow.txt width.txt || fail "--width 100 into a pipe differs"

# every cell: the mean of its samples, its change against nice=0,slice_us=100
python3 - narrow.txt grid9.csv <<'PY' || fail "a transposed cell is not its samples' mean"
import csv, re, statistics, sys
samples = {}
for r in csv.DictReader(open(sys.argv[2])):
    samples.setdefault(r["cell"], []).append(float(r["value"]))
base = statistics.mean(samples["hb.nice=0,hb.slice_us=100"])
checked = 0
for line in open(sys.argv[1]):
    m = re.match(r"^ *(\d+):((?: +-?\d+\.\d+ \(-?\d+\.\d+%\)\*?)+)$", line)
    if not m:
        continue
    cells = re.findall(r"(-?\d+\.\d+) \((-?\d+\.\d+)%\)", m.group(2))
    assert len(cells) == 3, line
    for nice, (v, p) in zip((0, 10, 19), cells):
        mean = statistics.mean(samples["hb.nice=%d,hb.slice_us=%s" % (nice, m.group(1))])
        assert v == "%.4f" % mean, (line, v, mean)
        want = 0.0 if mean == base else 100 - mean * 100 / base
        assert abs(float(p) - want) <= 0.005 + 1e-9, (line, p, want)
        checked += 1
assert checked == 27, checked
PY
set +e
"$SCHEDRIG" $grid --width -1 >/dev/null 2>&1
assert_eq "$?" 2 "--width -1"
set -e
echo "ok"
