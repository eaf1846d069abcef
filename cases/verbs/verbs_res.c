// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <fcntl.h>
#include <sys/ioctl.h>
#include <rdma/ib_user_verbs.h>

#include "verbs_res.h"
#include "../../harness/device.h"

static struct ibv_context *open_target(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *c = NULL;
	int i;

	for (i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			c = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	return c;
}

static bool ud_to_rts(struct ibv_qp *qp, int port)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT,
				 .port_num = port,
				 .qkey = VRES_QKEY };

	if (ibv_modify_qp(qp, &a,
			  IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				  IBV_QP_QKEY))
		return false;
	a.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE))
		return false;
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	return !ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN);
}

static bool open_on(struct rc_ctx *ctx, struct vres *r, const char *ca,
		    int port, enum ibv_qp_type type)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = type,
		.cap = { .max_send_wr = 8,
			 .max_recv_wr = VRES_SLOTS,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	const char *step;
	size_t len = (VRES_SLOTS + 1) * VRES_SLOT;

	/* the datagram calls' resources: a row on them that did not declare
	 * the need would run, and break, where there are no datagrams */
	if (!(ctx->needs & RC_NEED_UD)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "the row uses the "
			     "datagram resources (verbs_res) without the need "
			     "ud");
		return false;
	}

	memset(r, 0, sizeof(*r));
	r->port = port;
	r->remote_qkey = VRES_QKEY;
	r->gid6 = rc_port_gid(ca, r->port, RC_GID_IPV6, r->g6.raw);
	r->gid4 = rc_port_gid(ca, r->port, RC_GID_IPV4, r->g4.raw);
	step = "ibv_open_device";
	r->ctx = open_target(ca);
	if (!r->ctx)
		goto broken;
	step = "ibv_alloc_pd";
	r->pd = ibv_alloc_pd(r->ctx);
	if (!r->pd)
		goto broken;
	step = "ibv_create_cq";
	r->scq = ibv_create_cq(r->ctx, 8, NULL, NULL, 0);
	r->rcq = ibv_create_cq(r->ctx, VRES_SLOTS, NULL, NULL, 0);
	if (!r->scq || !r->rcq)
		goto broken;
	qa.send_cq = r->scq;
	qa.recv_cq = r->rcq;
	step = "ibv_create_qp";
	r->qp = ibv_create_qp(r->pd, &qa);
	if (!r->qp)
		goto broken;
	step = "ibv_reg_mr";
	r->buf = calloc(1, len);
	r->mr = r->buf ?
			ibv_reg_mr(r->pd, r->buf, len, IBV_ACCESS_LOCAL_WRITE) :
			NULL;
	if (!r->mr)
		goto broken;
	step = "ibv_modify_qp to RTS";
	if (type == IBV_QPT_UD && !ud_to_rts(r->qp, r->port))
		goto broken;
	return true;
broken:
	rc_obs_state(ctx->obs, RC_STATE_BROKEN, "%s on %s: %m", step, ca);
	vres_close(r);
	return false;
}

bool vres_open(struct rc_ctx *ctx, struct vres *r, enum ibv_qp_type type)
{
	return open_on(ctx, r, ctx->target->ca, ctx->target->port, type);
}

bool vres_open_peer(struct rc_ctx *ctx, struct vres *r)
{
	return open_on(ctx, r, ctx->target->peer, ctx->target->peer_port,
		       IBV_QPT_UD);
}

void vres_close(struct vres *r)
{
	if (r->qp)
		ibv_destroy_qp(r->qp);
	if (r->mr)
		ibv_dereg_mr(r->mr);
	if (r->scq)
		ibv_destroy_cq(r->scq);
	if (r->rcq)
		ibv_destroy_cq(r->rcq);
	if (r->pd)
		ibv_dealloc_pd(r->pd);
	if (r->ctx)
		ibv_close_device(r->ctx);
	free(r->buf);
	memset(r, 0, sizeof(*r));
}

