//! Memref ops: loads and stores through [`RefView`]s, every element
//! bounds-checked, and new views of a memref.

use super::*;

impl Machine<'_> {
    /// Loads and stores: `vector` loads and stores (masked, strided,
    /// accumulating) and scalar `memref.load` / `memref.store`.
    pub(super) fn exec_memory(&mut self, fr: &mut Frame, op: &Op) -> R<()> {
        match &op.kind {
            OpKind::VectorLoad { base, indices, mask, strides } => {
                let r = self.reference(fr, op, *base)?;
                let idx = self.ints(fr, op, indices)?;
                let (ty, vshape) = self.result_tensor_type(op, 0)?;
                self.check_scalar_element(op, &r, ty)?;
                let (start, sizes, steps) = self.vector_box(op, &r, &idx, &vshape, strides)?;
                let offs = self.box_offsets(op, &r, &start, &sizes, &steps, "read")?;
                self.check_race(op, r.buffer, &offs, false)?;
                let mut data = self.mem.buffers[r.buffer].data.gather(&offs);
                if let Some(m) = self.mask(fr, op, *mask, &vshape)? {
                    match &mut data {
                        Elems::F(d) => d.iter_mut().zip(&m).filter(|(_, m)| !**m).for_each(|(x, _)| *x = 0.0),
                        Elems::I(d) => d.iter_mut().zip(&m).filter(|(_, m)| !**m).for_each(|(x, _)| *x = 0),
                    }
                }
                self.set1(fr, op, Tensor { ty, shape: vshape, data })?;
            }
            OpKind::VectorStore { value, base, indices, mask, strides, add } => {
                let v = self.tensor(fr, op, *value)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let r = self.reference(fr, op, *base)?;
                let idx = self.ints(fr, op, indices)?;
                self.check_scalar_element(op, &r, t.ty)?;
                let (start, sizes, steps) = self.vector_box(op, &r, &idx, &t.shape, strides)?;
                let offs = self.box_offsets(op, &r, &start, &sizes, &steps, "write")?;
                self.check_race(op, r.buffer, &offs, true)?;
                let m = self.mask(fr, op, *mask, &t.shape)?;
                let ty = t.ty;
                let buf = &mut self.mem.buffers[r.buffer].data;
                let on = |i: usize| m.as_ref().is_none_or(|m| m[i]);
                match (buf, &t.data) {
                    (Elems::F(b), Elems::F(d)) => {
                        for (i, (&o, &x)) in offs.iter().zip(d).enumerate() {
                            if on(i) {
                                b[o] = if *add { round_to(ty, b[o] + x) } else { x };
                            }
                        }
                    }
                    (Elems::I(b), Elems::I(d)) => {
                        for (i, (&o, &x)) in offs.iter().zip(d).enumerate() {
                            if on(i) {
                                b[o] = if *add { wrap(ty, b[o].wrapping_add(x)) } else { x };
                            }
                        }
                    }
                    _ => return Err(self.bad(op, "value and memref element kinds differ")),
                }
            }
            OpKind::MemRefLoad { base, indices } => {
                let r = self.reference(fr, op, *base)?;
                let idx = self.ints(fr, op, indices)?;
                let (ty, _) = self.result_tensor_type(op, 0)?;
                self.check_scalar_element(op, &r, ty)?;
                let ones = vec![1; idx.len()];
                let offs = self.box_offsets(op, &r, &idx, &ones, &ones, "read")?;
                self.check_race(op, r.buffer, &offs, false)?;
                let data = self.mem.buffers[r.buffer].data.gather(&offs);
                self.set1(fr, op, Tensor { ty, shape: vec![], data })?;
            }
            OpKind::MemRefStore { value, base, indices } => {
                let v = self.tensor(fr, op, *value)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let r = self.reference(fr, op, *base)?;
                let idx = self.ints(fr, op, indices)?;
                self.check_scalar_element(op, &r, t.ty)?;
                let ones = vec![1; idx.len()];
                let offs = self.box_offsets(op, &r, &idx, &ones, &ones, "write")?;
                self.check_race(op, r.buffer, &offs, true)?;
                if !t.shape.is_empty() {
                    return Err(self.bad(op, "stores a vector"));
                }
                match (&mut self.mem.buffers[r.buffer].data, &t.data) {
                    (Elems::F(b), Elems::F(d)) => b[offs[0]] = d[0],
                    (Elems::I(b), Elems::I(d)) => b[offs[0]] = d[0],
                    _ => return Err(self.bad(op, "element kinds differ")),
                }
            }
            _ => return misrouted(op),
        }
        Ok(())
    }

    /// New views of a memref (`tpu.memref_slice`, `tpu.memref_squeeze`,
    /// `tpu.memref_reshape` and its kin): same buffer, no data moves.
    pub(super) fn exec_view(&mut self, fr: &mut Frame, op: &Op) -> R<()> {
        match &op.kind {
            OpKind::MemRefSlice { base, base_indices } => {
                let r = self.reference(fr, op, *base)?;
                let idx = self.ints(fr, op, base_indices)?;
                let Type::MemRef { shape, .. } = self.result_type(op, 0)? else {
                    return Err(self.bad(op, "result is not a memref"));
                };
                if shape.len() != r.shape.len() {
                    return Err(self.bad(op, format!("slices a rank-{} memref to rank {}", r.shape.len(), shape.len())));
                }
                let ones = vec![1; shape.len()];
                // Checks the slice lies inside the source.
                self.box_offsets(op, &r, &idx, shape, &ones, "slice")?;
                let offset = r.offset + idx.iter().zip(&r.strides).map(|(i, s)| i * s).sum::<i64>();
                let v = RefView { buffer: r.buffer, offset, shape: shape.clone(), strides: r.strides.clone() };
                self.set_results(fr, op, vec![Rc::new(Value::Ref(v))])?;
            }
            OpKind::MemRefSqueeze { input } => {
                let r = self.reference(fr, op, *input)?;
                let Type::MemRef { shape, .. } = self.result_type(op, 0)? else {
                    return Err(self.bad(op, "result is not a memref"));
                };
                // Match result dims to source dims left to right, dropping 1s.
                let mut strides = Vec::new();
                let mut j = 0;
                for (d, &n) in r.shape.iter().enumerate() {
                    if j < shape.len() && shape[j] == n && (n != 1 || r.shape.len() - d <= shape.len() - j) {
                        strides.push(r.strides[d]);
                        j += 1;
                    } else if n != 1 {
                        return Err(self.bad(op, format!("cannot squeeze {} to {}", shape_str(&r.shape), shape_str(shape))));
                    }
                }
                if j != shape.len() {
                    return Err(self.bad(op, format!("cannot squeeze {} to {}", shape_str(&r.shape), shape_str(shape))));
                }
                let v = RefView { buffer: r.buffer, offset: r.offset, shape: shape.clone(), strides };
                self.set_results(fr, op, vec![Rc::new(Value::Ref(v))])?;
            }
            OpKind::MemRefReshape { input } => {
                let r = self.reference(fr, op, *input)?;
                let Type::MemRef { shape, .. } = self.result_type(op, 0)? else {
                    return Err(self.bad(op, "result is not a memref"));
                };
                let contiguous = r.strides == row_major_strides(&r.shape);
                let same = checked_count(shape).ok() == checked_count(&r.shape).ok();
                if !contiguous || !same {
                    return Err(self.bad(op, format!("cannot view {} as {}", shape_str(&r.shape), shape_str(shape))));
                }
                let v = RefView { buffer: r.buffer, offset: r.offset, shape: shape.clone(), strides: row_major_strides(shape) };
                self.set_results(fr, op, vec![Rc::new(Value::Ref(v))])?;
            }
            OpKind::Alloca => {
                let (shape, element, memory_space) = match self.result_type(op, 0)? {
                    Type::MemRef { shape, element, memory_space } => (shape.clone(), *element, *memory_space),
                    Type::Semaphore { dma } => {
                        (vec![], if *dma { MemElement::DmaSemaphore } else { MemElement::Semaphore }, MemorySpace::SemaphoreMem)
                    }
                    t => return Err(self.bad(op, format!("allocates {}", t.describe()))),
                };
                let n = checked_count(&shape).map_err(|m| self.bad(op, m))?;
                let data = match element {
                    MemElement::Scalar(e) => uninitialized_elems(e, n),
                    _ => Elems::I(vec![0; n]),
                };
                let name = format!("scoped buffer at {}", op.location);
                let id = self.mem.add(Buffer { name, element, memory_space, shape: shape.clone(), data });
                let v = RefView { buffer: id, offset: 0, strides: row_major_strides(&shape), shape };
                self.set_results(fr, op, vec![Rc::new(Value::Ref(v))])?;
            }
            _ => return misrouted(op),
        }
        Ok(())
    }

    /// A load or store must not race with a DMA in flight (see
    /// [`Memory::racing_dma`]).
    fn check_race(&self, op: &Op, buffer: usize, offs: &[usize], write: bool) -> R<()> {
        match self.mem.racing_dma(buffer, offs, write) {
            Some((at, what)) => Err(self.op_err(
                op,
                format!(
                    "{} memory that the DMA started at {at} {what}: wait for the DMA first (a race on a TPU)",
                    if write { "writes" } else { "reads" }
                ),
            )),
            None => Ok(()),
        }
    }

    fn check_scalar_element(&self, op: &Op, r: &RefView, ty: ScalarType) -> R<()> {
        let b = self.buffer(op, r)?;
        match b.element {
            MemElement::Scalar(e) if e == ty => Ok(()),
            e => Err(self.bad(op, format!("accesses `{}` elements as {}", e.name(), ty.name()))),
        }
    }

    /// (start, sizes, steps) of a vector access of `vshape` at `indices`:
    /// the vector covers the trailing dims of the memref, leading dims take
    /// one element.
    fn vector_box(&self, op: &Op, r: &RefView, indices: &[i64], vshape: &[i64], strides: &[i64]) -> R<(Vec<i64>, Vec<i64>, Vec<i64>)> {
        let rank = r.shape.len();
        if indices.len() != rank || vshape.len() > rank {
            return Err(self.bad(op, format!("{} indices and a rank-{} vector for a rank-{rank} memref", indices.len(), vshape.len())));
        }
        if !strides.is_empty() && strides.len() != rank {
            return Err(self.bad(op, format!("{} strides for a rank-{rank} memref", strides.len())));
        }
        let lead = rank - vshape.len();
        let sizes: Vec<i64> = (0..rank).map(|d| if d < lead { 1 } else { vshape[d - lead] }).collect();
        let steps: Vec<i64> = if strides.is_empty() { vec![1; rank] } else { strides.to_vec() };
        if steps.iter().any(|&s| s < 1) {
            return Err(self.bad(op, format!("strides {strides:?} must be positive")));
        }
        Ok((indices.to_vec(), sizes, steps))
    }

    fn mask(&self, fr: &Frame, op: &Op, mask: Option<ValueId>, shape: &[i64]) -> R<Option<Vec<bool>>> {
        let Some(m) = mask else { return Ok(None) };
        let v = self.tensor(fr, op, m)?;
        let Value::T(t) = &*v else { return unreachable_ref() };
        match &t.data {
            Elems::I(d) if t.shape == shape => Ok(Some(d.iter().map(|&x| x != 0).collect())),
            _ => Err(self.bad(op, format!("mask is {}, expected an i1 vector of shape {}", t.describe(), shape_str(shape)))),
        }
    }
}
