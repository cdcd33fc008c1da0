#!/bin/bash
# schedrig plot, the numbers in the scripts and data: the histogram's x
# range is its bins' outer edges, so the first and last bins are drawn
# whole (linear and --logx); error bars of a metric with no negative sample
# stop at 0 (mean and interval figures), those of a metric with a negative
# sample do not.
source "$(dirname "$0")/lib.sh"
DB=$WORK/p.db
command -v gnuplot >/dev/null || fail "gnuplot is not installed (scripts/install-deps)"

# import NAME: rows "variant,load,metric,unit,op,iteration,value" on stdin.
import() {
	{
		echo "run,variant,cell,load,metric,unit,better,op,iteration,value"
		while IFS=, read -r v l m u op it val; do
			echo "$1,$v,c,$l,$m,$u,lower,$op,$it,$val"
		done
	} >"$WORK/$1.csv"
	"$SCHEDRIG" import --csv "$WORK/$1.csv" --run "$1" --db "$DB" >/dev/null
}

# Samples 1..10: 5 bins of width 1.8 between 1 and 10, centres 1.9 .. 9.1.
for i in $(seq 10); do echo "v,lat,wake_latency,us,,$i,$i"; done | import hist
for logx in "" --logx; do
	out=$WORK/hist$logx
	"$SCHEDRIG" plot --db "$DB" hist --output-dir "$out" --format svg $logx >/dev/null ||
		fail "plot hist $logx"
	range=$(grep '^set xrange' "$out/lat-wake_latency-hist.gp") || fail "$logx: no x range set"
	assert_eq "$range" "set xrange [1:10]" "histogram x range $logx"
done
# The range holds the whole first and last bins: half a bin beyond the
# first and last centres (the data points).
awk 'NF == 2 { x[n++] = $1 } END {
	w = x[1] - x[0]
	if (n != 5 || (x[0] - w / 2 - 1)^2 > 1e-18 || (x[4] + w / 2 - 10)^2 > 1e-18) exit 1
}' "$WORK/hist/lat-wake_latency-hist.dat" || fail "bins: $(cat "$WORK/hist/lat-wake_latency-hist.dat")"

# Latency 1, 1, 10: Amean 4, Stddev sqrt(27) = 5.196..., 4 - 5.196 < 0.
# A difference -1, 1, 10 may be negative: its bar goes below 0.
{
	for it in 1 2; do echo "v,lat,wake_latency,us,,$it,1"; done
	echo "v,lat,wake_latency,us,,3,10"
	echo "v,cmp,delta,us,,1,-1"
	echo "v,cmp,delta,us,,2,1"
	echo "v,cmp,delta,us,,3,10"
	# intervals: the totals over pair0 and pair1 per iteration are 1, 1, 10
	for it in 1 2; do
		echo "v,rr,interval_transactions,transactions/s,pair0-s0,$it,0.5"
		echo "v,rr,interval_transactions,transactions/s,pair1-s0,$it,0.5"
	done
	echo "v,rr,interval_transactions,transactions/s,pair0-s0,3,4"
	echo "v,rr,interval_transactions,transactions/s,pair1-s0,3,6"
} | import bars
"$SCHEDRIG" plot --db "$DB" bars --output-dir "$WORK/bars" --format svg >/dev/null || fail "plot bars"
for f in lat-wake_latency-mean rr-interval_transactions-interval; do
	grep -q "using 1:2:3:4 with yerrorlines" "$WORK/bars/$f.gp" || fail "$f: not x y ylow yhigh"
	line=$(head -1 "$WORK/bars/$f.dat")
	read -r x y lo hi <<<"$line"
	assert_eq "$x $y $lo" "0 4 0" "$f: the low end clamped at 0 ($line)"
	awk -v hi="$hi" 'BEGIN { exit !(hi > 9.196152 && hi < 9.196153) }' ||
		fail "$f: the high end is not 4 + sqrt(27): $line"
done
read -r x y lo hi <"$WORK/bars/cmp-delta-mean.dat"
# Amean 10/3, Stddev sqrt(103/3) = 5.859...: low -2.526...
awk -v lo="$lo" 'BEGIN { exit !(lo < -2.5261 && lo > -2.5262) }' ||
	fail "a metric with a negative sample was clamped: $x $y $lo $hi"
exit 0