bool vres_post_recv(struct rc_ctx *ctx, struct vres *r, int n)
{
	struct ibv_recv_wr wr = {}, *bad;
	struct ibv_sge sge;
	int i;

	for (i = 0; i < n && i < VRES_SLOTS; i++) {
		sge.addr = (uintptr_t)(r->buf + i * VRES_SLOT);
		sge.length = VRES_SLOT;
		sge.lkey = r->mr->lkey;
		wr.wr_id = i;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		if (ibv_post_recv(r->qp, &wr, &bad)) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "ibv_post_recv: %m");
			return false;
		}
	}
	return true;
}

struct ibv_ah *vres_ah(struct vres *r, int sgid, const union ibv_gid *dgid)
{
	struct ibv_ah_attr a = {
		.is_global = 1,
		.port_num = r->port,
		.grh = { .dgid = *dgid, .sgid_index = sgid, .hop_limit = 64 },
	};

	return ibv_create_ah(r->pd, &a);
}

int vres_poll_cq(struct ibv_cq *cq, double deadline, struct ibv_wc *wc)
{
	int n;

	do {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return n < 0 ? -1 : 1;
		/* a completion is a memory write by the device: poll, with a
		 * pause so that the emulated CPU can run rxe's tasklets */
		poll(NULL, 0, 1);
	} while (rc_now_ms() < deadline);
	return 0;
}

bool vres_send(struct rc_ctx *ctx, struct vres *r, struct ibv_ah *ah,
	       uint32_t qpn, uint32_t tag)
{
	uint8_t *slot = r->buf + VRES_SLOTS * VRES_SLOT;
	struct ibv_sge sge = { .addr = (uintptr_t)slot,
			       .length = 64,
			       .lkey = r->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = 0x5e4d, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
		.wr.ud = { .ah = ah, .remote_qpn = qpn,
			   .remote_qkey = r->remote_qkey },
	}, *bad;
	double deadline = rc_now_ms() + rc_scaled_ms(ctx, VRES_WAIT_MS);
	struct ibv_wc wc;
	uint32_t be = htobe32(tag);

	memcpy(slot, &be, 4);
	if (ibv_post_send(r->qp, &wr, &bad))
		return false;
	return vres_poll_cq(r->scq, deadline, &wc) == 1 &&
	       wc.status == IBV_WC_SUCCESS;
}

int vres_recv(struct rc_ctx *ctx, struct vres *r, int ms, struct ibv_wc *wc,
	      struct ibv_grh *grh, uint32_t *tag)
{
	double deadline = rc_now_ms() + rc_scaled_ms(ctx, ms);
	const uint8_t *slot;
	uint32_t be;
	int n = vres_poll_cq(r->rcq, deadline, wc);

	if (n != 1)
		return n;
	if (wc->status != IBV_WC_SUCCESS || wc->wr_id >= VRES_SLOTS)
		return -1;
	slot = r->buf + wc->wr_id * VRES_SLOT;
	if (grh)
		memcpy(grh, slot, VRES_GRH);
	memcpy(&be, slot + VRES_GRH, 4);
	if (tag)
		*tag = be32toh(be);
	return 1;
}

int vres_count(struct rc_ctx *ctx, struct vres *r, int ms)
{
	struct ibv_wc wc;
	int n = 0;

	while (vres_recv(ctx, r, ms, &wc, NULL, NULL) == 1)
		n++;
	return n;
}

int vres_fabric_join(struct rc_ctx *ctx, struct vres *r,
		     const union ibv_gid *mgid)
{
	return vres_ip_join(ctx, ctx->target->ca, r->port, r->gid6, mgid->raw);
}

