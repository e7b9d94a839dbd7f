/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_SYSCALL_NAME_H
#define KTRACE_SYSCALL_NAME_H

/*
 * The x86_64 name of syscall `nr` (raw_syscalls' id, syscalls' __syscall_nr), NULL when
 * unknown. Generated from <asm/unistd_64.h> by src/report/gen_syscall_names.sh; `ktrace hist
 * syscall` and the syscall table of `ktrace sql` name syscalls with it.
 */
const char *syscall_name(long nr);

#endif
