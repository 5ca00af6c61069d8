//! PTX text to [`Module`]: a lexer and a recursive-descent parser for the
//! subset of PTX (ISA 8.x) that compilers emit — module directives, `.entry`
//! and `.func` bodies with nested register scopes (inline-asm blocks),
//! `.reg`/`.shared`/`.local` declarations, labels, guarded instructions with
//! vector, address and immediate operands. Anything outside it is an error
//! naming the line, never a guess.

use std::collections::HashMap;

use crate::ir::*;
use crate::{SimError, SimResult};

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Num(String),
    Str,
    Punct(char),
}

struct Lexer<'a> {
    s: &'a [u8],
    i: usize,
    line: u32,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c == b'%' || c == b'.'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.'
}

impl Lexer<'_> {
    fn tokens(mut self) -> SimResult<Vec<(Tok, u32)>> {
        let mut out = Vec::new();
        while self.i < self.s.len() {
            let c = self.s[self.i];
            if c == b'\n' {
                self.line += 1;
                self.i += 1;
            } else if c.is_ascii_whitespace() {
                self.i += 1;
            } else if c == b'/' && self.s.get(self.i + 1) == Some(&b'/') {
                while self.i < self.s.len() && self.s[self.i] != b'\n' {
                    self.i += 1;
                }
            } else if c == b'/' && self.s.get(self.i + 1) == Some(&b'*') {
                self.i += 2;
                while self.i < self.s.len() && !(self.s[self.i] == b'*' && self.s.get(self.i + 1) == Some(&b'/')) {
                    if self.s[self.i] == b'\n' {
                        self.line += 1;
                    }
                    self.i += 1;
                }
                self.i += 2;
            } else if c == b'"' {
                self.i += 1;
                while self.i < self.s.len() && self.s[self.i] != b'"' {
                    self.i += 1;
                }
                self.i += 1;
                out.push((Tok::Str, self.line));
            } else if c.is_ascii_digit() {
                let start = self.i;
                while self.i < self.s.len() && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'.' || self.s[self.i] == b'_')
                {
                    // An exponent sign: 1.5e-3.
                    if (self.s[self.i] == b'e' || self.s[self.i] == b'E')
                        && matches!(self.s.get(self.i + 1), Some(b'+' | b'-'))
                        && !self.s[start..self.i].starts_with(b"0x")
                        && !self.s[start..self.i].starts_with(b"0f")
                        && !self.s[start..self.i].starts_with(b"0d")
                    {
                        self.i += 1;
                    }
                    self.i += 1;
                }
                out.push((Tok::Num(String::from_utf8_lossy(&self.s[start..self.i]).into_owned()), self.line));
            } else if is_ident_start(c) {
                let start = self.i;
                self.i += 1;
                loop {
                    match self.s.get(self.i) {
                        Some(&c) if is_ident_char(c) => self.i += 1,
                        // `.shared::cta`, `L2::cache_hint`.
                        Some(b':') if self.s.get(self.i + 1) == Some(&b':') => self.i += 2,
                        _ => break,
                    }
                }
                out.push((Tok::Ident(String::from_utf8_lossy(&self.s[start..self.i]).into_owned()), self.line));
            } else if b"{}()[],;:+-@!<>=|".contains(&c) {
                out.push((Tok::Punct(c as char), self.line));
                self.i += 1;
            } else {
                return Err(SimError::Parse { line: self.line, message: format!("unexpected character `{}`", c as char) });
            }
        }
        Ok(out)
    }
}

/// Parses PTX text.
pub fn parse(text: &str) -> SimResult<Module> {
    let toks = Lexer { s: text.as_bytes(), i: 0, line: 1 }.tokens()?;
    let mut p = Parser { toks, i: 0, module_shared: Vec::new(), module_shared_bytes: 0, globals: Vec::new() };
    let mut module = Module {
        version: (0, 0),
        target: String::new(),
        functions: Vec::new(),
        globals: Vec::new(),
        lines: text.lines().map(String::from).collect(),
    };
    p.module(&mut module)?;
    Ok(module)
}

/// A shared variable: name, offset, whether it is the dynamic (`.extern`, unsized) one.
type SharedVar = (String, u64, bool);

struct Parser {
    toks: Vec<(Tok, u32)>,
    i: usize,
    module_shared: Vec<SharedVar>,
    module_shared_bytes: u64,
    /// Names of the module-level `.global`/`.const` variables, by index.
    globals: Vec<String>,
}

/// Registers one function may declare (ptxas allows 255 per thread; a
/// compiler's virtual registers are more, but not millions).
const MAX_REGISTERS: u64 = 1 << 20;
/// Local memory per thread: CUDA's limit (512 KiB).
const MAX_LOCAL_BYTES: u64 = 512 * 1024;

/// Placeholder offset of the dynamic shared array, fixed once the static size is known.
const DYN_SHARED: u64 = 1 << 40;

/// Lays out a `.shared` variable after the ones before it (the unsized,
/// dynamic one at a placeholder fixed once the static size is known).
fn place_shared(vars: &mut Vec<SharedVar>, bytes: &mut u64, v: VarDecl) {
    if v.unsized_ {
        vars.push((v.name, DYN_SHARED, true));
    } else {
        let off = align_up(*bytes, v.align);
        *bytes = off.saturating_add(v.size);
        vars.push((v.name, off, false));
    }
}

