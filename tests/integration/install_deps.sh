#!/bin/bash
# scripts/install-deps installs what the shipped configs need: every load
# tool of configs/*.yaml is installed (check-config names none missing),
# and a config with kernbench gets a Debian kernel source tarball and the
# tools a kernel build needs (flex, bison, bc, libelf-dev, libssl-dev).
source "$(dirname "$0")/lib.sh"
TOP=$(cd "$TESTS_DIR/.." && pwd)
packages=$(sed -n '/^PACKAGES="/,/"$/p' "$TOP/scripts/install-deps" | tr -d '"' | sed 's/^PACKAGES=//')

installed() {
	dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q "install ok installed"
}
for cfg in "$TOP"/configs/*.yaml; do
	# A preflight refusal ("CONFIG: variant V...") is about this kernel (a
	# config for a latency_nice kernel), not about what is installed.
	out=$("$SCHEDRIG" check-config "$cfg" 2>&1) ||
		case "$out" in *"$cfg: variant "*) ;; *) fail "$cfg does not check: $out" ;; esac
	case "$out" in *"not installed here"*) fail "$cfg: $out" ;; esac
done
if grep -q 'tool: kernbench' "$TOP"/configs/*.yaml; then
	for p in linux-source-6.12 flex bison bc libelf-dev libssl-dev make gcc xz-utils; do
		case " $(echo $packages) build-essential " in
		*" $p "*) ;;
		*) [ "$p" = make ] || [ "$p" = gcc ] || fail "scripts/install-deps lacks $p (kernbench)" ;;
		esac
		installed "$p" || fail "$p is not installed (run scripts/install-deps)"
	done
	ls /usr/src/linux-source-*.tar.xz >/dev/null 2>&1 || fail "no /usr/src/linux-source-*.tar.xz"
fi
echo ok
