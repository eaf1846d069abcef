// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ref-smoke: ibv_import_device, ibv_import_pd / ibv_unimport_pd and
 * ibv_import_mr / ibv_unimport_mr, in this process and in a second one.
 *
 * The child of a fork() has the context's command fd and is another
 * process: it imports the device from a dup of the fd and, through the
 * imported context (or, where the device cannot be imported, through the
 * context it inherited), the PD and the MR by their handles, and checks
 * that the MR's keys and length are the original's.  It tells the parent
 * what it saw, one "KEY VALUE" line each, over a pipe.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "smoke.h"

#define BOGUS_HANDLE 0x7fffffffu

static void say(FILE *out, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(FILE *out, const char *key, const char *fmt, ...)
{
	va_list ap;

	fprintf(out, "%s ", key);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
}

/* The imports @o makes of @pd and @mr through @ctx; into @out. */
static void imports(const struct rc_ops *o, struct ibv_context *ctx,
		    const struct ibv_pd *pd, const struct ibv_mr *mr, FILE *out,
		    const char *where)
{
	struct ibv_pd *ipd;
	struct ibv_mr *imr;
	char k[64];

	errno = 0;
	ipd = o->ibv_import_pd(ctx, pd->handle);
	snprintf(k, sizeof(k), "%s/import_pd", where);
	say(out, k, "%s", ipd ? "PD" : errname(errno));
	if (!ipd)
		return;
	snprintf(k, sizeof(k), "%s/import_pd/same", where);
	say(out, k, "handle %d context %d", ipd->handle == pd->handle,
	    ipd->context == ctx);
	errno = 0;
	imr = o->ibv_import_mr(ipd, mr->handle);
	snprintf(k, sizeof(k), "%s/import_mr", where);
	say(out, k, "%s", imr ? "MR" : errname(errno));
	if (imr) {
		snprintf(k, sizeof(k), "%s/import_mr/same", where);
		/* "The addr field in the imported MR is not applicable, NULL
		 * value is expected." */
		say(out, k, "lkey %d rkey %d length %d handle %d addr %p",
		    imr->lkey == mr->lkey, imr->rkey == mr->rkey,
		    imr->length == mr->length, imr->handle == mr->handle,
		    imr->addr);
		o->ibv_unimport_mr(imr);
	}
	errno = 0;
	imr = o->ibv_import_mr(ipd, BOGUS_HANDLE);
	snprintf(k, sizeof(k), "%s/import_mr/bogus", where);
	say(out, k, "%s", imr ? "MR" : errname(errno));
	if (imr)
		o->ibv_unimport_mr(imr);
	o->ibv_unimport_pd(ipd);
	errno = 0;
	ipd = o->ibv_import_pd(ctx, BOGUS_HANDLE);
	snprintf(k, sizeof(k), "%s/import_pd/bogus", where);
	say(out, k, "%s", ipd ? "PD" : errname(errno));
	if (ipd)
		o->ibv_unimport_pd(ipd);
}

static void child(const struct rc_ops *o, struct ibv_context *ctx,
		  const struct ibv_pd *pd, const struct ibv_mr *mr, FILE *out)
{
	struct ibv_context *ictx;
	int fd = dup(ctx->cmd_fd);

	errno = 0;
	ictx = o->ibv_import_device(fd);
	say(out, "child/import_device", "%s",
	    ictx ? "context" : errname(errno));
	if (!ictx)
		close(fd);
	else
		say(out, "child/import_device/same", "device %d vectors %d",
		    ictx->device &&
			    !strcmp(ictx->device->name, ctx->device->name),
		    ictx->num_comp_vectors == ctx->num_comp_vectors);
	imports(o, ictx ? ictx : ctx, pd, mr, out,
		ictx ? "child/imported" : "child/inherited");
	if (ictx)
		say(out, "child/close_imported", "%d",
		    o->ibv_close_device(ictx));
	fflush(out);
}

/* Each "KEY VALUE" line of @in, seen. */
static void read_lines(struct side *s, FILE *in)
{
	char line[512], *sp;

	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = 0;
		sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp = 0;
		see(s, line, "%s", sp + 1);
	}
}

void walk_import(struct side *s, struct ibv_context *ctx)
{
	const struct rc_ops *o = s->ops;
	static char buf[4096] __attribute__((aligned(4096)));
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	FILE *in, *out;
	int p[2], status;
	pid_t pid;

	pd = o->ibv_alloc_pd(ctx);
	mr = pd ? (o->ibv_reg_mr)(pd, buf, sizeof(buf),
				  IBV_ACCESS_LOCAL_WRITE) :
		  NULL;
	if (!require(s, mr, "a PD and an MR to import"))
		goto out;
	/* this process: its own handles, through its own context */
	out = tmpfile();
	if (out) {
		imports(o, ctx, pd, mr, out, "self");
		rewind(out);
		read_lines(s, out);
		fclose(out);
	}
	if (pipe(p))
		goto out;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		out = fdopen(p[1], "w");
		if (out)
			child(o, ctx, pd, mr, out);
		_exit(0);
	}
	close(p[1]);
	in = fdopen(p[0], "r");
	if (in) {
		read_lines(s, in);
		fclose(in);
	} else {
		close(p[0]);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid)
		require(s, WIFEXITED(status) && !WEXITSTATUS(status),
			"the importing child ended with status %#x", status);
out:
	if (mr)
		see(s, "import/dereg_original", "%s",
		    errname(o->ibv_dereg_mr(mr)));
	if (pd)
		see(s, "import/dealloc_original", "%s",
		    errname(o->ibv_dealloc_pd(pd)));
}