int vres_ip_join(struct rc_ctx *ctx, const char *ca, int port, int gid_index,
		 const uint8_t mgid[16])
{
	struct ipv6_mreq mreq = {};
	char ndev[IF_NAMESIZE + 1];
	int fd;

	if (rc_sysfs_read(ndev, sizeof(ndev),
			  RC_SYSFS_IB "/%s/ports/%d/gid_attrs/ndevs/%d", ca,
			  port, gid_index) ||
	    !(mreq.ipv6mr_interface = if_nametoindex(ndev))) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "no netdev behind GID "
			     "%d of %s",
			     gid_index, ca);
		return -1;
	}
	memcpy(&mreq.ipv6mr_multiaddr, mgid, 16);
	fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, IPPROTO_IPV6, IPV6_JOIN_GROUP, &mreq,
				 sizeof(mreq))) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "joining the group on "
			     "%s: %m",
			     ndev);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/*
 * Destroy the kernel object behind @ah with the uverbs DESTROY_AH command,
 * as no library would: the AH is then a valid userspace object whose
 * kernel half is gone, so that a later ibv_destroy_ah of it must fail,
 * without any use of freed memory.  0 or the errno of the write.
 */
int vres_kernel_destroy_ah(struct ibv_ah *ah)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_destroy_ah body;
	} cmd = {
		.hdr = { .command = IB_USER_VERBS_CMD_DESTROY_AH,
			 .in_words = sizeof(cmd) / 4 },
		.body = { .ah_handle = ah->handle },
	};

	if (write(ah->context->cmd_fd, &cmd, sizeof(cmd)) == sizeof(cmd))
		return 0;
	return errno ? errno : EIO;
}

/* the address the rows that change the port's addresses add and remove,
 * and its GID in sysfs */
const uint8_t vres_added6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x42 };
/* how long the GID table may take to follow the netdev */
#define GID_FOLLOW_MS 3000

/* struct in6_ifreq of <linux/ipv6.h>, which clashes with glibc's headers */
struct ifreq6 {
	struct in6_addr addr;
	uint32_t prefixlen;
	int ifindex;
};

/* Add or remove added6/64 on @dev, without duplicate address detection
 * (no wait for the address to leave tentative state): 0 or -errno.
 * Every row reads the port's addresses: one that changes them must run
 * alone (RC_SHARE_ALONE), or a row beside it sees them change. */
int vres_change_address(struct rc_ctx *ctx, const char *dev, bool add)
{
	struct ifreq6 req = { .prefixlen = 64 };
	char path[128];
	int fd, ret = 0;

	if (!(ctx->shares & RC_SHARE_ALONE)) {
		fprintf(stderr, "rdmaconf: a row changes the port's addresses "
				"without RC_SHARE_ALONE\n");
		return -EPERM;
	}

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/accept_dad",
		 dev);
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		ret = write(fd, "0", 1) == 1 ? 0 : -errno;
		close(fd);
	}
	memcpy(&req.addr, vres_added6, 16);
	req.ifindex = if_nametoindex(dev);
	fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (ret || !req.ifindex || fd < 0) {
		ret = ret ?: -errno;
	} else if (ioctl(fd, add ? SIOCSIFADDR : SIOCDIFADDR, &req)) {
		ret = -errno;
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

int vres_added_gid(struct rc_ctx *ctx, int port)
{
	char buf[64];
	int i;

	for (i = 0; i < 16; i++)
		if (!rc_sysfs_read(buf, sizeof(buf),
				   RC_SYSFS_IB "/%s/ports/%d/gids/%d",
				   ctx->target->ca, port, i) &&
		    !strcmp(buf, VRES_ADDED6_GID))
			return i;
	return -1;
}

int vres_wait_added_gid(struct rc_ctx *ctx, int port, bool present)
{
	double deadline = rc_now_ms() + rc_scaled_ms(ctx, GID_FOLLOW_MS);
	int found;

	do {
		found = vres_added_gid(ctx, port);
		if ((found >= 0) == present)
			return found;
		usleep(20000);
	} while (rc_now_ms() < deadline);
	return -2;
}
