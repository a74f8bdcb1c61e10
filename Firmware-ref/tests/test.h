/* A minimal test harness: CHECK records a failure with file:line and goes on. */
#ifndef THR_TEST_H
#define THR_TEST_H

#include <stdio.h>

extern int test_failures;
extern int test_checks;
extern int tests_run;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        test_checks++;                                                               \
        if (!(cond)) {                                                               \
            test_failures++;                                                         \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)
#define CHECK_EQ(a, b)                                                                                       \
    do {                                                                                                     \
        long long va_ = (long long)(a), vb_ = (long long)(b);                                                \
        test_checks++;                                                                                       \
        if (va_ != vb_) {                                                                                    \
            test_failures++;                                                                                 \
            fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__, #a, #b, va_, vb_); \
        }                                                                                                    \
    } while (0)
#define CHECK_NEAR(a, b, tol)                                                                                          \
    do {                                                                                                               \
        long long va_ = (long long)(a), vb_ = (long long)(b);                                                          \
        test_checks++;                                                                                                 \
        if (va_ - vb_ > (long long)(tol) || vb_ - va_ > (long long)(tol)) {                                            \
            test_failures++;                                                                                           \
            fprintf(stderr, "%s:%d: %s ~ %s failed: %lld vs %lld (tolerance %lld)\n", __FILE__, __LINE__, #a, #b, va_, \
                    vb_, (long long)(tol));                                                                            \
        }                                                                                                              \
    } while (0)

typedef void (*test_fn)(void);
void run_test(const char *name, test_fn fn);

#endif
