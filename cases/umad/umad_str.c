// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * umad_class_str(3) and its siblings: "Return string value of management
 * class enum", "... of the method for the mgmt_class specified", "... of
 * attribute specified in attr_id based on mgmt_class specified", "... for
 * common MAD status values", "... for SA MAD status values".  RETURN
 * VALUE: "Returns a string representations of the fields specified."
 *
 * The page promises a string, not its spelling:
 * - a known and an unknown value each give a printable string, never NULL
 *   (documented)
 * - the methods and attributes of the classes it names are named by the
 *   InfiniBand Architecture Specification's mnemonics, case and spaces
 *   aside, and values that name different things get different strings
 *   (interpretation: a representation that cannot tell two values apart
 *   does not represent them).  "NOTE: Not all classes are supported.":
 *   no row asks for a class's attributes beyond SMI, SA and the common
 *   ones.
 * - every value of each call's domain (interpretation): the 256 classes
 *   with values of different kinds (each named class, vendor specific,
 *   application specific, reserved) under different strings; every method
 *   of every class, the IBA's named by its mnemonic and none other by one;
 *   every attribute of the classes named above (and the low 512 of every
 *   class), likewise; the 65536 statuses of each status call, read only
 *   in their own bits, and the codes of different meaning under different
 *   strings
 * The strings themselves are not compared across implementations.
 */
#include <ctype.h>
#include <endian.h>
#include <string.h>

#include "umad_hdr.h"

#define DOC_RET "Returns a string representations of the fields specified."
#define DOC_CLASS "Return string value of management class enum"
#define DOC_METHOD                                              \
	"Return string value of the method for the mgmt_class " \
	"specified"
#define DOC_ATTR                                                 \
	"Return string value of attribute specified in attr_id " \
	"based on mgmt_class specified."
#define DOC_COMMON "Return string value for common MAD status values"
#define DOC_SA "Return string value for SA MAD status values"

struct str_row;
/* The call of the row's group on @v (with the row's mgmt_class). */
typedef const char *str_call(const struct rc_ops *ops,
			     const struct str_row *row, uint16_t v);
/* What the string @s the call returned must be; @call asks again. */
typedef void str_check(const struct str_row *row, struct rc_ctx *ctx,
		       str_call *call, const char *s);

struct str_row {
	struct rc_case c;
	str_check *check;
	uint8_t mgmt_class;
	uint16_t value, other; /* tells_values_apart: two values */
	const char *name; /* is_iba_mnemonic: the IBA mnemonic */
};

static str_check is_printable, is_iba_mnemonic, tells_values_apart;
static str_check classes_by_kind, methods_by_name, attributes_by_name;
static str_check common_reads_own_bits, common_codes_differ;
static str_check sa_reads_own_bits, sa_codes_differ;

#define DOMAIN_ROW(i, d, fn, why)                        \
	{                                                \
		.c = { .id = "umad/" i,                  \
		       .doc = d,                         \
		       .basis = RC_BASIS_INTERPRETATION, \
		       .note = why,                      \
		       .contract = { RC_RETURNS(1) } },  \
		.check = fn                              \
	}

/* recorded: 1 when the call returned a pointer, 0 for NULL */
#define PRINTABLE_ROW(i, d, cls, v)                                  \
	{                                                            \
		.c = { .id = "umad/" i,                              \
		       .doc = d,                                     \
		       .basis = RC_BASIS_DOCUMENTED,                 \
		       .contract = { RC_RETURNS(1) } },              \
		.check = is_printable, .mgmt_class = cls, .value = v \
	}
#define NAMED_ROW(i, d, cls, v, n)                                       \
	{                                                                \
		.c = { .id = "umad/" i,                                  \
		       .doc = d,                                         \
		       .basis = RC_BASIS_INTERPRETATION,                 \
		       .note = "the IBA mnemonic " n,                    \
		       .contract = { RC_RETURNS(1) } },                  \
		.check = is_iba_mnemonic, .mgmt_class = cls, .value = v, \
		.name = n                                                \
	}
#define DISTINCT_ROW(i, d, cls, v, o, why)                                  \
	{                                                                   \
		.c = { .id = "umad/" i,                                     \
		       .doc = d,                                            \
		       .basis = RC_BASIS_INTERPRETATION,                    \
		       .note = why,                                         \
		       .contract = { RC_RETURNS(1) } },                     \
		.check = tells_values_apart, .mgmt_class = cls, .value = v, \
		.other = o                                                  \
	}

