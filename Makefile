# PTO-AS toolchain - GNU Make build.
#   make              build build/pto-as and build/pto-run
#   make test         unit tests (Criterion) + golden, verifier, round-trip and error tests
#   make demo         build and run a sample against its expected output
#   make check-asan   the whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer
#   make install PREFIX=/usr/local DESTDIR=   (tools and man pages)
#   make lib          build/libpto.so, the shared library behind the Python package (api/pto.h)
#   make install-python   installs the Python package `pto` (python/) with the library, offline
#   make clean
# Generated sources, objects and binaries all go to $(BUILD); nothing generated is committed.

BUILD   ?= build
PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
RE2C    ?= re2c
BISON   ?= bison
PYTHON  ?= /usr/bin/python3

OPT      ?= -O2
WARN     := -Wall -Wextra -Werror
# No contraction or reassociation: every seed op is a sequence of single IEEE operations.
FPFLAGS  := -ffp-contract=off -fno-fast-math
CFLAGS   ?=
CPPFLAGS += -Iir -Ilexer -Iparser -Iverifier -Iinterp -Iapi -I$(BUILD)/gen
ALL_CFLAGS = -std=c17 $(WARN) $(OPT) -g $(FPFLAGS) $(OPT_KERNELS) $(SANFLAGS) $(CFLAGS)
LDLIBS  += -lm

VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
CPPFLAGS += -DPTO_VERSION='"$(VERSION)"'

