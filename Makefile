# schedrig — build, tests and benchmarks.
#   make              ./schedrig
#   make check        unit (cmocka) and integration tests; ends "N passed, N failed"
#   make check SANITIZE=1   the same under ASan+UBSan (objects in build-san/)
#   make run          the embedded default experiment on the running kernel
#   make bench        benchmarks of the rig itself (not part of check)

PKGS     := yaml-0.1 sqlite3 gsl libcurl jansson
CC       ?= cc
CFLAGS   ?= -O2 -g
VERSION  := 0.1.0
CFLAGS   += -DSCHEDRIG_VERSION=\"$(VERSION)\"
CFLAGS   += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Iharness -Iloads -Ireports \
            $(shell pkg-config --cflags $(PKGS))
LDLIBS   += $(shell pkg-config --libs $(PKGS)) -lm

ifeq ($(SANITIZE),1)
BUILD    := build-san
CFLAGS   += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS  += -fsanitize=address,undefined
else
BUILD    := build
endif

LIB_SRC  := $(filter-out harness/main.c,$(wildcard harness/*.c harness/variants/*.c loads/*.c reports/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

all: schedrig

schedrig: $(BUILD)/schedrig
	cp $< $@

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

$(BUILD)/harness/store.o: $(BUILD)/schema.inc

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libschedrig.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libschedrig.a $(LDLIBS) -lcmocka

check: $(BUILD)/schedrig $(UNIT_BIN)
	SCHEDRIG=$(CURDIR)/$(BUILD)/schedrig BUILD=$(CURDIR)/$(BUILD) TESTS="$(TESTS)" tests/run-tests

run: schedrig
	@mkdir -p results
	./schedrig run configs/hackbench-cyclictest.yaml --db results/schedrig.db

bench: schedrig
	bench/run-bench

clean:
	rm -rf build build-san schedrig

.PHONY: all check run bench clean
-include $(LIB_OBJ:.o=.d) $(BUILD)/harness/main.d
