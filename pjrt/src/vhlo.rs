//! VHLO portable artifact (MLIR bytecode) -> StableHLO text.
//!
//! JAX hands `PJRT_Client_Compile` its program as a StableHLO portable
//! artifact; floors reads StableHLO text. The jaxlib the calling process
//! already has can convert it, but not from inside a PJRT call: that call
//! runs with the GIL released by a thread that Python is waiting on, and
//! calling back into the interpreter deadlocks. So the conversion runs in a
//! child process of the same interpreter (`FLOORS_PJRT_PYTHON`, which the
//! Python package sets to `sys.executable`; `python3` otherwise), started
//! once and kept: a request is the artifact's length (u64, little-endian)
//! and bytes, an answer is a status byte (0 text, 1 error message), a length
//! and the text. The text keeps the program's locations (`loc(...)` with the
//! user's Python file and line), so floors' diagnostics point at the user's
//! code. Answers are cached by the artifact's bytes.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};

use crate::error::{Error, Result};

/// The converter's program, run with `python -c`.
const CONVERTER: &str = r#"
import struct, sys
inp, out = sys.stdin.buffer, sys.stdout.buffer
try:
    from jaxlib.mlir import ir
    from jaxlib.mlir.dialects import stablehlo, chlo, sdy
    from jaxlib.mlir import passmanager
    import jaxlib.mlir._mlir_libs._jax_mlir_ext as jax_mlir_ext
    registry = ir.DialectRegistry()
    jax_mlir_ext.register_dialects(registry)
    stablehlo.register_stablehlo_passes()
except Exception as e:
    out.write(b"FAIL " + repr(e).encode() + b"\n"); out.flush(); sys.exit(1)

def context():
    # The dialects JAX's own contexts have (jax._src.interpreters.mlir.make_ir_context).
    ctx = ir.Context()
    ctx.append_dialect_registry(registry)
    ctx.load_all_available_dialects()
    sdy.register_dialect(ctx)
    chlo.register_dialect(ctx)
    stablehlo.register_dialect(ctx)
    return ctx

def devices(module):
    attrs = module.operation.attributes
    n = 1
    for key in ("mhlo.num_replicas", "mhlo.num_partitions"):
        if key in attrs:
            n *= ir.IntegerAttr(attrs[key]).value
    return n

def strip_shardy(module):
    # One device: every Shardy sharding is trivial. Meshes and sharding
    # attributes go, sharding constraints become their operand; anything else
    # of the dialect stays (and floors names it). A program for several
    # devices keeps them all: floors partitions it (floors-hlo-spmd-partition).
    if devices(module) > 1:
        return
    for op in list(module.body.operations):
        if op.operation.name == "sdy.mesh":
            op.operation.erase()
    def visit(op):
        for name in list(op.attributes):
            name = name if isinstance(name, str) else name.name
            if name.startswith("sdy."):
                del op.attributes[name]
        for key in ("arg_attrs", "res_attrs"):
            if key in op.attributes:
                dicts = [ir.DictAttr(d) for d in op.attributes[key]]
                op.attributes[key] = ir.ArrayAttr.get(
                    [ir.DictAttr.get({d[i].name: d[i].attr for i in range(len(d)) if not d[i].name.startswith("sdy.")})
                     for d in dicts])
        if op.name == "sdy.sharding_constraint":
            op.results[0].replace_all_uses_with(op.operands[0])
            op.erase()
            return ir.WalkResult.SKIP
        return ir.WalkResult.ADVANCE
    module.operation.walk(visit)

def sink_constants(module):
    # JAX's compile path folds constants before serializing, and MLIR's folder
    # hoists them to the function entry, out of the regions that use them
    # (sort comparators, reduce bodies ...). JAX's own text never has such
    # captures and floors' regions are isolated: each captured use gets its
    # own copy of the constant, next to it.
    constants = []
    def collect(op):
        if op.name == "stablehlo.constant":
            constants.append(op)
        return ir.WalkResult.ADVANCE
    module.operation.walk(collect)
    for c in constants:
        home = c.parent
        for use in list(c.result.uses):
            user = use.owner
            user = getattr(user, "operation", user)
            if user.parent == home:
                continue
            user.operands[use.operand_number] = c.clone(ip=ir.InsertionPoint(user)).result
        if not list(c.result.uses):
            c.erase()