# ---- sources --------------------------------------------------------------------------------
IR_SRCS     := $(wildcard ir/*.c)
FRONT_SRCS  := $(wildcard lexer/*.c parser/*.c)
VERIFY_SRCS := $(wildcard verifier/*.c)
INTERP_SRCS := $(wildcard interp/*.c)
GEN_SRCS    := $(if $(wildcard lexer/lexer.re),$(BUILD)/gen/lexer.c) $(if $(wildcard parser/parser.y),$(BUILD)/gen/parser.c)
UNIT_SRCS   := $(wildcard tests/unit/*.c)
API_SRCS    := $(wildcard api/*.c)

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
IR_OBJS     := $(call obj,$(IR_SRCS))
FRONT_OBJS  := $(call obj,$(FRONT_SRCS)) $(patsubst $(BUILD)/gen/%.c,$(BUILD)/obj/gen/%.o,$(GEN_SRCS))
VERIFY_OBJS := $(call obj,$(VERIFY_SRCS))
INTERP_OBJS := $(call obj,$(INTERP_SRCS))
API_OBJS    := $(call obj,$(API_SRCS))
LIB_OBJS    := $(IR_OBJS) $(FRONT_OBJS) $(VERIFY_OBJS) $(INTERP_OBJS) $(API_OBJS)
# the same sources position-independent, for libpto.so (below)
PIC_OBJS    := $(patsubst $(BUILD)/obj/%,$(BUILD)/pic/%,$(LIB_OBJS))
# PIC_ONLY=1 (check-asan): the archive takes the position-independent objects too, so the library
# is compiled once, not twice
ARCHIVE_OBJS := $(if $(PIC_ONLY),$(PIC_OBJS),$(LIB_OBJS))
LIB         := $(BUILD)/libpto.a

TOOLS := $(BUILD)/pto-as $(BUILD)/pto-run
UNIT  := $(BUILD)/unit-tests

.PHONY: all deps test unit check demo check-asan check-valgrind install uninstall clean bench fuzz lib install-python
all: $(TOOLS)

# ---- dependencies (installs re2c, bison, criterion through apt-get when missing) -------------
DEPS_STAMP := $(BUILD)/.deps-ok
deps: $(DEPS_STAMP)
$(DEPS_STAMP): tools/ensure-deps.sh
	@sh tools/ensure-deps.sh
	@mkdir -p $(BUILD) && touch $@

# ---- generated front end ---------------------------------------------------------------------
$(BUILD)/gen/lexer.c: lexer/lexer.re | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(RE2C) -W -Werror --no-generation-date -o $@ $<

# one bison run makes both files (a grouped target, GNU make 4.3+)
$(BUILD)/gen/parser.c $(BUILD)/gen/parser.h &: parser/parser.y | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(BISON) -Wall -Werror --defines=$(BUILD)/gen/parser.h -o $(BUILD)/gen/parser.c $<

# Everything that may include the generated parser header waits for it.
PARSER_HDR := $(if $(wildcard parser/parser.y),$(BUILD)/gen/parser.h)
$(LIB_OBJS) $(BUILD)/obj/tools/pto-as.o $(BUILD)/obj/tools/pto-run.o: | $(PARSER_HDR)

# ---- compile ---------------------------------------------------------------------------------
$(BUILD)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# Kernel files: -O3 lets the compiler vectorise the element loops, -fno-trapping-math lets it
# compute both arms of a select (no program reads the FP exception flags; FPFLAGS still forbid
# contraction and reassociation, so results stay those of the sequential order).
# KERNEL_OPT: their optimisation level. check-asan sets -O1: the same source, under the sanitizers,
# compiles in a third of the time (the kernel variants inline hundreds of loops each).
KERNEL_OPT   ?= -O3
KERNEL_FILES := kernels kernels_avx2 kernels_avx512 kernels_matmul ops_cube ops_convert ops_reduce kernels_compare
KERNEL_VARIANT_FILES := kernels kernels_avx2 kernels_avx512
$(foreach t,obj pic,$(patsubst %,$(BUILD)/$(t)/interp/%.o,$(KERNEL_FILES))): OPT_KERNELS = $(KERNEL_OPT) -fno-trapping-math
# the kernel variants: sqrt and the like inline (and vectorise); no libm call sets errno there
$(foreach t,obj pic,$(patsubst %,$(BUILD)/$(t)/interp/%.o,$(KERNEL_VARIANT_FILES))): OPT_KERNELS += -fno-math-errno

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -Wno-unused-function -MMD -MP -c $< -o $@

$(LIB): $(ARCHIVE_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/pto-as: $(BUILD)/obj/tools/pto-as.o $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/pto-run: $(BUILD)/obj/tools/pto-run.o $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(UNIT): $(call obj,$(UNIT_SRCS)) $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lcriterion $(LDLIBS)

# ---- shared library (api/pto.h) for the Python package -------------------------------------------
# The same sources compiled position-independent into their own tree ($(BUILD)/pic), with every
# symbol hidden but the PTO_API functions of api/pto.h; the static tools are not affected.
SHLIB    := $(BUILD)/libpto.so
lib: $(SHLIB)

$(PIC_OBJS): | $(PARSER_HDR)

$(BUILD)/pic/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -MMD -MP -c $< -o $@

$(BUILD)/pic/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -Wno-unused-function -MMD -MP -c $< -o $@

$(SHLIB): $(PIC_OBJS)
	$(CC) -shared $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# Installs the Python package with the library inside it (python/setup.py packs $(SHLIB)), offline (Debian's python3-numpy and
# python3-setuptools; no download, no build isolation) for $(PYTHON). PIP_FLAGS: by default
# --break-system-packages for a system Python (Debian 12's pip refuses system installs otherwise,
# PEP 668; the package goes to /usr/local, Debian's own packages are untouched), nothing in a venv.
PIP_FLAGS ?= $(shell $(PYTHON) -c 'import sys; print("" if sys.prefix != sys.base_prefix else "--break-system-packages")' 2>/dev/null)
install-python: $(SHLIB)
	PTO_LIBRARY=$(abspath $(SHLIB)) $(PYTHON) -m pip install --no-build-isolation --no-index $(PIP_FLAGS) ./python

# ---- tests -------------------------------------------------------------------------------------
# `make test`: Criterion prints its own summary; tests/run.sh runs the file-based suites
# (golden outputs, verifier annotations, round trips, error cases) and ends with "N passed, N failed".
unit: $(UNIT)
	$(UNIT) --jobs=2

test: all $(UNIT)
	@status=0; \
	$(UNIT) --jobs=2 || status=1; \
	sh tests/run.sh $(BUILD) || status=1; \
	exit $$status

check: test

# the Python suite (tests/python) loads the shared library
test: $(SHLIB)

demo: all
	$(BUILD)/pto-run samples/tmuls_f32.pto --in arg0=samples/data/tmuls_f32.in.bin \
	    --expect arg1=samples/data/tmuls_f32.expect.bin

# The whole suite again, built with sanitizers into a separate tree.
# The kernel files at -O1 and one position-independent object tree keep its build short.
check-asan:
	$(MAKE) BUILD=$(BUILD)/asan OPT=-O1 KERNEL_OPT=-O1 PIC_ONLY=1 \
	    SANFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" test

check-valgrind: all
	sh tests/valgrind.sh $(BUILD)

bench: all
	@if [ -f bench/Makefile.inc ]; then $(MAKE) -f bench/Makefile.inc BUILD=$(BUILD) run; \
	else echo "bench: no benchmark harness yet (bench/)"; exit 1; fi

# Installs the two tools and their man pages, nothing else (no unit-test binary, no test or fuzz
# library, no static library): tests/install checks the list.
MANDIR  ?= $(PREFIX)/share/man
MAN1    := docs/man/pto-as.1 docs/man/pto-run.1
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(BUILD)/pto-as $(BUILD)/pto-run $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/pto-as $(DESTDIR)$(PREFIX)/bin/pto-run
	rm -f $(DESTDIR)$(MANDIR)/man1/pto-as.1 $(DESTDIR)$(MANDIR)/man1/pto-run.1

clean:
	rm -rf $(BUILD)
	rm -rf python/pto/libpto.so python/build python/pto.egg-info

-include $(shell find $(BUILD)/obj $(BUILD)/pic -name '*.d' 2>/dev/null)

# libFuzzer harnesses (issue #6): make fuzz-build | fuzz FUZZ_SECONDS=N | fuzz-smoke | fuzz-regress
include tests/fuzz/fuzz.mk

# pto-as against the real PTOAS (issue #13; docs/ptoas-compat.md). Not part of `make test`: the
# first run builds PTOAS into ~/.cache/pto-as/ptoas-build (PTOAS_CACHE), from $(PTOAS_SRC) or the
# local mirror; PTOAS_BIN=path uses an existing ptoas. Exits 1 on an undocumented disagreement.
.PHONY: check-ptoas
check-ptoas: all
	$(PYTHON) tests/ptoas/check_ptoas.py $(BUILD)
