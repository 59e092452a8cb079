#!/bin/bash
# Boot the built kernel under QEMU (TCG) and run guest jobs.
# Usage: boot.sh ARCH JOBS [TIMEOUT_SECONDS]
#   JOBS is a comma list (demo, shell, ftracetest, tests); "shell" is
#   interactive.  Anything else writes the serial log to build/logs/ and then
#   checks it with checklog.sh.
#   Environment: OBJ (kernel build), SMP (QEMU -smp), FGRAPH_APPEND (kernel
#   command line), QEMU_EXTRA (QEMU options), LOG (serial log path), MEM
#   (guest MiB, 1024).
set -eu -o pipefail
arch=$1 jobs=$2 limit=${3:-600}
top=$(realpath "$(dirname "$0")/..")
obj=${OBJ:-$top/build/obj-$arch}
logs=$top/build/logs
# TCG gives every vCPU the same TSC, but the boot-time TSC sync check can
# misjudge it under single-threaded TCG (once in four runs here); the kernel
# then falls back to the HPET and the latency tests fail: tsc=reliable.
# arm64: -cpu max signs return addresses; pauth-impdef=on computes the
# signatures with QEMU's own fast hash, not QARMA, which is several times
# slower under TCG and no different to the kernel.
case $arch in
x86_64 | i386)
	machine=(-M pc) image=$obj/arch/x86/boot/bzImage
	console="console=ttyS0 tsc=reliable" ;;
arm64)
	machine=(-M virt -cpu "max,pauth-impdef=on") image=$obj/arch/arm64/boot/Image
	console="console=ttyAMA0" ;;
*) echo "boot: unknown arch $arch" >&2; exit 1 ;;
esac
qemu=qemu-system-${arch/arm64/aarch64}

# Without ACPI plain -smp 2 gives one CPU; two sockets give two.  Ftrace
# patches live code, which froze multi-threaded TCG: run it single-threaded.
read -ra extra <<< "${QEMU_EXTRA:-}"
cmd=("$qemu" "${machine[@]}" -accel "tcg,thread=single" -smp "${SMP:-2,sockets=2}"
	-m "${MEM:-1024}" -kernel "$image" -initrd "$obj/initramfs.cpio.gz"
	-append "$console panic=-1 fgraph.jobs=$jobs ${FGRAPH_APPEND:-}"
	-display none -no-reboot "${extra[@]}")

if [ "$jobs" = shell ]; then
	exec "${cmd[@]}" -serial mon:stdio
fi

mkdir -p "$logs"
log=${LOG:-$logs/$arch-$(echo "$jobs" | tr ',' '-').log}
echo "boot: $arch jobs=$jobs (timeout ${limit}s), log $log"
start=$(date +%s)
set +e
timeout "$limit" "${cmd[@]}" -serial stdio -monitor none < /dev/null > "$log" 2>&1
rc=$?
set -e
echo "boot: $arch finished in $(( $(date +%s) - start ))s"
if [ $rc -eq 124 ]; then
	echo "TIMEOUT after ${limit}s" >> "$log"
fi
exec "$top/scripts/checklog.sh" "$log" "$obj"
