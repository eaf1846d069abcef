// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Mutants of the rest of libibumad: set-up calls, debug level and dumps,
 * names, port GUIDs, the issm path, umad_register2.  (umad_alloc and
 * umad_free are inline in <infiniband/umad.h>: no symbol to interpose.)
 */
#include <endian.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/umad.h>
#include <infiniband/umad_str.h>

#include "mutant.h"

MUTANT(init_fail, "umad_init", "minus-one", "-1, as releases before 18");

int umad_init(void)
{
	return mutant_on(&init_fail) ? -1 : REAL(umad_init)();
}

MUTANT(done_fail, "umad_done", "minus-one", "-1");

int umad_done(void)
{
	return mutant_on(&done_fail) ? -1 : REAL(umad_done)();
}

MUTANT(debug_keep, "umad_debug", "set-ignored",
       "returns the level asked for, stores nothing");
MUTANT(debug_neg, "umad_debug", "negative-sets-zero",
       "a negative level sets 0");

int umad_debug(int level)
{
	if (mutant_on(&debug_keep))
		return level < 0 ? REAL(umad_debug)(-1) : level;
	if (mutant_on(&debug_neg) && level < 0)
		level = 0;
	return REAL(umad_debug)(level);
}

MUTANT(dump_silent, "umad_dump", "silent", "prints nothing");
MUTANT(dump_stdout, "umad_dump", "to-stdout", "prints to stdout");

void umad_dump(void *umad)
{
	int keep;

	if (mutant_on(&dump_silent))
		return;
	if (!mutant_on(&dump_stdout)) {
		REAL(umad_dump)(umad);
		return;
	}
	fflush(stderr);
	keep = dup(STDERR_FILENO);
	dup2(STDOUT_FILENO, STDERR_FILENO);
	REAL(umad_dump)(umad);
	fflush(stderr);
	dup2(keep, STDERR_FILENO);
	close(keep);
}

MUTANT(adump_silent, "umad_addr_dump", "silent", "prints nothing");
MUTANT(adump_lid, "umad_addr_dump", "lid-unconverted",
       "prints the network-order fields unconverted");

void umad_addr_dump(ib_mad_addr_t *addr)
{
	if (mutant_on(&adump_silent))
		return;
	if (mutant_on(&adump_lid)) {
		fprintf(stderr, "qpn %u qkey %u lid %u flow_label %u\n",
			addr->qpn, addr->qkey, addr->lid, addr->flow_label);
		return;
	}
	REAL(umad_addr_dump)(addr);
}

/* the names */
MUTANT(cls_null, "umad_class_str", "null-for-unknown",
       "NULL for a class it does not know");
MUTANT(cls_same, "umad_class_str", "one-name", "one string for every class");

const char *umad_class_str(uint8_t mgmt_class)
{
	const char *s = REAL(umad_class_str)(mgmt_class);

	if (mutant_on(&cls_same))
		return "Management";
	if (mutant_on(&cls_null) && s && s[0] == '<')
		return NULL;
	return s;
}

MUTANT(meth_null, "umad_method_str", "null-for-unknown",
       "NULL for a method it does not know");
MUTANT(meth_swap, "umad_method_str", "get-and-set-swapped",
       "Get and Set named each other");

const char *umad_method_str(uint8_t mgmt_class, uint8_t method)
{
	const char *s;

	if (mutant_on(&meth_swap) && (method == 1 || method == 2))
		method ^= 3;
	s = REAL(umad_method_str)(mgmt_class, method);
	if (mutant_on(&meth_null) && s && s[0] == '<')
		return NULL;
	return s;
}

MUTANT(attr_null, "umad_attribute_str", "null-for-unknown",
       "NULL for an attribute it does not know");
MUTANT(attr_host, "umad_attribute_str", "id-host-order",
       "attr_id read in host order");

const char *umad_attribute_str(uint8_t mgmt_class, __be16 attr_id)
{
	const char *s;

	if (mutant_on(&attr_host))
		attr_id = (__be16)be16toh(attr_id);
	s = REAL(umad_attribute_str)(mgmt_class, attr_id);
	if (mutant_on(&attr_null) && s && s[0] == '<')
		return NULL;
	return s;
}

MUTANT(cst_same, "umad_common_mad_status_str", "one-name",
       "one string for every status");
MUTANT(cst_empty, "umad_common_mad_status_str", "empty", "an empty string");

const char *umad_common_mad_status_str(__be16 status)
{
	if (mutant_on(&cst_same))
		return "Status";
	if (mutant_on(&cst_empty))
		return "";
	return REAL(umad_common_mad_status_str)(status);
}

MUTANT(sst_same, "umad_sa_mad_status_str", "one-name",
       "one string for every status");
MUTANT(sst_null, "umad_sa_mad_status_str", "null", "NULL");

const char *umad_sa_mad_status_str(__be16 status)
{
	if (mutant_on(&sst_same))
		return "SA status";
	if (mutant_on(&sst_null))
		return NULL;
	return REAL(umad_sa_mad_status_str)(status);
}

/* umad_get_ca_portguids */
MUTANT(pg_zero, "umad_get_ca_portguids", "entry0-set",
       "entry 0 holds port 1's GUID");
