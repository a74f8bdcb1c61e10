/* The harness's counters and run_test (test.h), shared by the test programs. */
#include "test.h"

int test_failures = 0;
int test_checks = 0;
int tests_run = 0;

void run_test(const char *name, test_fn fn)
{
    int before = test_failures;
    tests_run++;
    fn();
    if (test_failures != before) fprintf(stderr, "FAIL %s\n", name);
}