fn align_up(v: u64, a: u64) -> u64 {
    v.div_ceil(a.max(1)) * a.max(1)
}

struct VarDecl {
    name: String,
    align: u64,
    size: u64,
    /// Declared as `name[]` (unsized).
    unsized_: bool,
}

struct Scope {
    regs: HashMap<String, Reg>,
}

struct FnState {
    reg_types: Vec<Ty>,
    reg_names: Vec<String>,
    scopes: Vec<Scope>,
    shared: Vec<SharedVar>,
    shared_bytes: u64,
    locals: HashMap<String, u64>,
    local_bytes: u64,
    params: HashMap<String, u64>,
    labels: HashMap<String, usize>,
    pending: Vec<(usize, Vec<usize>, String, u32)>,
    body: Vec<Instr>,
}

impl FnState {
    fn lookup_reg(&self, name: &str) -> Option<Reg> {
        self.scopes.iter().rev().find_map(|s| s.regs.get(name).copied())
    }
}

fn sreg(name: &str) -> Option<Sreg> {
    let dim = |s: &str| match s {
        "x" => Some(0u8),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    };
    if let Some((base, d)) = name.split_once('.') {
        let d = dim(d)?;
        return Some(match base {
            "%tid" => Sreg::Tid(d),
            "%ntid" => Sreg::Ntid(d),
            "%ctaid" => Sreg::Ctaid(d),
            "%nctaid" => Sreg::Nctaid(d),
            _ => return None,
        });
    }
    Some(match name {
        "%laneid" => Sreg::LaneId,
        "%warpid" => Sreg::WarpId,
        "%nwarpid" => Sreg::NWarpId,
        "%smid" => Sreg::SmId,
        "%nsmid" => Sreg::NSmId,
        "%lanemask_eq" => Sreg::LaneMaskEq,
        "%lanemask_lt" => Sreg::LaneMaskLt,
        "%lanemask_le" => Sreg::LaneMaskLe,
        "%lanemask_gt" => Sreg::LaneMaskGt,
        "%lanemask_ge" => Sreg::LaneMaskGe,
        "%clock" => Sreg::Clock,
        "%clock64" => Sreg::Clock64,
        "%globaltimer" => Sreg::GlobalTimer,
        "%dynamic_smem_size" => Sreg::DynamicSmemSize,
        "%total_smem_size" => Sreg::TotalSmemSize,
        "%cluster_ctarank" => Sreg::ClusterCtaRank,
        "%cluster_nctarank" => Sreg::ClusterNctaRank,
        _ => return None,
    })
}

/// An integer literal: decimal, `0x` hex, `0b` binary, octal with a leading 0, `U` suffix.
fn parse_int(s: &str) -> Option<u64> {
    let s = s.trim_end_matches('U');
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        u64::from_str_radix(b, 2).ok()
    } else if s.len() > 1 && s.starts_with('0') && s.bytes().all(|c| c.is_ascii_digit()) {
        u64::from_str_radix(&s[1..], 8).ok()
    } else {
        s.parse::<u64>().ok()
    }
}

impl Parser {
    fn err<T>(&self, message: impl Into<String>) -> SimResult<T> {
        Err(SimError::Parse { line: self.line(), message: message.into() })
    }

