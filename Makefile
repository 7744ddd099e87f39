# rooftop - what it costs to train a language model, in the terminal.
# Plain GNU make. `make` only builds; `make run`, `make test`, `make install` (and `make fuzz`)
# first install missing Debian packages when run as root.

# One job per CPU unless a -j is given (`make -j1` builds one file at a time): a fresh clone
# builds in half the time on two cores. GNU make lets the command line's -j override this.
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif

PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR   = $(PREFIX)/bin
DATADIR  = $(PREFIX)/share/rooftop
MANDIR   = $(PREFIX)/share/man/man1

CC      ?= cc
PKG_CONFIG ?= pkg-config
VERSION := 0.1.0

# Debian packages the build and the tests need, and the pkg-config module each provides.
DEB_BUILD = build-essential pkg-config libncurses-dev libcjson-dev check
DEB_TEST  = tmux valgrind
DEB_FUZZ  = clang libclang-rt-14-dev
PKGS      = ncursesw libcjson check

WARN    = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2
ifeq ($(CI),true)
WARN   += -Werror
endif
ifdef WERROR
WARN   += -Werror
endif

# check.pc adds -D_XOPEN_SOURCE=600 and -D_DEFAULT_SOURCE; we define both ourselves.
PKG_CFLAGS = $(filter-out -D_XOPEN_SOURCE=% -D_DEFAULT_SOURCE,$(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null))
CURSES_LIBS = $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null)
CJSON_LIBS  = $(shell $(PKG_CONFIG) --libs libcjson 2>/dev/null)
CHECK_LIBS  = $(shell $(PKG_CONFIG) --libs check 2>/dev/null)

OPT     ?= -O2 -g
CFLAGS_ALL = -std=c11 $(OPT) $(WARN) -D_XOPEN_SOURCE=700 -D_DEFAULT_SOURCE \
             -DROOFTOP_VERSION='"$(VERSION)"' -DROOFTOP_DATADIR='"$(DATADIR)"' \
             -Isrc -Iui -Iprobes $(PKG_CFLAGS) $(CFLAGS) $(EXTRA_CFLAGS)
LDLIBS_ALL = $(CURSES_LIBS) $(CJSON_LIBS) -lm -lpthread $(LDFLAGS) $(EXTRA_LDFLAGS)

# Build directory: `make asan` builds into build-asan with sanitizers.
B ?= build

