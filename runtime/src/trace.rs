//! A timeline of a run as Chrome trace-event JSON (what `ui.perfetto.dev`
//! and `chrome://tracing` open): one track per thread that did work, one
//! slice per piece of work, and named tracks for what is not a thread's
//! work (the compile phases).
//!
//! Recording is opt-in: a [`Trace`] passed to
//! [`Executable::execute_traced`](crate::Executable::execute_traced) (or to
//! the compiler's traced entry points) collects complete events (`"ph":
//! "X"`, `ts`/`dur` in microseconds since the trace began); without one the
//! runtime does no timing at all. What is recorded:
//! - `kernel` slices: one per kernel call on the thread that made it. A
//!   kernel split into workgroups across the pool has one slice per
//!   workgroup on the worker that ran it; args: `grid`, `workgroups` (the
//!   linear range that call ran), `bytes_read`, `bytes_written` (the kernel's
//!   arguments).
//! - `copy` and `custom_call` slices, with the bytes they read and write.
//! - `control` slices around `while` and `conditional` thunks, and the
//!   `execute` slice around a whole execution on the calling thread (args:
//!   the executor's mode, threads, thunks). These enclose the work that ran
//!   inside them on the same thread; everything else on a thread's track
//!   never overlaps.
//! - slices on named tracks (`compile`, `compile passes`), recorded by
//!   whoever times them.
//!
//! Thread tracks are named `caller` (a thread outside the pool, usually the
//! one that called `execute`) and `worker N` (rayon's index in the pool).

use std::{
    collections::HashMap,
    fmt::Write as _,
    path::Path,
    sync::Mutex,
    thread::ThreadId,
    time::{Duration, Instant},
};

use crate::error::{Error, Result};

/// A value in a slice's `args`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceArg {
    Str(String),
    Int(u64),
    Ints(Vec<u64>),
}

impl From<&str> for TraceArg {
    fn from(s: &str) -> Self {
        TraceArg::Str(s.to_string())
    }
}

impl From<String> for TraceArg {
    fn from(s: String) -> Self {
        TraceArg::Str(s)
    }
}

impl From<u64> for TraceArg {
    fn from(v: u64) -> Self {
        TraceArg::Int(v)
    }
}

impl From<usize> for TraceArg {
    fn from(v: usize) -> Self {
        TraceArg::Int(v as u64)
    }
}

impl From<&[u64]> for TraceArg {
    fn from(v: &[u64]) -> Self {
        TraceArg::Ints(v.to_vec())
    }
}

/// Arguments of one slice, in order.
pub type TraceArgs = Vec<(&'static str, TraceArg)>;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum TrackKey {
    Thread(ThreadId),
    Named(String),
}

#[derive(Clone, Debug)]
struct Track {
    tid: u32,
    name: String,
    sort_index: i64,
}

#[derive(Clone, Debug)]
struct Event {
    tid: u32,
    cat: &'static str,
    name: String,
    start: Duration,
    dur: Duration,
    args: TraceArgs,
}

#[derive(Default)]
struct State {
    tracks: HashMap<TrackKey, Track>,
    events: Vec<Event>,
    metadata: Vec<(String, String)>,
    callers: usize,
}

/// A trace being recorded. Shareable across threads (`&Trace` is `Sync`);
/// slices may be added from any thread at any time.
pub struct Trace {
    epoch: Instant,
    process_name: String,
    state: Mutex<State>,
}

/// One recorded slice, as [`Trace::slices`] gives it.
#[derive(Clone, Debug)]
pub struct Slice {
    /// The track's name (`caller`, `worker 0`, `compile`, ...) and id.
    pub track: String,
    pub tid: u32,
    pub cat: &'static str,
    pub name: String,
    /// Since the trace began.
    pub start: Duration,
    pub dur: Duration,
    pub args: TraceArgs,
}

/// The named track compile phases go on.
pub const COMPILE_TRACK: &str = "compile";

/// The named track single passes go on (nested pass managers nest).
pub const PASSES_TRACK: &str = "compile passes";

