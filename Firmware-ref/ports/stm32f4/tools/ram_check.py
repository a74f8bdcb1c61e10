#!/usr/bin/env python3
"""Checks the Nucleo image for what must run while the flash is busy (flash.c, sections.ld).

Every read of the flash stalls while it erases a sector (RM0368 section 3.5), so the erase and program
waits, the interrupt handlers that run meanwhile and the core's receive-ring push must be in RAM, call
nothing outside it, and the vectors of SysTick and USART2 must point into RAM. Fails (exit 1) naming what
is not. Needs arm-none-eabi-nm and arm-none-eabi-objdump; standard library only.

    tools/ram_check.py build/thrum-nucleo-f401re.elf
"""
import re
import subprocess
import sys

RAM = (0x20000000, 0x20018000)  # 96 KB
FLASH = (0x08000000, 0x08080000)  # 512 KB
IN_RAM = ["SysTick_Handler", "USART2_IRQHandler", "thr_core_rx_byte", "erase_in_ram", "program_word_in_ram",
          "program_byte_in_ram"]
VECTORS = {"SysTick": 15, "USART2": 16 + 38}  # word index in the table (0 = initial stack)


def run(*command):
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def main(elf):
    problems = []
    symbols = {}
    for line in run("arm-none-eabi-nm", elf).splitlines():
        parts = line.split()
        if len(parts) == 3:
            symbols[parts[2]] = int(parts[0], 16)
    for name in IN_RAM:
        address = symbols.get(name)
        if address is None or not RAM[0] <= address < RAM[1]:
            problems.append(f"{name} is not in RAM ({'missing' if address is None else hex(address)})")
    listing = run("arm-none-eabi-objdump", "-d", "-j", ".ramfunc", elf)
    for line in listing.splitlines():
        call = re.match(r"\s*([0-9a-f]+):.*\s(b[a-z]*(?:\.[nw])?)\s+([0-9a-f]+)\s*<", line)
        if call and not RAM[0] <= int(call.group(3), 16) < RAM[1]:
            problems.append(f"a branch out of RAM: {line.strip()}")
        word = re.match(r"\s*([0-9a-f]+):\s+([0-9a-f]{8})\s+\.word\s+0x([0-9a-f]{8})", line)
        if word and FLASH[0] <= int(word.group(3), 16) < FLASH[1]:
            problems.append(f"a flash address in a literal pool: {line.strip()}")
    dump = run("arm-none-eabi-objdump", "-s", "-j", ".isr_vector", elf)
    words = []
    for line in dump.splitlines():
        fields = re.match(r"\s*[0-9a-f]+((?:\s[0-9a-f]{8}){1,4})", line)
        if fields:
            words += [int.from_bytes(bytes.fromhex(w), "little") for w in fields.group(1).split()]
    for name, index in VECTORS.items():
        if index >= len(words) or not RAM[0] <= words[index] < RAM[1]:
            problems.append(f"the {name} vector does not point into RAM")
    for problem in problems:
        print(f"ram_check: {problem}", file=sys.stderr)
    if not problems:
        print(f"ram_check: {', '.join(IN_RAM)} in RAM, calling nothing outside it; SysTick and USART2 vectors in RAM")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
