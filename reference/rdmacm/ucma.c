// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <rdma/rdma_user_cm.h>

#include "ucma.h"

/* header, then the command; the response is where cmd.response points */
static int ucma_cmd(int fd, uint32_t cmd, void *body, size_t len,
		    size_t resp_len)
{
	struct {
		struct rdma_ucm_cmd_hdr hdr;
		uint8_t body[512];
	} req;
	size_t total = sizeof(req.hdr) + len;

	req.hdr.cmd = cmd;
	req.hdr.in = len;
	req.hdr.out = resp_len;
	memcpy(req.body, body, len);
	errno = 0;
	if (write(fd, &req, total) == (ssize_t)total)
		return 0;
	if (!errno)
		errno = EIO;
	return -1;
}

int ucma_open(void)
{
	return open("/dev/infiniband/rdma_cm", O_RDWR | O_CLOEXEC);
}

int ucma_create_id(int fd, uint64_t uid, uint16_t ps, uint8_t qp_type,
		   uint32_t *id)
{
	struct rdma_ucm_create_id_resp resp = {};
	struct rdma_ucm_create_id cmd = {
		.uid = uid,
		.response = (uintptr_t)&resp,
		.ps = ps,
		.qp_type = qp_type,
	};

	if (ucma_cmd(fd, RDMA_USER_CM_CMD_CREATE_ID, &cmd, sizeof(cmd),
		     sizeof(resp)))
		return -1;
	*id = resp.id;
	return 0;
}

/* DESTROY_ID and LEAVE_MCAST: the same command struct and answer, the
 * events the kernel reported for what goes away. */
static int ucma_destroy(int fd, uint32_t command, uint32_t id,
			uint32_t *events_reported)
{
	struct rdma_ucm_destroy_id_resp resp = {};
	struct rdma_ucm_destroy_id cmd = { .response = (uintptr_t)&resp,
					   .id = id };

	if (ucma_cmd(fd, command, &cmd, sizeof(cmd), sizeof(resp)))
		return -1;
	*events_reported = resp.events_reported;
	return 0;
}

int ucma_destroy_id(int fd, uint32_t id, uint32_t *events_reported)
{
	return ucma_destroy(fd, RDMA_USER_CM_CMD_DESTROY_ID, id,
			    events_reported);
}

int ucma_bind(int fd, uint32_t id, const struct sockaddr *addr, socklen_t len)
{
	struct rdma_ucm_bind cmd = { .id = id, .addr_size = len };

	if (len > sizeof(cmd.addr))
		return errno = EINVAL, -1;
	memcpy(&cmd.addr, addr, len);
	return ucma_cmd(fd, RDMA_USER_CM_CMD_BIND, &cmd, sizeof(cmd), 0);
}

int ucma_query_addr(int fd, uint32_t id, struct ucma_addr *a)
{
	struct rdma_ucm_query_addr_resp resp = {};
	struct rdma_ucm_query cmd = { .response = (uintptr_t)&resp,
				      .id = id,
				      .option = RDMA_USER_CM_QUERY_ADDR };

	if (ucma_cmd(fd, RDMA_USER_CM_CMD_QUERY, &cmd, sizeof(cmd),
		     sizeof(resp)))
		return -1;
	memset(a, 0, sizeof(*a));
	a->node_guid_be = resp.node_guid;
	a->port = resp.port_num;
	memcpy(&a->src, &resp.src_addr,
	       sizeof(a->src) < resp.src_size ? sizeof(a->src) : resp.src_size);
	memcpy(&a->dst, &resp.dst_addr,
	       sizeof(a->dst) < resp.dst_size ? sizeof(a->dst) : resp.dst_size);
	return 0;
}

int ucma_resolve_addr(int fd, uint32_t id, const struct sockaddr *src,
		      socklen_t src_len, const struct sockaddr *dst,
		      socklen_t dst_len, uint32_t timeout_ms)
{
	struct rdma_ucm_resolve_addr cmd = { .id = id,
					     .timeout_ms = timeout_ms,
					     .src_size = src_len,
					     .dst_size = dst_len };

	if (src_len > sizeof(cmd.src_addr) || dst_len > sizeof(cmd.dst_addr))
		return errno = EINVAL, -1;
	if (src_len)
		memcpy(&cmd.src_addr, src, src_len);
	memcpy(&cmd.dst_addr, dst, dst_len);
	return ucma_cmd(fd, RDMA_USER_CM_CMD_RESOLVE_ADDR, &cmd, sizeof(cmd),
			0);
}

