/*
 * framekind.c: see framekind.h. Name lists follow ANALYSIS 8.3, with
 * kernel frames told by address first (15 #11) and the aarch64 kernel
 * entry names added.
 */
#include <string.h>

#include "model/figures/framekind.h"

int
d9m_name_starts(const char *s, const char *const *list)
{
	/* the first byte first: most names meet no entry's */
	for (; *list; list++)
		if ((*list)[0] == s[0] && strncmp(s, *list, strlen(*list)) == 0)
			return 1;
	return 0;
}

static const char *const libc_names[] = { "__GI_", "__libc_", "__pthread_",
	"__clone", "start_thread", "__poll", "__epoll", "__futex", "malloc",
	"free", "mmap", "munmap", "brk", "sbrk", "syscall", "read", "write",
	"recv", "send", "nanosleep", "clock_nanosleep", "epoll_wait",
	"pthread_", "wait4", "waitpid", "waitid", NULL };
static const char *const alloc_names[] = { "je_", "arena_", "tcache_",
	"extent_", "large_", "slab_", "jemalloc", "mi_", "_mi_", "mimalloc",
	"_int_malloc", "_int_free", NULL };
static const char *const kernel_names[] = { "__", "do_", "sys_", "entry_",
	"exit_to", "irq_", "page_", "rcu_", "synchronize_", "schedule",
	"expand_fd", "expand_files", "alloc_fd", "ep_poll", "ep_send",
	"futex_", "sock_", "inet_", "tcp_", "vfs_", "filp_", "fd_install",
	"ksys_", "fput", "fget", "el0", "invoke_syscall", NULL };
static const char *const runtime_names[] = { "tokio::runtime::scheduler",
	"core::", "alloc::", "std::", "<core::", "<alloc::", "<std::",
	"tokio::runtime::task", "tokio::runtime::blocking",
	"tokio::runtime::context", "tokio::runtime::coop", "std::panicking::",
	"std::sys::", "std::thread::", "core::ops::function::",
	"core::panicking::", NULL };
static const char *const plumbing[] = { "__schedule", "schedule_timeout",
	"do_syscall_64", "entry_SYSCALL", "__x64_sys_", "__sys_",
	"__wait_for_common", "__wait_rcu_gp", "__arm64_sys_", "invoke_syscall",
	"el0", "do_el0_svc", NULL };

enum d9m_frame_kind
d9m_frame_kind(const struct d9m_frame *f)
{
	const char *s = f->name;

	if (f->kernel)
		return D9M_FK_KERNEL;
	if (s == NULL || *s == '\0' || strncmp(s, "0x", 2) == 0)
		return D9M_FK_UNKNOWN;
	if (f->file != NULL && strcmp(f->file, "kernel") == 0)
		return D9M_FK_KERNEL;
	if (strstr(s, "::") == NULL) {
		if (d9m_name_starts(s, libc_names))
			return D9M_FK_LIBC;
		if (d9m_name_starts(s, alloc_names))
			return D9M_FK_ALLOCATOR;
		if (d9m_name_starts(s, kernel_names))
			return D9M_FK_KERNEL;
	}
	if (d9m_name_starts(s + (*s == '<'), runtime_names))
		return D9M_FK_RUNTIME;
	return D9M_FK_APP;
}

int
d9m_is_plumbing(const char *s)
{
	return strcmp(s, "schedule") == 0 || d9m_name_starts(s, plumbing);
}
