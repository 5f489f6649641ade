//go:build amd64 && !purego

#include "textflag.h"

// func findAVX2(groups unsafe.Pointer, mask, shift, seed uint64, keys *int64, sel *int32, n int, hashes *uint64, res *uint32)
//
// Same contract as findPortable. Every address is formed in 64-bit
// registers: group address = groups + (g << 7) with SHLQ on a 64-bit g,
// never a 32-bit multiply (the bug class of Arrow's early_filter_imp_avx2_x8).
//
// Pass 1 hashes every key into hashes[]. Pass 2 prefetches both cache lines
// of the group 16 keys ahead and probes: the 8 keys of a group are compared
// with two VPCMPEQQ, masked by the full-slot bits of the control word.
TEXT ·findAVX2(SB), NOSPLIT, $0-72
	MOVQ keys+32(FP), DI
	MOVQ sel+40(FP), R10
	MOVQ n+48(FP), R11
	MOVQ hashes+56(FP), R12
	MOVQ seed+24(FP), R9
	MOVQ $0x9E3779B97F4A7C15, DX
	MOVQ $0xD6E8FEB86659FD93, R8
	XORQ BX, BX
	TESTQ R11, R11
	JLE  done
	TESTQ R10, R10
	JNE  hash_sel

hash_all:
	MOVQ (DI)(BX*8), AX
	XORQ R9, AX
	IMULQ DX, AX
	MOVQ AX, CX
	SHRQ $32, CX
	XORQ CX, AX
	IMULQ R8, AX
	MOVQ AX, (R12)(BX*8)
	INCQ BX
	CMPQ BX, R11
	JLT  hash_all
	JMP  probe_start

hash_sel:
	MOVLQSX (R10)(BX*4), AX
	MOVQ (DI)(AX*8), AX
	XORQ R9, AX
	IMULQ DX, AX
	MOVQ AX, CX
	SHRQ $32, CX
	XORQ CX, AX
	IMULQ R8, AX
	MOVQ AX, (R12)(BX*8)
	INCQ BX
	CMPQ BX, R11
	JLT  hash_sel

probe_start:
	MOVQ groups+0(FP), SI
	MOVQ mask+8(FP), R8
	MOVQ shift+16(FP), CX

	// Prefetch the groups of the first 16 keys (or all of them).
	XORQ BX, BX
prefetch_head:
	CMPQ BX, R11
	JGE  probe_init
	CMPQ BX, $16
	JGE  probe_init
	MOVQ (R12)(BX*8), AX
	SHRQ CX, AX
	SHLQ $7, AX
	PREFETCHT0 (SI)(AX*1)
	PREFETCHT0 64(SI)(AX*1)
	INCQ BX
	JMP  prefetch_head

probe_init:
	XORQ BX, BX

probe_key:
	// Prefetch the group of key i+16.
	LEAQ 16(BX), AX
	CMPQ AX, R11
	JGE  load_key
	MOVQ (R12)(AX*8), AX
	SHRQ CX, AX
	SHLQ $7, AX
	PREFETCHT0 (SI)(AX*1)
	PREFETCHT0 64(SI)(AX*1)

load_key:
	TESTQ R10, R10
	JEQ  key_dense
	MOVLQSX (R10)(BX*4), AX
	MOVQ (DI)(AX*8), DX
	JMP  key_loaded
key_dense:
	MOVQ (DI)(BX*8), DX
key_loaded:
	VMOVQ DX, X0
	VPBROADCASTQ X0, Y0

	// R9 = groups + (g << 7), all 64-bit.
	MOVQ (R12)(BX*8), R9
	SHRQ CX, R9
	SHLQ $7, R9
	ADDQ SI, R9

probe_group:
	VMOVQ 64(R9), X1
	VPMOVMSKB X1, DX         // bit i set: slot i full
	VPCMPEQQ (R9), Y0, Y2
	VPCMPEQQ 32(R9), Y0, Y3
	VMOVMSKPD Y2, AX
	VMOVMSKPD Y3, R13
	SHLQ $4, R13
	ORQ  R13, AX
	ANDQ DX, AX
	CMPQ DX, $0xFF
	JEQ  group_full
	// The group has an empty slot, so the walk ends here. Without a branch
	// on hit/miss: bit 8 makes BSF return 8 when nothing matched; vals[8]
	// is the padding word at offset 104 (inside the group), replaced by
	// notFound through CMOV.
	ORQ  $0x100, AX
	BSFQ AX, AX
	MOVL 72(R9)(AX*4), DX
	MOVL $0xFFFFFFFF, R13
	CMPQ AX, $8
	CMOVLEQ R13, DX
	JMP  store

group_full:
	TESTQ AX, AX
	JNE  found
	// Group full and no match: next group, wrapping with the 64-bit mask.
	MOVQ R9, AX
	SUBQ SI, AX
	SHRQ $7, AX
	INCQ AX
	ANDQ R8, AX
	SHLQ $7, AX
	LEAQ (SI)(AX*1), R9
	JMP  probe_group

found:
	BSFQ AX, AX
	MOVL 72(R9)(AX*4), DX

store:
	MOVQ res+64(FP), R13
	MOVL DX, (R13)(BX*4)
	INCQ BX
	CMPQ BX, R11
	JLT  probe_key
	VZEROUPPER

done:
	RET