int ucma_resolve_route(int fd, uint32_t id, uint32_t timeout_ms)
{
	struct rdma_ucm_resolve_route cmd = { .id = id,
					      .timeout_ms = timeout_ms };

	return ucma_cmd(fd, RDMA_USER_CM_CMD_RESOLVE_ROUTE, &cmd, sizeof(cmd),
			0);
}

int ucma_listen(int fd, uint32_t id, uint32_t backlog)
{
	struct rdma_ucm_listen cmd = { .id = id, .backlog = backlog };

	return ucma_cmd(fd, RDMA_USER_CM_CMD_LISTEN, &cmd, sizeof(cmd), 0);
}

static void conn_to_kernel(const struct ucma_conn *p,
			   struct rdma_ucm_conn_param *k)
{
	k->qp_num = p->qp_num;
	memcpy(k->private_data, p->private_data, p->private_data_len);
	k->private_data_len = p->private_data_len;
	k->srq = p->srq;
	k->responder_resources = p->responder_resources;
	k->initiator_depth = p->initiator_depth;
	k->flow_control = p->flow_control;
	k->retry_count = p->retry_count;
	k->rnr_retry_count = p->rnr_retry_count;
	k->valid = 1;
}

int ucma_connect(int fd, uint32_t id, const struct ucma_conn *p)
{
	struct rdma_ucm_connect cmd = { .id = id,
					.ece = { .vendor_id = p->ece_vendor_id,
						 .attr_mod =
							 p->ece_attr_mod } };

	conn_to_kernel(p, &cmd.conn_param);
	return ucma_cmd(fd, RDMA_USER_CM_CMD_CONNECT, &cmd, sizeof(cmd), 0);
}

int ucma_accept(int fd, uint32_t id, uint64_t uid, const struct ucma_conn *p)
{
	struct rdma_ucm_accept cmd = { .id = id, .uid = uid };

	if (p) {
		conn_to_kernel(p, &cmd.conn_param);
		cmd.ece.vendor_id = p->ece_vendor_id;
		cmd.ece.attr_mod = p->ece_attr_mod;
	}
	return ucma_cmd(fd, RDMA_USER_CM_CMD_ACCEPT, &cmd, sizeof(cmd), 0);
}

int ucma_reject(int fd, uint32_t id, const void *data, uint8_t len)
{
	struct rdma_ucm_reject cmd = { .id = id, .private_data_len = len };

	if (len)
		memcpy(cmd.private_data, data, len);
	return ucma_cmd(fd, RDMA_USER_CM_CMD_REJECT, &cmd, sizeof(cmd), 0);
}

int ucma_disconnect(int fd, uint32_t id)
{
	struct rdma_ucm_disconnect cmd = { .id = id };

	return ucma_cmd(fd, RDMA_USER_CM_CMD_DISCONNECT, &cmd, sizeof(cmd), 0);
}

int ucma_join(int fd, uint32_t id, uint64_t uid, const struct sockaddr *addr,
	      socklen_t len, uint32_t join_flags, uint32_t *mc)
{
	struct rdma_ucm_create_id_resp resp = {};
	struct rdma_ucm_join_mcast cmd = {
		.response = (uintptr_t)&resp,
		.uid = uid,
		.id = id,
		.addr_size = len,
		.join_flags = join_flags,
	};

	if (len > sizeof(cmd.addr))
		return errno = EINVAL, -1;
	memcpy(&cmd.addr, addr, len);
	if (ucma_cmd(fd, RDMA_USER_CM_CMD_JOIN_MCAST, &cmd, sizeof(cmd),
		     sizeof(resp)))
		return -1;
	*mc = resp.id;
	return 0;
}

int ucma_leave(int fd, uint32_t mc, uint32_t *events_reported)
{
	return ucma_destroy(fd, RDMA_USER_CM_CMD_LEAVE_MCAST, mc,
			    events_reported);
}

