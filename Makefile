# schedrig — build, tests and benchmarks.
#   make              ./schedrig and ./schedrig-agent (the guest side, static)
#   make check        unit (cmocka) and integration tests; ends "N passed, N failed, N skipped"
#   make check SANITIZE=1   the same under ASan+UBSan (objects in build-san/)
#   make check-slow   the slow tests (tests/slow/*.sh: kexec, LAVA; not part of check)
#   make check-kernels kernels built from Debian's 6.12 source, booted (tests/kernels/*.sh)
#   make check-seeds  the seed experiments in qemu guests (tests/seeds/*.sh)
#   make run          the embedded default experiment on the running kernel
#   make bench        benchmarks of the rig itself (not part of check)
#   make fuzz         libFuzzer targets (clang, build-fuzz/), FUZZ_SECONDS each (300)
#   make install      schedrig, schedrig-agent and the man page into $(DESTDIR)$(PREFIX) (/usr/local)

PKGS     := yaml-0.1 sqlite3 gsl libcurl jansson libcrypto zlib
CC       ?= cc
CFLAGS   ?= -O2 -g
VERSION  := 0.1.0
CFLAGS   += -DSCHEDRIG_VERSION=\"$(VERSION)\"
# Every source folder is on the include path: a header is named by its file
# name alone, wherever its subsystem folder is (README, Layout).
SRC_DIRS := harness $(patsubst %/,%,$(wildcard harness/*/)) loads reports
CFLAGS   += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror $(addprefix -I,$(SRC_DIRS)) \
            $(shell pkg-config --cflags $(PKGS))
LDLIBS   += $(shell pkg-config --libs $(PKGS)) -lm

# The agent, schedrig-agent (harness/agent_main.c): the program that runs
# where a variant's kernel runs (the init and agent of a qemu or LAVA
# guest, the agent on an ssh machine), linked statically with only what it
# needs: libc, libm, libyaml (it builds the plan from the config text the
# plan file carries, with the host's own code), jansson (the protocol's
# JSON), zlib and libcrypto's plain SHA-256 (the host fingerprint's digest
# of /proc/config.gz; not EVP, which is 3.3 MB static). Its sources are the guest side of the house, by layer: every file
# of the folders in AGENT_DIRS but those in AGENT_HOST_ONLY, and the files
# in AGENT_FILES. A new file in one of those folders is in it; a guest-side
# file elsewhere is added to AGENT_FILES. A file among them that calls the
# store, libcurl or GSL breaks the link (undefined reference to store_...):
# that code is host side (HACKING.md, The agent).
AGENT_DIRS      := harness/lib harness/types harness/sched loads harness/config harness/knobs \
                   harness/host harness/monitor harness/trace harness/iteration harness/agent
# The host side among them: the knob journal's database rows, and the
# trace analysis (the guest only captures a trace's text: trace_capture).
AGENT_HOST_ONLY := harness/knobs/knob_journal.c harness/trace/trace_text.c \
                   harness/trace/trace_analysis.c harness/trace/trace_report.c \
                   harness/trace/trace_perfetto.c harness/trace/trace_gz.c
AGENT_FILES     := harness/agent_main.c
AGENT_LIBS      := -lyaml -ljansson -lcrypto -lz -lm

ifeq ($(SANITIZE),1)
BUILD    := build-san
CFLAGS   += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS  += -fsanitize=address,undefined
# (ASan's runtime cannot be linked statically: this agent is dynamic.)
AGENT_LDFLAGS := $(LDFLAGS)
else
BUILD    := build
AGENT_LDFLAGS := $(LDFLAGS) -static
endif

AGENT_SRC := $(filter-out $(AGENT_HOST_ONLY),$(wildcard $(addsuffix /*.c,$(AGENT_DIRS)))) \
             $(AGENT_FILES)
AGENT_OBJ := $(AGENT_SRC:%.c=$(BUILD)/%.o)
LIB_SRC  := $(filter-out harness/main.c $(AGENT_FILES),$(wildcard $(addsuffix /*.c,$(SRC_DIRS))))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

all: schedrig schedrig-agent

# Copy then rename, so a ./schedrig that is running is replaced, not written.
schedrig schedrig-agent: %: $(BUILD)/%
	cp $< $@.new && mv -f $@.new $@

# Static (no library to pack into a guest or copy to a machine) and
# stripped: the guest gets it for every boot.
$(BUILD)/schedrig-agent: $(AGENT_OBJ)
	$(CC) $(AGENT_LDFLAGS) -o $@ $^ $(AGENT_LIBS)
	$(if $(filter 1,$(SANITIZE)),,strip $@)

$(BUILD)/schedrig: $(BUILD)/harness/main.o $(BUILD)/libschedrig.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libschedrig.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(BUILD) -MMD -MP -c -o $@ $<

# The schema is embedded in the binary as a C string literal.
$(BUILD)/schema.inc: results-schema/schema.sql
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/.*/"&\\n"/' $< > $@

$(BUILD)/harness/store/store.o: $(BUILD)/schema.inc

# The guest's kernel config fragment (config: [..., guest]) is embedded too.
$(BUILD)/guest_config.inc: configs/kernel/guest.config
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/.*/"&\\n"/' $< > $@

$(BUILD)/harness/kbuild/kbuild_kernel.o: $(BUILD)/guest_config.inc

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libschedrig.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libschedrig.a $(LDLIBS) -lcmocka

check: $(BUILD)/schedrig $(BUILD)/schedrig-agent $(UNIT_BIN) $(BUILD)/bench/bisect_sim \
       $(BUILD)/bench/ratio_ci
	SCHEDRIG=$(CURDIR)/$(BUILD)/schedrig BUILD=$(CURDIR)/$(BUILD) TESTS="$(TESTS)" tests/run-tests

# Slow tests: real kexec between two Debian kernels in a TCG guest, and a
# LAVA server on 127.0.0.1 (tests/lava/lava-up) running boot: lava jobs (minutes).
check-slow: $(BUILD)/schedrig $(BUILD)/schedrig-agent
	SCHEDRIG=$(CURDIR)/$(BUILD)/schedrig BUILD=$(CURDIR)/$(BUILD) TESTS="$(TESTS)" tests/run-tests tests/slow

# Kernels from source, for real: Debian's linux-source-6.12 built twice
# (vanilla, latency-nice series), booted in qemu (tens of minutes; not part
# of CI's line, see README).
check-kernels: $(BUILD)/schedrig $(BUILD)/schedrig-agent
	SCHEDRIG=$(CURDIR)/$(BUILD)/schedrig BUILD=$(CURDIR)/$(BUILD) TESTS="$(TESTS)" tests/run-tests tests/kernels

# The seed experiments at their smallest size, kernel against kernel in TCG
# guests (tens of minutes; not part of CI's line, see README).
check-seeds: $(BUILD)/schedrig $(BUILD)/schedrig-agent
	SCHEDRIG=$(CURDIR)/$(BUILD)/schedrig BUILD=$(CURDIR)/$(BUILD) TESTS="$(TESTS)" tests/run-tests tests/seeds

# Debian packaging runs make install DESTDIR=debian/tmp PREFIX=/usr.
# SCHEDRIG_BIN installs another build of the binary (tests: build-san's).
PREFIX       ?= /usr/local
SCHEDRIG_BIN ?= schedrig

install: $(SCHEDRIG_BIN) $(SCHEDRIG_BIN)-agent
	install -D -m 0755 $(SCHEDRIG_BIN) $(DESTDIR)$(PREFIX)/bin/schedrig
	install -D -m 0755 $(SCHEDRIG_BIN)-agent $(DESTDIR)$(PREFIX)/bin/schedrig-agent
	install -D -m 0644 docs/schedrig.1 $(DESTDIR)$(PREFIX)/share/man/man1/schedrig.1

run: schedrig
	@mkdir -p results
	./schedrig run configs/hackbench-cyclictest.yaml --db results/schedrig.db

# Benchmark programs: bench/NAME.c -> build/bench/NAME (run by bench/*.sh).
BENCH_BIN := $(patsubst bench/%.c,$(BUILD)/bench/%,$(wildcard bench/*.c))

$(BUILD)/bench/%: bench/%.c $(BUILD)/libschedrig.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libschedrig.a $(LDLIBS)

bench: schedrig schedrig-agent $(BENCH_BIN)
	BUILD=$(CURDIR)/$(BUILD) bench/run-bench

# libFuzzer targets (clang): tests/fuzz/fuzz_NAME.c -> build-fuzz/fuzz_NAME,
# linked against the library sources built with clang and coverage, ASan and
# UBSan (not the gcc-built libschedrig.a). `make fuzz` replays the kept
# regression inputs, then runs each target for FUZZ_SECONDS.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 300
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS  := -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) -DSCHEDRIG_VERSION=\"$(VERSION)\" \
                -std=c11 -D_GNU_SOURCE -Wall -Wextra $(addprefix -I,$(SRC_DIRS)) -Ibuild-fuzz \
                $(shell pkg-config --cflags $(PKGS))
FUZZ_OBJ     := $(LIB_SRC:%.c=build-fuzz/%.o)
FUZZ_BIN     := $(patsubst tests/fuzz/%.c,build-fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))

build-fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

build-fuzz/schema.inc: results-schema/schema.sql
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/.*/"&\\n"/' $< > $@

build-fuzz/harness/store/store.o: build-fuzz/schema.inc

build-fuzz/guest_config.inc: configs/kernel/guest.config
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/.*/"&\\n"/' $< > $@

build-fuzz/harness/kbuild/kbuild_kernel.o: build-fuzz/guest_config.inc

build-fuzz/libschedrig.a: $(FUZZ_OBJ)
	rm -f $@
	ar rcs $@ $^

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c build-fuzz/libschedrig.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< build-fuzz/libschedrig.a $(LDLIBS)

fuzz-build: $(FUZZ_BIN)

fuzz: fuzz-build
	tests/fuzz/run-fuzz $(FUZZ_SECONDS)

clean:
	rm -rf build build-san build-fuzz schedrig schedrig-agent

.PHONY: all check check-slow check-kernels check-seeds install run bench clean fuzz fuzz-build
-include $(LIB_OBJ:.o=.d) $(BUILD)/harness/main.d $(BUILD)/harness/agent_main.d
ifneq ($(filter fuzz%,$(MAKECMDGOALS)),)
-include $(FUZZ_OBJ:.o=.d)
endif
