#!/bin/bash
# timeout_s: 600
# The shipped series apply exactly to the linux-source-6.12 the archive
# serves (the installed one): each of configs/patches/*-6.12/ in name
# order with `patch -p1 --fuzz=0` (as the rig applies them), every hunk
# where its header says (no offset, no fuzz), to the files it touches
# taken from /usr/src/linux-source-6.12.tar.xz. Also says which version
# that is. 20 s to 3 min here (the tarball is read once per series;
# 3 min at load average 35).
source "$(dirname "$0")/../integration/lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
TARBALL=/usr/src/linux-source-6.12.tar.xz
[ -r "$TARBALL" ] || skip "linux-source-6.12 is not installed"
version=$(dpkg-query -W -f '${Version}' linux-source-6.12)
echo "[patches] linux-source-6.12 $version"
for series in "$TOP"/configs/patches/*-6.12/; do
	name=$(basename "$series")
	tree=$WORK/$name
	mkdir -p "$tree"
	# The files the series touches (-p1 paths of its "+++ " lines that exist).
	mapfile -t files < <(sed -n 's|^--- a/\([^\t]*\).*|linux-source-6.12/\1|p' "$series"/*.patch | sort -u)
	tar -xJf "$TARBALL" -C "$tree" "${files[@]}" 2>/dev/null ||
		fail "$name: the files it patches are not all in $TARBALL"
	for p in "$series"/*.patch; do
		out=$(cd "$tree/linux-source-6.12" && patch -p1 --fuzz=0 --forward --batch \
			--no-backup-if-mismatch <"$p" 2>&1) ||
			fail "$name: $(basename "$p") does not apply with fuzz 0 to $version: $out"
		! grep -E 'offset|fuzz|FAILED' <<<"$out" ||
			fail "$name: $(basename "$p") applies only with an offset or fuzz to $version: $out"
	done
	echo "[patches] $name: $(ls "$series"/*.patch | wc -l) patches apply exactly"
done
