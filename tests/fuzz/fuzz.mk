# tests/fuzz/fuzz.mk - libFuzzer harnesses (issue #6, docs/robustness.md). Included at the end of
# the top-level Makefile (it uses its source lists, WARN, FPFLAGS and the generated-source rules).
#
#   make fuzz-build                 build $(FUZZ_BUILD)/fuzz_{roundtrip,run,datafile} with clang
#   make fuzz FUZZ_SECONDS=1800     run each harness that long in turn (default 600 s each)
#   make fuzz-smoke                 each harness for $(FUZZ_SMOKE_SECONDS) s (60): the CI check
#   make fuzz-regress               each harness once over its committed corpus (seconds)
#   make fuzz FUZZ_HARNESSES=run    one harness only; FUZZ_JOBS=N for N parallel workers
#   make fuzz-merge                 add the found inputs that reach new code (<= 2 KiB) to the
#                                   committed seeds tests/fuzz/corpus/<harness>/
#
# The library sources are compiled again with clang and -fsanitize=fuzzer-no-link,address,undefined
# into $(FUZZ_BUILD)/obj; the generated lexer/parser come from $(BUILD)/gen like the normal build.
# New corpus entries go to $(FUZZ_BUILD)/corpus/<harness>; crashes, leaks, timeouts and OOMs to
# $(FUZZ_BUILD)/artifacts/<harness>/. The committed seeds live in tests/fuzz/corpus/<harness>/.

FUZZ_CC            ?= clang
FUZZ_BUILD         ?= $(BUILD)/fuzz
FUZZ_SECONDS       ?= 600
FUZZ_SMOKE_SECONDS ?= 60
FUZZ_JOBS          ?= 1
FUZZ_HARNESSES     ?= roundtrip run datafile

FUZZ_SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# -Wno-unknown-pragmas: interp/kernels.c uses `GCC ivdep`, which clang does not know.
FUZZ_CFLAGS   := -std=c17 $(WARN) -Wno-unknown-pragmas -O1 -g $(FPFLAGS) $(FUZZ_SAN)
FUZZ_LIB_SRCS := $(IR_SRCS) $(FRONT_SRCS) $(VERIFY_SRCS) $(INTERP_SRCS)
FUZZ_LIB_OBJS := $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(FUZZ_LIB_SRCS)) \
                 $(patsubst $(BUILD)/gen/%.c,$(FUZZ_BUILD)/obj/gen/%.o,$(GEN_SRCS))
FUZZ_BINS     := $(patsubst %,$(FUZZ_BUILD)/fuzz_%,$(FUZZ_HARNESSES))
FUZZ_MAINS    := $(patsubst %,$(FUZZ_BUILD)/obj/tests/fuzz/fuzz_%.o,$(FUZZ_HARNESSES))

.SECONDARY: $(FUZZ_MAINS)

.PHONY: fuzz fuzz-build fuzz-smoke fuzz-regress fuzz-merge

fuzz-build: $(FUZZ_BINS)

$(FUZZ_LIB_OBJS): | $(if $(wildcard parser/parser.y),$(BUILD)/gen/parser.h)

$(FUZZ_BUILD)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) -Itests/fuzz $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -Wno-unused-function -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/obj/tests/fuzz/fuzz_%.o $(FUZZ_LIB_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

fuzz: fuzz-build
	@sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_JOBS) $(FUZZ_HARNESSES)

fuzz-smoke: fuzz-build
	@sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SMOKE_SECONDS) 1 $(FUZZ_HARNESSES)

fuzz-regress: fuzz-build
	@sh tests/fuzz/run.sh $(FUZZ_BUILD) 0 1 $(FUZZ_HARNESSES)

fuzz-merge: fuzz-build
	@for h in $(FUZZ_HARNESSES); do \
	    mkdir -p $(FUZZ_BUILD)/corpus/$$h && \
	    $(FUZZ_BUILD)/fuzz_$$h -merge=1 -use_counters=0 -max_len=2048 -timeout=30 \
	        tests/fuzz/corpus/$$h $(FUZZ_BUILD)/corpus/$$h 2>&1 | grep 'MERGE-OUTER: .* new files' || exit 1; \
	done

-include $(shell find $(FUZZ_BUILD)/obj -name '*.d' 2>/dev/null)