    fn line(&self) -> u32 {
        self.toks.get(self.i).or(self.toks.last()).map(|t| t.1).unwrap_or(0)
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|t| &t.0)
    }

    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.i + k).map(|t| &t.0)
    }

    fn next(&mut self) -> SimResult<Tok> {
        match self.toks.get(self.i) {
            Some((t, _)) => {
                self.i += 1;
                Ok(t.clone())
            }
            None => self.err("unexpected end of the module"),
        }
    }

    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, c: char) -> SimResult<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            let got = format!("{:?}", self.peek());
            self.err(format!("expected `{c}`, found {got}"))
        }
    }

    fn ident(&mut self) -> SimResult<String> {
        match self.next()? {
            Tok::Ident(s) => Ok(s),
            t => {
                self.i -= 1;
                self.err(format!("expected a name, found {t:?}"))
            }
        }
    }

    fn number(&mut self) -> SimResult<u64> {
        let neg = self.eat_punct('-');
        match self.next()? {
            Tok::Num(s) => match parse_int(&s) {
                Some(v) => Ok(if neg { v.wrapping_neg() } else { v }),
                None => self.err(format!("bad integer `{s}`")),
            },
            t => {
                self.i -= 1;
                self.err(format!("expected a number, found {t:?}"))
            }
        }
    }

    /// Skips the rest of the current source line (`.loc`, `.file`).
    fn skip_line(&mut self, line: u32) {
        while self.i < self.toks.len() && self.toks[self.i].1 == line {
            self.i += 1;
        }
    }

    fn skip_to_semicolon(&mut self) -> SimResult<()> {
        while !self.eat_punct(';') {
            self.next()?;
        }
        Ok(())
    }

    fn skip_braces(&mut self) -> SimResult<()> {
        self.expect_punct('{')?;
        let mut depth = 1;
        while depth > 0 {
            match self.next()? {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => depth -= 1,
                _ => {}
            }
        }
        Ok(())
    }

    fn module(&mut self, m: &mut Module) -> SimResult<()> {
        while let Some(tok) = self.peek().cloned() {
            let line = self.line();
            let Tok::Ident(word) = tok else { return self.err(format!("unexpected {tok:?} at module level")) };
            self.i += 1;
            match word.as_str() {
                ".version" => {
                    let Tok::Num(v) = self.next()? else { return self.err("expected a version number") };
                    let (a, b) = v.split_once('.').unwrap_or((&v, "0"));
                    m.version = (a.parse().unwrap_or(0), b.parse().unwrap_or(0));
                }
                ".target" => {
                    m.target = self.ident()?;
                    while self.eat_punct(',') {
                        self.ident()?;
                    }
                }
                ".address_size" => {
                    let bits = self.number()?;
                    if bits != 64 {
                        return Err(SimError::Parse {
                            line,
                            message: format!(".address_size {bits}: only 64-bit addressing is simulated"),
                        });
                    }
                }
                ".visible" | ".extern" | ".weak" | ".common" => {
                    if word == ".extern" && self.peek() == Some(&Tok::Ident(".shared".into())) {
                        self.i += 1;
                        let v = self.var_decl()?;
                        self.module_shared.push((v.name, DYN_SHARED, true));
                    }
                }
                ".entry" | ".func" => {
                    let f = self.function(word == ".entry", line)?;
                    if let Some(f) = f {
                        m.functions.push(f);
                    }
                }
                ".shared" => {
                    let v = self.var_decl()?;
                    place_shared(&mut self.module_shared, &mut self.module_shared_bytes, v);
                }
                ".global" | ".const" => {
                    let (v, init) = self.global_decl()?;
                    if v.unsized_ {
                        return Err(SimError::Parse { line, message: format!("`{}`: an unsized {word} variable", v.name) });
                    }
                    self.globals.push(v.name.clone());
                    let space = if word == ".global" { Space::Global } else { Space::Const };
                    m.globals.push(GlobalVar { name: v.name, space, size: v.size, align: v.align, init });
                }
                ".file" | ".loc" => self.skip_line(line),
                ".section" => {
                    self.ident()?;
                    self.skip_braces()?;
                }
                ".pragma" => self.skip_to_semicolon()?,
                other => return Err(SimError::Parse { line, message: format!("unexpected `{other}` at module level") }),
            }
        }
        Ok(())
    }

    /// The head every declaration shares, after its state space: `.align N`,
    /// other directives (`.ptr`, a space), the type, the name and `[dims]`
    /// (`[]`: unsized). Returns (align, type, name, element count, unsized).
    fn decl_head(&mut self) -> SimResult<(u64, Ty, String, u64, bool)> {
        let mut align = 0;
        let mut ty = None;
        loop {
            match self.peek().cloned() {
                Some(Tok::Ident(s)) if s == ".align" => {
                    self.i += 1;
                    align = self.number()?;
                }
                Some(Tok::Ident(s)) if s.starts_with('.') => {
                    self.i += 1;
                    if let Some(t) = Ty::parse(&s[1..]) {
                        ty = Some(t);
                    } else if s.starts_with(".v") && s[2..].bytes().all(|c| c.is_ascii_digit()) {
                        return self.err(format!("vector variables (`{s}`) are not simulated"));
                    }
                }
                _ => break,
            }
        }
        let Some(ty) = ty else { return self.err("a declaration without a type") };
        let name = self.ident()?;
        let mut count = 1u64;
        let mut unsized_ = false;
        while self.eat_punct('[') {
            if self.eat_punct(']') {
                unsized_ = true;
                continue;
            }
            count = count.saturating_mul(self.number()?);
            self.expect_punct(']')?;
        }
        Ok((align, ty, name, count, unsized_))
    }

    /// `.align N .type name[dims];` after the state space (no initializer).
    fn var_decl(&mut self) -> SimResult<VarDecl> {
        let (align, ty, name, count, unsized_) = self.decl_head()?;
        if self.eat_punct('=') {
            return self.err(format!("`{name}`: initialized variables are not simulated"));
        }
        self.expect_punct(';')?;
        let elem = ty.bytes() as u64;
        Ok(VarDecl { name, align: if align == 0 { elem } else { align }, size: elem.saturating_mul(count), unsized_ })
    }

    /// A module-level variable with an optional initializer: `.align N
    /// .type name[dims] = { v, ... };` (nested braces flattened; integers
    /// and `0f`/`0d` literals, each stored in the type's width).
    fn global_decl(&mut self) -> SimResult<(VarDecl, Vec<u8>)> {
        let (align, ty, name, count, unsized_) = self.decl_head()?;
        let elem = ty.bytes() as u64;
        let mut init = Vec::new();
        if self.eat_punct('=') {
            let mut depth = 0;
            loop {
                if self.eat_punct('{') {
                    depth += 1;
                } else if self.eat_punct('}') {
                    depth -= 1;
                } else if self.eat_punct(',') {
                } else {
                    let neg = self.eat_punct('-');
                    let line = self.line();
                    let Tok::Num(t) = self.next()? else { return self.err("expected a number in an initializer") };
                    let v = match number_operand(&t, neg) {
                        Some(Operand::Imm(v)) => v,
                        Some(Operand::FloatLit(x)) if elem == 4 => (x as f32).to_bits() as u64,
                        Some(Operand::FloatLit(x)) => x.to_bits(),
                        _ => return Err(SimError::Parse { line, message: format!("bad initializer `{t}`") }),
                    };
                    init.extend_from_slice(&v.to_le_bytes()[..elem.min(8) as usize]);
                }
                if depth == 0 && self.is_punct(';') {
                    break;
                }
            }
            if init.len() as u64 > elem * count {
                return self.err(format!("`{name}`: {} initializer bytes for {} declared", init.len(), elem * count));
            }
        }
        self.expect_punct(';')?;
        Ok((VarDecl { name, align: if align == 0 { elem } else { align }, size: elem.saturating_mul(count), unsized_ }, init))
    }

    /// One `.param` declaration of a parameter list.
    fn param_decl(&mut self) -> SimResult<(String, u64, u64)> {
        let word = self.ident()?;
        if word != ".param" && word != ".reg" {
            return self.err(format!("expected `.param`, found `{word}`"));
        }
        let (align, ty, name, count, _) = self.decl_head()?;
        let elem = ty.bytes() as u64;
        // `.ptr .align N` states the pointee's alignment; the parameter itself is aligned to its type.
        let align = if count > 1 { align.max(elem) } else { elem };
        Ok((name, elem.saturating_mul(count), align))
    }

    fn function(&mut self, is_entry: bool, line: u32) -> SimResult<Option<Function>> {
        if self.is_punct('(') {
            // A return-parameter list of a `.func`.
            self.i += 1;
            while !self.eat_punct(')') {
                self.param_decl()?;
                self.eat_punct(',');
            }
        }
        let name = self.ident()?;
        let mut params = Vec::new();
        let mut offset = 0;
        if self.eat_punct('(') {
            while !self.eat_punct(')') {
                let (pname, size, align) = self.param_decl()?;
                offset = align_up(offset, align);
                params.push(Param { name: pname, offset, size, align });
                offset += size;
                self.eat_punct(',');
            }
        }
        let mut max_ntid = None;
        loop {
            match self.peek().cloned() {
                Some(Tok::Ident(d)) if d == ".maxntid" || d == ".reqntid" => {
                    self.i += 1;
                    let mut dims = [1u32; 3];
                    for (k, dim) in dims.iter_mut().enumerate() {
                        if k > 0 && !self.eat_punct(',') {
                            break;
                        }
                        *dim = self.number()? as u32;
                    }
                    max_ntid = Some(dims);
                }
                Some(Tok::Ident(d))
                    if matches!(
                        d.as_str(),
                        ".minnctapersm"
                            | ".maxnreg"
                            | ".maxnctapersm"
                            | ".maxclusterrank"
                            | ".reqnctapercluster"
                            | ".explicitcluster"
                            | ".noreturn"
                    ) =>
                {
                    self.i += 1;
                    while matches!(self.peek(), Some(Tok::Num(_))) || self.is_punct(',') {
                        self.i += 1;
                    }
                }
                Some(Tok::Ident(d)) if d == ".pragma" => {
                    self.i += 1;
                    self.skip_to_semicolon()?;
                }
                _ => break,
            }
        }
        if self.eat_punct(';') {
            return Ok(None);
        }
        let mut st = FnState {
            reg_types: Vec::new(),
            reg_names: Vec::new(),
            scopes: vec![Scope { regs: HashMap::new() }],
            shared: self.module_shared.clone(),
            shared_bytes: self.module_shared_bytes,
            locals: HashMap::new(),
            local_bytes: 0,
            params: params.iter().map(|p| (p.name.clone(), p.offset)).collect(),
            labels: HashMap::new(),
            pending: Vec::new(),
            body: Vec::new(),
        };
        self.expect_punct('{')?;
        self.body(&mut st)?;
        for (at, path, label, lline) in std::mem::take(&mut st.pending) {
            let Some(&target) = st.labels.get(&label) else {
                return Err(SimError::Parse { line: lline, message: format!("unknown name `{label}`") });
            };
            let mut o = &mut st.body[at].ops[path[0]];
            for &k in &path[1..] {
                let Operand::Vec(v) = o else { unreachable!("a label path through a vector") };
                o = &mut v[k];
            }
            *o = Operand::Label(target);
        }
        // The dynamic shared array starts after the static variables, 16-aligned.
        let dyn_base = align_up(st.shared_bytes, 16);
        let fix = |space: &mut Space, off: &mut u64| {
            if *space == Space::Shared && *off >= DYN_SHARED {
                *off = *off - DYN_SHARED + dyn_base;
            }
        };
        for ins in &mut st.body {
            for o in &mut ins.ops {
                visit_vars(o, &mut |s, off| fix(s, off));
            }
        }
        Ok(Some(Function {
            name,
            is_entry,
            params,
            param_bytes: offset,
            reg_types: st.reg_types,
            reg_names: st.reg_names,
            body: st.body,
            static_shared: st.shared_bytes,
            local_bytes: st.local_bytes,
            max_ntid,
            line,
        }))
    }

    fn declare_reg(&mut self, st: &mut FnState, name: String, ty: Ty) {
        let r = st.reg_types.len() as Reg;
        st.reg_types.push(ty);
        st.reg_names.push(name.clone());
        st.scopes.last_mut().expect("a scope").regs.insert(name, r);
    }

    fn body(&mut self, st: &mut FnState) -> SimResult<()> {
        loop {
            let line = self.line();
            let tok = self.next()?;
            match tok {
                Tok::Punct('}') => {
                    st.scopes.pop();
                    if st.scopes.is_empty() {
                        return Ok(());
                    }
                }
                Tok::Punct('{') => st.scopes.push(Scope { regs: HashMap::new() }),
                Tok::Punct('@') => {
                    let neg = self.eat_punct('!');
                    let pname = self.ident()?;
                    let Some(p) = st.lookup_reg(&pname) else { return self.err(format!("unknown predicate `{pname}`")) };
                    let opcode = self.ident()?;
                    self.instruction(st, opcode, Some((p, neg)), line)?;
                }
                Tok::Ident(word) if self.is_punct(':') && !word.starts_with('.') => {
                    self.i += 1;
                    st.labels.insert(word, st.body.len());
                }
                Tok::Ident(word) => match word.as_str() {
                    ".reg" => {
                        let mut ty = None;
                        while let Some(Tok::Ident(s)) = self.peek().cloned() {
                            if !s.starts_with('.') {
                                break;
                            }
                            self.i += 1;
                            match Ty::parse(&s[1..]) {
                                Some(t) => ty = Some(t),
                                None => return self.err(format!("`.reg {s}` is not simulated")),
                            }
                        }
                        let Some(ty) = ty else { return self.err("a register without a type") };
                        loop {
                            let name = self.ident()?;
                            if self.eat_punct('<') {
                                let n = self.number()?;
                                self.expect_punct('>')?;
                                if n > MAX_REGISTERS || st.reg_types.len() as u64 + n > MAX_REGISTERS {
                                    return self.err(format!("more than {MAX_REGISTERS} registers in one function"));
                                }
                                for k in 0..n {
                                    self.declare_reg(st, format!("{name}{k}"), ty);
                                }
                            } else {
                                self.declare_reg(st, name, ty);
                            }
                            if !self.eat_punct(',') {
                                break;
                            }
                        }
                        self.expect_punct(';')?;
                    }
                    ".shared" => {
                        let v = self.var_decl()?;
                        place_shared(&mut st.shared, &mut st.shared_bytes, v);
                    }
                    ".local" => {
                        let v = self.var_decl()?;
                        if st.local_bytes + v.size > MAX_LOCAL_BYTES {
                            return self.err(format!("`{}`: more than {MAX_LOCAL_BYTES} bytes of local memory per thread", v.name));
                        }
                        let off = align_up(st.local_bytes, v.align);
                        st.local_bytes = off + v.size;
                        st.locals.insert(v.name, off);
                    }
                    ".param" => return self.err("`.param` declarations inside a body (calls) are not simulated"),
                    ".pragma" => self.skip_to_semicolon()?,
                    ".loc" | ".file" => self.skip_line(line),
                    _ if word.starts_with('.') => return self.err(format!("`{word}` inside a function body is not simulated")),
                    _ => self.instruction(st, word, None, line)?,
                },
                t => return self.err(format!("unexpected {t:?} in a function body")),
            }
        }
    }

    fn instruction(&mut self, st: &mut FnState, opcode: String, guard: Option<(Reg, bool)>, line: u32) -> SimResult<()> {
        let (op, types, m) = decode_opcode(&opcode).map_err(|message| SimError::Parse { line, message })?;
        let at = st.body.len();
        let mut ops = Vec::new();
        if !self.is_punct(';') {
            loop {
                let k = ops.len();
                let o = self.operand(st, at, vec![k])?;
                ops.push(o);
                if !self.eat_punct(',') {
                    break;
                }
            }
        }
        self.expect_punct(';')?;
        st.body.push(Instr { guard, op, types, m, ops, line });
        Ok(())
    }

    fn operand(&mut self, st: &mut FnState, at: usize, path: Vec<usize>) -> SimResult<Operand> {
        let line = self.line();
        if path.len() > 3 {
            return self.err("vector operands nested more than twice");
        }
        if self.eat_punct('{') {
            let mut v = Vec::new();
            if !self.eat_punct('}') {
                loop {
                    let mut p = path.clone();
                    p.push(v.len());
                    v.push(self.operand(st, at, p)?);
                    if self.eat_punct('}') {
                        break;
                    }
                    self.expect_punct(',')?;
                }
            }
            return Ok(Operand::Vec(v));
        }
        if self.eat_punct('[') {
            let mut base = AddrBase::None;
            let mut offset: i64 = 0;
            match self.peek().cloned() {
                Some(Tok::Ident(name)) => {
                    self.i += 1;
                    base = match self.name_operand(st, &name)? {
                        Some(Operand::Reg(r)) => AddrBase::Reg(r),
                        Some(Operand::Var { space, offset }) => AddrBase::Var { space, offset },
                        _ => return self.err(format!("`{name}` cannot be an address")),
                    };
                }
                Some(Tok::Num(_)) | Some(Tok::Punct('-')) => offset = self.number()? as i64,
                t => return self.err(format!("expected an address, found {t:?}")),
            }
            while self.is_punct('+') || self.is_punct('-') {
                let neg = self.is_punct('-');
                self.i += 1;
                let v = self.number()? as i64;
                offset = offset.wrapping_add(if neg { v.wrapping_neg() } else { v });
            }
            self.expect_punct(']')?;
            return Ok(Operand::Addr { base, offset });
        }
        if self.eat_punct('!') {
            let name = self.ident()?;
            return match st.lookup_reg(&name) {
                Some(r) => Ok(Operand::NotPred(r)),
                None => self.err(format!("unknown predicate `{name}`")),
            };
        }
        let neg = self.is_punct('-');
        match self.peek().cloned() {
            Some(Tok::Num(s)) if !neg || matches!(self.peek_at(1), Some(Tok::Num(_))) => {
                if neg {
                    self.i += 1;
                }
                self.i += 1;
                let o = number_operand(&s, neg).ok_or_else(|| SimError::Parse { line, message: format!("bad literal `{s}`") })?;
                Ok(o)
            }
            Some(Tok::Punct('-')) => {
                self.i += 1;
                match self.next()? {
                    Tok::Num(s) => number_operand(&s, true).ok_or_else(|| SimError::Parse { line, message: format!("bad literal `{s}`") }),
                    t => self.err(format!("expected a number after `-`, found {t:?}")),
                }
            }
            Some(Tok::Ident(name)) => {
                self.i += 1;
                let first = match self.name_operand(st, &name)? {
                    Some(o) => o,
                    None => {
                        st.pending.push((at, path.clone(), name, line));
                        Operand::Label(usize::MAX)
                    }
                };
                if self.eat_punct('|') {
                    let second = self.ident()?;
                    let Some(r2) = st.lookup_reg(&second) else { return self.err(format!("unknown register `{second}`")) };
                    return Ok(Operand::Vec(vec![first, Operand::Reg(r2)]));
                }
                Ok(first)
            }
            t => self.err(format!("expected an operand, found {t:?}")),
        }
    }

    /// A register, special register, variable or sink; `None` for a (label) name.
    fn name_operand(&self, st: &FnState, name: &str) -> SimResult<Option<Operand>> {
        if name == "_" {
            return Ok(Some(Operand::Sink));
        }
        if let Some(r) = st.lookup_reg(name) {
            return Ok(Some(Operand::Reg(r)));
        }
        if let Some(s) = sreg(name) {
            return Ok(Some(Operand::Special(s)));
        }
        if name.starts_with('%') {
            return self.err(format!("unknown register `{name}`"));
        }
        if let Some((_, off, _)) = st.shared.iter().rev().find(|(n, _, _)| n == name) {
            return Ok(Some(Operand::Var { space: Space::Shared, offset: *off }));
        }
        if let Some(&off) = st.locals.get(name) {
            return Ok(Some(Operand::Var { space: Space::Local, offset: off }));
        }
        if let Some(&off) = st.params.get(name) {
            return Ok(Some(Operand::Var { space: Space::Param, offset: off }));
        }
        if let Some(i) = self.globals.iter().position(|g| g == name) {
            return Ok(Some(Operand::Var { space: Space::Global, offset: i as u64 }));
        }
        Ok(None)
    }
}

