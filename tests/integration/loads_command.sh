#!/bin/bash
# schedrig loads says, for every driver, the variant kinds it runs on and
# what it needs there: its tool (or nothing but schedrig for a built-in
# load), the programs and files a qemu guest gets packed (oltp: MariaDB and
# sysbench), and what else a guest gets (kernbench: this machine's /usr and
# a scratch disk). An unknown driver is a usage error.
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

rc=0
"$SCHEDRIG" loads memcached >/dev/null 2>"$WORK/err" || rc=$?
assert_eq "$rc" 2 "unknown driver exit status"
assert_eq "$(cat "$WORK/err")" "schedrig loads: no such load (schedrig loads lists them)" "unknown driver message"
echo ok
