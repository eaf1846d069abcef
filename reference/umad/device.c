// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Devices and ports: umad_init(3), umad_done(3), umad_get_cas_names(3),
 * umad_get_ca(3), umad_release_ca(3), umad_get_port(3),
 * umad_release_port(3), umad_open_port(3), umad_close_port(3),
 * umad_get_ca_portguids(3), umad_get_issm_path(3).
 *
 * Everything comes from sysfs (/sys/class/infiniband for devices and ports,
 * /sys/class/infiniband_mad for the umad character devices) and
 * /dev/infiniband/umadN, as Documentation/infiniband/user_mad.rst and
 * sysfs-class-infiniband describe them.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ref_umad.h"
#include "ca_sysfs.h"
#include "ports.h"
#include "../common/sysfs.h"

#define SYS_IB REF_SYS_IB
#define SYS_MAD REF_SYS_MAD

/* "4: ACTIVE" -> 4; "0x12" -> 18; "10 Gb/sec (...)" -> 10 */
static unsigned int sysfs_uint(const char *fmt_dev, const char *dev, int port,
			       const char *attr)
{
	char buf[128];

	if (ref_sysfs_read(buf, sizeof(buf), "%s/%s/ports/%d/%s", fmt_dev, dev,
			   port, attr))
		return 0;
	return strtoul(buf, NULL, 0);
}

/* "fe80:0000:0000:0000:0046:34ff:fec6:2ec6" -> 16 bytes */
/* "0046:34ff:fec6:2ec6" -> big endian 64-bit */
static __be64 parse_guid(const char *s)
{
	unsigned int w[4];

	if (sscanf(s, "%x:%x:%x:%x", &w[0], &w[1], &w[2], &w[3]) != 4)
		return 0;
	return htobe64((uint64_t)w[0] << 48 | (uint64_t)w[1] << 32 |
		       (uint64_t)w[2] << 16 | w[3]);
}

/* CA names are at most UMAD_CA_NAME_LEN - 1 characters in every struct */
static void copy_name(char *dst, const char *src)
{
	size_t n = strnlen(src, UMAD_CA_NAME_LEN - 1);

	memcpy(dst, src, n);
	dst[n] = 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

int ref_umad_init(void)
{
	return 0;
}

int ref_umad_done(void)
{
	return 0;
}

/*
 * "local IB devices (CAs)": a node of IBA NodeInfo:NodeType 1 (CA), 2
 * (switch) or 3 (router), as sysfs's node_type has it; an iWARP RNIC (4)
 * is none.
 */
static bool ib_node(const char *name)
{
	char buf[32];
	unsigned long t;

	if (ref_sysfs_read(buf, sizeof(buf), SYS_IB "/%s/node_type", name))
		return false;
	t = strtoul(buf, NULL, 0);
	return t >= 1 && t <= 3;
}

int ref_umad_get_cas_names(char cas[][UMAD_CA_NAME_LEN], int max)
{
	struct dirent *d;
	DIR *dir;
	int n = 0;

	dir = opendir(SYS_IB);
	if (!dir)
		return errno == ENOENT ? 0 : -1;
	while ((d = readdir(dir)) && n < max) {
		/* a name the array cannot hold with its NUL is left out:
		 * cut, it would name no device, or another */
		if (d->d_name[0] == '.' ||
		    strlen(d->d_name) >= UMAD_CA_NAME_LEN ||
		    !ib_node(d->d_name))
			continue;
		copy_name(cas[n++], d->d_name);
	}
	closedir(dir);
	qsort(cas, n, UMAD_CA_NAME_LEN, cmp_names);
	return n;
}

bool ref_umad_port_active(const char *ca, int port)
{
	return sysfs_uint(SYS_IB, ca, port, "state") == 4;
}

/* A switch's only port of its own is port 0, the management port; a
 * channel adapter's ports count from 1 (node_type 2: a switch, IBA 14.2.5.3
 * NodeInfo:NodeType, as sysfs shows it: "2: switch"). */
static int first_port(const char *ca)
{
	char buf[32];

	return !ref_sysfs_read(buf, sizeof(buf), SYS_IB "/%s/node_type", ca) &&
			       strtoul(buf, NULL, 0) == 2 ?
		       0 :
		       1;
}

/*
 * "the default device": the first CA (by name) with an ACTIVE port, else
 * the first CA.  "If only one of ca_name and portnum are specified, the
 * other is used as a filter."
 */
static int resolve(const char *ca_name, int portnum, char *ca, int *port)
{
	/* zero: no byte the sort sees is left from an earlier call */
	char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN] = {};
	int n, i, p;

	if (ca_name) {
		char buf[32];

		if (ref_sysfs_read(buf, sizeof(buf), SYS_IB "/%s/node_type",
				   ca_name))
			return -ENODEV;
		copy_name(ca, ca_name);
		if (portnum) {
			*port = portnum;
			return 0;
		}
		for (p = first_port(ca); p < UMAD_CA_MAX_PORTS; p++)
			if (ref_umad_port_active(ca, p)) {
				*port = p;
				return 0;
			}
		*port = first_port(ca);
		return 0;
	}
	n = ref_umad_get_cas_names(names, UMAD_MAX_DEVICES);
	if (n <= 0)
		return -ENODEV;
	for (i = 0; i < n; i++)
		for (p = portnum ? portnum : first_port(names[i]);
		     p <= (portnum ? portnum : UMAD_CA_MAX_PORTS - 1); p++)
			if (ref_umad_port_active(names[i], p)) {
				copy_name(ca, names[i]);
				*port = p;
				return 0;
			}
	copy_name(ca, names[0]);
	*port = portnum ? portnum : first_port(ca);
	return 0;
}

