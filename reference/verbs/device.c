// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_get_device_list(3), ibv_free_device_list(3), ibv_get_device_name(3),
 * ibv_get_device_guid(3), ibv_get_device_index(3).
 *
 * The devices are the kernel's uverbs nodes: /sys/class/infiniband_verbs/
 * uverbsN, each naming its device (ibdev) and its character device (dev,
 * "major:minor"), with the device's own attributes under
 * /sys/class/infiniband/<name> (Documentation/ABI/stable/
 * sysfs-class-infiniband).  The netlink interface adds the stable index
 * and the driver id; without it (an old kernel) the index is -1 and the
 * driver is found when the device is opened.
 *
 * "pointers to unopened devices will no longer be valid" once the list is
 * freed, but an opened one stays valid: each device counts the lists and
 * contexts that hold it, and a list taken again returns the same object
 * for the same node.  Unlike libibverbs, which lists only devices it has
 * a provider for, every uverbs node is listed: the reference can drive
 * any device with the commands that need no provider part.
 */
#include <dirent.h>
#include <errno.h>
#include <endian.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <rdma/rdma_netlink.h>

#include "ref_verbs.h"
#include "objects.h"
#include "nldev.h"
#include "../common/sysfs.h"

#define SYS_VERBS "/sys/class/infiniband_verbs"
#define MAX_DEVICES 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ref_device *alive;

void ref_device_get(struct ref_device *dev)
{
	pthread_mutex_lock(&lock);
	dev->refs++;
	pthread_mutex_unlock(&lock);
}

void ref_device_put(struct ref_device *dev)
{
	struct ref_device **p;

	pthread_mutex_lock(&lock);
	if (--dev->refs) {
		pthread_mutex_unlock(&lock);
		return;
	}
	for (p = &alive; *p; p = &(*p)->next)
		if (*p == dev) {
			*p = dev->next;
			break;
		}
	pthread_mutex_unlock(&lock);
	free(dev);
}

/* "60bd:6fff:fe27:4557" -> the GUID in network byte order, or 0 */
static __be64 read_guid(const char *name)
{
	unsigned int w[4];
	char buf[64];

	if (ref_sysfs_read(buf, sizeof(buf), REF_SYS_IB "/%s/node_guid",
			   name) ||
	    sscanf(buf, "%x:%x:%x:%x", &w[0], &w[1], &w[2], &w[3]) != 4)
		return 0;
	return htobe64((uint64_t)w[0] << 48 | (uint64_t)w[1] << 32 |
		       (uint64_t)w[2] << 16 | w[3]);
}

static enum ibv_transport_type transport_of(enum ibv_node_type type)
{
	/* enum rdma_node_type and enum ibv_node_type share their values */
	switch (type) {
	case IBV_NODE_CA:
	case IBV_NODE_SWITCH:
	case IBV_NODE_ROUTER:
		return IBV_TRANSPORT_IB;
	case IBV_NODE_RNIC:
		return IBV_TRANSPORT_IWARP;
	case IBV_NODE_USNIC:
		return IBV_TRANSPORT_USNIC;
	case IBV_NODE_USNIC_UDP:
		return IBV_TRANSPORT_USNIC_UDP;
	case IBV_NODE_UNSPECIFIED:
		return IBV_TRANSPORT_UNSPECIFIED;
	default:
		return IBV_TRANSPORT_UNKNOWN;
	}
}

/* What netlink says of the device named @name: its index and driver id. */
static void nl_facts(const struct ref_nldev *nl, int nnl, const char *name,
		     int *index, int *driver_id)
{
	char node[64];
	uint64_t devt;
	int i;

	*index = -1;
	*driver_id = -1;
	for (i = 0; i < nnl; i++) {
		if (strcmp(nl[i].name, name))
			continue;
		*index = nl[i].index;
		if (ref_nldev_uverbs(nl[i].index, &devt, node, sizeof(node),
				     driver_id))
			*driver_id = -1;
		return;
	}
}

/* uverbs node @node, made or found alive; the caller holds the lock. */
static struct ref_device *node_device(const char *node,
				      const struct ref_nldev *nl, int nnl)
{
	struct ref_device *d;
	unsigned int major, minor;
	char name[IBV_SYSFS_NAME_MAX], buf[64];
	dev_t devt;

	if (strlen(node) >= sizeof(d->dev.dev_name) ||
	    ref_sysfs_read(name, sizeof(name), SYS_VERBS "/%s/ibdev", node) ||
	    ref_sysfs_read(buf, sizeof(buf), SYS_VERBS "/%s/dev", node) ||
	    sscanf(buf, "%u:%u", &major, &minor) != 2)
		return NULL;
	devt = makedev(major, minor);
	for (d = alive; d; d = d->next)
		if (d->devt == devt && !strcmp(d->dev.name, name))
			return d;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->devt = devt;
	snprintf(d->dev.name, sizeof(d->dev.name), "%s", name);
	memcpy(d->dev.dev_name, node, strlen(node) + 1);
	snprintf(d->dev.dev_path, sizeof(d->dev.dev_path), SYS_VERBS "/%s",
		 d->dev.dev_name);
	snprintf(d->dev.ibdev_path, sizeof(d->dev.ibdev_path), REF_SYS_IB "/%s",
		 name);
	/* "1: CA": the number is enum rdma_node_type */
	d->dev.node_type = IBV_NODE_UNKNOWN;
	if (!ref_sysfs_read(buf, sizeof(buf), REF_SYS_IB "/%s/node_type", name))
		d->dev.node_type = atoi(buf);
	d->dev.transport_type = transport_of(d->dev.node_type);
	d->guid = read_guid(name);
	nl_facts(nl, nnl, name, &d->index, &d->driver_id);
	d->next = alive;
	alive = d;
	return d;
}

