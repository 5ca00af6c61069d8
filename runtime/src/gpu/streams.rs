//! Which thunk runs on which CUDA stream, and where events go: a pure
//! function of the dependency edges the thunk executor computes
//! ([`crate::executor::dependency_edges`]), so it is tested without a GPU.
//!
//! Thunks are issued in program order. A thunk continues the stream of its
//! first predecessor that is still the last thing on its stream (a chain
//! stays on one stream, no event); otherwise it takes a stream never used
//! yet, else the least recently used one. Before a thunk runs, its stream
//! waits for the event recorded after each predecessor on another stream,
//! unless that stream already waited for it or for something later on the
//! same stream (vector clocks: what each stream knows to have finished).
//! At the end the first stream waits for the last thunk of every other
//! stream it does not already know finished, so the results are complete
//! when it is synchronized.

/// Where every thunk of one sequence runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamPlan {
    /// Streams used (at least 1).
    pub streams: usize,
    /// The stream of each thunk.
    pub stream_of: Vec<usize>,
    /// Before thunk `i`, its stream waits for the events of these thunks.
    pub waits: Vec<Vec<usize>>,
    /// Whether an event is recorded after thunk `i` (someone waits for it).
    pub records: Vec<bool>,
    /// After the last thunk, stream 0 waits for these thunks' events.
    pub final_waits: Vec<usize>,
}

impl StreamPlan {
    /// Everything on one stream, in order: no events.
    pub fn single(n: usize) -> Self {
        Self { streams: 1, stream_of: vec![0; n], waits: vec![Vec::new(); n], records: vec![false; n], final_waits: Vec::new() }
    }

    /// Events waited for, in all.
    pub fn event_waits(&self) -> usize {
        self.waits.iter().map(Vec::len).sum::<usize>() + self.final_waits.len()
    }
}

