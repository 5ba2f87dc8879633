/*
 * dwarf_seed.c: the program behind the seeds of fuzz/corpus-dwarf: small
 * static binaries (about 3 KB) with functions, inlined calls and a cold
 * function. Made in this folder with, for CC in gcc and clang and V in
 * 4 and 5:
 *
 *	CC -O2 -g -gdwarf-V -nostdlib -static -ffreestanding \
 *	    -fno-asynchronous-unwind-tables -fdebug-prefix-map=$PWD=/d9 \
 *	    -Wl,--build-id=none -Wl,-N -Wl,-z,norelro \
 *	    -o corpus-dwarf/CC-dwarfV.elf dwarf_seed.c
 *	objcopy --remove-section=.comment corpus-dwarf/CC-dwarfV.elf
 *
 * (gcc 12.2 and clang 14 of Debian 12); index.d9ix is the packed index
 * of gcc-dwarf5.elf as d9s_dwarf_build() returns it. Not part of the
 * build.
 */
static inline int
sq(int x)
{
	return x * x;
}

static inline int
twice(int x)
{
	return sq(x) + sq(x + 1);
}

__attribute__((noinline)) int
work(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++) {
		if (i & 1)
			s += twice(i);
		else
			s -= sq(i);
	}
	return s;
}

__attribute__((noinline, cold)) int
rare(int n)
{
	return n > 3 ? work(n - 1) : twice(n);
}

void	_start(void);

void
_start(void)
{
	volatile int r = work(10) + rare(5);

	(void)r;
	for (;;)
		;
}