/* the kernel's index order, then the nodes' */
static int by_index(const void *a, const void *b)
{
	const struct ref_device *x = *(struct ref_device *const *)a;
	const struct ref_device *y = *(struct ref_device *const *)b;

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return minor(x->devt) < minor(y->devt) ?
		       -1 :
		       minor(x->devt) > minor(y->devt);
}

/* ERRORS: "ENOSYS No kernel support for RDMA.", "ENOMEM Insufficient
 * memory to complete the operation." */
struct ibv_device **ref_ibv_get_device_list(int *num_devices)
{
	struct ref_nldev nl[MAX_DEVICES];
	struct ref_device *found[MAX_DEVICES], *d;
	struct ibv_device **list;
	struct dirent *e;
	char abi[16];
	int n = 0, nnl, i;
	DIR *dir;

	/* the kernel's uverbs ABI: the command structures of
	 * <rdma/ib_user_verbs.h> are those of IB_USER_VERBS_ABI_VERSION */
	/* on failure too "the number of devices returned in the array": none
	 * (our reading) */
	if (num_devices)
		*num_devices = 0;
	if (ref_sysfs_read(abi, sizeof(abi), SYS_VERBS "/abi_version") ||
	    atoi(abi) != IB_USER_VERBS_ABI_VERSION)
		return ref_fail_null(ENOSYS);
	dir = opendir(SYS_VERBS);
	if (!dir)
		return ref_fail_null(ENOSYS);
	nnl = ref_nldev_devices(nl, MAX_DEVICES);
	if (nnl > MAX_DEVICES)
		nnl = MAX_DEVICES;
	pthread_mutex_lock(&lock);
	while ((e = readdir(dir)) && n < MAX_DEVICES) {
		if (strncmp(e->d_name, "uverbs", 6))
			continue;
		d = node_device(e->d_name, nl, nnl < 0 ? 0 : nnl);
		if (d) {
			d->refs++;
			found[n++] = d;
		}
	}
	pthread_mutex_unlock(&lock);
	closedir(dir);
	list = calloc(n + 1, sizeof(*list));
	if (!list) {
		for (i = 0; i < n; i++)
			ref_device_put(found[i]);
		return ref_fail_null(ENOMEM);
	}
	qsort(found, n, sizeof(found[0]), by_index);
	for (i = 0; i < n; i++)
		list[i] = &found[i]->dev;
	/* "If no devices are found then num_devices is set to 0, and non-NULL
	 * is returned." */
	if (num_devices)
		*num_devices = n;
	return list;
}

void ref_ibv_free_device_list(struct ibv_device **list)
{
	struct ibv_device **p;

	if (!list)
		return;
	for (p = list; *p; p++)
		ref_device_put((struct ref_device *)*p);
	free(list);
}

struct ref_device *ref_device_by_devt(dev_t devt)
{
	struct ibv_device **list = ref_ibv_get_device_list(NULL);
	struct ref_device *d = NULL;
	int i;

	if (!list)
		return NULL;
	for (i = 0; list[i]; i++)
		if (((struct ref_device *)list[i])->devt == devt) {
			d = (struct ref_device *)list[i];
			ref_device_get(d);
			break;
		}
	ref_ibv_free_device_list(list);
	if (!d)
		errno = ENODEV;
	return d;
}

/* "returns a pointer to the device name, or NULL if the request fails" */
const char *ref_ibv_get_device_name(struct ibv_device *device)
{
	if (!device)
		return ref_fail_null(EINVAL);
	return device->name;
}

/* "returns the GUID of the device in network byte order"; the page
 * names no failure: a device without a readable GUID gives 0, the GUID
 * no node has. */
uint64_t ref_ibv_get_device_guid(struct ibv_device *device)
{
	struct ref_device *d = (struct ref_device *)device;

	if (!d)
		return 0;
	/* read again: a GUID can be set while the device exists */
	d->guid = read_guid(device->name) ?: d->guid;
	return d->guid;
}

/* "returns an index, or -1 if the kernel doesn't support device indexes" */
int ref_ibv_get_device_index(struct ibv_device *device)
{
	return device ? ((struct ref_device *)device)->index : -1;
}
