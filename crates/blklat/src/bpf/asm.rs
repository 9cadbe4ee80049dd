//! A small assembler of the eBPF instruction set ([`Asm`]): the few instructions the block
//! programs use (`prog.rs`), encoded as the kernel reads them (`struct bpf_insn`: an
//! opcode byte, the destination and source registers in one byte, a 16-bit offset and a
//! 32-bit immediate), with labels for forward jumps. No BPF compiler is needed.

/// A register: `R0` (return values), `R1`–`R5` (arguments, clobbered by calls), `R6`–`R9`
/// (kept across calls), `R10` (the frame pointer, read-only).
pub type Reg = u8;

/// The return value of a call and of the program.
pub const R0: Reg = 0;
/// The first argument (the program's context at entry).
pub const R1: Reg = 1;
/// The second argument.
pub const R2: Reg = 2;
/// The third argument.
pub const R3: Reg = 3;
/// The fourth argument.
pub const R4: Reg = 4;
/// Kept across calls.
pub const R6: Reg = 6;
/// Kept across calls.
pub const R7: Reg = 7;
/// Kept across calls.
pub const R8: Reg = 8;
/// Kept across calls.
pub const R9: Reg = 9;
/// The frame pointer (the stack grows down from it, 512 bytes).
pub const FP: Reg = 10;

/// The size of a memory access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    /// 1 byte.
    B = 0x10,
    /// 4 bytes.
    W = 0x00,
    /// 8 bytes.
    Dw = 0x18,
}

/// A jump condition against an immediate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cond {
    /// Equal.
    Eq = 0x10,
    /// Not equal.
    Ne = 0x50,
}

/// The kernel's helpers the programs call (`enum bpf_func_id`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Helper {
    /// `bpf_map_lookup_elem(map, key)`: a pointer to the value, or null.
    MapLookup = 1,
    /// `bpf_ktime_get_ns()`: `CLOCK_MONOTONIC` ns.
    KtimeGetNs = 5,
    /// `bpf_ringbuf_output(ringbuf, data, size, flags)`: 0 or a negative error.
    RingbufOutput = 130,
}

const BPF_LD: u8 = 0x00;
const BPF_LDX: u8 = 0x01;
const BPF_ST: u8 = 0x02;
const BPF_STX: u8 = 0x03;
const BPF_JMP: u8 = 0x05;
const BPF_JMP32: u8 = 0x06;
const BPF_ALU64: u8 = 0x07;
const BPF_K: u8 = 0x00;
const BPF_X: u8 = 0x08;
const BPF_MEM: u8 = 0x60;
const BPF_IMM: u8 = 0x00;
const BPF_ATOMIC: u8 = 0xc0;
const BPF_ADD: u8 = 0x00;
const BPF_MOV: u8 = 0xb0;
const BPF_MUL: u8 = 0x20;
const BPF_RSH: u8 = 0x70;
const BPF_LSH: u8 = 0x60;
const BPF_JA: u8 = 0x00;
const BPF_CALL: u8 = 0x80;
const BPF_EXIT: u8 = 0x90;
/// `src_reg` of a 64-bit immediate load that names a map by its file descriptor.
const BPF_PSEUDO_MAP_FD: u8 = 1;

/// One instruction, as the kernel reads it (`struct bpf_insn`, 8 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Insn {
    /// The opcode.
    pub code: u8,
    /// The destination register (low nibble) and the source register (high nibble).
    pub regs: u8,
    /// The offset of a memory access or a jump.
    pub off: i16,
    /// The immediate.
    pub imm: i32,
}

/// A place in the program that forward jumps go to (see [`Asm::label`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Label(usize);

/// A program being written: its instructions, and the jumps to labels not yet placed.
#[derive(Debug, Default)]
pub struct Asm {
    insns: Vec<Insn>,
    /// Each label's place, once placed.
    labels: Vec<Option<usize>>,
    /// Jumps (their instruction's index) waiting for a label.
    fixups: Vec<(usize, Label)>,
}