int ucma_get_event(int fd, struct ucma_event *ev)
{
	struct rdma_ucm_event_resp resp = {};
	struct rdma_ucm_get_event cmd = { .response = (uintptr_t)&resp };

	if (ucma_cmd(fd, RDMA_USER_CM_CMD_GET_EVENT, &cmd, sizeof(cmd),
		     sizeof(resp)))
		return -1;
	memset(ev, 0, sizeof(*ev));
	ev->uid = resp.uid;
	ev->id = resp.id;
	ev->event = resp.event;
	ev->status = resp.status;
	ev->qp_num = resp.param.ud.qp_num;
	ev->qkey = resp.param.ud.qkey;
	ev->ah_attr = resp.param.ud.ah_attr;
	ev->conn.qp_num = resp.param.conn.qp_num;
	memcpy(ev->conn.private_data, resp.param.conn.private_data,
	       sizeof(ev->conn.private_data));
	ev->conn.private_data_len = resp.param.conn.private_data_len;
	ev->conn.srq = resp.param.conn.srq;
	ev->conn.responder_resources = resp.param.conn.responder_resources;
	ev->conn.initiator_depth = resp.param.conn.initiator_depth;
	ev->conn.flow_control = resp.param.conn.flow_control;
	ev->conn.retry_count = resp.param.conn.retry_count;
	ev->conn.rnr_retry_count = resp.param.conn.rnr_retry_count;
	ev->conn.ece_vendor_id = resp.ece.vendor_id;
	ev->conn.ece_attr_mod = resp.ece.attr_mod;
	memcpy(&ev->arg, &resp.param, sizeof(ev->arg));
	return 0;
}

/*
 * The newer kernel ABI's command (include/uapi/rdma/rdma_user_cm.h of
 * Linux 6.15 and later): the command after RESOLVE_IB_SERVICE, which is
 * after JOIN_MCAST, and its struct rdma_ucm_write_cm_event.  A kernel
 * without it refuses the command number (EINVAL).
 */
#define UCMA_CMD_WRITE_CM_EVENT (RDMA_USER_CM_CMD_JOIN_MCAST + 2)

struct ucma_write_cm_event_cmd {
	uint32_t id;
	uint32_t reserved;
	uint32_t event;
	uint32_t status;
	union {
		struct rdma_ucm_conn_param conn;
		struct rdma_ucm_ud_param ud;
		uint64_t arg;
	} param;
};

int ucma_write_cm_event(int fd, uint32_t id, uint32_t event, int32_t status,
			uint64_t arg)
{
	struct ucma_write_cm_event_cmd cmd = { .id = id,
					       .event = event,
					       .status = (uint32_t)status };

	cmd.param.arg = arg;
	return ucma_cmd(fd, UCMA_CMD_WRITE_CM_EVENT, &cmd, sizeof(cmd), 0);
}

int ucma_init_qp_attr(int fd, uint32_t id, int state,
		      struct ib_uverbs_qp_attr *attr)
{
	struct rdma_ucm_init_qp_attr cmd = { .response = (uintptr_t)attr,
					     .id = id,
					     .qp_state = state };

	memset(attr, 0, sizeof(*attr));
	return ucma_cmd(fd, RDMA_USER_CM_CMD_INIT_QP_ATTR, &cmd, sizeof(cmd),
			sizeof(*attr));
}

int ucma_migrate_id(int new_fd, uint32_t id, int cur_fd,
		    uint32_t *events_reported)
{
	struct rdma_ucm_migrate_resp resp = {};
	struct rdma_ucm_migrate_id cmd = { .response = (uintptr_t)&resp,
					   .id = id,
					   .fd = cur_fd };

	if (ucma_cmd(new_fd, RDMA_USER_CM_CMD_MIGRATE_ID, &cmd, sizeof(cmd),
		     sizeof(resp)))
		return -1;
	*events_reported = resp.events_reported;
	return 0;
}

int ucma_notify(int fd, uint32_t id, uint32_t event)
{
	struct rdma_ucm_notify cmd = { .id = id, .event = event };

	return ucma_cmd(fd, RDMA_USER_CM_CMD_NOTIFY, &cmd, sizeof(cmd), 0);
}

int ucma_set_option(int fd, uint32_t id, uint32_t level, uint32_t optname,
		    const void *optval, uint32_t optlen)
{
	struct rdma_ucm_set_option cmd = { .optval = (uintptr_t)optval,
					   .id = id,
					   .level = level,
					   .optname = optname,
					   .optlen = optlen };

	return ucma_cmd(fd, RDMA_USER_CM_CMD_SET_OPTION, &cmd, sizeof(cmd), 0);
}
