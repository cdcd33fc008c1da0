#!/bin/bash
# The kernel cache's invariant, one row per input a user can change: a
# cache hit is the image a cold build of the same inputs gives. Each row
# builds a base kernel b and k = b + one patch (k from b's objects, as a
# patched variant builds) in a stand-in tree (standin.bash: its bzImage
# holds what each input changes), changes one input, builds again with the
# same cache (warm), builds cold with an empty cache elsewhere, and
# compares both images byte for byte; a row whose change must matter also
# checks that the image changed. A variable of the environment that kbuild
# reads is refused instead (the row checks the message). The last row
# builds through the default relative --db (results/schedrig.db) with
# ccache as the compiler: every path given to ccache must be absolute.
# Every row runs; the failing ones are listed at the end. About 40 s here.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/standin.bash"

# A compiler, host compiler, linker, assembler and pahole wrapper, version $2.
wrappers() { # DIR VERSION
	mkdir -p "$1"
	cat >"$1/cc" <<EOF
#!/bin/sh
# a compiler wrapper, version $2
case "\$1" in -v) echo "wrapcc version $2" >&2; exec gcc -v ;; esac
exec gcc -DWRAPPED=$2 "\$@"
EOF
	cat >"$1/hostcc" <<EOF
#!/bin/sh
# a host compiler wrapper, version $2
case "\$1" in -v) echo "wraphostcc version $2" >&2; exec gcc -v ;; esac
exec gcc -DGEN_VALUE=$2 "\$@"
EOF
	printf '#!/bin/sh\necho "wrapld %s"\n' "$2" >"$1/ld"
	printf '#!/bin/sh\necho "wrapas %s"\n' "$2" >"$1/as"
	printf '#!/bin/sh\necho "v1.2%s"\n' "$2" >"$1/pahole"
	chmod +x "$1/cc" "$1/hostcc" "$1/ld" "$1/as" "$1/pahole"
}

# The row's config: b and k (b + the series), make_args from MAKE_ARGS.
write_config() {
	local args="" a
	for a in "${MAKE_ARGS[@]}"; do args="$args\"$a\", "; done
	cat >"$ROW/k.yaml" <<EOF
name: kbuild-invariant
kernels:
  b: {source: $SRC, config: [tinyconfig, $ROW/frag1.config, $ROW/frag2.config], make_args: [${args%, }]}
  k: {base: b, patches: [$ROW/series/]}
variants:
  - {name: vb, boot: qemu, kernel: {build: b}}
  - {name: vk, boot: qemu, kernel: {build: k}}
loads: [{tool: hackbench}]
EOF
}

setup_row() {
	ROW=$WORK/$1
	SRC=$ROW/linux
	MAKE_ARGS=()
	mkdir -p "$ROW/series" "$ROW/home" "$ROW/a" "$ROW/b"
	make_standin "$SRC"
	wrappers "$ROW/bin" 1
	standin_patch "int fair = 1;" "int fair = 2;" "sched: Fair two" >"$ROW/series/0001-two.patch"
	printf 'CONFIG_HZ=250\n' >"$ROW/frag1.config"
	printf '# CONFIG_SWAP is not set\n' >"$ROW/frag2.config"
}

# build DIR [--db PATH]: schedrig build in DIR (with ENV_SET, NAME=VALUE,
# in its environment when set); sets IMG_b and IMG_k (the bzImages'
# sha256) and OUT; returns schedrig's exit status.
build() {
	local dir=$1 rc=0
	shift
	OUT=$(cd "$dir" && env ${ENV_SET:-} HOME="$ROW/home" "$SCHEDRIG" build "$ROW/k.yaml" "$@" 2>&1) ||
		rc=$?
	IMG_b=$(sed -n 's/^kernel b: \(built\|cached\) \([^ ]*\) .*/\2/p' <<<"$OUT")
	IMG_k=$(sed -n 's/^kernel k: \(built\|cached\) \([^ ]*\) .*/\2/p' <<<"$OUT")
	if [ "$rc" = 0 ] && { [ -z "$IMG_b" ] || [ -z "$IMG_k" ]; }; then
		rc=99
	elif [ "$rc" = 0 ]; then
		IMG_b=$(sha256sum <"$IMG_b")
		IMG_k=$(sha256sum <"$IMG_k")
	fi
	return "$rc"
}

