// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "conv.h"

bool rc_conv_failed(enum rc_conv conv, long long ret, int err, int *errp)
{
	switch (conv) {
	case RC_CONV_NEG_ERRNO:
		*errp = ret < 0 ? (int)-ret : 0;
		return ret < 0;
	case RC_CONV_NEG:
		*errp = ret < 0 ? err : 0;
		return ret < 0;
	case RC_CONV_ERRNO_RET:
		*errp = (int)ret;
		return ret != 0;
	case RC_CONV_NULL_ERRNO:
		*errp = ret == 0 ? err : 0;
		return ret == 0;
	case RC_CONV_M1_ERRNO:
		*errp = ret == -1 ? err : 0;
		return ret == -1;
	default: /* VALUE, OFFSET: no failure to tell */
		*errp = 0;
		return false;
	}
}

bool rc_conv_ret_comparable(enum rc_conv conv, bool fa, bool fb)
{
	if (conv == RC_CONV_NULL_ERRNO && !fa && !fb)
		return false;
	if (conv == RC_CONV_NEG && fa && fb)
		return false;
	return true;
}

bool rc_conv_has_errno(enum rc_conv conv)
{
	return conv == RC_CONV_M1_ERRNO || conv == RC_CONV_NULL_ERRNO ||
	       conv == RC_CONV_NEG_ERRNO || conv == RC_CONV_ERRNO_RET;
}