impl Trace {
    /// A trace whose process is called `process_name` in the viewer.
    pub fn new(process_name: impl Into<String>) -> Self {
        Self { epoch: Instant::now(), process_name: process_name.into(), state: Mutex::new(State::default()) }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn offset(&self, t: Instant) -> Duration {
        t.saturating_duration_since(self.epoch)
    }

    fn track(state: &mut State, key: TrackKey) -> u32 {
        let next = state.tracks.len() as u32 + 1;
        if let Some(t) = state.tracks.get(&key) {
            return t.tid;
        }
        let (name, sort_index) = match &key {
            TrackKey::Named(n) => {
                let sort = match n.as_str() {
                    COMPILE_TRACK => -20,
                    PASSES_TRACK => -19,
                    _ => -10,
                };
                (n.clone(), sort)
            }
            TrackKey::Thread(_) => match rayon::current_thread_index() {
                Some(i) => (format!("worker {i}"), 1 + i as i64),
                None => {
                    state.callers += 1;
                    let name = if state.callers == 1 { "caller".to_string() } else { format!("caller {}", state.callers) };
                    (name, 0)
                }
            },
        };
        state.tracks.insert(key, Track { tid: next, name, sort_index });
        next
    }

    /// A slice on the current thread's track, from `start` to `end`.
    pub fn slice(&self, cat: &'static str, name: impl Into<String>, start: Instant, end: Instant, args: TraceArgs) {
        let (start, end) = (self.offset(start), self.offset(end));
        let mut state = self.state();
        let tid = Self::track(&mut state, TrackKey::Thread(std::thread::current().id()));
        state.events.push(Event { tid, cat, name: name.into(), start, dur: end.saturating_sub(start), args });
    }

    /// A slice on the named track `track` (e.g. [`COMPILE_TRACK`]).
    pub fn slice_on(&self, track: &str, cat: &'static str, name: impl Into<String>, start: Instant, end: Instant, args: TraceArgs) {
        let (start, end) = (self.offset(start), self.offset(end));
        let mut state = self.state();
        let tid = Self::track(&mut state, TrackKey::Named(track.to_string()));
        state.events.push(Event { tid, cat, name: name.into(), start, dur: end.saturating_sub(start), args });
    }

    /// Runs `f` and records it as the phase `name` on the compile track.
    pub fn phase<T>(&self, name: &str, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let out = f();
        self.slice_on(COMPILE_TRACK, "compile", name, start, Instant::now(), Vec::new());
        out
    }

    /// Runs `f` and records it as a slice `name` (category `cat`) on this thread's track.
    pub fn span<T>(&self, cat: &'static str, name: &str, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let out = f();
        self.slice(cat, name, start, Instant::now(), Vec::new());
        out
    }

    /// Sets a key of the trace's metadata (`otherData` in the JSON).
    pub fn set_metadata(&self, key: &str, value: impl Into<String>) {
        let value = value.into();
        let mut state = self.state();
        match state.metadata.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => state.metadata.push((key.to_string(), value)),
        }
    }

    /// The slices recorded so far, in start order, with their track's name.
    pub fn slices(&self) -> Vec<Slice> {
        let state = self.state();
        let names: HashMap<u32, &str> = state.tracks.values().map(|t| (t.tid, t.name.as_str())).collect();
        let mut out: Vec<Slice> = state
            .events
            .iter()
            .map(|e| Slice {
                track: names.get(&e.tid).copied().unwrap_or_default().to_string(),
                tid: e.tid,
                cat: e.cat,
                name: e.name.clone(),
                start: e.start,
                dur: e.dur,
                args: e.args.clone(),
            })
            .collect();
        out.sort_by(|a, b| a.start.cmp(&b.start).then(b.dur.cmp(&a.dur)));
        out
    }

