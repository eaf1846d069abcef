// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The GID table: ibv_query_gid(3), ibv_query_gid_ex(3),
 * ibv_query_gid_table(3), over what gid_table.c reads (the uverbs
 * QUERY_GID_TABLE ioctl, or sysfs).  The device is the context's, by the
 * name in struct ibv_device; no call of libibverbs is made.
 */
#include <errno.h>
#include <string.h>

#include "ref_verbs.h"

/* "returns 0 on success, and -1 on error" */
int ref_ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index,
		      union ibv_gid *gid)
{
	struct ref_gid e;
	int err;

	if (!context || !gid) {
		errno = EINVAL;
		return -1;
	}
	err = ref_gid_entry(context->cmd_fd, context->device->name, port_num,
			    index, &e);
	/* an entry of the table that holds no GID is the zero GID, as
	 * sysfs shows it */
	if (err == -ENODATA) {
		memset(gid, 0, sizeof(*gid));
		return 0;
	}
	if (err) {
		errno = -err;
		return -1;
	}
	memcpy(gid->raw, e.gid, 16);
	return 0;
}

static void to_entry(const struct ref_gid *e, struct ibv_gid_entry *out)
{
	memcpy(out->gid.raw, e->gid, 16);
	out->gid_index = e->index;
	out->port_num = e->port;
	/* enum ibv_gid_type and enum ib_uverbs_gid_type: IB, RoCE v1, v2 */
	out->gid_type = e->type;
	out->ndev_ifindex = e->ifindex;
}

/* "returns 0 on success or errno value on error"; "ENODATA gid_index is
 * within the GID table size of port port_num but there is no data in
 * this index"; "flags Extra fields to query post ndev_ifindex, for now
 * must be 0." */
int ref_ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num,
			 uint32_t gid_index, struct ibv_gid_entry *entry,
			 uint32_t flags)
{
	struct ref_gid e;
	int err;

	if (!context || !entry || flags || port_num > 255 ||
	    gid_index > (uint32_t)INT32_MAX)
		return errno = EINVAL;
	err = ref_gid_entry(context->cmd_fd, context->device->name, port_num,
			    gid_index, &e);
	if (err)
		return errno = -err;
	to_entry(&e, entry);
	return 0;
}

/* The ports of the device: those with a GID table. */
#define MAX_PORTS 255

/* "returns the number of entries that were read on success or negative
 * errno value on error"; "If there are more valid GID entries than the
 * provided value of max_entries and entries array, the call will fail." */
ssize_t ref_ibv_query_gid_table(struct ibv_context *context,
				struct ibv_gid_entry *entries,
				size_t max_entries, uint32_t flags)
{
	struct ref_gid e[64];
	size_t total = 0;
	ssize_t n, i;
	int port;

	if (!context || !entries || !max_entries || flags)
		return -EINVAL;
	for (port = 1; port <= MAX_PORTS &&
		       ref_gid_table_size(context->device->name, port) > 0;
	     port++) {
		n = ref_gid_entries(context->cmd_fd, context->device->name,
				    port, e, sizeof(e) / sizeof(e[0]));
		if (n < 0)
			return n;
		if (n > (ssize_t)(sizeof(e) / sizeof(e[0])) ||
		    total + n > max_entries)
			return -EINVAL;
		for (i = 0; i < n; i++)
			to_entry(&e[i], &entries[total + i]);
		total += n;
	}
	return total;
}