out.write(b"READY\n"); out.flush()
while True:
    head = inp.read(8)
    if len(head) < 8:
        break
    data = inp.read(struct.unpack("<Q", head)[0])
    try:
        with context():
            try:
                module = stablehlo.deserialize_portable_artifact(ir.Context.current, data)
            except Exception as first:
                # Not a portable artifact: plain StableHLO bytecode.
                try:
                    module = ir.Module.parse(data)
                except Exception:
                    raise first
            strip_shardy(module)
            sink_constants(module)
            # Composites (how a portable artifact carries CHLO ops such as
            # chlo.erf or chlo.top_k) become calls of their decompositions,
            # which floors inlines.
            passmanager.PassManager.parse(
                "builtin.module(func.func(stablehlo-legalize-composite-to-call))").run(module.operation)
            text = module.operation.get_asm(enable_debug_info=True).encode()
        status = 0
    except Exception as e:
        text, status = ("%s: %s" % (type(e).__name__, e)).encode(), 1
    out.write(struct.pack("<BQ", status, len(text)))
    out.write(text)
    out.flush()
"#;

struct Converter {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Converter {
    fn python() -> String {
        std::env::var("FLOORS_PJRT_PYTHON").ok().filter(|s| !s.is_empty()).unwrap_or_else(|| "python3".into())
    }

    fn start() -> Result<Self> {
        let python = Self::python();
        let mut child = Command::new(&python)
            .args(["-c", CONVERTER])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| Error::internal(format!("floors PJRT plugin: cannot start `{python}` to read the program's bytecode: {e}")))?;
        let stdin = child.stdin.take().ok_or_else(|| Error::internal("converter without stdin"))?;
        let mut stdout = BufReader::new(child.stdout.take().ok_or_else(|| Error::internal("converter without stdout"))?);
        let mut line = String::new();
        stdout.read_line(&mut line).map_err(|e| Error::internal(format!("the bytecode converter ({python}): {e}")))?;
        if line.trim_end() != "READY" {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Error::internal(format!(
                "floors PJRT plugin: `{python}` cannot read StableHLO bytecode (jaxlib.mlir is needed; set FLOORS_PJRT_PYTHON to the interpreter that runs JAX): {}",
                line.trim_end()
            )));
        }
        Ok(Self { child, stdin, stdout })
    }

    fn convert(&mut self, bytecode: &[u8]) -> std::io::Result<std::result::Result<String, String>> {
        self.stdin.write_all(&(bytecode.len() as u64).to_le_bytes())?;
        self.stdin.write_all(bytecode)?;
        self.stdin.flush()?;
        let mut head = [0u8; 9];
        self.stdout.read_exact(&mut head)?;
        let n = u64::from_le_bytes(head[1..].try_into().expect("8 bytes")) as usize;
        let mut text = vec![0u8; n];
        self.stdout.read_exact(&mut text)?;
        let text = String::from_utf8_lossy(&text).into_owned();
        Ok(if head[0] == 0 { Ok(text) } else { Err(text) })
    }
}

impl Drop for Converter {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn converter() -> &'static Mutex<Option<Converter>> {
    static C: OnceLock<Mutex<Option<Converter>>> = OnceLock::new();
    C.get_or_init(|| Mutex::new(None))
}

fn cache() -> &'static Mutex<HashMap<Vec<u8>, Arc<str>>> {
    static C: OnceLock<Mutex<HashMap<Vec<u8>, Arc<str>>>> = OnceLock::new();
    C.get_or_init(Default::default)
}

/// Whether `code` is MLIR bytecode (rather than text).
pub fn is_bytecode(code: &[u8]) -> bool {
    code.starts_with(b"ML\xefR")
}

/// The StableHLO text of a portable artifact (or of plain StableHLO bytecode).
pub fn to_text(bytecode: &[u8]) -> Result<Arc<str>> {
    if let Some(text) = cache().lock().unwrap_or_else(|e| e.into_inner()).get(bytecode) {
        return Ok(text.clone());
    }
    let mut slot = converter().lock().unwrap_or_else(|e| e.into_inner());
    // One retry with a fresh process if the old one died.
    let mut answer = None;
    for _ in 0..2 {
        if slot.is_none() {
            *slot = Some(Converter::start()?);
        }
        match slot.as_mut().expect("started").convert(bytecode) {
            Ok(a) => {
                answer = Some(a);
                break;
            }
            Err(_) => *slot = None,
        }
    }
    drop(slot);
    match answer {
        Some(Ok(text)) => {
            let text: Arc<str> = text.into();
            cache().lock().unwrap_or_else(|e| e.into_inner()).insert(bytecode.to_vec(), text.clone());
            Ok(text)
        }
        Some(Err(message)) => Err(Error::invalid(format!("the program's bytecode cannot be read as StableHLO: {message}"))),
        None => Err(Error::internal("floors PJRT plugin: the bytecode converter process died twice")),
    }
}
