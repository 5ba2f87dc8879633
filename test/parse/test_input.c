#include "suites.h"
Suite *
suite_input(void)
{
	return suite_create("input");
}
