# The budget build's compiler options: what `make size` measures against the 16 KB / 4 KB budget
# (Makefile), and what the nRF51 port (ports/nrf51-microbit) builds its whole image with, so that the
# budget is the code that runs. ARMv6-M Thumb (Cortex-M0+; the nRF51's Cortex-M0 has the same
# instruction set), -Os, link-time optimisation; functions called once stay out of line, and short
# copy loops stay loops rather than becoming calls to the C library, which lets -Os share their code
# instead of growing every caller.
ARM_OPTIONS := -mcpu=cortex-m0plus -mthumb -Os -std=c99 -ffunction-sections -fdata-sections -fno-common
ARM_SIZE_FLAGS := -flto -fno-inline-functions-called-once -fno-tree-loop-distribute-patterns