static int fill_port(const char *ca, int portnum, umad_port_t *port)
{
	char buf[128], path[512];
	uint8_t gid[16];
	struct dirent *d;
	DIR *dir;
	unsigned int i, n = 0;

	if (ref_sysfs_read(buf, sizeof(buf), SYS_IB "/%s/ports/%d/state", ca,
			   portnum))
		return -EINVAL;
	memset(port, 0, sizeof(*port));
	copy_name(port->ca_name, ca);
	port->portnum = portnum;
	port->base_lid = sysfs_uint(SYS_IB, ca, portnum, "lid");
	port->lmc = sysfs_uint(SYS_IB, ca, portnum, "lid_mask_count");
	port->sm_lid = sysfs_uint(SYS_IB, ca, portnum, "sm_lid");
	port->sm_sl = sysfs_uint(SYS_IB, ca, portnum, "sm_sl");
	port->state = sysfs_uint(SYS_IB, ca, portnum, "state");
	port->phys_state = sysfs_uint(SYS_IB, ca, portnum, "phys_state");
	port->rate = sysfs_uint(SYS_IB, ca, portnum, "rate");
	port->capmask = htobe32(sysfs_uint(SYS_IB, ca, portnum, "cap_mask"));
	if (!ref_sysfs_read(buf, sizeof(buf), SYS_IB "/%s/ports/%d/gids/0", ca,
			    portnum) &&
	    !ref_parse_gid(buf, gid)) {
		memcpy(&port->gid_prefix, gid, 8);
		memcpy(&port->port_guid, gid + 8, 8);
	}
	/* Linux has the attribute since 2.6.37; a port without it is an
	 * InfiniBand port, which libibumad names "IB", and a drop-in's
	 * clients print what libibumad's print (ibstat) */
	if (ref_sysfs_read(port->link_layer, sizeof(port->link_layer),
			   SYS_IB "/%s/ports/%d/link_layer", ca, portnum) ||
	    !port->link_layer[0])
		snprintf(port->link_layer, sizeof(port->link_layer), "IB");
	snprintf(path, sizeof(path), SYS_IB "/%s/ports/%d/pkeys", ca, portnum);
	dir = opendir(path);
	if (dir) {
		while ((d = readdir(dir)))
			if (d->d_name[0] != '.')
				n++;
		closedir(dir);
	}
	port->pkeys_size = n;
	port->pkeys = calloc(n ? n : 1, sizeof(*port->pkeys));
	if (!port->pkeys)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (!ref_sysfs_read(buf, sizeof(buf), "%s/%u", path, i))
			port->pkeys[i] = strtoul(buf, NULL, 0);
	return 0;
}

int ref_umad_get_port(const char *ca_name, int portnum, umad_port_t *port)
{
	char ca[UMAD_CA_NAME_LEN];
	int p, ret;

	if (!port || portnum < 0 || portnum >= UMAD_CA_MAX_PORTS)
		return -EINVAL;
	ret = resolve(ca_name, portnum, ca, &p);
	return ret ? ret : fill_port(ca, p, port);
}

int ref_umad_release_port(umad_port_t *port)
{
	if (!port)
		return -EINVAL;
	free(port->pkeys);
	port->pkeys = NULL;
	return 0;
}

