#!/bin/bash
# schedrig loads says, for every driver, the variant kinds it runs on and
# what it needs there: its tool (or nothing but schedrig for a built-in
# load), the programs and files a qemu guest gets packed (oltp: MariaDB and
# sysbench), and what else a guest gets (kernbench: this machine's /usr and
# a scratch disk), and what of it is missing on this machine. An unknown
# driver is a usage error.
source "$(dirname "$0")/lib.sh"

all=$("$SCHEDRIG" loads) || fail "schedrig loads exit status"
drivers=$(grep -c '^[a-z][a-z-]* \(([a-z ]*) \)\?— ' <<<"$all")
[ "$drivers" -ge 15 ] || fail "schedrig loads lists $drivers drivers"
assert_eq "$(grep -c '^  variants local, ssh (installed there), qemu (packed from here)$' <<<"$all")" \
	"$drivers" "a variants line per driver"
assert_eq "$(grep -c '^  needs    ' <<<"$all")" "$drivers" "a needs line per driver"

assert_eq "$("$SCHEDRIG" loads kernbench | sed -n 3,4p)" \
"  needs    make, gcc and the kernel source (a qemu guest gets the tree prepared here on its scratch disk, a relative cache_dir); clean: targets suits TCG
  in qemu  this machine's /usr (virtio-9p), a scratch disk (ext4, /scratch)" "kernbench"
assert_eq "$("$SCHEDRIG" loads oltp | sed -n 3,4p)" \
"  needs    mariadb-install-db, my_print_defaults, resolveip, mariadbd, mariadb-admin, sysbench; /usr/share/mysql, /usr/share/sysbench; a writable \$TMPDIR for the data directory
  in qemu  a scratch disk (ext4, /scratch)" "oltp"
assert_eq "$("$SCHEDRIG" loads dbench | sed -n 3p)" "  needs    its tool; its loadfile (packed into a qemu guest)" "dbench"
assert_eq "$("$SCHEDRIG" loads tcp-rr | sed -n 1,3p)" \
"tcp-rr (built in) — TCP request/response pairs like netperf TCP_RR (transactions/s, round-trip latency)
  variants local, ssh (installed there), qemu (packed from here)
  needs    nothing but schedrig" "tcp-rr"

# What is missing on this machine, found as preflight finds it: with PATH
# holding nothing, a Debian tool can neither run on boot: local nor go into
# a qemu guest, and oltp misses its MariaDB programs for both; a built-in
# load needs nothing from PATH; with the tool back in PATH it is there.
command -v hackbench >/dev/null || fail "hackbench not installed (scripts/install-deps: rt-tests)"
command -v mariadb-admin >/dev/null || fail "mariadb-admin not installed (scripts/install-deps: mariadb-client)"
mkdir -p "$WORK/bin"
assert_eq "$(PATH="$WORK/bin" "$SCHEDRIG" loads hackbench | grep '^  here ')" \
"  here     boot: local cannot run it: load 'hackbench': tool 'hackbench' is not installed here (no executable file of that name in PATH)
  here     a qemu guest cannot get it: tool 'hackbench' is not installed here, so it cannot go into the guest" \
	"hackbench missing here"
oltp=$(PATH="$WORK/bin" "$SCHEDRIG" loads oltp | grep '^  here ')
assert_contains "$oltp" "  here     boot: local cannot run it: load 'oltp': program 'mariadb-install-db' is not installed here;" \
	"oltp locally"
assert_contains "$oltp" "  here     a qemu guest cannot get it: program 'mariadb-admin' is not installed here, so it cannot go into the guest" \
	"oltp in a guest"
installed="  here     installed: boot: local runs it, a qemu guest gets it packed"
assert_eq "$(PATH="$WORK/bin" "$SCHEDRIG" loads tcp-rr | grep '^  here ')" "$installed" "tcp-rr (built in)"
ln -s "$(command -v hackbench)" "$WORK/bin/hackbench"
assert_eq "$(PATH="$WORK/bin" "$SCHEDRIG" loads hackbench | grep '^  here ')" "$installed" \
	"hackbench in PATH"
[ "$(grep -c '^  here     ' <<<"$all")" -ge "$drivers" ] || fail "a here line per driver"

rc=0
"$SCHEDRIG" loads memcached >/dev/null 2>"$WORK/err" || rc=$?
assert_eq "$rc" 2 "unknown driver exit status"
assert_eq "$(cat "$WORK/err")" "schedrig loads: no such load (schedrig loads lists them)" "unknown driver message"
echo ok
