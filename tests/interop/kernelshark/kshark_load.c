// SPDX-License-Identifier: GPL-2.0-only
/*
 * Opens a trace.dat file with KernelShark's own data library (libkshark.so.2, Debian's
 * kernelshark package), as the GUI does: the top buffer, then every instance as a stream of
 * its own, then all entries merged. Prints one line per stream, "STREAM_ID ENTRIES", and
 * exits 1 when KernelShark cannot open or load the file. Loaded with dlopen: the package ships
 * no headers, and ktrace itself never links KernelShark's or trace-cmd's libraries.
 *   kshark_load FILE
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

/* The head of KernelShark 2's struct kshark_entry (libkshark.h): only what is read here. */
struct ks_entry {
	struct ks_entry *next;
	uint16_t visible;
	int16_t stream_id;
};

struct ks_api {
	_Bool (*instance)(void **ctx);
	int (*open)(void *ctx, const char *file);
	int (*init_all_buffers)(void *ctx, int sd);
	ssize_t (*load_all_entries)(void *ctx, struct ks_entry ***rows);
	void (*close_all)(void *ctx);
	void (*free_ctx)(void *ctx);
};

static int ks_api_load(struct ks_api *api)
{
	void *lib = dlopen("libkshark.so.2", RTLD_NOW);

	if (!lib) {
		fprintf(stderr, "kshark_load: %s (is kernelshark installed?)\n", dlerror());
		return -1;
	}
	*(void **)&api->instance = dlsym(lib, "kshark_instance");
	*(void **)&api->open = dlsym(lib, "kshark_open");
	*(void **)&api->init_all_buffers = dlsym(lib, "kshark_tep_init_all_buffers");
	*(void **)&api->load_all_entries = dlsym(lib, "kshark_load_all_entries");
	*(void **)&api->close_all = dlsym(lib, "kshark_close_all");
	*(void **)&api->free_ctx = dlsym(lib, "kshark_free");
	if (!api->instance || !api->open || !api->init_all_buffers || !api->load_all_entries ||
	    !api->close_all || !api->free_ctx) {
		fprintf(stderr, "kshark_load: libkshark.so.2 lacks a KernelShark 2 function\n");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ks_entry **rows = NULL;
	long counts[64] = { 0 };
	struct ks_api api;
	void *ctx = NULL;
	ssize_t n, i;
	int sd, extra, s;

	if (argc != 2) {
		fprintf(stderr, "usage: kshark_load FILE\n");
		return 2;
	}
	if (ks_api_load(&api) || !api.instance(&ctx))
		return 1;
	sd = api.open(ctx, argv[1]);
	if (sd < 0) {
		fprintf(stderr, "kshark_load: KernelShark cannot open %s (%d)\n", argv[1], sd);
		return 1;
	}
	extra = api.init_all_buffers(ctx, sd);
	if (extra < 0) {
		fprintf(stderr, "kshark_load: %s: KernelShark cannot open its buffers\n", argv[1]);
		return 1;
	}
	n = api.load_all_entries(ctx, &rows);
	if (n < 0) {
		fprintf(stderr, "kshark_load: %s: KernelShark loaded no entries\n", argv[1]);
		return 1;
	}
	for (i = 0; i < n; i++) {
		s = rows[i]->stream_id;
		if (s < 0 || s >= 64) {
			fprintf(stderr, "kshark_load: entry %zd: stream %d\n", i, s);
			return 1;
		}
		counts[s]++;
		free(rows[i]);
	}
	free(rows);
	for (s = 0; s <= extra && s < 64; s++)
		printf("%d %ld\n", s, counts[s]);
	api.close_all(ctx);
	api.free_ctx(ctx);
	return 0;
}
