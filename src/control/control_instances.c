// SPDX-License-Identifier: GPL-2.0-only
/*
 * The instance lists of the -B/-a commands: one check and one collection, so that every
 * command names a missing instance the same way.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "control_instances.h"
#include "ktrace/tfs.h"

int control_add_all_instances(const char *cmd, char ***names)
{
	char **list = NULL;
	int i, ret = tfs_instances(&list);

	if (ret)
		fprintf(stderr, "ktrace %s: -a: cannot list the instances: %s\n", cmd,
			strerror(-ret));
	for (i = 0; !ret && list && list[i]; i++)
		ret = strv_push(names, list[i]);
	if (ret == -ENOMEM)
		fprintf(stderr, "ktrace %s: %s\n", cmd, strerror(ENOMEM));
	strv_free(list);
	return ret;
}

static bool instance_exists(const char *name)
{
	struct strbuf dir = STRBUF_INIT;
	struct stat st;
	bool found;

	/* "" or a path would name the top instance or another directory, not an instance */
	found = *name && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..") &&
		!tfs_path(&dir, name, NULL) && !stat(dir.buf, &st) && S_ISDIR(st.st_mode);
	strbuf_release(&dir);
	return found;
}

int control_check_instances(const char *cmd, char *const *names)
{
	int i;

	for (i = 0; names && names[i]; i++) {
		if (!instance_exists(names[i])) {
			fprintf(stderr, "ktrace %s: -B '%s': no such instance\n", cmd, names[i]);
			return -ENOENT;
		}
	}
	return 0;
}