impl Asm {
    fn put(&mut self, code: u8, dst: Reg, src: Reg, off: i16, imm: i32) -> &mut Asm {
        self.insns.push(Insn { code, regs: (src << 4) | (dst & 0x0f), off, imm });
        self
    }

    /// `dst = src` (64 bits).
    pub fn mov(&mut self, dst: Reg, src: Reg) -> &mut Asm {
        self.put(BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 0, 0)
    }

    /// `dst = imm` (sign-extended to 64 bits).
    pub fn mov_imm(&mut self, dst: Reg, imm: i32) -> &mut Asm {
        self.put(BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm)
    }

    /// `dst *= src` (64 bits).
    pub fn mul(&mut self, dst: Reg, src: Reg) -> &mut Asm {
        self.put(BPF_ALU64 | BPF_MUL | BPF_X, dst, src, 0, 0)
    }

    /// `dst = imm` (a 64-bit immediate: two instructions).
    pub fn mov_imm64(&mut self, dst: Reg, imm: u64) -> &mut Asm {
        self.put(BPF_LD | BPF_IMM | Size::Dw as u8, dst, 0, 0, imm as u32 as i32);
        self.put(0, 0, 0, 0, (imm >> 32) as u32 as i32)
    }

    /// `dst <<= imm` (64 bits).
    pub fn lsh_imm(&mut self, dst: Reg, imm: i32) -> &mut Asm {
        self.put(BPF_ALU64 | BPF_LSH | BPF_K, dst, 0, 0, imm)
    }

    /// `dst >>= imm` (64 bits, logical).
    pub fn rsh_imm(&mut self, dst: Reg, imm: i32) -> &mut Asm {
        self.put(BPF_ALU64 | BPF_RSH | BPF_K, dst, 0, 0, imm)
    }

    /// `dst += imm` (64 bits).
    pub fn add_imm(&mut self, dst: Reg, imm: i32) -> &mut Asm {
        self.put(BPF_ALU64 | BPF_K, dst, 0, 0, imm)
    }

    /// `dst = *(size *)(src + off)`, zero-extended.
    pub fn load(&mut self, size: Size, dst: Reg, src: Reg, off: i16) -> &mut Asm {
        self.put(BPF_LDX | BPF_MEM | size as u8, dst, src, off, 0)
    }

    /// `*(size *)(dst + off) = src`.
    pub fn store(&mut self, size: Size, dst: Reg, off: i16, src: Reg) -> &mut Asm {
        self.put(BPF_STX | BPF_MEM | size as u8, dst, src, off, 0)
    }

    /// `*(size *)(dst + off) = imm`.
    pub fn store_imm(&mut self, size: Size, dst: Reg, off: i16, imm: i32) -> &mut Asm {
        self.put(BPF_ST | BPF_MEM | size as u8, dst, 0, off, imm)
    }

    /// `*(u64 *)(dst + off) += src`, atomically.
    pub fn atomic_add(&mut self, dst: Reg, off: i16, src: Reg) -> &mut Asm {
        self.put(BPF_STX | BPF_ATOMIC | Size::Dw as u8, dst, src, off, i32::from(BPF_ADD))
    }

    /// `dst` = the map whose file descriptor is `fd` (two instructions).
    pub fn load_map(&mut self, dst: Reg, fd: i32) -> &mut Asm {
        self.put(BPF_LD | BPF_IMM | Size::Dw as u8, dst, BPF_PSEUDO_MAP_FD, 0, fd);
        self.put(0, 0, 0, 0, 0)
    }

    /// Calls a helper (arguments in `R1`–`R5`, the result in `R0`).
    pub fn call(&mut self, helper: Helper) -> &mut Asm {
        self.put(BPF_JMP | BPF_CALL, 0, 0, 0, helper as i32)
    }