static const struct str_row class_rows[] = {
	PRINTABLE_ROW("class_str/known", DOC_RET, 0x03, 0),
	PRINTABLE_ROW("class_str/unknown", DOC_RET, 0x7f, 0),
	DISTINCT_ROW("class_str/lid-routed-and-directed-route-differ",
		     DOC_CLASS, 0, 0x01, 0x81,
		     "0x01 and 0x81 are two classes "
		     "(LID-routed and directed-route subnet management)"),
	DISTINCT_ROW("class_str/sa-and-performance-differ", DOC_CLASS, 0, 0x03,
		     0x04,
		     "subnet administration and performance "
		     "management"),
	DOMAIN_ROW("class_str/every-class", DOC_CLASS, classes_by_kind,
		   "all 256 values, each printable; two of different kinds "
		   "(each class IBA 13.4.4 names, vendor specific 0x09-0x0f and "
		   "0x30-0x4f, application specific 0x20 and 0x22-0x2f, "
		   "reserved 0x00, 0x02, 0x50-0x80, 0x82-0xff) never under one "
		   "string; 0x13-0x1f, which editions of the IBA read "
		   "differently, and 0x01 against 0x81 (the row "
		   "lid-routed-and-directed-route-differ) are not compared"),
};

static const struct str_row method_rows[] = {
	PRINTABLE_ROW("method_str/known", DOC_RET, 0x01, 0x01),
	PRINTABLE_ROW("method_str/unknown", DOC_RET, 0x01, 0x7e),
	NAMED_ROW("method_str/get", DOC_METHOD, 0x01, 0x01, "Get"),
	NAMED_ROW("method_str/get-resp", DOC_METHOD, 0x04, 0x81, "GetResp"),
	NAMED_ROW("method_str/trap-repress", DOC_METHOD, 0x01, 0x07,
		  "TrapRepress"),
	NAMED_ROW("method_str/sa-get-table", DOC_METHOD, 0x03, 0x12,
		  "GetTable"),
	NAMED_ROW("method_str/sa-get-table-resp", DOC_METHOD, 0x03, 0x92,
		  "GetTableResp"),
	DOMAIN_ROW(
		"method_str/every-method", DOC_METHOD, methods_by_name,
		"every method of every class: the common methods of IBA "
		"13.4.5 by their mnemonics in every class, the SA's of 15.2.2 "
		"in class 0x03; in the classes whose methods the IBA lists "
		"whole (0x01, 0x81, 0x03, 0x04) every other value under a "
		"string that is no method's mnemonic"),
};

static const struct str_row attr_rows[] = {
	PRINTABLE_ROW("attribute_str/known", DOC_RET, 0x01, 0x0011),
	PRINTABLE_ROW("attribute_str/unknown", DOC_RET, 0x01, 0xff00),
	NAMED_ROW("attribute_str/smi-node-info", DOC_ATTR, 0x01, 0x0011,
		  "NodeInfo"),
	NAMED_ROW("attribute_str/smi-port-info", DOC_ATTR, 0x81, 0x0015,
		  "PortInfo"),
	NAMED_ROW("attribute_str/sa-node-record", DOC_ATTR, 0x03, 0x0011,
		  "NodeRecord"),
	NAMED_ROW("attribute_str/sa-path-record", DOC_ATTR, 0x03, 0x0035,
		  "PathRecord"),
	NAMED_ROW("attribute_str/common-class-port-info", DOC_ATTR, 0x03,
		  0x0001, "ClassPortInfo"),
	DOMAIN_ROW("attribute_str/every-attribute", DOC_ATTR,
		   attributes_by_name,
		   "all 65536 ids of classes 0x00, 0x01, 0x81, 0x03, 0x04 and "
		   "0x05, the low 512 of every class: the common attributes "
		   "(13.4.8) in every class, SMI's (14.2.5) in 0x01 and 0x81 "
		   "and SA's (15.2.5) in 0x03 by their mnemonics, performance "
		   "management's (16.1.3) in 0x04 too if the library names any "
		   "of them (\"Not all classes are supported\"); an id with no "
		   "such name under a string that is none of these names"),
};