    /// Number of slices recorded so far.
    pub fn len(&self) -> usize {
        self.state().events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The trace as Chrome trace-event JSON: `{"traceEvents": [...],
    /// "displayTimeUnit": "ms", "otherData": {...}}`; metadata events name the
    /// process and every track, then the slices in start order.
    pub fn to_json(&self) -> String {
        let state = self.state();
        let pid = std::process::id();
        let mut out = String::from("{\"traceEvents\":[\n");
        let mut first = true;
        let mut push = |out: &mut String, event: String| {
            if !first {
                out.push_str(",\n");
            }
            first = false;
            out.push_str(&event);
        };
        push(
            &mut out,
            format!(
                "{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{pid},\"tid\":0,\"args\":{{\"name\":{}}}}}",
                json_string(&self.process_name)
            ),
        );
        let mut tracks: Vec<&Track> = state.tracks.values().collect();
        tracks.sort_by_key(|t| (t.sort_index, t.tid));
        for t in tracks {
            push(
                &mut out,
                format!(
                    "{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{pid},\"tid\":{},\"args\":{{\"name\":{}}}}}",
                    t.tid,
                    json_string(&t.name)
                ),
            );
            push(
                &mut out,
                format!(
                    "{{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":{pid},\"tid\":{},\"args\":{{\"sort_index\":{}}}}}",
                    t.tid, t.sort_index
                ),
            );
        }
        let mut events: Vec<&Event> = state.events.iter().collect();
        // Start order; at equal starts the longer (enclosing) slice first.
        events.sort_by(|a, b| a.start.cmp(&b.start).then(b.dur.cmp(&a.dur)));
        for e in events {
            let mut s = format!(
                "{{\"name\":{},\"cat\":\"{}\",\"ph\":\"X\",\"ts\":{},\"dur\":{},\"pid\":{pid},\"tid\":{}",
                json_string(&e.name),
                e.cat,
                micros(e.start),
                micros(e.dur),
                e.tid
            );
            if !e.args.is_empty() {
                s.push_str(",\"args\":{");
                for (i, (k, v)) in e.args.iter().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    let _ = write!(s, "{}:", json_string(k));
                    match v {
                        TraceArg::Str(x) => s.push_str(&json_string(x)),
                        TraceArg::Int(x) => {
                            let _ = write!(s, "{x}");
                        }
                        TraceArg::Ints(xs) => {
                            let items: Vec<String> = xs.iter().map(u64::to_string).collect();
                            let _ = write!(s, "[{}]", items.join(","));
                        }
                    }
                }
                s.push('}');
            }
            s.push('}');
            push(&mut out, s);
        }
        out.push_str("\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":{");
        for (i, (k, v)) in state.metadata.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "{}:{}", json_string(k), json_string(v));
        }
        out.push_str("}}\n");
        out
    }

    /// Writes [`Trace::to_json`] to `path`.
    pub fn write(&self, path: &Path) -> Result<()> {
        std::fs::write(path, self.to_json()).map_err(|source| Error::Io { path: path.into(), source })
    }
}

/// Microseconds with nanosecond precision, as the format wants `ts`/`dur`.
fn micros(d: Duration) -> String {
    let ns = d.as_nanos();
    format!("{}.{:03}", ns / 1000, ns % 1000)
}

/// `s` as a JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// [`Trace::phase`] when there may be no trace.
pub fn phase<T>(trace: Option<&Trace>, name: &str, f: impl FnOnce() -> T) -> T {
    // `-vv` shows where a compile goes even without a trace (a trace with pass
    // slices runs the passes on one thread, so it is not the same timing).
    let start = Instant::now();
    let out = match trace {
        Some(t) => t.phase(name, f),
        None => f(),
    };
    tracing::debug!(phase = name, ms = format!("{:.1}", start.elapsed().as_secs_f64() * 1e3), "compile phase");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_has_tracks_slices_and_metadata() {
        let t = Trace::new("test \"proc\"");
        let a = Instant::now();
        t.slice("kernel", "fusion_0", a, a + Duration::from_nanos(1500), vec![("grid", TraceArg::Ints(vec![2, 1, 1]))]);
        t.phase("parse", || ());
        t.set_metadata("executor_mode", "dataflow");
        let json = t.to_json();
        assert!(json.starts_with("{\"traceEvents\":["), "{json}");
        assert!(json.contains("\"name\":\"test \\\"proc\\\"\""), "{json}");
        assert!(json.contains("\"args\":{\"name\":\"caller\"}"), "{json}");
        assert!(json.contains("\"args\":{\"name\":\"compile\"}"), "{json}");
        assert!(json.contains("\"dur\":1.500"), "{json}");
        assert!(json.contains("\"args\":{\"grid\":[2,1,1]}"), "{json}");
        assert!(json.contains("\"otherData\":{\"executor_mode\":\"dataflow\"}"), "{json}");
        assert_eq!(t.len(), 2);
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
    }
}
