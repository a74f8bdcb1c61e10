# The ports' build switches and tools, included by each port's Makefile: QEMU=1 builds the QEMU image,
# BENCH=1 its tick benchmark (which is a QEMU image).
QEMU ?= 0
BENCH ?= 0
ifeq ($(BENCH),1)
QEMU := 1
endif
CC := arm-none-eabi-gcc
OBJCOPY := arm-none-eabi-objcopy
SIZE := arm-none-eabi-size
QEMU_SYSTEM ?= qemu-system-arm