static const struct str_row common_rows[] = {
	PRINTABLE_ROW("common_mad_status_str/success", DOC_RET, 0, 0),
	PRINTABLE_ROW("common_mad_status_str/reserved", DOC_RET, 0, 0x0014),
	DISTINCT_ROW("common_mad_status_str/codes-differ", DOC_COMMON, 0,
		     0x0008, 0x000c,
		     "method not supported (code 2) and "
		     "method/attribute combination not supported (code 3)"),
	DOMAIN_ROW("common_mad_status_str/every-status-own-bits", DOC_COMMON,
		   common_reads_own_bits,
		   "the common status is bits 0-4 (IBA 13.4.7; 5-7 reserved, "
		   "8-15 the class's): each of the 65536 values under the "
		   "string of its bits 0-4"),
	DOMAIN_ROW("common_mad_status_str/every-code-differs", DOC_COMMON,
		   common_codes_differ,
		   "success, busy, redirect and the invalid-field codes 1, 2, "
		   "3 and 7 under seven different strings, and the reserved "
		   "codes 4-6 under none of them: a reserved code is not "
		   "success"),
};

static const struct str_row sa_rows[] = {
	PRINTABLE_ROW("sa_mad_status_str/no-records", DOC_RET, 0, 0x0300),
	PRINTABLE_ROW("sa_mad_status_str/reserved", DOC_RET, 0, 0x7f00),
	DISTINCT_ROW("sa_mad_status_str/codes-differ", DOC_SA, 0, 0x0300,
		     0x0400, "ERR_NO_RECORDS (3) and ERR_TOO_MANY_RECORDS (4)"),
	DOMAIN_ROW("sa_mad_status_str/every-status-own-bits", DOC_SA,
		   sa_reads_own_bits,
		   "the SA's status is the class's byte, bits 8-15 (IBA "
		   "15.2.1.1): each of the 65536 values under the string of "
		   "its bits 8-15"),
	DOMAIN_ROW("sa_mad_status_str/every-code-differs", DOC_SA,
		   sa_codes_differ,
		   "the codes 0-7 (no error, ERR_NO_RESOURCES ... "
		   "ERR_REQ_DENIED) under eight different strings, and the "
		   "reserved codes 9-127 under none of them (8, which later "
		   "editions name, is not compared)"),
};

/* @a and @b the same, case and spaces aside */
static bool same_name(const char *a, const char *b)
{
	for (;; a++, b++) {
		while (*a == ' ')
			a++;
		while (*b == ' ')
			b++;
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
		if (!*a)
			return true;
	}
}

static bool printable(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (!isprint((unsigned char)*s))
			return false;
	return true;
}

/* What every row checks first. */
static bool expect_printable(struct rc_ctx *ctx, const char *s)
{
	if (printable(s))
		return true;
	rc_obs_violation(ctx->obs, "string %s", s ? "not printable" : "NULL");
	return false;
}

static void is_printable(const struct str_row *row, struct rc_ctx *ctx,
			 str_call *call, const char *s)
{
	expect_printable(ctx, s);
}

static void is_iba_mnemonic(const struct str_row *row, struct rc_ctx *ctx,
			    str_call *call, const char *s)
{
	if (expect_printable(ctx, s) && !same_name(s, row->name))
		rc_obs_violation(ctx->obs,
				 "string \"%.40s\", the IBA's is "
				 "\"%s\"",
				 s, row->name);
}

static void tells_values_apart(const struct str_row *row, struct rc_ctx *ctx,
			       str_call *call, const char *s)
{
	const char *t = call(ctx->ops, row, row->other);

	if (expect_printable(ctx, s) && printable(t) && !strcmp(s, t))
		rc_obs_violation(ctx->obs,
				 "string \"%.40s\" for both 0x%x and "
				 "0x%x",
				 s, row->value, row->other);
}

/*
 * The IBA's names the domain rows hold the calls to (the sections of the
 * header comment); the reference's tables are its own.
 */
struct iba_name {
	uint16_t v;
	const char *name;
};

