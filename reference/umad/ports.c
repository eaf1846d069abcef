// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ports.h"

/* the kernel gives agent ids from 0 up per descriptor (IB_UMAD_MAX_AGENTS) */
#define REF_MAX_AGENTS 32

struct ref_port {
	bool open;
	uint32_t agents; /* bit n: agent id n is registered */
};

/*
 * Indexed by descriptor, as many as the highest descriptor opened needs:
 * umad_open_port(3) puts no bound on how many ports are open at once.
 */
static struct ref_port *ports;
static size_t nports;

/* (a negative descriptor converts to a size no table reaches) */
static struct ref_port *port_of(int fd)
{
	if ((size_t)fd >= nports || !ports[fd].open)
		return NULL;
	return &ports[fd];
}

int ref_port_add(int fd)
{
	size_t need = (size_t)fd + 1;
	struct ref_port *grown;

	if (need > nports) {
		grown = realloc(ports, need * sizeof(*ports));
		if (!grown)
			return -ENOMEM;
		memset(grown + nports, 0, (need - nports) * sizeof(*ports));
		ports = grown;
		nports = need;
	}
	ports[fd] = (struct ref_port){ .open = true };
	return 0;
}

int ref_port_del(int fd)
{
	struct ref_port *p = port_of(fd);

	if (!p)
		return -EINVAL;
	p->open = false;
	return 0;
}

bool ref_port_valid(int fd)
{
	return port_of(fd) != NULL;
}

int ref_agent_add(int fd, uint32_t id)
{
	struct ref_port *p = port_of(fd);

	if (!p || id >= REF_MAX_AGENTS)
		return -EINVAL;
	p->agents |= 1u << id;
	return 0;
}

void ref_agent_del(int fd, uint32_t id)
{
	struct ref_port *p = port_of(fd);

	if (p && id < REF_MAX_AGENTS)
		p->agents &= ~(1u << id);
}

bool ref_agent_valid(int fd, int id)
{
	struct ref_port *p = port_of(fd);

	return p && id >= 0 && id < REF_MAX_AGENTS && (p->agents & 1u << id);
}
