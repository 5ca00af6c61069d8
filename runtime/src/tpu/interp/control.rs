//! Structured control flow, calls and terminators.

use super::*;

impl Machine<'_> {
    /// Control flow: `scf.for` / `scf.if` / `scf.while` and their
    /// terminators, `func.call`, `func.return`, and the ops without effect
    /// ([`OpKind::Nop`]). A terminator or a `func.return` inside a region
    /// ends the block with its [`Flow`].
    pub(super) fn exec_control(&mut self, fr: &mut Frame, op: &Op) -> R<Flow> {
        match &op.kind {
            OpKind::For { lower, upper, step, inits, body } => {
                let (lb, ub, st) = (self.int(fr, op, *lower)?, self.int(fr, op, *upper)?, self.int(fr, op, *step)?);
                if st <= 0 {
                    return Err(self.op_err(op, format!("step {st} is not positive")));
                }
                let ivty = match body.args.first() {
                    Some((_, Type::Scalar(t))) => *t,
                    _ => return Err(self.bad(op, "body has no scalar induction variable")),
                };
                let mut carried: Vec<Rc<Value>> = inits.iter().map(|&i| self.get(fr, op, i)).collect::<R<_>>()?;
                let mut iv = lb;
                while iv < ub {
                    let mut args = vec![Rc::new(Value::T(Tensor::scalar_int(ivty, iv)))];
                    args.extend(carried.iter().cloned());
                    match self.nested(fr, op, body, args)? {
                        Flow::Yield(v) => carried = v,
                        Flow::Next if carried.is_empty() => {}
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => return Err(self.bad(op, "body does not end in `scf.yield`")),
                    }
                    iv = match iv.checked_add(st) {
                        Some(n) => n,
                        None => break,
                    };
                }
                self.set_results(fr, op, carried)?;
            }
            OpKind::If { condition, then_block, else_block } => {
                let c = self.int(fr, op, *condition)? != 0;
                let block = if c { Some(then_block) } else { else_block.as_ref() };
                let out = match block {
                    Some(b) => match self.nested(fr, op, b, vec![])? {
                        Flow::Yield(v) => v,
                        Flow::Next => vec![],
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        Flow::Condition(..) => return Err(self.bad(op, "region ends in `scf.condition`")),
                    },
                    None => vec![],
                };
                self.set_results(fr, op, out)?;
            }
            OpKind::Region { body } => {
                // `pl.run_scoped`: what the region allocates lives until it ends.
                let mark = self.mem.buffers.len();
                let out = match self.nested(fr, op, body, vec![])? {
                    Flow::Yield(v) => v,
                    Flow::Next => vec![],
                    Flow::Return(v) => return Ok(Flow::Return(v)),
                    Flow::Condition(..) => return Err(self.bad(op, "region ends in `scf.condition`")),
                };
                if out.iter().any(|v| matches!(&**v, Value::Ref(r) if r.buffer >= mark)) {
                    return Err(self.bad(op, "yields a buffer allocated inside it"));
                }
                self.mem.release_from(mark).map_err(|m| self.op_err(op, format!("at the end of the scope: {m}")))?;
                self.set_results(fr, op, out)?;
            }
            OpKind::While { inits, before, after } => {
                let mut carried: Vec<Rc<Value>> = inits.iter().map(|&i| self.get(fr, op, i)).collect::<R<_>>()?;
                loop {
                    let (go, args) = match self.nested(fr, op, before, carried)? {
                        Flow::Condition(c, a) => (c, a),
                        _ => return Err(self.bad(op, "`before` region does not end in `scf.condition`")),
                    };
                    if !go {
                        self.set_results(fr, op, args)?;
                        break;
                    }
                    carried = match self.nested(fr, op, after, args)? {
                        Flow::Yield(v) => v,
                        _ => return Err(self.bad(op, "`after` region does not end in `scf.yield`")),
                    };
                }
            }
            OpKind::Yield { values } => {
                return Ok(Flow::Yield(values.iter().map(|&i| self.get(fr, op, i)).collect::<R<_>>()?));
            }
            OpKind::Condition { condition, args } => {
                let c = self.int(fr, op, *condition)? != 0;
                return Ok(Flow::Condition(c, args.iter().map(|&i| self.get(fr, op, i)).collect::<R<_>>()?));
            }
            OpKind::Return { values } => {
                return Ok(Flow::Return(values.iter().map(|&i| self.get(fr, op, i)).collect::<R<_>>()?));
            }
            OpKind::Call { callee, args } => {
                let a: Vec<Rc<Value>> = args.iter().map(|&i| self.get(fr, op, i)).collect::<R<_>>()?;
                let out = self.call(*callee, a)?;
                self.set_results(fr, op, out)?;
            }
            OpKind::Nop { operands } => {
                let vals: Vec<Rc<Value>> = operands.iter().take(op.results.len()).map(|&i| self.get(fr, op, i)).collect::<R<_>>()?;
                self.set_results(fr, op, vals)?;
            }
            _ => return misrouted(op),
        }
        Ok(Flow::Next)
    }
}