MUTANT(pg_count, "umad_get_ca_portguids", "count-ports-only",
       "returns the number of ports, not of entries");
MUTANT(pg_max, "umad_get_ca_portguids", "ignores-max",
       "fills one entry past max");
MUTANT(pg_order, "umad_get_ca_portguids", "guid-host-order",
       "GUIDs byte-swapped");

int umad_get_ca_portguids(const char *ca_name, __be64 *portguids, int max)
{
	int n = REAL(umad_get_ca_portguids)(ca_name, portguids,
					    mutant_on(&pg_max) ? max + 1 : max);
	int i;

	if (n <= 0)
		return n;
	if (mutant_on(&pg_max) && n > max)
		n = max;
	if (mutant_on(&pg_zero) && n > 1)
		portguids[0] = portguids[1];
	if (mutant_on(&pg_order))
		for (i = 0; i < n; i++)
			portguids[i] = __builtin_bswap64(portguids[i]);
	return mutant_on(&pg_count) ? n - 1 : n;
}

/* umad_get_issm_path */
MUTANT(issm_umad, "umad_get_issm_path", "umad-path",
       "the umad device's path, not the issm's");
MUTANT(issm_over, "umad_get_issm_path", "ignores-max",
       "writes the whole path whatever max is");
MUTANT(issm_err, "umad_get_issm_path", "errno-enoent",
       "-ENOENT for every failure");

int umad_get_issm_path(const char *ca_name, int portnum, char path[], int max)
{
	char *p;
	int ret = REAL(umad_get_issm_path)(ca_name, portnum, path,
					   mutant_on(&issm_over) ? 256 : max);

	if (ret < 0 && mutant_on(&issm_err))
		return -ENOENT;
	if (!ret && mutant_on(&issm_umad) && (p = strstr(path, "issm")))
		memcpy(p, "umad", 4);
	return ret;
}

/* umad_register2 */
MUTANT(reg2_mask, "umad_register2", "mask-ignored",
       "registered with no methods whatever the mask");
MUTANT(reg2_id, "umad_register2", "agent-id-unset", "agent_id not written");
MUTANT(reg2_sign, "umad_register2", "negative-errno",
       "a failure returned as -errno");

int umad_register2(int port_fd, struct umad_reg_attr *attr, uint32_t *agent_id)
{
	struct umad_reg_attr a;
	uint32_t id;
	int ret;

	if (!attr)
		return REAL(umad_register2)(port_fd, attr, agent_id);
	a = *attr;
	if (mutant_on(&reg2_mask))
		memset(a.method_mask, 0, sizeof(a.method_mask));
	ret = REAL(umad_register2)(port_fd, &a, &id);
	attr->flags = a.flags;
	if (!ret && !mutant_on(&reg2_id))
		*agent_id = id;
	return ret > 0 && mutant_on(&reg2_sign) ? -ret : ret;
}

/* umad_release_ca, umad_release_port */
MUTANT(rca_fail, "umad_release_ca", "fails", "-EINVAL after releasing");

int umad_release_ca(umad_ca_t *ca)
{
	int ret = REAL(umad_release_ca)(ca);

	return mutant_on(&rca_fail) ? -EINVAL : ret;
}

MUTANT(rport_fail, "umad_release_port", "fails", "-EINVAL after releasing");

int umad_release_port(umad_port_t *port)
{
	int ret = REAL(umad_release_port)(port);

	return mutant_on(&rport_fail) ? -EINVAL : ret;
}

/* umad_get_ca_device_list, umad_free_ca_device_list,
 * umad_sort_ca_device_list */
MUTANT(dl_short, "umad_get_ca_device_list", "drops-the-last",
       "the list ends one node early (the node leaks)");
MUTANT(dl_twice, "umad_get_ca_device_list", "first-name-twice",
       "the second node names the first device again");

struct umad_device_node *umad_get_ca_device_list(void)
{
	struct umad_device_node *l = REAL(umad_get_ca_device_list)(), *n;

	if (l && mutant_on(&dl_short)) {
		if (!l->next)
			return NULL;
		for (n = l; n->next->next; n = n->next)
			;
		n->next = NULL;
	}
	if (l && l->next && mutant_on(&dl_twice))
		l->next->ca_name = l->ca_name;
	return l;
}

MUTANT(dl_leak, "umad_free_ca_device_list", "frees-nothing",
       "returns, and the list stays allocated");

void umad_free_ca_device_list(struct umad_device_node *head)
{
	if (!mutant_on(&dl_leak))
		REAL(umad_free_ca_device_list)(head);
}

MUTANT(sort_zero, "umad_sort_ca_device_list", "size-zero-sorts-nothing",
       "size 0 is an empty list, not the list's own size");
MUTANT(sort_rev, "umad_sort_ca_device_list", "first-two-swapped",
       "sorted, then the first two nodes swapped");

int umad_sort_ca_device_list(struct umad_device_node **head, size_t size)
{
	struct umad_device_node *a, *b;
	int ret;

	if (mutant_on(&sort_zero) && !size)
		return 0;
	ret = REAL(umad_sort_ca_device_list)(head, size);
	if (!ret && mutant_on(&sort_rev) && *head && (*head)->next) {
		a = *head;
		b = a->next;
		a->next = b->next;
		b->next = a;
		*head = b;
	}
	return ret;
}
