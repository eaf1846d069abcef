/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A port's netdev set down and up again by a row (the port events of
 * ibv_get_async_event(3)), and everything a down takes with it put back
 * for the rows after it: the IPv6 addresses (and the GIDs made of them),
 * which keep_addr_on_down keeps; the routes through the netdev in every
 * table and its permanent neighbours, which the kernel deletes on an
 * administrative down and does not restore on up (ci/guest/stage2's
 * per-peer routes and neighbours: without them the peer rows after the
 * row fail).
 */
#ifndef RDMACONF_VERBS_LINK_H
#define RDMACONF_VERBS_LINK_H

#include <stddef.h>
#include <net/if.h>

struct vk_link {
	char dev[IFNAMSIZ];
	int ifindex;
	char keep_addr[16]; /* keep_addr_on_down as it was */
	/* the routes and neighbours to put back: rtnetlink messages as
	 * their dumps gave them, one after the other */
	char *saved;
	size_t saved_len;
};

/* Save what a down deletes, keep the addresses, set @dev down: 0 or
 * -errno (nothing changed then). */
int vk_down(struct vk_link *l, const char *dev);
/* @dev up again: 0 or -errno */
int vk_up(struct vk_link *l);
/* Up, the saved routes and neighbours back, keep_addr_on_down as it
 * was, @l freed: 0, or the first -errno. */
int vk_restore(struct vk_link *l);

#endif
