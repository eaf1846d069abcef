// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ref-smoke [DEVICE...]: the libibverbs control path on both
 * implementations, every device of the system's list (or those named),
 * compared (smoke.h).  Exit status 0 when nothing FAILs; differences
 * between the sides are reported, not judged: the caller knows which are
 * expected.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "smoke.h"

#define MAX_DEVICES 16

static int device_names(char names[][64], int argc, char **argv)
{
	const struct rc_ops *o = rc_impl(RC_IMPL_SYSTEM);
	struct ibv_device **list;
	int n = 0, i;

	for (i = 1; i < argc && n < MAX_DEVICES; i++)
		snprintf(names[n++], 64, "%s", argv[i]);
	if (n)
		return n;
	if (!o->ibv_get_device_list)
		o = rc_impl(RC_IMPL_REFERENCE);
	list = o->ibv_get_device_list(NULL);
	for (i = 0; list && list[i] && n < MAX_DEVICES; i++)
		snprintf(names[n++], 64, "%s", o->ibv_get_device_name(list[i]));
	if (list)
		o->ibv_free_device_list(list);
	return n;
}

static void walk_device(struct side *s, const char *name)
{
	struct ibv_context *ctx;

	snprintf(s->dev, sizeof(s->dev), "%s", name);
	ctx = open_by_name(s, name);
	if (!ctx)
		return;
	s->iwarp = ctx->device->transport_type == IBV_TRANSPORT_IWARP;
	walk_context(s, ctx);
	walk_memory(s, ctx);
	walk_queues(s, ctx);
	walk_qps(s, ctx);
	walk_import(s, ctx);
	/* "returns 0 on success, -1 on failure" */
	see(s, "close_device", "%d", s->ops->ibv_close_device(ctx));
	walk_no_provider(s, name);
}

static void walk(struct side *s, char names[][64], int n)
{
	struct holdings before, after;
	int i;

	holdings(&before);
	walk_devices(s);
	for (i = 0; i < n; i++)
		walk_device(s, names[i]);
	holdings(&after);
	snprintf(s->dev, sizeof(s->dev), "teardown");
	/* everything made was destroyed, every context closed */
	require(s, after.fds == before.fds && after.maps == before.maps,
		"left behind: %d fds, %d device mappings",
		after.fds - before.fds, after.maps - before.maps);
	see(s, "left_behind", "fds %d maps %d", after.fds - before.fds,
	    after.maps - before.maps);
}

/* A whole walk is a few seconds under TCG: a minute is a hang. */
#define WATCHDOG_S 60

/* @s walked in a child of its own; what it saw taken as it comes. */
static void walk_side(struct side *s, char names[][64], int n)
{
	char line[512];
	int p[2], status;
	FILE *in;
	pid_t pid;

	if (pipe(p)) {
		perror("ref-smoke: pipe");
		exit(2);
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		s->out = fdopen(p[1], "w");
		if (!s->out)
			_exit(2);
		alarm(WATCHDOG_S);
		walk(s, names, n);
		fclose(s->out);
		_exit(0);
	}
	close(p[1]);
	in = pid > 0 ? fdopen(p[0], "r") : NULL;
	while (in && fgets(line, sizeof(line), in))
		take_line(s, line);
	if (in)
		fclose(in);
	else
		close(p[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		printf("FAIL %s: no walk (%s)\n", s->name, strerror(errno));
		s->fails++;
		return;
	}
	if (WIFSIGNALED(status) || WEXITSTATUS(status)) {
		printf("FAIL %s: the walk ended by %s %d after %s\n", s->name,
		       WIFSIGNALED(status) ? "signal" : "status",
		       WIFSIGNALED(status) ? WTERMSIG(status) :
					     WEXITSTATUS(status),
		       s->last[0] ? s->last : "nothing");
		s->fails++;
	}
}

int main(int argc, char **argv)
{
	struct side sys = { .name = "system", .ops = rc_impl(RC_IMPL_SYSTEM) };
	struct side ref = { .name = "reference",
			    .ops = rc_impl(RC_IMPL_REFERENCE) };
	char names[MAX_DEVICES][64];
	unsigned int compared, differ;
	int n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!sys.ops->ibv_get_device_list) {
		fprintf(stderr, "ref-smoke: libibverbs: %s\n",
			rc_impl_open_error("verbs") ?: "not loaded");
		return 2;
	}
	n = device_names(names, argc, argv);
	if (!n) {
		fprintf(stderr, "ref-smoke: no RDMA device\n");
		return 2;
	}
	walk_side(&sys, names, n);
	walk_side(&ref, names, n);
	differ = report(&sys, &ref, &compared);
	printf("ref-smoke: %u compared, %u differ, %u failed\n", compared,
	       differ, sys.fails + ref.fails);
	free(sys.obs);
	free(ref.obs);
	return sys.fails + ref.fails ? 1 : 0;
}