# The rows: NAME, whether the change must change an image, the change.
setup_same_size_edit() { rm -rf "$SRC/.git"; } # a plain tree: no git to ask
change_same_size_edit() { # other bytes at the same size, the mtime set back
	cp -p "$SRC/kernel/sched/core.c" "$ROW/core.c.orig"
	sed -i 's/int slice = 3;/int slice = 4;/' "$SRC/kernel/sched/core.c"
	touch -r "$ROW/core.c.orig" "$SRC/kernel/sched/core.c"
}
change_same_size_edit_git() { change_same_size_edit; } # in the git tree
change_untracked_header() { echo "int extra = 1;" >"$SRC/kernel/sched/extra.h"; }
change_untracked_c() { echo "int brand_new = 1;" >"$SRC/kernel/sched/new.c"; }
change_ignored_file() { echo "int local = 1;" >"$SRC/kernel/sched/local.h"; }
setup_binary_diff() { printf '\x00\x01\x02firmware\xfe' >"$SRC/firmware.bin"; }
change_binary_diff() { printf '\x00\x01\x02firmware\xfd' >"$SRC/firmware.bin"; }
setup_outer_repo() { # a plain tree unpacked inside a project's checkout
	rm -rf "$SRC/.git"
	echo project >"$ROW/README"
	git -C "$ROW" init -q -b master
	git -C "$ROW" add README
	git -C "$ROW" -c user.name=t -c user.email=t@example.org -c commit.gpgsign=false \
		commit -q -m project
}
change_outer_repo() { sed -i 's/int lag = 1;/int lag = 2;/' "$SRC/kernel/sched/core.c"; }
change_tracked_edit() {
	sed -i 's/int lag = 1;/int lag = 22;/' "$SRC/kernel/sched/core.c"
	git -C "$SRC" -c user.name=t -c user.email=t@example.org -c commit.gpgsign=false \
		commit -q -am edit
}
change_patch_bytes() {
	standin_patch "int fair = 1;" "int fair = 3;" "sched: Fair three" >"$ROW/series/0001-two.patch"
}
setup_patch_order() {
	cat >"$ROW/series/0002-new-file.patch" <<'EOF'
From 2222222222222222222222222222222222222222 Mon Sep 17 00:00:00 2001
From: t <t@example.org>
Subject: [PATCH] sched: A new file

---
--- /dev/null
+++ b/kernel/sched/added.c
@@ -0,0 +1 @@
+int added = 1;
EOF
}
change_patch_order() {
	mv "$ROW/series/0001-two.patch" "$ROW/series/0003-two.patch"
}
change_config_fragment() { printf 'CONFIG_HZ=300\n' >"$ROW/frag1.config"; }
setup_config_order() { printf 'CONFIG_HZ=1000\n' >"$ROW/frag2.config"; }
change_config_order() {
	sed -i "s|$ROW/frag1.config, $ROW/frag2.config|$ROW/frag2.config, $ROW/frag1.config|" \
		"$ROW/k.yaml"
}
change_final_config() { touch "$ROW/home/.standin-rust"; }
change_make_args() { MAKE_ARGS=("KCFLAGS=-DSLICE_EXTRA"); write_config; }
setup_compiler() { MAKE_ARGS=("CC=$ROW/bin/cc"); }
change_compiler() { wrappers "$ROW/bin" 2; }
setup_ccache_wrapper() { MAKE_ARGS=("CC=ccache $ROW/bin/cc"); }
change_ccache_wrapper() { wrappers "$ROW/bin" 2; }
setup_hostcc() { MAKE_ARGS=("HOSTCC=$ROW/bin/hostcc"); }
change_hostcc() { wrappers "$ROW/bin" 2; }
setup_linker() { MAKE_ARGS=("LD=$ROW/bin/ld"); }
change_linker() { wrappers "$ROW/bin" 2; }
setup_assembler() { MAKE_ARGS=("AS=$ROW/bin/as"); }
change_assembler() { wrappers "$ROW/bin" 2; }
setup_pahole() { MAKE_ARGS=("PAHOLE=$ROW/bin/pahole"); }
change_pahole() { wrappers "$ROW/bin" 2; }

ROWS=(
	"same_size_edit yes" "same_size_edit_git yes" "untracked_header yes" "untracked_c yes" "ignored_file yes"
	"binary_diff yes" "outer_repo yes" "tracked_edit yes" "patch_bytes yes" "patch_order no"
	"config_fragment yes" "config_order yes" "final_config yes" "make_args yes"
	"compiler yes" "ccache_wrapper yes" "hostcc yes" "linker yes" "assembler yes" "pahole yes"
)
# Variables of the environment kbuild reads: refused, naming make_args:.
ENV_ROWS=(KCFLAGS=-DSLICE_EXTRA ARCH=x86_64 CROSS_COMPILE=x86_64-linux-gnu- LLVM=1
	CC=clang HOSTCC=clang KBUILD_BUILD_USER=me INSTALL_MOD_STRIP=1 LOCALVERSION=-x
	KCONFIG_ALLCONFIG=all.config)