    /// Returns `R0`.
    pub fn exit(&mut self) -> &mut Asm {
        self.put(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
    }

    /// A label to place later with [`Asm::place`].
    pub fn label(&mut self) -> Label {
        self.labels.push(None);
        Label(self.labels.len() - 1)
    }

    /// Places `label` at the next instruction.
    pub fn place(&mut self, label: Label) -> &mut Asm {
        self.labels[label.0] = Some(self.insns.len());
        self
    }

    /// Jumps to `to` if `dst` compares to `imm` by `cond`.
    pub fn jump_if(&mut self, cond: Cond, dst: Reg, imm: i32, to: Label) -> &mut Asm {
        self.fixups.push((self.insns.len(), to));
        self.put(BPF_JMP | cond as u8 | BPF_K, dst, 0, 0, imm)
    }

    /// Jumps to `to` if `dst` compares to `src` by `cond` (64 bits).
    pub fn jump_if_reg(&mut self, cond: Cond, dst: Reg, src: Reg, to: Label) -> &mut Asm {
        self.fixups.push((self.insns.len(), to));
        self.put(BPF_JMP | cond as u8 | BPF_X, dst, src, 0, 0)
    }

    /// Jumps to `to` if the low 32 bits of `dst` compare to `imm` by `cond`.
    pub fn jump_if32(&mut self, cond: Cond, dst: Reg, imm: u32, to: Label) -> &mut Asm {
        self.fixups.push((self.insns.len(), to));
        self.put(BPF_JMP32 | cond as u8 | BPF_K, dst, 0, 0, imm as i32)
    }

    /// Jumps to `to`.
    pub fn jump(&mut self, to: Label) -> &mut Asm {
        self.fixups.push((self.insns.len(), to));
        self.put(BPF_JMP | BPF_JA, 0, 0, 0, 0)
    }

    /// The program, its jumps resolved; `None` if a label was never placed or a jump is
    /// out of reach.
    pub fn finish(mut self) -> Option<Vec<Insn>> {
        for &(at, label) in &self.fixups {
            let to = self.labels.get(label.0).copied().flatten()?;
            let off = i16::try_from(to as i64 - at as i64 - 1).ok()?;
            self.insns[at].off = off;
        }
        Some(self.insns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instructions_are_encoded_as_the_kernel_reads_them() {
        let mut a = Asm::default();
        let end = a.label();
        a.mov(R6, R1)
            .load(Size::W, R7, R6, 8)
            .jump_if(Cond::Eq, R7, 0x0010_0003, end)
            .store(Size::Dw, FP, -16, R7)
            .load_map(R1, 5)
            .call(Helper::KtimeGetNs)
            .mov_imm64(R2, 0x9e37_79b9_7f4a_7c15)
            .mul(R1, R2)
            .place(end)
            .mov_imm(R0, 0)
            .exit();
        let p = a.finish().unwrap();
        let i = |code, regs, off, imm| Insn { code, regs, off, imm };
        assert_eq!(p[0], i(0xbf, 0x16, 0, 0));
        assert_eq!(p[1], i(0x61, 0x67, 8, 0));
        assert_eq!(p[2], i(0x15, 0x07, 7, 0x0010_0003));
        assert_eq!(p[3], i(0x7b, 0x7a, -16, 0));
        assert_eq!(p[4], i(0x18, 0x11, 0, 5));
        assert_eq!(p[5], i(0, 0, 0, 0));
        assert_eq!(p[6], i(0x85, 0, 0, 5));
        assert_eq!(p[7], i(0x18, 0x02, 0, 0x7f4a_7c15));
        assert_eq!(p[8], i(0, 0, 0, 0x9e37_79b9_u32 as i32));
        assert_eq!(p[9], i(0x2f, 0x21, 0, 0));
        assert_eq!(p[10], i(0xb7, 0, 0, 0));
        assert_eq!(p[11], i(0x95, 0, 0, 0));
    }

    #[test]
    fn a_label_never_placed_is_refused() {
        let mut a = Asm::default();
        let nowhere = a.label();
        a.jump(nowhere);
        assert_eq!(a.finish(), None);
    }
}
