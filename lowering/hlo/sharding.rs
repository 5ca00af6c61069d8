//! Shardy's meshes and tensor shardings as data, read from the text the
//! `sdy` dialect keeps (`<["x"=2, "y"=4]>`, `<@mesh, [{"x"}, {}],
//! replicated={"y"}>`), for the SPMD partitioner. Written from the Shardy
//! documentation's grammar: a dimension's sharding is a list of axes, major
//! first, optionally open (`?`) and with a priority (`p1`); an axis may be a
//! sub-axis (`"x":(1)2`), which floors reads but does not partition by.
//! Also [`strip`]: every Shardy annotation removed once values are whole on
//! each device.

use std::fmt;

use melior::ir::OperationRef;
use mlir_sys::*;

use floors_ir::ir::raw;

/// A mesh: named axes with their sizes (major first) and, when written,
/// the logical device ids in mesh order (else iota).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mesh {
    pub axes: Vec<(String, i64)>,
    pub device_ids: Option<Vec<i64>>,
}

impl Mesh {
    pub fn size(&self, axis: &str) -> Option<i64> {
        self.axes.iter().find(|(a, _)| a == axis).map(|&(_, s)| s)
    }

    pub fn devices(&self) -> i64 {
        match &self.device_ids {
            Some(ids) => ids.len() as i64,
            None => self.axes.iter().map(|&(_, s)| s).product(),
        }
    }
}

/// One axis of a dimension's sharding; `sub` is a sub-axis `(pre-size, size)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    pub name: String,
    pub sub: Option<(i64, i64)>,
}

/// A tensor's sharding: the mesh's name (or an inline mesh) and, per
/// dimension, the axes that split it (major first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sharding {
    pub mesh: MeshRef,
    pub dims: Vec<Vec<Axis>>,
    /// Axes the value is explicitly replicated over, and those it is
    /// unreduced over (a partial sum: floors refuses those).
    pub replicated: Vec<String>,
    pub unreduced: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MeshRef {
    Named(String),
    Inline(Mesh),
}

impl Sharding {
    /// This sharding's mesh with other split dimensions (and no explicit
    /// replicated or unreduced axes).
    pub fn with_dims(&self, dims: Vec<Vec<Axis>>) -> Sharding {
        Sharding { mesh: self.mesh.clone(), dims, replicated: Vec::new(), unreduced: Vec::new() }
    }

    /// Whether no dimension is split (every device holds the whole value).
    pub fn is_replicated(&self) -> bool {
        self.dims.iter().all(Vec::is_empty)
    }

    /// The same placement as `other`: equal split axes per dimension (open
    /// marks, priorities and explicit `replicated` lists do not place data).
    pub fn places_like(&self, other: &Sharding) -> bool {
        let (a, b) = (&self.dims, &other.dims);
        let trailing_empty = |v: &[Vec<Axis>], from: usize| v[from..].iter().all(Vec::is_empty);
        let n = a.len().min(b.len());
        a[..n] == b[..n] && trailing_empty(a, n) && trailing_empty(b, n)
    }
}

impl fmt::Display for Sharding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.mesh {
            MeshRef::Named(n) => write!(f, "<@{n}, [")?,
            MeshRef::Inline(_) => write!(f, "<mesh<...>, [")?,
        }
        for (i, d) in self.dims.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str("{")?;
            for (j, a) in d.iter().enumerate() {
                if j > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "\"{}\"", a.name)?;
                if let Some((pre, size)) = a.sub {
                    write!(f, ":({pre}){size}")?;
                }
            }
            f.write_str("}")?;
        }
        f.write_str("]>")
    }
}

/// A sharding as XLA's `OpSharding` tiles an array: `tiles[d]` shards
/// along dimension d (plus a last dimension of replicas when
/// `replicated_last`), and the device (logical id) of each tile, tiles in
/// row-major order. No tiles: replicated on every device.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tiling {
    pub tiles: Vec<i64>,
    pub devices: Vec<i64>,
    pub replicated_last: bool,
}

