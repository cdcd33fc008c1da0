# A tiny kernel-like tree for kernbench (sourced after lib.sh, not run):
# make_tiny_tree DIR writes a Makefile with the kernel's clean, config,
# prepare and vmlinux targets (and crash, a compiler killed by SIGKILL;
# killedcc, gcc's killed line in a recipe whose failure make ignores)
# compiling a few C files, so a build takes a second, not minutes.
make_tiny_tree() {
	local TREE=$1 f name
	mkdir -p "$TREE/init" "$TREE/kernel" "$TREE/mm"
	cat > "$TREE/Makefile" <<'MAKE'
# A tiny kernel-like tree: the targets kernbench uses, a few C files.
ARCH ?= x86
OBJS := init/main.o kernel/sched.o kernel/fork.o mm/page_alloc.o
.PHONY: clean tinyconfig allnoconfig defconfig olddefconfig crash killedcc prepare
tinyconfig allnoconfig defconfig:
	@echo "configuring $@ for ARCH=$(ARCH)"
	printf 'CONFIG_ARCH=$(ARCH)\nCONFIG_NAME=$@\n' > .config
olddefconfig:
	test -f .config
	@echo "configuring olddefconfig"
%.o: %.c .config
	$(CC) -O2 -c -o $@ $<
vmlinux: $(OBJS)
	$(CC) -o $@ $(OBJS)
clean:
	rm -f $(OBJS) vmlinux
prepare: .config
	@echo "preparing for ARCH=$(ARCH)"
crash: init/main.o
	sh -c 'kill -KILL $$$$'
killedcc:
	-@sh -c 'echo "gcc: fatal error: Killed signal terminated program cc1" >&2; exit 1'
MAKE
	for f in kernel/sched kernel/fork mm/page_alloc; do
		name=$(basename "$f")
		cat > "$TREE/$f.c" <<C
unsigned long ${name}_work(unsigned long n)
{
	unsigned long h = 1469598103934665603UL;
	for (unsigned long i = 0; i < n; i++)
		h = (h ^ i) * 1099511628211UL;
	return h;
}
C
	done
	cat > "$TREE/init/main.c" <<'C'
#include <stdio.h>
unsigned long sched_work(unsigned long n);
unsigned long fork_work(unsigned long n);
unsigned long page_alloc_work(unsigned long n);
int main(void)
{
	printf("%lu\n", sched_work(10) ^ fork_work(10) ^ page_alloc_work(10));
	return 0;
}
C
}
