// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "verbs_ctl.h"
#include "verbs_nl.h"
#include "../../harness/device.h"

const struct vc_rate vc_rates[] = {
	{ IBV_RATE_2_5_GBPS, 25, 2500 },
	{ IBV_RATE_5_GBPS, 50, 5000 },
	{ IBV_RATE_10_GBPS, 100, 10000 },
	{ IBV_RATE_20_GBPS, 200, 20000 },
	{ IBV_RATE_30_GBPS, 300, 30000 },
	{ IBV_RATE_40_GBPS, 400, 40000 },
	{ IBV_RATE_60_GBPS, 600, 60000 },
	{ IBV_RATE_80_GBPS, 800, 80000 },
	{ IBV_RATE_120_GBPS, 1200, 120000 },
	{ IBV_RATE_14_GBPS, 140, 14062 },
	{ IBV_RATE_56_GBPS, 560, 56250 },
	{ IBV_RATE_112_GBPS, 1120, 112500 },
	{ IBV_RATE_168_GBPS, 1680, 168750 },
	{ IBV_RATE_25_GBPS, 250, 25781 },
	{ IBV_RATE_100_GBPS, 1000, 103125 },
	{ IBV_RATE_200_GBPS, 2000, 206250 },
	{ IBV_RATE_300_GBPS, 3000, 309375 },
	{ IBV_RATE_28_GBPS, 280, 28125 },
	{ IBV_RATE_50_GBPS, 500, 53125 },
	{ IBV_RATE_400_GBPS, 4000, 425000 },
	{ IBV_RATE_600_GBPS, 6000, 637500 },
	{ IBV_RATE_800_GBPS, 8000, 850000 },
	{ IBV_RATE_1200_GBPS, 12000, 1275000 },
};
const int vc_nrates = ARRAY_SIZE(vc_rates);

void vc_run(const struct vc_row *row, struct rc_ctx *ctx, const void *fn,
	    const char *name)
{
	struct vl l = { 0 };

	if (!rc_need_call(ctx, fn, name))
		return;
	if (row->rung == VC_BARE) {
		row->check(row, ctx, &l);
		return;
	}
	if (vl_up(ctx, &l, row->rung))
		row->check(row, ctx, &l);
	vl_down(ctx, &l);
}

bool vc_attr(struct rc_ctx *ctx, struct vl *l, struct ibv_device_attr *a)
{
	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_query_device,
			  "ibv_query_device"))
		return false;
	memset(a, 0, sizeof(*a));
	errno = ctx->ops->ibv_query_device(l->ctx, a);
	if (!errno)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "ibv_query_device failed "
		     "(set-up): %m");
	return false;
}

bool vc_sever(struct rc_ctx *ctx, struct vl *l)
{
	int fd = open("/", O_PATH);

	if (fd < 0 || dup2(fd, l->ctx->cmd_fd) < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "could not take the "
			     "command file away (set-up): %m");
		if (fd >= 0)
			close(fd);
		return false;
	}
	close(fd);
	return true;
}

bool vc_no_fds(struct rc_ctx *ctx, struct rlimit *saved)
{
	struct rlimit r;
	int fd = dup(0);

	if (fd < 0)
		fd = open("/dev/null", O_RDONLY);
	if (fd < 0 || getrlimit(RLIMIT_NOFILE, saved)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "no file limit to "
			     "lower (set-up): %m");
		return false;
	}
	close(fd);
	r = *saved;
	r.rlim_cur = fd;
	if (setrlimit(RLIMIT_NOFILE, &r)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "setrlimit (set-up): "
			     "%m");
		return false;
	}
	return true;
}

void vc_fds_back(const struct rlimit *saved)
{
	setrlimit(RLIMIT_NOFILE, saved);
}

bool vc_fd_names(int fd, char *buf, size_t len)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, buf, len - 1);
	if (n < 0) {
		buf[0] = 0;
		return false;
	}
	buf[n] = 0;
	return true;
}