CORE_SRC  := $(wildcard src/*.c)
UI_SRC    := $(filter-out ui/main.c,$(wildcard ui/*.c))
PROBE_SRC := $(wildcard probes/*.c)
TEST_SRC  := $(wildcard tests/test_*.c)
FUZZ_SRC  := $(wildcard tests/fuzz_*.c)
BENCH_SRC := $(wildcard tests/bench_*.c)

CORE_OBJ  := $(CORE_SRC:%.c=$(B)/%.o)
UI_OBJ    := $(UI_SRC:%.c=$(B)/%.o)
PROBE_OBJ := $(PROBE_SRC:%.c=$(B)/%.o)
TEST_BIN  := $(TEST_SRC:tests/%.c=$(B)/tests/%)
BENCH_BIN := $(BENCH_SRC:tests/%.c=$(B)/tests/%)

LIBCORE  := $(B)/librooftop.a
LIBUI    := $(B)/librooftop-ui.a
LIBPROBE := $(B)/librooftop-probe.a

# The CUDA probe, a separate executable: built where nvcc is found (PATH or /usr/local/cuda)
# by the targets that need it (`make cuda-probe`, test, install), and by `make` only where a
# GPU driver is loaded too. It is never on the way to the dashboard: nvcc takes half a minute,
# and a machine without a driver cannot run what it makes. `make run` builds it in the
# background where there is a driver (the dashboard's P finds it once it is there).
NVCC ?= $(shell command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
CUDA_SRC := $(wildcard probes/*.cu)
GPU_DRIVER := $(wildcard /proc/driver/nvidia/version)
ifneq ($(strip $(NVCC)),)
ifneq ($(strip $(CUDA_SRC)),)
CUDA_BIN := $(B)/rooftop-probe-cuda rooftop-probe-cuda
endif
endif
CUDA_ALL := $(if $(GPU_DRIVER),$(CUDA_BIN))

.PHONY: FORCE all run test asan fuzz bench man install uninstall clean deps deps-test deps-fuzz screenshots \
        cuda-probe

all: $(B)/rooftop-bin rooftop $(CUDA_ALL)

# The CUDA probe alone (where nvcc is found; says so where it is not).
cuda-probe: $(CUDA_BIN)
	@[ -n "$(CUDA_BIN)" ] || echo "rooftop: no nvcc found (PATH, /usr/local/cuda): the CUDA probe is not built"

# ---- packages ------------------------------------------------------------------------------
# Installs what is missing when root; otherwise prints the one command to run.
deps:
	@missing=""; \
	for p in $(PKGS); do $(PKG_CONFIG) --exists $$p 2>/dev/null || missing="$$missing $$p"; done; \
	command -v $(PKG_CONFIG) >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "rooftop: installing Debian packages for:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEB_BUILD) || exit 1; \
	  else \
	    echo "rooftop: missing:$$missing; run: sudo apt-get install -y $(DEB_BUILD)" >&2; exit 1; \
	  fi; \
	fi

# tools: the commands a target runs, and the Debian packages that bring them.
define need_tools
	@missing=""; \
	for c in $(1); do command -v $$c >/dev/null 2>&1 || missing="$$missing $$c"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "rooftop: installing tools:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2) || exit 1; \
	  else \
	    echo "rooftop: missing tools:$$missing; run: sudo apt-get install -y $(2)" >&2; exit 1; \
	  fi; \
	fi
endef

deps-test: deps
	$(call need_tools,tmux valgrind,$(DEB_TEST))

# clang only for the fuzz targets (libFuzzer); nothing else needs it.
deps-fuzz: deps
	$(call need_tools,clang,$(DEB_FUZZ))

# ---- build ---------------------------------------------------------------------------------
$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

# The installed spec directory is compiled in: rebuild what uses it when PREFIX changes
# (`make && make install PREFIX=/opt/rooftop` must not install a binary looking elsewhere).
$(B)/src/files.o: $(B)/datadir.stamp
$(B)/datadir.stamp: FORCE
	@mkdir -p $(B); [ "$$(cat $@ 2>/dev/null)" = "$(DATADIR)" ] || echo "$(DATADIR)" > $@
FORCE:

$(LIBCORE): $(CORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIBUI): $(UI_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIBPROBE): $(PROBE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# Archive order: ui uses probes uses core.
LINK_LIBS = $(LIBUI) $(LIBPROBE) $(LIBCORE)

$(B)/rooftop-bin: $(B)/ui/main.o $(LINK_LIBS)
	$(CC) $(CFLAGS_ALL) -o $@ $(B)/ui/main.o $(LINK_LIBS) $(LDLIBS_ALL)

rooftop: $(B)/rooftop-bin
	cp $< $@

$(B)/tests/%: $(B)/tests/%.o $(LINK_LIBS)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(LINK_LIBS) $(CHECK_LIBS) $(LDLIBS_ALL)

# The CPU probe's kernels are built with full optimisation for this machine's vector ISA
# whatever OPT says: they measure the machine. Only they: code built with -march=native can
# hold AVX-512 instructions that valgrind cannot run, and the rest of rooftop must stay
# valgrind-clean on such machines. Nor are they instrumented under `make asan`: a sanitized
# FMA loop runs at an eighth of the speed (20 against 160 GFLOP/s here), and the probe would
# then measure the sanitizer, not the machine (the pool and /proc reading around them are).
$(B)/probes/probe_cpu.o: probes/probe_cpu.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -fsanitize=%,$(CFLAGS_ALL)) -O3 -march=native -fno-math-errno -MMD -MP \
	      -c $< -o $@

CUDA_ARCH ?= -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
             -gencode arch=compute_90,code=compute_90
# Built into $(B) beside rooftop-bin (where `rooftop probe` looks for it); cuBLASLt is found
# at run time through an rpath to the toolkit's lib64. CUBLASLT_INC/CUBLASLT_LIBS override
# where cuBLASLt comes from (probes/device-check.sh, when the toolkit lacks it).
CUDA_LIBDIR = $(patsubst %/bin/,%/lib64,$(dir $(NVCC)))
CUBLASLT_INC ?=
CUBLASLT_LIBS ?= -L$(CUDA_LIBDIR) -Xlinker -rpath=$(CUDA_LIBDIR) -lcublasLt
$(B)/rooftop-probe-cuda: $(CUDA_SRC) $(wildcard probes/*.cuh) probes/probe_json.h
	@mkdir -p $(dir $@)
	$(NVCC) -O3 -std=c++17 $(CUDA_ARCH) -Iprobes $(CUBLASLT_INC) -cudart static -o $@ $(CUDA_SRC) \
	        $(CUBLASLT_LIBS)

rooftop-probe-cuda: $(B)/rooftop-probe-cuda
	cp $< $@

# ---- run and test --------------------------------------------------------------------------
run:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory $(B)/rooftop-bin rooftop
	@if [ -n "$(CUDA_ALL)" ] && ! $(MAKE) -q --no-print-directory $(CUDA_ALL) 2>/dev/null; then \
	  echo "rooftop: building the CUDA probe in the background ($(B)/cuda-probe.log)"; \
	  MAKEFLAGS="$(filter-out --jobserver%,$(MAKEFLAGS))" nohup $(MAKE) --no-print-directory \
	    $(CUDA_ALL) >$(B)/cuda-probe.log 2>&1 </dev/null & \
	fi
	./rooftop

# valgrind runs on the plain build only: it does not mix with the sanitizers of `make asan`.
VALGRIND_TEST ?= yes
test:
	@$(MAKE) --no-print-directory deps-test
	@$(MAKE) --no-print-directory all $(CUDA_BIN) $(TEST_BIN)
	@if [ "$(VALGRIND_TEST)" = yes ]; then ROOFTOP_SPECS=$(CURDIR)/specs sh tests/valgrind.sh $(B)/rooftop-bin || exit 1; fi
	@ROOFTOP_SPECS=$(CURDIR)/specs ROOFTOP_BIN=$(CURDIR)/$(B)/rooftop-bin B=$(B) ROOFTOP_NVCC='$(NVCC)' \
	  sh tests/run-tests.sh $(TEST_BIN)

asan:
	$(MAKE) B=build-asan VALGRIND_TEST=no OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	        EXTRA_LDFLAGS="-fsanitize=address,undefined" test

FUZZ_SECONDS ?= 60
# Every parser: spec files, scenario files, numbers, points, the command line (src/), the demo
# file, the key-sequence syntax and sizes, typed slider values, GEMM shapes, and the txt/ANSI/SVG
# writers fed hostile names and captions (ui/, probes/).
# A target that needs more of ui/ or probes/ names those files on a line of its own:
#   /* fuzz-src: ui/slider.c ui/presets.c */
# where UI stands for every ui/ file but main.c, PROBES for every probes/ file.
FUZZ_UI_SRC = ui/demo.c ui/keys.c ui/screen.c
fuzz: deps-fuzz
	@mkdir -p $(B)/fuzz
	@for f in $(FUZZ_SRC); do \
	  n=$$(basename $$f .c); \
	  extra=$$(sed -n 's|^/\* fuzz-src: \(.*\) \*/$$|\1|p' $$f | \
	           sed 's|\bUI\b|$(filter-out $(FUZZ_UI_SRC),$(UI_SRC))|; s|\bPROBES\b|$(PROBE_SRC)|'); \
	  clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -D_XOPEN_SOURCE=700 -D_DEFAULT_SOURCE \
	    -DROOFTOP_DATADIR='"$(DATADIR)"' -DROOFTOP_VERSION='"$(VERSION)"' \
	    -Isrc -Iui -Iprobes $(PKG_CFLAGS) -o $(B)/fuzz/$$n $$f $(CORE_SRC) $(FUZZ_UI_SRC) $$extra \
	    $(CJSON_LIBS) $(CURSES_LIBS) -lm || exit 1; \
	  mkdir -p $(B)/fuzz/$$n-corpus; \
	  echo "fuzz: $$n for $(FUZZ_SECONDS)s"; \
	  $(B)/fuzz/$$n -max_total_time=$(FUZZ_SECONDS) -max_len=4096 $(B)/fuzz/$$n-corpus tests/corpus/$$n || exit 1; \
	done

# The man page's sections that come from tables: the scenario options and the file keys
# (the input registry, src/inputs.c) and the dashboard's keys (ui/keymap.c), each between
# its .\" BEGIN NAME and .\" END NAME marks.
MAN_SECTIONS = INPUTS:inputs MODEL-KEYS:model SCENARIO-KEYS:scenario KEYS:keys
man: $(B)/tests/man_options
	@for s in $(MAN_SECTIONS); do \
	  mark=$${s%%:*}; name=$${s#*:}; \
	  $(B)/tests/man_options $$name > $(B)/man-$$name.roff || exit 1; \
	  awk -v gen=$(B)/man-$$name.roff -v mark="$$mark" \
	    '$$0 == ".\\\" END " mark { skip = 0 } \
	     !skip { print } \
	     $$0 == ".\\\" BEGIN " mark { while ((getline l < gen) > 0) print l; skip = 1 }' \
	    ui/rooftop.1 > ui/rooftop.1.tmp && mv ui/rooftop.1.tmp ui/rooftop.1 || exit 1; \
	done

$(B)/tests/man_options: $(B)/tests/man_options.o $(LINK_LIBS)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(LINK_LIBS) $(LDLIBS_ALL)

# Timings, then instruction counts under callgrind (tests/bench-ir.sh; skipped without valgrind).
bench: all $(BENCH_BIN)
	@for b in $(BENCH_BIN); do ROOFTOP_SPECS=$(CURDIR)/specs $$b || exit 1; done
	@ROOFTOP_SPECS=$(CURDIR)/specs sh tests/bench-ir.sh $(B)

screenshots: all
	sh tests/screenshots.sh $(B)/rooftop-bin

# ---- install -------------------------------------------------------------------------------
# Each binary goes in under a temporary name and is renamed over the old one, so installing
# works while the dashboard runs from the installed binary (no "Text file busy"), and a
# failed copy never leaves half a binary.
install:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory all $(CUDA_BIN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/specs/gpus $(DESTDIR)$(DATADIR)/specs/models \
	           $(DESTDIR)$(DATADIR)/specs/scenarios $(DESTDIR)$(MANDIR)
	install -m 755 rooftop $(DESTDIR)$(BINDIR)/.rooftop.tmp$$$$ && \
	  mv -f $(DESTDIR)$(BINDIR)/.rooftop.tmp$$$$ $(DESTDIR)$(BINDIR)/rooftop
	if [ -n "$(CUDA_BIN)" ]; then install -m 755 rooftop-probe-cuda $(DESTDIR)$(BINDIR)/.rooftop-probe-cuda.tmp$$$$ && \
	  mv -f $(DESTDIR)$(BINDIR)/.rooftop-probe-cuda.tmp$$$$ $(DESTDIR)$(BINDIR)/rooftop-probe-cuda; fi
	install -m 644 specs/gpus/*.json $(DESTDIR)$(DATADIR)/specs/gpus/
	install -m 644 specs/models/*.json $(DESTDIR)$(DATADIR)/specs/models/
	if ls specs/scenarios/*.json >/dev/null 2>&1; then install -m 644 specs/scenarios/*.json $(DESTDIR)$(DATADIR)/specs/scenarios/; fi
	if ls specs/points/*.json >/dev/null 2>&1; then install -d $(DESTDIR)$(DATADIR)/specs/points && \
	  install -m 644 specs/points/*.json $(DESTDIR)$(DATADIR)/specs/points/; fi
	install -m 644 ui/rooftop.1 $(DESTDIR)$(MANDIR)/rooftop.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/rooftop $(DESTDIR)$(BINDIR)/rooftop-probe-cuda $(DESTDIR)$(MANDIR)/rooftop.1
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build build-asan rooftop rooftop-probe-cuda

-include $(shell find $(B) -name '*.d' 2>/dev/null)
