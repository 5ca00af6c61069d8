//! The TPU floor's kernel library: Mosaic kernels as data, run by the
//! interpreter (`tpu::run_kernel`) with Pallas' TPU semantics whenever a
//! kernel thunk calls them. The kernel table gives each kernel's arrays
//! (the `tpu_custom_call`'s operand and result types).

use std::{collections::HashMap, sync::Arc};

use crate::{
    artifact::KernelInfo,
    error::{Error, Result, RuntimeError},
    kernel_abi::HostKernelFn,
    npy::{ElementType, HostArray, TensorSpec},
    program::KernelLibrary,
    thunk::InterpretedKernel,
    tpu::{GridOrder, TpuGeneration, TpuKernel, TpuRunOptions, run_kernel},
};

struct TpuInterpreted {
    name: String,
    kernel: TpuKernel,
    inputs: Vec<TensorSpec>,
    outputs: Vec<TensorSpec>,
    options: TpuRunOptions,
}

impl InterpretedKernel for TpuInterpreted {
    fn inputs(&self) -> &[TensorSpec] {
        &self.inputs
    }
    fn outputs(&self) -> &[TensorSpec] {
        &self.outputs
    }
    fn run(&self, inputs: &[HostArray]) -> std::result::Result<Vec<HostArray>, RuntimeError> {
        run_kernel(&self.kernel, inputs, &self.options)
            .map_err(|e| RuntimeError::KernelFailed { kernel: self.name.clone(), message: e.to_string() })
    }
}

pub struct TpuKernelLibrary {
    kernels: HashMap<String, Arc<TpuInterpreted>>,
}

impl TpuKernelLibrary {
    /// The library of `code` (kernels by name), typed by the kernel `table`.
    pub fn new(code: &[(String, TpuKernel)], table: &[KernelInfo], generation: TpuGeneration, grid: GridOrder) -> Result<Self> {
        let mut kernels = HashMap::new();
        for (name, kernel) in code {
            let info = table
                .iter()
                .find(|k| &k.name == name)
                .ok_or_else(|| Error::Program(format!("kernel `{name}` is not in the kernel table")))?;
            let spec = |a: &crate::artifact::KernelArgInfo| -> Result<TensorSpec> {
                let element_type = ElementType::from_mlir_name(&a.dtype)
                    .ok_or_else(|| Error::Program(format!("kernel `{name}`: unsupported element type `{}`", a.dtype)))?;
                Ok(TensorSpec { element_type, shape: a.shape.clone() })
            };
            let inputs = info.args.iter().filter(|a| !a.output).map(spec).collect::<Result<Vec<_>>>()?;
            let outputs = info.args.iter().filter(|a| a.output).map(spec).collect::<Result<Vec<_>>>()?;
            let mut options = TpuRunOptions { generation, outputs: Some(outputs.clone()), ..Default::default() };
            grid.apply(&mut options);
            kernels.insert(name.clone(), Arc::new(TpuInterpreted { name: name.clone(), kernel: kernel.clone(), inputs, outputs, options }));
        }
        Ok(Self { kernels })
    }
}

impl KernelLibrary for TpuKernelLibrary {
    fn kernel(&self, _name: &str) -> Option<HostKernelFn> {
        None
    }
    fn interpreted(&self, name: &str) -> Option<Arc<dyn InterpretedKernel>> {
        self.kernels.get(name).map(|k| k.clone() as Arc<dyn InterpretedKernel>)
    }
}
