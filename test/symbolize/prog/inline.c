/*
 * inline.c: test program for the symbolizer. Built at -O0 and -O2 with
 * DWARF 4 and 5; the static inline chains in inc/helpers.h and below give
 * inline frames at -O2, the recursion and the table keep functions alive.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inc/helpers.h"

struct node {
	struct node	*next;
	unsigned	 val;
};

static inline unsigned
weight(const struct node *n)
{
	unsigned w = 0;

	for (; n != NULL; n = n->next)
		w += mix3(n->val);
	return w;
}

static inline struct node *
push(struct node *head, unsigned v)
{
	struct node *n = malloc(sizeof *n);

	if (n == NULL)
		abort();
	n->next = head;
	n->val = mix2(v, 3);
	return n;
}

__attribute__((noinline)) static unsigned
build_and_weigh(int count)
{
	struct node *head = NULL, *next;
	unsigned w;

	for (int i = 0; i < count; i++)
		head = push(head, (unsigned)i);
	w = weight(head);
	for (; head != NULL; head = next) {
		next = head->next;
		free(head);
	}
	return w;
}

__attribute__((noinline)) unsigned
fib(unsigned n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static int
parse_arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end != '\0' || v < 0 || v > 30)
		return -1;
	return (int)v;
}

typedef unsigned (*op_fn)(unsigned);

static unsigned op_a(unsigned x) { return mix3(x) + 1; }
static unsigned op_b(unsigned x) { return fib(x & 15) ^ x; }
static unsigned op_c(unsigned x) { unsigned v[3] = { x, x + 1, x * 3 }; return mix1(v, 3); }

static const op_fn ops[] = { op_a, op_b, op_c };

int
main(int argc, char **argv)
{
	unsigned v[16], total = 0;
	int n = argc > 1 ? parse_arg(argv[1]) : 10;

	if (n < 0) {
		fprintf(stderr, "usage: inline [0..30]\n");
		return 2;
	}
	for (int i = 0; i < 16; i++)
		v[i] = (unsigned)(i * n);
	total += mix1(v, 16);
	total += build_and_weigh(n);
	for (unsigned i = 0; i < (unsigned)n; i++)
		total += ops[i % 3](i);
	if (strcmp(argv[0], "") == 0)
		total++;
	printf("%u\n", total);
	return 0;
}
