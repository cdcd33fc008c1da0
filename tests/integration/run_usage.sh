#!/bin/bash
# A usage error of run (or check-config) says what is wrong in one line,
# then the usage lines and where the help is: at most five lines, exit 2, instead of
# the whole help.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
printf 'name: a\nloads: [{tool: fake}]\n' >a.yaml

# usage_error WHAT EXPECTED_FIRST_LINE ARGS...
usage_error() {
	local what=$1 want=$2 rc=0
	shift 2
	"$SCHEDRIG" "$@" >out 2>err || rc=$?
	assert_eq "$rc" 2 "$what: exit status"
	assert_eq "$(cat out)" "" "$what: stdout"
	assert_eq "$(sed -n 1p err)" "$want" "$what: first line"
	assert_eq "$(sed -n '$p' err)" "see schedrig $1 --help" "$what: last line"
	grep -q "^usage: schedrig $1 " err || fail "$what: no usage line: $(cat err)"
	[ "$(wc -l <err)" -le 5 ] || fail "$what: $(wc -l <err) lines: $(cat err)"
}

usage_error "--resume with --iterations" \
	"schedrig run: --iterations does not go with --resume: a resumed run keeps its iterations" \
	run --resume 1 --iterations 3
usage_error "--resume with --dry-run" "schedrig run: --dry-run does not go with --resume" \
	run --resume 1 --dry-run
usage_error "--resume with a CONFIG" "schedrig run: --resume RUN takes no CONFIG, but 'a.yaml' was given" \
	run --resume 1 a.yaml
usage_error "no CONFIG" "schedrig run: no CONFIG given" run --quiet
usage_error "two CONFIGs" "schedrig run: one CONFIG only, but 'b.yaml' was given too" run a.yaml b.yaml
usage_error "unknown option" "schedrig run: unknown option '--frobnicate'" run a.yaml --frobnicate
usage_error "option without its value" "schedrig run: --db needs a value" run a.yaml --db
usage_error "bad --iterations" "schedrig run: --iterations must be 1..10000, not '0'" \
	run a.yaml --iterations 0
# Integers are [-]digits: no sign, no blank (strtoll would take both).
usage_error "--iterations with a sign" "schedrig run: --iterations must be 1..10000, not '+2'" \
	run a.yaml --iterations +2
usage_error "--iterations with a blank" "schedrig run: --iterations must be 1..10000, not ' 2'" \
	run a.yaml --iterations ' 2'
usage_error "check-config without CONFIG" "schedrig check-config: no CONFIG given" check-config
[ ! -e results ] || fail "a usage error created results/"
