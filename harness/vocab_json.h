/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef RDMACONF_VOCAB_JSON_H
#define RDMACONF_VOCAB_JSON_H

/* rdmaconf __vocab: the vocabulary as JSON on stdout; an exit code */
int rc_cmd_vocab(void);

#endif
