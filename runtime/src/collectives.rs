//! Collectives of SPMD programs run on N in-process devices.
//!
//! An SPMD program is one per-device program that N = replicas × partitions
//! devices run at once, each on its own thread, exchanging data through
//! collectives. The compiler turns each StableHLO collective into a custom
//! call of one of the targets below, with typed attributes (see
//! [`crate::ffi::Attrs`]); the runtime builds a [`CollectiveThunk`] for it
//! instead of resolving an FFI handler. Each device's run carries a
//! [`DeviceRun`]: its replica and partition, the [`Communicator`] all devices
//! share, and how often it has called each collective. The members of a
//! process group meet at a rendezvous keyed by (thunk, call number, members);
//! each computes its own results from the other members' input buffers, read
//! where they lie (as XLA:CPU's in-process collectives do), and leaves once
//! every member has finished reading its inputs.
//!
//! Process groups follow the StableHLO spec. Device (replica r, partition p)
//! of R × P has flat id r·P + p; `replica_groups` is a row-major i64 array of
//! rows `group_size` long (-1 entries are padding), read by `mode`:
//! - `cross_replica`: groups of replica ids; members (r', p) for r' in my group;
//! - `cross_partition`: groups of partition ids; members (r, p') for p' in mine;
//! - `cross_replica_and_partition`: groups of replica ids; members (r', p')
//!   for r' in my group and every partition p';
//! - `flattened_ids`: groups of flat ids.
//!
//! No groups at all means one group of every replica (partition, flat id).
//! A run without a device (`ExecuteContext::device` is `None`, as in
//! [`crate::Executable::execute`]) is the only device of a 1 × 1 layout, so a
//! program whose groups fit one device still runs there.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::buffer::{BufferSlice, BufferUse};
use crate::error::RuntimeError;
use crate::ffi::{Attr, Attrs, DataType};
use crate::npy::{ElementType, TensorSpec};
use crate::thunk::{CustomCallInfo, ExecuteContext, Thunk, ThunkKind};

/// `stablehlo.all_reduce`: operands → results of the same types, each the
/// elementwise reduction of the group's operands in group order.
pub const ALL_REDUCE: &str = "floors.all_reduce";
/// `stablehlo.all_gather`: the group's operands concatenated along `dimension`.
pub const ALL_GATHER: &str = "floors.all_gather";
/// `stablehlo.reduce_scatter`: block k (this device's position in its group)
/// along `dimension` of the all-reduced operand.
pub const REDUCE_SCATTER: &str = "floors.reduce_scatter";
/// `stablehlo.all_to_all`: block j along `split_dimension` goes to member j;
/// the blocks received are concatenated along `concat_dimension`.
pub const ALL_TO_ALL: &str = "floors.all_to_all";
/// `stablehlo.collective_permute`: the operand of the device whose target
/// this device is (`source_target_pairs`), or zeros.
pub const COLLECTIVE_PERMUTE: &str = "floors.collective_permute";
/// `stablehlo.collective_broadcast`: the operand of the group's first member.
pub const COLLECTIVE_BROADCAST: &str = "floors.collective_broadcast";
/// `stablehlo.replica_id`: this device's replica as a `tensor<ui32>`.
pub const REPLICA_ID: &str = "floors.replica_id";
/// `stablehlo.partition_id`: this device's partition as a `tensor<ui32>`.
pub const PARTITION_ID: &str = "floors.partition_id";

/// Every collective target.
pub const TARGETS: [&str; 8] =
    [ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, COLLECTIVE_PERMUTE, COLLECTIVE_BROADCAST, REPLICA_ID, PARTITION_ID];

/// Whether `target` is a collective the runtime runs itself (a
/// [`CollectiveThunk`]) rather than through an FFI handler.
pub fn is_collective(target: &str) -> bool {
    TARGETS.contains(&target)
}

/// Seconds a device waits at a collective for the other members before the
/// collective fails (naming the devices that never arrived).
pub const TIMEOUT_ENV: &str = "FLOORS_COLLECTIVE_TIMEOUT_S";
/// The wait when [`TIMEOUT_ENV`] is unset (or not a positive number).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// The wait [`TIMEOUT_ENV`] asks for, else [`DEFAULT_TIMEOUT`].
pub fn timeout_from_env() -> Duration {
    std::env::var(TIMEOUT_ENV)
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| *s > 0.0)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .unwrap_or(DEFAULT_TIMEOUT)
}

// ---------------------------------------------------------------------------

/// Where a device sits in an SPMD layout of `num_replicas` ×
/// `num_partitions` devices; its flat id is `replica * num_partitions + partition`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub replica: u32,
    pub partition: u32,
    pub num_replicas: u32,
    pub num_partitions: u32,
}

impl Placement {
    /// The only device of a one-device run.
    pub const SINGLE: Placement = Placement { replica: 0, partition: 0, num_replicas: 1, num_partitions: 1 };

    pub fn flat_id(&self) -> usize {
        self.replica as usize * self.num_partitions as usize + self.partition as usize
    }

    pub fn num_devices(&self) -> usize {
        self.num_replicas as usize * self.num_partitions as usize
    }

    /// The device of flat id `id` in the same layout.
    pub fn of_flat_id(&self, id: usize) -> Placement {
        let p = self.num_partitions.max(1) as usize;
        Placement { replica: (id / p) as u32, partition: (id % p) as u32, ..*self }
    }
}

impl fmt::Display for Placement {
    /// `(replica r, partition p)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(replica {}, partition {})", self.replica, self.partition)
    }
}

/// One device's part in an SPMD run: where it sits, the communicator it
/// shares with the other devices, and how often it has called each
/// collective thunk (the call number is part of the rendezvous key, so the
/// members of a collective in a loop meet once per iteration).
pub struct DeviceRun {
    pub replica: u32,
    pub partition: u32,
    pub num_replicas: u32,
    pub num_partitions: u32,
    communicator: Arc<Communicator>,
    calls: Mutex<HashMap<u64, u64>>,
}

impl DeviceRun {
    /// Device (`replica`, `partition`) of `communicator`'s layout.
    ///
    /// # Panics
    /// When the device is outside that layout (a caller's bug, not a program's).
    pub fn new(communicator: Arc<Communicator>, replica: u32, partition: u32) -> Self {
        let (num_replicas, num_partitions) = (communicator.num_replicas(), communicator.num_partitions());
        assert!(
            replica < num_replicas && partition < num_partitions,
            "device (replica {replica}, partition {partition}) is outside {num_replicas} x {num_partitions}"
        );
        Self { replica, partition, num_replicas, num_partitions, communicator, calls: Mutex::new(HashMap::new()) }
    }

    pub fn placement(&self) -> Placement {
        Placement { replica: self.replica, partition: self.partition, num_replicas: self.num_replicas, num_partitions: self.num_partitions }
    }

    pub fn flat_id(&self) -> usize {
        self.placement().flat_id()
    }

    pub fn communicator(&self) -> &Arc<Communicator> {
        &self.communicator
    }

    /// How often this device has called collective thunk `thunk`
    /// ([`CollectiveThunk::id`]) with a group of more than itself.
    pub fn calls(&self, thunk: u64) -> u64 {
        self.calls.lock().unwrap_or_else(|e| e.into_inner()).get(&thunk).copied().unwrap_or(0)
    }

    /// The number of this call of `thunk` (0 for the first), counted.
    pub(crate) fn next_call(&self, thunk: u64) -> u64 {
        let mut calls = self.calls.lock().unwrap_or_else(|e| e.into_inner());
        let n = calls.entry(thunk).or_insert(0);
        *n += 1;
        *n - 1
    }
}

/// Stack of a device thread: that of a main thread, since a device runs
/// what a one-device run runs on the caller's thread.
const DEVICE_STACK_BYTES: usize = 8 << 20;

/// Aborts a communicator when a device thread unwinds (a panic), so the
/// other devices' collectives return instead of waiting for it.
struct AbortOnPanic<'a>(&'a DeviceRun);

impl Drop for AbortOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.communicator.abort(format!("device {} panicked", self.0.placement()));
        }
    }
}

/// Runs `run` once for every device of `communicator`'s layout, each on its
/// own thread; the results in flat id order. A device whose run fails aborts
/// the communicator (`device (replica r, partition p) failed: ...`), so the
/// others' collectives return instead of waiting for it; a device thread
/// that panics aborts it too, and the panic goes on to the caller. Err: a
/// thread could not be started (the ones started have finished).
pub fn run_devices<T: Send, E: fmt::Display + Send>(
    communicator: &Arc<Communicator>,
    run: impl Fn(&DeviceRun) -> Result<T, E> + Sync,
) -> std::io::Result<Vec<Result<T, E>>> {
    let (replicas, partitions) = (communicator.num_replicas(), communicator.num_partitions());
    let run = &run;
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        let mut failed = None;
        for id in 0..replicas * partitions {
            let device = DeviceRun::new(communicator.clone(), id / partitions, id % partitions);
            let thread = std::thread::Builder::new().name(format!("floors-device-{id}")).stack_size(DEVICE_STACK_BYTES);
            let spawned = thread.spawn_scoped(scope, move || {
                let _guard = AbortOnPanic(&device);
                let r = run(&device);
                if let Err(e) = &r {
                    device.communicator.abort(format!("device {} failed: {e}", device.placement()));
                }
                r
            });
            match spawned {
                Ok(h) => handles.push(h),
                Err(e) => {
                    communicator.abort(format!("the thread of device {id} could not be started: {e}"));
                    failed = Some(e);
                    break;
                }
            }
        }
        let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect();
        match failed {
            Some(e) => Err(e),
            None => Ok(results),
        }
    })
}

// ---------------------------------------------------------------------------

/// Marks the second meeting of a two-phase all-reduce (thunk ids come from
/// a counter and never reach this bit).
const ALL_GATHER_PHASE: u64 = 1 << 63;

/// Bytes of output a reduction folds every member into at a time: small
/// enough to stay in L1/L2 across the members, a multiple of every element
/// size.
const REDUCE_BLOCK_BYTES: usize = 16 << 10;

/// A rendezvous: the `call`-th call (counted per device, from 0) of
/// collective thunk `thunk` by the group `members` (flat ids, group order).
#[derive(Clone, Copy, Debug)]
pub struct Meeting<'a> {
    pub thunk: u64,
    pub call: u64,
    pub members: &'a [usize],
}

/// What one member computes once every member has arrived: its results,
/// from the members' inputs (`peers[m][i]`: input `i` of member `m`, group order).
pub type Compute<'a> = &'a mut dyn FnMut(&[Vec<&[u8]>]) -> Result<(), String>;

/// Why an exchange did not complete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExchangeError {
    /// The communicator was aborted (another device failed): its reason.
    Aborted(String),
    /// These members (flat ids) had not arrived when the wait ran out.
    TimedOut { missing: Vec<usize>, after: Duration },
    /// This member arrived after the others had stopped waiting (timed out).
    Late,
    /// The exchange or the computation failed.
    Failed(String),
}

/// How the devices of one SPMD run exchange data: in one process over shared
/// memory, or (feature `mpi`) one device per MPI process, which gathers the
/// members' inputs instead of reading them in place
/// (`crate::mpi_transport`).
pub struct Communicator {
    num_replicas: u32,
    num_partitions: u32,
    timeout: Duration,
    transport: Transport,
}

/// The ways a [`Communicator`] can move data between devices.
enum Transport {
    InProcess(InProcess),
    /// One device per MPI process (feature `mpi`): the job, the abort reason
    /// kept here, and the MPI rank of each flat id (the process that runs it).
    #[cfg(feature = "mpi")]
    Mpi(Arc<crate::mpi_transport::Mpi>, Mutex<Option<String>>, Vec<usize>),
}

impl Communicator {
    /// Devices that are threads of this process, waiting [`timeout_from_env`].
    pub fn in_process(num_replicas: u32, num_partitions: u32) -> Self {
        Self::in_process_with_timeout(num_replicas, num_partitions, timeout_from_env())
    }

    /// As [`Communicator::in_process`], waiting at most `timeout` for the
    /// other members of a collective.
    pub fn in_process_with_timeout(num_replicas: u32, num_partitions: u32, timeout: Duration) -> Self {
        let transport = Transport::InProcess(InProcess { state: Mutex::new(State::default()), changed: Condvar::new() });
        Self { num_replicas, num_partitions, timeout, transport }
    }

    /// Devices that are the processes of an MPI job (rank = flat id).
    #[cfg(feature = "mpi")]
    pub fn mpi(num_replicas: u32, num_partitions: u32, mpi: Arc<crate::mpi_transport::Mpi>) -> Self {
        let ranks = (0..(num_replicas * num_partitions) as usize).collect();
        Self::mpi_placed(num_replicas, num_partitions, mpi, ranks)
    }

    /// Devices that are the processes of an MPI job, flat id `f` running as
    /// rank `ranks[f]` (a device assignment that is not the identity: the
    /// PJRT plugin under `jax.distributed`).
    #[cfg(feature = "mpi")]
    pub fn mpi_placed(num_replicas: u32, num_partitions: u32, mpi: Arc<crate::mpi_transport::Mpi>, ranks: Vec<usize>) -> Self {
        let transport = Transport::Mpi(mpi, Mutex::new(None), ranks);
        Self { num_replicas, num_partitions, timeout: timeout_from_env(), transport }
    }