struct ibv_mr *vc_mr(struct rc_ctx *ctx, struct ibv_pd *pd, size_t len,
		     int access)
{
	struct ibv_mr *mr;
	void *buf;

	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "mmap (set-up): %m");
		return NULL;
	}
	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_reg_mr,
			  "ibv_reg_mr") ||
	    !rc_need_call(ctx, (const void *)ctx->ops->ibv_dereg_mr,
			  "ibv_dereg_mr")) {
		munmap(buf, len);
		return NULL;
	}
	mr = (ctx->ops->ibv_reg_mr)(pd, buf, len, access);
	if (!mr) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_reg_mr failed "
			     "(set-up): %m");
		munmap(buf, len);
	}
	return mr;
}

void vc_mr_free(struct rc_ctx *ctx, struct ibv_mr *mr)
{
	void *addr;
	size_t len;

	if (!mr)
		return;
	addr = mr->addr;
	len = mr->length;
	ctx->ops->ibv_dereg_mr(mr);
	munmap(addr, len);
}

struct ibv_pd *vc_second_pd(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_pd *pd = ctx->ops->ibv_alloc_pd(l->ctx);

	if (!pd)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "a second PD (set-up): %m");
	return pd;
}

bool vc_pd_held(struct rc_ctx *ctx, struct ibv_pd *pd, const char *what)
{
	if (ctx->ops->ibv_dealloc_pd(pd))
		return true;
	rc_obs_violation(ctx->obs, "pd: deallocated with %s on it", what);
	return false;
}

int vc_sysfs_ports(struct rc_ctx *ctx)
{
	char path[160];

	snprintf(path, sizeof(path), RC_SYSFS_IB "/%s/ports", ctx->target->ca);
	return rc_dir_count(path);
}

bool vc_kernel_mr(struct rc_ctx *ctx, uint32_t lkey, uint64_t *len,
		  uint32_t *rkey)
{
	return vn_mr(ctx->target->ca, lkey, len, rkey);
}

uint8_t *vc_pages(struct rc_ctx *ctx, int prot)
{
	void *p = mmap(NULL, 2 * sysconf(_SC_PAGESIZE), prot,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p != MAP_FAILED)
		return p;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN, "mmap (set-up): %m");
	return NULL;
}

void vc_unpages(uint8_t *p)
{
	munmap(p, 2 * sysconf(_SC_PAGESIZE));
}

uint8_t *vc_buf(struct rc_ctx *ctx, struct ibv_pd *pd, size_t len,
		struct ibv_buf **b)
{
	uint8_t *p;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_alloc_buf,
			  "ibv_alloc_buf") ||
	    !rc_need_call(ctx, (const void *)ctx->ops->ibv_free_buf,
			  "ibv_free_buf"))
		return NULL;
	*b = NULL;
	p = ctx->ops->ibv_alloc_buf(pd, len, b);
	if (p && *b)
		return p;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN, "ibv_alloc_buf (set-up): %m");
	return NULL;
}

void vc_check_mr(struct rc_ctx *ctx, struct ibv_pd *pd, struct ibv_mr *mr,
		 void *addr, size_t len)
{
	uint64_t klen;
	uint32_t krkey;

	if (mr->addr != addr || mr->length != len)
		rc_obs_violation(ctx->obs,
				 "addr/length %p/%zu, registered %p/%zu",
				 mr->addr, mr->length, addr, len);
	else if (mr->pd != pd || mr->context != pd->context)
		rc_obs_violation(ctx->obs, "pd/context: not the PD's");
	else if (!vc_kernel_mr(ctx, mr->lkey, &klen, &krkey))
		rc_obs_violation(ctx->obs,
				 "lkey 0x%x: the kernel has no such MR of this "
				 "process",
				 mr->lkey);
	else if (klen != len || krkey != mr->rkey)
		rc_obs_violation(ctx->obs,
				 "length/rkey: the kernel's MR has %llu/0x%x, "
				 "the caller's %zu/0x%x",
				 (unsigned long long)klen, krkey, len,
				 mr->rkey);
}

bool vc_device_can(struct rc_ctx *ctx, struct vl *l, bool can, const char *why)
{
	if (!can)
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED, "%s", why);
	return can;
}

bool vc_cq_fits(struct rc_ctx *ctx, int cqe)
{
	if ((unsigned long long)cqe * 64 <= VC_CQ_BYTES)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
		     "a CQ of max_cqe (%d) "
		     "entries is more of the machine than a row takes (%u MB "
		     "at 64 bytes an entry)",
		     cqe, VC_CQ_BYTES >> 20);
	return false;
}
