#!/bin/bash
# boot: ssh with kexec, for real: a qemu guest (TCG) boots Debian's 6.1
# generic kernel from an initramfs this test builds (busybox-static, the
# host's OpenSSH sshd with one baked-in ed25519 host key, kexec-tools,
# hackbench and cyclictest, the shared libraries of schedrig, the NIC
# modules of both kernels); the guest's sshd is reached through qemu's user
# network forward on 127.0.0.1:PORT. A `boot: ssh` variant with
# kexec: {kernel: the 6.1 PREEMPT_RT bzImage, initrd: the same initramfs,
# append: schedrig_kexec_test=1} makes the rig copy both there, kexec -l and
# kexec -e, wait for the new boot_id and run a tiny hackbench + cyclictest
# plan on the RT kernel. Asserted: exit status 0; the variant's stored
# kernel_release is the RT release (not the first kernel's), its cmdline
# holds the append; cyclictest samples stored; the console shows both
# boots. Then a kexec kernel that is not a bzImage: a clear variant failure
# before anything is sent. qemu is killed and the temp dir removed on exit.
# The kernel packages are cached in results/kexec-test/cache (kept between
# runs; the first run downloads two ~70 MB packages). About 75 s on 2 CPUs
# (two TCG boots of 15-30 s each), about 2 minutes when the CPUs are busy.
# Needs qemu-system-x86, busybox-static, openssh-server, openssh-client,
# kexec-tools, rt-tests, cpio (scripts/install-deps).
source "$(dirname "$0")/../integration/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=$TOP/results/kexec-test/cache
BOOT_WAIT_S=180   # first boot: until ssh answers
RIG_TIMEOUT_S=400 # the whole kexec run (the variant waits at most timeout_s: 300 for the new boot)
QEMU_PID=

say() {
	echo "[kexec-test $(date +%T)] $*"
}