    /// The MPI job this communicator runs in, if it is one.
    #[cfg(feature = "mpi")]
    pub fn mpi_job(&self) -> Option<&crate::mpi_transport::Mpi> {
        match &self.transport {
            Transport::Mpi(m, _, _) => Some(m),
            Transport::InProcess(_) => None,
        }
    }

    pub fn num_replicas(&self) -> u32 {
        self.num_replicas
    }

    pub fn num_partitions(&self) -> u32 {
        self.num_partitions
    }

    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Fails every collective waiting now or started later with `reason`
    /// (the first reason given is kept): called when a device's run fails,
    /// so the others do not wait for it.
    pub fn abort(&self, reason: impl Into<String>) {
        match &self.transport {
            Transport::InProcess(t) => t.abort(reason.into()),
            #[cfg(feature = "mpi")]
            Transport::Mpi(_, r, _) => {
                r.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(reason.into());
            }
        }
    }

    /// The reason the communicator was aborted with, if it was.
    pub fn aborted(&self) -> Option<String> {
        match &self.transport {
            Transport::InProcess(t) => t.lock().aborted.clone(),
            #[cfg(feature = "mpi")]
            Transport::Mpi(_, r, _) => r.lock().unwrap_or_else(|e| e.into_inner()).clone(),
        }
    }

    /// Member `me` (a flat id) of `meeting.members` offers `inputs`, waits
    /// until every member has arrived, runs `compute` on every member's
    /// inputs, then waits until every member has finished reading before it
    /// returns (so `inputs` may be overwritten afterwards).
    pub fn exchange(&self, meeting: Meeting<'_>, me: usize, inputs: &[&[u8]], compute: Compute<'_>) -> Result<(), ExchangeError> {
        match &self.transport {
            Transport::InProcess(t) => t.exchange(meeting, me, inputs, compute, self.timeout),
            #[cfg(feature = "mpi")]
            Transport::Mpi(m, _, ranks) => {
                let rank = |f: usize| {
                    ranks
                        .get(f)
                        .copied()
                        .ok_or_else(|| ExchangeError::Failed(format!("device {f} has no MPI process (the job places {})", ranks.len())))
                };
                let members = meeting.members.iter().map(|&f| rank(f)).collect::<Result<Vec<_>, _>>()?;
                m.exchange(Meeting { members: &members, ..meeting }, rank(me)?, inputs, compute, self.timeout)
            }
        }
    }
}

/// Members of a group meet in a slot keyed by (thunk, call, sorted members)
/// under one mutex; a condition variable wakes the waiters whenever a slot
/// changes or the communicator is aborted.
struct InProcess {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Default)]
struct State {
    aborted: Option<String>,
    slots: HashMap<SlotKey, Slot>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct SlotKey {
    thunk: u64,
    call: u64,
    /// Flat ids, sorted: the slot's positions.
    members: Vec<usize>,
}

/// One rendezvous in progress.
struct Slot {
    /// Each member's inputs (by sorted position), while it takes part.
    inputs: Vec<Option<Vec<SharedBytes>>>,
    arrived: usize,
    finished: usize,
    left: usize,
    /// Set by the first member whose wait ran out: the members missing
    /// then. The others waiting give up with the same list (not naming a
    /// member that gave up a moment earlier), and late arrivals are refused.
    timed_out: Option<Vec<usize>>,
}

/// An input buffer of one member, read by the others while the collective runs.
#[derive(Clone, Copy)]
struct SharedBytes {
    ptr: *const u8,
    len: usize,
}

// SAFETY: the pointer is dereferenced (by any thread) only while its owner
// is inside `InProcess::exchange`, which keeps the bytes borrowed and
// unwritten: the owner withdraws it before returning when not every member
// arrived (then no one has read it), and otherwise returns only after every
// member has finished reading. Plain bytes may be read from any thread.
unsafe impl Send for SharedBytes {}

impl InProcess {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn abort(&self, reason: String) {
        self.lock().aborted.get_or_insert(reason);
        self.changed.notify_all();
    }

    fn exchange(
        &self,
        meeting: Meeting<'_>,
        me: usize,
        inputs: &[&[u8]],
        compute: Compute<'_>,
        timeout: Duration,
    ) -> Result<(), ExchangeError> {
        let mut sorted = meeting.members.to_vec();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return Err(ExchangeError::Failed(format!("the group {:?} names a device twice", meeting.members)));
        }
        // Group order → sorted position, and this member's position.
        let order: Vec<usize> = meeting.members.iter().filter_map(|m| sorted.binary_search(m).ok()).collect();
        let Ok(pos) = sorted.binary_search(&me) else {
            return Err(ExchangeError::Failed(format!("device {me} is not in its group {:?}", meeting.members)));
        };
        let key = SlotKey { thunk: meeting.thunk, call: meeting.call, members: sorted };
        let peers = self.arrive(&key, pos, inputs, timeout)?;
        // From here on the others may be reading this member's inputs:
        // `leave` (also on unwinding) waits until they are done.
        let leave = Leave { exchange: self, key: &key };
        let views: Vec<Vec<&[u8]>> = order
            .iter()
            .map(|&i| {
                peers[i]
                    .iter()
                    // SAFETY: every member has arrived and none leaves before all have finished reading (`leave`
                    // marks this one finished only after `views` is dropped), so each owner still holds these
                    // bytes borrowed and unwritten inside its own `exchange` (see `SharedBytes`).
                    .map(|b| unsafe { std::slice::from_raw_parts(b.ptr, b.len) })
                    .collect()
            })
            .collect();
        let result = compute(&views);
        drop(views);
        drop(leave);
        result.map_err(ExchangeError::Failed)
    }

    /// Deposits this member's inputs and waits until every member has
    /// arrived: their inputs, by sorted position. On an abort or the
    /// timeout the inputs are withdrawn (no one has read them: not every
    /// member arrived) and the wait fails.
    fn arrive(&self, key: &SlotKey, pos: usize, inputs: &[&[u8]], timeout: Duration) -> Result<Vec<Vec<SharedBytes>>, ExchangeError> {
        let n = key.members.len();
        let start = Instant::now();
        let mut state = self.lock();
        if let Some(reason) = &state.aborted {
            return Err(ExchangeError::Aborted(reason.clone()));
        }
        let slot = state.slots.entry(key.clone()).or_insert_with(|| Slot {
            inputs: vec![None; n],
            arrived: 0,
            finished: 0,
            left: 0,
            timed_out: None,
        });
        if slot.timed_out.is_some() {
            return Err(ExchangeError::Late);
        }
        if slot.inputs[pos].is_some() {
            return Err(ExchangeError::Failed("this device arrived twice at the same call".into()));
        }
        slot.inputs[pos] = Some(inputs.iter().map(|b| SharedBytes { ptr: b.as_ptr(), len: b.len() }).collect());
        slot.arrived += 1;
        self.changed.notify_all();
        loop {
            let st = &mut *state;
            let Some(slot) = st.slots.get_mut(key) else {
                return Err(ExchangeError::Failed("internal: the rendezvous vanished".into()));
            };
            if slot.arrived == n {
                return Ok(slot.inputs.iter().map(|i| i.clone().unwrap_or_default()).collect());
            }
            let waited = start.elapsed();
            let give_up = match (&st.aborted, &slot.timed_out) {
                (Some(reason), _) => Some(ExchangeError::Aborted(reason.clone())),
                (None, Some(missing)) => Some(ExchangeError::TimedOut { missing: missing.clone(), after: timeout }),
                (None, None) if waited >= timeout => {
                    let missing: Vec<usize> = key.members.iter().zip(&slot.inputs).filter(|(_, i)| i.is_none()).map(|(m, _)| *m).collect();
                    slot.timed_out = Some(missing.clone());
                    self.changed.notify_all();
                    Some(ExchangeError::TimedOut { missing, after: timeout })
                }
                (None, None) => None,
            };
            if let Some(e) = give_up {
                slot.inputs[pos] = None;
                slot.arrived -= 1;
                if slot.arrived == 0 {
                    st.slots.remove(key);
                }
                return Err(e);
            }
            state = match self.changed.wait_timeout(state, timeout - waited) {
                Ok((s, _)) => s,
                Err(e) => e.into_inner().0,
            };
        }
    }
}

/// The end of a member's part in a rendezvous: marks it finished reading,
/// waits until every member is, then leaves (the last one out removes the
/// slot). The wait heeds neither aborts nor the timeout: the others are
/// reading this member's inputs, which must stay put until they are done,
/// and every member that arrived reaches here without blocking.
struct Leave<'a> {
    exchange: &'a InProcess,
    key: &'a SlotKey,
}

impl Drop for Leave<'_> {
    fn drop(&mut self) {
        let n = self.key.members.len();
        let mut state = self.exchange.lock();
        if let Some(slot) = state.slots.get_mut(self.key) {
            slot.finished += 1;
        }
        self.exchange.changed.notify_all();
        loop {
            let Some(slot) = state.slots.get_mut(self.key) else { return };
            if slot.finished == n {
                slot.left += 1;
                if slot.left == n {
                    state.slots.remove(self.key);
                }
                return;
            }
            state = self.exchange.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }
}

// ---------------------------------------------------------------------------

/// How the members' operands combine, elementwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    Add,
    Mul,
    Min,
    Max,
    And,
    Or,
    Xor,
}

impl Reduction {
    pub const ALL: [Reduction; 7] =
        [Reduction::Add, Reduction::Mul, Reduction::Min, Reduction::Max, Reduction::And, Reduction::Or, Reduction::Xor];

    /// The attribute's spelling: `add`, `mul`, `min`, `max`, `and`, `or`, `xor`.
    pub fn name(self) -> &'static str {
        match self {
            Reduction::Add => "add",
            Reduction::Mul => "mul",
            Reduction::Min => "min",
            Reduction::Max => "max",
            Reduction::And => "and",
            Reduction::Or => "or",
            Reduction::Xor => "xor",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// How `replica_groups` name devices (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupMode {
    CrossReplica,
    CrossPartition,
    CrossReplicaAndPartition,
    FlattenedIds,
}

impl GroupMode {
    pub const ALL: [GroupMode; 4] =
        [GroupMode::CrossReplica, GroupMode::CrossPartition, GroupMode::CrossReplicaAndPartition, GroupMode::FlattenedIds];

    /// The attribute's spelling (`cross_replica`, ...).
    pub fn name(self) -> &'static str {
        match self {
            GroupMode::CrossReplica => "cross_replica",
            GroupMode::CrossPartition => "cross_partition",
            GroupMode::CrossReplicaAndPartition => "cross_replica_and_partition",
            GroupMode::FlattenedIds => "flattened_ids",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// The process groups of a collective: `groups` (ids as `mode` reads them,
/// padding dropped, no id twice); empty: one group of all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessGroups {
    pub mode: GroupMode,
    pub groups: Vec<Vec<u32>>,
}

impl ProcessGroups {
    /// The members of `at`'s group: flat ids in group order, `at` among them.
    pub fn members(&self, at: Placement) -> Result<Vec<usize>, String> {
        let (replicas, partitions) = (at.num_replicas as usize, at.num_partitions as usize);
        let (r, p) = (at.replica as usize, at.partition as usize);
        let (count, mine, what) = match self.mode {
            GroupMode::CrossReplica | GroupMode::CrossReplicaAndPartition => (replicas, r, "replica"),
            GroupMode::CrossPartition => (partitions, p, "partition"),
            GroupMode::FlattenedIds => (replicas * partitions, at.flat_id(), "device"),
        };
        if let Some(id) = self.groups.iter().flatten().find(|&&id| id as usize >= count) {
            return Err(format!(
                "`replica_groups` ({}) names {what} {id}, but there are {count} ({replicas} replicas x {partitions} partitions)",
                self.mode.name()
            ));
        }
        let group: Vec<usize> = if self.groups.is_empty() {
            (0..count).collect()
        } else {
            let g = self.groups.iter().find(|g| g.contains(&(mine as u32)));
            let g =
                g.ok_or_else(|| format!("{what} {mine} is in no group of `replica_groups` {:?} ({})", self.groups, self.mode.name()))?;
            g.iter().map(|&id| id as usize).collect()
        };
        Ok(match self.mode {
            GroupMode::CrossReplica => group.iter().map(|&q| q * partitions + p).collect(),
            GroupMode::CrossPartition => group.iter().map(|&q| r * partitions + q).collect(),
            GroupMode::CrossReplicaAndPartition => group.iter().flat_map(|&q| (0..partitions).map(move |pp| q * partitions + pp)).collect(),
            GroupMode::FlattenedIds => group,
        })
    }
}

/// What a collective thunk computes: its target with its attributes, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CollectiveOp {
    AllReduce(Reduction),
    AllGather {
        dimension: usize,
    },
    ReduceScatter {
        dimension: usize,
        reduction: Reduction,
    },
    AllToAll {
        split_dimension: usize,
        concat_dimension: usize,
        split_count: u64,
    },
    /// (source, target) pairs of ids within this device's line: the
    /// replicas of its partition (`cross_replica`) or the partitions of its
    /// replica (`cross_partition`).
    CollectivePermute {
        pairs: Vec<(u32, u32)>,
    },
    CollectiveBroadcast,
    ReplicaId,
    PartitionId,
}

impl CollectiveOp {
    fn reduction(&self) -> Option<Reduction> {
        match self {
            CollectiveOp::AllReduce(r) | CollectiveOp::ReduceScatter { reduction: r, .. } => Some(*r),
            _ => None,
        }
    }
}

// --- attributes --------------------------------------------------------------

/// The low `bytes` bytes of `bits` as a signed integer.
fn sign_extend(bits: u64, bytes: usize) -> i64 {
    let shift = 64 - 8 * bytes as u32;
    ((bits << shift) as i64) >> shift
}

fn is_signed(dtype: DataType) -> bool {
    matches!(dtype, DataType::S8 | DataType::S16 | DataType::S32 | DataType::S64)
}

/// Integer attribute `name` (a signed integer scalar, i64 as the compiler
/// writes it), when present.
fn int_attr(attrs: &Attrs, name: &str) -> Result<Option<i64>, String> {
    match attrs.get(name) {
        None => Ok(None),
        Some(Attr::Scalar { dtype, bits }) if is_signed(*dtype) => Ok(Some(sign_extend(*bits, dtype.bytes()))),
        Some(a) => Err(format!("attribute `{name}` is a {}, not an i64 scalar", a.kind())),
    }
}

/// Integer array attribute `name` (little-endian signed elements), when present.
fn ints_attr(attrs: &Attrs, name: &str) -> Result<Option<Vec<i64>>, String> {
    match attrs.get(name) {
        None => Ok(None),
        Some(Attr::Array { dtype, bytes }) if is_signed(*dtype) => Ok(Some(
            bytes
                .chunks_exact(dtype.bytes())
                .map(|c| {
                    let mut b = [0u8; 8];
                    b[..c.len()].copy_from_slice(c);
                    sign_extend(u64::from_le_bytes(b), c.len())
                })
                .collect(),
        )),
        Some(a) => Err(format!("attribute `{name}` is a {}, not an i64 array", a.kind())),
    }
}

fn str_attr<'a>(attrs: &'a Attrs, name: &str) -> Result<Option<&'a str>, String> {
    match attrs.get(name) {
        None => Ok(None),
        Some(Attr::String(s)) => Ok(Some(s)),
        Some(a) => Err(format!("attribute `{name}` is a {}, not a string", a.kind())),
    }
}

