// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Mutants of libibumad: each breaks one documented behaviour of one call
 * (byte order, a field, the errno, the return convention, an
 * out-parameter, a wait, a no-op) and passes everything else through.
 */
#include <endian.h>
#include <string.h>
#include <infiniband/umad.h>

#include "mutant.h"

/* umad_set_grh */
MUTANT(grh_flow, "umad_set_grh", "flow-host-order",
       "the flow label stored in host order");
MUTANT(grh_present, "umad_set_grh", "grh-present-not-set",
       "grh_present left as it was");
MUTANT(grh_hop, "umad_set_grh", "hop-limit-dropped", "hop_limit not written");
MUTANT(grh_class, "umad_set_grh", "traffic-class-dropped",
       "traffic_class not written");
MUTANT(grh_gid, "umad_set_grh", "gid-zeroed", "the GID written as zeros");
MUTANT(grh_null, "umad_set_grh", "null-writes-grh",
       "a NULL mad_addr sets grh_present");
MUTANT(grh_noop, "umad_set_grh", "noop", "returns 0, writes nothing");

int umad_set_grh(void *umad, void *mad_addr)
{
	ib_user_mad_t *u = umad;
	uint8_t keep[sizeof(u->addr)];
	int ret;

	if (mutant_on(&grh_noop))
		return 0;
	if (mutant_on(&grh_null) && !mad_addr) {
		u->addr.grh_present = 1;
		return 0;
	}
	memcpy(keep, &u->addr, sizeof(keep));
	ret = REAL(umad_set_grh)(umad, mad_addr);
	if (!mad_addr)
		return ret;
	if (mutant_on(&grh_flow))
		u->addr.flow_label = ((ib_mad_addr_t *)mad_addr)->flow_label;
	if (mutant_on(&grh_present))
		u->addr.grh_present = ((ib_mad_addr_t *)keep)->grh_present;
	if (mutant_on(&grh_hop))
		u->addr.hop_limit = ((ib_mad_addr_t *)keep)->hop_limit;
	if (mutant_on(&grh_class))
		u->addr.traffic_class = ((ib_mad_addr_t *)keep)->traffic_class;
	if (mutant_on(&grh_gid))
		memset(u->addr.gid, 0, sizeof(u->addr.gid));
	return ret;
}

/* umad_set_addr */
MUTANT(addr_lid, "umad_set_addr", "dlid-host-order", "dlid not converted");
MUTANT(addr_qpn, "umad_set_addr", "dqp-host-order", "dqp not converted");
MUTANT(addr_qkey, "umad_set_addr", "qkey-host-order", "qkey not converted");
MUTANT(addr_sl, "umad_set_addr", "sl-dropped", "sl not written");
MUTANT(addr_noop, "umad_set_addr", "noop", "returns 0, writes nothing");

int umad_set_addr(void *umad, int dlid, int dqp, int sl, int qkey)
{
	ib_user_mad_t *u = umad;
	uint8_t old_sl = u->addr.sl;
	int ret;

	if (mutant_on(&addr_noop))
		return 0;
	ret = REAL(umad_set_addr)(umad, dlid, dqp, sl, qkey);
	if (mutant_on(&addr_lid))
		u->addr.lid = (uint16_t)dlid;
	if (mutant_on(&addr_qpn))
		u->addr.qpn = (uint32_t)dqp;
	if (mutant_on(&addr_qkey))
		u->addr.qkey = (uint32_t)qkey;
	if (mutant_on(&addr_sl))
		u->addr.sl = old_sl;
	return ret;
}

/* umad_set_addr_net */
MUTANT(addrn_lid, "umad_set_addr_net", "dlid-converted",
       "a network-order dlid converted again");
MUTANT(addrn_noop, "umad_set_addr_net", "noop", "returns 0, writes nothing");

