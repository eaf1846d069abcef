# rdmaconf: one non-recursive Makefile, out-of-tree build into build/.
# `make V=1` shows the commands; `make WERROR=1` (CI) makes warnings fatal.

BUILD ?= build
CC ?= cc
PYTHON ?= /usr/bin/python3
VERSION := 0.1
# make install: where; the binary finds its data from its own location
PREFIX ?= /usr/local
DESTDIR ?=
# the git revision it is built from (rdmaconf --version, the results)
REVISION ?= $(shell git -C $(CURDIR) describe --always --dirty --abbrev=12 \
	2>/dev/null || echo unknown)

# rdma-core's warning set (buildlib/RDMA_EnableCStd.cmake, CMakeLists.txt)
WARNINGS := -Wall -Wextra -Wno-sign-compare -Wno-unused-parameter \
	-Wmissing-prototypes -Wmissing-declarations -Wwrite-strings \
	-Wformat=2 -Wformat-nonliteral -Wcast-function-type -Wdate-time \
	-Wnested-externs -Wshadow -Wstrict-prototypes -Wold-style-definition \
	-Wredundant-decls -Wimplicit-fallthrough=5

# -g1: the line tables that a backtrace, ASan's reports and perf read,
# without the types and locals of -g (15 % of the build's time, 4 to 6 s
# of make check's); make CFLAGS='-O2 -g' for a debugger's locals
CFLAGS ?= -O2 -g1
# make check SANITIZE=1: ASan + UBSan, in a build tree of its own; the host
# cases only (the VM runs the same code, slower)
ifeq ($(SANITIZE),1)
BUILD := build/san
EXTRA_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
E2E_SELECT := -m "not vm and not ibsim and not package and not slow"
# the shims are not instrumented: ASan need not come first for them
# signals of the code under test must reach the harness as signals
export ASAN_OPTIONS := verify_asan_link_order=0:detect_leaks=1:handle_segv=0:handle_abort=0:allocator_may_return_null=1
endif
# CPPFLAGS and LDFLAGS as the environment gives them (dpkg-buildflags:
# the package's hardening)
ALL_CFLAGS := -std=gnu11 $(WARNINGS) $(if $(WERROR),-Werror) $(CFLAGS) \
	$(CPPFLAGS) $(LDFLAGS) -MMD -MP $(EXTRA_CFLAGS)
LDLIBS := -libverbs -ldl -lm

ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-6s %s\n' $(1) $(2)
endif

