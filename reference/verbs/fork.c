// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_fork_init(3), ibv_is_fork_initialized(3), and what they make MR
 * registration do.
 *
 * A kernel that copies DMA-pinned pages on fork (Linux 5.13 and later,
 * RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK) needs nothing: "IBV_FORK_UNNEEDED
 * will be returned regardless of whether ibv_fork_init() was called or
 * not", and ibv_fork_init keeps no pages from the child; after a
 * registration it still fails with EINVAL, as its page says.  Elsewhere,
 * fork protection keeps the pages of every registered MR from the child
 * (madvise MADV_DONTFORK), page-aligned, and gives them back (MADV_DOFORK)
 * once no registered range covers them.  "Setting the environment
 * variable RDMAV_FORK_SAFE or IBV_FORK_SAFE has the same effect as
 * calling ibv_fork_init()": they are read before the first registration.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>

#include "ref_verbs.h"
#include "objects.h"
#include "nldev.h"

struct range {
	struct range *next;
	uintptr_t start, end; /* page-aligned */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static bool initialized, protecting, registered;
static struct range *ranges;
static int copy_on_fork = -1;

static bool kernel_copies(void)
{
	if (copy_on_fork < 0)
		copy_on_fork = ref_nldev_copy_on_fork();
	return copy_on_fork;
}

static int fork_init_locked(void)
{
	if (initialized)
		return 0;
	/* "An error value of EINVAL indicates that there had been RDMA memory
	 * registration already and it is therefore not safe anymore to
	 * fork.": whatever the kernel does, the page gives no exception */
	if (registered)
		return EINVAL;
	initialized = true;
	protecting = !kernel_copies();
	return 0;
}

static void env_init(void)
{
	if (getenv("RDMAV_FORK_SAFE") || getenv("IBV_FORK_SAFE")) {
		pthread_mutex_lock(&lock);
		fork_init_locked();
		pthread_mutex_unlock(&lock);
	}
}

/* "returns 0 on success, or the value of errno on failure" */
int ref_ibv_fork_init(void)
{
	int err;

	pthread_once(&env_once, env_init);
	pthread_mutex_lock(&lock);
	err = fork_init_locked();
	pthread_mutex_unlock(&lock);
	return err;
}

enum ibv_fork_status ref_ibv_is_fork_initialized(void)
{
	pthread_once(&env_once, env_init);
	if (kernel_copies())
		return IBV_FORK_UNNEEDED;
	return protecting ? IBV_FORK_ENABLED : IBV_FORK_DISABLED;
}

bool ref_fork_protecting(void)
{
	pthread_once(&env_once, env_init);
	return protecting;
}

void ref_fork_note_registration(void)
{
	pthread_mutex_lock(&lock);
	registered = true;
	pthread_mutex_unlock(&lock);
}

static void page_span(void *addr, size_t len, uintptr_t *start, uintptr_t *end)
{
	uintptr_t page = sysconf(_SC_PAGESIZE);

	*start = (uintptr_t)addr & ~(page - 1);
	*end = ((uintptr_t)addr + len + page - 1) & ~(page - 1);
}

int ref_dontfork_range(void *addr, size_t len)
{
	struct range *r = malloc(sizeof(*r));
	int err = 0;

	if (!r)
		return ENOMEM;
	page_span(addr, len, &r->start, &r->end);
	pthread_mutex_lock(&lock);
	if (madvise((void *)r->start, r->end - r->start, MADV_DONTFORK)) {
		err = errno;
		free(r);
	} else {
		r->next = ranges;
		ranges = r;
	}
	pthread_mutex_unlock(&lock);
	return err;
}

int ref_dofork_range(void *addr, size_t len)
{
	struct range **p, *gone = NULL, *r;
	uintptr_t start, end;
	int err = 0;

	page_span(addr, len, &start, &end);
	pthread_mutex_lock(&lock);
	for (p = &ranges; *p; p = &(*p)->next)
		if ((*p)->start == start && (*p)->end == end) {
			gone = *p;
			*p = gone->next;
			break;
		}
	/* give the span back, then keep from fork again whatever another
	 * registered range still covers */
	if (gone && madvise((void *)start, end - start, MADV_DOFORK))
		err = errno;
	for (r = gone ? ranges : NULL; r; r = r->next)
		if (r->start < end && r->end > start &&
		    madvise((void *)r->start, r->end - r->start, MADV_DONTFORK))
			err = errno;
	pthread_mutex_unlock(&lock);
	free(gone);
	return err;
}