impl Sharding {
    /// The tile assignment of this sharding of a rank-`rank` value on `mesh`.
    pub fn tiling(&self, mesh: &Mesh, rank: usize) -> Result<Tiling, String> {
        if self.is_replicated() {
            return Ok(Tiling::default());
        }
        let size = |a: &Axis| -> Result<i64, String> {
            if a.sub.is_some() {
                return Err(format!("sub-axis \"{}\" in {self}: floors does not tile by sub-axes", a.name));
            }
            mesh.size(&a.name).ok_or_else(|| format!("{self} names axis \"{}\", not in its mesh", a.name))
        };
        // Per tile dimension, the mesh axes it enumerates, major first.
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut used = vec![false; mesh.axes.len()];
        for d in 0..rank {
            let mut g = Vec::new();
            for a in self.dims.get(d).map(Vec::as_slice).unwrap_or(&[]) {
                size(a)?;
                let i =
                    mesh.axes.iter().position(|(n, _)| *n == a.name).ok_or_else(|| format!("axis \"{}\" is not in the mesh", a.name))?;
                if std::mem::replace(&mut used[i], true) {
                    return Err(format!("{self} uses axis \"{}\" twice", a.name));
                }
                g.push(i);
            }
            groups.push(g);
        }
        let rest: Vec<usize> = (0..mesh.axes.len()).filter(|&i| !used[i] && mesh.axes[i].1 > 1).collect();
        let replicated_last = !rest.is_empty();
        if replicated_last {
            groups.push(rest);
        }
        let extent = |g: &[usize]| g.iter().map(|&i| mesh.axes[i].1).product::<i64>();
        let tiles: Vec<i64> = groups.iter().map(|g| extent(g)).collect();
        let count: i64 = tiles.iter().product();
        let mut devices = Vec::with_capacity(count as usize);
        let mut coord = vec![0i64; mesh.axes.len()];
        for t in 0..count {
            // Tile index t, row-major over `tiles`, to mesh-axis coordinates.
            let mut rem = t;
            for (g, &n) in groups.iter().zip(&tiles).rev() {
                let mut idx = rem % n;
                rem /= n;
                for &i in g.iter().rev() {
                    coord[i] = idx % mesh.axes[i].1;
                    idx /= mesh.axes[i].1;
                }
            }
            let pos = mesh.axes.iter().zip(&coord).fold(0i64, |p, ((_, s), &c)| p * s + c);
            devices.push(match &mesh.device_ids {
                Some(ids) => {
                    *ids.get(pos as usize).ok_or_else(|| format!("the mesh lists {} device ids for {} positions", ids.len(), count))?
                }
                None => pos,
            });
        }
        Ok(Tiling { tiles, devices, replicated_last })
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Punct(char),
    Str(String),
    Sym(String),
    Int(i64),
    Word(String),
}

fn tokens(text: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        match c {
            c if c.is_whitespace() => {
                chars.next();
            }
            '<' | '>' | '[' | ']' | '{' | '}' | '(' | ')' | ',' | '=' | ':' | '?' => {
                out.push(Tok::Punct(c));
                chars.next();
            }
            '"' => {
                chars.next();
                let mut s = String::new();
                loop {
                    match chars.next() {
                        Some((_, '"')) => break,
                        Some((_, '\\')) => match chars.next() {
                            Some((_, e)) => s.push(e),
                            None => return Err("an unterminated string".into()),
                        },
                        Some((_, ch)) => s.push(ch),
                        None => return Err("an unterminated string".into()),
                    }
                }
                out.push(Tok::Str(s));
            }
            '@' | 'a'..='z' | 'A'..='Z' | '_' | '0'..='9' | '-' => {
                let start = i;
                let mut end = i;
                while let Some(&(j, ch)) = chars.peek() {
                    if ch.is_alphanumeric() || matches!(ch, '_' | '@' | '.' | '$' | '-') {
                        end = j + ch.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
                let w = &text[start..end];
                out.push(if let Some(sym) = w.strip_prefix('@') {
                    Tok::Sym(sym.to_string())
                } else if let Ok(n) = w.parse::<i64>() {
                    Tok::Int(n)
                } else {
                    Tok::Word(w.to_string())
                });
            }
            _ => return Err(format!("an unexpected character `{c}`")),
        }
    }
    Ok(out)
}

struct Reader {
    toks: Vec<Tok>,
    at: usize,
}

impl Reader {
    fn new(text: &str) -> Result<Self, String> {
        Ok(Self { toks: tokens(text)?, at: 0 })
    }
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }
    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.at).cloned();
        self.at += 1;
        t
    }
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.eat(c) { Ok(()) } else { Err(format!("expected `{c}` at token {}", self.at)) }
    }
    fn int(&mut self) -> Result<i64, String> {
        match self.next() {
            Some(Tok::Int(n)) => Ok(n),
            _ => Err(format!("expected an integer at token {}", self.at - 1)),
        }
    }
    fn string(&mut self) -> Result<String, String> {
        match self.next() {
            Some(Tok::Str(s)) => Ok(s),
            _ => Err(format!("expected an axis name at token {}", self.at - 1)),
        }
    }
    fn done(&self) -> Result<(), String> {
        if self.at == self.toks.len() { Ok(()) } else { Err(format!("unexpected text after token {}", self.at)) }
    }

    /// Items up to `close` (read), separated by commas; the opening bracket
    /// is already read. Empty when `close` comes first.
    fn list<T>(&mut self, close: char, mut item: impl FnMut(&mut Self) -> Result<T, String>) -> Result<Vec<T>, String> {
        let mut out = Vec::new();
        if self.eat(close) {
            return Ok(out);
        }
        loop {
            out.push(item(self)?);
            if self.eat(close) {
                return Ok(out);
            }
            self.expect(',')?;
        }
    }

    /// `<[axes], device_ids=[...]>` (the leading `<` not yet read).
    fn mesh(&mut self) -> Result<Mesh, String> {
        self.expect('<')?;
        self.expect('[')?;
        let axes = self.list(']', |r| {
            let name = r.string()?;
            r.expect('=')?;
            let size = r.int()?;
            if size < 1 {
                return Err(format!("axis \"{name}\" has size {size}"));
            }
            Ok((name, size))
        })?;
        let mut device_ids = None;
        if self.eat(',') {
            match self.next() {
                Some(Tok::Word(w)) if w == "device_ids" => {}
                _ => return Err("expected `device_ids`".into()),
            }
            self.expect('=')?;
            self.expect('[')?;
            device_ids = Some(self.list(']', Self::int)?);
        }
        self.expect('>')?;
        Ok(Mesh { axes, device_ids })
    }

    /// `{"x", "y":(1)2, ?}` and an optional priority `p<N>`: the axes (an
    /// open `?` ends the list and places nothing).
    fn dim(&mut self) -> Result<Vec<Axis>, String> {
        self.expect('{')?;
        let mut open = false;
        let items = self.list('}', |r| {
            if r.eat('?') {
                open = true;
                return Ok(None);
            }
            let name = r.string()?;
            let mut sub = None;
            if r.eat(':') {
                r.expect('(')?;
                let pre = r.int()?;
                r.expect(')')?;
                sub = Some((pre, r.int()?));
            }
            Ok(Some(Axis { name, sub }))
        })?;
        if open && items.last().is_some_and(Option::is_some) {
            return Err("`?` must come last in a dimension's sharding".into());
        }
        if let Some(Tok::Word(w)) = self.peek()
            && w.starts_with('p')
            && w[1..].parse::<i64>().is_ok()
        {
            self.at += 1;
        }
        Ok(items.into_iter().flatten().collect())
    }

    /// `{"a", "b"}` (a replicated/unreduced list).
    fn axis_names(&mut self) -> Result<Vec<String>, String> {
        self.expect('{')?;
        self.list('}', |r| {
            let name = r.string()?;
            if r.eat(':') {
                return Err("sub-axes in a replicated or unreduced list are not read".into());
            }
            Ok(name)
        })
    }
}

