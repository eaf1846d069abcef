// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* ref-smoke's observations (smoke.h): recorded per side, then compared. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "smoke.h"

static void store(struct side *s, bool shared, const char *key, const char *val)
{
	struct obs *o;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->obs = realloc(s->obs, s->cap * sizeof(*s->obs));
		if (!s->obs) {
			perror("ref-smoke");
			exit(2);
		}
	}
	o = &s->obs[s->n++];
	snprintf(o->key, sizeof(o->key), "%s", key);
	snprintf(o->val, sizeof(o->val), "%s", val);
	o->shared = shared;
}

/* In the walking child: one line to the parent at once, so that a crash
 * loses nothing seen before it. */
static void record(struct side *s, bool shared, const char *key,
		   const char *fmt, va_list ap)
{
	char val[sizeof(((struct obs *)0)->val)];

	vsnprintf(val, sizeof(val), fmt, ap);
	val[strcspn(val, "\t\n")] = 0;
	fprintf(s->out, "%s\t%s/%s\t%s\n", shared ? "see" : "note", s->dev, key,
		val);
	fflush(s->out);
}

void see(struct side *s, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(s, true, key, fmt, ap);
	va_end(ap);
}

void note(struct side *s, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(s, false, key, fmt, ap);
	va_end(ap);
}

bool require(struct side *s, bool cond, const char *fmt, ...)
{
	va_list ap;

	if (cond)
		return true;
	fprintf(s->out, "fail\t%s: ", s->dev);
	va_start(ap, fmt);
	vfprintf(s->out, fmt, ap);
	va_end(ap);
	fputc('\n', s->out);
	fflush(s->out);
	return false;
}

const char *errname(int err)
{
	static char buf[16];
	static const struct {
		int err;
		const char *name;
	} names[] = {
		{ 0, "0" },
		{ EPERM, "EPERM" },
		{ ENOENT, "ENOENT" },
		{ EIO, "EIO" },
		{ EBADF, "EBADF" },
		{ EAGAIN, "EAGAIN" },
		{ ENOMEM, "ENOMEM" },
		{ EACCES, "EACCES" },
		{ EFAULT, "EFAULT" },
		{ EBUSY, "EBUSY" },
		{ EEXIST, "EEXIST" },
		{ ENODEV, "ENODEV" },
		{ EINVAL, "EINVAL" },
		{ ENOSPC, "ENOSPC" },
		{ ENOSYS, "ENOSYS" },
		{ ENODATA, "ENODATA" },
		{ EPROTONOSUPPORT, "EPROTONOSUPPORT" },
		{ EOPNOTSUPP, "EOPNOTSUPP" },
		{ ETIMEDOUT, "ETIMEDOUT" },
		{ ENOTTY, "ENOTTY" },
		{ ERANGE, "ERANGE" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].err == err)
			return names[i].name;
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

void isolated(struct side *s, const char *key,
	      void (*fn)(struct side *, void *), void *arg)
{
	int status;
	pid_t pid;

	fflush(s->out);
	pid = fork();
	if (pid == 0) {
		fn(s, arg);
		fflush(s->out);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		see(s, key, "no child: %s", errname(errno));
	else if (WIFSIGNALED(status))
		see(s, key, "crash (signal %d)", WTERMSIG(status));
}

void take_line(struct side *s, char *line)
{
	char *key, *val;

	line[strcspn(line, "\n")] = 0;
	key = strchr(line, '\t');
	if (!key)
		return;
	*key++ = 0;
	if (!strcmp(line, "fail")) {
		s->fails++;
		printf("FAIL %s %s\n", s->name, key);
		return;
	}
	val = strchr(key, '\t');
	if (!val)
		return;
	*val++ = 0;
	store(s, !strcmp(line, "see"), key, val);
	snprintf(s->last, sizeof(s->last), "%s", key);
}

static const struct obs *find(const struct side *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->obs[i].key, key))
			return &s->obs[i];
	return NULL;
}

unsigned int report(const struct side *sys, const struct side *ref,
		    unsigned int *compared)
{
	const struct side *sides[] = { sys, ref };
	unsigned int differ = 0;
	const struct obs *a, *b;
	size_t i, k;

	*compared = 0;
	for (i = 0; i < sys->n; i++) {
		a = &sys->obs[i];
		if (!a->shared)
			continue;
		b = find(ref, a->key);
		++*compared;
		if (b && !strcmp(a->val, b->val)) {
			printf("ok %s %s\n", a->key, a->val);
			continue;
		}
		differ++;
		printf("DIFF %s system=%s reference=%s\n", a->key, a->val,
		       b ? b->val : "(not seen)");
	}
	for (i = 0; i < ref->n; i++) {
		b = &ref->obs[i];
		if (b->shared && !find(sys, b->key)) {
			++*compared;
			differ++;
			printf("DIFF %s system=(not seen) reference=%s\n",
			       b->key, b->val);
		}
	}
	for (k = 0; k < 2; k++)
		for (i = 0; i < sides[k]->n; i++)
			if (!sides[k]->obs[i].shared)
				printf("note %s %s %s\n", sides[k]->name,
				       sides[k]->obs[i].key,
				       sides[k]->obs[i].val);
	return differ;
}

void holdings(struct holdings *h)
{
	char line[512];
	struct dirent *e;
	DIR *d;
	FILE *f;

	h->fds = 0;
	h->maps = 0;
	d = opendir("/proc/self/fd");
	while (d && (e = readdir(d)))
		h->fds += e->d_name[0] != '.';
	if (d)
		closedir(d);
	f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof(line), f))
		h->maps += !!strstr(line, "/dev/infiniband/");
	if (f)
		fclose(f);
}