HARNESS_SRC := $(filter-out harness/main.c,$(wildcard harness/*.c))
REF_SRC := $(wildcard reference/*/*.c)
CASE_SRC := $(wildcard cases/*/*.c)
LIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(HARNESS_SRC) $(REF_SRC) $(CASE_SRC))
MAIN_OBJ := $(BUILD)/harness/main.o
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(UNIT_SRC))
MUTANT_SRC := $(wildcard tests/mutants/*.c)
SHIM_SRC := $(wildcard tests/shims/*.c)
SHIMS := $(patsubst tests/shims/%.c,$(BUILD)/shims/%.so,\
	$(filter-out tests/shims/fake_libibumad.c,$(SHIM_SRC))) \
	$(BUILD)/shims/fake/libibumad.so.3 $(BUILD)/mutants.so

.PHONY: all check check-slow unit e2e deps coverage clean shims conformance valgrind fuzz bench ibsim mutation srcmut install deb style format

# The main job (ci/conformance): the whole suite on this host's RDMA device,
# or on rxe in the VM when the host has none, then on siw there (SIW=1,
# the default), a column per provider; and (IBSIM=1, the default), after
# them, the umad cases on the simulated InfiniBand fabric, so that the
# rows only InfiniBand has run too.  MATRIX="bookworm
# bookworm:6.12 trixie" runs a Debian suite (and kernel) per column
# instead.  One report under $(REPORT); the first failing run's status.
REPORT ?= reports/latest
IBSIM ?= 1
SIW ?= 1
MATRIX ?=
all: $(BUILD)/rdmaconf $(BUILD)/rdmaconf-peer $(BUILD)/ibsim/umad2sim_pkey.so \
	$(BUILD)/ref/libibumad.so.3 $(BUILD)/slurm/bind_loopback.so \
	$(BUILD)/ref-smoke
$(BUILD)/%.o: %.c
	$(call msg,CC,$<)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(OBJ_DEFS) -c -o $@ $<

# Only version.o knows the version, revision and prefix: rebuilt when
# they change, through a stamp that changes with them.
STAMP := $(VERSION) $(REVISION) $(PREFIX)
$(BUILD)/version.stamp: FORCE
	@mkdir -p $(BUILD)
	@echo '$(STAMP)' | cmp -s - $@ || echo '$(STAMP)' > $@
$(BUILD)/harness/version.o $(BUILD)/fuzz/obj/harness/version.o: \
	$(BUILD)/version.stamp
$(BUILD)/harness/version.o: OBJ_DEFS = \
	-DRDMACONF_VERSION='"$(VERSION)"' \
	-DRDMACONF_REVISION='"$(REVISION)"' -DRDMACONF_PREFIX='"$(PREFIX)"'
.PHONY: FORCE

$(BUILD)/rdmaconf: $(MAIN_OBJ) $(LIB_OBJ)
	$(call msg,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# the far end of the fabric rows (ci/ibsim-run starts it on another node):
# the kernel ABI and what it needs of sysfs, nothing of cases/
PEER_OBJ := $(addprefix $(BUILD)/harness/,peer/main.o device.o json.o mad_wire.o)
$(BUILD)/rdmaconf-peer: $(PEER_OBJ)
	$(call msg,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# The reference as a drop-in libibumad.so.3: the same sources as the
# rows' reference, built position-independent, every ref_umad_X renamed
# umad_X, linked with rdma-core 44's soname and symbol versions.
# LD_LIBRARY_PATH=$(BUILD)/ref makes any libibumad client use it.
DROPIN_SRC := $(wildcard reference/umad/*.c reference/common/*.c)
DROPIN_OBJ := $(patsubst %.c,$(BUILD)/pic/%.o,$(DROPIN_SRC))
$(BUILD)/pic/%.o: %.c
	$(call msg,CC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -c -o $@ $<
$(BUILD)/ref/libibumad.so.3: $(DROPIN_OBJ) reference/umad/dropin/libibumad.map
	$(call msg,LD,$@)
	@rm -rf $(BUILD)/ref/obj && mkdir -p $(BUILD)/ref/obj
	$(Q)nm --defined-only $(DROPIN_OBJ) | \
		awk '$$3 ~ /^ref_umad_/ { print $$3, substr($$3, 5) }' | \
		sort -u > $(BUILD)/ref/rename.syms
	$(Q)for o in $(DROPIN_OBJ); do \
		objcopy --redefine-syms=$(BUILD)/ref/rename.syms $$o \
			$(BUILD)/ref/obj/$$(echo $$o | tr / _) || exit 1; \
	done
	$(Q)$(CC) $(ALL_CFLAGS) -shared -fPIC -Wl,-soname,libibumad.so.3 \
		-Wl,--version-script=reference/umad/dropin/libibumad.map \
		-Wl,--no-undefined -o $@ $(BUILD)/ref/obj/*.o
	$(Q)ln -sf libibumad.so.3 $(BUILD)/ref/libibumad.so

# the simulator's fix-up, preloaded by ci/ibsim-run
$(BUILD)/ibsim/umad2sim_pkey.so: ci/ibsim/umad2sim_pkey.c
	$(call msg,SHIM,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -shared -o $@ $<

# what keeps ci/slurm-local's daemons on the loopback
$(BUILD)/slurm/bind_loopback.so: ci/slurm/bind_loopback.c
	$(call msg,SHIM,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -shared -o $@ $< -ldl

# the libibverbs control path on both implementations, compared (a VM
# step of make check: tests/e2e/test_refsmoke.py)
SMOKE_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/refsmoke/*.c))
$(BUILD)/ref-smoke: $(SMOKE_OBJ) $(LIB_OBJ)
	$(call msg,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/bench: $(BUILD)/tests/bench/bench.o $(LIB_OBJ)
	$(call msg,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/unit-tests: $(UNIT_OBJ) $(LIB_OBJ)
	$(call msg,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ -lcriterion $(LDLIBS)

# Deliberately broken implementations, for the tests that prove the
# suite catches them (LD_PRELOAD / LD_LIBRARY_PATH).
$(BUILD)/shims/%.so: tests/shims/%.c
	$(call msg,SHIM,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -shared -o $@ $<
$(BUILD)/shims/fake/libibumad.so.3: tests/shims/fake_libibumad.c
	$(call msg,SHIM,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -shared -Wl,-soname,libibumad.so.3 -o $@ $<
shims: $(SHIMS)

# One mutant per documented behaviour of each call, in one library
# selected by RDMACONF_MUTANT (tests/mutants/mutant.h).
$(BUILD)/mutants.so: $(MUTANT_SRC) tests/mutants/mutant.h
	$(call msg,SHIM,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -shared -o $@ $(MUTANT_SRC) -ldl

# The reference's own mutants, mechanically (tests/mutants/srcmut): one
# rdmaconf with every mutant of reference/ compiled in as a schema,
# chosen at run time by RDMACONF_SRCMUT, and one more per mutant of a
# case label; the harness and the cases are the objects above.  The
# generated sources and their objects are under $(BUILD)/srcmut.
SRCMUT_OBJ := $(MAIN_OBJ) $(filter-out $(BUILD)/reference/%,$(LIB_OBJ))
srcmut: $(SRCMUT_OBJ)
	$(call msg,SRCMUT,$(BUILD)/srcmut)
	$(Q)$(PYTHON) tests/mutants/srcmut/build.py --out $(BUILD)/srcmut \
		--cc '$(CC)' --cflags '$(ALL_CFLAGS)' --ldlibs '$(LDLIBS)' \
		-j $(NPROC) $(SRCMUT_OBJ)

# The suite's detection power, in one boot of the rxe VM (both devices,
# and siw's): every LD_PRELOAD mutant of rdma-core against the rows of
# its call, then every source mutant of the reference against the rows of
# the calls that reach it, on rxe, and those of siw's driver part on siw;
# per call (and per operator): mutants, killed, survivors.
# $(BUILD)/mutation.json, $(BUILD)/srcmut.json and $(BUILD)/srcmut-siw.json.
# (put_sges's mutants leave a WQE's first SGE empty, which wedges siw on
# Linux 6.1 until a reboot: the siw pass leaves them out, README)
SRCMUT_RXE := --device rxe0
SRCMUT_SIW := --device siw0 \
	--mutants "*/dp_siw.c:*,*/prov_siw.c:*,!*/dp_siw.c:put_sges:*"
mutation: all $(BUILD)/mutants.so srcmut
	ci/rxe-vm --two --siw -- sh -c '$(PYTHON) -u tests/mutants/run_mutation.py \
		--rdmaconf $(BUILD)/rdmaconf --mutants $(BUILD)/mutants.so \
		--json $(BUILD)/mutation.json; a=$$?; \
		$(PYTHON) -u tests/mutants/run_srcmut.py --build $(BUILD)/srcmut \
		$(SRCMUT_RXE) --json $(BUILD)/srcmut.json; b=$$?; \
		$(PYTHON) -u tests/mutants/run_srcmut.py --build $(BUILD)/srcmut \
		$(SRCMUT_SIW) --json $(BUILD)/srcmut-siw.json; c=$$?; \
		[ $$b -ge $$c ] || b=$$c; [ $$a -ge $$b ] && exit $$a; exit $$b'

unit: $(BUILD)/unit-tests
	$(BUILD)/unit-tests

# The end-to-end tests in two tiers.  make check: the unit tests, the
# harness on the host, a sample of the suite (rdmaconf run --sample), the
# bug shims and the drop-in clients in one boot of the rxe VM, the umad
# suite on ibsim.  make check-slow (CI runs both): the whole suite, other
# Debian suites and kernels, the package and autopkgtest, the Slurm
# fleet, the serial run, the mutation sample, and the failure paths that
# wait out their deadlines.
E2E_SELECT ?= -m "not slow"
E2E_RUN = RDMACONF=$(CURDIR)/$(BUILD)/rdmaconf RDMACONF_SHIMS=$(CURDIR)/$(BUILD)/shims \
	RDMACONF_MUTANTS=$(CURDIR)/$(BUILD)/mutants.so \
	RDMACONF_SRCMUT_BUILD=$(CURDIR)/$(BUILD)/srcmut $(PYTHON) -m pytest -q \
	--durations=0 --durations-min=10
e2e: all $(SHIMS)
	$(E2E_RUN) $(E2E_SELECT) tests/e2e

# the build on every CPU (the bench program too, which only make bench
# runs), then the tests one after the other (each test that times a call
# needs the machine to itself)
# (-s unless V=1: not a line per target that is up to date)
NPROC := $(shell nproc 2> /dev/null || echo 1)
SUBMAKE = $(MAKE) --no-print-directory $(if $(filter 1,$(V)),,-s)
# (the style gate is one more job beside the compilers)
check:
	@$(SUBMAKE) -j$(NPROC) style all $(SHIMS) $(BUILD)/unit-tests $(BUILD)/bench
	@$(SUBMAKE) unit e2e

check-slow:
	@$(SUBMAKE) -j$(NPROC) all $(SHIMS)
	@$(SUBMAKE) srcmut
	$(E2E_RUN) -m slow tests/e2e

deps:
	./ci/install-deps

# The style gate, as rdma-core keeps its .clang-format and LTP its
# checkpatch: the C as clang-format (.clang-format: the kernel's style)
# has it, the shell scripts clean under shellcheck, the Python (the
# end-to-end driver, the mutation tools) clean under pyflakes (a test
# defined twice runs once).  make format applies clang-format.
CLANG_FORMAT ?= clang-format-14
STYLE_C := $(shell git -C $(CURDIR) ls-files '*.c' '*.h' 2> /dev/null)
STYLE_SH := $(shell git -C $(CURDIR) ls-files ci .ci completion debian/tests \
	2> /dev/null | xargs -r grep -lE '^\#!.*(ba|)sh|shell=bash' 2> /dev/null)
STYLE_PY := $(shell git -C $(CURDIR) ls-files '*.py' 2> /dev/null)
style:
	@$(CLANG_FORMAT) --dry-run --Werror $(STYLE_C) 2>&1 | \
		grep -m 20 'error:' && { echo "style: run make format"; \
		exit 1; } || true
	@shellcheck -x -S warning $(STYLE_SH)
	@$(PYTHON) -m pyflakes $(STYLE_PY)
	@echo "style: $(words $(STYLE_C)) C files, $(words $(STYLE_SH)) scripts, $(words $(STYLE_PY)) Python files clean"
format:
	$(CLANG_FORMAT) -i $(STYLE_C)

# libFuzzer targets (clang) for everything rdmaconf parses that it did not
# write: results files, profiles, received GRHs, what a umad read returns.
# Each runs FUZZ_SECONDS from its corpus in tests/fuzz/corpus; new inputs
# land in build/fuzz/corpus, crashes in build/fuzz/crash-*.
FUZZ_SECONDS ?= 30
FUZZ_CC := clang
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
	-DRDMACONF_VERSION='"$(VERSION)"'
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_LIB := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(HARNESS_SRC) $(REF_SRC) $(CASE_SRC))
$(BUILD)/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -c -o $@ $<
$(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_LIB)
	$(call msg,FUZZ,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)
.SECONDARY: $(FUZZ_LIB)
fuzz: $(addprefix $(BUILD)/fuzz/,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do \
		c=$${t#fuzz_}; mkdir -p $(BUILD)/fuzz/corpus/$$c; \
		$(BUILD)/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) \
			-artifact_prefix=$(BUILD)/fuzz/crash-$$c- \
			$(BUILD)/fuzz/corpus/$$c tests/fuzz/corpus/$$c \
			> $(BUILD)/fuzz/$$c.log 2>&1; rc=$$?; \
		execs=$$(grep -o 'Done [0-9]* runs' $(BUILD)/fuzz/$$c.log | \
			grep -o '[0-9]*'); \
		crashes=$$(ls $(BUILD)/fuzz/crash-$$c-* 2>/dev/null | wc -l); \
		printf 'fuzz %-10s %12s executions, %s crashes (exit %s)\n' \
			$$c "$$execs" $$crashes $$rc; \
	done

# Time to a verdict and the reference against rdma-core, side by side in
# one run (not part of check or CI: a few minutes; BENCH_CHECK=0 skips the
# timing of a whole make check).
bench: $(BUILD)/rdmaconf $(BUILD)/bench
	BUILD=$(BUILD) $(PYTHON) tests/bench/run_bench.py

# The host cases under memcheck, children included (each case's fork);
# any error or definite leak fails.  Valgrind does not know pidfd_open:
# the runner's watchdog falls back to polling there.
valgrind: $(BUILD)/rdmaconf
	valgrind -q --error-exitcode=99 --leak-check=full \
		--show-leak-kinds=definite --errors-for-leak-kinds=definite \
		$(BUILD)/rdmaconf run > $(BUILD)/valgrind.ktap
	@tail -1 $(BUILD)/valgrind.ktap

conformance: all
	BUILD=$(BUILD) IBSIM=$(IBSIM) SIW=$(SIW) ci/conformance $(REPORT) $(MATRIX)

# make install [PREFIX=/usr/local] [DESTDIR=]: the programs in bin; the
# profiles, baselines, guest scripts and fabric under share/rdmaconf; the
# launchers under libexec/rdmaconf; the shared objects they preload under
# lib/rdmaconf.  The binary finds them from its own location.
SHARE := $(DESTDIR)$(PREFIX)/share
LIBEXEC := $(DESTDIR)$(PREFIX)/libexec/rdmaconf
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(SHARE)/rdmaconf/expect \
		$(SHARE)/rdmaconf/baselines $(SHARE)/rdmaconf/guest \
		$(SHARE)/rdmaconf/ibsim $(LIBEXEC) $(DESTDIR)$(PREFIX)/lib/rdmaconf \
		$(SHARE)/man/man1 $(SHARE)/bash-completion/completions
	install -m 755 $(BUILD)/rdmaconf $(BUILD)/rdmaconf-peer \
		$(DESTDIR)$(PREFIX)/bin/
	install -m 644 cases/expect/*.expect $(SHARE)/rdmaconf/expect/
	install -m 644 cases/baselines/*.json $(SHARE)/rdmaconf/baselines/
	install -m 755 ci/guest/init ci/guest/stage2 $(SHARE)/rdmaconf/guest/
	install -m 644 ci/ibsim/net $(SHARE)/rdmaconf/ibsim/
	install -m 755 ci/rxe-vm ci/siw-module ci/ibsim-run ci/debian-archive \
		ci/vm-root ci/fleet ci/fleet-node ci/slurm-local ci/gate-rdma-core \
		$(LIBEXEC)/
	install -m 644 ci/exits $(LIBEXEC)/
	install -m 644 $(BUILD)/ibsim/umad2sim_pkey.so \
		$(BUILD)/ref/libibumad.so.3 $(BUILD)/slurm/bind_loopback.so \
		$(DESTDIR)$(PREFIX)/lib/rdmaconf/
	install -m 644 man/rdmaconf.1 man/rdmaconf-peer.1 $(SHARE)/man/man1/
	install -m 644 completion/rdmaconf \
		$(SHARE)/bash-completion/completions/rdmaconf

# make deb: the Debian package (debian/), in $(BUILD)/deb
deb:
	ci/build-deb $(BUILD)/deb

# The umad cases on a simulated InfiniBand fabric (ibsim + opensm).
# Results in $(BUILD)/ibsim.json.
ibsim: all
	$(BUILD)/rdmaconf run --target ibsim --watchdog-ms 3000 \
		--json $(BUILD)/ibsim.json

coverage:
	rm -rf build/cov build/cov-guest
	@# libgcov's complaints (a row's child killed while it saved its
	@# counters leaves a file others cannot merge) go to a file: on
	@# stderr they broke the tests that count its lines
	mkdir -p build/cov
	GCOV_ERROR_FILE=$(CURDIR)/build/cov/gcov-errors.log \
	RDMACONF_QUICK_SAMPLE=2 \
	RDMACONF_GCOV_DIR=$(CURDIR)/build/cov $(MAKE) BUILD=build/cov \
		CFLAGS='-O0 -g --coverage' EXTRA_CFLAGS=-DRDMACONF_COVERAGE check
	@# data no object's notes belong to (a relative object path that
	@# GCOV_PREFIX in the guest put elsewhere) is none lcov can read
	find build/cov -name '*.gcda' | while read -r f; do \
		[ -e "$${f%.gcda}.gcno" ] || rm -f "$$f"; done
	lcov -q --capture --directory build/cov --output-file build/cov/all.info
	@# the rows' data from the VM (tests/e2e/conftest.py): beside a copy
	@# of the notes, a tracefile of its own, added to the host's
	if [ -f build/cov/guest-gcda.tar ]; then \
		rm -rf build/cov-guest && mkdir build/cov-guest && \
		tar -C build/cov-guest -xf build/cov/guest-gcda.tar && \
		(cd build/cov && find . -name '*.gcno' \
			-exec cp --parents -t ../cov-guest {} +) && \
		lcov -q --capture --directory build/cov-guest \
			--output-file build/cov/guest.info && \
		lcov -q -a build/cov/all.info -a build/cov/guest.info \
			--output-file build/cov/both.info && \
		mv build/cov/both.info build/cov/all.info || exit 1; \
	fi
	lcov -q --extract build/cov/all.info '$(CURDIR)/reference/*' \
		'$(CURDIR)/harness/*' --output-file build/cov/rdmaconf.info
	genhtml -q build/cov/rdmaconf.info --output-directory build/coverage
	@lcov --summary build/cov/rdmaconf.info 2>&1 | grep -E 'lines|functions'
	@[ ! -s build/cov/gcov-errors.log ] || echo "libgcov:" \
		"$$(sort -u build/cov/gcov-errors.log | wc -l) files it could" \
		"not merge: build/cov/gcov-errors.log"
	@echo "coverage report: build/coverage/index.html"

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
