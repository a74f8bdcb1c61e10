/* Every exception and interrupt a port's vector table does not name: a fault should not leave the
 * actuators driven, so the board resets (the port's system_reset; the host then sees a new epoch). */
void system_reset(void);
void Default_Handler(void);

void Default_Handler(void)
{
    system_reset();
}
