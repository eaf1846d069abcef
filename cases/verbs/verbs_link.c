// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "verbs_link.h"

#define BUF 65536

/* @dev's IFF_UP set (@up) or cleared: 0 or -errno */
static int link_set(const char *dev, bool up)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret = 0;

	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr)) {
		ret = -errno;
	} else {
		if (up)
			ifr.ifr_flags |= IFF_UP;
		else
			ifr.ifr_flags &= ~IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr))
			ret = -errno;
	}
	close(fd);
	return ret;
}

/* net.ipv6.conf.DEV.keep_addr_on_down set to @set; what it was in @old
 * (when given).  0 or -errno. */
static int keep_addr(const char *dev, const char *set, char *old, size_t len)
{
	char path[128];
	ssize_t n;
	int fd, ret = 0;

	snprintf(path, sizeof(path),
		 "/proc/sys/net/ipv6/conf/%s/keep_addr_on_down", dev);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (old) {
		n = read(fd, old, len - 1);
		old[n > 0 ? n : 0] = 0;
	}
	if (pwrite(fd, set, strlen(set), 0) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int rt_open(void)
{
	return socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
}

/* The attribute @type of a route message's attributes, or NULL */
static const struct rtattr *attr_of(const struct nlmsghdr *h, size_t hdr,
				    unsigned short type)
{
	const struct rtattr *a =
		(const void *)((const char *)NLMSG_DATA(h) + NLMSG_ALIGN(hdr));
	int len = (int)h->nlmsg_len - (int)NLMSG_LENGTH(NLMSG_ALIGN(hdr));

	for (; RTA_OK(a, len); a = RTA_NEXT(a, len))
		if (a->rta_type == type)
			return a;
	return NULL;
}

/* Is dumped message @h one that a down of @l deletes and an up does
 * not bring back?  A route through the netdev that is not the kernel's
 * own (connected and local routes come back with the addresses), a
 * permanent neighbour of it. */
static bool to_keep(const struct vk_link *l, const struct nlmsghdr *h)
{
	const struct rtattr *oif;

	if (h->nlmsg_type == RTM_NEWROUTE) {
		const struct rtmsg *rt = NLMSG_DATA(h);

		oif = attr_of(h, sizeof(*rt), RTA_OIF);
		return rt->rtm_protocol != RTPROT_KERNEL &&
		       rt->rtm_table != RT_TABLE_LOCAL && oif &&
		       *(const int *)RTA_DATA(oif) == l->ifindex;
	}
	if (h->nlmsg_type == RTM_NEWNEIGH) {
		const struct ndmsg *nd = NLMSG_DATA(h);

		return nd->ndm_ifindex == l->ifindex &&
		       (nd->ndm_state & NUD_PERMANENT);
	}
	return false;
}

/* Dump @type (RTM_GETROUTE, RTM_GETNEIGH) of every family; the messages
 * to keep appended to @l->saved.  0 or -errno. */
static int save(struct vk_link *l, int type)
{
	struct {
		struct nlmsghdr h;
		struct rtmsg m; /* an ndmsg's family is where rtmsg's is */
	} req = { .h = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg)),
			 .nlmsg_type = type,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP } };
	char *buf = malloc(BUF), *p;
	int fd = rt_open(), ret = -EIO;
	ssize_t n;

	if (fd < 0 || !buf || send(fd, &req, req.h.nlmsg_len, 0) < 0) {
		ret = fd < 0 || buf ? -errno : -ENOMEM;
		goto out;
	}
	while ((n = recv(fd, buf, BUF, 0)) > 0) {
		struct nlmsghdr *h = (void *)buf;
		int len = (int)n;

		for (; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_type == NLMSG_DONE) {
				ret = 0;
				goto out;
			}
			if (h->nlmsg_type == NLMSG_ERROR || !to_keep(l, h))
				continue;
			p = realloc(l->saved, l->saved_len + h->nlmsg_len);
			if (!p) {
				ret = -ENOMEM;
				goto out;
			}
			l->saved = p;
			memcpy(l->saved + l->saved_len, h, h->nlmsg_len);
			l->saved_len += NLMSG_ALIGN(h->nlmsg_len);
		}
	}
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return ret;
}

/* Each saved message again, as a request that (re)creates it; the
 * kernel's answer to each.  0, or the first -errno. */
static int replay(const struct vk_link *l)
{
	struct {
		struct nlmsghdr h;
		struct nlmsgerr e;
	} ack;
	int fd = rt_open(), ret = 0, err;
	size_t off;

	if (fd < 0)
		return -errno;
	for (off = 0; off < l->saved_len;) {
		struct nlmsghdr *h = (void *)(l->saved + off);

		off += NLMSG_ALIGN(h->nlmsg_len);
		h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE |
				 NLM_F_REPLACE;
		h->nlmsg_pid = 0;
		err = send(fd, h, h->nlmsg_len, 0) < 0 ? -errno : 0;
		if (!err && recv(fd, &ack, sizeof(ack), 0) < 0)
			err = -errno;
		else if (!err && ack.h.nlmsg_type == NLMSG_ERROR)
			err = ack.e.error;
		if (err && !ret)
			ret = err;
	}
	close(fd);
	return ret;
}

int vk_down(struct vk_link *l, const char *dev)
{
	int err;

	memset(l, 0, sizeof(*l));
	snprintf(l->dev, sizeof(l->dev), "%s", dev);
	l->ifindex = (int)if_nametoindex(dev);
	if (!l->ifindex)
		return -errno;
	err = save(l, RTM_GETROUTE);
	if (!err)
		err = save(l, RTM_GETNEIGH);
	if (!err)
		err = keep_addr(dev, "1", l->keep_addr, sizeof(l->keep_addr));
	if (!err) {
		err = link_set(dev, false);
		if (err)
			keep_addr(dev, l->keep_addr, NULL, 0);
	}
	if (err) {
		free(l->saved);
		l->saved = NULL;
	}
	return err;
}

int vk_up(struct vk_link *l)
{
	return link_set(l->dev, true);
}

int vk_restore(struct vk_link *l)
{
	int err = vk_up(l), e;

	e = replay(l);
	err = err ? err : e;
	e = keep_addr(l->dev, l->keep_addr, NULL, 0);
	err = err ? err : e;
	free(l->saved);
	l->saved = NULL;
	return err;
}
