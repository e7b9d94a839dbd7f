/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_VERSION_H
#define KTRACE_VERSION_H

#define KTRACE_VERSION "0.1.0"

#endif
