/* stackinfo.c: see stackinfo.h. Name lists follow ANALYSIS 8.3. */
#include <stdio.h>
#include <string.h>

#include "output/stackinfo.h"
#include "output/textfmt.h"
#include "base/text.h"

#define MAX_FRAMES 128

static int
starts(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strncmp(s, *list, strlen(*list)) == 0)
			return 1;
	return 0;
}

static const char *const libc_names[] = { "__GI_", "__libc_", "__pthread_",
	"__clone", "start_thread", "__poll", "__epoll", "__futex", "malloc",
	"free", "mmap", "munmap", "brk", "sbrk", "syscall", "read", "write",
	"recv", "send", "nanosleep", "clock_nanosleep", "epoll_wait",
	"pthread_", NULL };
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

enum d9o_frame_kind
d9o_frame_kind(const struct d9m_frame *f)
{
	const char *s = f->name;

	if (f->kernel)
		return D9O_FK_KERNEL;
	if (s == NULL || *s == '\0' || strncmp(s, "0x", 2) == 0)
		return D9O_FK_UNKNOWN;
	if (f->file != NULL && strcmp(f->file, "kernel") == 0)
		return D9O_FK_KERNEL;
	if (strstr(s, "::") == NULL) {
		if (starts(s, libc_names))
			return D9O_FK_LIBC;
		if (starts(s, alloc_names))
			return D9O_FK_ALLOCATOR;
		if (starts(s, kernel_names))
			return D9O_FK_KERNEL;
	}
	if (starts(s + (*s == '<'), runtime_names))
		return D9O_FK_RUNTIME;
	return D9O_FK_APP;
}

static int
is_plumbing(const char *s)
{
	return strcmp(s, "schedule") == 0 || starts(s, plumbing);
}

void
d9o_stack_line(const struct d9o_out *o, const char *label,
    const struct d9m_stack_group *g, int indent)
{
	struct d9m_frame f[MAX_FRAMES];
	size_t n = d9m_stack_frames(o->m, o->r, g->seg, g->stack, f,
	    MAX_FRAMES);
	const char *blocker = NULL, *sys = NULL, *app = NULL;
	char b1[256], b2[256], b3[256];

	for (size_t i = 0; i < n && app == NULL; i++) {
		enum d9o_frame_kind k = d9o_frame_kind(&f[i]);
		const char *name = d9m_frame_name(&f[i]);

		if (k == D9O_FK_KERNEL && blocker == NULL && !is_plumbing(name))
			blocker = name;
		else if (k == D9O_FK_LIBC && sys == NULL)
			sys = name;
		else if (k == D9O_FK_APP)
			app = name;
	}
	/* one line: count, label, where it blocked; a second: the caller */
	{
		char line[160];
		int len = snprintf(line, sizeof line, "%*s%5zux %-7s", indent,
		    "", g->count, label);

		if (blocker != NULL || sys != NULL)
			snprintf(line + len, sizeof line - (size_t)len, "%s%s%s%s",
			    blocker ? " in " : "", blocker ? d9o_fit(b1,
			    sizeof b1, blocker, 30) : "", sys ? " via " : "",
			    sys ? d9o_fit(b2, sizeof b2, sys, 24) : "");
		else if (n > 0)
			snprintf(line + len, sizeof line - (size_t)len, " at %s",
			    d9o_fit(b1, sizeof b1, d9m_frame_name(&f[0]),
			    (size_t)(76 - len)));
		fprintf(o->f, "%s", line);
	}
	if (app)
		fprintf(o->f, "\n%*sfrom %s", indent + 8, "",
		    d9o_fit(b3, sizeof b3, app, (size_t)(80 - indent - 13)));
	fprintf(o->f, "\n");
}
