//! DMAs and semaphores, with the semantics in the [`super`] module doc: a
//! DMA runs when a wait on its semaphore needs it.

use super::*;

impl Machine<'_> {
    /// DMAs and semaphores: `tpu.enqueue_dma` records a copy, `tpu.wait_dma2`
    /// and `tpu.sem_wait` run pending copies until the count suffices,
    /// `tpu.sem_signal` adds to a count and `tpu.sem_read` reads it.
    pub(super) fn exec_dma(&mut self, fr: &mut Frame, op: &Op) -> R<()> {
        match &op.kind {
            OpKind::EnqueueDma { source, target, source_semaphore, target_semaphore } => {
                let (src, dst) = (self.reference(fr, op, *source)?, self.reference(fr, op, *target)?);
                let (sb, db) = (self.buffer(op, &src)?, self.buffer(op, &dst)?);
                if sb.element != db.element || src.shape != dst.shape {
                    return Err(self.op_err(
                        op,
                        format!(
                            "copies {} `{}` into {} `{}`",
                            shape_str(&src.shape),
                            sb.element.name(),
                            shape_str(&dst.shape),
                            db.element.name()
                        ),
                    ));
                }
                let MemElement::Scalar(ety) = sb.element else { return Err(self.bad(op, "copies semaphores")) };
                let n = checked_count(&src.shape).map_err(|m| self.bad(op, m))?;
                let dst_sem = self.semaphore(fr, op, *target_semaphore)?;
                let src_sem = source_semaphore.map(|s| self.semaphore(fr, op, s)).transpose()?;
                let ones = vec![1; src.shape.len()];
                let zeros = vec![0; src.shape.len()];
                let src_offs = self.box_offsets(op, &src, &zeros, &src.shape, &ones, "DMA source")?;
                let dst_offs = self.box_offsets(op, &dst, &zeros, &dst.shape, &ones, "DMA destination")?;
                let (src_elems, dst_elems) = (DmaRegion::new(src.buffer, &src_offs), DmaRegion::new(dst.buffer, &dst_offs));
                // Races with DMAs in flight: this one's destination is
                // written by it later, its source read later.
                if let Some((at, what)) =
                    self.mem.racing_dma(dst.buffer, &dst_offs, true).or_else(|| self.mem.racing_dma(src.buffer, &src_offs, false))
                {
                    return Err(self.op_err(op, format!("races with the DMA started at {at}, which {what} memory this DMA copies")));
                }
                let id = self.mem.dmas.len();
                self.mem.in_flight.push(id);
                self.mem.dmas.push(Dma {
                    src_elems,
                    dst_elems,
                    src,
                    dst,
                    src_sem,
                    dst_sem,
                    bytes: (n as i64).saturating_mul(ety.bytes() as i64),
                    location: op.location.clone(),
                    state: DmaState::Started,
                });
                if let Some(s) = src_sem {
                    self.mem.tasks.entry(s).or_default().push((id, false));
                }
                self.mem.tasks.entry(dst_sem).or_default().push((id, true));
            }
            OpKind::WaitDma { semaphore, src, dst } => {
                let sem = self.semaphore(fr, op, *semaphore)?;
                let (s, d) = (self.reference(fr, op, *src)?, self.reference(fr, op, *dst)?);
                let (sb, db) = (self.buffer(op, &s)?, self.buffer(op, &d)?);
                if sb.element != db.element || s.shape != d.shape {
                    return Err(self.op_err(op, format!("waits for a copy of {} into {}", shape_str(&s.shape), shape_str(&d.shape))));
                }
                let n = checked_count(&d.shape).map_err(|m| self.bad(op, m))?;
                let bytes = (n as i64).saturating_mul(match db.element {
                    MemElement::Scalar(t) => t.bytes() as i64,
                    _ => 4,
                });
                self.wait(op, sem, bytes)?;
            }
            OpKind::SemSignal { semaphore, amount } => {
                let sem = self.semaphore(fr, op, *semaphore)?;
                let a = self.int(fr, op, *amount)?;
                let c = self.count_mut(op, sem)?;
                *c = c.saturating_add(a);
            }
            OpKind::SemWait { semaphore, amount } => {
                let sem = self.semaphore(fr, op, *semaphore)?;
                let a = self.int(fr, op, *amount)?;
                self.wait(op, sem, a)?;
            }
            OpKind::SemRead { semaphore } => {
                let sem = self.semaphore(fr, op, *semaphore)?;
                let c = *self.count_mut(op, sem)?;
                let (ty, _) = self.result_tensor_type(op, 0)?;
                self.set1(fr, op, Tensor::scalar_int(ty, c))?;
            }
            _ => return misrouted(op),
        }
        Ok(())
    }

    /// A semaphore operand: a memref with one semaphore element.
    fn semaphore(&self, fr: &Frame, op: &Op, id: ValueId) -> R<(usize, usize)> {
        let r = self.reference(fr, op, id)?;
        let b = self.buffer(op, &r)?;
        if !matches!(b.element, MemElement::Semaphore | MemElement::DmaSemaphore) {
            return Err(self.bad(op, format!("%{id} is a memref of {}, not of semaphores", b.element.name())));
        }
        if r.shape.iter().any(|&d| d != 1) {
            return Err(self.bad(op, format!("%{id} is an array of semaphores {}, not one", shape_str(&r.shape))));
        }
        if r.offset < 0 || r.offset as usize >= b.data.len() {
            return Err(self.op_err(op, format!("semaphore {} of `{}` does not exist", r.offset, b.name)));
        }
        Ok((r.buffer, r.offset as usize))
    }

    fn count_mut(&mut self, op: &Op, sem: (usize, usize)) -> R<&mut i64> {
        let e = self.bad(op, "bad semaphore");
        match self.mem.buffers.get_mut(sem.0).map(|b| &mut b.data) {
            Some(Elems::I(v)) if sem.1 < v.len() => Ok(&mut v[sem.1]),
            _ => Err(e),
        }
    }

    /// Waits until `sem` counts `value`, running pending DMAs (most recent
    /// first, as Pallas does), then takes `value` off.
    fn wait(&mut self, op: &Op, sem: (usize, usize), value: i64) -> R<()> {
        loop {
            let c = self.count_mut(op, sem)?;
            if *c >= value {
                *c -= value;
                return Ok(());
            }
            let have = *c;
            let task = self.mem.tasks.get_mut(&sem).and_then(|t| t.pop());
            let Some((dma, write)) = task else {
                let name = self.mem.buffers[sem.0].name.clone();
                return Err(self.op_err(
                    op,
                    format!(
                        "waits for {value} on semaphore {} of `{name}`, which holds {have} and has no DMA or signal pending: \
                         it would wait forever",
                        sem.1
                    ),
                ));
            };
            self.run_dma(op, dma, write)?;
        }
    }

    fn run_dma(&mut self, op: &Op, id: usize, write: bool) -> R<()> {
        let Some(d) = self.mem.dmas.get(id).cloned() else { return Err(self.bad(op, "bad DMA")) };
        let data = match d.state {
            DmaState::Done => return Ok(()),
            DmaState::Read(data) => data,
            DmaState::Started => {
                let sizes = d.src.shape.clone();
                let ones = vec![1; sizes.len()];
                let zeros = vec![0; sizes.len()];
                let offs = self.box_offsets(op, &d.src, &zeros, &sizes, &ones, "DMA read")?;
                let data = self.mem.buffers[d.src.buffer].data.gather(&offs);
                if let Some(s) = d.src_sem {
                    let c = self.count_mut(op, s)?;
                    *c = c.saturating_add(d.bytes);
                }
                data
            }
        };
        if !write {
            self.mem.dmas[id].state = DmaState::Read(data);
            return Ok(());
        }
        let sizes = d.dst.shape.clone();
        let ones = vec![1; sizes.len()];
        let zeros = vec![0; sizes.len()];
        let offs = self.box_offsets(op, &d.dst, &zeros, &sizes, &ones, "DMA write")?;
        match (&mut self.mem.buffers[d.dst.buffer].data, &data) {
            (Elems::F(b), Elems::F(x)) => offs.iter().zip(x).for_each(|(&o, &v)| b[o] = v),
            (Elems::I(b), Elems::I(x)) => offs.iter().zip(x).for_each(|(&o, &v)| b[o] = v),
            _ => return Err(self.bad(op, "DMA between different element kinds")),
        }
        let c = self.count_mut(op, d.dst_sem)?;
        *c = c.saturating_add(d.bytes);
        self.mem.dmas[id].state = DmaState::Done;
        self.mem.in_flight.retain(|&x| x != id);
        Ok(())
    }
}
