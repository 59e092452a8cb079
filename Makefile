# fgraph-multi: build, boot and test Linux 6.1 with the multi-user function
# graph tracer series.  'make run' shows it, 'make check' tests everything.

# The one place the kernel source is pinned.
KVER    ?= 6.1.192-2
KSHA256 ?= 4d415b3d364834fd818270e88813e90323bbfce4f519a0e6bd4940ddcd7df693

B       := build
TREE    := $(B)/linux
ARCHES  ?= x86_64 i386 arm64
S       := scripts

.PHONY: all deps source tree export apply kernel initramfs run shell check expect \
	debug stress matrix series lint bench bench-profile clean help

all: help

help:
	@echo "make run        build x86_64, boot it, show the function graph tracer"
	@echo "make check      build and test x86_64, i386 and arm64 (boot tests, ftracetest, ours),"
	@echo "                the configuration matrix and lint"
	@echo "make expect     rewrite tests/manifest/ from the last make check, for review"
	@echo "make debug      the debug kernel alone (KASAN, lockdep, kmemleak): boot"
	@echo "                tests, ftracetest test.d/ftrace/, ours, stress, leak scan"
	@echo "make stress DURATION=600   the stress run alone on the debug kernel"
	@echo "make matrix     build kernel/trace/ and arch/*/kernel/ for config/matrix/*"
	@echo "make series     build every patch of the series on its own, both arches"
	@echo "                (SERIES_FULL=1: whole kernels, not only the changed dirs)"
	@echo "make lint       shellcheck the harness, checkpatch --strict the series"
	@echo "make bench      instructions per hooked call, against unpatched 6.1: x86_64's"
	@echo "                models, i386 and arm64 (bench/results/; BENCH_CONFIGS=...)"
	@echo "make bench-profile KERNEL=base|patched CASE=function_graph|users-N|users-N-accept-M|reserve-B|..."
	@echo "                one such call's instructions by function (after make bench;"
	@echo "                BENCH_CONF=x86_64-preempt unless given, arm64-preempt too)"
	@echo "make shell      boot x86_64 to an interactive busybox shell (ARCH=i386, ARCH=arm64 too)"
	@echo "make tree       unpack 6.1 into $(TREE) and apply patches/series"
	@echo "make export     write $(TREE)'s commits back to patches/"
	@echo "make apply KSRC=/path/to/linux-6.1   apply the series to your own tree"

deps:
	@$(S)/deps.sh

source: deps
	@$(S)/source.sh $(KVER) $(KSHA256) $(B)/dl >/dev/null

tree: source
	@$(S)/tree.sh $(B)/dl/linux-source-$(KVER).tar.xz $(TREE) patches

export:
	@$(S)/export.sh $(TREE) patches

apply:
	@$(S)/apply.sh "$(KSRC)" patches

# The guest arch: x86_64 unless given on the command line (make shell
# ARCH=i386); an ARCH in the environment (arm64, say) is not ours.
ifneq ($(origin ARCH),command line)
ARCH := x86_64
endif

kernel: tree
	@$(S)/kernel.sh $(ARCH) $(TREE) $(B)/obj-$(ARCH)

initramfs: kernel
	@$(S)/initramfs.sh $(ARCH) $(TREE) $(B)/obj-$(ARCH)

run:
	@$(MAKE) -s initramfs ARCH=x86_64
	@$(S)/boot.sh x86_64 demo
	@sed -n '/^@@ begin demo/,/^@@ end demo/p' $(B)/logs/x86_64-demo.log | grep -av '^@@'

shell:
	@$(MAKE) -s initramfs ARCH=$(ARCH)
	@$(S)/boot.sh $(ARCH) shell

check: tree
	@$(S)/check.sh $(ARCHES)

expect:
	@$(S)/expect.sh $(ARCHES) x86_64-debug

debug: tree
	@$(S)/debug.sh check

DURATION ?= 120
stress: tree
	@$(S)/debug.sh stress $(DURATION)

matrix: tree
	@$(S)/matrix.sh

series: tree
	@$(S)/series-build.sh $(TREE) $(ARCHES)

lint: tree
	@$(S)/lint.sh

bench: tree
	@$(S)/bench.sh

bench-profile:
	@$(S)/bench-profile.sh $(or $(KERNEL),patched) $(or $(CASE),function_graph)

clean:
	rm -rf $(B)/obj-* $(B)/logs $(B)/bench
