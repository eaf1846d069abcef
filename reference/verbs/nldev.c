// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A minimal client of the RDMA netlink device interface (nldev.h): one
 * request at a time on a socket of its own, the answers' attributes
 * walked by hand (struct nlattr, 4-byte aligned, <linux/netlink.h>).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <sys/socket.h>

#include "nldev.h"

#define NL_BUF 16384

struct nl_req {
	struct nlmsghdr h;
	uint8_t attrs[256];
};

static void put_attr(struct nl_req *r, uint16_t type, const void *val,
		     size_t len)
{
	struct nlattr *a = (struct nlattr *)((uint8_t *)&r->h +
					     NLMSG_ALIGN(r->h.nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((uint8_t *)a + NLA_HDRLEN, val, len);
	r->h.nlmsg_len = NLMSG_ALIGN(r->h.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

/* The attributes of one answer, by type (the last of each kind wins). */
struct nl_attrs {
	const struct nlattr *a[RDMA_NLDEV_ATTR_MAX];
};

static void parse(const struct nlmsghdr *h, struct nl_attrs *out)
{
	const uint8_t *p = (const uint8_t *)NLMSG_DATA(h);
	const uint8_t *end = (const uint8_t *)h + h->nlmsg_len;

	memset(out, 0, sizeof(*out));
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const struct nlattr *)p;
		uint16_t type = a->nla_type & NLA_TYPE_MASK;

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			break;
		if (type < RDMA_NLDEV_ATTR_MAX)
			out->a[type] = a;
		p += NLA_ALIGN(a->nla_len);
	}
}

static const void *attr_data(const struct nlattr *a)
{
	return (const uint8_t *)a + NLA_HDRLEN;
}

/* An unsigned integer attribute of 1, 2, 4 or 8 bytes, or @dflt. */
static uint64_t attr_uint(const struct nlattr *a, uint64_t dflt)
{
	uint64_t v8;
	uint32_t v4;
	uint16_t v2;

	if (!a)
		return dflt;
	switch (a->nla_len - NLA_HDRLEN) {
	case 1:
		return *(const uint8_t *)attr_data(a);
	case 2:
		memcpy(&v2, attr_data(a), 2);
		return v2;
	case 4:
		memcpy(&v4, attr_data(a), 4);
		return v4;
	case 8:
		memcpy(&v8, attr_data(a), 8);
		return v8;
	}
	return dflt;
}

static void attr_string(const struct nlattr *a, char *buf, size_t len)
{
	size_t n = a ? a->nla_len - NLA_HDRLEN : 0;

	if (n >= len)
		n = len - 1;
	if (n)
		memcpy(buf, attr_data(a), n);
	buf[n] = 0;
}

typedef void (*nl_answer_fn)(const struct nl_attrs *at, void *arg);

/* Send @r, hand every answer to @fn: 0 or -errno. */
static int transact(struct nl_req *r, nl_answer_fn fn, void *arg)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	static uint32_t seq;
	uint8_t buf[NL_BUF] __attribute__((aligned(4)));
	struct nl_attrs at;
	bool done = false;
	int fd, err = 0;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	if (fd < 0)
		return -errno;
	r->h.nlmsg_seq = ++seq;
	if (sendto(fd, r, r->h.nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0) {
		err = -errno;
		goto out;
	}
	while (!done) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h = (struct nlmsghdr *)buf;

		if (n < 0) {
			err = -errno;
			break;
		}
		for (; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != r->h.nlmsg_seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE) {
				done = true;
				break;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				err = e->error;
				done = true;
				break;
			}
			parse(h, &at);
			fn(&at, arg);
			/* a single answer (no dump) ends here */
			if (!(h->nlmsg_flags & NLM_F_MULTI))
				done = true;
		}
	}
out:
	close(fd);
	return err;
}

static void request(struct nl_req *r, int op, int flags)
{
	memset(r, 0, sizeof(*r));
	r->h.nlmsg_len = NLMSG_HDRLEN;
	r->h.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, op);
	r->h.nlmsg_flags = NLM_F_REQUEST | flags;
}

struct dev_walk {
	struct ref_nldev *out;
	int max, n;
};

static void one_device(const struct nl_attrs *at, void *arg)
{
	struct dev_walk *w = arg;

	if (!at->a[RDMA_NLDEV_ATTR_DEV_INDEX] ||
	    !at->a[RDMA_NLDEV_ATTR_DEV_NAME])
		return;
	if (w->n < w->max) {
		w->out[w->n].index =
			attr_uint(at->a[RDMA_NLDEV_ATTR_DEV_INDEX], 0);
		attr_string(at->a[RDMA_NLDEV_ATTR_DEV_NAME], w->out[w->n].name,
			    sizeof(w->out[w->n].name));
	}
	w->n++;
}

int ref_nldev_devices(struct ref_nldev *out, int max)
{
	struct dev_walk w = { .out = out, .max = max };
	struct nl_req r;
	int err;

	request(&r, RDMA_NLDEV_CMD_GET, NLM_F_DUMP);
	err = transact(&r, one_device, &w);
	return err ? err : w.n;
}

struct chardev {
	uint64_t devt;
	char *name;
	size_t len;
	int driver_id;
	bool found;
};

static void one_chardev(const struct nl_attrs *at, void *arg)
{
	struct chardev *c = arg;

	if (!at->a[RDMA_NLDEV_ATTR_CHARDEV])
		return;
	c->found = true;
	c->devt = attr_uint(at->a[RDMA_NLDEV_ATTR_CHARDEV], 0);
	attr_string(at->a[RDMA_NLDEV_ATTR_CHARDEV_NAME], c->name, c->len);
	c->driver_id = attr_uint(at->a[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID],
				 (uint64_t)-1);
}

int ref_nldev_uverbs(uint32_t index, uint64_t *devt, char *name, size_t len,
		     int *driver_id)
{
	struct chardev c = { .name = name, .len = len, .driver_id = -1 };
	static const char type[] = "uverbs";
	struct nl_req r;
	int err;

	request(&r, RDMA_NLDEV_CMD_GET_CHARDEV, 0);
	put_attr(&r, RDMA_NLDEV_ATTR_DEV_INDEX, &index, sizeof(index));
	put_attr(&r, RDMA_NLDEV_ATTR_CHARDEV_TYPE, type, sizeof(type));
	err = transact(&r, one_chardev, &c);
	if (err)
		return err;
	if (!c.found)
		return -ENOENT;
	*devt = c.devt;
	*driver_id = c.driver_id;
	return 0;
}

static void sys_answer(const struct nl_attrs *at, void *arg)
{
	*(int *)arg = attr_uint(at->a[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK], 0) ==
		      1;
}

int ref_nldev_copy_on_fork(void)
{
	struct nl_req r;
	int cof = 0;

	request(&r, RDMA_NLDEV_CMD_SYS_GET, 0);
	if (transact(&r, sys_answer, &cof))
		return 0;
	return cof;
}
