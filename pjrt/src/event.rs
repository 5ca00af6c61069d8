//! `PJRT_Event`. floors transfers and runs synchronously, so every event it
//! hands out is complete when returned; events the framework creates itself
//! (`PJRT_Event_Create`) become ready when it calls `PJRT_Event_Set`.

use std::ffi::c_void;
use std::sync::{Condvar, Mutex};

use crate::c_api::*;
use crate::error::{Error, Result, args, guard, str_arg};

type Status = Option<(PJRT_Error_Code, String)>;

struct State {
    /// `Some(status)` once ready (`None` status: success).
    done: Option<Status>,
    callbacks: Vec<(unsafe extern "C" fn(*mut PJRT_Error, *mut c_void), usize)>,
}

pub struct PJRT_Event {
    state: Mutex<State>,
    ready: Condvar,
}

impl PJRT_Event {
    /// An event that is already complete with `status`.
    pub fn ready(status: Option<Error>) -> *mut PJRT_Event {
        let done = Some(status.map(|e| (e.code, e.message)));
        Box::into_raw(Box::new(PJRT_Event { state: Mutex::new(State { done, callbacks: Vec::new() }), ready: Condvar::new() }))
    }

    fn pending() -> *mut PJRT_Event {
        Box::into_raw(Box::new(PJRT_Event { state: Mutex::new(State { done: None, callbacks: Vec::new() }), ready: Condvar::new() }))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait(&self) -> Status {
        let mut s = self.lock();
        loop {
            if let Some(done) = &s.done {
                return done.clone();
            }
            s = self.ready.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }
}

fn to_error(status: Status) -> *mut PJRT_Error {
    match status {
        None => std::ptr::null_mut(),
        Some((code, message)) => Error::new(code, message).into_raw(),
    }
}

unsafe fn event<'a>(p: *mut PJRT_Event) -> Result<&'a PJRT_Event> {
    unsafe { crate::error::handle(p, "PJRT_Event") }
}

pub unsafe extern "C" fn PJRT_Event_Destroy(a: *mut PJRT_Event_Destroy_Args) -> *mut PJRT_Error {
    guard("PJRT_Event_Destroy", || {
        let a = unsafe { args(a, "PJRT_Event_Destroy") }?;
        if !a.event.is_null() {
            drop(unsafe { Box::from_raw(a.event) });
        }
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Event_IsReady(a: *mut PJRT_Event_IsReady_Args) -> *mut PJRT_Error {
    guard("PJRT_Event_IsReady", || {
        let a = unsafe { args(a, "PJRT_Event_IsReady") }?;
        a.is_ready = unsafe { event(a.event) }?.lock().done.is_some();
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Event_Error(a: *mut PJRT_Event_Error_Args) -> *mut PJRT_Error {
    let mut status = None;
    let e = guard("PJRT_Event_Error", || {
        let a = unsafe { args(a, "PJRT_Event_Error") }?;
        status = unsafe { event(a.event) }?.lock().done.clone().flatten();
        Ok(())
    });
    if e.is_null() { to_error(status) } else { e }
}

pub unsafe extern "C" fn PJRT_Event_Await(a: *mut PJRT_Event_Await_Args) -> *mut PJRT_Error {
    let mut status = None;
    let e = guard("PJRT_Event_Await", || {
        let a = unsafe { args(a, "PJRT_Event_Await") }?;
        status = unsafe { event(a.event) }?.wait();
        Ok(())
    });
    if e.is_null() { to_error(status) } else { e }
}

pub unsafe extern "C" fn PJRT_Event_OnReady(a: *mut PJRT_Event_OnReady_Args) -> *mut PJRT_Error {
    guard("PJRT_Event_OnReady", || {
        let a = unsafe { args(a, "PJRT_Event_OnReady") }?;
        let callback = a.callback.ok_or_else(|| Error::invalid("PJRT_Event_OnReady: null callback"))?;
        let ev = unsafe { event(a.event) }?;
        let mut s = ev.lock();
        match s.done.clone() {
            Some(status) => {
                drop(s);
                // The callback owns the error it is given.
                unsafe { callback(to_error(status), a.user_arg) };
            }
            None => s.callbacks.push((callback, a.user_arg as usize)),
        }
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Event_Create(a: *mut PJRT_Event_Create_Args) -> *mut PJRT_Error {
    guard("PJRT_Event_Create", || {
        let a = unsafe { args(a, "PJRT_Event_Create") }?;
        a.event = PJRT_Event::pending();
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Event_Set(a: *mut PJRT_Event_Set_Args) -> *mut PJRT_Error {
    guard("PJRT_Event_Set", || {
        let a = unsafe { args(a, "PJRT_Event_Set") }?;
        let ev = unsafe { event(a.event) }?;
        let status = (a.error_code != PJRT_Error_Code_OK)
            .then(|| (a.error_code, String::from_utf8_lossy(unsafe { str_arg(a.error_message, a.error_message_size) }).into_owned()));
        let callbacks = {
            let mut s = ev.lock();
            if s.done.is_some() {
                return Err(Error::new(PJRT_Error_Code_FAILED_PRECONDITION, "PJRT_Event_Set: the event is already set"));
            }
            s.done = Some(status.clone());
            std::mem::take(&mut s.callbacks)
        };
        ev.ready.notify_all();
        for (callback, user_arg) in callbacks {
            unsafe { callback(to_error(status.clone()), user_arg as *mut c_void) };
        }
        Ok(())
    })
}
