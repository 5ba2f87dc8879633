#include "suites.h"
Suite *
suite_trace(void)
{
	return suite_create("trace");
}
