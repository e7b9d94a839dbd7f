/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef FUZZ_CPU_BUDGET_H
#define FUZZ_CPU_BUDGET_H

/* CPU seconds one input may take: the slowest seen take well under one (fuzz_cpu_budget.c) */
#define FUZZ_CPU_BUDGET_SECONDS 10

void cpu_budget_start(void);
void cpu_budget_stop(void);

#endif