/// Reads a mesh as `sdy.mesh` keeps it: `<["x"=2, "y"=4]>` or
/// `<[], device_ids=[0]>`.
pub fn parse_mesh(text: &str) -> Result<Mesh, String> {
    let mut r = Reader::new(text)?;
    let m = r.mesh()?;
    r.done()?;
    Ok(m)
}

/// Reads a tensor sharding: `<@mesh, [{"x"}, {}]>` (as an op attribute keeps
/// it), or `sharding<@mesh, ...>` (an `#sdy.sharding` attribute's text).
pub fn parse_sharding(text: &str) -> Result<Sharding, String> {
    let text = text.trim();
    let text = text.strip_prefix("sharding").unwrap_or(text);
    let mut r = Reader::new(text)?;
    r.expect('<')?;
    let mesh = match r.next() {
        Some(Tok::Sym(name)) => MeshRef::Named(name),
        Some(Tok::Word(w)) if w == "mesh" => MeshRef::Inline(r.mesh()?),
        _ => return Err("expected a mesh name `@mesh` or an inline `mesh<...>`".into()),
    };
    r.expect(',')?;
    r.expect('[')?;
    let dims = r.list(']', Reader::dim)?;
    let (mut replicated, mut unreduced) = (Vec::new(), Vec::new());
    while r.eat(',') {
        let key = match r.next() {
            Some(Tok::Word(w)) => w,
            _ => return Err("expected `replicated=` or `unreduced=`".into()),
        };
        r.expect('=')?;
        let names = r.axis_names()?;
        match key.as_str() {
            "replicated" => replicated = names,
            "unreduced" => unreduced = names,
            other => return Err(format!("an unknown sharding field `{other}`")),
        }
    }
    r.expect('>')?;
    r.done()?;
    Ok(Sharding { mesh, dims, replicated, unreduced })
}

