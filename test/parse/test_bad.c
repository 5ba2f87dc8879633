#include "suites.h"
Suite *
suite_bad(void)
{
	return suite_create("bad");
}
