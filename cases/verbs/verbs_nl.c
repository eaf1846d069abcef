// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "verbs_nl.h"

#define BUF 32768
#define ALIGN4(n) (((n) + 3) & ~3u)

/* What a dump's walk is after. */
struct want {
	const char *name; /* vn_dev_index: the device */
	int index; /* its index, found */
	uint32_t lkey; /* vn_mr: the MR */
	bool found;
	uint64_t len;
	uint32_t rkey;
	int cof; /* vn_copy_on_fork */
	int port; /* vn_port_netdev: the port */
	char *ndev; /* its netdev's name, found */
	size_t ndev_len;
};

/* One request of @cmd (with the device's index when @dev >= 0); every
 * attribute of the answer goes to @each.  0, or -1. */
static int ask(int cmd, int flags, int dev,
	       void (*each)(const struct nlattr *a, int len, struct want *w),
	       struct want *w)
{
	struct {
		struct nlmsghdr h;
		struct nlattr a;
		uint32_t index;
	} req = {
		.h = { .nlmsg_len = sizeof(struct nlmsghdr),
		       .nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd),
		       .nlmsg_flags = NLM_F_REQUEST | flags,
		       .nlmsg_seq = 1 },
	};
	static char buf[BUF];
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	ssize_t n;
	int ret = -1;

	if (fd < 0)
		return -1;
	if (dev >= 0) {
		req.a.nla_len = NLA_HDRLEN + sizeof(uint32_t);
		req.a.nla_type = RDMA_NLDEV_ATTR_DEV_INDEX;
		req.index = dev;
		req.h.nlmsg_len = sizeof(req);
	}
	if (sendto(fd, &req, req.h.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		goto out;
	while ((n = recv(fd, buf, sizeof(buf), 0)) > 0) {
		struct nlmsghdr *h = (struct nlmsghdr *)buf;

		for (; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_ERROR)
				goto out;
			if (h->nlmsg_type == NLMSG_DONE) {
				ret = 0;
				goto out;
			}
			each((struct nlattr *)NLMSG_DATA(h),
			     h->nlmsg_len - NLMSG_HDRLEN, w);
			if (!(h->nlmsg_flags & NLM_F_MULTI)) {
				ret = 0;
				goto out;
			}
		}
	}
out:
	close(fd);
	return ret;
}

#define FOR_ATTR(a, len)                                                 \
	for (; (len) >= (int)NLA_HDRLEN && (a)->nla_len >= NLA_HDRLEN && \
	       (a)->nla_len <= (len);                                    \
	     (len) -= ALIGN4((a)->nla_len),                              \
	     (a) = (const struct nlattr *)((const char *)(a) +           \
					   ALIGN4((a)->nla_len)))
#define PAYLOAD(a) ((const char *)(a) + NLA_HDRLEN)
#define TYPE(a) ((a)->nla_type & NLA_TYPE_MASK)

static uint32_t u32_of(const struct nlattr *a)
{
	uint32_t v;

	memcpy(&v, PAYLOAD(a), sizeof(v));
	return v;
}

static void dev_each(const struct nlattr *a, int len, struct want *w)
{
	int index = -1;
	bool named = false;

	FOR_ATTR(a, len)
	{
		if (TYPE(a) == RDMA_NLDEV_ATTR_DEV_INDEX)
			index = u32_of(a);
		else if (TYPE(a) == RDMA_NLDEV_ATTR_DEV_NAME)
			named = !strncmp(PAYLOAD(a), w->name,
					 a->nla_len - NLA_HDRLEN) &&
				strlen(w->name) < a->nla_len - NLA_HDRLEN;
	}
	if (named)
		w->index = index;
}

int vn_dev_index(const char *name)
{
	struct want w = { .name = name, .index = -1 };

	if (ask(RDMA_NLDEV_CMD_GET, NLM_F_DUMP, -1, dev_each, &w))
		return -1;
	return w.index;
}

