/*
 * mkseg.c: mkseg PATH K writes segment K of a small recording as dial9
 * 0.5.1 writes one: a clock sync, the system's metadata
 * (cpu.profile.machine_hostname, kernel_release, cpu_model) without
 * service, host or boot (those are left to the S3 key layout of the
 * path), polls of two spawn locations, and the symbol appendix that
 * ends a segment. Segment K begins 10 s after segment K - 1, so the
 * segments of one process can be cat'ed into one stream (fleet.mjs).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../fixtures/mktrace.h"

#define S	1000000000ull
#define WALL0	(1795773600ull * S)	/* 2026-11-27 10:00 UTC */

int
main(int argc, char **argv)
{
	static const uint64_t stack[] = { 0x1000 };
	struct mt t;
	uint64_t t0;
	unsigned k;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: mkseg PATH K\n");
		return 2;
	}
	k = (unsigned)atoi(argv[2]);
	t0 = S + 10 * S * k;
	mt_begin(&t);
	mt_clock(&t, t0, WALL0 + t0);
	mt_meta(&t, "cpu.profile.machine_hostname", "ip-10-0-0-1");
	mt_meta(&t, "cpu.profile.kernel_release", "6.1.0-18-amd64");
	mt_meta(&t, "cpu.profile.cpu_model", "Intel(R) Xeon(R) 8375C");
	for (unsigned i = 0; i < 10; i++) {
		uint64_t ts = t0 + 1000 + i * 100000;

		mt_poll_start(&t, ts, i % 2, 100 * k + i + 1, i % 3 ?
		    "src/main.rs:10:5" : "src/db.rs:7:9");
		if (i == 4)
			mt_cpu_named(&t, ts + 10, i % 2, 77, "w", 1, stack);
		mt_poll_end(&t, ts + 1000 * (i + 1), i % 2);
	}
	mt_symbol(&t, 0x1000, "app::work", 0);
	if ((f = fopen(argv[1], "wb")) == NULL ||
	    fwrite(t.tg.p, 1, t.tg.n, f) != t.tg.n || fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	tg_free(&t.tg);
	return 0;
}
