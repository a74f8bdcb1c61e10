/* Runs every test group; exit status 1 when a check failed. */
#include "test.h"

void timeline_tests(void);
void render_tests(void);
void actuator_tests(void);
void flash_tests(void);
void link_tests(void);
void waveform_tests(void);
void drv2605l_tests(void);
void flash_f4_tests(void);
void channels_tests(void);
void tca9548a_tests(void);

int main(void)
{
    timeline_tests();
    render_tests();
    actuator_tests();
    flash_tests();
    link_tests();
    channels_tests();
    waveform_tests();
    drv2605l_tests();
    tca9548a_tests();
    flash_f4_tests();
    printf("%d tests, %d checks, %d failures\n", tests_run, test_checks, test_failures);
    return test_failures == 0 ? 0 : 1;
}
