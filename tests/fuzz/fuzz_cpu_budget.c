// SPDX-License-Identifier: GPL-2.0-only
/*
 * A hang is an input that keeps the CPU busy, not one that waits for it: libFuzzer's -timeout
 * counts wall time, and on a loaded machine (two cores shared by several builds) a normal
 * input sometimes waited past 60 s and was reported as a timeout. So each input gets a budget
 * of CPU time (user and system, ITIMER_PROF) and dies on SIGABRT when it spends it; libFuzzer
 * then saves it as a crash whose stack shows cpu_budget_spent(). The wall-clock -timeout stays,
 * much longer, for inputs that block.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "fuzz_cpu_budget.h"

static void cpu_budget_spent(int sig)
{
	static const char msg[] = "fuzz: this input spent its CPU budget: a hang\n";

	(void)sig;
	/* stderr may be closed (-close_fd_mask): libFuzzer's report names this function */
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		abort();
	abort();
}

void cpu_budget_start(void)
{
	struct itimerval it = { .it_value = { .tv_sec = FUZZ_CPU_BUDGET_SECONDS } };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = cpu_budget_spent;
	sigaction(SIGPROF, &sa, NULL);
	setitimer(ITIMER_PROF, &it, NULL);
}

void cpu_budget_stop(void)
{
	struct itimerval it = { 0 };

	setitimer(ITIMER_PROF, &it, NULL);
}