int umad_set_addr_net(void *umad, __be16 dlid, __be32 dqp, int sl, __be32 qkey)
{
	ib_user_mad_t *u = umad;
	int ret;

	if (mutant_on(&addrn_noop))
		return 0;
	ret = REAL(umad_set_addr_net)(umad, dlid, dqp, sl, qkey);
	if (mutant_on(&addrn_lid))
		u->addr.lid = htobe16((uint16_t)dlid);
	return ret;
}

/* umad_set_pkey, umad_get_pkey */
MUTANT(setpk_be, "umad_set_pkey", "big-endian", "pkey_index stored big endian");
MUTANT(setpk_noop, "umad_set_pkey", "noop", "returns 0, writes nothing");

int umad_set_pkey(void *umad, int pkey_index)
{
	ib_user_mad_t *u = umad;
	int ret;

	if (mutant_on(&setpk_noop))
		return 0;
	ret = REAL(umad_set_pkey)(umad, pkey_index);
	if (mutant_on(&setpk_be))
		u->addr.pkey_index = htobe16((uint16_t)pkey_index);
	return ret;
}

MUTANT(getpk_be, "umad_get_pkey", "big-endian", "pkey_index read big endian");
MUTANT(getpk_zero, "umad_get_pkey", "zero", "always 0");

int umad_get_pkey(void *umad)
{
	ib_user_mad_t *u = umad;

	if (mutant_on(&getpk_zero))
		return 0;
	if (mutant_on(&getpk_be))
		return be16toh(u->addr.pkey_index);
	return REAL(umad_get_pkey)(umad);
}

/* umad_status, umad_size, umad_get_mad, umad_get_mad_addr */
MUTANT(status_be, "umad_status", "big-endian", "status read big endian");
MUTANT(status_zero, "umad_status", "zero", "always 0");

int umad_status(void *umad)
{
	if (mutant_on(&status_zero))
		return 0;
	if (mutant_on(&status_be))
		return be32toh(((ib_user_mad_t *)umad)->status);
	return REAL(umad_status)(umad);
}

MUTANT(size_mad, "umad_size", "with-mad", "the header and a 256-byte MAD");

size_t umad_size(void)
{
	if (mutant_on(&size_mad))
		return sizeof(ib_user_mad_t) + 256;
	return REAL(umad_size)();
}

MUTANT(mad_start, "umad_get_mad", "buffer-start", "the buffer, not the MAD");

void *umad_get_mad(void *umad)
{
	if (mutant_on(&mad_start))
		return umad;
	return REAL(umad_get_mad)(umad);
}

MUTANT(madaddr_off, "umad_get_mad_addr", "off-by-four",
       "4 bytes past the address");

ib_mad_addr_t *umad_get_mad_addr(void *umad)
{
	if (mutant_on(&madaddr_off))
		return (ib_mad_addr_t *)((char *)REAL(umad_get_mad_addr)(umad) +
					 4);
	return REAL(umad_get_mad_addr)(umad);
}

/* umad_get_cas_names, umad_get_ca, umad_get_port */
MUTANT(cas_count, "umad_get_cas_names", "count-plus-one",
       "one more than it filled");
MUTANT(cas_max, "umad_get_cas_names", "ignores-max",
       "writes one entry past max");

int umad_get_cas_names(char cas[][UMAD_CA_NAME_LEN], int max)
{
	char all[UMAD_MAX_DEVICES + 1][UMAD_CA_NAME_LEN];
	int n;

	if (mutant_on(&cas_max) && max >= 0 && max < UMAD_MAX_DEVICES) {
		/* one entry past max whenever there is one to give */
		n = REAL(umad_get_cas_names)(all, UMAD_MAX_DEVICES);
		if (n > max) {
			memcpy(cas, all, (max + 1) * UMAD_CA_NAME_LEN);
			return max;
		}
	}
	n = REAL(umad_get_cas_names)(cas, max);
	if (mutant_on(&cas_count) && n >= 0)
		return n + 1;
	return n;
}

MUTANT(ca_guid, "umad_get_ca", "node-guid-host-order",
       "node_guid byte-swapped");
