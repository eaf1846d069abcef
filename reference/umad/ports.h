/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The handles the reference gave out: a port handle is the descriptor of
 * the open /dev/infiniband/umadN, and each port remembers the agent ids
 * registered through it, so that "invalid port handle or agentid" (the
 * -EINVAL of umad_send(3), umad_unregister(3), ...) is decided here and not
 * guessed from whatever errno the kernel gives.
 */
#ifndef RDMACONF_REF_UMAD_PORTS_H
#define RDMACONF_REF_UMAD_PORTS_H

#include <stdbool.h>
#include <stdint.h>

int ref_port_add(int fd);
int ref_port_del(int fd); /* -EINVAL: not a port we opened */
bool ref_port_valid(int fd);
int ref_agent_add(int fd, uint32_t id);
void ref_agent_del(int fd, uint32_t id);
bool ref_agent_valid(int fd, int id);

#endif