fn visit_vars(o: &mut Operand, f: &mut impl FnMut(&mut Space, &mut u64)) {
    match o {
        Operand::Var { space, offset } => f(space, offset),
        Operand::Addr { base: AddrBase::Var { space, offset }, .. } => f(space, offset),
        Operand::Vec(v) => v.iter_mut().for_each(|o| visit_vars(o, f)),
        _ => {}
    }
}

fn number_operand(s: &str, neg: bool) -> Option<Operand> {
    if let Some(h) = s.strip_prefix("0f").or_else(|| s.strip_prefix("0F")) {
        let bits = u32::from_str_radix(h, 16).ok()? as u64;
        return Some(Operand::Imm(if neg { bits ^ 0x8000_0000 } else { bits }));
    }
    if let Some(h) = s.strip_prefix("0d").or_else(|| s.strip_prefix("0D")) {
        let bits = u64::from_str_radix(h, 16).ok()?;
        return Some(Operand::Imm(if neg { bits ^ (1 << 63) } else { bits }));
    }
    if s.contains('.') || ((s.contains('e') || s.contains('E')) && !s.starts_with("0x")) {
        let v: f64 = s.parse().ok()?;
        return Some(Operand::FloatLit(if neg { -v } else { v }));
    }
    let v = parse_int(s)?;
    Some(Operand::Imm(if neg { v.wrapping_neg() } else { v }))
}

