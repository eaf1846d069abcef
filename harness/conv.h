/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The return conventions (vocab.h), one checker each: did a call fail by
 * its convention, and which errno did it report?  A call's convention is
 * a property of the call (rc_group.conv), so the verdict and the
 * agreement of its rows read its results the same way.
 */
#ifndef RDMACONF_CONV_H
#define RDMACONF_CONV_H

#include <stdbool.h>

#include "vocab.h"

/* Did a call that returned @ret with errno @err fail by @conv?  The
 * errno it reported (0 when none) in @errp. */
bool rc_conv_failed(enum rc_conv conv, long long ret, int err, int *errp);
/*
 * Does @conv give two return values a meaning both implementations
 * share, when they failed (@fa, @fb)?  Not a pointer (addresses differ
 * between processes), and not the value of "a negative value on error"
 * (which one is not documented).
 */
bool rc_conv_ret_comparable(enum rc_conv conv, bool fa, bool fb);
/* Does @conv report an errno on failure (the errno is then judged)? */
bool rc_conv_has_errno(enum rc_conv conv);

#endif