fn required<T>(value: Option<T>, name: &str) -> Result<T, String> {
    value.ok_or_else(|| format!("attribute `{name}` is missing"))
}

fn mode_attr(attrs: &Attrs) -> Result<GroupMode, String> {
    let mode = required(str_attr(attrs, "mode")?, "mode")?;
    GroupMode::parse(mode).ok_or_else(|| {
        let names: Vec<&str> = GroupMode::ALL.iter().map(|m| m.name()).collect();
        format!("`mode` is `{mode}`, not one of {}", names.join(", "))
    })
}

/// `mode`, `replica_groups` (rows `group_size` long, -1 entries dropped) and
/// `channel_id` (informational: only its type is checked).
fn parse_groups(attrs: &Attrs) -> Result<ProcessGroups, String> {
    int_attr(attrs, "channel_id")?;
    let mode = mode_attr(attrs)?;
    let flat = required(ints_attr(attrs, "replica_groups")?, "replica_groups")?;
    if flat.is_empty() {
        return Ok(ProcessGroups { mode, groups: Vec::new() });
    }
    let size = required(int_attr(attrs, "group_size")?, "group_size")?;
    let row = usize::try_from(size)
        .ok()
        .filter(|&s| s > 0 && flat.len().is_multiple_of(s))
        .ok_or_else(|| format!("`group_size` {size} does not divide the {} entries of `replica_groups`", flat.len()))?;
    let mut seen = HashSet::new();
    let mut groups = Vec::new();
    for r in flat.chunks(row) {
        let mut group = Vec::new();
        for &id in r.iter().filter(|&&id| id != -1) {
            let id = u32::try_from(id).map_err(|_| format!("`replica_groups` holds {id}, which is not an id"))?;
            if !seen.insert(id) {
                return Err(format!("id {id} is repeated in `replica_groups`"));
            }
            group.push(id);
        }
        if !group.is_empty() {
            groups.push(group);
        }
    }
    if groups.is_empty() {
        return Err("`replica_groups` holds only padding".into());
    }
    Ok(ProcessGroups { mode, groups })
}

/// `source_target_pairs` (no source or target twice) and a `cross_replica`
/// or `cross_partition` `mode`: the line of devices the ids number.
fn parse_permute(attrs: &Attrs) -> Result<(CollectiveOp, ProcessGroups), String> {
    int_attr(attrs, "channel_id")?;
    let mode = mode_attr(attrs)?;
    if !matches!(mode, GroupMode::CrossReplica | GroupMode::CrossPartition) {
        return Err(format!("a permute's `mode` is cross_replica or cross_partition, not {}", mode.name()));
    }
    let flat = required(ints_attr(attrs, "source_target_pairs")?, "source_target_pairs")?;
    if !flat.len().is_multiple_of(2) {
        return Err(format!("`source_target_pairs` has {} entries, not pairs", flat.len()));
    }
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for c in flat.chunks_exact(2) {
        let id = |v: i64| u32::try_from(v).map_err(|_| format!("`source_target_pairs` holds {v}, which is not an id"));
        let (s, t) = (id(c[0])?, id(c[1])?);
        if pairs.iter().any(|p| p.0 == s) {
            return Err(format!("source {s} appears twice in `source_target_pairs`"));
        }
        if pairs.iter().any(|p| p.1 == t) {
            return Err(format!("target {t} appears twice in `source_target_pairs`"));
        }
        pairs.push((s, t));
    }
    Ok((CollectiveOp::CollectivePermute { pairs }, ProcessGroups { mode, groups: Vec::new() }))
}

/// The op and groups of collective `target` from its attributes.
fn parse_op(target: &str, attrs: &Attrs) -> Result<(CollectiveOp, ProcessGroups), String> {
    let dim = |name: &str| -> Result<usize, String> {
        let d = required(int_attr(attrs, name)?, name)?;
        usize::try_from(d).map_err(|_| format!("`{name}` is {d}, not a dimension"))
    };
    let reduction = || -> Result<Reduction, String> {
        let r = required(str_attr(attrs, "reduction")?, "reduction")?;
        Reduction::parse(r).ok_or_else(|| format!("`reduction` is `{r}`, not add, mul, min, max, and, or or xor"))
    };
    let none = ProcessGroups { mode: GroupMode::CrossReplica, groups: Vec::new() };
    Ok(match target {
        ALL_REDUCE => (CollectiveOp::AllReduce(reduction()?), parse_groups(attrs)?),
        ALL_GATHER => (CollectiveOp::AllGather { dimension: dim("dimension")? }, parse_groups(attrs)?),
        REDUCE_SCATTER => (CollectiveOp::ReduceScatter { dimension: dim("dimension")?, reduction: reduction()? }, parse_groups(attrs)?),
        ALL_TO_ALL => {
            let split_count = required(int_attr(attrs, "split_count")?, "split_count")?;
            let split_count = u64::try_from(split_count).ok().filter(|&c| c > 0).ok_or(format!("`split_count` is {split_count}"))?;
            let (split_dimension, concat_dimension) = (dim("split_dimension")?, dim("concat_dimension")?);
            (CollectiveOp::AllToAll { split_dimension, concat_dimension, split_count }, parse_groups(attrs)?)
        }
        COLLECTIVE_PERMUTE => parse_permute(attrs)?,
        COLLECTIVE_BROADCAST => (CollectiveOp::CollectiveBroadcast, parse_groups(attrs)?),
        REPLICA_ID => (CollectiveOp::ReplicaId, none),
        PARTITION_ID => (CollectiveOp::PartitionId, none),
        _ => return Err("not a collective target".into()),
    })
}

// --- types -------------------------------------------------------------------

/// Whether `a` and `b` agree in every dimension but `d`.
fn same_but(a: &[u64], b: &[u64], d: usize) -> bool {
    a.len() == b.len() && a.iter().zip(b).enumerate().all(|(i, (x, y))| i == d || x == y)
}

/// Whether `whole` is a whole number of `part`s (0 of 0).
fn divides(part: u64, whole: u64) -> bool {
    whole.is_multiple_of(part)
}

/// Checks the operand and result types of `op` (those that do not depend
/// on the group's size) and gives the reducer of each operand's type.
fn check_types(op: &CollectiveOp, ins: &[TensorSpec], outs: &[TensorSpec]) -> Result<Vec<Reducer>, String> {
    use CollectiveOp::*;
    if let ReplicaId | PartitionId = op {
        let id = TensorSpec { element_type: ElementType::U32, shape: Vec::new() };
        return if ins.is_empty() && outs == [id] { Ok(Vec::new()) } else { Err("takes no operands and gives one tensor<ui32>".into()) };
    }
    if ins.is_empty() || ins.len() != outs.len() {
        return Err(format!("{} operands and {} results (one result per operand)", ins.len(), outs.len()));
    }
    let mut reducers = Vec::new();
    for (i, (a, r)) in ins.iter().zip(outs).enumerate() {
        let mismatch = |why: &str| Err(format!("operand {i} {} and result {} {why}", a.describe(), r.describe()));
        let rank = a.shape.len();
        if a.element_type != r.element_type || rank != r.shape.len() {
            return mismatch("differ in element type or rank");
        }
        match *op {
            AllReduce(_) | CollectivePermute { .. } | CollectiveBroadcast if a != r => return mismatch("differ"),
            AllGather { dimension: d } | ReduceScatter { dimension: d, .. } if d >= rank => {
                return Err(format!("dimension {d} of the rank-{rank} operand {i}"));
            }
            AllGather { dimension: d } if !same_but(&a.shape, &r.shape, d) || !divides(a.shape[d], r.shape[d]) => {
                return mismatch(&format!("do not fit a gather along dimension {d}"));
            }
            ReduceScatter { dimension: d, .. } if !same_but(&a.shape, &r.shape, d) || !divides(r.shape[d], a.shape[d]) => {
                return mismatch(&format!("do not fit a scatter along dimension {d}"));
            }
            AllToAll { split_dimension: s, concat_dimension: c, split_count: k } => {
                if s >= rank || c >= rank {
                    return Err(format!("split dimension {s} or concat dimension {c} of the rank-{rank} operand {i}"));
                }
                if !a.shape[s].is_multiple_of(k) {
                    return Err(format!("uneven split: dimension {s} of operand {i} {} into {k} blocks", a.describe()));
                }
                let mut want = a.shape.clone();
                want[s] /= k;
                want[c] *= k;
                if r.shape != want {
                    let want = TensorSpec { element_type: a.element_type, shape: want };
                    return mismatch(&format!("do not fit: the result is {}", want.describe()));
                }
            }
            _ => {}
        }
        if let Some(red) = op.reduction() {
            let t = a.element_type;
            reducers.push(reducer(t, red).ok_or_else(|| format!("there is no `{}` reduction of {}", red.name(), t.mlir_name()))?);
        }
    }
    Ok(reducers)
}

/// Slices sized to their types; outputs overlapping nothing.
fn check_buffers(info: &CustomCallInfo, inputs: &[BufferSlice], outputs: &[BufferSlice]) -> Result<(), String> {
    if info.input_types.len() != inputs.len() || info.output_types.len() != outputs.len() {
        return Err(format!(
            "{} inputs and {} outputs, but {} and {} types",
            inputs.len(),
            outputs.len(),
            info.input_types.len(),
            info.output_types.len()
        ));
    }
    let typed = inputs.iter().zip(&info.input_types).map(|(s, t)| ("input", s, t));
    for (what, s, t) in typed.chain(outputs.iter().zip(&info.output_types).map(|(s, t)| ("output", s, t))) {
        if s.size != t.bytes() {
            return Err(format!("{what} {s:?} is {} bytes, its type {} is {}", s.size, t.describe(), t.bytes()));
        }
    }
    for (i, o) in outputs.iter().enumerate() {
        if let Some(s) = inputs.iter().chain(&outputs[..i]).find(|s| s.overlaps(o)) {
            return Err(format!("output {i} {o:?} overlaps {s:?}"));
        }
    }
    Ok(())
}

// --- reductions --------------------------------------------------------------

/// `acc[i] = op(acc[i], x[i])` over the elements of one type.
type Reducer = Box<dyn Fn(&mut [u8], &[u8]) + Send + Sync>;

/// A reducer over `N`-byte elements decoded by `from`, combined by `op`
/// and encoded back by `to`.
fn lanes<const N: usize, T: 'static>(
    from: impl Fn([u8; N]) -> T + Send + Sync + 'static,
    to: impl Fn(T) -> [u8; N] + Send + Sync + 'static,
    op: impl Fn(T, T) -> T + Send + Sync + 'static,
) -> Reducer {
    Box::new(move |acc: &mut [u8], x: &[u8]| {
        for (a, b) in acc.chunks_exact_mut(N).zip(x.chunks_exact(N)) {
            if let (Some(&pa), Some(&pb)) = (a.first_chunk::<N>(), b.first_chunk::<N>()) {
                a.copy_from_slice(&to(op(from(pa), from(pb))));
            }
        }
    })
}

