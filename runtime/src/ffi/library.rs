//! Handler libraries: shared objects opened with `dlopen` (kept loaded for
//! the life of the process: handlers, their static state and registered
//! type deleters live in them), and the `--ffi-lib` spec that says which of
//! their symbols are handlers of which targets.

use std::ffi::{CStr, CString, c_void};
use std::sync::Arc;

use super::api::{register_type, type_info_deleter};
use super::binding::Stage;
use super::c_api::*;

/// A loaded handler library.
pub struct FfiLibrary {
    handle: *mut c_void,
    pub path: String,
}

// SAFETY: a dlopen handle may be used from any thread (dlsym is thread-safe).
unsafe impl Send for FfiLibrary {}
unsafe impl Sync for FfiLibrary {}

fn dl_error() -> String {
    let e = unsafe { libc::dlerror() };
    if e.is_null() { "unknown dlopen error".into() } else { unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned() }
}

impl FfiLibrary {
    /// Opens `path` (`RTLD_NOW | RTLD_LOCAL`; never closed).
    pub fn open(path: &str) -> Result<Arc<Self>, String> {
        if !std::path::Path::new(path).exists() {
            return Err("no such file".into());
        }
        let c = CString::new(path).map_err(|_| "the path has a NUL byte".to_string())?;
        let handle = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        if handle.is_null() {
            return Err(dl_error());
        }
        Ok(Arc::new(Self { handle, path: path.to_string() }))
    }

    pub fn symbol(&self, name: &str) -> Result<*mut c_void, String> {
        let c = CString::new(name).map_err(|_| format!("symbol `{name}` has a NUL byte"))?;
        let p = unsafe { libc::dlsym(self.handle, c.as_ptr()) };
        if p.is_null() { Err(format!("no symbol `{name}`")) } else { Ok(p) }
    }

    /// Symbol `name` as an FFI handler (`XLA_FFI_DEFINE_HANDLER_SYMBOL`).
    pub fn handler(&self, name: &str) -> Result<XLA_FFI_Handler, String> {
        let p = self.symbol(name)?;
        // SAFETY: the user says this symbol is an XLA FFI handler.
        Ok(unsafe { std::mem::transmute::<*mut c_void, XLA_FFI_Handler>(p) })
    }

    /// Registers user type `name` from the library's type-id function (and
    /// type-info function: the deleter of its objects).
    pub fn register_type(&self, name: &str, id_symbol: &str, info_symbol: Option<&str>) -> Result<(), String> {
        type IdFn = unsafe extern "C" fn() -> *mut XLA_FFI_TypeId;
        type InfoFn = unsafe extern "C" fn() -> *const XLA_FFI_TypeInfo;
        let id_fn = unsafe { std::mem::transmute::<*mut c_void, IdFn>(self.symbol(id_symbol)?) };
        let id = unsafe { id_fn() };
        if id.is_null() {
            return Err(format!("`{id_symbol}()` returned NULL"));
        }
        let deleter = match info_symbol {
            Some(s) => {
                let info_fn = unsafe { std::mem::transmute::<*mut c_void, InfoFn>(self.symbol(s)?) };
                let info = unsafe { info_fn() };
                if info.is_null() {
                    return Err(format!("`{s}()` returned NULL"));
                }
                unsafe { type_info_deleter(info) }
            }
            None => None,
        };
        let mut v = unsafe { (*id).type_id };
        register_type(name, &mut v, deleter).map_err(|e| format!("type `{name}`: {e}"))?;
        unsafe { (*id).type_id = v };
        Ok(())
    }
}

/// One item of an `--ffi-lib` spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecItem {
    /// `[STAGE:]SYMBOL[=TARGET]`.
    Handler { stage: Stage, symbol: String, target: String },
    /// `type:IDSYMBOL[+INFOSYMBOL]=NAME`.
    Type { name: String, id_symbol: String, info_symbol: Option<String> },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibrarySpec {
    pub path: String,
    pub items: Vec<SpecItem>,
}

/// Parses `PATH[:ITEM,...]`: the items start at the first `:` after the
/// path's last `/`.
pub fn parse_spec(spec: &str) -> Result<LibrarySpec, String> {
    let name_start = spec.rfind('/').map_or(0, |i| i + 1);
    let (path, items) = match spec[name_start..].find(':') {
        Some(i) => (&spec[..name_start + i], Some(&spec[name_start + i + 1..])),
        None => (spec, None),
    };
    if path.is_empty() {
        return Err("no library path (expected PATH[:SYMBOL=TARGET,...])".into());
    }
    let mut out = Vec::new();
    for item in items.into_iter().flat_map(|s| s.split(',')) {
        let item = item.trim();
        if item.is_empty() {
            return Err("an empty item (expected PATH[:SYMBOL=TARGET,...])".into());
        }
        let (lhs, target) = match item.split_once('=') {
            Some((l, t)) => (l.trim(), Some(t.trim())),
            None => (item, None),
        };
        let bad = |what: &str| format!("`{item}`: {what}");
        if let Some(syms) = lhs.strip_prefix("type:") {
            let name = target.filter(|t| !t.is_empty()).ok_or_else(|| bad("a type needs a name: type:IDSYMBOL[+INFOSYMBOL]=NAME"))?;
            let (id, info) = match syms.split_once('+') {
                Some((i, n)) => (i.trim(), Some(n.trim().to_string())),
                None => (syms.trim(), None),
            };
            if id.is_empty() || info.as_deref() == Some("") {
                return Err(bad("an empty symbol"));
            }
            out.push(SpecItem::Type { name: name.to_string(), id_symbol: id.to_string(), info_symbol: info });
            continue;
        }
        let (stage, symbol) = match lhs.split_once(':') {
            Some((s, sym)) => (
                Stage::from_name(s.trim())
                    .ok_or_else(|| bad(&format!("unknown stage `{s}` (instantiate, prepare, initialize, execute or type)")))?,
                sym.trim(),
            ),
            None => (Stage::Execute, lhs),
        };
        if symbol.is_empty() || target == Some("") {
            return Err(bad("an empty symbol or target"));
        }
        out.push(SpecItem::Handler { stage, symbol: symbol.to_string(), target: target.unwrap_or(symbol).to_string() });
    }
    Ok(LibrarySpec { path: path.to_string(), items: out })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!(parse_spec("/a/lib.so").unwrap(), LibrarySpec { path: "/a/lib.so".into(), items: vec![] });
        let s = parse_spec("./x:y/lib.so:RmsNorm=rms_norm,instantiate:CInit=counter,CExec=counter,type:cid+cinfo=cstate,f").unwrap();
        assert_eq!(s.path, "./x:y/lib.so");
        assert_eq!(
            s.items,
            vec![
                SpecItem::Handler { stage: Stage::Execute, symbol: "RmsNorm".into(), target: "rms_norm".into() },
                SpecItem::Handler { stage: Stage::Instantiate, symbol: "CInit".into(), target: "counter".into() },
                SpecItem::Handler { stage: Stage::Execute, symbol: "CExec".into(), target: "counter".into() },
                SpecItem::Type { name: "cstate".into(), id_symbol: "cid".into(), info_symbol: Some("cinfo".into()) },
                SpecItem::Handler { stage: Stage::Execute, symbol: "f".into(), target: "f".into() },
            ]
        );
        for bad in ["", ":a=b", "lib.so:", "lib.so:a=b,,c", "lib.so:later:f=g", "lib.so:type:x", "lib.so:f="] {
            assert!(parse_spec(bad).is_err(), "{bad}");
        }
    }
}