static const struct iba_name iba_methods[] = {
	{ 0x01, "Get" },	{ 0x02, "Set" },	 { 0x81, "GetResp" },
	{ 0x03, "Send" },	{ 0x05, "Trap" },	 { 0x06, "Report" },
	{ 0x86, "ReportResp" }, { 0x07, "TrapRepress" },
};
static const struct iba_name iba_sa_methods[] = {
	{ 0x12, "GetTable" },	   { 0x92, "GetTableResp" },
	{ 0x13, "GetTraceTable" }, { 0x14, "GetMulti" },
	{ 0x94, "GetMultiResp" },  { 0x15, "Delete" },
	{ 0x95, "DeleteResp" },
};
static const struct iba_name iba_common_attrs[] = {
	{ 0x0001, "ClassPortInfo" },
	{ 0x0002, "Notice" },
	{ 0x0003, "InformInfo" },
};
static const struct iba_name iba_smi_attrs[] = {
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
static const struct iba_name iba_sa_attrs[] = {
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
static const struct iba_name iba_perf_attrs[] = {
	{ 0x0010, "PortSamplesControl" },
	{ 0x0011, "PortSamplesResult" },
	{ 0x0012, "PortCounters" },
};

#define IBA_NAME(t, v) iba_name(t, ARRAY_SIZE(t), v)

static const char *iba_name(const struct iba_name *t, size_t n, unsigned v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].v == v)
			return t[i].name;
	return NULL;
}

/* Is @s one of the @n names of @t, case and spaces aside? */
static bool in_names(const struct iba_name *t, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (same_name(s, t[i].name))
			return true;
	return false;
}

/*
 * The kind of class @c: a class IBA 13.4.4 names is its own kind (the two
 * subnet management classes one), then vendor specific, application
 * specific and reserved; -1 for 0x13-0x1f, which the rows leave alone.
 */
static int class_kind(unsigned int c)
{
	static const uint8_t named[] = { 0x01, 0x81, 0x03, 0x04, 0x05, 0x06,
					 0x07, 0x08, 0x10, 0x11, 0x12, 0x21 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(named); i++)
		if (c == named[i])
			return c == 0x81 ? 0x01 : c;
	if ((c >= 0x09 && c <= 0x0f) || (c >= 0x30 && c <= 0x4f))
		return 0x100;
	if (c >= 0x20 && c <= 0x2f)
		return 0x101;
	if (c >= 0x13 && c <= 0x1f)
		return -1;
	return 0x102;
}

static void classes_by_kind(const struct str_row *row, struct rc_ctx *ctx,
			    str_call *call, const char *s)
{
	const char *str[256];
	unsigned int a, b;

	for (a = 0; a < 256; a++) {
		str[a] = ctx->ops->umad_class_str(a);
		if (!printable(str[a])) {
			rc_obs_violation(ctx->obs, "string of class 0x%02x %s",
					 a, str[a] ? "not printable" : "NULL");
			return;
		}
	}
	for (a = 0; a < 256; a++)
		for (b = a + 1; b < 256; b++)
			if (class_kind(a) >= 0 && class_kind(b) >= 0 &&
			    class_kind(a) != class_kind(b) &&
			    !strcmp(str[a], str[b])) {
				rc_obs_violation(ctx->obs,
						 "string \"%.40s\" "
						 "for classes 0x%02x and "
						 "0x%02x of different kinds",
						 str[a], a, b);
				return;
			}
}

/*
 * The IBA's name for @v in class @cls (NULL: none), and whether the
 * class's names are all known (every other value must then be none).
 */
static const char *method_name(unsigned int cls, unsigned int v, bool *whole)
{
	const char *n = IBA_NAME(iba_methods, v);

	*whole = cls == 0x01 || cls == 0x81 || cls == 0x03 || cls == 0x04;
	if (!n && cls == 0x03)
		n = IBA_NAME(iba_sa_methods, v);
	return n;
}

static void methods_by_name(const struct str_row *row, struct rc_ctx *ctx,
			    str_call *call, const char *s)
{
	unsigned int c, m;
	const char *want;
	bool whole;

	for (c = 0; c < 256; c++)
		for (m = 0; m < 256; m++) {
			s = ctx->ops->umad_method_str(c, m);
			want = method_name(c, m, &whole);
			if (!printable(s)) {
				rc_obs_violation(ctx->obs,
						 "string of class "
						 "0x%02x method 0x%02x %s",
						 c, m,
						 s ? "not printable" : "NULL");
				return;
			}
			if (want && !same_name(s, want)) {
				rc_obs_violation(ctx->obs,
						 "string \"%.40s\" "
						 "for class 0x%02x method "
						 "0x%02x, the IBA's is \"%s\"",
						 s, c, m, want);
				return;
			}
			if (!want && whole &&
			    (in_names(iba_methods, ARRAY_SIZE(iba_methods),
				      s) ||
			     in_names(iba_sa_methods,
				      ARRAY_SIZE(iba_sa_methods), s))) {
				rc_obs_violation(ctx->obs,
						 "string \"%.40s\" "
						 "for class 0x%02x method "
						 "0x%02x, which the IBA does "
						 "not name so",
						 s, c, m);
				return;
			}
		}
}