int ref_umad_get_ca(const char *ca_name, umad_ca_t *ca)
{
	char name[UMAD_CA_NAME_LEN], buf[128];
	int p, ret;

	if (!ca)
		return -EINVAL;
	ret = resolve(ca_name, 0, name, &p);
	if (ret)
		return ret;
	memset(ca, 0, sizeof(*ca));
	copy_name(ca->ca_name, name);
	if (!ref_sysfs_read(buf, sizeof(buf), SYS_IB "/%s/node_type", name))
		ca->node_type = strtoul(buf, NULL, 0);
	ref_sysfs_read(ca->fw_ver, sizeof(ca->fw_ver), SYS_IB "/%s/fw_ver",
		       name);
	ref_sysfs_read(ca->ca_type, sizeof(ca->ca_type), SYS_IB "/%s/hca_type",
		       name);
	ref_sysfs_read(ca->hw_ver, sizeof(ca->hw_ver), SYS_IB "/%s/hw_rev",
		       name);
	if (!ref_sysfs_read(buf, sizeof(buf), SYS_IB "/%s/node_guid", name))
		ca->node_guid = parse_guid(buf);
	if (!ref_sysfs_read(buf, sizeof(buf), SYS_IB "/%s/sys_image_guid",
			    name))
		ca->system_guid = parse_guid(buf);
	for (p = first_port(name); p < UMAD_CA_MAX_PORTS; p++) {
		umad_port_t port;

		if (fill_port(name, p, &port))
			continue;
		ca->ports[p] = malloc(sizeof(port));
		if (!ca->ports[p]) {
			free(port.pkeys);
			ref_umad_release_ca(ca);
			return -ENOMEM;
		}
		*ca->ports[p] = port;
		ca->numports = p;
	}
	return 0;
}

int ref_umad_release_ca(umad_ca_t *ca)
{
	int p;

	if (!ca)
		return -EINVAL;
	for (p = 0; p < UMAD_CA_MAX_PORTS; p++) {
		if (!ca->ports[p])
			continue;
		ref_umad_release_port(ca->ports[p]);
		free(ca->ports[p]);
		ca->ports[p] = NULL;
	}
	return 0;
}

/* The umadN whose ibdev and port are @ca and @port. */
static int find_umad(const char *ca, int port)
{
	char buf[64];
	struct dirent *d;
	DIR *dir = opendir(SYS_MAD);
	int n = -1;

	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (strncmp(d->d_name, "umad", 4))
			continue;
		if (ref_sysfs_read(buf, sizeof(buf), SYS_MAD "/%s/ibdev",
				   d->d_name) ||
		    strcmp(buf, ca))
			continue;
		if (ref_sysfs_read(buf, sizeof(buf), SYS_MAD "/%s/port",
				   d->d_name) ||
		    atoi(buf) != port)
			continue;
		n = atoi(d->d_name + 4);
		break;
	}
	closedir(dir);
	return n;
}

/* The N of the umadN (and issmN) of a port, by the rules of
 * umad_open_port(3): -ENODEV "IB device can't be resolved", -EINVAL "port
 * is not valid (bad portnum or no umad device)". */
static int umad_index_of(const char *ca_name, int portnum)
{
	char ca[UMAD_CA_NAME_LEN];
	int p, n;

	if (portnum < 0 || portnum >= UMAD_CA_MAX_PORTS)
		return -EINVAL;
	if (resolve(ca_name, portnum, ca, &p))
		return -ENODEV;
	n = find_umad(ca, p);
	return n < 0 ? -EINVAL : n;
}

int ref_umad_open_port(const char *ca_name, int portnum)
{
	char path[64], buf[16];
	int n, fd;

	if (ref_sysfs_read(buf, sizeof(buf), SYS_MAD "/abi_version") ||
	    atoi(buf) != IB_UMAD_ABI_VERSION)
		return -EOPNOTSUPP;
	n = umad_index_of(ca_name, portnum);
	if (n < 0)
		return n;
	snprintf(path, sizeof(path), "/dev/infiniband/umad%d", n);
	/* non-blocking: umad_recv(3) with timeout 0 "indicates a non
	 * blocking read", and every other wait is a poll() */
	fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -EIO;
	/* use the 64-byte header with pkey_index on this fd (ABI 5.x) */
	ioctl(fd, IB_USER_MAD_ENABLE_PKEY, NULL);
	if (ref_port_add(fd)) {
		close(fd);
		return -EIO;
	}
	return fd;
}

int ref_umad_close_port(int portid)
{
	/* closing the descriptor unregisters its agents in the kernel */
	if (ref_port_del(portid))
		return -EINVAL;
	close(portid);
	return 0;
}

/* The highest port number of @ca that sysfs has. */
static int num_ports(const char *ca)
{
	char buf[32];
	int p, n = 0;

	for (p = 1; p < UMAD_CA_MAX_PORTS; p++)
		if (!ref_sysfs_read(buf, sizeof(buf),
				    SYS_IB "/%s/ports/%d/state", ca, p))
			n = p;
	return n;
}

