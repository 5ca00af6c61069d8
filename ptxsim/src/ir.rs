//! The parsed form of a PTX module: functions, their register files,
//! variables laid out per state space, and instructions whose operands are
//! resolved (registers to indices, labels to instruction indices, variables
//! to their space and offset). Built once per module by [`crate::parse`].

/// A register of a function: an index into the per-lane register file.
pub type Reg = u32;

/// PTX fundamental types (PTX ISA §5.2.2 "Fundamental Types") plus the
/// packed pairs the half-precision instructions take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Pred,
    B8,
    B16,
    B32,
    B64,
    B128,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    /// Packed 16-bit integer pairs (`min/max/add.s16x2`, sm_90).
    S16x2,
    U16x2,
    F16,
    F16x2,
    Bf16,
    Bf16x2,
    Tf32,
    F32,
    F64,
}

impl Ty {
    pub fn parse(s: &str) -> Option<Ty> {
        Some(match s {
            "pred" => Ty::Pred,
            "b8" => Ty::B8,
            "b16" => Ty::B16,
            "b32" => Ty::B32,
            "b64" => Ty::B64,
            "b128" => Ty::B128,
            "u8" => Ty::U8,
            "u16" => Ty::U16,
            "u32" => Ty::U32,
            "u64" => Ty::U64,
            "s8" => Ty::S8,
            "s16" => Ty::S16,
            "s32" => Ty::S32,
            "s64" => Ty::S64,
            "s16x2" => Ty::S16x2,
            "u16x2" => Ty::U16x2,
            "f16" => Ty::F16,
            "f16x2" => Ty::F16x2,
            "bf16" => Ty::Bf16,
            "bf16x2" => Ty::Bf16x2,
            "tf32" => Ty::Tf32,
            "f32" => Ty::F32,
            "f64" => Ty::F64,
            _ => return None,
        })
    }

    /// Width in bits (a predicate counts as 1).
    pub fn bits(self) -> u32 {
        match self {
            Ty::Pred => 1,
            Ty::B8 | Ty::U8 | Ty::S8 => 8,
            Ty::B16 | Ty::U16 | Ty::S16 | Ty::F16 | Ty::Bf16 => 16,
            Ty::B32 | Ty::U32 | Ty::S32 | Ty::F32 | Ty::F16x2 | Ty::Bf16x2 | Ty::Tf32 | Ty::S16x2 | Ty::U16x2 => 32,
            Ty::B64 | Ty::U64 | Ty::S64 | Ty::F64 => 64,
            Ty::B128 => 128,
        }
    }

    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64)
    }

    pub fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::F16x2 | Ty::Bf16 | Ty::Bf16x2 | Ty::Tf32 | Ty::F32 | Ty::F64)
    }

    /// The mask of the type's bits in a 64-bit register word.
    pub fn mask(self) -> u64 {
        match self.bits() {
            64 | 128 => u64::MAX,
            b => (1u64 << b) - 1,
        }
    }
}

/// State spaces (PTX ISA §5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Generic,
    Global,
    Shared,
    /// `.shared::cluster` (a cluster of one CTA here).
    SharedCluster,
    Local,
    Param,
    Const,
}

/// Special registers (PTX ISA §10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sreg {
    Tid(u8),
    Ntid(u8),
    Ctaid(u8),
    Nctaid(u8),
    LaneId,
    WarpId,
    NWarpId,
    SmId,
    NSmId,
    LaneMaskEq,
    LaneMaskLt,
    LaneMaskLe,
    LaneMaskGt,
    LaneMaskGe,
    Clock,
    Clock64,
    GlobalTimer,
    DynamicSmemSize,
    TotalSmemSize,
    ClusterCtaRank,
    ClusterNctaRank,
}

/// One operand as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    Reg(Reg),
    /// An immediate's bits: integers sign-extended to 64 bits, `0f` floats
    /// in the low 32 bits, `0d` floats as 64 bits.
    Imm(u64),
    /// A decimal floating-point literal (converted to the instruction's type).
    FloatLit(f64),
    Vec(Vec<Operand>),
    /// `[base + offset]`.
    Addr {
        base: AddrBase,
        offset: i64,
    },
    /// A variable's address in its state space's window (`mov.u64 %rd, var`).
    Var {
        space: Space,
        offset: u64,
    },
    Label(usize),
    Special(Sreg),
    /// `_`: a sink.
    Sink,
    /// A negated predicate (`!%p` as a source of `setp ... , !%p`).
    NotPred(Reg),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrBase {
    None,
    Reg(Reg),
    Var { space: Space, offset: u64 },
}

/// Opcodes (PTX ISA §9.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Mov,
    Ld,
    St,
    Cvta,
    Cvt,
    Add,
    Sub,
    Mul,
    Mad,
    Fma,
    Div,
    Rem,
    Abs,
    Neg,
    Min,
    Max,
    And,
    Or,
    Xor,
    Not,
    Cnot,
    Shl,
    Shr,
    Setp,
    Selp,
    Bra,
    Ret,
    Exit,
    Bar,
    BarWarp,
    Membar,
    Fence,
    Shfl,
    Vote,
    Activemask,
    Atom,
    Red,
    Rcp,
    Sqrt,
    Rsqrt,
    Ex2,
    Lg2,
    Sin,
    Cos,
    Tanh,
    Copysign,
    Popc,
    Clz,
    Brev,
    Bfe,
    Bfi,
    Prmt,
    Testp,
    Ldmatrix,
    Mma,
    WgmmaFence,
    WgmmaCommit,
    WgmmaWait,
    WgmmaMma,
    CpAsync,
    CpAsyncCommit,
    CpAsyncWait,
    Prefetch,
    Trap,
    Nanosleep,
}