/// `setp` comparisons (PTX ISA §9.7.7.1, tables 21–22).
const CMPS: &[(&str, Cmp)] = &[
    ("eq", Cmp::Eq),
    ("ne", Cmp::Ne),
    ("lt", Cmp::Lt),
    ("le", Cmp::Le),
    ("gt", Cmp::Gt),
    ("ge", Cmp::Ge),
    ("lo", Cmp::Lo),
    ("ls", Cmp::Ls),
    ("hi", Cmp::Hi),
    ("hs", Cmp::Hs),
    ("equ", Cmp::Equ),
    ("neu", Cmp::Neu),
    ("ltu", Cmp::Ltu),
    ("leu", Cmp::Leu),
    ("gtu", Cmp::Gtu),
    ("geu", Cmp::Geu),
    ("num", Cmp::Num),
    ("nan", Cmp::Nan),
];
const BOOL_OPS: &[(&str, BoolOp)] = &[("and", BoolOp::And), ("or", BoolOp::Or), ("xor", BoolOp::Xor)];
const ATOMS: &[(&str, AtomOp)] = &[
    ("add", AtomOp::Add),
    ("and", AtomOp::And),
    ("or", AtomOp::Or),
    ("xor", AtomOp::Xor),
    ("exch", AtomOp::Exch),
    ("cas", AtomOp::Cas),
    ("inc", AtomOp::Inc),
    ("dec", AtomOp::Dec),
    ("min", AtomOp::Min),
    ("max", AtomOp::Max),
];
const SHFLS: &[(&str, ShflMode)] = &[("up", ShflMode::Up), ("down", ShflMode::Down), ("bfly", ShflMode::Bfly), ("idx", ShflMode::Idx)];
const VOTES: &[(&str, VoteMode)] = &[("all", VoteMode::All), ("any", VoteMode::Any), ("uni", VoteMode::Uni), ("ballot", VoteMode::Ballot)];

