/*
 * demangle.h: function names for people. One entry point wraps libiberty
 * the way binutils' bfd_demangle() does, so `--addr2line` prints what
 * `addr2line -C` prints: leading '.'/'$' and an "@VERSION" tail are set
 * aside, the rest goes to cplus_demangle(DMGL_PARAMS | DMGL_ANSI |
 * DMGL_AUTO) (Rust legacy and v0 first, then the C++ ABI; hashes and crate
 * disambiguators hidden), and the pieces are put back.
 */
#ifndef D9_DEMANGLE_H
#define D9_DEMANGLE_H

/* A malloc'd demangled copy of sym, or NULL when sym is not mangled (show
 * it as is) or memory ran out. */
char	*d9_demangle(const char *sym);

#endif
