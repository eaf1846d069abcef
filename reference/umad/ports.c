// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <string.h>

#include "ports.h"

#define REF_MAX_PORTS 64
/* the kernel gives agent ids from 0 up per descriptor (IB_UMAD_MAX_AGENTS) */
#define REF_MAX_AGENTS 32

struct ref_port {
	int fd; /* -1: free slot */
	uint32_t agents; /* bit n: agent id n is registered */
};

static struct ref_port ports[REF_MAX_PORTS];
static bool ports_ready;

static struct ref_port *find(int fd)
{
	unsigned int i;

	if (!ports_ready) {
		for (i = 0; i < REF_MAX_PORTS; i++)
			ports[i].fd = -1;
		ports_ready = true;
	}
	if (fd < 0 && fd != -1)
		return NULL;
	for (i = 0; i < REF_MAX_PORTS; i++)
		if (ports[i].fd == fd)
			return &ports[i];
	return NULL;
}

int ref_port_add(int fd)
{
	struct ref_port *p = find(-1);

	if (fd < 0 || !p)
		return -ENOSPC;
	p->fd = fd;
	p->agents = 0;
	return 0;
}

int ref_port_del(int fd)
{
	struct ref_port *p = fd >= 0 ? find(fd) : NULL;

	if (!p)
		return -EINVAL;
	p->fd = -1;
	return 0;
}

bool ref_port_valid(int fd)
{
	return fd >= 0 && find(fd);
}

int ref_agent_add(int fd, uint32_t id)
{
	struct ref_port *p = fd >= 0 ? find(fd) : NULL;

	if (!p || id >= REF_MAX_AGENTS)
		return -EINVAL;
	p->agents |= 1u << id;
	return 0;
}

int ref_agent_del(int fd, uint32_t id)
{
	struct ref_port *p = fd >= 0 ? find(fd) : NULL;

	if (!p || id >= REF_MAX_AGENTS || !(p->agents & 1u << id))
		return -EINVAL;
	p->agents &= ~(1u << id);
	return 0;
}

bool ref_agent_valid(int fd, int id)
{
	struct ref_port *p = fd >= 0 ? find(fd) : NULL;

	return p && id >= 0 && id < REF_MAX_AGENTS && (p->agents & 1u << id);
}
