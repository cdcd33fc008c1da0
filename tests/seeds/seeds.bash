# Run a shipped seed config at its smallest size (sourced after lib.sh and
# debkernel.bash, not run): seed_run NAME copies configs/NAME.yaml with the
# newest Debian 6.1 and 6.12 packages in place of the ones it names (Debian
# moves its kernels on), runs it with --iterations 1 into
# results/qemu-test/NAME.db (the kernel cache and kernbench's prepared tree
# in the rig's cache, shared with the qemu tests) and prints how long
# it took. DB and OUT (the compare output) are set afterwards.
TOP=$(cd "$TESTS_DIR/.." && pwd)
RESULTS=${SCHEDRIG_QEMU_RESULTS:-$TOP/results/qemu-test}

seed_run() {
	local name=$1 p61 p612 start rc=0
	p61=$(deb_kernel 6.1)
	p612=$(deb_kernel 6.12)
	mkdir -p "$RESULTS"
	DB=$RESULTS/$name.db
	rm -f "$DB"
	sed -e "s/linux-image-6\.1\.0-[0-9]*-amd64-unsigned/$p61/" \
		-e "s/linux-image-6\.12\.[0-9]*+deb12-amd64-unsigned/$p612/" \
		"$TOP/configs/$name.yaml" >"$WORK/$name.yaml"
	start=$(date +%s)
	cd "$TOP"
	timeout 850 "$SCHEDRIG" run "$WORK/$name.yaml" --iterations 1 --db "$DB" \
		>"$WORK/run.out" 2>"$WORK/run.err" || rc=$?
	echo "$name at --iterations 1: $(($(date +%s) - start)) s (load average $(cut -d' ' -f1 /proc/loadavg))"
	[ "$rc" -ne 124 ] || fail "$name: schedrig run was killed after 850 s"
	assert_eq "$rc" 0 "$name: exit status ($(cat "$WORK/run.err"); $("$SCHEDRIG" show --db "$DB" latest 2>&1 | sed -n '/load instances/,$p' | head -40))"
	OUT=$("$SCHEDRIG" compare --db "$DB" latest)
}

# assert_table LOAD METRIC COLUMN...: compare printed the table of LOAD's
# METRIC with every COLUMN in it (its "n:" line names the columns in full:
# the header splits names as mmtests does, v6.12-no-place-lag over two
# rows), and stored samples of it for each.
assert_table() {
	local load=$1 metric=$2 nline col n
	shift 2
	nline=$(printf '%s\n' "$OUT" | sed -n "/^$load $metric (/,/^n: /p" | grep -m1 '^n: ')
	[ -n "$nline" ] || fail "no $load $metric table in: $OUT"
	for col in "$@"; do
		grep -qE "(: |, )$col [0-9]+(,|\$)" <<<"$nline" ||
			fail "$load $metric: no column $col in '$nline'"
		n=$(q "$DB" "SELECT count(*) FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
			JOIN iteration i ON i.id = li.iteration_id JOIN variant v ON v.id = i.variant_id
			WHERE li.name = '$load' AND s.metric = '$metric' AND v.name = '$col'")
		[ "$n" -ge 1 ] || fail "no $load $metric samples of $col"
	done
}