MUTANT(ca_ports, "umad_get_ca", "numports-zero", "numports 0");
MUTANT(ca_fail, "umad_get_ca", "fails", "-ENODEV for every device");
MUTANT(ca_ok, "umad_get_ca", "unknown-is-default",
       "an unknown device gives the default one");

int umad_get_ca(const char *ca_name, umad_ca_t *ca)
{
	int ret;

	if (mutant_on(&ca_fail))
		return -ENODEV;
	ret = REAL(umad_get_ca)(ca_name, ca);
	if (ret < 0 && mutant_on(&ca_ok))
		ret = REAL(umad_get_ca)(NULL, ca);
	if (ret < 0)
		return ret;
	if (mutant_on(&ca_guid))
		ca->node_guid = __builtin_bswap64(ca->node_guid);
	if (mutant_on(&ca_ports))
		ca->numports = 0;
	return ret;
}

MUTANT(port_lid, "umad_get_port", "lid-plus-one", "base_lid + 1");
MUTANT(port_guid, "umad_get_port", "guid-host-order", "port_guid swapped");
MUTANT(port_ll, "umad_get_port", "link-layer-empty", "link_layer empty");
MUTANT(port_fail, "umad_get_port", "fails", "-ENODEV for every port");
MUTANT(port_ok, "umad_get_port", "unknown-is-default",
       "an unknown device or port gives the default one");

int umad_get_port(const char *ca_name, int portnum, umad_port_t *port)
{
	int ret;

	if (mutant_on(&port_fail))
		return -ENODEV;
	ret = REAL(umad_get_port)(ca_name, portnum, port);
	if (ret < 0 && mutant_on(&port_ok))
		ret = REAL(umad_get_port)(NULL, 0, port);
	if (ret < 0)
		return ret;
	if (mutant_on(&port_lid))
		port->base_lid++;
	if (mutant_on(&port_guid))
		port->port_guid = __builtin_bswap64(port->port_guid);
	if (mutant_on(&port_ll))
		port->link_layer[0] = 0;
	return ret;
}

/* umad_open_port, umad_close_port, umad_get_fd */
MUTANT(open_eio, "umad_open_port", "errno-eio", "-EIO for every failure");
MUTANT(open_fallback, "umad_open_port", "unknown-is-default",
       "an unknown device or port opens the default one");
MUTANT(open_same, "umad_open_port", "same-descriptor",
       "a second open gives the first descriptor again");

int umad_open_port(const char *ca_name, int portnum)
{
	static int first = -1;
	int fd;

	if (mutant_on(&open_same) && first >= 0)
		return first;
	fd = REAL(umad_open_port)(ca_name, portnum);
	if (fd < 0 && mutant_on(&open_eio))
		return -EIO;
	if (fd < 0 && mutant_on(&open_fallback))
		fd = REAL(umad_open_port)(NULL, 0);
	if (fd >= 0 && first < 0)
		first = fd;
	return fd;
}

MUTANT(close_noop, "umad_close_port", "noop", "returns 0, closes nothing");
MUTANT(close_einval, "umad_close_port", "always-einval",
       "closes, then returns -EINVAL");

int umad_close_port(int portid)
{
	if (mutant_on(&close_noop))
		return 0;
	if (mutant_on(&close_einval)) {
		REAL(umad_close_port)(portid);
		return -EINVAL;
	}
	return REAL(umad_close_port)(portid);
}

MUTANT(fd_off, "umad_get_fd", "plus-one", "the descriptor + 1");

int umad_get_fd(int portid)
{
	int fd = REAL(umad_get_fd)(portid);

	return mutant_on(&fd_off) ? fd + 1 : fd;
}

/* umad_register, umad_register_oui, umad_unregister */
MUTANT(reg_client, "umad_register", "mask-ignored",
       "registered as a client whatever the method mask");
MUTANT(reg_eio, "umad_register", "errno-positive",
       "a failure returned as +errno");

