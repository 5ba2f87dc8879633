/*
 * a2l_driver.c: `d9top --addr2line` without the app: the arguments after
 * the program name go to d9a_addr2line_run() as they would after
 * "--addr2line". Tests and the benchmark run this binary.
 */
#include "app/addr2line.h"

int
main(int argc, char **argv)
{
	return d9a_addr2line_run(argc - 1, argv + 1);
}
