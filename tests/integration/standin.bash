# A stand-in kernel tree for the kernel-build tests (sourced after lib.sh,
# not run): make_standin DIR writes a git repository whose Makefile answers
# tinyconfig, olddefconfig and bzImage as the kernel's does, out of the
# tree in $(O) (kbuild's O=; in the tree without it), and writes into the
# bzImage what each input of a real kernel build changes in a real image:
# the .config (the fragments, olddefconfig's own additions: the compiler's
# version text like CONFIG_CC_VERSION_TEXT, an option that depends on a
# tool being there like CONFIG_RUST_IS_AVAILABLE, here a file in $HOME),
# KCFLAGS, a host tool built with $(HOSTCC) and run (kconfig's and fixdep's
# kind), every kernel/sched/*.c preprocessed with $(CC) (so an #include'd
# header, tracked or not, counts; __has_include picks up a new one), and
# compiled with $(CC) (through ccache when the rig adds it), a binary
# firmware file, and what $(LD), $(AS) and $(PAHOLE) say they are. standin_patch
# writes a patch of kernel/sched/fair.c. Objects in
# $(O) are rebuilt from their sources by make's mtime rules, as kbuild's.
make_standin() {
	local TREE=$1
	mkdir -p "$TREE/kernel/sched" "$TREE/include" "$TREE/scripts"
	cat >"$TREE/Makefile" <<'EOF'
# A stand-in for the kernel's Makefile (schedrig's tests/integration/standin.bash).
O ?= .
CC = gcc
HOSTCC = gcc
LD = ld
AS = as
PAHOLE = pahole
SRCS := $(sort $(wildcard kernel/sched/*.c))
IS := $(SRCS:%.c=$(O)/%.i)
HDRS := $(wildcard include/*.h)
.PHONY: tinyconfig olddefconfig bzImage
tinyconfig:
	printf 'CONFIG_64BIT=y\n# CONFIG_SMP is not set\nCONFIG_HZ=100\n' > $(O)/.config
olddefconfig:
	grep -v '^CONFIG_NOT_IN_TREE' $(O)/.config > $(O)/.config.new
	printf 'CONFIG_CC_VERSION_TEXT="%s"\n' "$$($(CC) --version | head -1)" >> $(O)/.config.new
	if [ -f "$$HOME/.standin-rust" ]; then echo CONFIG_RUST_IS_AVAILABLE=y >> $(O)/.config.new; fi
	mv $(O)/.config.new $(O)/.config
$(O)/scripts/gen: scripts/gen.c
	@mkdir -p $(dir $@)
	$(HOSTCC) -o $@ $<
$(O)/%.i: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(KCFLAGS) -Iinclude -E -P $< -o $@
	$(CC) $(KCFLAGS) -Iinclude -c $< -o $(@:.i=.o)
bzImage: $(O)/scripts/gen $(IS)
	@echo "  CC      kernel/sched/core.o"
	mkdir -p $(O)/arch/x86/boot
	{ cat $(O)/.config; echo "KCFLAGS=$(KCFLAGS)"; $(O)/scripts/gen; cat $(IS); \
	  cat firmware.bin; $(LD) --version 2>/dev/null | head -1; \
	  $(AS) --version 2>/dev/null | head -1; \
	  $(PAHOLE) --version 2>/dev/null || echo "no pahole"; } > $(O)/arch/x86/boot/bzImage
EOF
	cat >"$TREE/kernel/sched/core.c" <<'EOF'
#if __has_include("extra.h")
#include "extra.h"
#endif
#if __has_include("local.h")
#include "local.h"
#endif
#ifndef WRAPPED
#define WRAPPED 0
#endif
int slice = 3;
int lag = 1;
int wrapped = WRAPPED;
EOF
	printf 'int fair = 1;\nint weight = 1024;\n' >"$TREE/kernel/sched/fair.c"
	printf 'int main(void) { return !__builtin_printf("gen %%d\\n", GEN_VALUE + 0); }\n' \
		>"$TREE/scripts/gen.c"
	sed -i '1i #ifndef GEN_VALUE\n#define GEN_VALUE 1\n#endif' "$TREE/scripts/gen.c"
	printf '\x00\x01\x02firmware\xff' >"$TREE/firmware.bin"
	printf 'local.h\n' >"$TREE/.gitignore"
	git -C "$TREE" init -q -b master
	git -C "$TREE" add -A
	git -C "$TREE" -c user.name=t -c user.email=t@example.org -c commit.gpgsign=false \
		commit -q -m "stand-in tree"
}

# standin_patch FROM TO SUBJECT: a format-patch message changing fair.c's
# first line FROM into TO.
standin_patch() {
	cat <<EOF
From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001
From: t <t@example.org>
Subject: [PATCH] $3

---
--- a/kernel/sched/fair.c
+++ b/kernel/sched/fair.c
@@ -1,2 +1,2 @@
-$1
+$2
 int weight = 1024;
EOF
}
