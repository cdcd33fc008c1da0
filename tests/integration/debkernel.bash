# Debian's packaged kernels for the qemu tests (sourced after lib.sh, not
# run): deb_kernel 6.1 or deb_kernel 6.12 prints the newest unsigned amd64
# linux-image package of that series in the apt lists (apt-get update once
# when there is none), the name a config's kernel: takes.
for need in qemu-system-x86_64 dpkg-deb apt-get apt-cache; do
	command -v "$need" >/dev/null || fail "$need is not installed (scripts/install-deps)"
done
[ -x /bin/busybox ] || fail "/bin/busybox is missing (busybox-static; scripts/install-deps)"

deb_kernel() {
	local re pkg
	case "$1" in
	6.1) re='^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$' ;;
	6.12) re='^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$' ;;
	*) fail "deb_kernel: no series $1" ;;
	esac
	pkg=$(apt-cache search --names-only "$re" | awk '{print $1}' | sort -V | tail -1)
	if [ -z "$pkg" ]; then
		apt-get update -qq >/dev/null 2>&1 || true
		pkg=$(apt-cache search --names-only "$re" | awk '{print $1}' | sort -V | tail -1)
	fi
	[ -n "$pkg" ] || fail "no Debian $1 kernel package ($re) in the apt lists"
	echo "$pkg"
}