/* Is @s the name of any attribute the rows hold? */
static bool any_attr_name(const char *s)
{
	return in_names(iba_common_attrs, ARRAY_SIZE(iba_common_attrs), s) ||
	       in_names(iba_smi_attrs, ARRAY_SIZE(iba_smi_attrs), s) ||
	       in_names(iba_sa_attrs, ARRAY_SIZE(iba_sa_attrs), s) ||
	       in_names(iba_perf_attrs, ARRAY_SIZE(iba_perf_attrs), s);
}

static const char *attr_str(const struct rc_ops *ops, unsigned int c,
			    unsigned int id)
{
	return ops->umad_attribute_str(c, htobe16(id));
}

/* Does the library name performance management's attributes at all? */
static bool perf_supported(const struct rc_ops *ops)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(iba_perf_attrs); i++) {
		const char *s = attr_str(ops, 0x04, iba_perf_attrs[i].v);

		if (s && same_name(s, iba_perf_attrs[i].name))
			return true;
	}
	return false;
}

static const char *attr_name(unsigned int c, unsigned int id, bool perf)
{
	const char *n = IBA_NAME(iba_common_attrs, id);

	if (n)
		return n;
	if (c == 0x01 || c == 0x81)
		return IBA_NAME(iba_smi_attrs, id);
	if (c == 0x03)
		return IBA_NAME(iba_sa_attrs, id);
	if (c == 0x04 && perf)
		return IBA_NAME(iba_perf_attrs, id);
	return NULL;
}

/* One attribute: false (and the violation recorded) when it breaks. */
static bool attr_ok(struct rc_ctx *ctx, unsigned int c, unsigned int id,
		    bool perf, const char **seen)
{
	const char *s = attr_str(ctx->ops, c, id);
	const char *want = attr_name(c, id, perf);

	if (!printable(s)) {
		rc_obs_violation(ctx->obs,
				 "string of class 0x%02x attribute "
				 "0x%04x %s",
				 c, id, s ? "not printable" : "NULL");
		return false;
	}
	if (want && !same_name(s, want)) {
		rc_obs_violation(ctx->obs,
				 "string \"%.40s\" for class 0x%02x "
				 "attribute 0x%04x, the IBA's is \"%s\"",
				 s, c, id, want);
		return false;
	}
	/* most ids share one "unknown" string: judge each pointer once */
	if (!want && s != *seen) {
		if (any_attr_name(s)) {
			rc_obs_violation(ctx->obs,
					 "string \"%.40s\" for class "
					 "0x%02x attribute 0x%04x, which the "
					 "IBA does not name so",
					 s, c, id);
			return false;
		}
		*seen = s;
	}
	return true;
}

static void attributes_by_name(const struct str_row *row, struct rc_ctx *ctx,
			       str_call *call, const char *s)
{
	static const uint8_t whole[] = { 0x00, 0x01, 0x81, 0x03, 0x04, 0x05 };
	bool perf = perf_supported(ctx->ops);
	const char *seen = NULL;
	unsigned int c, id;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(whole); i++)
		for (id = 0; id < 0x10000; id++)
			if (!attr_ok(ctx, whole[i], id, perf, &seen))
				return;
	for (c = 0; c < 256; c++)
		for (id = 0; id < 0x200; id++)
			if (!attr_ok(ctx, c, id, perf, &seen))
				return;
}

/* Every @v of 0..65535 under the string of @v & @mask. */
static void reads_own_bits(struct rc_ctx *ctx, str_call *call,
			   const struct str_row *row, unsigned int mask)
{
	unsigned int v;

	for (v = 0; v < 0x10000; v++) {
		const char *s = call(ctx->ops, row, v);
		const char *t = call(ctx->ops, row, v & mask);

		if (!printable(s) || !printable(t)) {
			rc_obs_violation(ctx->obs, "string of 0x%04x %s", v,
					 "NULL or not printable");
			return;
		}
		if (strcmp(s, t)) {
			rc_obs_violation(ctx->obs,
					 "string \"%.40s\" for "
					 "0x%04x, \"%.40s\" for 0x%04x",
					 s, v, t, v & mask);
			return;
		}
	}
}