/*
 * umad_get_ca_portguids(3): "fills the portguids array with up to max port
 * GUIDs"; "on a CA node with only one port, this function returns a value
 * of 2.  In this case, the value at index 0 will be invalid as it is
 * reserved for switches."  Invalid entries are 0.
 */
int ref_umad_get_ca_portguids(const char *ca_name, __be64 *portguids, int max)
{
	char ca[UMAD_CA_NAME_LEN], buf[128];
	uint8_t gid[16];
	int p, n;

	if (max < 0 || (max && !portguids))
		return -EINVAL;
	if (resolve(ca_name, 0, ca, &p))
		return -ENODEV;
	n = num_ports(ca) + 1;
	if (n > max)
		n = max;
	/* entry 0: a switch's port 0; a channel adapter has none (0) */
	for (p = 0; p < n; p++) {
		portguids[p] = 0;
		if (!ref_sysfs_read(buf, sizeof(buf),
				    SYS_IB "/%s/ports/%d/gids/0", ca, p) &&
		    !ref_parse_gid(buf, gid))
			memcpy(&portguids[p], gid + 8, 8);
	}
	return n;
}

/*
 * umad_get_issm_path(3): the issm device of the port, "which cannot exceed
 * max bytes in length (including NULL terminator)"; -ENODEV "IB device
 * can't be resolved", -EINVAL "port is not valid (bad portnum or no umad
 * device)".  issmN pairs with umadN (Documentation/infiniband/user_mad.rst).
 */
int ref_umad_get_issm_path(const char *ca_name, int portnum, char path[],
			   int max)
{
	int n = umad_index_of(ca_name, portnum), len;

	if (n < 0)
		return n;
	len = snprintf(NULL, 0, "/dev/infiniband/issm%d", n);
	if (!path || max <= len)
		return -EINVAL;
	snprintf(path, max, "/dev/infiniband/issm%d", n);
	return 0;
}

/*
 * umad_get_ca_device_list(3), umad_free_ca_device_list(3) and
 * umad_sort_ca_device_list(3): rdma-core documents them in its source
 * (libibumad/man/, as .3.md pages) but its build installs no page for them, so
 * they read as undocumented on an installed system (Debian 12).  A
 * singly linked list of the CA names, in the order umad_get_cas_names
 * gives them; sorting is by name.
 */
/* Each IB device's name, whole: a node's name is a pointer, which no
 * array bounds (umad_get_cas_names's must fit UMAD_CA_NAME_LEN). */
struct umad_device_node *ref_umad_get_ca_device_list(void)
{
	struct umad_device_node *head = NULL, **tail = &head, *n;
	int saved = errno;
	struct dirent *d;
	DIR *dir = opendir(SYS_IB);

	/* no RDMA device at all: the empty list, errno not set */
	if (!dir) {
		if (errno == ENOENT)
			errno = saved;
		return NULL;
	}
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || !ib_node(d->d_name))
			continue;
		n = calloc(1, sizeof(*n));
		if (!n || !(n->ca_name = strdup(d->d_name))) {
			free(n);
			closedir(dir);
			ref_umad_free_ca_device_list(head);
			errno = ENOMEM;
			return NULL;
		}
		*tail = n;
		tail = &n->next;
	}
	closedir(dir);
	/* "In case of empty list (zero elements), NULL is returned and errno
	 * is not set." */
	return head;
}

void ref_umad_free_ca_device_list(struct umad_device_node *head)
{
	struct umad_device_node *n;

	while (head) {
		n = head->next;
		free((char *)head->ca_name);
		free(head);
		head = n;
	}
}

static int cmp_nodes(const void *a, const void *b)
{
	const struct umad_device_node *x = *(const struct umad_device_node **)a;
	const struct umad_device_node *y = *(const struct umad_device_node **)b;

	return strcmp(x->ca_name, y->ca_name);
}

/*
 * @size is "the size of the cas list", or zero for the function to count
 * it: a size that is not the list's is a wrong argument, an error ("On
 * error, non-zero value is returned. errno is not set."), and the list is
 * left as it was.
 */
int ref_umad_sort_ca_device_list(struct umad_device_node **head, size_t size)
{
	struct umad_device_node **v, *n;
	size_t i, count = 0;

	if (!head)
		return EINVAL;
	for (n = *head; n; n = n->next)
		count++;
	if (size && size != count)
		return EINVAL;
	if (count < 2)
		return 0;
	v = calloc(count, sizeof(*v));
	if (!v)
		return ENOMEM;
	for (i = 0, n = *head; n; n = n->next)
		v[i++] = n;
	qsort(v, count, sizeof(*v), cmp_nodes);
	for (i = 0; i + 1 < count; i++)
		v[i]->next = v[i + 1];
	v[count - 1]->next = NULL;
	*head = v[0];
	free(v);
	return 0;
}