/// Rounding modifiers (PTX ISA §9.7.3 and §9.7.9.21 for cvt).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rnd {
    #[default]
    None,
    Rn,
    Rz,
    Rm,
    Rp,
    Rna,
    Rni,
    Rzi,
    Rmi,
    Rpi,
}

/// `setp`/`set` comparisons (PTX ISA §9.7.7.1, tables 21 and 22).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Cmp {
    #[default]
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ShflMode {
    #[default]
    Idx,
    Up,
    Down,
    Bfly,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum VoteMode {
    #[default]
    All,
    Any,
    Uni,
    Ballot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AtomOp {
    #[default]
    Add,
    And,
    Or,
    Xor,
    Exch,
    Cas,
    Inc,
    Dec,
    Min,
    Max,
}

/// Modifiers of one instruction.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Mods {
    pub rnd: Rnd,
    pub ftz: bool,
    pub sat: bool,
    pub approx: bool,
    pub full: bool,
    pub hi: bool,
    pub lo: bool,
    pub wide: bool,
    pub nan: bool,
    pub uni: bool,
    pub cmp: Cmp,
    pub bool_op: Option<BoolOp>,
    pub space: Option<Space>,
    /// `.v2`/`.v4` (1 when scalar).
    pub vec: u8,
    pub shfl: ShflMode,
    pub vote: VoteMode,
    pub atom: AtomOp,
    /// `.to` of `cvta`.
    pub to: bool,
    /// `.trans` of `ldmatrix`.
    pub trans: bool,
    /// `.x1/.x2/.x4` of `ldmatrix`.
    pub num: u8,
    /// `.arrive` of `bar`.
    pub arrive: bool,
    /// `.sync` on an instruction that has it.
    pub sync: bool,
    /// `.aligned`.
    pub aligned: bool,
    /// `mMnNkK` of `mma`/`wgmma`.
    pub shape: (u32, u32, u32),
    /// `row`/`col` layouts of `mma` (A, B): true = row.
    pub layouts: (bool, bool),
    /// `.proxy.async` of `fence`.
    pub proxy_async: bool,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Instr {
    /// `@%p` / `@!%p`.
    pub guard: Option<(Reg, bool)>,
    pub op: Op,
    /// Every type suffix in order (`cvt.rn.f32.s32`: [F32, S32]).
    pub types: Vec<Ty>,
    pub m: Mods,
    /// Destination(s) first, then sources, as written.
    pub ops: Vec<Operand>,
    /// 1-based line in the module text.
    pub line: u32,
}

impl Instr {
    /// The first type suffix (the result type for most instructions).
    pub fn ty(&self) -> Ty {
        self.types.first().copied().unwrap_or(Ty::B32)
    }
}

/// A `.param` of an entry: its offset in the parameter buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub offset: u64,
    pub size: u64,
    pub align: u64,
}

/// An `.entry` (or `.func`) with its body.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub is_entry: bool,
    pub params: Vec<Param>,
    pub param_bytes: u64,
    /// Registers, with the type each was declared with (its width).
    pub reg_types: Vec<Ty>,
    pub reg_names: Vec<String>,
    pub body: Vec<Instr>,
    /// Static shared memory of the function's and the module's `.shared`
    /// variables (the dynamic shared memory starts after it, aligned to 16).
    pub static_shared: u64,
    /// Bytes of `.local` variables per thread.
    pub local_bytes: u64,
    /// `.maxntid` / `.reqntid`, when declared.
    pub max_ntid: Option<[u32; 3]>,
    pub line: u32,
}

/// A module-level `.global` or `.const` variable: allocated in global
/// memory when the module is loaded ([`crate::GlobalMemory::load_globals`]),
/// its initializer written (zeros without one, PTX ISA §5.4.3).
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalVar {
    pub name: String,
    pub space: Space,
    pub size: u64,
    pub align: u64,
    /// The initializer's bytes (little-endian elements); empty: zeros.
    pub init: Vec<u8>,
}

/// A parsed module.
#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    pub version: (u32, u32),
    /// `sm_90a`, ...
    pub target: String,
    pub functions: Vec<Function>,
    /// Module-level `.global`/`.const` variables; `Operand::Var { space:
    /// Global, offset: i }` names variable `i`.
    pub globals: Vec<GlobalVar>,
    /// The text, for instruction lines in diagnostics.
    pub lines: Vec<String>,
}

impl Module {
    pub fn entry(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.is_entry && f.name == name)
    }

    /// The source text of a 1-based line, trimmed.
    pub fn line_text(&self, line: u32) -> &str {
        self.lines.get(line.saturating_sub(1) as usize).map(|s| s.trim()).unwrap_or("")
    }
}