cleanup() {
	if [ -n "$QEMU_PID" ]; then
		kill "$QEMU_PID" 2>/dev/null || true
		wait "$QEMU_PID" 2>/dev/null || true
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT

for need in qemu-system-x86_64 setpriv /usr/sbin/sshd /usr/sbin/kexec ssh ssh-keygen hackbench \
	cyclictest cpio gzip dpkg-deb apt-get apt-cache ldd python3 sqlite3; do
	command -v "$need" >/dev/null || fail "$need is not installed (scripts/install-deps)"
done
[ -x /bin/busybox ] || fail "/bin/busybox is missing (busybox-static; scripts/install-deps)"

# --- kernels: Debian 6.1 generic and PREEMPT_RT, newest ABI in the apt lists
find_pkg() { # FLAVOUR (amd64 or rt-amd64)
	apt-cache search --names-only "^linux-image-6\\.1\\.0-[0-9]+-$1-unsigned\$" |
		awk '{print $1}' | sort -V | tail -1
}
GEN_PKG=$(find_pkg amd64)
RT_PKG=$(find_pkg rt-amd64)
if [ -z "$GEN_PKG" ] || [ -z "$RT_PKG" ]; then
	say "apt-get update (no 6.1 kernel packages in the apt lists)"
	apt-get update -qq >/dev/null 2>&1 || true
	GEN_PKG=$(find_pkg amd64)
	RT_PKG=$(find_pkg rt-amd64)
fi
[ -n "$GEN_PKG" ] || fail "no linux-image-6.1.0-*-amd64-unsigned package in the apt lists"
[ -n "$RT_PKG" ] || fail "no linux-image-6.1.0-*-rt-amd64-unsigned package in the apt lists"

# fetch PKG: the package extracted under $CACHE/kernels/PKG (downloaded
# into $CACHE/debs once; extracted to a temp dir, then renamed).
fetch() {
	local pkg=$1 dir=$CACHE/kernels/$1 deb
	[ -d "$dir" ] && return 0
	mkdir -p "$CACHE/debs" "$CACHE/kernels"
	deb=$(ls "$CACHE/debs/${pkg}_"*.deb 2>/dev/null | sort -V | tail -1 || true)
	if [ -z "$deb" ]; then
		say "apt-get download $pkg into $CACHE/debs"
		(cd "$CACHE/debs" && apt-get download -q "$pkg" >>apt-get-download.log 2>&1) ||
			fail "apt-get download $pkg failed (see $CACHE/debs/apt-get-download.log)"
		deb=$(ls "$CACHE/debs/${pkg}_"*.deb 2>/dev/null | sort -V | tail -1 || true)
		[ -n "$deb" ] || fail "apt-get download $pkg left no .deb in $CACHE/debs"
	fi
	say "extracting $(basename "$deb")"
	rm -rf "$dir.tmp"
	dpkg-deb -x "$deb" "$dir.tmp" || fail "dpkg-deb -x $deb failed"
	mv "$dir.tmp" "$dir"
}
fetch "$GEN_PKG"
fetch "$RT_PKG"
release_of() { # PKG: the one directory name under lib/modules
	local d
	d=$(ls "$CACHE/kernels/$1/lib/modules")
	[ "$(echo "$d" | wc -l)" -eq 1 ] || fail "$1: expected one module tree, got: $d"
	echo "$d"
}
GEN_REL=$(release_of "$GEN_PKG")
RT_REL=$(release_of "$RT_PKG")
GEN_VMLINUZ=$CACHE/kernels/$GEN_PKG/boot/vmlinuz-$GEN_REL
RT_VMLINUZ=$CACHE/kernels/$RT_PKG/boot/vmlinuz-$RT_REL
[ -f "$GEN_VMLINUZ" ] || fail "$GEN_VMLINUZ is missing"
[ -f "$RT_VMLINUZ" ] || fail "$RT_VMLINUZ is missing"
[ "$GEN_REL" != "$RT_REL" ] || fail "both packages carry release $GEN_REL"
say "first kernel $GEN_REL, kexec target $RT_REL"

# --- the guest initramfs (one file, for both boots)
ROOT=$WORK/root
INITRAMFS=$WORK/initramfs.cpio.gz
mkdir -p "$ROOT"/{bin,sbin,usr/bin,usr/sbin,etc/ssh,dev,proc,sys,tmp,run,root,var/empty}

# add_file HOSTPATH [GUESTPATH]: a copy (symlinks followed), mode kept.
add_file() {
	local dst=$ROOT${2:-$1}
	mkdir -p "$(dirname "$dst")"
	cp -L --preserve=mode "$1" "$dst"
}
# add_program HOSTPATH: the program and every shared library ldd lists for
# it, each at the path ldd resolved (the ELF interpreter at its own path).
add_program() {
	local lib
	add_file "$1"
	for lib in $(ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'); do
		[ -e "$ROOT$lib" ] || add_file "$lib"
	done
	if ldd "$1" | grep -q "not found"; then
		fail "$1: a shared library is not found: $(ldd "$1" | grep "not found" | head -1)"
	fi
}

cp /bin/busybox "$ROOT/bin/busybox"
for applet in sh ash cat rm mkdir chmod mv cp ln ls mount umount sleep echo printf uname \
	insmod lsmod ip ps kill dmesg sync poweroff reboot test [ tr sed grep head tail id \
	hostname env true false setsid stat nproc wc; do
	ln -s busybox "$ROOT/bin/$applet"
done
add_program /usr/sbin/sshd
add_program /usr/sbin/kexec
add_program "$(command -v hackbench)"
add_program "$(command -v cyclictest)"
# The rig copies this binary to WORKDIR/bin/schedrig: its libraries only.
for lib in $(ldd "$SCHEDRIG" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'); do
	[ -e "$ROOT$lib" ] || add_file "$lib"
done

# NIC modules of both kernels: virtio_pci and virtio_net with everything
# they depend on (the "depends=" field of each .ko's .modinfo), listed
# dependencies first in /lib/modules/RELEASE/kexec-test.modules.
modules_for() { # PKG RELEASE
	local tree=$CACHE/kernels/$1/lib/modules/$2 list=$ROOT/lib/modules/$2/kexec-test.modules
	local -A seen=()
	local order=()
	visit() {
		local name=${1//-/_} path dep
		[ -z "${seen[$name]:-}" ] || return 0
		seen[$name]=1
		path=$(find "$tree" \( -name "$name.ko" -o -name "${name//_/-}.ko" \) | head -1)
		if [ -z "$path" ]; then
			grep -qi "^CONFIG_${name}=y" "$CACHE/kernels/$1/boot/config-$2" ||
				fail "$2: module $name is neither in the package nor built in"
			return 0 # built in
		fi
		for dep in $(tr '\0' '\n' <"$path" | sed -n 's/^depends=//p' | head -1 | tr ',' ' '); do
			visit "$dep"
		done
		order+=("${path#"$tree"/}")
	}
	visit virtio_pci
	visit virtio_net
	mkdir -p "$(dirname "$list")"
	: >"$list"
	for m in "${order[@]}"; do
		add_file "$tree/$m" "/lib/modules/$2/$m"
		echo "$m" >>"$list"
	done
	say "$2: NIC modules $(tr '\n' ' ' <"$list")"
}
modules_for "$GEN_PKG" "$GEN_REL"
modules_for "$RT_PKG" "$RT_REL"

ssh-keygen -q -t ed25519 -N '' -C kexec-test-host -f "$WORK/host_key"
ssh-keygen -q -t ed25519 -N '' -C kexec-test-client -f "$WORK/id"
install -m 600 "$WORK/host_key" "$ROOT/etc/ssh/ssh_host_ed25519_key"
install -m 644 "$WORK/host_key.pub" "$ROOT/etc/ssh/ssh_host_ed25519_key.pub"
install -m 644 "$WORK/id.pub" "$ROOT/etc/ssh/authorized_keys"
cat >"$ROOT/etc/ssh/sshd_config" <<'EOF'
Port 22
HostKey /etc/ssh/ssh_host_ed25519_key
PidFile /run/sshd.pid
UsePAM no
PermitRootLogin yes
PasswordAuthentication no
KbdInteractiveAuthentication no
AuthorizedKeysFile /etc/ssh/authorized_keys
StrictModes no
UseDNS no
MaxSessions 20
MaxStartups 50
EOF
cat >"$ROOT/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
sshd:x:100:65534::/run/sshd:/bin/false
EOF
cat >"$ROOT/etc/group" <<'EOF'
root:x:0:
nogroup:x:65534:
EOF
echo kexec-guest >"$ROOT/etc/hostname"
cat >"$ROOT/init" <<'EOF'
#!/bin/sh
# kexec-test guest init (tests/slow/kexec.sh): the same on both boots.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug
mount -t cgroup2 cgroup2 /sys/fs/cgroup
mkdir -p /dev/shm /tmp /run
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mkdir -p /run/sshd
chmod 755 /run/sshd
hostname kexec-guest
release=$(uname -r)
echo "kexec-test-init: booted $release: $(cat /proc/cmdline)"
for m in $(cat "/lib/modules/$release/kexec-test.modules"); do
	insmod "/lib/modules/$release/$m" || echo "kexec-test-init: insmod $m failed"
done
ip link set lo up
ip addr add 10.0.2.15/24 dev eth0
ip link set eth0 up
/usr/sbin/sshd -D -e -f /etc/ssh/sshd_config &
echo "kexec-test-init: sshd started on $release"
while :; do
	sleep 3600
done
EOF
chmod 755 "$ROOT/init"
(cd "$ROOT" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet | gzip -6) >"$INITRAMFS"
say "initramfs $INITRAMFS: $(du -h "$INITRAMFS" | cut -f1)"

# --- first boot: the generic kernel, sshd forwarded to 127.0.0.1:PORT
CONSOLE=$WORK/console.log
echo "[127.0.0.1]:PORT $(cut -d' ' -f1,2 "$WORK/host_key.pub")" >"$WORK/known_hosts.in"
guest_ssh() { # COMMAND...: one plain ssh to the guest (no sharing)
	ssh -p "$PORT" -i "$WORK/id" -o IdentitiesOnly=yes -o BatchMode=yes \
		-o StrictHostKeyChecking=yes -o UserKnownHostsFile="$WORK/known_hosts" \
		-o GlobalKnownHostsFile=/dev/null -o ConnectTimeout=5 -o LogLevel=ERROR \
		root@127.0.0.1 "$@"
}
started=0
for _ in 1 2 3; do
	PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	sed "s/PORT/$PORT/" "$WORK/known_hosts.in" >"$WORK/known_hosts"
	say "booting $GEN_REL in qemu (TCG, 2 CPUs, 2 GiB), ssh forwarded from 127.0.0.1:$PORT"
	# setpriv: qemu is killed with this script even if no trap can run.
	setpriv --pdeathsig KILL qemu-system-x86_64 -accel tcg -m 2048 -smp 2 -nographic -no-reboot \
		-kernel "$GEN_VMLINUZ" -initrd "$INITRAMFS" -append 'console=ttyS0 panic=-1' \
		-netdev "user,id=n0,hostfwd=tcp:127.0.0.1:$PORT-:22" \
		-device virtio-net-pci,netdev=n0 </dev/null >"$CONSOLE" 2>&1 &
	QEMU_PID=$!
	t0=$(date +%s)
	while [ $(($(date +%s) - t0)) -lt "$BOOT_WAIT_S" ]; do
		kill -0 "$QEMU_PID" 2>/dev/null || break
		if guest_ssh true 2>/dev/null; then
			started=1
			break
		fi
		sleep 2
	done
	[ "$started" = 1 ] && break
	if kill -0 "$QEMU_PID" 2>/dev/null || ! grep -q "hostfwd\|host forwarding" "$CONSOLE"; then
		cat "$CONSOLE"
		fail "the guest did not answer ssh within $BOOT_WAIT_S s"
	fi
	wait "$QEMU_PID" 2>/dev/null || true
	QEMU_PID=
	say "port $PORT was taken meanwhile: another one"
done
[ "$started" = 1 ] || fail "qemu could not forward a port"
say "guest up after $(($(date +%s) - t0)) s: $(guest_ssh uname -r)"
assert_eq "$(guest_ssh uname -r)" "$GEN_REL" "release of the first boot"
first_boot_id=$(guest_ssh cat /proc/sys/kernel/random/boot_id)
printf 'UserKnownHostsFile %s\nGlobalKnownHostsFile /dev/null\n' "$WORK/known_hosts" \
	>"$WORK/ssh_config"

# --- the rig: kexec into the RT kernel, then the plan there
loads() {
	cat <<EOF
loads:
  - name: hackbench
    tool: hackbench
    role: background
    repeat: true
    params: {mode: process, ipc: pipe, groups: 1, loops: 100}
    sched: {nice: 5}
  - name: cyclictest
    tool: cyclictest
    role: measured
    timeout_s: 60
    params: {threads: 1, interval_us: 1000, duration_s: 1}
    sched: {policy: other, nice: -2}
EOF
}
variant() { # NAME KERNEL
	cat <<EOF
variants:
  - {name: $1, boot: ssh, host: 127.0.0.1, port: $PORT, user: root,
     identity: $WORK/id, workdir: /tmp/schedrig, timeout_s: 300,
     kexec: {kernel: $2, initrd: $INITRAMFS, append: schedrig_kexec_test=1}}
EOF
}
{
	printf 'name: kexec-rt\ndescription: kexec from %s into %s over ssh\n' "$GEN_REL" "$RT_REL"
	printf 'iterations: 2\nwarmup_s: 0.5\n'
	variant rt "$RT_VMLINUZ"
	loads
} >"$WORK/kexec.yaml"
DB=$WORK/kexec.db
say "schedrig run: kexec into $RT_REL and the plan (at most $RIG_TIMEOUT_S s)"
t1=$(date +%s)
set +e
SCHEDRIG_SSH_CONFIG=$WORK/ssh_config timeout "$RIG_TIMEOUT_S" "$SCHEDRIG" run "$WORK/kexec.yaml" \
	--db "$DB" >"$WORK/out" 2>"$WORK/err"
rc=$?
set -e
cat "$WORK/out" "$WORK/err"
say "schedrig run exited $rc after $(($(date +%s) - t1)) s"
if [ "$rc" -ne 0 ]; then
	echo "--- guest console"
	tail -n 60 "$CONSOLE"
	for f in "$WORK"/runs/*/rt-ssh.log; do
		[ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }
	done
fi
[ "$rc" -ne 124 ] || fail "schedrig run hung (killed after $RIG_TIMEOUT_S s)"
assert_eq "$rc" 0 "exit status of the kexec run"
assert_contains "$(cat "$WORK/out")" "kexec into $RT_REL on root@127.0.0.1:$PORT" "kexec announced"

assert_eq "$(q "$DB" "SELECT kernel_release FROM variant WHERE name = 'rt'")" "$RT_REL" \
	"kernel_release stored for the kexec variant"
[ "$RT_REL" != "$GEN_REL" ] || fail "the stored release is the first kernel's"
assert_contains "$(q "$DB" "SELECT kernel_cmdline FROM variant WHERE name = 'rt'")" \
	"schedrig_kexec_test=1" "kernel_cmdline stored for the kexec variant"
n=$(q "$DB" "SELECT count(*) FROM sample s JOIN load_instance li ON li.id = s.load_instance_id
	JOIN iteration i ON i.id = li.iteration_id JOIN variant v ON v.id = i.variant_id
	WHERE v.name = 'rt' AND s.metric = 'max_latency'")
[ "$n" -ge 2 ] || fail "expected >= 2 cyclictest max_latency samples under rt, got $n"

# The guest itself: a new boot on the RT kernel with the appended word, and
# the console shows both boots of the one qemu process.
assert_eq "$(guest_ssh uname -r)" "$RT_REL" "release running in the guest after the run"
second_boot_id=$(guest_ssh cat /proc/sys/kernel/random/boot_id)
[ "$second_boot_id" != "$first_boot_id" ] || fail "boot_id unchanged: no new boot"
assert_contains "$(guest_ssh cat /proc/cmdline)" "schedrig_kexec_test=1" "guest /proc/cmdline"
grep -q "kexec-test-init: booted $GEN_REL: " "$CONSOLE" || fail "console: no first boot of $GEN_REL"
grep -q "kexec-test-init: booted $RT_REL: .*schedrig_kexec_test=1" "$CONSOLE" ||
	{ tail -n 40 "$CONSOLE"; fail "console: no second boot of $RT_REL with the append"; }
grep -q "Linux version $RT_REL " "$CONSOLE" || fail "console: no 'Linux version $RT_REL' banner"
say "console: $GEN_REL booted, then $RT_REL (kexec), cmdline with schedrig_kexec_test=1"

# --- a kexec kernel that is not a bzImage: refused before anything is sent
printf 'not a kernel\n' >"$WORK/not-a-bzImage"
{
	printf 'name: kexec-bad\niterations: 1\nwarmup_s: 0.5\n'
	variant bad "$WORK/not-a-bzImage"
	loads
} >"$WORK/bad.yaml"
say "schedrig run: a kexec kernel that is not a bzImage"
set +e
SCHEDRIG_SSH_CONFIG=$WORK/ssh_config timeout 120 "$SCHEDRIG" run "$WORK/bad.yaml" --db "$DB" \
	>"$WORK/out2" 2>"$WORK/err2"
rc=$?
set -e
cat "$WORK/out2" "$WORK/err2"
assert_eq "$rc" 1 "exit status with a kernel that is not a bzImage"
assert_contains "$(cat "$WORK/err2")" \
	"variant bad: kexec kernel $WORK/not-a-bzImage: not a readable bzImage" "not-a-bzImage message"
assert_eq "$(q "$DB" "SELECT count(*) FROM event WHERE kind = 'failure'
	AND message LIKE 'variant bad: kexec kernel %not a readable bzImage%'")" 1 "failure event of bad"
assert_eq "$(guest_ssh uname -r)" "$RT_REL" "the guest still runs the RT kernel"
assert_eq "$(guest_ssh 'ls /tmp/schedrig')" "bin" "nothing sent for the bad variant"

# --- nothing of the rig left: no ssh master or agent naming the temp dir
kill "$QEMU_PID"
wait "$QEMU_PID" 2>/dev/null || true
QEMU_PID=
left=$(for p in /proc/[0-9]*; do
	[ "${p#/proc/}" = $$ ] && continue
	tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -F "$WORK/" || true
done)
[ -z "$left" ] || fail "processes left behind: $left"
say "ok ($(($(date +%s) - t1)) s since the rig started)"
echo "kexec: ok"
