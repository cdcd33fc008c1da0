#!/bin/bash
# compare --significance mann-whitney: "n too small" only where the exact
# p (no ties) can never reach alpha; with ties the tie-corrected normal
# approximation's p decides the star, in the mmtests and grid layouts alike.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

# csv NAME A B N: run NAME, N samples of variant a-base at A and b-new at
# B (A and B may be lists of N values); run NAME-grid, the same as two
# cells of one variant for the grid.
csv() {
	local a=($2) b=($3) it
	{
		echo "run,variant,cell,load,metric,unit,better,op,iteration,value"
		for it in $(seq "$4"); do
			echo "$1,a-base,default,fake,value,units,lower,1,$it,${a[(it - 1) % ${#a[@]}]}"
			echo "$1,b-new,default,fake,value,units,lower,1,$it,${b[(it - 1) % ${#b[@]}]}"
		done
	} >"$1.csv"
	{
		echo "run,variant,cell,load,metric,unit,better,op,iteration,value"
		for it in $(seq "$4"); do
			echo "$1-grid,v,\"x=1,y=1\",fake,value,units,lower,1,$it,${a[(it - 1) % ${#a[@]}]}"
			echo "$1-grid,v,\"x=1,y=2\",fake,value,units,lower,1,$it,${b[(it - 1) % ${#b[@]}]}"
		done
	} >"$1-grid.csv"
	"$SCHEDRIG" import --csv "$1.csv" --db r.db >/dev/null
	"$SCHEDRIG" import --csv "$1-grid.csv" --db r.db >/dev/null
}

# Three 100s against three 200s: ranks 2,2,2 | 5,5,5, U = 9, mean 4.5,
# sigma^2 = 9/12 * (7 - 48/30) = 4.05, z = (4.5 - 0.5) / sqrt(4.05),
# p = 2 Q(z) = 0.0468541776 (python statistics.NormalDist; R's wilcox.test
# agrees): a star, and no "n too small".
csv tied 100 200 3
"$SCHEDRIG" compare --db r.db tied --significance mann-whitney >tied.txt
grep -q '^Amean     1      100.00 (   0.00%)      200.00 \*-100.00%\*$' tied.txt ||
	fail "tied 3 vs 3: no star: $(cat tied.txt)"
grep -q 'too small' tied.txt && fail "tied 3 vs 3 said n too small: $(cat tied.txt)"
assert_contains "$(cat tied.txt)" "n >= 1 on both sides; p tie-corrected normal approximation" "tied footer"
"$SCHEDRIG" compare --db r.db tied --significance mann-whitney --format json >tied.json
python3 - tied.json <<'PY' || fail "tied 3 vs 3: json p"
import json, math, sys
g = json.load(open(sys.argv[1]))["tables"][0]["groups"][1]
want = 2 * (1 - __import__("statistics").NormalDist().cdf(4 / math.sqrt(4.05)))
assert abs(g["p_value"] - want) < 1e-9, (g["p_value"], want)
assert g["significant"] is True and g["n_too_small"] is False, g
assert g["mean_stat"] == "Amean", g
PY
"$SCHEDRIG" compare --db r.db tied-grid --grid x,y --significance mann-whitney >tgrid.txt
grep -q '^1: .*200.00 (-100.00%)\*$' tgrid.txt || fail "tied grid: no star: $(cat tgrid.txt)"
grep -q 'too small' tgrid.txt && fail "tied grid said n too small: $(cat tgrid.txt)"

# Without ties 3 vs 3 cannot go below the exact p = 2/C(6,3) = 0.1: no star,
# "n too small" naming the column, in both layouts.
csv apart "100.1 100.2 100.3" "200.1 200.2 200.3" 3
for args in "apart" "apart-grid --grid x,y"; do
	# shellcheck disable=SC2086
	"$SCHEDRIG" compare --db r.db $args --significance mann-whitney >apart.txt
	grep -q '\*' <(grep -v '^Significance' apart.txt) && fail "$args: a star at 3 vs 3: $(cat apart.txt)"
	assert_contains "$(cat apart.txt)" "p exact (no ties, n < 50); n too small (no arrangement of so few values gives p < 0.05" \
		"$args footer"
done

# 1 vs 1: p = 1 whatever the values, n too small
csv single 1 2 1
"$SCHEDRIG" compare --db r.db single --significance mann-whitney >single.txt
assert_contains "$(cat single.txt)" "n too small (no arrangement of so few values gives p < 0.05, so no star does not mean no change): b-new" \
	"1 vs 1"