/// Number types every bit pattern of which is a value, so a byte slice
/// may be viewed as a slice of them.
///
/// # Safety
///
/// Implement only for primitive integers and floats.
unsafe trait Plain: Copy + Send + Sync + 'static {}
// SAFETY: primitive numbers: every bit pattern is a valid value.
unsafe impl Plain for i8 {}
// SAFETY: as above.
unsafe impl Plain for i16 {}
// SAFETY: as above.
unsafe impl Plain for i32 {}
// SAFETY: as above.
unsafe impl Plain for i64 {}
// SAFETY: as above.
unsafe impl Plain for u8 {}
// SAFETY: as above.
unsafe impl Plain for u16 {}
// SAFETY: as above.
unsafe impl Plain for u32 {}
// SAFETY: as above.
unsafe impl Plain for u64 {}
// SAFETY: as above.
unsafe impl Plain for f32 {}
// SAFETY: as above.
unsafe impl Plain for f64 {}

/// [`lanes`] for a type stored as itself (little-endian host): when both
/// buffers are aligned to `T`, `op` runs over them viewed as `[T]` (a loop
/// the compiler vectorizes: the reduction of an all-reduce or reduce-scatter
/// reads its inputs at memory speed); otherwise element by element from the
/// bytes. Same results either way.
fn native<const N: usize, T: Plain>(
    from: impl Fn([u8; N]) -> T + Send + Sync + 'static,
    to: impl Fn(T) -> [u8; N] + Send + Sync + 'static,
    op: impl Fn(T, T) -> T + Copy + Send + Sync + 'static,
) -> Reducer {
    let bytewise = lanes(from, to, op);
    Box::new(move |acc: &mut [u8], x: &[u8]| {
        if cfg!(target_endian = "little") {
            // SAFETY: `T` is `Plain` (every bit pattern is a value, see the
            // trait); `align_to` reinterprets only the aligned middle, and
            // the views are used only when there is nothing outside it.
            let ((pa, a, sa), (pb, b, sb)) = unsafe { (acc.align_to_mut::<T>(), x.align_to::<T>()) };
            if pa.is_empty() && sa.is_empty() && pb.is_empty() && sb.is_empty() && a.len() == b.len() {
                for (p, q) in a.iter_mut().zip(b) {
                    *p = op(*p, *q);
                }
                return;
            }
        }
        bytewise(acc, x)
    })
}

macro_rules! int_reducer {
    ($t:ty, $r:expr) => {{
        let (from, to) = (<$t>::from_le_bytes, <$t>::to_le_bytes);
        Some(match $r {
            Reduction::Add => native(from, to, <$t>::wrapping_add),
            Reduction::Mul => native(from, to, <$t>::wrapping_mul),
            Reduction::Min => native(from, to, <$t as Ord>::min),
            Reduction::Max => native(from, to, <$t as Ord>::max),
            Reduction::And => native(from, to, |a: $t, b: $t| a & b),
            Reduction::Or => native(from, to, |a: $t, b: $t| a | b),
            Reduction::Xor => native(from, to, |a: $t, b: $t| a ^ b),
        })
    }};
}

/// Float reductions computed in `$t` (f16 and bf16 in f32, each step
/// rounded back, as XLA does); min and max propagate NaN and order -0 < +0
/// (`stablehlo.minimum` / `maximum`).
macro_rules! float_reducer {
    ($lanes:ident, $t:ty, $from:expr, $to:expr, $r:expr) => {{
        let (from, to) = ($from, $to);
        match $r {
            Reduction::Add => Some($lanes(from, to, |a: $t, b: $t| a + b)),
            Reduction::Mul => Some($lanes(from, to, |a: $t, b: $t| a * b)),
            Reduction::Min => {
                Some($lanes(from, to, |a: $t, b: $t| if a.is_nan() || a < b || (a == b && a.is_sign_negative()) { a } else { b }))
            }
            Reduction::Max => {
                Some($lanes(from, to, |a: $t, b: $t| if a.is_nan() || a > b || (a == b && a.is_sign_positive()) { a } else { b }))
            }
            _ => None,
        }
    }};
}

/// Complex add and mul over (re, im) pairs of `$t`, `$h` bytes each.
macro_rules! complex_reducer {
    ($t:ty, $h:literal, $r:expr) => {{
        let from =
            |b: [u8; 2 * $h]| (<$t>::from_le_bytes(std::array::from_fn(|k| b[k])), <$t>::from_le_bytes(std::array::from_fn(|k| b[$h + k])));
        let to = |(re, im): ($t, $t)| {
            let (re, im) = (re.to_le_bytes(), im.to_le_bytes());
            std::array::from_fn::<u8, { 2 * $h }, _>(|k| if k < $h { re[k] } else { im[k - $h] })
        };
        match $r {
            Reduction::Add => Some(lanes(from, to, |a: ($t, $t), b: ($t, $t)| (a.0 + b.0, a.1 + b.1))),
            Reduction::Mul => Some(lanes(from, to, |a: ($t, $t), b: ($t, $t)| (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0))),
            _ => None,
        }
    }};
}

/// The reducer of `r` over elements of type `t`; None where the reduction
/// does not apply (bitwise ops of floats, ordering of complex numbers).
/// Bools: add and max are or, mul and min are and.
fn reducer(t: ElementType, r: Reduction) -> Option<Reducer> {
    use ElementType::*;
    match t {
        Bool => {
            // Any nonzero byte is true; results are 0 or 1.
            let op: fn(u8, u8) -> u8 = match r {
                Reduction::Add | Reduction::Or | Reduction::Max => |a, b| u8::from(a != 0 || b != 0),
                Reduction::Mul | Reduction::And | Reduction::Min => |a, b| u8::from(a != 0 && b != 0),
                Reduction::Xor => |a, b| u8::from((a != 0) != (b != 0)),
            };
            Some(lanes(|b: [u8; 1]| b[0], |v: u8| [v], op))
        }
        I8 => int_reducer!(i8, r),
        I16 => int_reducer!(i16, r),
        I32 => int_reducer!(i32, r),
        I64 => int_reducer!(i64, r),
        U8 => int_reducer!(u8, r),
        U16 => int_reducer!(u16, r),
        U32 => int_reducer!(u32, r),
        U64 => int_reducer!(u64, r),
        F32 => float_reducer!(native, f32, f32::from_le_bytes, f32::to_le_bytes, r),
        F64 => float_reducer!(native, f64, f64::from_le_bytes, f64::to_le_bytes, r),
        F16 => float_reducer!(
            lanes,
            f32,
            |b: [u8; 2]| half::f16::from_bits(u16::from_le_bytes(b)).to_f32(),
            |v: f32| half::f16::from_f32(v).to_bits().to_le_bytes(),
            r
        ),
        Bf16 => float_reducer!(
            lanes,
            f32,
            |b: [u8; 2]| half::bf16::from_bits(u16::from_le_bytes(b)).to_f32(),
            |v: f32| half::bf16::from_f32(v).to_bits().to_le_bytes(),
            r
        ),
        C64 => complex_reducer!(f32, 4, r),
        C128 => complex_reducer!(f64, 8, r),
    }
}

// --- data movement -----------------------------------------------------------

/// A box placed at `offset` inside a row-major array of shape `shape`.
struct Window<'a> {
    shape: &'a [u64],
    offset: Vec<u64>,
}

impl<'a> Window<'a> {
    fn at_origin(shape: &'a [u64]) -> Self {
        Window { shape, offset: vec![0; shape.len()] }
    }

    /// With `offset[d] = at`.
    fn shifted(shape: &'a [u64], d: usize, at: u64) -> Self {
        let mut w = Self::at_origin(shape);
        w.offset[d] = at;
        w
    }
}

/// Row-major strides (in elements) of `shape`.
fn strides(shape: &[u64]) -> Vec<u64> {
    let mut s = vec![1; shape.len()];
    for k in (0..shape.len().saturating_sub(1)).rev() {
        s[k] = s[k + 1] * shape[k + 1];
    }
    s
}

/// Calls `f(src_byte, dst_byte, bytes)` for each contiguous run of a box of
/// shape `extent` at `src` and at `dst` (elements of `elem` bytes). Inner
/// dimensions the box spans whole in both arrays merge into one run.
fn for_each_run(extent: &[u64], src: &Window, dst: &Window, elem: usize, mut f: impl FnMut(usize, usize, usize)) {
    if extent.contains(&0) {
        return;
    }
    let rank = extent.len();
    let mut j = rank;
    while j > 0 && extent[j - 1] == src.shape[j - 1] && extent[j - 1] == dst.shape[j - 1] {
        j -= 1;
    }
    // The run spans dimension j - 1 (part of it) and all inner ones.
    let outer = j.saturating_sub(1);
    let run: u64 = extent[outer..].iter().product();
    let (ss, ds) = (strides(src.shape), strides(dst.shape));
    let mut index = vec![0u64; outer];
    loop {
        let at = |w: &Window, s: &[u64]| (0..rank).map(|k| (w.offset[k] + index.get(k).copied().unwrap_or(0)) * s[k]).sum::<u64>();
        f(at(src, &ss) as usize * elem, at(dst, &ds) as usize * elem, run as usize * elem);
        // The next index of the outer dimensions, last fastest.
        let mut k = outer;
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            index[k] += 1;
            if index[k] < extent[k] {
                break;
            }
            index[k] = 0;
        }
    }
}

/// Copies a box of shape `extent` from `src` (at `from`) into `dst` (at `to`).
fn copy_box(extent: &[u64], src: &[u8], from: &Window, dst: &mut [u8], to: &Window, elem: usize) {
    for_each_run(extent, from, to, elem, |s, d, n| dst[d..d + n].copy_from_slice(&src[s..s + n]));
}

// ---------------------------------------------------------------------------

/// Unique ids of collective thunks: the rendezvous key's first part (the
/// device threads of a run share the same thunk objects).
static NEXT_THUNK_ID: AtomicU64 = AtomicU64::new(0);

/// A collective (one of [`TARGETS`]) of an SPMD program: reads its inputs,
/// writes its outputs, meeting the other members of its process group
/// through the run's [`Communicator`]. It has a side effect, so each device
/// issues its collectives in program order (all devices must issue them in
/// the same order), and it never uses the pool (a device waits at a
/// rendezvous on its own thread).
pub struct CollectiveThunk {
    id: u64,
    target: &'static str,
    op: CollectiveOp,
    groups: ProcessGroups,
    location: String,
    attrs_text: String,
    input_types: Vec<TensorSpec>,
    output_types: Vec<TensorSpec>,
    inputs: Vec<BufferSlice>,
    outputs: Vec<BufferSlice>,
    /// One per operand, for reductions.
    reducers: Vec<Reducer>,
    uses: Vec<BufferUse>,
}

impl CollectiveThunk {
    /// Collective `target` of a custom call (`info`: types, attributes,
    /// location), its attributes and types checked.
    pub fn new(target: &str, info: &CustomCallInfo, inputs: Vec<BufferSlice>, outputs: Vec<BufferSlice>) -> Result<Self, RuntimeError> {
        let bad = |reason: String| RuntimeError::InvalidThunk {
            kind: "collective",
            reason: format!("`{target}`{}: {reason}", crate::error::at(&info.location)),
        };
        let target = TARGETS.into_iter().find(|t| *t == target).ok_or_else(|| bad("not a collective target".into()))?;
        let (op, groups) = parse_op(target, &info.attributes).map_err(bad)?;
        check_buffers(info, &inputs, &outputs).map_err(bad)?;
        let reducers = check_types(&op, &info.input_types, &info.output_types).map_err(bad)?;
        let uses = inputs.iter().map(|&s| BufferUse::read(s)).chain(outputs.iter().map(|&s| BufferUse::write(s))).collect();
        Ok(Self {
            id: NEXT_THUNK_ID.fetch_add(1, Ordering::Relaxed),
            target,
            op,
            groups,
            location: info.location.clone(),
            attrs_text: info.attributes.to_string(),
            input_types: info.input_types.clone(),
            output_types: info.output_types.clone(),
            inputs,
            outputs,
            reducers,
            uses,
        })
    }

    /// This thunk's unique id (see [`DeviceRun::calls`]).
    pub fn id(&self) -> u64 {
        self.id
    }

