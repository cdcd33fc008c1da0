#!/bin/bash
# schedrig run progress: on a terminal (tmux pane) one live status line with
# variant, cell k/K, iteration i/N, load states, elapsed and ETA; into a pipe
# plain log lines without any control character; --quiet: no per-iteration
# lines. Into a file, each line is there as soon as it is written (line
# buffered): the "run N:" header while the first iteration still runs.
source "$(dirname "$0")/lib.sh"
command -v tmux >/dev/null || fail "tmux is not installed (scripts/install-deps)"
command -v cyclictest >/dev/null || fail "cyclictest is not installed (rt-tests)"
cat >"$WORK/p.yaml" <<'YAML'
name: progress
iterations: 4
warmup_s: 0
loads:
  - name: ct
    tool: cyclictest
    params: {threads: 1, interval_us: 1000, duration_s: 1}
    sched: {slice_us: [300, 3000]}
YAML

# Into a file: the header while the first (3 s) iteration still runs.
cat >"$WORK/slow.yaml" <<'YAML'
name: slow
iterations: 1
loads:
  - {tool: fake, params: {sleep_ms: 3000}}
YAML
"$SCHEDRIG" run "$WORK/slow.yaml" --db "$WORK/slow.db" >"$WORK/slow.out" 2>&1 &
pid=$!
seen=no
while kill -0 "$pid" 2>/dev/null; do
	# the iteration's line comes when it has ended: seen before that only
	if grep -q '^run 1: slow on ' "$WORK/slow.out" && ! grep -q 'iteration 1/1' "$WORK/slow.out"; then
		seen=yes
		break
	fi
	sleep 0.05
done
wait "$pid" || fail "slow run: $(cat "$WORK/slow.out")"
assert_eq "$seen" "yes" "the run header in the file while the iteration ran"

# A pipe: plain lines only.
"$SCHEDRIG" run "$WORK/p.yaml" --db "$WORK/pipe.db" --iterations 2 >"$WORK/pipe.out" 2>&1 ||
	fail "run into a pipe: $(cat "$WORK/pipe.out")"
grep -q '^\[running\] cell 2/2 ct.slice_us=3000 iteration 2/2: ct ok (3 samples);$' "$WORK/pipe.out" ||
	fail "no plain log line: $(cat "$WORK/pipe.out")"
LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$WORK/pipe.out" && fail "control characters in piped output"
grep -q 'ETA' "$WORK/pipe.out" && fail "a status line went into the pipe"
"$SCHEDRIG" run "$WORK/p.yaml" --db "$WORK/quiet.db" --iterations 1 --quiet >"$WORK/quiet.out" 2>&1 ||
	fail "run --quiet"
grep -q 'iteration 1/1' "$WORK/quiet.out" && fail "--quiet printed iteration lines"
LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$WORK/quiet.out" && fail "control characters with --quiet"

# A terminal: tmux pane, captured while the run goes on.
SOCK="schedrig-test-$$"
trap 'tmux -L "$SOCK" kill-server 2>/dev/null || true; rm -rf "$WORK"' EXIT
tmux -L "$SOCK" new-session -d -x 160 -y 40 \
	"'$SCHEDRIG' run '$WORK/p.yaml' --db '$WORK/tty.db'; sleep 60"
seen=""
for _ in $(seq 200); do
	pane=$(tmux -L "$SOCK" capture-pane -p)
	if grep -Eq '^\[running\] cell [12]/2 iteration [1-4]/4 \| last: ct ok \(3 samples\); \| [1-7]/8 done, elapsed [0-9]+:[0-9]{2} ETA [0-9]+:[0-9]{2}' <<<"$pane"; then
		seen=$pane
		break
	fi
	sleep 0.1
done
[ -n "$seen" ] || fail "no status line on the terminal: $(tmux -L "$SOCK" capture-pane -p)"
# One status line only: log lines above it, never two status lines.
[ "$(grep -c 'ETA' <<<"$seen")" = 1 ] || fail "more than one status line: $seen"
# The finished run leaves the log lines and the tables (all the history: the
# measured window's schedstat tables follow the load's); the status line is gone.
for _ in $(seq 300); do
	pane=$(tmux -L "$SOCK" capture-pane -p -S -5000)
	grep -q 'Significance' <<<"$pane" && break
	sleep 0.1
done
grep -q '^\[running\] cell 2/2 ct.slice_us=3000 iteration 4/4: ct ok (3 samples);$' <<<"$pane" ||
	fail "log lines missing on the terminal: $pane"
tail=$(tmux -L "$SOCK" capture-pane -p -S -100)
grep -q 'ETA' <<<"$tail" && fail "the status line was left behind: $tail"
# The raw bytes a terminal gets (script(1) gives the run a pty): the status
# line is drawn with CR + text + ESC[K.
script -q -e -c "'$SCHEDRIG' run '$WORK/p.yaml' --db '$WORK/script.db' --iterations 1" \
	"$WORK/typescript" >/dev/null 2>&1 || fail "run under script"
LC_ALL=C grep -q $'\r\[running\] cell [12]/2 iteration' "$WORK/typescript" || fail "no CR-drawn status line"
LC_ALL=C grep -q $'\x1b\\[K' "$WORK/typescript" || fail "no erase-line sequence"
exit 0