/* One RES_MR_ENTRY: the MR when its lkey and pid are the ones wanted */
static void mr_entry(const struct nlattr *a, int len, struct want *w)
{
	uint32_t lkey = 0, rkey = 0, pid = 0;
	uint64_t mrlen = 0;
	bool has_lkey = false;

	FOR_ATTR(a, len)
	{
		switch (TYPE(a)) {
		case RDMA_NLDEV_ATTR_RES_LKEY:
			lkey = u32_of(a);
			has_lkey = true;
			break;
		case RDMA_NLDEV_ATTR_RES_RKEY:
			rkey = u32_of(a);
			break;
		case RDMA_NLDEV_ATTR_RES_PID:
			pid = u32_of(a);
			break;
		case RDMA_NLDEV_ATTR_RES_MRLEN:
			memcpy(&mrlen, PAYLOAD(a), sizeof(mrlen));
			break;
		}
	}
	if (has_lkey && lkey == w->lkey && pid == (uint32_t)getpid()) {
		w->found = true;
		w->len = mrlen;
		w->rkey = rkey;
	}
}

static void mr_each(const struct nlattr *a, int len, struct want *w)
{
	FOR_ATTR(a, len)
	{
		const struct nlattr *t = (const struct nlattr *)PAYLOAD(a);
		int tlen = a->nla_len - NLA_HDRLEN;

		if (TYPE(a) != RDMA_NLDEV_ATTR_RES_MR)
			continue;
		FOR_ATTR(t, tlen)
		{
			if (TYPE(t) == RDMA_NLDEV_ATTR_RES_MR_ENTRY)
				mr_entry((const struct nlattr *)PAYLOAD(t),
					 t->nla_len - NLA_HDRLEN, w);
		}
	}
}

bool vn_mr(const char *name, uint32_t lkey, uint64_t *len, uint32_t *rkey)
{
	struct want w = { .lkey = lkey };
	int dev = vn_dev_index(name);

	if (dev < 0 ||
	    ask(RDMA_NLDEV_CMD_RES_MR_GET, NLM_F_DUMP, dev, mr_each, &w) ||
	    !w.found)
		return false;
	*len = w.len;
	*rkey = w.rkey;
	return true;
}

static void sys_each(const struct nlattr *a, int len, struct want *w)
{
	FOR_ATTR(a, len)
	{
		if (TYPE(a) == RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK)
			w->cof = *(const uint8_t *)PAYLOAD(a);
	}
}

int vn_copy_on_fork(void)
{
	struct want w = { .cof = -1 };

	if (ask(RDMA_NLDEV_CMD_SYS_GET, 0, -1, sys_each, &w))
		return -1;
	return w.cof;
}

/* One port of a PORT_GET dump: its netdev's name when it is the port */
static void port_each(const struct nlattr *a, int len, struct want *w)
{
	const char *name = NULL;
	int port = -1, nlen = 0;

	FOR_ATTR(a, len)
	{
		if (TYPE(a) == RDMA_NLDEV_ATTR_PORT_INDEX) {
			port = u32_of(a);
		} else if (TYPE(a) == RDMA_NLDEV_ATTR_NDEV_NAME) {
			name = PAYLOAD(a);
			nlen = a->nla_len - NLA_HDRLEN;
		}
	}
	if (port != w->port || !name || nlen <= 0 ||
	    (size_t)nlen >= w->ndev_len)
		return;
	memcpy(w->ndev, name, nlen);
	w->ndev[nlen] = 0;
	w->found = true;
}

bool vn_port_netdev(const char *name, int port, char *buf, size_t len)
{
	struct want w = { .port = port, .ndev = buf, .ndev_len = len };
	int dev = vn_dev_index(name);

	return dev >= 0 &&
	       !ask(RDMA_NLDEV_CMD_PORT_GET, NLM_F_DUMP, dev, port_each, &w) &&
	       w.found;
}
