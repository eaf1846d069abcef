// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Names: umad_class_str(3), umad_method_str, umad_attribute_str,
 * umad_common_mad_status_str, umad_sa_mad_status_str.  "Return string
 * value of management class enum" and so on: the names are the
 * InfiniBand Architecture Specification's (Vol. 1: management classes
 * 13.4.4, methods 13.4.5 and 15.2.2, common attributes 13.4.8, subnet
 * management attributes 14.2.5, subnet administration attributes 15.2.5,
 * performance management attributes 16.1.3, MAD status 13.4.7 and SA
 * status 15.2.1.1), never rdma-core's tables.  A value the tables do not
 * hold still gets a string, which says so.
 */
#include <endian.h>
#include <stddef.h>

#include "ref_umad.h"

struct name {
	unsigned int value;
	const char *name;
};

#define CLASS_SMI 0x01
#define CLASS_SMI_DR 0x81
#define CLASS_SA 0x03
#define CLASS_PERF 0x04

static const char *lookup(const struct name *t, size_t n, unsigned int v,
			  const char *unknown)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].value == v)
			return t[i].name;
	return unknown;
}

#define LOOKUP(t, v, unknown) lookup(t, sizeof(t) / sizeof(t[0]), v, unknown)

static const struct name classes[] = {
	{ 0x01, "Subnet Management (LID routed)" },
	{ 0x81, "Subnet Management (directed route)" },
	{ 0x03, "Subnet Administration" },
	{ 0x04, "Performance Management" },
	{ 0x05, "Baseboard Management" },
	{ 0x06, "Device Management" },
	{ 0x07, "Communication Management" },
	{ 0x08, "SNMP Tunneling" },
	{ 0x10, "Device Administration" },
	{ 0x11, "Boot Management" },
	{ 0x12, "Boot Integrity Service" },
	{ 0x21, "Congestion Management" },
};

const char *ref_umad_class_str(uint8_t mgmt_class)
{
	if (mgmt_class >= 0x09 && mgmt_class <= 0x0f)
		return "Vendor Specific (range 1)";
	if (mgmt_class >= 0x30 && mgmt_class <= 0x4f)
		return "Vendor Specific (range 2)";
	if (mgmt_class >= 0x20 && mgmt_class <= 0x2f && mgmt_class != 0x21)
		return "Application Specific";
	return LOOKUP(classes, mgmt_class, "Reserved management class");
}

/* 13.4.5: every class; the SA's own methods, 15.2.2 */
static const struct name methods[] = {
	{ 0x01, "Get" },     { 0x02, "Set" },	     { 0x03, "Send" },
	{ 0x05, "Trap" },    { 0x06, "Report" },     { 0x07, "TrapRepress" },
	{ 0x81, "GetResp" }, { 0x86, "ReportResp" },
};
static const struct name sa_methods[] = {
	{ 0x12, "GetTable" },	   { 0x92, "GetTableResp" },
	{ 0x13, "GetTraceTable" }, { 0x14, "GetMulti" },
	{ 0x94, "GetMultiResp" },  { 0x15, "Delete" },
	{ 0x95, "DeleteResp" },
};

const char *ref_umad_method_str(uint8_t mgmt_class, uint8_t method)
{
	const char *s = LOOKUP(methods, method, NULL);

	if (!s && mgmt_class == CLASS_SA)
		s = LOOKUP(sa_methods, method, NULL);
	return s ? s : "Unknown method";
}