fn lookup<T: Copy>(table: &[(&str, T)], w: &str) -> Option<T> {
    table.iter().find(|(n, _)| *n == w).map(|(_, v)| *v)
}

/// Splits `add.rn.ftz.f32` into the opcode, its type suffixes and its modifiers.
pub(crate) fn decode_opcode(text: &str) -> Result<(Op, Vec<Ty>, Mods), String> {
    let parts: Vec<&str> = text.split('.').collect();
    let mut rest: &[&str] = &parts[1..];
    let two = |a: &str| parts.get(1) == Some(&a);
    let op = match parts[0] {
        "mov" => Op::Mov,
        "ld" | "ldu" => Op::Ld,
        "st" => Op::St,
        "cvta" => Op::Cvta,
        "cvt" => Op::Cvt,
        "add" => Op::Add,
        "sub" => Op::Sub,
        "mul" => Op::Mul,
        "mad" => Op::Mad,
        "fma" => Op::Fma,
        "div" => Op::Div,
        "rem" => Op::Rem,
        "abs" => Op::Abs,
        "neg" => Op::Neg,
        "min" => Op::Min,
        "max" => Op::Max,
        "and" => Op::And,
        "or" => Op::Or,
        "xor" => Op::Xor,
        "not" => Op::Not,
        "cnot" => Op::Cnot,
        "shl" => Op::Shl,
        "shr" => Op::Shr,
        "setp" => Op::Setp,
        "selp" => Op::Selp,
        "bra" => Op::Bra,
        "ret" => Op::Ret,
        "exit" => Op::Exit,
        "bar" | "barrier" if two("warp") => {
            rest = &parts[2..];
            Op::BarWarp
        }
        "bar" | "barrier" => Op::Bar,
        "membar" => Op::Membar,
        "fence" => Op::Fence,
        "shfl" => Op::Shfl,
        "vote" => Op::Vote,
        "activemask" => Op::Activemask,
        "atom" => Op::Atom,
        "red" => Op::Red,
        "rcp" => Op::Rcp,
        "sqrt" => Op::Sqrt,
        "rsqrt" => Op::Rsqrt,
        "ex2" => Op::Ex2,
        "lg2" => Op::Lg2,
        "sin" => Op::Sin,
        "cos" => Op::Cos,
        "tanh" => Op::Tanh,
        "copysign" => Op::Copysign,
        "popc" => Op::Popc,
        "clz" => Op::Clz,
        "brev" => Op::Brev,
        "bfe" => Op::Bfe,
        "bfi" => Op::Bfi,
        "prmt" => Op::Prmt,
        "testp" => Op::Testp,
        "ldmatrix" => Op::Ldmatrix,
        "mma" => Op::Mma,
        "wgmma" => {
            rest = &parts[2..];
            match parts.get(1).copied() {
                Some("fence") => Op::WgmmaFence,
                Some("commit_group") => Op::WgmmaCommit,
                Some("wait_group") => Op::WgmmaWait,
                Some("mma_async") => Op::WgmmaMma,
                _ => return Err(format!("`{text}` is not simulated")),
            }
        }
        "cp" if two("async") => {
            rest = &parts[2..];
            match parts.get(2).copied() {
                Some("commit_group") => {
                    rest = &parts[3..];
                    Op::CpAsyncCommit
                }
                Some("wait_group") | Some("wait_all") => {
                    rest = &parts[3..];
                    Op::CpAsyncWait
                }
                _ => Op::CpAsync,
            }
        }
        "prefetch" | "prefetchu" => Op::Prefetch,
        "trap" => Op::Trap,
        "nanosleep" => Op::Nanosleep,
        other => return Err(format!("the instruction `{other}` (`{text}`) is not simulated")),
    };
    let mut types = Vec::new();
    let mut m = Mods { vec: 1, ..Mods::default() };
    let is_cmp_op = matches!(op, Op::Setp);
    let is_atom = matches!(op, Op::Atom | Op::Red);
    let mut layouts_seen = 0;
    for &w in rest {
        if let Some(t) = Ty::parse(w) {
            types.push(t);
            continue;
        }
        if is_cmp_op {
            if let Some(c) = lookup(CMPS, w) {
                m.cmp = c;
                continue;
            }
            if let Some(b) = lookup(BOOL_OPS, w) {
                m.bool_op = Some(b);
                continue;
            }
        }
        if is_atom && let Some(a) = lookup(ATOMS, w) {
            m.atom = a;
            continue;
        }
        if op == Op::Shfl
            && let Some(x) = lookup(SHFLS, w)
        {
            m.shfl = x;
            continue;
        }
        if op == Op::Vote
            && let Some(v) = lookup(VOTES, w)
        {
            m.vote = v;
            continue;
        }
        if (op == Op::Mma || op == Op::WgmmaMma || op == Op::Ldmatrix) && w.starts_with('m') && w.contains('n') {
            let (mm, rest) = w[1..].split_once('n').ok_or_else(|| format!("bad shape `{w}`"))?;
            let (nn, kk) = rest.split_once('k').unwrap_or((rest, "0"));
            m.shape = (
                mm.parse().map_err(|_| format!("bad shape `{w}`"))?,
                nn.parse().map_err(|_| format!("bad shape `{w}`"))?,
                kk.parse().map_err(|_| format!("bad shape `{w}`"))?,
            );
            continue;
        }
        match w {
            "rn" => m.rnd = Rnd::Rn,
            "rz" => m.rnd = Rnd::Rz,
            "rm" => m.rnd = Rnd::Rm,
            "rp" => m.rnd = Rnd::Rp,
            "rna" => m.rnd = Rnd::Rna,
            "rni" => m.rnd = Rnd::Rni,
            "rzi" => m.rnd = Rnd::Rzi,
            "rmi" => m.rnd = Rnd::Rmi,
            "rpi" => m.rnd = Rnd::Rpi,
            "ftz" => m.ftz = true,
            "sat" | "satfinite" => m.sat = true,
            "approx" => m.approx = true,
            "full" => m.full = true,
            "hi" => m.hi = true,
            "lo" => m.lo = true,
            "wide" => m.wide = true,
            "NaN" => m.nan = true,
            "uni" => m.uni = true,
            "sync" => m.sync = true,
            "aligned" => m.aligned = true,
            "trans" => m.trans = true,
            "arrive" => m.arrive = true,
            "to" => m.to = true,
            "row" | "col" if op == Op::Mma => {
                // First A's layout, then B's.
                if layouts_seen == 0 {
                    m.layouts.0 = w == "row";
                } else {
                    m.layouts.1 = w == "row";
                }
                layouts_seen += 1;
            }
            "x1" => m.num = 1,
            "x2" => m.num = 2,
            "x4" => m.num = 4,
            "v2" => m.vec = 2,
            "v4" => m.vec = 4,
            "v8" => m.vec = 8,
            "global" => m.space = Some(Space::Global),
            "shared" | "shared::cta" => m.space = Some(Space::Shared),
            "shared::cluster" => m.space = Some(Space::SharedCluster),
            "local" => m.space = Some(Space::Local),
            "param" => m.space = Some(Space::Param),
            "const" => m.space = Some(Space::Const),
            "proxy" => {}
            "async" if op == Op::Fence => m.proxy_async = true,
            "async" => {}
            // Memory-model qualifiers and cache hints change no value a
            // single simulated memory returns.
            "relaxed"
            | "acquire"
            | "release"
            | "acq_rel"
            | "sc"
            | "weak"
            | "volatile"
            | "mmio"
            | "cta"
            | "gpu"
            | "sys"
            | "cluster"
            | "nc"
            | "ca"
            | "cg"
            | "cs"
            | "lu"
            | "cv"
            | "wb"
            | "wt"
            | "noftz"
            | "L1::evict_normal"
            | "L1::evict_unchanged"
            | "L1::evict_first"
            | "L1::evict_last"
            | "L1::no_allocate"
            | "L2::evict_normal"
            | "L2::evict_first"
            | "L2::evict_last"
            | "L2::64B"
            | "L2::128B"
            | "L2::256B"
            | "gl"
            | "red"
            | "sync_restrict::shared::cluster" => {}
            other => return Err(format!("`{text}`: the modifier `.{other}` is not simulated")),
        }
    }
    Ok((op, types, m))
}
