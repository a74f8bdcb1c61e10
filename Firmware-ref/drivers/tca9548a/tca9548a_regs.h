/* TI TCA9548A eight-port I2C switch: its address and its one register, as TI's datasheet names
 * them (SCPS207H, September 2024). Each is defined here once; the driver and its test model use them. */
#ifndef TCA9548A_REGS_H
#define TCA9548A_REGS_H

/* §7.5.2 "Device Address", table 7-1: 1110 A2 A1 A0, so 0x70 with A2..A0 low up to 0x77 with all high. */
#define TCA9548A_ADDRESS_MIN 0x70u
#define TCA9548A_ADDRESS_MAX 0x77u

/* §7.5.4 "Control Register": the device has no register address; the byte after its address is the
 * control register itself (§7.5.3.1 "Writes": of several bytes the last is kept; §7.5.3.2 "Reads":
 * a read returns it). Bit n = 1 connects downstream port n (SCn/SDn); several may be on at once. A
 * new selection takes effect at the STOP that ends the write. Power-on and RESET leave it 0x00, no
 * port connected (§7.5.6 "Power-On Reset", §7.5.5 "RESET Input"). */
#define TCA9548A_PORTS           8u
#define TCA9548A_CONTROL_NONE    0x00u
#define TCA9548A_CONTROL_PORT(n) (1u << (n))

#endif