    pub fn target(&self) -> &'static str {
        self.target
    }

    pub fn op(&self) -> &CollectiveOp {
        &self.op
    }

    pub fn groups(&self) -> &ProcessGroups {
        &self.groups
    }

    /// Where the collective is in the program (its custom call's location).
    pub fn location(&self) -> &str {
        &self.location
    }

    pub fn input_types(&self) -> &[TensorSpec] {
        &self.input_types
    }

    pub fn output_types(&self) -> &[TensorSpec] {
        &self.output_types
    }

    /// Folds `x` into `acc` elementwise with operand `i`'s reduction (the
    /// members' values combine in group order as `acc = acc ∘ x`).
    pub fn reduce_into(&self, i: usize, acc: &mut [u8], x: &[u8]) {
        (self.reducers[i])(acc, x)
    }

    /// A located error of this collective on device `at`.
    pub(crate) fn error(&self, at: Placement, message: String) -> RuntimeError {
        RuntimeError::Collective { target: self.target.into(), location: self.location.clone(), device: at.to_string(), message }
    }

    pub(crate) fn exchange_error(&self, at: Placement, e: ExchangeError) -> RuntimeError {
        match e {
            ExchangeError::Aborted(reason) => RuntimeError::CollectiveAborted {
                target: self.target.into(),
                location: self.location.clone(),
                device: at.to_string(),
                reason,
            },
            ExchangeError::TimedOut { missing, after } => {
                let missing: Vec<String> = missing.iter().map(|&id| at.of_flat_id(id).to_string()).collect();
                let message = format!(
                    "timed out after {}s ({TIMEOUT_ENV}) waiting for {}, which never reached this collective",
                    after.as_secs_f64(),
                    missing.join(", ")
                );
                self.error(at, message)
            }
            ExchangeError::Late => {
                self.error(at, format!("reached this collective after the other members had stopped waiting ({TIMEOUT_ENV})"))
            }
            ExchangeError::Failed(message) => self.error(at, message),
        }
    }

    /// Checks what depends on the group's size `n`: gathered and scattered
    /// dimensions, the all-to-all split count, the permute's ids.
    pub(crate) fn check_group(&self, n: usize) -> Result<(), String> {
        let n64 = n as u64;
        for (a, r) in self.input_types.iter().zip(&self.output_types) {
            match self.op {
                CollectiveOp::AllGather { dimension: d } if a.shape[d] * n64 != r.shape[d] => {
                    return Err(format!("a group of {n} devices gathers {} along dimension {d}, not into {}", a.describe(), r.describe()));
                }
                CollectiveOp::ReduceScatter { dimension: d, .. } if r.shape[d] * n64 != a.shape[d] => {
                    return Err(format!("a group of {n} devices scatters {} along dimension {d}, not into {}", a.describe(), r.describe()));
                }
                CollectiveOp::AllToAll { split_count, .. } if split_count != n64 => {
                    return Err(format!("`split_count` is {split_count}, but the group has {n} devices"));
                }
                _ => {}
            }
        }
        if let CollectiveOp::CollectivePermute { pairs } = &self.op
            && let Some(id) = pairs.iter().flat_map(|&(s, t)| [s, t]).find(|&id| id as usize >= n)
        {
            let what = if self.groups.mode == GroupMode::CrossPartition { "partition" } else { "replica" };
            return Err(format!("`source_target_pairs` names {what} {id}, but there are {n}"));
        }
        Ok(())
    }

    /// An all-reduce as a reduce-scatter then an all-gather (XLA's and
    /// NCCL's shape of it): each member folds chunk `me` of every member's
    /// operand into chunk `me` of its own result, then copies the other
    /// chunks from the members that reduced them. Each member reads each
    /// operand byte once and moves 2x its result's bytes, instead of reading
    /// every member's whole operand. Members fold in group order, so every
    /// member's result is the same, bit for bit, as one left fold.
    fn all_reduce_in_two_phases(
        &self,
        device: &DeviceRun,
        members: &[usize],
        me: usize,
        inputs: &[&[u8]],
        outputs: &mut [&mut [u8]],
    ) -> Result<(), ExchangeError> {
        let n = members.len();
        // Chunk k of operand i: whole elements, the k-th of n near-equal parts.
        let chunk = |i: usize, k: usize| {
            let elem = self.input_types[i].element_type.bytes();
            let count = inputs[i].len() / elem;
            (k * count / n * elem, (k + 1) * count / n * elem)
        };
        let flat = device.flat_id();
        let mut reduce = |peers: &[Vec<&[u8]>]| -> Result<(), String> {
            for (i, out) in outputs.iter_mut().enumerate() {
                let (lo, hi) = chunk(i, me);
                if peers.iter().any(|p| p.get(i).map(|b| b.len()) != Some(inputs[i].len())) {
                    return Err(format!("a member of the group has no {} operand {i}", self.input_types[i].describe()));
                }
                for start in (lo..hi).step_by(REDUCE_BLOCK_BYTES) {
                    let end = (start + REDUCE_BLOCK_BYTES).min(hi);
                    out[start..end].copy_from_slice(&peers[0][i][start..end]);
                    (1..n).for_each(|m| (self.reducers[i])(&mut out[start..end], &peers[m][i][start..end]));
                }
            }
            Ok(())
        };
        let meeting = Meeting { thunk: self.id, call: device.next_call(self.id), members };
        device.communicator.exchange(meeting, flat, inputs, &mut reduce)?;
        // Phase 2: every member offers its reduced chunks (read-only views of
        // its results) and fills the others' chunks from the members'.
        let bases: Vec<*mut u8> = outputs.iter_mut().map(|o| o.as_mut_ptr()).collect();
        // SAFETY: chunk `me` of each result is only read (by every member)
        // during the exchange, while this member writes only the other
        // chunks of its results, disjoint from it; the results live and are
        // not otherwise touched for the whole call (the executor runs no
        // conflicting thunk).
        let mine: Vec<&[u8]> = (0..outputs.len())
            .map(|i| {
                let (lo, hi) = chunk(i, me);
                unsafe { std::slice::from_raw_parts(bases[i].add(lo), hi - lo) }
            })
            .collect();
        let mut gather = |peers: &[Vec<&[u8]>]| -> Result<(), String> {
            for (i, &base) in bases.iter().enumerate() {
                for (m, peer) in peers.iter().enumerate().filter(|&(m, _)| m != me) {
                    let (lo, hi) = chunk(i, m);
                    let from = peer.get(i).filter(|b| b.len() == hi - lo).ok_or("a member's reduced chunk has the wrong size")?;
                    // SAFETY: chunk `m` != `me` of this member's result i: in bounds, and disjoint from the chunk
                    // the others read (see above).
                    unsafe { std::ptr::copy_nonoverlapping(from.as_ptr(), base.add(lo), hi - lo) };
                }
            }
            Ok(())
        };
        let meeting = Meeting { thunk: self.id | ALL_GATHER_PHASE, call: device.next_call(self.id | ALL_GATHER_PHASE), members };
        device.communicator.exchange(meeting, flat, &mine, &mut gather)
    }

    /// This member's results (it is member `me` of the group) from the
    /// members' inputs, group order.
    fn compute(&self, me: usize, peers: &[Vec<&[u8]>], outs: &mut [&mut [u8]]) -> Result<(), String> {
        let n = peers.len() as u64;
        for (i, out) in outs.iter_mut().enumerate() {
            let (a, r) = (&self.input_types[i], &self.output_types[i]);
            if let Some(m) = peers.iter().position(|p| p.get(i).map(|b| b.len() as u64) != Some(a.bytes())) {
                return Err(format!("member {m} of the group has no {} operand {i}", a.describe()));
            }
            let operand = |m: usize| peers[m][i];
            let elem = a.element_type.bytes();
            match &self.op {
                CollectiveOp::AllReduce(_) => {
                    // Block by block, each block staying in cache while every
                    // member's block is folded into it (one pass over each
                    // operand and the output, not one per member).
                    for start in (0..out.len()).step_by(REDUCE_BLOCK_BYTES) {
                        let end = (start + REDUCE_BLOCK_BYTES).min(out.len());
                        out[start..end].copy_from_slice(&operand(0)[start..end]);
                        (1..peers.len()).for_each(|m| (self.reducers[i])(&mut out[start..end], &operand(m)[start..end]));
                    }
                }
                &CollectiveOp::AllGather { dimension: d } => {
                    for m in 0..peers.len() {
                        let to = Window::shifted(&r.shape, d, m as u64 * a.shape[d]);
                        copy_box(&a.shape, operand(m), &Window::at_origin(&a.shape), out, &to, elem);
                    }
                }
                &CollectiveOp::ReduceScatter { dimension: d, .. } => {
                    let from = Window::shifted(&a.shape, d, me as u64 * r.shape[d]);
                    for_each_run(&r.shape, &from, &Window::at_origin(&r.shape), elem, |s, o, len| {
                        for k in (0..len).step_by(REDUCE_BLOCK_BYTES) {
                            let (o, s, len) = (o + k, s + k, REDUCE_BLOCK_BYTES.min(len - k));
                            out[o..o + len].copy_from_slice(&operand(0)[s..s + len]);
                            (1..peers.len()).for_each(|m| (self.reducers[i])(&mut out[o..o + len], &operand(m)[s..s + len]));
                        }
                    });
                }
                &CollectiveOp::AllToAll { split_dimension: s, concat_dimension: c, .. } => {
                    let mut block = a.shape.clone();
                    block[s] /= n;
                    for m in 0..peers.len() {
                        let from = Window::shifted(&a.shape, s, me as u64 * block[s]);
                        let to = Window::shifted(&r.shape, c, m as u64 * block[c]);
                        copy_box(&block, operand(m), &from, out, &to, elem);
                    }
                }
                CollectiveOp::CollectivePermute { pairs } => match pairs.iter().find(|p| p.1 as usize == me) {
                    Some(&(source, _)) => out.copy_from_slice(operand(source as usize)),
                    None => out.fill(0),
                },
                CollectiveOp::CollectiveBroadcast => out.copy_from_slice(operand(0)),
                CollectiveOp::ReplicaId | CollectiveOp::PartitionId => {}
            }
        }
        Ok(())
    }
}