/// Assigns `n` thunks with dependency `edges` (`(from, to)`, `from < to`,
/// transitively reduced or not) to at most `max_streams` streams.
pub fn assign_streams(n: usize, edges: &[(usize, usize)], max_streams: usize) -> StreamPlan {
    let max_streams = max_streams.max(1);
    if max_streams == 1 || n == 0 {
        return StreamPlan::single(n);
    }
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        debug_assert!(a < b && b < n, "edge ({a}, {b}) of {n} thunks");
        if a < b && b < n && !preds[b].contains(&a) {
            preds[b].push(a);
        }
    }
    let mut stream_of = vec![0usize; n];
    let mut pos = vec![0i64; n];
    let mut waits = vec![Vec::new(); n];
    let mut records = vec![false; n];
    // Per stream: its last thunk, how many it ran, its vector clock (the
    // position, on every stream, up to which it knows work finished).
    let mut last: Vec<Option<usize>> = Vec::new();
    let mut count: Vec<i64> = Vec::new();
    let mut clock: Vec<Vec<i64>> = Vec::new();
    // The clock of stream `stream_of[i]` right after thunk `i`.
    let mut after: Vec<Vec<i64>> = vec![Vec::new(); n];
    for i in 0..n {
        let continued = preds[i].iter().map(|&p| stream_of[p]).find(|&s| last[s].is_some_and(|l| preds[i].contains(&l)));
        let s = match continued {
            Some(s) => s,
            None if last.len() < max_streams => {
                last.push(None);
                count.push(0);
                for c in clock.iter_mut() {
                    c.push(-1);
                }
                clock.push(vec![-1; last.len()]);
                for a in after.iter_mut().take(i) {
                    a.push(-1);
                }
                last.len() - 1
            }
            // Least recently used: the stream whose last thunk is earliest.
            None => (0..last.len()).min_by_key(|&s| last[s].map_or(-1, |l| l as i64)).expect("a stream"),
        };
        // Later predecessors first: a wait for one covers earlier ones on its stream.
        let mut ps = preds[i].clone();
        ps.sort_unstable_by(|a, b| b.cmp(a));
        for p in ps {
            let t = stream_of[p];
            if t == s || clock[s][t] >= pos[p] {
                continue;
            }
            waits[i].push(p);
            records[p] = true;
            let known = after[p].clone();
            for (c, k) in clock[s].iter_mut().zip(known) {
                *c = (*c).max(k);
            }
        }
        waits[i].sort_unstable();
        stream_of[i] = s;
        pos[i] = count[s];
        count[s] += 1;
        clock[s][s] = pos[i];
        last[s] = Some(i);
        after[i] = clock[s].clone();
    }
    let mut final_waits = Vec::new();
    for t in 1..last.len() {
        if let Some(l) = last[t]
            && clock[0][t] < pos[l]
        {
            final_waits.push(l);
            records[l] = true;
            let known = after[l].clone();
            for (c, k) in clock[0].iter_mut().zip(known) {
                *c = (*c).max(k);
            }
        }
    }
    StreamPlan { streams: last.len(), stream_of, waits, records, final_waits }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Simulates the plan: a thunk may start once every predecessor is
    /// known finished on its stream (same stream: program order; other
    /// streams: through the events waited for, transitively), and at the
    /// end stream 0 knows every thunk finished.
    fn check(n: usize, edges: &[(usize, usize)], plan: &StreamPlan) {
        assert_eq!(plan.stream_of.len(), n);
        // known[i]: the set of thunks known finished when thunk i starts.
        let mut done_after: Vec<Vec<bool>> = Vec::new();
        let mut stream_state: Vec<Vec<bool>> = vec![vec![false; n]; plan.streams];
        for i in 0..n {
            let s = plan.stream_of[i];
            for &w in &plan.waits[i] {
                assert!(plan.records[w], "thunk {i} waits for {w}, which records no event");
                assert!(w < i);
                let d = done_after[w].clone();
                for (a, b) in stream_state[s].iter_mut().zip(d) {
                    *a |= b;
                }
            }
            for &(a, b) in edges {
                if b == i {
                    assert!(stream_state[s][a], "thunk {i} on stream {s} may start before its predecessor {a} finished");
                }
            }
            stream_state[s][i] = true;
            done_after.push(stream_state[s].clone());
        }
        let mut end = stream_state[0].clone();
        for &w in &plan.final_waits {
            for (a, b) in end.iter_mut().zip(&done_after[w]) {
                *a |= *b;
            }
        }
        assert!(end.iter().all(|&d| d), "stream 0 does not know every thunk finished: {end:?}");
    }

    #[test]
    fn one_stream_has_no_events() {
        let plan = assign_streams(4, &[(0, 1), (0, 2), (2, 3)], 1);
        assert_eq!(plan, StreamPlan::single(4));
        check(4, &[(0, 1), (0, 2), (2, 3)], &plan);
    }

    #[test]
    fn a_chain_stays_on_one_stream() {
        let edges: Vec<_> = (0..5).map(|i| (i, i + 1)).collect();
        let plan = assign_streams(6, &edges, 4);
        assert_eq!(plan.streams, 1);
        assert_eq!(plan.event_waits(), 0);
        check(6, &edges, &plan);
    }

    #[test]
    fn independent_thunks_spread_and_join_at_the_end() {
        let plan = assign_streams(3, &[], 4);
        assert_eq!(plan.stream_of, [0, 1, 2]);
        assert_eq!(plan.final_waits, [1, 2]);
        assert_eq!(plan.records, [false, true, true]);
        check(3, &[], &plan);
        // More independent thunks than streams: round robin by last use.
        let plan = assign_streams(5, &[], 2);
        assert_eq!(plan.stream_of, [0, 1, 0, 1, 0]);
        assert_eq!(plan.final_waits, [3]);
        check(5, &[], &plan);
    }

    #[test]
    fn a_diamond_forks_and_joins_with_events() {
        // 0 → {1, 2} → 3
        let edges = [(0, 1), (0, 2), (1, 3), (2, 3)];
        let plan = assign_streams(4, &edges, 4);
        assert_eq!(plan.stream_of, [0, 0, 1, 0]);
        assert_eq!(plan.waits, [vec![], vec![], vec![0], vec![2]]);
        assert_eq!(plan.records, [true, false, true, false]);
        assert!(plan.final_waits.is_empty(), "stream 0 already waited for stream 1's last thunk");
        check(4, &edges, &plan);
    }

    #[test]
    fn waits_already_implied_are_skipped() {
        // Stream 1 runs 1, 2; thunk 3 (stream 0) needs 1 and 2: one wait, for 2.
        let edges = [(0, 3), (1, 2), (1, 3), (2, 3)];
        let plan = assign_streams(4, &edges, 4);
        assert_eq!(plan.stream_of, [0, 1, 1, 0]);
        assert_eq!(plan.waits[3], [2]);
        assert!(!plan.records[1]);
        check(4, &edges, &plan);
    }

    #[test]
    fn random_graphs_are_safe() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for round in 0..300 {
            let n = 1 + next(30) as usize;
            let mut edges = Vec::new();
            for b in 1..n {
                for a in 0..b {
                    if next(100) < 12 {
                        edges.push((a, b));
                    }
                }
            }
            for streams in [1, 2, 3, 8] {
                let plan = assign_streams(n, &edges, streams);
                assert!(plan.streams <= streams, "round {round}");
                check(n, &edges, &plan);
            }
        }
    }
}