row() { # NAME MATTERS
	setup_row "$1"
	if [ "$1" = ccache_wrapper ] && ! command -v ccache >/dev/null; then
		echo "row ccache_wrapper: no ccache here, left out"
		return 0
	fi
	! declare -F "setup_$1" >/dev/null || "setup_$1"
	write_config
	build "$ROW/a" --db "$ROW/a/schedrig.db" || fail "row $1: the first build: $OUT"
	local b0=$IMG_b k0=$IMG_k
	"change_$1"
	build "$ROW/a" --db "$ROW/a/schedrig.db" || fail "row $1: the warm build: $OUT"
	local bw=$IMG_b kw=$IMG_k warm=$OUT
	build "$ROW/b" --db "$ROW/b/schedrig.db" || fail "row $1: the cold build: $OUT"
	[ "$bw" = "$IMG_b" ] || fail "row $1: b's cached image is not the cold build's: $warm"
	[ "$kw" = "$IMG_k" ] || fail "row $1: k's cached image is not the cold build's: $warm"
	if [ "$2" = yes ] && [ "$b0$k0" = "$bw$kw" ]; then
		fail "row $1: the change changed no image (the row tests nothing)"
	fi
	if [ "$2" = no ]; then
		assert_contains "$warm" "kernel k: built" "row $1: a new key for k"
	fi
}

env_row() { # NAME=VALUE (KCFLAGS builds first: with it set a cache hit
	       # would be stale; the others are refused before anything runs)
	setup_row "env-${1%%=*}"
	write_config
	if [ "${1%%=*}" = KCFLAGS ]; then
		build "$ROW/a" --db "$ROW/a/schedrig.db" || fail "env KCFLAGS: the first build: $OUT"
	fi
	local rc=0
	ENV_SET=$1 build "$ROW/a" --db "$ROW/a/schedrig.db" || rc=$?
	if [ "$rc" = 2 ]; then
		assert_contains "$OUT" "environment variable $1 is set" "env ${1%%=*}: refused"
		case "$1" in
		KBUILD_BUILD_*) assert_contains "$OUT" "the rig sets it itself" "env ${1%%=*}" ;;
		*) assert_contains "$OUT" "make_args: [\"$1\"]" "env ${1%%=*}: the config key" ;;
		esac
		return 0
	fi
	# Not refused: it must be keyed, so the cache gives a cold build's image.
	[ "$rc" = 0 ] || fail "env ${1%%=*}: the build with it set failed: $OUT"
	local warm=$IMG_b$IMG_k
	ENV_SET=$1 build "$ROW/b" --db "$ROW/b/schedrig.db" || fail "env ${1%%=*}: cold: $OUT"
	[ "$warm" = "$IMG_b$IMG_k" ] || fail "env ${1%%=*}: neither refused nor keyed"
}

# The default relative --db with ccache: CCACHE_BASEDIR and every path
# make and ccache get are absolute.
relative_db_row() {
	setup_row relative-db
	write_config
	command -v ccache >/dev/null || { echo "relative --db: no ccache here, left out"; return 0; }
	build "$ROW" || fail "a build through the default relative --db with ccache: $OUT"
	assert_contains "$OUT" "kernel b: built $ROW/results/cache/builds/" "the entry's absolute path"
	grep -q "CC=ccache gcc" "$ROW/results/cache/builds/"*/build.log ||
		fail "ccache was not the compiler: $(cat "$ROW/results/cache/builds/"*/build.log)"
	change_same_size_edit
	build "$ROW" || fail "the warm build through the relative --db: $OUT"
	local warm=$IMG_k
	build "$ROW/b" --db "$ROW/b/schedrig.db" || fail "the cold build: $OUT"
	[ "$warm" = "$IMG_k" ] || fail "through the relative --db: the cached image is stale"
}

failed=()
for r in "${ROWS[@]}"; do
	# shellcheck disable=SC2086
	(row $r) || failed+=("${r%% *}")
done
for r in "${ENV_ROWS[@]}"; do
	(env_row "$r") || failed+=("env:${r%%=*}")
done
(relative_db_row) || failed+=("relative-db")
[ ${#failed[@]} = 0 ] || fail "rows that broke the invariant: ${failed[*]}"