/* 13.4.8, common to every class */
static const struct name common_attrs[] = {
	{ 0x0001, "ClassPortInfo" },
	{ 0x0002, "Notice" },
	{ 0x0003, "InformInfo" },
};
static const struct name smi_attrs[] = {
	{ 0x0010, "NodeDescription" },
	{ 0x0011, "NodeInfo" },
	{ 0x0012, "SwitchInfo" },
	{ 0x0014, "GUIDInfo" },
	{ 0x0015, "PortInfo" },
	{ 0x0016, "P_KeyTable" },
	{ 0x0017, "SLtoVLMappingTable" },
	{ 0x0018, "VLArbitrationTable" },
	{ 0x0019, "LinearForwardingTable" },
	{ 0x001a, "RandomForwardingTable" },
	{ 0x001b, "MulticastForwardingTable" },
	{ 0x0020, "SMInfo" },
	{ 0x0030, "VendorDiag" },
	{ 0x0031, "LedInfo" },
};
static const struct name sa_attrs[] = {
	{ 0x0011, "NodeRecord" },
	{ 0x0012, "PortInfoRecord" },
	{ 0x0013, "SLtoVLMappingTableRecord" },
	{ 0x0014, "SwitchInfoRecord" },
	{ 0x0015, "LinearForwardingTableRecord" },
	{ 0x0016, "RandomForwardingTableRecord" },
	{ 0x0017, "MulticastForwardingTableRecord" },
	{ 0x0018, "SMInfoRecord" },
	{ 0x0020, "LinkRecord" },
	{ 0x0030, "GuidInfoRecord" },
	{ 0x0031, "ServiceRecord" },
	{ 0x0033, "P_KeyTableRecord" },
	{ 0x0035, "PathRecord" },
	{ 0x0036, "VLArbitrationTableRecord" },
	{ 0x0038, "MCMemberRecord" },
	{ 0x0039, "TraceRecord" },
	{ 0x003a, "MultiPathRecord" },
	{ 0x003b, "ServiceAssociationRecord" },
	{ 0x00f3, "InformInfoRecord" },
};
static const struct name perf_attrs[] = {
	{ 0x0010, "PortSamplesControl" },
	{ 0x0011, "PortSamplesResult" },
	{ 0x0012, "PortCounters" },
};

const char *ref_umad_attribute_str(uint8_t mgmt_class, __be16 attr_id)
{
	unsigned int id = be16toh(attr_id);
	const char *s = LOOKUP(common_attrs, id, NULL);

	if (s)
		return s;
	switch (mgmt_class) {
	case CLASS_SMI:
	case CLASS_SMI_DR:
		s = LOOKUP(smi_attrs, id, NULL);
		break;
	case CLASS_SA:
		s = LOOKUP(sa_attrs, id, NULL);
		break;
	case CLASS_PERF:
		s = LOOKUP(perf_attrs, id, NULL);
		break;
	}
	return s ? s : "Unknown attribute";
}

/*
 * 13.4.7: bit 0 busy, bit 1 redirect required, bits 2-4 a code for an
 * invalid field; bits 8-14 are the class's own.
 */
static const struct name field_codes[] = {
	{ 0, "no invalid fields" },
	{ 1, "bad base or class version" },
	{ 2, "method not supported" },
	{ 3, "method/attribute combination not supported" },
	{ 7, "invalid value in attribute or attribute modifier" },
};

const char *ref_umad_common_mad_status_str(__be16 status)
{
	unsigned int s = be16toh(status);

	if (s & 0x0001)
		return "busy";
	if (s & 0x0002)
		return "redirect required";
	return LOOKUP(field_codes, (s >> 2) & 7, "reserved invalid-field code");
}

/* 15.2.1.1: the SA's code in bits 8-14 */
static const struct name sa_codes[] = {
	{ 0, "no error" },
	{ 1, "ERR_NO_RESOURCES" },
	{ 2, "ERR_REQ_INVALID" },
	{ 3, "ERR_NO_RECORDS" },
	{ 4, "ERR_TOO_MANY_RECORDS" },
	{ 5, "ERR_REQ_INVALID_GID" },
	{ 6, "ERR_REQ_INSUFFICIENT_COMPONENTS" },
	{ 7, "ERR_REQ_DENIED" },
};

const char *ref_umad_sa_mad_status_str(__be16 status)
{
	return LOOKUP(sa_codes, (be16toh(status) >> 8) & 0x7f,
		      "reserved SA status");
}