impl Thunk for CollectiveThunk {
    fn kind(&self) -> ThunkKind {
        ThunkKind::Collective
    }
    fn buffer_uses(&self) -> &[BufferUse] {
        &self.uses
    }
    fn has_side_effect(&self) -> bool {
        true
    }
    fn uses_pool(&self) -> bool {
        false
    }
    fn execute(&self, ctx: &ExecuteContext) -> Result<(), RuntimeError> {
        let at = ctx.device.map_or(Placement::SINGLE, DeviceRun::placement);
        // SAFETY: the executor runs no thunk that writes these slices while
        // this one runs, and the other devices only read them, from inside
        // the exchange below (which returns when they are done).
        let inputs = self.inputs.iter().map(|s| unsafe { ctx.allocations.slice_bytes(s) }).collect::<Result<Vec<_>, _>>()?;
        // SAFETY: as above; the outputs overlap no input nor each other
        // (checked by `new`), and no other device touches them.
        let mut outputs = self.outputs.iter().map(|s| unsafe { ctx.allocations.slice_bytes_mut(s) }).collect::<Result<Vec<_>, _>>()?;
        let id = match self.op {
            CollectiveOp::ReplicaId => Some(at.replica),
            CollectiveOp::PartitionId => Some(at.partition),
            _ => None,
        };
        if let Some(id) = id {
            outputs[0].copy_from_slice(&id.to_le_bytes());
            return Ok(());
        }
        let members = self.groups.members(at).map_err(|m| self.error(at, m))?;
        self.check_group(members.len()).map_err(|m| self.error(at, m))?;
        let me = members.iter().position(|&m| m == at.flat_id()).unwrap_or(0);
        if members.len() == 1 {
            return self.compute(me, std::slice::from_ref(&inputs), &mut outputs).map_err(|m| self.error(at, m));
        }
        let Some(device) = ctx.device else {
            let message = format!("its group has {} devices, but this run has one (run SPMD programs with execute_spmd)", members.len());
            return Err(self.error(at, message));
        };
        if matches!(self.op, CollectiveOp::AllReduce(_)) {
            return self.all_reduce_in_two_phases(device, &members, me, &inputs, &mut outputs).map_err(|e| self.exchange_error(at, e));
        }
        let mut compute = |peers: &[Vec<&[u8]>]| self.compute(me, peers, &mut outputs);
        let meeting = Meeting { thunk: self.id, call: device.next_call(self.id), members: &members };
        device.communicator.exchange(meeting, at.flat_id(), &inputs, &mut compute).map_err(|e| self.exchange_error(at, e))
    }
    fn describe(&self) -> String {
        format!("collective @{} {}", self.target, self.attrs_text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::BufferAllocations;
    use crate::executor::{ExecutorOptions, ThunkExecutor};

    const LOCATION: &str = "spmd.mlir:4:9";
    const LONG: Duration = Duration::from_secs(60);

    fn spec(t: ElementType, shape: &[u64]) -> TensorSpec {
        TensorSpec { element_type: t, shape: shape.to_vec() }
    }

    fn attr(name: &str, a: Attr) -> (String, Attr) {
        (name.to_string(), a)
    }

    /// `mode` and `replica_groups` (rows padded with -1 to the longest).
    fn groups(mode: &str, rows: &[&[i64]]) -> Vec<(String, Attr)> {
        let size = rows.iter().map(|r| r.len()).max().unwrap_or(0);
        let flat: Vec<i64> = rows.iter().flat_map(|r| r.iter().copied().chain(std::iter::repeat(-1)).take(size)).collect();
        vec![
            attr("mode", Attr::string(mode)),
            attr("replica_groups", Attr::array(&flat)),
            attr("group_size", Attr::scalar(size as i64)),
            attr("channel_id", Attr::scalar(1i64)),
        ]
    }

    fn info(ins: Vec<TensorSpec>, outs: Vec<TensorSpec>, attrs: Vec<(String, Attr)>) -> CustomCallInfo {
        CustomCallInfo {
            input_types: ins,
            output_types: outs,
            attributes: Attrs::new(attrs).unwrap(),
            location: LOCATION.into(),
            ..Default::default()
        }
    }

    /// A collective whose operands are allocations 0.., its results the
    /// allocations after them.
    fn try_thunk(
        target: &str,
        ins: Vec<TensorSpec>,
        outs: Vec<TensorSpec>,
        attrs: Vec<(String, Attr)>,
    ) -> Result<CollectiveThunk, RuntimeError> {
        let slice = |(i, t): (usize, &TensorSpec)| BufferSlice::new(i, 0, t.bytes());
        let inputs = ins.iter().enumerate().map(slice).collect();
        let outputs = outs.iter().enumerate().map(|(i, t)| slice((ins.len() + i, t))).collect();
        CollectiveThunk::new(target, &info(ins, outs, attrs), inputs, outputs)
    }

    fn thunk(target: &str, input: TensorSpec, output: TensorSpec, attrs: Vec<(String, Attr)>) -> CollectiveThunk {
        try_thunk(target, vec![input], vec![output], attrs).unwrap()
    }

    /// A device's result and its buffers afterwards.
    type Outcome = (Result<(), RuntimeError>, Vec<Vec<u8>>);

    /// Runs `thunks` in order on every device of `r` × `p`; device `d`'s
    /// allocations are `bufs[d]`. Each device's result and buffers after.
    fn run_spmd(thunks: &[&dyn Thunk], r: u32, p: u32, timeout: Duration, bufs: Vec<Vec<Vec<u8>>>) -> Vec<Outcome> {
        let communicator = Arc::new(Communicator::in_process_with_timeout(r, p, timeout));
        let bufs: Vec<Mutex<Vec<Vec<u8>>>> = bufs.into_iter().map(Mutex::new).collect();
        let results = run_devices(&communicator, |device| {
            let mut mine = bufs[device.flat_id()].lock().unwrap();
            let allocations = BufferAllocations::new(mine.iter_mut().map(|b| b.as_mut_slice()));
            let ctx = ExecuteContext { allocations: &allocations, pool: None, trace: None, device: Some(device) };
            thunks.iter().try_for_each(|t| t.execute(&ctx))
        })
        .unwrap();
        results.into_iter().zip(bufs).map(|(r, b)| (r, b.into_inner().unwrap())).collect()
    }

    /// As [`run_spmd`], every device succeeding: buffer `out` of each.
    fn outputs(thunks: &[&dyn Thunk], r: u32, p: u32, bufs: Vec<Vec<Vec<u8>>>, out: usize) -> Vec<Vec<u8>> {
        run_spmd(thunks, r, p, LONG, bufs)
            .into_iter()
            .enumerate()
            .map(|(d, (res, b))| {
                res.unwrap_or_else(|e| panic!("device {d}: {e}"));
                b[out].clone()
            })
            .collect()
    }

    fn f32s(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }
    fn to_f32s(b: &[u8]) -> Vec<f32> {
        b.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
    }
    fn i32s(v: &[i32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }
    fn to_i32s(b: &[u8]) -> Vec<i32> {
        b.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect()
    }
    fn to_u32s(b: &[u8]) -> Vec<u32> {
        b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
    }

    #[test]
    fn collectives_all_reduce_adds_f32_in_groups_and_over_all() {
        let t = spec(ElementType::F32, &[3]);
        let bufs = || (0..4).map(|d| vec![f32s(&[d as f32, 10.0 * d as f32, 0.5]), vec![0; 12]]).collect();
        let mut attrs = groups("cross_replica", &[&[0, 1], &[2, 3]]);
        attrs.push(attr("reduction", Attr::string("add")));
        let pairs = thunk(ALL_REDUCE, t.clone(), t.clone(), attrs);
        let got: Vec<Vec<f32>> = outputs(&[&pairs], 4, 1, bufs(), 1).iter().map(|b| to_f32s(b)).collect();
        assert_eq!(got, [[1.0, 10.0, 1.0], [1.0, 10.0, 1.0], [5.0, 50.0, 1.0], [5.0, 50.0, 1.0]]);
        let mut attrs = groups("cross_replica", &[]);
        attrs.push(attr("reduction", Attr::string("add")));
        let all = thunk(ALL_REDUCE, t.clone(), t, attrs);
        for got in outputs(&[&all], 4, 1, bufs(), 1) {
            assert_eq!(to_f32s(&got), [6.0, 60.0, 2.0]);
        }
    }

    /// Variadic: one result per operand, each of its own type.
    #[test]
    fn collectives_all_reduce_is_variadic() {
        let (f, i) = (spec(ElementType::F32, &[2]), spec(ElementType::I32, &[1]));
        let mut attrs = groups("flattened_ids", &[]);
        attrs.push(attr("reduction", Attr::string("mul")));
        let t = try_thunk(ALL_REDUCE, vec![f.clone(), i.clone()], vec![f, i], attrs).unwrap();
        let bufs = (1..=2).map(|d| vec![f32s(&[d as f32, 0.5]), i32s(&[i32::MAX - d + 1]), vec![0; 8], vec![0; 4]]).collect();
        for b in run_spmd(&[&t], 1, 2, LONG, bufs) {
            b.0.unwrap();
            assert_eq!(to_f32s(&b.1[2]), [2.0, 0.25]);
            // Integer products wrap: MAX * (MAX - 1) mod 2^32.
            assert_eq!(to_i32s(&b.1[3]), [i32::MAX.wrapping_mul(i32::MAX - 1)]);
        }
    }

    #[test]
    fn collectives_all_reduce_of_halves_and_bools() {
        use half::{bf16, f16};
        let run = |t: ElementType, reduction: &str, values: Vec<Vec<u8>>| {
            let s = spec(t, &[(values[0].len() / t.bytes()) as u64]);
            let mut attrs = groups("cross_replica", &[]);
            attrs.push(attr("reduction", Attr::string(reduction)));
            let th = thunk(ALL_REDUCE, s.clone(), s.clone(), attrs);
            let n = values.len() as u32;
            let bufs = values.into_iter().map(|v| vec![v, vec![0; s.bytes() as usize]]).collect();
            let outs = outputs(&[&th], n, 1, bufs, 1);
            assert!(outs.windows(2).all(|w| w[0] == w[1]), "every member has the same result");
            outs[0].clone()
        };
        let h = |v: &[f32]| v.iter().flat_map(|&x| f16::from_f32(x).to_le_bytes()).collect::<Vec<u8>>();
        let to_h = |b: Vec<u8>| b.chunks_exact(2).map(|c| f16::from_le_bytes([c[0], c[1]]).to_f32()).collect::<Vec<f32>>();
        let got =
            to_h(run(ElementType::F16, "max", (0..4).map(|d| h(&[d as f32, -(d as f32), if d == 2 { f32::NAN } else { 1.0 }])).collect()));
        assert_eq!(got[..2], [3.0, 0.0]);
        assert!(got[2].is_nan(), "max propagates NaN");
        // Each step is rounded to f16: 2048 + 1 = 2048 (ties to even), twice.
        assert_eq!(to_h(run(ElementType::F16, "add", vec![h(&[2048.0]), h(&[1.0]), h(&[1.0]), h(&[0.0])])), [2048.0]);
        let b = |v: &[f32]| v.iter().flat_map(|&x| bf16::from_f32(x).to_le_bytes()).collect::<Vec<u8>>();
        let got = run(ElementType::Bf16, "max", (0..4).map(|d| b(&[d as f32 * 0.5, -1.0])).collect());
        assert_eq!(got, b(&[1.5, -1.0]));
        let got = run(ElementType::Bf16, "min", (0..4).map(|d| b(&[d as f32 * 0.5, -1.0])).collect());
        assert_eq!(got, b(&[0.0, -1.0]));
        let bools = || (0..4u8).map(|d| vec![u8::from(d % 2 == 0), 1, 0, u8::from(d == 3)]).collect::<Vec<_>>();
        assert_eq!(run(ElementType::Bool, "and", bools()), [0, 1, 0, 0]);
        assert_eq!(run(ElementType::Bool, "or", bools()), [1, 1, 0, 1]);
        assert_eq!(run(ElementType::Bool, "add", bools()), [1, 1, 0, 1]);
        assert_eq!(run(ElementType::Bool, "xor", bools()), [0, 0, 0, 1]);
    }

    #[test]
    fn collectives_reductions_follow_the_element_type() {
        // Floats have no bitwise reductions, complex numbers no order.
        for (t, r) in [(ElementType::F32, "xor"), (ElementType::C64, "max"), (ElementType::Bf16, "and")] {
            let mut attrs = groups("cross_replica", &[]);
            attrs.push(attr("reduction", Attr::string(r)));
            let e = try_thunk(ALL_REDUCE, vec![spec(t, &[1])], vec![spec(t, &[1])], attrs).err().unwrap();
            assert!(e.to_string().contains(&format!("no `{r}` reduction of {}", t.mlir_name())), "{e}");
        }
        // Complex products, folded left: (1+2i)(3-1i) = 5+5i.
        let red = reducer(ElementType::C64, Reduction::Mul).unwrap();
        let mut acc = f32s(&[1.0, 2.0]);
        red(&mut acc, &f32s(&[3.0, -1.0]));
        assert_eq!(to_f32s(&acc), [5.0, 5.0]);
        // min orders -0 below +0; integers wrap.
        let red = reducer(ElementType::F32, Reduction::Min).unwrap();
        let mut acc = f32s(&[0.0]);
        red(&mut acc, &f32s(&[-0.0]));
        assert!(to_f32s(&acc)[0].is_sign_negative());
        let red = reducer(ElementType::U8, Reduction::Add).unwrap();
        let mut acc = vec![250u8, 3];
        red(&mut acc, &[10, 4]);
        assert_eq!(acc, [4, 7]);
    }

    /// Device d holds `[[10d, 10d+1], [10d+2, 10d+3]]`.
    fn blocks(n: i32) -> Vec<Vec<u8>> {
        (0..n).map(|d| i32s(&[10 * d, 10 * d + 1, 10 * d + 2, 10 * d + 3])).collect()
    }

    #[test]
    fn collectives_all_gather_along_dims_0_and_1() {
        let t = spec(ElementType::I32, &[2, 2]);
        let mut attrs = groups("cross_replica", &[]);
        attrs.push(attr("dimension", Attr::scalar(0i64)));
        let rows = thunk(ALL_GATHER, t.clone(), spec(ElementType::I32, &[8, 2]), attrs);
        let bufs = blocks(4).into_iter().map(|b| vec![b, vec![0; 64]]).collect();
        for got in outputs(&[&rows], 4, 1, bufs, 1) {
            assert_eq!(to_i32s(&got), [0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23, 30, 31, 32, 33]);
        }
        // Along dimension 1, in group order (member 1 first).
        let mut attrs = groups("cross_replica", &[&[1, 0], &[3, 2]]);
        attrs.push(attr("dimension", Attr::scalar(1i64)));
        let cols = thunk(ALL_GATHER, t, spec(ElementType::I32, &[2, 4]), attrs);
        let bufs = blocks(4).into_iter().map(|b| vec![b, vec![0; 32]]).collect();
        let got: Vec<Vec<i32>> = outputs(&[&cols], 4, 1, bufs, 1).iter().map(|b| to_i32s(b)).collect();
        assert_eq!(got[0], [10, 11, 0, 1, 12, 13, 2, 3]);
        assert_eq!(got[1], got[0]);
        assert_eq!(got[2], [30, 31, 20, 21, 32, 33, 22, 23]);
    }

    #[test]
    fn collectives_reduce_scatter_along_dim_1() {
        let mut attrs = groups("cross_replica", &[&[0, 1], &[2, 3]]);
        attrs.push(attr("dimension", Attr::scalar(1i64)));
        attrs.push(attr("reduction", Attr::string("add")));
        let t = thunk(REDUCE_SCATTER, spec(ElementType::I32, &[2, 4]), spec(ElementType::I32, &[2, 2]), attrs);
        let bufs = (0..4).map(|d| vec![i32s(&(0..8).map(|k| 100 * d + k).collect::<Vec<_>>()), vec![0; 16]]).collect();
        let got: Vec<Vec<i32>> = outputs(&[&t], 4, 1, bufs, 1).iter().map(|b| to_i32s(b)).collect();
        // Group {0, 1}: 100 + 2k; member 0 keeps columns 0-1, member 1 columns 2-3.
        assert_eq!(got[0], [100, 102, 108, 110]);
        assert_eq!(got[1], [104, 106, 112, 114]);
        // Group {2, 3}: 500 + 2k.
        assert_eq!(got[2], [500, 502, 508, 510]);
        assert_eq!(got[3], [504, 506, 512, 514]);
    }

    #[test]
    fn collectives_all_to_all_splits_dim_0_and_concats_dim_1() {
        let mut attrs = groups("cross_replica", &[]);
        attrs.push(attr("split_dimension", Attr::scalar(0i64)));
        attrs.push(attr("concat_dimension", Attr::scalar(1i64)));
        attrs.push(attr("split_count", Attr::scalar(4i64)));
        let t = thunk(ALL_TO_ALL, spec(ElementType::I32, &[4, 2]), spec(ElementType::I32, &[1, 8]), attrs);
        // Device d, row j: [100d + 2j, 100d + 2j + 1].
        let bufs = (0..4).map(|d| vec![i32s(&(0..8).map(|k| 100 * d + k).collect::<Vec<_>>()), vec![0; 32]]).collect();
        let got: Vec<Vec<i32>> = outputs(&[&t], 4, 1, bufs, 1).iter().map(|b| to_i32s(b)).collect();
        for (j, row) in got.iter().enumerate() {
            let j = j as i32;
            let want: Vec<i32> = (0..4).flat_map(|m| [100 * m + 2 * j, 100 * m + 2 * j + 1]).collect();
            assert_eq!(*row, want, "member {j} gets row {j} of every member");
        }
        // An uneven split is refused when the thunk is built.
        let mut attrs = groups("cross_replica", &[]);
        attrs.push(attr("split_dimension", Attr::scalar(0i64)));
        attrs.push(attr("concat_dimension", Attr::scalar(1i64)));
        attrs.push(attr("split_count", Attr::scalar(3i64)));
        let e = try_thunk(ALL_TO_ALL, vec![spec(ElementType::I32, &[4, 2])], vec![spec(ElementType::I32, &[1, 6])], attrs).err().unwrap();
        assert!(e.to_string().contains("uneven split"), "{e}");
    }

    fn permute(mode: &str, pairs: &[i64]) -> CollectiveThunk {
        let attrs =
            vec![attr("mode", Attr::string(mode)), attr("source_target_pairs", Attr::array(pairs)), attr("channel_id", Attr::scalar(2i64))];
        thunk(COLLECTIVE_PERMUTE, spec(ElementType::I32, &[2]), spec(ElementType::I32, &[2]), attrs)
    }

    #[test]
    fn collectives_permute_a_ring_and_a_partial_permutation() {
        let bufs = || (0..4).map(|d| vec![i32s(&[d + 1, -(d + 1)]), i32s(&[7, 7])]).collect::<Vec<_>>();
        let ring = permute("cross_replica", &[0, 1, 1, 2, 2, 3, 3, 0]);
        let got: Vec<Vec<i32>> = outputs(&[&ring], 4, 1, bufs(), 1).iter().map(|b| to_i32s(b)).collect();
        assert_eq!(got, [[4, -4], [1, -1], [2, -2], [3, -3]]);
        // Only 0 → 2: the others get zeros.
        let partial = permute("cross_replica", &[0, 2]);
        let got: Vec<Vec<i32>> = outputs(&[&partial], 4, 1, bufs(), 1).iter().map(|b| to_i32s(b)).collect();
        assert_eq!(got, [[0, 0], [0, 0], [1, -1], [0, 0]]);
        // Across partitions of each replica (2 x 2): partition 0 → 1.
        let across = permute("cross_partition", &[0, 1]);
        let got: Vec<Vec<i32>> = outputs(&[&across], 2, 2, bufs(), 1).iter().map(|b| to_i32s(b)).collect();
        assert_eq!(got, [[0, 0], [1, -1], [0, 0], [3, -3]]);
        // Repeated targets are refused when the thunk is built.
        let attrs = vec![attr("mode", Attr::string("cross_replica")), attr("source_target_pairs", Attr::array(&[0i64, 1, 2, 1]))];
        let e = try_thunk(COLLECTIVE_PERMUTE, vec![spec(ElementType::I32, &[2])], vec![spec(ElementType::I32, &[2])], attrs).err().unwrap();
        assert!(e.to_string().contains("target 1 appears twice"), "{e}");
    }

    #[test]
    fn collectives_broadcast_sends_the_first_members_operand() {
        let t = thunk(
            COLLECTIVE_BROADCAST,
            spec(ElementType::I32, &[2, 2]),
            spec(ElementType::I32, &[2, 2]),
            groups("cross_replica", &[&[1, 0], &[3, 2]]),
        );
        let bufs = blocks(4).into_iter().map(|b| vec![b, vec![0; 16]]).collect();
        let got: Vec<Vec<i32>> = outputs(&[&t], 4, 1, bufs, 1).iter().map(|b| to_i32s(b)).collect();
        assert_eq!(got, [[10, 11, 12, 13], [10, 11, 12, 13], [30, 31, 32, 33], [30, 31, 32, 33]]);
    }

    #[test]
    fn collectives_replica_and_partition_ids() {
        // Each writes allocation `a`.
        let id = |target, a| {
            let info = info(vec![], vec![spec(ElementType::U32, &[])], vec![]);
            CollectiveThunk::new(target, &info, vec![], vec![BufferSlice::new(a, 0, 4)]).unwrap()
        };
        let (replica, partition) = (id(REPLICA_ID, 0), id(PARTITION_ID, 1));
        let bufs = (0..6).map(|_| vec![vec![9; 4], vec![9; 4]]).collect();
        let got = run_spmd(&[&replica, &partition], 3, 2, LONG, bufs);
        for (d, (r, b)) in got.into_iter().enumerate() {
            r.unwrap();
            assert_eq!((to_u32s(&b[0])[0], to_u32s(&b[1])[0]), ((d / 2) as u32, (d % 2) as u32), "device {d}");
        }
        assert!(try_thunk(REPLICA_ID, vec![], vec![spec(ElementType::I32, &[])], vec![]).is_err());
    }

    /// On 2 x 2 the same ids mean different groups in different modes.
    #[test]
    fn collectives_flattened_ids_and_cross_partition_groups_on_2x2() {
        let gather = |attrs: Vec<(String, Attr)>, n: u64| {
            let mut attrs = attrs;
            attrs.push(attr("dimension", Attr::scalar(0i64)));
            let t = thunk(ALL_GATHER, spec(ElementType::U32, &[1]), spec(ElementType::U32, &[n]), attrs);
            let bufs = (0..4u32).map(|d| vec![d.to_le_bytes().to_vec(), vec![0; 4 * n as usize]]).collect();
            outputs(&[&t], 2, 2, bufs, 1).iter().map(|b| to_u32s(b)).collect::<Vec<_>>()
        };
        // Partitions 0 and 1 of each replica.
        assert_eq!(gather(groups("cross_partition", &[&[0, 1]]), 2), [[0, 1], [0, 1], [2, 3], [2, 3]]);
        // Flat ids: {0, 1} is the same, {0, 2} and {1, 3} are across replicas.
        assert_eq!(gather(groups("flattened_ids", &[&[0, 1], &[2, 3]]), 2), [[0, 1], [0, 1], [2, 3], [2, 3]]);
        assert_eq!(gather(groups("flattened_ids", &[&[0, 2], &[1, 3]]), 2), [[0, 2], [1, 3], [0, 2], [1, 3]]);
        // Replicas 0 and 1 of each partition.
        assert_eq!(gather(groups("cross_replica", &[&[0, 1]]), 2), [[0, 2], [1, 3], [0, 2], [1, 3]]);
        // Replicas 0 and 1, every partition of each.
        assert_eq!(gather(groups("cross_replica_and_partition", &[&[0, 1]]), 4), [[0, 1, 2, 3]; 4]);
    }

    /// A loop whose body all-reduces the carried value: the members meet
    /// once per iteration (the call number tells the iterations apart).
    #[test]
    fn collectives_in_a_loop_meet_once_per_iteration() {
        let t = spec(ElementType::F32, &[1]);
        let mut attrs = groups("cross_replica", &[]);
        attrs.push(attr("reduction", Attr::string("add")));
        let reduce = thunk(ALL_REDUCE, t.clone(), t, attrs);
        let id = reduce.id();
        let (carried, sum) = (BufferSlice::new(0, 0, 4), BufferSlice::new(1, 0, 4));
        let body: Vec<Box<dyn Thunk>> = vec![Box::new(reduce), Box::new(crate::thunk::CopyThunk::new(sum, carried).unwrap())];
        let body = ThunkExecutor::new(body, ExecutorOptions::default());
        let nop = crate::thunk::CopyThunk::new(BufferSlice::new(2, 0, 1), BufferSlice::new(2, 1, 1)).unwrap();
        let cond = ThunkExecutor::new(vec![Box::new(nop)], ExecutorOptions::default());
        let w = crate::thunk::WhileThunk::new(cond, BufferSlice::new(2, 1, 1), body).unwrap().with_trip_count(Some(3));
        assert!(w.has_side_effect());
        let communicator = Arc::new(Communicator::in_process_with_timeout(4, 1, LONG));
        let results = run_devices(&communicator, |device| {
            let mut bufs = [f32s(&[device.flat_id() as f32 + 1.0]), vec![0; 4], vec![0; 2]];
            let allocations = BufferAllocations::new(bufs.iter_mut().map(|b| b.as_mut_slice()));
            let ctx = ExecuteContext { allocations: &allocations, pool: None, trace: None, device: Some(device) };
            w.execute(&ctx)?;
            drop(allocations);
            Ok::<_, RuntimeError>((to_f32s(&bufs[0]), device.calls(id)))
        })
        .unwrap();
        for r in results {
            // 1 + 2 + 3 + 4 = 10, then 40, then 160.
            assert_eq!(r.unwrap(), (vec![160.0], 3));
        }
    }

    #[test]
    fn collectives_a_device_in_no_group_is_an_error() {
        let t = spec(ElementType::F32, &[1]);
        let mut attrs = groups("cross_replica", &[&[0, 1], &[2]]);
        attrs.push(attr("reduction", Attr::string("max")));
        let reduce = thunk(ALL_REDUCE, t.clone(), t.clone(), attrs);
        let bufs = (0..4).map(|d| vec![f32s(&[d as f32]), vec![0; 4]]).collect();
        let got = run_spmd(&[&reduce], 4, 1, LONG, bufs);
        let e = got[3].0.clone().unwrap_err();
        assert_eq!(
            e.to_string(),
            "collective `floors.all_reduce` at spmd.mlir:4:9 on device (replica 3, partition 0): \
             replica 3 is in no group of `replica_groups` [[0, 1], [2]] (cross_replica)"
        );
        // Device 2 is a group of its own; 0 and 1 finish unless the abort
        // (device 3 failed) reached them first.
        assert_eq!(to_f32s(&got[2].1[1]), [2.0]);
        for (r, b) in &got[..2] {
            match r {
                Ok(()) => assert_eq!(to_f32s(&b[1]), [1.0]),
                Err(e) => assert!(matches!(e, RuntimeError::CollectiveAborted { .. }), "{e}"),
            }
        }
        // Ids beyond the layout, repeated ids.
        let mut attrs = groups("cross_replica", &[&[0, 5]]);
        attrs.push(attr("reduction", Attr::string("max")));
        let far = thunk(ALL_REDUCE, t.clone(), t.clone(), attrs);
        let e = run_spmd(&[&far], 2, 1, LONG, vec![vec![vec![0; 4], vec![0; 4]]; 2])[0].0.clone().unwrap_err();
        assert!(e.to_string().contains("names replica 5, but there are 2"), "{e}");
        let mut attrs = groups("cross_replica", &[&[0, 1], &[1, 2]]);
        attrs.push(attr("reduction", Attr::string("max")));
        let e = try_thunk(ALL_REDUCE, vec![t.clone()], vec![t.clone()], attrs).err().unwrap();
        assert!(e.to_string().contains("id 1 is repeated"), "{e}");
        // A gather whose result does not fit the group's size.
        let mut attrs = groups("cross_replica", &[]);
        attrs.push(attr("dimension", Attr::scalar(0i64)));
        let gather = thunk(ALL_GATHER, t.clone(), spec(ElementType::F32, &[4]), attrs);
        let e = run_spmd(&[&gather], 2, 1, LONG, vec![vec![vec![0; 4], vec![0; 16]]; 2])[0].0.clone().unwrap_err();
        assert!(e.to_string().contains("a group of 2 devices gathers tensor<1xf32>"), "{e}");
    }

    /// Without a device a run is the only device: groups of one work,
    /// bigger groups are an error.
    #[test]
    fn collectives_run_alone_without_a_device() {
        let t = spec(ElementType::F32, &[2]);
        let run = |th: &dyn Thunk| {
            let mut bufs = [f32s(&[1.5, 2.5]), vec![9; 8]];
            let allocations = BufferAllocations::new(bufs.iter_mut().map(|b| b.as_mut_slice()));
            let r = th.execute(&ExecuteContext::new(&allocations, None));
            drop(allocations);
            r.map(|()| to_f32s(&bufs[1]))
        };
        let mut attrs = groups("cross_replica", &[]);
        attrs.push(attr("reduction", Attr::string("add")));
        assert_eq!(run(&thunk(ALL_REDUCE, t.clone(), t.clone(), attrs)).unwrap(), [1.5, 2.5]);
        let attrs = vec![attr("mode", Attr::string("cross_replica")), attr("source_target_pairs", Attr::array::<i64>(&[]))];
        assert_eq!(run(&thunk(COLLECTIVE_PERMUTE, t.clone(), t.clone(), attrs)).unwrap(), [0.0, 0.0]);
        let mut attrs = groups("flattened_ids", &[&[0, 1]]);
        attrs.push(attr("reduction", Attr::string("add")));
        let e = run(&thunk(ALL_REDUCE, t.clone(), t, attrs)).unwrap_err();
        assert!(e.to_string().contains("names device 1, but there are 1"), "{e}");
    }

    /// Fails on one device (before that device reaches the collective).
    struct FailOn(usize);

    impl Thunk for FailOn {
        fn kind(&self) -> ThunkKind {
            ThunkKind::CustomCall
        }
        fn buffer_uses(&self) -> &[BufferUse] {
            &[]
        }
        fn execute(&self, ctx: &ExecuteContext) -> Result<(), RuntimeError> {
            match ctx.device.map(DeviceRun::flat_id) {
                Some(d) if d == self.0 => Err(RuntimeError::KernelFailed { kernel: "fail_on".into(), message: "fails on purpose".into() }),
                _ => Ok(()),
            }
        }
    }

    #[test]
    fn collectives_abort_when_a_device_fails() {
        let t = spec(ElementType::F32, &[1]);
        let mut attrs = groups("cross_replica", &[]);
        attrs.push(attr("reduction", Attr::string("add")));
        let reduce = thunk(ALL_REDUCE, t.clone(), t, attrs);
        let start = Instant::now();
        let got = run_spmd(&[&FailOn(2), &reduce], 4, 1, LONG, vec![vec![vec![0; 4], vec![0; 4]]; 4]);
        assert!(start.elapsed() < Duration::from_secs(20), "the others were woken, not timed out");
        assert_eq!(got[2].0.clone().unwrap_err().to_string(), "kernel `fail_on` failed: fails on purpose");
        for d in [0, 1, 3] {
            let e = got[d].0.clone().unwrap_err();
            assert!(matches!(e, RuntimeError::CollectiveAborted { .. }), "{e}");
            assert!(e.to_string().contains("aborted: device (replica 2, partition 0) failed: kernel `fail_on`"), "{e}");
        }
    }

    #[test]
    fn collectives_time_out_naming_the_devices_that_never_arrived() {
        let t = spec(ElementType::F32, &[1]);
        let mut attrs = groups("cross_replica_and_partition", &[]);
        attrs.push(attr("reduction", Attr::string("add")));
        let reduce = thunk(ALL_REDUCE, t.clone(), t, attrs);
        let communicator = Arc::new(Communicator::in_process_with_timeout(2, 2, Duration::from_millis(200)));
        let got = run_devices(&communicator, |device| {
            if device.flat_id() == 3 {
                return Ok(());
            }
            let mut bufs = [vec![0; 4], vec![0; 4]];
            let allocations = BufferAllocations::new(bufs.iter_mut().map(|b| b.as_mut_slice()));
            reduce.execute(&ExecuteContext { allocations: &allocations, pool: None, trace: None, device: Some(device) })
        })
        .unwrap();
        assert!(got[3].is_ok());
        let errors: Vec<RuntimeError> = got[..3].iter().map(|r| r.clone().unwrap_err()).collect();
        let timeouts = errors.iter().filter(|e| matches!(e, RuntimeError::Collective { .. })).count();
        assert!(timeouts >= 1, "{errors:?}");
        for e in errors {
            let s = e.to_string();
            match e {
                RuntimeError::Collective { .. } => {
                    assert!(s.contains("timed out after 0.2s (FLOORS_COLLECTIVE_TIMEOUT_S) waiting for (replica 1, partition 1)"), "{s}")
                }
                _ => assert!(matches!(e, RuntimeError::CollectiveAborted { .. }), "{s}"),
            }
        }
    }

    #[test]
    fn collectives_check_their_attributes() {
        let t = spec(ElementType::F32, &[1]);
        let build = |target: &str, attrs: Vec<(String, Attr)>| {
            try_thunk(target, vec![t.clone()], vec![t.clone()], attrs).err().unwrap().to_string()
        };
        let e = build(ALL_REDUCE, groups("cross_replica", &[]));
        assert_eq!(e, "invalid collective thunk: `floors.all_reduce` at spmd.mlir:4:9: attribute `reduction` is missing");
        let mut attrs = groups("sideways", &[]);
        attrs.push(attr("reduction", Attr::string("add")));
        assert!(build(ALL_REDUCE, attrs).contains("`mode` is `sideways`"));
        let mut attrs = groups("cross_replica", &[]);
        attrs.push(attr("dimension", Attr::scalar(1i32)));
        assert!(build(ALL_GATHER, attrs).contains("dimension 1 of the rank-1 operand 0"));
        let attrs = vec![attr("mode", Attr::string("flattened_ids")), attr("source_target_pairs", Attr::array(&[0i64, 1]))];
        assert!(build(COLLECTIVE_PERMUTE, attrs).contains("cross_replica or cross_partition"));
        let mut attrs = groups("cross_replica", &[]);
        attrs.push(attr("reduction", Attr::string("avg")));
        assert!(build(ALL_REDUCE, attrs).contains("`reduction` is `avg`"));
        assert!(build("floors.all_sorts", vec![]).contains("not a collective target"));
    }

    struct NoKernels;

    impl crate::program::KernelLibrary for NoKernels {
        fn kernel(&self, _name: &str) -> Option<crate::kernel_abi::HostKernelFn> {
            None
        }
    }

    /// A program of one all-reduce (`reduction`) over every device of 2 x 2.
    fn all_reduce_program(reduction: &str) -> crate::Result<crate::program::Executable> {
        use crate::program::{AllocationRole, AllocationSpec, HostProgram, MemoryReport, ThunkSpec};
        let t = spec(ElementType::F32, &[2]);
        let mut attrs = groups("cross_replica_and_partition", &[]);
        attrs.push(attr("reduction", Attr::string(reduction)));
        let (input, output) = (BufferSlice::new(0, 0, 8), BufferSlice::new(1, 0, 8));
        let program = HostProgram {
            allocations: vec![
                AllocationSpec { size: 8, role: AllocationRole::Parameter(0) },
                AllocationSpec { size: 8, role: AllocationRole::Result },
            ],
            params: vec![(t.clone(), 0)],
            results: vec![(t.clone(), output)],
            body: vec![ThunkSpec::CustomCall {
                target: ALL_REDUCE.into(),
                inputs: vec![input],
                outputs: vec![output],
                info: info(vec![t.clone()], vec![t], attrs),
            }],
            memory: MemoryReport::default(),
            spmd: None,
        };
        crate::program::Executable::new(
            program,
            Arc::new(NoKernels),
            Arc::new(crate::ffi::CustomCallRegistry::new()),
            ExecutorOptions::default(),
        )
    }

    fn arg(v: &[f32]) -> (std::path::PathBuf, crate::npy::HostArray) {
        ("x.npy".into(), crate::npy::HostArray { element_type: ElementType::F32, shape: vec![v.len() as u64], bytes: f32s(v).into() })
    }

    /// The vectorized path (both buffers aligned to the element) and the
    /// byte-wise one (unaligned) give the same bits, NaNs and -0.0 included.
    #[test]
    fn collectives_reducers_agree_aligned_and_unaligned() {
        let specials = [f64::NAN, -0.0, 0.0, f64::INFINITY, -1.5, 3.25, 1e-30];
        for t in [ElementType::F32, ElementType::F64, ElementType::I8, ElementType::I32, ElementType::U64, ElementType::I16] {
            let size = t.bytes();
            let n = 37 * size;
            let mut x: u64 = 0x1234_5678;
            let mut bytes = |k: usize| -> Vec<u8> {
                (0..n)
                    .map(|_| {
                        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407 + k as u64);
                        (x >> 33) as u8
                    })
                    .collect()
            };
            let (mut a, mut b) = (bytes(1), bytes(2));
            // Plant special values in the float lanes.
            for (i, v) in specials.iter().enumerate() {
                match t {
                    ElementType::F32 => a[4 * i..4 * i + 4].copy_from_slice(&(*v as f32).to_le_bytes()),
                    ElementType::F64 => b[8 * i..8 * i + 8].copy_from_slice(&v.to_le_bytes()),
                    _ => {}
                }
            }
            for r in Reduction::ALL {
                let Some(red) = reducer(t, r) else { continue };
                // Aligned: in u64-backed storage; unaligned: one byte in.
                let mut aligned = vec![0u64; n.div_ceil(8)];
                // SAFETY: plain bytes of a u64 vector, `n` of them in bounds.
                let acc = unsafe { std::slice::from_raw_parts_mut(aligned.as_mut_ptr().cast::<u8>(), n) };
                acc.copy_from_slice(&a);
                let mut bx = vec![0u64; n.div_ceil(8)];
                // SAFETY: as above.
                let xs = unsafe { std::slice::from_raw_parts_mut(bx.as_mut_ptr().cast::<u8>(), n) };
                xs.copy_from_slice(&b);
                red(acc, xs);
                let mut ua = vec![0u8; n + 1];
                ua[1..].copy_from_slice(&a);
                let mut ub = vec![0u8; n + 1];
                ub[1..].copy_from_slice(&b);
                red(&mut ua[1..], &ub[1..]);
                assert_eq!(&acc[..], &ua[1..], "{t:?} {}", r.name());
            }
        }
    }

    #[test]
    fn collectives_execute_spmd_runs_a_program_on_every_device() {
        let exe = assert_exe_describes(all_reduce_program("add").unwrap());
        let inputs = (0..4).map(|d| vec![arg(&[d as f32, 1.0])]).collect();
        let results = exe.execute_spmd(inputs, 2, 2).unwrap();
        assert_eq!(results.len(), 4);
        for r in &results {
            assert_eq!(to_f32s(&r[0].bytes), [6.0, 4.0]);
        }
        // One device alone: its own sum.
        assert_eq!(to_f32s(&exe.execute(&[arg(&[3.0, 1.0])], None).unwrap()[0].bytes), [3.0, 1.0]);
        // Inputs for the wrong number of devices.
        let e = exe.execute_spmd(vec![vec![arg(&[0.0, 0.0])]], 2, 2).unwrap_err();
        assert!(e.to_string().contains("2 replicas x 2 partitions"), "{e}");
        // A bad input on device (0, 1): its error, not the aborts of the others.
        let inputs = (0..4).map(|d| vec![if d == 1 { arg(&[0.0]) } else { arg(&[0.0, 0.0]) }]).collect();
        let e = exe.execute_spmd(inputs, 2, 2).unwrap_err();
        assert!(
            matches!(&e, crate::Error::Device { replica: 0, partition: 1, source } if matches!(**source, crate::Error::Input { .. })),
            "{e}"
        );
        // A collective that does not hold together is refused when the program is built, at its location.
        let e = all_reduce_program("avg").err().unwrap().to_string();
        assert!(e.starts_with("spmd.mlir:4:9: error: invalid collective thunk: `floors.all_reduce`"), "{e}");
    }

    fn assert_exe_describes(exe: crate::program::Executable) -> crate::program::Executable {
        let text = exe.to_string();
        assert!(text.contains("collective @floors.all_reduce"), "{text}");
        exe
    }
}

/// How an SPMD program's arguments and results are placed on its devices
/// (what the compiler's partitioner decided; the PJRT plugin reports it as
/// the executable's shardings).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpmdLayout {
    /// The devices it runs on: replicas x partitions.
    pub num_replicas: u32,
    pub num_partitions: u32,
    pub params: Vec<Tiling>,
    pub results: Vec<Tiling>,
}

/// XLA's `OpSharding` tile assignment of one value: `tiles[d]` shards along
/// dimension d (and a last dimension of replicas when `replicated_last`),
/// `devices` the logical device (partition) of each tile, tiles in row-major
/// order. No tiles: the value is whole on every device.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tiling {
    pub tiles: Vec<i64>,
    pub devices: Vec<i64>,
    pub replicated_last: bool,
}