/// Reads `#sdy.sharding_per_value<[<...>, <...>]>`'s text
/// (`sharding_per_value<[...]>`): one sharding per result.
pub fn parse_sharding_per_value(text: &str) -> Result<Vec<Sharding>, String> {
    let inner = text
        .trim()
        .strip_prefix("sharding_per_value<[")
        .and_then(|t| t.strip_suffix("]>"))
        .ok_or_else(|| "expected `sharding_per_value<[...]>`".to_string())?;
    // Split at top-level commas between `<...>` groups.
    let (mut depth, mut start, mut out) = (0i32, 0usize, Vec::new());
    for (i, c) in inner.char_indices() {
        match c {
            '<' | '[' | '{' | '(' => depth += 1,
            '>' | ']' | '}' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(parse_sharding(&inner[start..i])?);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !inner[start..].trim().is_empty() {
        out.push(parse_sharding(&inner[start..])?);
    }
    Ok(out)
}

/// The number of devices a module runs on: `mhlo.num_replicas` x
/// `mhlo.num_partitions` (1 when it does not say).
pub fn device_count(module: MlirOperation) -> i64 {
    let replicas = raw::int_attr(module, "mhlo.num_replicas").unwrap_or(1);
    let partitions = raw::int_attr(module, "mhlo.num_partitions").unwrap_or(1);
    replicas.saturating_mul(partitions)
}

// ------------------------------------------------ removing annotations ---

/// The names of `op`'s attributes that start with `sdy.`.
fn sdy_attrs(op: MlirOperation) -> Vec<String> {
    // SAFETY: `op` is a live op; its attributes are read below their count.
    let n = unsafe { mlirOperationGetNumAttributes(op) };
    (0..n)
        .map(|i| {
            // SAFETY: `i` is below the count read above; the name is an identifier of the op's context.
            let name = unsafe { mlirIdentifierStr(mlirOperationGetAttribute(op, i).name) };
            raw::string(name)
        })
        .filter(|name| name.starts_with("sdy."))
        .collect()
}

/// `dict` without its `sdy.*` entries; None when it has none.
fn without_sdy(dict: MlirAttribute) -> Option<MlirAttribute> {
    // SAFETY: `dict` is a live attribute; its entries are read only once it is known to be a dictionary, below their
    // count; the new dictionary is built in its context from entries of it.
    unsafe {
        if !mlirAttributeIsADictionary(dict) {
            return None;
        }
        let n = mlirDictionaryAttrGetNumElements(dict);
        let entries: Vec<MlirNamedAttribute> = (0..n).map(|i| mlirDictionaryAttrGetElement(dict, i)).collect();
        let kept: Vec<MlirNamedAttribute> =
            entries.iter().copied().filter(|e| !raw::string(mlirIdentifierStr(e.name)).starts_with("sdy.")).collect();
        (kept.len() != entries.len()).then(|| mlirDictionaryAttrGet(mlirAttributeGetContext(dict), kept.len() as isize, kept.as_ptr()))
    }
}

/// `arg_attrs`/`res_attrs` of a function without `sdy.*` entries.
fn strip_function_attrs(func: MlirOperation, name: &str) {
    let Some(array) = raw::attr(func, name) else { return };
    // SAFETY: `array` is a live attribute of `func`; its elements are read only once it is known to be an array,
    // below their count; the new array is built in its context and set on the live `func`.
    unsafe {
        if !mlirAttributeIsAArray(array) {
            return;
        }
        let n = mlirArrayAttrGetNumElements(array);
        let mut changed = false;
        let elems: Vec<MlirAttribute> = (0..n)
            .map(|i| {
                let e = mlirArrayAttrGetElement(array, i);
                match without_sdy(e) {
                    Some(d) => {
                        changed = true;
                        d
                    }
                    None => e,
                }
            })
            .collect();
        if changed {
            let new = mlirArrayAttrGet(mlirAttributeGetContext(array), elems.len() as isize, elems.as_ptr());
            mlirOperationSetAttributeByName(func, raw::sref(name), new);
        }
    }
}

/// Removes every Shardy annotation of `module`: meshes, sharding constraints
/// (replaced by their operands) and `sdy.*` attributes on ops and on function
/// arguments and results. Returns how many ops and attributes went. (Called
/// once the module's values are whole on each device: a one-device module, or
/// a partitioned one.)
pub fn strip(module: MlirOperation) -> usize {
    // SAFETY: `module` is the live op the pass runs on, borrowed only for this walk.
    let ops = floors_ir::ir::collect_ops(&unsafe { OperationRef::from_raw(module) }, |_| true);
    let mut n = 0;
    let mut meshes = Vec::new();
    for &op in &ops {
        match raw::name(op).as_str() {
            "sdy.mesh" => {
                meshes.push(op);
                continue;
            }
            "sdy.sharding_constraint" => {
                // SAFETY: a live sharding_constraint has one operand and one result of the same type (its verifier);
                // its uses become the operand's, then it is erased and not visited again.
                unsafe {
                    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), mlirOperationGetOperand(op, 0));
                    mlirOperationDestroy(op);
                }
                n += 1;
                continue;
            }
            "func.func" => {
                strip_function_attrs(op, "arg_attrs");
                strip_function_attrs(op, "res_attrs");
            }
            _ => {}
        }
        for name in sdy_attrs(op) {
            // SAFETY: `op` is live; the name is one of its attributes.
            unsafe { mlirOperationRemoveAttributeByName(op, raw::sref(&name)) };
            n += 1;
        }
    }
    for name in sdy_attrs(module) {
        // SAFETY: `module` is the live op the pass runs on; the name is one of its attributes.
        unsafe { mlirOperationRemoveAttributeByName(module, raw::sref(&name)) };
        n += 1;
    }
    for mesh in meshes {
        // SAFETY: a live sdy.mesh: no results and no regions; nothing refers to it once the shardings are gone.
        unsafe { mlirOperationDestroy(mesh) };
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meshes() {
        let m = parse_mesh("<[\"x\"=2, \"y\"=4]>").unwrap();
        assert_eq!(m.axes, vec![("x".into(), 2), ("y".into(), 4)]);
        assert_eq!(m.devices(), 8);
        let m = parse_mesh("<[], device_ids=[0]>").unwrap();
        assert_eq!(m.device_ids, Some(vec![0]));
        assert_eq!(parse_mesh("<[\"x\"=2], device_ids=[1, 0]>").unwrap().devices(), 2);
        assert!(parse_mesh("<[\"x\"=0]>").is_err());
        assert!(parse_mesh("garbage").is_err());
    }

    #[test]
    fn tilings_as_xla_op_shardings() {
        let mesh = parse_mesh("<[\"x\"=2, \"y\"=2]>").unwrap();
        let t = parse_sharding("<@m, [{\"x\"}, {\"y\"}]>").unwrap().tiling(&mesh, 2).unwrap();
        assert_eq!(t, Tiling { tiles: vec![2, 2], devices: vec![0, 1, 2, 3], replicated_last: false });
        // Split by y, replicated over x: devices (y=0: x=0, x=1), (y=1: ...).
        let t = parse_sharding("<@m, [{\"y\"}, {}]>").unwrap().tiling(&mesh, 2).unwrap();
        assert_eq!(t, Tiling { tiles: vec![2, 1, 2], devices: vec![0, 2, 1, 3], replicated_last: true });
        let t = parse_sharding("<@m, [{\"y\", \"x\"}]>").unwrap().tiling(&mesh, 1).unwrap();
        assert_eq!(t.devices, vec![0, 2, 1, 3]);
        assert_eq!(parse_sharding("<@m, [{}, {}]>").unwrap().tiling(&mesh, 2).unwrap(), Tiling::default());
        let ids = parse_mesh("<[\"x\"=4], device_ids=[3, 1, 2, 0]>").unwrap();
        assert_eq!(parse_sharding("<@m, [{\"x\"}]>").unwrap().tiling(&ids, 1).unwrap().devices, vec![3, 1, 2, 0]);
    }

    #[test]
    fn shardings() {
        let s = parse_sharding("<@mesh, [{\"x\"}, {}]>").unwrap();
        assert_eq!(s.mesh, MeshRef::Named("mesh".into()));
        assert_eq!(s.dims, vec![vec![Axis { name: "x".into(), sub: None }], vec![]]);
        assert!(!s.is_replicated());
        let t = parse_sharding("sharding<@mesh, [{\"x\", ?}p1, {\"y\":(1)2}], replicated={\"z\"}>").unwrap();
        assert_eq!(t.dims[1], vec![Axis { name: "y".into(), sub: Some((1, 2)) }]);
        assert_eq!(t.replicated, vec!["z".to_string()]);
        assert!(s.places_like(&parse_sharding("<@mesh, [{\"x\", ?}, {?}]>").unwrap()));
        assert!(!s.places_like(&parse_sharding("<@mesh, [{}, {\"x\"}]>").unwrap()));
        assert!(parse_sharding("<@mesh, []>").unwrap().is_replicated());
        assert!(parse_sharding("<@mesh, [{\"x\"}]").is_err());
        assert_eq!(s.to_string(), "<@mesh, [{\"x\"}, {}]>");
        let v = parse_sharding_per_value("sharding_per_value<[<@m, [{\"x\"}]>, <@m, []>]>").unwrap();
        assert_eq!(v.len(), 2);
        assert!(v[1].is_replicated());
    }
}
