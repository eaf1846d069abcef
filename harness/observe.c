// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Helpers the case files' run functions use inside the forked child. */
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rdmaconf.h"

double rc_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int rc_scaled_ms(const struct rc_ctx *ctx, int ms)
{
	double s = ctx->target->slowness;

	return ms * (s > 1 ? s : 1);
}

bool rc_wait_same(const struct rc_ctx *ctx, const void *got, const void *want,
		  size_t len, int ms)
{
	const struct timespec pause = { .tv_nsec = 100 * 1000 };
	double end = rc_now_ms() + rc_scaled_ms(ctx, ms);

	while (memcmp(got, want, len) && rc_now_ms() < end)
		nanosleep(&pause, NULL);
	return !memcmp(got, want, len);
}

static double start_ms;

void rc_obs_begin(struct rc_obs *obs)
{
	obs->state = RC_STATE_STARTED;
	errno = 0;
	start_ms = rc_now_ms();
	if (obs->t_start > 0)
		obs->setup_ms = start_ms - obs->t_start;
}

void rc_obs_end(struct rc_obs *obs, long long ret)
{
	int err = errno;

	obs->elapsed_ms = rc_now_ms() - start_ms;
	obs->ret = ret;
	obs->err = err;
	obs->state = RC_STATE_RAN;
}

void rc_obs_out(struct rc_obs *obs, const void *buf, size_t len)
{
	if (len > RC_OUT_MAX)
		len = RC_OUT_MAX;
	memcpy(obs->out, buf, len);
	obs->out_len = len;
}

void rc_obs_state(struct rc_obs *obs, enum rc_state state, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(obs->reason, sizeof(obs->reason), fmt, ap);
	va_end(ap);
	obs->state = state;
}

void rc_obs_violation(struct rc_obs *obs, const char *fmt, ...)
{
	va_list ap;

	if (obs->violation[0])
		return; /* the first one tells */
	va_start(ap, fmt);
	vsnprintf(obs->violation, sizeof(obs->violation), fmt, ap);
	va_end(ap);
}

/* A NULL entry in the ops table is a call the implementation lacks. */
bool rc_need_call(struct rc_ctx *ctx, const void *fn, const char *name)
{
	if (fn)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_ABSENT, "symbol %s not exported by %s",
		     name, ctx->ops->name);
	return false;
}

void rc_bytes_build(const struct rc_bytes *b, uint8_t *buf)
{
	const struct rc_patch *p;
	uint8_t tmp[8];
	unsigned int i, k;

	memset(buf, b->fill, b->len);
	for (i = 0; i < RC_MAX_PATCH && b->patch[i].len; i++) {
		p = &b->patch[i];
		if (p->order == RC_RAW) {
			memcpy(buf + p->off, p->raw, p->len);
			continue;
		}
		/* big endian bytes of the value's low p->len bytes */
		for (k = 0; k < p->len; k++)
			tmp[k] = p->value >> (8 * (p->len - 1 - k));
		if (p->order == RC_HOST && __BYTE_ORDER == __LITTLE_ENDIAN)
			for (k = 0; k < p->len; k++)
				buf[p->off + k] = tmp[p->len - 1 - k];
		else
			memcpy(buf + p->off, tmp, p->len);
	}
}

double rc_obs_teardown_ms(const struct rc_obs *o)
{
	double t = o->total_ms - o->setup_ms - o->elapsed_ms;

	return o->state == RC_STATE_RAN && t > 0 ? t : 0;
}
