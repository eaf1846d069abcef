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
 * The strings themselves are not compared across implementations.
 */
#include <ctype.h>
#include <endian.h>
#include <string.h>

#include "umad_hdr.h"

#define DOC_RET "Returns a string representations of the fields specified."
#define DOC_CLASS "Return string value of management class enum"
#define DOC_METHOD "Return string value of the method for the mgmt_class " \
	"specified"
#define DOC_ATTR "Return string value of attribute specified in attr_id " \
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
	uint16_t value, other;	/* tells_values_apart: two values */
	const char *name;	/* is_iba_mnemonic: the IBA mnemonic */
};

static str_check is_printable, is_iba_mnemonic, tells_values_apart;

/* recorded: 1 when the call returned a pointer, 0 for NULL */
#define PRINTABLE_ROW(i, d, cls, v) \
	{ .c = { .id = "umad/" i, .doc = d, .basis = RC_BASIS_DOCUMENTED, \
		 .contract = { RC_RETURNS(1) } }, .check = is_printable, \
	  .mgmt_class = cls, .value = v }
#define NAMED_ROW(i, d, cls, v, n) \
	{ .c = { .id = "umad/" i, .doc = d, .basis = RC_BASIS_INTERPRETATION, \
		 .note = "the IBA mnemonic " n, .contract = { RC_RETURNS(1) } }, \
	  .check = is_iba_mnemonic, .mgmt_class = cls, .value = v, .name = n }
#define DISTINCT_ROW(i, d, cls, v, o, why) \
	{ .c = { .id = "umad/" i, .doc = d, .basis = RC_BASIS_INTERPRETATION, \
		 .note = why, .contract = { RC_RETURNS(1) } }, \
	  .check = tells_values_apart, .mgmt_class = cls, .value = v, \
	  .other = o }

static const struct str_row class_rows[] = {
	PRINTABLE_ROW("class_str/known", DOC_RET, 0x03, 0),
	PRINTABLE_ROW("class_str/unknown", DOC_RET, 0x7f, 0),
	DISTINCT_ROW("class_str/lid-routed-and-directed-route-differ",
		     DOC_CLASS, 0, 0x01, 0x81, "0x01 and 0x81 are two classes "
		     "(LID-routed and directed-route subnet management)"),
	DISTINCT_ROW("class_str/sa-and-performance-differ", DOC_CLASS,
		     0, 0x03, 0x04, "subnet administration and performance "
		     "management"),
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
	NAMED_ROW("method_str/sa-get-table-resp", DOC_METHOD, 0x03,
		  0x92, "GetTableResp"),
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
};

static const struct str_row common_rows[] = {
	PRINTABLE_ROW("common_mad_status_str/success", DOC_RET, 0, 0),
	PRINTABLE_ROW("common_mad_status_str/reserved", DOC_RET, 0, 0x0014),
	DISTINCT_ROW("common_mad_status_str/codes-differ", DOC_COMMON,
		     0, 0x0008, 0x000c, "method not supported (code 2) and "
		     "method/attribute combination not supported (code 3)"),
};

static const struct str_row sa_rows[] = {
	PRINTABLE_ROW("sa_mad_status_str/no-records", DOC_RET, 0, 0x0300),
	PRINTABLE_ROW("sa_mad_status_str/reserved", DOC_RET, 0, 0x7f00),
	DISTINCT_ROW("sa_mad_status_str/codes-differ", DOC_SA, 0, 0x0300,
		     0x0400, "ERR_NO_RECORDS (3) and ERR_TOO_MANY_RECORDS (4)"),
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
		rc_obs_violation(ctx->obs, "string \"%.40s\", the IBA's is "
				 "\"%s\"", s, row->name);
}

static void tells_values_apart(const struct str_row *row, struct rc_ctx *ctx,
			       str_call *call, const char *s)
{
	const char *t = call(ctx->ops, row, row->other);

	if (expect_printable(ctx, s) && printable(t) && !strcmp(s, t))
		rc_obs_violation(ctx->obs, "string \"%.40s\" for both 0x%x and "
				 "0x%x", s, row->value, row->other);
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
#define STR_GROUP(var, fn, table, expr) \
	static const char *var##_call(const struct rc_ops *ops, \
				      const struct str_row *row, uint16_t v) \
	{ \
		return expr; \
	} \
	static void var##_run(const void *r, struct rc_ctx *ctx) \
	{ \
		if (rc_need_call(ctx, ctx->ops->fn, #fn)) \
			run_call(r, ctx, var##_call); \
	} \
	static const struct rc_group var = { \
		.call = #fn, .conv = RC_CONV_VALUE, .lib = "umad", \
		.rows = table, \
		.row_size = sizeof(table[0]), .nrows = ARRAY_SIZE(table), \
		.run = var##_run, \
	}; \
	RC_GROUP(var)

STR_GROUP(class_group, umad_class_str, class_rows, ops->umad_class_str(v));
STR_GROUP(method_group, umad_method_str, method_rows,
	  ops->umad_method_str(row->mgmt_class, v));
STR_GROUP(attr_group, umad_attribute_str, attr_rows,
	  ops->umad_attribute_str(row->mgmt_class, htobe16(v)));
STR_GROUP(common_group, umad_common_mad_status_str, common_rows,
	  ops->umad_common_mad_status_str(htobe16(v)));
STR_GROUP(sa_group, umad_sa_mad_status_str, sa_rows,
	  ops->umad_sa_mad_status_str(htobe16(v)));
