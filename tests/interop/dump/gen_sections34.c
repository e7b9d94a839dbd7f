// SPDX-License-Identifier: GPL-2.0-only
/*
 * Makes the file trace-cmd 3.4 records from a persistent instance with function arguments:
 * SRC copied (v7, zstd) with a LAST_BOOT_INFO option, a MODULES_FILE section and a BTF_FILE
 * section, whose contents are fixed here so that the test knows what a dump must show.
 * usage: gen_sections34 SRC OUT
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/dat_copy.h"
#include "ktrace/dat_format.h"

static const char last_boot[] = "boot_map:# Last boot\n0xffffffff81000000 [kernel]\n";
static const char modules[] =
	"virtio_net 73728 0 - Live 0xffffffffc0400000\n"
	"net_failover 24576 1 virtio_net, Live 0xffffffffc03f0000\n";
static const char btf[] = "\x9f\xeb\x01\x00 not a real BTF blob";

int main(int argc, char **argv)
{
	static const struct dat_writer_config cfg = { .version = 7, .compression = KT_COMP_ZSTD };
	const struct dat_extra extra[] = {
		{ DAT_OPT_LAST_BOOT_INFO, last_boot, sizeof(last_boot) },
		{ DAT_OPT_MODULES_FILE, modules, sizeof(modules) - 1 },
		{ DAT_OPT_BTF_FILE, btf, sizeof(btf) - 1 },
	};
	struct strbuf err = STRBUF_INIT;
	struct dat_file *df;
	int fd, ret;

	if (argc != 3) {
		fprintf(stderr, "usage: %s SRC OUT\n", argv[0]);
		return 2;
	}
	if (dat_file_open(argv[1], &df, &err)) {
		fprintf(stderr, "%s\n", strbuf_str(&err));
		return 1;
	}
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[2]);
		return 1;
	}
	ret = dat_file_copy_with(df, fd, &cfg, "/tmp", extra, 3, &err);
	if (ret)
		fprintf(stderr, "%s\n", strbuf_str(&err));
	close(fd);
	dat_file_close(df);
	strbuf_release(&err);
	return ret ? 1 : 0;
}
