// SPDX-License-Identifier: GPL-2.0
/*
 * ubench: guest nanoseconds per getppid() or per fork+exec+wait.
 * Under QEMU -icount shift=0 a guest nanosecond is one instruction.
 *
 *   ubench getppid N      N getppid() system calls
 *   ubench forkexec N     N times: fork, exec PROG (default /bin/true), wait
 *
 * Prints "ns T loops N".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int run_getppid(long n)
{
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}

static int run_forkexec(long n, const char *prog)
{
	long i;
	int status;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (!pid) {
			execl(prog, prog, (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, "ubench: %s failed\n", prog);
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	long long t0, t1;
	long n;
	int err;

	if (argc < 3 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: ubench getppid|forkexec N [PROG]\n");
		return 2;
	}
	t0 = now_ns();
	if (!strcmp(argv[1], "getppid")) {
		err = run_getppid(n);
	} else if (!strcmp(argv[1], "forkexec")) {
		err = run_forkexec(n, argc > 3 ? argv[3] : "/bin/true");
	} else {
		fprintf(stderr, "ubench: unknown case %s\n", argv[1]);
		return 2;
	}
	t1 = now_ns();
	if (err)
		return 1;
	printf("ns %lld loops %ld\n", t1 - t0, n);
	return 0;
}
