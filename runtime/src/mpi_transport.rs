//! The MPI transport of a [`Communicator`](crate::collectives::Communicator)
//! (feature `mpi`, over Open MPI through the `mpi` crate): one device per
//! process, MPI rank = the device's flat id (`replica * partitions +
//! partition`), as `mpirun -np N floors-run --mpi PROG.floors` starts them.
//!
//! A collective's members gather each other's inputs with one
//! send/receive pair (`MPI_Isend`/`MPI_Irecv`, polled so the wait can time
//! out) per step of a ring schedule (step s: send to the member s
//! places ahead, receive from the one s places behind; every member takes
//! the same steps, so no step waits on a pair that is not also waiting), and
//! each member then computes its own results from the gathered inputs with
//! the same code as in one process. Messages between a pair never overtake
//! each other (MPI's ordering rule), and every device issues its
//! collectives in program order, so one tag serves every call.
//!
//! A failing process calls `MPI_Abort` after printing its error (floors-run
//! does), which makes `mpirun` stop every other process with an error
//! instead of leaving them waiting.

use mpi::topology::{Communicator as _, SimpleCommunicator};
use mpi::traits::*;

use crate::collectives::{Compute, ExchangeError, Meeting};

/// MPI's state in this process: the universe (MPI is finalized when it is
/// dropped) and the world communicator.
struct Job {
    _universe: mpi::environment::Universe,
    world: SimpleCommunicator,
}

// SAFETY: MPI was initialized with at least MPI_THREAD_SERIALIZED (checked
// in `Mpi::init`): any thread may call MPI as long as no two calls overlap,
// which the mutex around the job guarantees (every call below holds it).
unsafe impl Send for Job {}

pub struct Mpi {
    job: std::sync::Mutex<Job>,
    rank: usize,
    size: usize,
    /// Set by [`Mpi::request_abort`] while another thread holds the job in a
    /// collective: that thread's wait ends the job when it sees it.
    abort_requested: std::sync::atomic::AtomicBool,
}

