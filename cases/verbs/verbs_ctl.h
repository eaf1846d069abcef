/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the control-path rows of libibverbs share (devices, contexts,
 * attributes, PDs, MRs, MWs, channels, CQs): a row of one table type that
 * names the rung it stands on (verbs_ladder.h) and its check, the run
 * function that climbs and comes down around the check, and the ways a
 * row makes a call fail that the page names no argument for: a context
 * whose command file no longer takes commands, a process that can open no
 * more files.
 */
#ifndef RDMACONF_CASES_VERBS_CTL_H
#define RDMACONF_CASES_VERBS_CTL_H

#include <stdint.h>
#include <sys/resource.h>

#include "verbs_ladder.h"

enum { VC_NEEDS = RC_NEED_DEVICE };
/* a row that stands on no rung: no device, no ladder */
#define VC_BARE (-1)

struct vc_row;
/* What a row does standing on @l (climbed to the row's rung). */
typedef void vc_check(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l);

struct vc_row {
	struct rc_case c;
	vc_check *check;
	int rung; /* enum vl_rung, or VC_BARE */
	long arg; /* what differs between rows of one check */
};

/* The row: @fn (the call under test) present, the ladder up to the
 * row's rung, the check, the ladder down. */
void vc_run(const struct vc_row *row, struct rc_ctx *ctx, const void *fn,
	    const char *name);

/* The group of @fn, whose rows are @table, reporting as @cv. */
#define VC_GROUP(var, fn, cv, table)                             \
	static void var##_run(const void *r, struct rc_ctx *ctx) \
	{                                                        \
		vc_run(r, ctx, (const void *)ctx->ops->fn, #fn); \
	}                                                        \
	RC_TABLE_GROUP(var##_group, #fn, cv, "verbs", table, var##_run)

/* The device's attributes through the implementation under test (set-up:
 * BROKEN when it fails). */
bool vc_attr(struct rc_ctx *ctx, struct vl *l, struct ibv_device_attr *a);
/*
 * From now on, @l's context's command file takes no command: an O_PATH
 * descriptor is put in its place (write(2) and ioctl(2) on it fail with
 * EBADF, whichever the library sends its commands with), so the library's
 * next command to the kernel fails, and no later open(2) gets the number.
 * The file's close destroys what the context had in the kernel.  BROKEN
 * when it cannot.
 */
bool vc_sever(struct rc_ctx *ctx, struct vl *l);
/* The process can open no more files (RLIMIT_NOFILE at the lowest free
 * descriptor) until vc_fds_back(@saved). */
bool vc_no_fds(struct rc_ctx *ctx, struct rlimit *saved);
void vc_fds_back(const struct rlimit *saved);
/* Is @fd open, and what does it name (readlink of /proc/self/fd/N)? */
bool vc_fd_names(int fd, char *buf, size_t len);
/* An MR of @len bytes of fresh anonymous memory on @pd, or NULL and the
 * row BROKEN; vc_mr_free undoes it. */
struct ibv_mr *vc_mr(struct rc_ctx *ctx, struct ibv_pd *pd, size_t len,
		     int access);
void vc_mr_free(struct rc_ctx *ctx, struct ibv_mr *mr);
/* Another PD of @l's context (set-up), or NULL and the row BROKEN */
struct ibv_pd *vc_second_pd(struct rc_ctx *ctx, struct vl *l);
/*
 * Does @what, made on @pd, hold it: does ibv_dealloc_pd refuse it?  When
 * the PD deallocates instead, the row is violated ("pd: deallocated with
 * @what on it") and false: the PD is gone.
 */
bool vc_pd_held(struct rc_ctx *ctx, struct ibv_pd *pd, const char *what);
/* The phys_port_cnt of the target device read in sysfs. */
int vc_sysfs_ports(struct rc_ctx *ctx);

#endif

/*
 * Every enum ibv_rate that names a rate: its nominal rate in tenths of a
 * Gbit/s (the enumerator's name), and its lanes' data rate in Mbit/s as
 * Linux's ib_rate_to_mbps (drivers/infiniband/core/verbs.c) has it.
 */
struct vc_rate {
	enum ibv_rate rate;
	int gbps10;
	int linux_mbps;
};
extern const struct vc_rate vc_rates[];
extern const int vc_nrates;
/* the highest value of enum ibv_rate */
#define VC_RATE_LAST IBV_RATE_1200_GBPS

/*
 * The kernel's record of this process's MR of @lkey on the target device
 * (RDMA netlink, as `rdma res show mr` has it; verbs_nl.h): true when
 * there is one, with its length and rkey.
 */
bool vc_kernel_mr(struct rc_ctx *ctx, uint32_t lkey, uint64_t *len,
		  uint32_t *rkey);
/* Two fresh pages of anonymous memory with @prot, or NULL (BROKEN) */
uint8_t *vc_pages(struct rc_ctx *ctx, int prot);
void vc_unpages(uint8_t *p);
/* A buffer of ibv_alloc_buf(3) of @len on @pd (set-up), its handle in
 * *@b, or NULL and the row BROKEN (or ABSENT: a library before 64) */
uint8_t *vc_buf(struct rc_ctx *ctx, struct ibv_pd *pd, size_t len,
		struct ibv_buf **b);
/* @mr as registered from @addr, @len on @pd, and in the kernel (its
 * length and rkey): each mismatch a violation */
void vc_check_mr(struct rc_ctx *ctx, struct ibv_pd *pd, struct ibv_mr *mr,
		 void *addr, size_t len);
/* Whether the device does what a row needs (query_device through the
 * implementation under test); UNSUPPORTED with @why when not. */
bool vc_device_can(struct rc_ctx *ctx, struct vl *l, bool can, const char *why);

/*
 * Whether a CQ of @cqe entries is within what a row may take of the
 * machine (VC_CQ_BYTES at 64 bytes an entry); UNSUPPORTED when not.
 * ibv_query_device(3): "it may not be possible to use these maximum
 * values, since the actual number of any resource that can be created may
 * be limited by the machine configuration, the amount of host memory".
 */
#define VC_CQ_BYTES (8u << 20)
bool vc_cq_fits(struct rc_ctx *ctx, int cqe);