int umad_register(int portid, int mgmt_class, int mgmt_version,
		  uint8_t rmpp_version, long method_mask[16 / sizeof(long)])
{
	int ret = REAL(
		umad_register)(portid, mgmt_class, mgmt_version, rmpp_version,
			       mutant_on(&reg_client) ? NULL : method_mask);

	return ret < 0 && mutant_on(&reg_eio) ? -ret : ret;
}

MUTANT(oui_client, "umad_register_oui", "mask-ignored",
       "registered as a client whatever the method mask");
MUTANT(oui_range, "umad_register_oui", "class-unchecked",
       "a class outside vendor range 2 is registered as 0x30");

int umad_register_oui(int portid, int mgmt_class, uint8_t rmpp_version,
		      uint8_t oui[3], long method_mask[16 / sizeof(long)])
{
	if (mutant_on(&oui_range) && (mgmt_class < 0x30 || mgmt_class > 0x4f))
		mgmt_class = 0x30;
	return REAL(umad_register_oui)(portid, mgmt_class, rmpp_version, oui,
				       mutant_on(&oui_client) ? NULL :
								method_mask);
}

MUTANT(unreg_noop, "umad_unregister", "noop", "returns 0, unregisters nothing");

int umad_unregister(int portid, int agentid)
{
	if (mutant_on(&unreg_noop))
		return 0;
	return REAL(umad_unregister)(portid, agentid);
}

/* umad_send, umad_recv, umad_poll: the waits */
MUTANT(send_half, "umad_send", "timeout-halved", "half the timeout");
MUTANT(send_double, "umad_send", "timeout-doubled", "twice the timeout");
MUTANT(send_retries, "umad_send", "retries-ignored", "no retries");
MUTANT(send_noop, "umad_send", "noop", "returns 0, sends nothing");

int umad_send(int portid, int agentid, void *umad, int length, int timeout_ms,
	      int retries)
{
	if (mutant_on(&send_noop))
		return 0;
	if (mutant_on(&send_half))
		timeout_ms /= 2;
	if (mutant_on(&send_double))
		timeout_ms *= 2;
	if (mutant_on(&send_retries))
		retries = 0;
	return REAL(umad_send)(portid, agentid, umad, length, timeout_ms,
			       retries);
}

MUTANT(recv_half, "umad_recv", "timeout-halved", "half the timeout");
MUTANT(recv_nonblock, "umad_recv", "never-blocks",
       "a negative timeout does not block");
MUTANT(recv_len, "umad_recv", "length-not-updated",
       "*length left as the caller gave it");
MUTANT(recv_agent, "umad_recv", "agent-zero", "0 instead of the agent id");

int umad_recv(int portid, void *umad, int *length, int timeout_ms)
{
	int given = length ? *length : 0;
	int ret;

	if (mutant_on(&recv_half) && timeout_ms > 0)
		timeout_ms /= 2;
	if (mutant_on(&recv_nonblock) && timeout_ms < 0)
		timeout_ms = 0;
	ret = REAL(umad_recv)(portid, umad, length, timeout_ms);
	if (mutant_on(&recv_len) && length)
		*length = given;
	if (mutant_on(&recv_agent) && ret > 0)
		ret = 0;
	return ret;
}

MUTANT(poll_half, "umad_poll", "timeout-halved", "half the timeout");
MUTANT(poll_double, "umad_poll", "timeout-doubled", "twice the timeout");
MUTANT(poll_ready, "umad_poll", "always-ready", "returns 0 at once");
MUTANT(poll_sign, "umad_poll", "errno-positive",
       "a failure returned as +errno");

int umad_poll(int portid, int timeout_ms)
{
	int ret;

	if (mutant_on(&poll_ready))
		return 0;
	if (mutant_on(&poll_half))
		timeout_ms /= 2;
	if (mutant_on(&poll_double))
		timeout_ms *= 2;
	ret = REAL(umad_poll)(portid, timeout_ms);
	return ret < 0 && mutant_on(&poll_sign) ? -ret : ret;
}