impl Mpi {
    /// Initializes MPI in this process (once per process), asking for
    /// serialized threading (a device's collectives run on whichever thread
    /// runs the device).
    pub fn init() -> Result<Self, String> {
        let (universe, provided) =
            mpi::initialize_with_threading(mpi::Threading::Serialized).ok_or("MPI is already initialized in this process")?;
        if provided < mpi::Threading::Serialized {
            return Err(format!("this MPI gives thread support {provided:?}; floors needs Serialized or better"));
        }
        let world = universe.world();
        let (rank, size) = (world.rank() as usize, world.size() as usize);
        Ok(Self {
            job: std::sync::Mutex::new(Job { _universe: universe, world }),
            rank,
            size,
            abort_requested: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// This process's MPI job for a user that lives as long as the process
    /// (the PJRT plugin under `jax.distributed`): initialized on the first
    /// call and shared by every later one (MPI initializes once per
    /// process), finalized when the process exits — a process that exits
    /// with MPI unfinalized makes `mpirun` report the whole job as failed.
    pub fn process_job() -> Result<std::sync::Arc<Mpi>, String> {
        static JOB: std::sync::OnceLock<Result<std::sync::Arc<Mpi>, String>> = std::sync::OnceLock::new();
        JOB.get_or_init(|| {
            let mpi = Mpi::init()?;
            extern "C" fn finalize() {
                let mut done: std::ffi::c_int = 0;
                // SAFETY: MPI_Finalized may be called at any time, even after
                // MPI_Finalize; MPI_Finalize is called once, only when MPI is
                // initialized (it was, above) and not yet finalized. At exit no
                // other thread of floors is inside MPI (the job is idle).
                unsafe {
                    mpi::ffi::MPI_Finalized(&mut done);
                    if done == 0 {
                        mpi::ffi::MPI_Finalize();
                    }
                }
            }
            // SAFETY: `finalize` is a plain function with no captured state,
            // valid for the whole process.
            if unsafe { libc::atexit(finalize) } != 0 {
                return Err("cannot register MPI's finalization at exit (atexit failed)".into());
            }
            Ok(std::sync::Arc::new(mpi))
        })
        .clone()
    }

    fn job(&self) -> std::sync::MutexGuard<'_, Job> {
        self.job.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn rank(&self) -> usize {
        self.rank
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// Ends every process of the job with `code` (`MPI_Abort`).
    pub fn abort(&self, code: i32) -> ! {
        self.job().world.abort(code)
    }

    /// Ends the job (`MPI_Abort`, code 1) from any thread: at once when no
    /// collective holds the job, else by the thread waiting in it at its
    /// next poll (MPI is serialized: no second call while one is under way).
    pub fn request_abort(&self) {
        self.abort_requested.store(true, std::sync::atomic::Ordering::SeqCst);
        match self.job.try_lock() {
            Ok(job) => job.world.abort(1),
            Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner().world.abort(1),
            Err(std::sync::TryLockError::WouldBlock) => {}
        }
    }

    /// Member `me` of `meeting.members` (ranks) gathers every member's
    /// inputs and runs `compute` on them (group order). A member that has
    /// not sent or received within `timeout` ends the job (`MPI_Abort`) with
    /// an error naming it: a process that died or never reaches the
    /// collective makes the others fail instead of waiting for ever.
    pub fn exchange(
        &self,
        meeting: Meeting<'_>,
        me: usize,
        inputs: &[&[u8]],
        compute: Compute<'_>,
        timeout: std::time::Duration,
    ) -> Result<(), ExchangeError> {
        let members = meeting.members;
        let n = members.len();
        let pos = members.iter().position(|&m| m == me).ok_or_else(|| ExchangeError::Failed(format!("device {me} is not a member")))?;
        if let Some(&m) = members.iter().find(|&&m| m >= self.size()) {
            return Err(ExchangeError::Failed(format!("member {m} is not a process of this MPI job of {}", self.size())));
        }
        let mine: Vec<u8> = inputs.concat();
        let mut received: Vec<Vec<u8>> = vec![Vec::new(); n];
        let job = self.job();
        let deadline = std::time::Instant::now() + timeout;
        for s in 1..n {
            let (to, from) = ((pos + s) % n, (pos + n - s) % n);
            let mut buf = vec![0u8; mine.len()];
            let (to_rank, from_rank) = (members[to] as i32, members[from] as i32);
            let (to_process, from_process) = (job.world.process_at_rank(to_rank), job.world.process_at_rank(from_rank));
            mpi::request::scope(|scope| {
                let mut send = Some(to_process.immediate_send(scope, &mine[..]));
                let mut recv = Some(from_process.immediate_receive_into(scope, &mut buf[..]));
                let mut polls = 0u32;
                loop {
                    send = send.and_then(|r| r.test().err());
                    recv = recv.and_then(|r| r.test().err());
                    if send.is_none() && recv.is_none() {
                        break;
                    }
                    if self.abort_requested.load(std::sync::atomic::Ordering::SeqCst) {
                        eprintln!(
                            "floors (MPI rank {} of {}): another process of the job failed during a collective (thunk {}, call {}); ending the job",
                            self.rank, self.size, meeting.thunk, meeting.call
                        );
                        job.world.abort(1);
                    }
                    if std::time::Instant::now() > deadline {
                        let waiting: Vec<String> = [(recv.is_some(), from_rank), (send.is_some(), to_rank)]
                            .iter()
                            .filter(|(w, _)| *w)
                            .map(|(_, r)| r.to_string())
                            .collect();
                        eprintln!(
                            "floors (MPI rank {} of {}): a collective (thunk {}, call {}) waited {:.0?} for rank(s) {}, which never came; ending the job (FLOORS_COLLECTIVE_TIMEOUT_S sets the wait)",
                            self.rank,
                            self.size,
                            meeting.thunk,
                            meeting.call,
                            timeout,
                            waiting.join(", ")
                        );
                        // Pending requests cannot be withdrawn safely (a send
                        // may not be cancellable): the job ends here.
                        job.world.abort(1);
                    }
                    // Poll (not block) so the wait can run out: spin briefly,
                    // then sleep a little longer each time up to 200 µs.
                    polls += 1;
                    if polls < 64 {
                        std::hint::spin_loop();
                    } else {
                        std::thread::sleep(std::time::Duration::from_micros(u64::from(polls.min(264) - 64)));
                    }
                }
            });
            received[from] = buf;
        }
        drop(job);
        let sizes: Vec<usize> = inputs.iter().map(|i| i.len()).collect();
        let split = |bytes: &[u8]| -> Vec<Vec<u8>> {
            let mut at = 0;
            sizes
                .iter()
                .map(|&k| {
                    at += k;
                    bytes[at - k..at].to_vec()
                })
                .collect()
        };
        let owned: Vec<Vec<Vec<u8>>> = (0..n).map(|m| if m == pos { Vec::new() } else { split(&received[m]) }).collect();
        let peers: Vec<Vec<&[u8]>> =
            (0..n).map(|m| if m == pos { inputs.to_vec() } else { owned[m].iter().map(Vec::as_slice).collect() }).collect();
        compute(&peers).map_err(ExchangeError::Failed)
    }

    /// Every process's `bytes` (all of one length) at rank 0, in rank order;
    /// None on the other ranks.
    pub fn gather_to_root(&self, bytes: &[u8]) -> Option<Vec<Vec<u8>>> {
        let job = self.job();
        let root = job.world.process_at_rank(0);
        if bytes.is_empty() {
            return (self.rank() == 0).then(|| vec![Vec::new(); self.size()]);
        }
        if self.rank() == 0 {
            let mut all = vec![0u8; bytes.len() * self.size()];
            root.gather_into_root(bytes, &mut all[..]);
            Some(all.chunks(bytes.len()).map(<[u8]>::to_vec).collect())
        } else {
            root.gather_into(bytes);
            None
        }
    }
}