impl Tiling {
    pub fn is_replicated(&self) -> bool {
        self.tiles.is_empty()
    }
}

impl SpmdLayout {
    /// Checks a layout read from an artifact against its program (`params`
    /// and `results` values): one tiling per value, each placing every
    /// tile on a device of the launch, as many devices as tiles.
    pub fn validate(&self, params: usize, results: usize) -> Result<(), String> {
        let devices = i64::from(self.num_replicas.max(1)) * i64::from(self.num_partitions.max(1));
        if self.params.len() != params || self.results.len() != results {
            return Err(format!(
                "the SPMD layout tiles {} parameters and {} results; the program has {params} and {results}",
                self.params.len(),
                self.results.len()
            ));
        }
        for (i, t) in self.params.iter().chain(&self.results).enumerate() {
            let tiles = t.tiles.iter().try_fold(1i64, |n, &k| if k >= 1 { n.checked_mul(k) } else { None });
            let ok = t.is_replicated()
                || (tiles == Some(t.devices.len() as i64)
                    && t.devices.iter().all(|&d| (0..devices).contains(&d))
                    && (!t.replicated_last || t.tiles.len() >= 2));
            if !ok {
                return Err(format!("the SPMD tiling of value {i} ({t:?}) does not place its tiles on the {devices} devices"));
            }
        }
        Ok(())
    }
}
