// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"
#include "../reference/umad/ref_umad.h"
#include "../reference/verbs/ref_verbs.h"
#include "../reference/rdmacm/ref_rdmacm.h"

struct rc_lib {
	const char *soname;
	void *handle;
	char error[256];
};

static struct rc_lib lib_umad = { .soname = "libibumad.so.3" };
static struct rc_lib lib_verbs = { .soname = "libibverbs.so.1" };
static struct rc_lib lib_rdmacm = { .soname = "librdmacm.so.1" };

static void lib_open(struct rc_lib *lib)
{
	const char *err;

	if (lib->handle || lib->error[0])
		return;
	/* RTLD_GLOBAL: the lookups below go through the global scope, where
	 * LD_PRELOAD objects come first, exactly as for a program linked
	 * against the library. */
	lib->handle = dlopen(lib->soname, RTLD_NOW | RTLD_GLOBAL);
	if (!lib->handle) {
		err = dlerror();
		snprintf(lib->error, sizeof(lib->error), "%s",
			 err ? err : "dlopen failed");
	}
}

static void *lookup(struct rc_lib *lib, const char *name)
{
	lib_open(lib);
	if (!lib->handle)
		return NULL;
	return dlsym(RTLD_DEFAULT, name);
}

static struct rc_ops system_ops = { .name = "system",
				    .provider_objects = true };
static bool system_resolved;

static const struct rc_ops reference_ops = {
	.name = "reference",
#define RC_REF_MEMBER(n, r, a) .n = ref_##n,
	RC_ALL_CALLS(RC_REF_MEMBER)
#undef RC_REF_MEMBER
};

const struct rc_ops *rc_impl(enum rc_impl_id id)
{
	if (id == RC_IMPL_REFERENCE)
		return &reference_ops;
	if (!system_resolved) {
#define RC_SYS_UMAD(n, r, a) system_ops.n = (r(*) a)lookup(&lib_umad, #n);
#define RC_SYS_VERBS(n, r, a) system_ops.n = (r(*) a)lookup(&lib_verbs, #n);
#define RC_SYS_RDMACM(n, r, a) system_ops.n = (r(*) a)lookup(&lib_rdmacm, #n);
		RC_UMAD_CALLS(RC_SYS_UMAD)
		RC_VERBS_CALLS(RC_SYS_VERBS)
		RC_RDMACM_CALLS(RC_SYS_RDMACM)
#undef RC_SYS_UMAD
#undef RC_SYS_VERBS
#undef RC_SYS_RDMACM
		system_resolved = true;
	}
	return &system_ops;
}

static struct rc_lib *lib_by_name(const char *name)
{
	if (!strcmp(name, "umad") || !strcmp(name, lib_umad.soname))
		return &lib_umad;
	if (!strcmp(name, "verbs") || !strcmp(name, lib_verbs.soname))
		return &lib_verbs;
	if (!strcmp(name, "rdmacm") || !strcmp(name, lib_rdmacm.soname))
		return &lib_rdmacm;
	return NULL;
}

const char *rc_impl_open_error(const char *name)
{
	struct rc_lib *lib = lib_by_name(name);

	if (!lib)
		return "unknown library";
	lib_open(lib);
	return lib->error[0] ? lib->error : NULL;
}

/* The file the dynamic linker picked for @name, or NULL. */
const char *rc_impl_system_origin(const char *name)
{
	static char path[4096];
	struct rc_lib *lib = lib_by_name(name);
	struct link_map *map;

	if (!lib)
		return NULL;
	lib_open(lib);
	if (!lib->handle || dlinfo(lib->handle, RTLD_DI_LINKMAP, &map))
		return NULL;
	if (!realpath(map->l_name, path))
		snprintf(path, sizeof(path), "%s", map->l_name);
	return path;
}

/* The rdma-core release of the library at @origin: rdma-core installs
 * libibumad.so.3.<minor>.<package version>. */
const char *rc_impl_rdma_core_version(const char *origin)
{
	static char v[64];
	const char *p;

	if (!origin || !(p = strstr(origin, ".so.")))
		return NULL;
	p += 4;
	if (!(p = strchr(p, '.')) || !(p = strchr(p + 1, '.')))
		return NULL;
	snprintf(v, sizeof(v), "%s", p + 1);
	return v;
}