/*
 * The @nk values of @known under @nk different strings, and none of the
 * @nr values of @reserved under one of them.
 */
static void codes_differ(struct rc_ctx *ctx, str_call *call,
			 const struct str_row *row, const uint16_t *known,
			 size_t nk, const uint16_t *reserved, size_t nr)
{
	size_t i, j;

	for (i = 0; i < nk; i++) {
		const char *s = call(ctx->ops, row, known[i]);

		for (j = 0; j < nk + nr; j++) {
			uint16_t w = j < nk ? known[j] : reserved[j - nk];
			const char *t = call(ctx->ops, row, w);

			if (j == i || !s || !t || strcmp(s, t))
				continue;
			rc_obs_violation(ctx->obs,
					 "string \"%.40s\" for "
					 "0x%04x and 0x%04x",
					 s, known[i], w);
			return;
		}
	}
}

static void common_reads_own_bits(const struct str_row *row, struct rc_ctx *ctx,
				  str_call *call, const char *s)
{
	reads_own_bits(ctx, call, row, 0x001f);
}

static void common_codes_differ(const struct str_row *row, struct rc_ctx *ctx,
				str_call *call, const char *s)
{
	static const uint16_t known[] = { 0x0000, 0x0001, 0x0002, 1 << 2,
					  2 << 2, 3 << 2, 7 << 2 };
	static const uint16_t reserved[] = { 4 << 2, 5 << 2, 6 << 2 };

	codes_differ(ctx, call, row, known, ARRAY_SIZE(known), reserved,
		     ARRAY_SIZE(reserved));
}

static void sa_reads_own_bits(const struct str_row *row, struct rc_ctx *ctx,
			      str_call *call, const char *s)
{
	reads_own_bits(ctx, call, row, 0xff00);
}

static void sa_codes_differ(const struct str_row *row, struct rc_ctx *ctx,
			    str_call *call, const char *s)
{
	uint16_t known[8], reserved[0x7f - 8];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(known); i++)
		known[i] = i << 8;
	for (i = 0; i < ARRAY_SIZE(reserved); i++)
		reserved[i] = (i + 9) << 8;
	codes_differ(ctx, call, row, known, ARRAY_SIZE(known), reserved,
		     ARRAY_SIZE(reserved));
}

static void run_call(const struct str_row *row, struct rc_ctx *ctx,
		     str_call *call)
{
	const char *s;

	RC_OBSERVE(ctx, (s = call(ctx->ops, row, row->value)) != NULL);
	row->check(row, ctx, call, s);
}

/*
 * The group of the call @fn: its rows, and @expr, the call on v (and
 * row->mgmt_class) through ops.
 */
#define STR_GROUP(var, fn, table, expr)                                      \
	static const char *var##_call(const struct rc_ops *ops,              \
				      const struct str_row *row, uint16_t v) \
	{                                                                    \
		return expr;                                                 \
	}                                                                    \
	static void var##_run(const void *r, struct rc_ctx *ctx)             \
	{                                                                    \
		if (rc_need_call(ctx, ctx->ops->fn, #fn))                    \
			run_call(r, ctx, var##_call);                        \
	}                                                                    \
	RC_TABLE_GROUP(var, #fn, RC_CONV_VALUE, "umad", table, var##_run)

STR_GROUP(class_group, umad_class_str, class_rows, ops->umad_class_str(v));
STR_GROUP(method_group, umad_method_str, method_rows,
	  ops->umad_method_str(row->mgmt_class, v));
STR_GROUP(attr_group, umad_attribute_str, attr_rows,
	  ops->umad_attribute_str(row->mgmt_class, htobe16(v)));
STR_GROUP(common_group, umad_common_mad_status_str, common_rows,
	  ops->umad_common_mad_status_str(htobe16(v)));
STR_GROUP(sa_group, umad_sa_mad_status_str, sa_rows,
	  ops->umad_sa_mad_status_str(htobe16(v)));
