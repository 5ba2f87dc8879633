#include "suites.h"
Suite *
suite_reader(void)
{
	return suite_create("reader");
}
