//! The typed stablehlo accessors (`floors::dialects::stablehlo`) on the
//! examples of `shared/corpus/OPS.md` (op lines copied verbatim, wrapped in a
//! function whose arguments give them their types): every accessor returns
//! the spec values, dimension numbers round-trip through their attributes,
//! `cast` refuses other ops, and absent optional attributes read as the
//! spec's defaults.

use floors::{
    CompileOptions, Compiler,
    dialects::stablehlo::*,
    ir::{collect_ops, raw},
};
use melior::ir::{AttributeLike, Module};
use mlir_sys::{
    MlirAttribute, MlirOperation, mlirAttributeEqual, mlirAttributeIsADenseElements, mlirOperationRemoveAttributeByName,
    mlirOperationSetAttributeByName,
};

fn compiler() -> Compiler {
    Compiler::new(CompileOptions::default()).expect("compiler")
}

/// Parses (and verifies) the functions in `funcs` as one module.
fn parse<'c>(compiler: &'c Compiler, funcs: &str) -> Module<'c> {
    let text = format!("module {{\n{funcs}\n}}\n");
    compiler.parse("test.mlir", &text).unwrap_or_else(|e| panic!("does not parse:\n{e}\n{text}"))
}

/// Every op named `name` in the module, in order.
fn ops(module: &Module, name: &str) -> Vec<MlirOperation> {
    collect_ops(&module.as_operation(), |o| floors::ir::op_name(&o) == name)
}

/// The only op named `name` in the module.
fn only(module: &Module, name: &str) -> MlirOperation {
    let found = ops(module, name);
    assert_eq!(found.len(), 1, "expected one {name}");
    found[0]
}

fn same(a: MlirAttribute, b: MlirAttribute) -> bool {
    // SAFETY: both attributes are live, from the test's context.
    unsafe { mlirAttributeEqual(a, b) }
}

// --- dot_general -----------------------------------------------------------

const DOT: &str = r#"
func.func @matmul(%arg0: tensor<64x64xf32>, %arg1: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
func.func @bmm(%arg0: tensor<4x16x32xf32>, %arg1: tensor<4x32x8xf32>) -> tensor<4x16x8xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x16x32xf32>, tensor<4x32x8xf32>) -> tensor<4x16x8xf32>
  return %0 : tensor<4x16x8xf32>
}
func.func @no_precision(%arg0: tensor<64x64xf32>, %arg1: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
func.func @high(%arg0: tensor<64x64xf32>, %arg1: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [HIGH, HIGHEST] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
"#;

#[test]
fn dot_general() {
    let c = compiler();
    let m = parse(&c, DOT);
    let dots: Vec<DotGeneralOp> = ops(&m, "stablehlo.dot_general").into_iter().map(|o| DotGeneralOp::cast(o).expect("cast")).collect();
    assert_eq!(dots.len(), 4);

    let matmul = DotDimensionNumbers { lhs_contracting_dims: vec![1], rhs_contracting_dims: vec![0], ..Default::default() };
    assert_eq!(dots[0].dimension_numbers(), Some(matmul.clone()));
    assert_eq!(dots[0].precision_config(), Some(vec![Precision::Default, Precision::Default]));

    assert_eq!(
        dots[1].dimension_numbers(),
        Some(DotDimensionNumbers {
            lhs_batching_dims: vec![0],
            rhs_batching_dims: vec![0],
            lhs_contracting_dims: vec![2],
            rhs_contracting_dims: vec![1],
        })
    );

    // Absent precision_config: DEFAULT for both operands.
    assert_eq!(dots[2].dimension_numbers(), Some(matmul));
    assert!(raw::attr(dots[2].operation(), "precision_config").is_none());
    assert_eq!(dots[2].precision_config(), Some(vec![Precision::Default, Precision::Default]));

    assert_eq!(dots[3].precision_config(), Some(vec![Precision::High, Precision::Highest]));
}

// --- convolution -----------------------------------------------------------

const CONV: &str = r#"
func.func @conv(%arg0: tensor<1x8x8x4xf32>, %arg1: tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32> {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}
func.func @conv_generic(%arg0: tensor<1x8x8x4xf32>, %arg1: tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}
func.func @conv_defaults(%arg0: tensor<1x8x8x4xf32>, %arg1: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}
func.func @conv_nchw(%xn: tensor<2x4x9x9xf32>, %wg: tensor<8x2x3x3xf32>) -> tensor<2x8x4x4xf32> {
  %0 = stablehlo.convolution(%xn, %wg) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x4x9x9xf32>, tensor<8x2x3x3xf32>) -> tensor<2x8x4x4xf32>
  return %0 : tensor<2x8x4x4xf32>
}
"#;

#[test]
fn convolution() {
    let c = compiler();
    let m = parse(&c, CONV);
    let convs: Vec<ConvolutionOp> = ops(&m, "stablehlo.convolution").into_iter().map(|o| ConvolutionOp::cast(o).expect("cast")).collect();
    assert_eq!(convs.len(), 4);

    let nhwc = ConvDimensionNumbers {
        input_batch_dim: 0,
        input_feature_dim: 3,
        input_spatial_dims: vec![1, 2],
        kernel_input_feature_dim: 2,
        kernel_output_feature_dim: 3,
        kernel_spatial_dims: vec![0, 1],
        output_batch_dim: 0,
        output_feature_dim: 3,
        output_spatial_dims: vec![1, 2],
    };
    // The pretty example and its generic form (splat padding) read the same.
    for conv in &convs[..2] {
        assert_eq!(conv.dimension_numbers(), Some(nhwc.clone()));
        assert_eq!(conv.num_spatial_dims(), Some(2));
        assert_eq!(conv.window_strides(), Some(vec![1, 1]));
        assert_eq!(conv.padding(), Some(vec![(1, 1), (1, 1)]));
        assert_eq!(conv.lhs_dilation(), Some(vec![1, 1]));
        assert_eq!(conv.rhs_dilation(), Some(vec![1, 1]));
        assert_eq!(conv.window_reversal(), Some(vec![false, false]));
        assert_eq!(conv.feature_group_count(), Some(1));
        assert_eq!(conv.batch_group_count(), Some(1));
        assert_eq!(conv.precision_config(), Some(vec![Precision::Default, Precision::Default]));
    }

    // `window = {}`: every window attribute absent, spec defaults.
    let d = convs[2];
    for name in ["window_strides", "padding", "lhs_dilation", "rhs_dilation", "window_reversal", "precision_config"] {
        assert!(raw::attr(d.operation(), name).is_none(), "{name} should be absent");
    }
    assert_eq!(d.dimension_numbers(), Some(nhwc));
    assert_eq!(d.window_strides(), Some(vec![1, 1]));
    assert_eq!(d.padding(), Some(vec![(0, 0), (0, 0)]));
    assert_eq!(d.lhs_dilation(), Some(vec![1, 1]));
    assert_eq!(d.rhs_dilation(), Some(vec![1, 1]));
    assert_eq!(d.window_reversal(), Some(vec![false, false]));
    assert_eq!(d.precision_config(), Some(vec![Precision::Default, Precision::Default]));

    // NCHW / OIHW, some attributes present, grouped.
    let g = convs[3];
    assert_eq!(
        g.dimension_numbers(),
        Some(ConvDimensionNumbers {
            input_batch_dim: 0,
            input_feature_dim: 1,
            input_spatial_dims: vec![2, 3],
            kernel_input_feature_dim: 1,
            kernel_output_feature_dim: 0,
            kernel_spatial_dims: vec![2, 3],
            output_batch_dim: 0,
            output_feature_dim: 1,
            output_spatial_dims: vec![2, 3],
        })
    );
    assert_eq!(g.window_strides(), Some(vec![2, 2]));
    assert_eq!(g.padding(), Some(vec![(0, 0), (0, 0)]));
    assert_eq!(g.lhs_dilation(), Some(vec![1, 1]));
    assert_eq!(g.feature_group_count(), Some(2));
}

// --- gather / scatter ------------------------------------------------------

const GATHER_SCATTER: &str = r#"
func.func @gather(%arg0: tensor<10x6xf32>, %5: tensor<5x1xi32>) -> tensor<5x6xf32> {
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 6>}> : (tensor<10x6xf32>, tensor<5x1xi32>) -> tensor<5x6xf32>
  return %13 : tensor<5x6xf32>
}
func.func @gather_sorted(%arg0: tensor<10x6xf32>, %5: tensor<5x1xi32>) -> tensor<5x6xf32> {
  %0 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 6>}> : (tensor<10x6xf32>, tensor<5x1xi32>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}
func.func @gather_no_flag(%arg0: tensor<10x6xf32>, %5: tensor<5x1xi32>) -> tensor<5x6xf32> {
  %0 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 6>}> : (tensor<10x6xf32>, tensor<5x1xi32>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}
func.func @scatter(%arg0: tensor<10x6xf32>, %5: tensor<4x1xi32>, %arg2: tensor<4x6xf32>) -> tensor<10x6xf32> {
    %6 = "stablehlo.scatter"(%arg0, %5, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %7 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %7 : tensor<f32>
    }) : (tensor<10x6xf32>, tensor<4x1xi32>, tensor<4x6xf32>) -> tensor<10x6xf32>
  return %6 : tensor<10x6xf32>
}
func.func @scatter_no_flags(%arg0: tensor<10x6xf32>, %5: tensor<4x1xi32>, %arg2: tensor<4x6xf32>) -> tensor<10x6xf32> {
  %0 = "stablehlo.scatter"(%arg0, %5, %arg2) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = true, unique_indices = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<10x6xf32>, tensor<4x1xi32>, tensor<4x6xf32>) -> tensor<10x6xf32>
  %1 = "stablehlo.scatter"(%arg0, %5, %arg2) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<10x6xf32>, tensor<4x1xi32>, tensor<4x6xf32>) -> tensor<10x6xf32>
  return %1 : tensor<10x6xf32>
}
"#;

#[test]
fn gather() {
    let c = compiler();
    let m = parse(&c, GATHER_SCATTER);
    let g: Vec<GatherOp> = ops(&m, "stablehlo.gather").into_iter().map(|o| GatherOp::cast(o).expect("cast")).collect();
    assert_eq!(g.len(), 3);
    let dn = GatherDimensionNumbers {
        offset_dims: vec![1],
        collapsed_slice_dims: vec![0],
        operand_batching_dims: vec![],
        start_indices_batching_dims: vec![],
        start_index_map: vec![0],
        index_vector_dim: 1,
    };
    for op in &g {
        assert_eq!(op.dimension_numbers(), Some(dn.clone()));
        assert_eq!(op.slice_sizes(), Some(vec![1, 6]));
    }
    assert!(!g[0].indices_are_sorted());
    assert!(g[1].indices_are_sorted());
    // Absent: false.
    assert!(raw::attr(g[2].operation(), "indices_are_sorted").is_none());
    assert!(!g[2].indices_are_sorted());
}

#[test]
fn scatter() {
    let c = compiler();
    let m = parse(&c, GATHER_SCATTER);
    let s: Vec<ScatterOp> = ops(&m, "stablehlo.scatter").into_iter().map(|o| ScatterOp::cast(o).expect("cast")).collect();
    assert_eq!(s.len(), 3);
    let dn = ScatterDimensionNumbers {
        update_window_dims: vec![1],
        inserted_window_dims: vec![0],
        input_batching_dims: vec![],
        scatter_indices_batching_dims: vec![],
        scatter_dims_to_operand_dims: vec![0],
        index_vector_dim: 1,
    };
    for op in &s {
        assert_eq!(op.dimension_numbers(), Some(dn.clone()));
        assert_eq!(op.num_inputs(), 1);
    }
    assert!(!s[0].indices_are_sorted());
    assert!(!s[0].unique_indices());
    assert!(s[1].indices_are_sorted());
    assert!(s[1].unique_indices());
    assert!(raw::attr(s[2].operation(), "indices_are_sorted").is_none());
    assert!(raw::attr(s[2].operation(), "unique_indices").is_none());
    assert!(!s[2].indices_are_sorted());
    assert!(!s[2].unique_indices());
}

// --- compare ---------------------------------------------------------------

const COMPARE: &str = r#"
func.func @cmp(%arg1: tensor<f32>, %arg3: tensor<f32>, %arg2: tensor<i32>, %arg4: tensor<i32>, %4: tensor<f32>, %8: tensor<f32>) -> (tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>) {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %10 = stablehlo.compare NE, %arg2, %arg4 : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %2, %6, %9, %10 : tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>
}
"#;

#[test]
fn compare() {
    let c = compiler();
    let m = parse(&c, COMPARE);
    let cmps: Vec<CompareOp> = ops(&m, "stablehlo.compare").into_iter().map(|o| CompareOp::cast(o).expect("cast")).collect();
    let got: Vec<_> = cmps.iter().map(|c| (c.direction(), c.compare_type())).collect();
    assert_eq!(
        got,
        vec![
            (Some(ComparisonDirection::Gt), Some(ComparisonType::Float)),
            (Some(ComparisonDirection::Lt), Some(ComparisonType::Signed)),
            (Some(ComparisonDirection::Lt), Some(ComparisonType::TotalOrder)),
            (Some(ComparisonDirection::Ne), None),
        ]
    );
}

#[test]
fn enums_print_parse_and_round_trip() {
    let c = compiler();
    let ctx = c.context().to_raw();
    assert_eq!(ComparisonDirection::Gt.to_string(), "GT");
    assert_eq!(ComparisonType::Float.to_string(), "FLOAT");
    assert_eq!(ComparisonType::TotalOrder.to_string(), "TOTALORDER");
    assert_eq!(ComparisonType::NoType.to_string(), "NOTYPE");
    assert_eq!(Precision::Highest.to_string(), "HIGHEST");
    assert_eq!("LE".parse::<ComparisonDirection>(), Ok(ComparisonDirection::Le));
    assert!("gt".parse::<ComparisonDirection>().is_err());

    for &d in ComparisonDirection::ALL {
        let a = d.to_attr(ctx);
        assert!(!a.ptr.is_null());
        assert_eq!(ComparisonDirection::from_attr(a), Some(d));
        assert_eq!(ComparisonType::from_attr(a), None);
        assert_eq!(Precision::from_attr(a), None);
    }
    for &t in ComparisonType::ALL {
        assert_eq!(ComparisonType::from_attr(t.to_attr(ctx)), Some(t));
    }
    for &p in Precision::ALL {
        assert_eq!(Precision::from_attr(p.to_attr(ctx)), Some(p));
        assert_eq!(ComparisonDirection::from_attr(p.to_attr(ctx)), None);
    }
    // The attribute built from Rust is the one in the parsed IR.
    let m = parse(&c, COMPARE);
    let first = ops(&m, "stablehlo.compare")[0];
    let in_ir = raw::attr(first, "comparison_direction").expect("comparison_direction");
    assert!(same(in_ir, ComparisonDirection::Gt.to_attr(ctx)));
    let null = MlirAttribute { ptr: std::ptr::null() };
    assert_eq!(ComparisonDirection::from_attr(null), None);
}

// --- dimension numbers round trips ----------------------------------------

#[test]
fn dimension_numbers_round_trip() {
    let c = compiler();
    let ctx = c.context().to_raw();

    let dots = [
        DotDimensionNumbers::default(),
        DotDimensionNumbers {
            lhs_batching_dims: vec![0, 1],
            rhs_batching_dims: vec![1, 0],
            lhs_contracting_dims: vec![3],
            rhs_contracting_dims: vec![2],
        },
    ];
    for d in &dots {
        let a = d.to_attr(ctx);
        assert_eq!(DotDimensionNumbers::from_attr(a).as_ref(), Some(d));
        assert_eq!(ConvDimensionNumbers::from_attr(a), None);
        assert_eq!(GatherDimensionNumbers::from_attr(a), None);
        assert_eq!(ScatterDimensionNumbers::from_attr(a), None);
    }

    let conv = ConvDimensionNumbers {
        input_batch_dim: 0,
        input_feature_dim: 4,
        input_spatial_dims: vec![1, 2, 3],
        kernel_input_feature_dim: 3,
        kernel_output_feature_dim: 4,
        kernel_spatial_dims: vec![0, 1, 2],
        output_batch_dim: 0,
        output_feature_dim: 1,
        output_spatial_dims: vec![2, 3, 4],
    };
    let a = conv.to_attr(ctx);
    assert_eq!(ConvDimensionNumbers::from_attr(a), Some(conv));
    assert_eq!(DotDimensionNumbers::from_attr(a), None);

    let gather = GatherDimensionNumbers {
        offset_dims: vec![2, 3],
        collapsed_slice_dims: vec![1],
        operand_batching_dims: vec![0],
        start_indices_batching_dims: vec![1],
        start_index_map: vec![1, 2],
        index_vector_dim: 2,
    };
    let a = gather.to_attr(ctx);
    assert_eq!(GatherDimensionNumbers::from_attr(a), Some(gather));
    assert_eq!(ScatterDimensionNumbers::from_attr(a), None);

    let scatter = ScatterDimensionNumbers {
        update_window_dims: vec![2, 3],
        inserted_window_dims: vec![1],
        input_batching_dims: vec![0],
        scatter_indices_batching_dims: vec![1],
        scatter_dims_to_operand_dims: vec![1, 2],
        index_vector_dim: 2,
    };
    let a = scatter.to_attr(ctx);
    assert_eq!(ScatterDimensionNumbers::from_attr(a), Some(scatter));
    assert_eq!(GatherDimensionNumbers::from_attr(a), None);

    // Reading the IR's attribute and building it again gives the same
    // (uniqued) attribute.
    let m = parse(&c, DOT);
    let dot = ops(&m, "stablehlo.dot_general")[1];
    let in_ir = raw::attr(dot, "dot_dimension_numbers").expect("dot_dimension_numbers");
    let dn = DotDimensionNumbers::from_attr(in_ir).expect("dot dims");
    assert!(same(dn.to_attr(ctx), in_ir));

    let m = parse(&c, CONV);
    let conv = ops(&m, "stablehlo.convolution")[3];
    let in_ir = raw::attr(conv, "dimension_numbers").expect("dimension_numbers");
    assert!(same(ConvDimensionNumbers::from_attr(in_ir).expect("conv dims").to_attr(ctx), in_ir));

    let m = parse(&c, GATHER_SCATTER);
    let gather = ops(&m, "stablehlo.gather")[0];
    let in_ir = raw::attr(gather, "dimension_numbers").expect("dimension_numbers");
    assert!(same(GatherDimensionNumbers::from_attr(in_ir).expect("gather dims").to_attr(ctx), in_ir));
    let scatter = ops(&m, "stablehlo.scatter")[0];
    let in_ir = raw::attr(scatter, "scatter_dimension_numbers").expect("scatter_dimension_numbers");
    assert!(same(ScatterDimensionNumbers::from_attr(in_ir).expect("scatter dims").to_attr(ctx), in_ir));

    // Null and builtin attributes are no dimension numbers.
    let null = MlirAttribute { ptr: std::ptr::null() };
    assert_eq!(DotDimensionNumbers::from_attr(null), None);
    let slice_sizes = raw::attr(gather, "slice_sizes").expect("slice_sizes");
    assert_eq!(GatherDimensionNumbers::from_attr(slice_sizes), None);
}

// --- shape ops -------------------------------------------------------------

const SHAPE_OPS: &str = r#"
func.func @shape(%arg0: tensor<7x6xf32>, %0: tensor<f32>, %1: tensor<10x9xf32>, %a: tensor<4x6xf32>, %b: tensor<3x6xf32>, %arg1: tensor<16xf32>, %t: tensor<16x32xf32>, %x: tensor<12x8xf32>, %2: tensor<i32>, %5: tensor<i32>) -> (tensor<10x9xf32>, tensor<4x6xf32>, tensor<7x6xf32>, tensor<4x6xf32>, tensor<1x16xf32>, tensor<32x16xf32>, tensor<8x16xi32>, tensor<4x8xf32>) {
    %p = stablehlo.pad %arg0, %0, low = [1, 0], high = [2, 3], interior = [0, 0] : (tensor<7x6xf32>, tensor<f32>) -> tensor<10x9xf32>
    %s = stablehlo.slice %1 [2:10:2, 1:7] : (tensor<10x9xf32>) -> tensor<4x6xf32>
    %c = stablehlo.concatenate %a, %b, dim = 0 : (tensor<4x6xf32>, tensor<3x6xf32>) -> tensor<7x6xf32>
    %r = stablehlo.reverse %a, dims = [1] : tensor<4x6xf32>
    %bc = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %tr = stablehlo.transpose %t, dims = [1, 0] : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %i = stablehlo.iota dim = 1 : tensor<8x16xi32>
    %6 = stablehlo.dynamic_slice %x, %2, %5, sizes = [4, 8] : (tensor<12x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  return %p, %s, %c, %r, %bc, %tr, %i, %6 : tensor<10x9xf32>, tensor<4x6xf32>, tensor<7x6xf32>, tensor<4x6xf32>, tensor<1x16xf32>, tensor<32x16xf32>, tensor<8x16xi32>, tensor<4x8xf32>
}
"#;

#[test]
fn shape_ops() {
    let c = compiler();
    let m = parse(&c, SHAPE_OPS);

    let pad = PadOp::cast(only(&m, "stablehlo.pad")).expect("pad");
    assert_eq!(pad.edge_padding_low(), Some(vec![1, 0]));
    assert_eq!(pad.edge_padding_high(), Some(vec![2, 3]));
    assert_eq!(pad.interior_padding(), Some(vec![0, 0]));

    let slice = SliceOp::cast(only(&m, "stablehlo.slice")).expect("slice");
    assert_eq!(slice.start_indices(), Some(vec![2, 1]));
    assert_eq!(slice.limit_indices(), Some(vec![10, 7]));
    assert_eq!(slice.strides(), Some(vec![2, 1]));

    let concat = ConcatenateOp::cast(only(&m, "stablehlo.concatenate")).expect("concatenate");
    assert_eq!(concat.dimension(), Some(0));

    let rev = ReverseOp::cast(only(&m, "stablehlo.reverse")).expect("reverse");
    assert_eq!(rev.dimensions(), Some(vec![1]));

    let bc = BroadcastInDimOp::cast(only(&m, "stablehlo.broadcast_in_dim")).expect("broadcast_in_dim");
    assert_eq!(bc.broadcast_dimensions(), Some(vec![1]));

    let tr = TransposeOp::cast(only(&m, "stablehlo.transpose")).expect("transpose");
    assert_eq!(tr.permutation(), Some(vec![1, 0]));

    let iota = IotaOp::cast(only(&m, "stablehlo.iota")).expect("iota");
    assert_eq!(iota.iota_dimension(), Some(1));

    let ds = DynamicSliceOp::cast(only(&m, "stablehlo.dynamic_slice")).expect("dynamic_slice");
    assert_eq!(ds.slice_sizes(), Some(vec![4, 8]));
}

// --- reduce, reduce_window, sort, constant ---------------------------------

const REDUCTIONS: &str = r#"
func.func @reduce(%arg0: tensor<8x16xf32>, %cst: tensor<f32>, %0: tensor<8x16xi32>, %c: tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>) {
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
  return %1#0, %1#1 : tensor<8xf32>, tensor<8xi32>
}
func.func @col_max(%arg0: tensor<16x32xf32>, %cst: tensor<f32>) -> tensor<32xf32> {
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [0] : (tensor<16x32xf32>, tensor<f32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}
func.func @cumsum(%arg0: tensor<4x16xf32>, %0: tensor<f32>) -> tensor<4x16xf32> {
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [15, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 16>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  return %1 : tensor<4x16xf32>
}
func.func @window_defaults(%arg0: tensor<4x16xf32>, %0: tensor<f32>) -> tensor<4x1xf32> {
  %1 = "stablehlo.reduce_window"(%arg0, %0) <{window_dimensions = array<i64: 1, 16>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %2 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x1xf32>
  return %1 : tensor<4x1xf32>
}
func.func @sort(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %1 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.select %1, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %4 = stablehlo.select %3, %cst_1, %2 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.select %5, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %8 = stablehlo.select %7, %cst_4, %6 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = "stablehlo.sort"(%arg0) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0, %s : tensor<8x16xf32>, tensor<8x16xf32>
}
"#;

#[test]
fn reduce() {
    let c = compiler();
    let m = parse(&c, REDUCTIONS);
    let r: Vec<ReduceOp> = ops(&m, "stablehlo.reduce").into_iter().map(|o| ReduceOp::cast(o).expect("cast")).collect();
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].dimensions(), Some(vec![1]));
    assert_eq!(r[0].num_inputs(), 2);
    assert_eq!(r[1].dimensions(), Some(vec![0]));
    assert_eq!(r[1].num_inputs(), 1);
}

#[test]
fn reduce_window() {
    let c = compiler();
    let m = parse(&c, REDUCTIONS);
    let w: Vec<ReduceWindowOp> = ops(&m, "stablehlo.reduce_window").into_iter().map(|o| ReduceWindowOp::cast(o).expect("cast")).collect();
    assert_eq!(w.len(), 2);
    assert_eq!(w[0].window_dimensions(), Some(vec![1, 16]));
    assert_eq!(w[0].window_strides(), Some(vec![1, 1]));
    assert_eq!(w[0].base_dilations(), Some(vec![1, 1]));
    assert_eq!(w[0].window_dilations(), Some(vec![1, 1]));
    assert_eq!(w[0].padding(), Some(vec![(0, 0), (15, 0)]));
    assert_eq!(w[0].num_inputs(), 1);

    // Only window_dimensions given.
    for name in ["window_strides", "base_dilations", "window_dilations", "padding"] {
        assert!(raw::attr(w[1].operation(), name).is_none(), "{name} should be absent");
    }
    assert_eq!(w[1].window_dimensions(), Some(vec![1, 16]));
    assert_eq!(w[1].window_strides(), Some(vec![1, 1]));
    assert_eq!(w[1].base_dilations(), Some(vec![1, 1]));
    assert_eq!(w[1].window_dilations(), Some(vec![1, 1]));
    assert_eq!(w[1].padding(), Some(vec![(0, 0), (0, 0)]));
}

#[test]
fn sort() {
    let c = compiler();
    let m = parse(&c, REDUCTIONS);
    let s: Vec<SortOp> = ops(&m, "stablehlo.sort").into_iter().map(|o| SortOp::cast(o).expect("cast")).collect();
    assert_eq!(s.len(), 2);
    assert_eq!(s[0].dimension(), Some(1));
    assert_eq!(s[0].resolved_dimension(), Some(1));
    assert!(s[0].is_stable());
    // Absent: dimension -1 (the last one), not stable.
    assert!(raw::attr(s[1].operation(), "dimension").is_none());
    assert!(raw::attr(s[1].operation(), "is_stable").is_none());
    assert_eq!(s[1].dimension(), Some(-1));
    assert_eq!(s[1].resolved_dimension(), Some(1));
    assert!(!s[1].is_stable());
}

#[test]
fn constant() {
    let c = compiler();
    let m = parse(&c, REDUCTIONS);
    let consts = ops(&m, "stablehlo.constant");
    assert_eq!(consts.len(), 6);
    let k = ConstantOp::cast(consts[0]).expect("constant");
    let v = k.value().expect("value");
    // SAFETY: `v` is a live attribute returned by the accessor under test.
    assert!(unsafe { mlirAttributeIsADenseElements(v) });
    let ctx = c.context();
    let zero = melior::ir::Attribute::parse(ctx, "dense<0.000000e+00> : tensor<f32>").expect("attr");
    assert!(same(v, zero.to_raw()));
    let nan = melior::ir::Attribute::parse(ctx, "dense<0x7FC00000> : tensor<f32>").expect("attr");
    assert!(same(ConstantOp::cast(consts[2]).and_then(|k| k.value()).expect("value"), nan.to_raw()));
}

// --- cast ------------------------------------------------------------------

#[test]
fn cast_refuses_other_ops() {
    let c = compiler();
    let m = parse(&c, SHAPE_OPS);
    let pad = only(&m, "stablehlo.pad");
    let slice = only(&m, "stablehlo.slice");
    assert!(PadOp::cast(pad).is_some());
    assert!(SliceOp::cast(pad).is_none());
    assert!(PadOp::cast(slice).is_none());
    assert!(DotGeneralOp::cast(pad).is_none());
    assert!(ConvolutionOp::cast(pad).is_none());
    assert!(GatherOp::cast(pad).is_none());
    assert!(ScatterOp::cast(pad).is_none());
    assert!(CompareOp::cast(pad).is_none());
    assert!(ReduceOp::cast(pad).is_none());
    assert!(ReduceWindowOp::cast(pad).is_none());
    assert!(SortOp::cast(pad).is_none());
    assert!(ConstantOp::cast(pad).is_none());
    assert!(IotaOp::cast(slice).is_none());

    let module_op = m.as_operation();
    assert!(PadOp::cast(module_op).is_none());
    let func = ops(&m, "func.func")[0];
    assert!(TransposeOp::cast(func).is_none());
    let null = MlirOperation { ptr: std::ptr::null_mut() };
    assert!(PadOp::cast(null).is_none());

    // A melior OperationRef works as well as a raw handle.
    // SAFETY: `pad` is a live op of the parsed module, which outlives the reference.
    let as_ref = unsafe { melior::ir::OperationRef::from_raw(pad) };
    assert_eq!(PadOp::cast(as_ref).map(|p| p.operation().ptr), Some(pad.ptr));
    assert_eq!(PadOp::NAME, "stablehlo.pad");
}

// --- malformed IR ----------------------------------------------------------

/// Replaces (or adds) attribute `name` of `op` with the parsed `value`,
/// bypassing the verifier, to see accessors refuse what they cannot read.
fn set_attr(c: &Compiler, op: MlirOperation, name: &str, value: &str) {
    let a = melior::ir::Attribute::parse(c.context(), value).unwrap_or_else(|| panic!("bad attribute {value}"));
    // SAFETY: `op` is live and `a` belongs to its context.
    unsafe { mlirOperationSetAttributeByName(op, raw::sref(name), a.to_raw()) }
}

fn remove_attr(op: MlirOperation, name: &str) {
    // SAFETY: `op` is live; removing an absent attribute is a no-op.
    unsafe { mlirOperationRemoveAttributeByName(op, raw::sref(name)) };
}

#[test]
fn malformed_attributes() {
    let c = compiler();
    let m = parse(&c, CONV);
    let conv = ConvolutionOp::cast(ops(&m, "stablehlo.convolution")[0]).expect("cast");
    let op = conv.operation();

    // Padding of the wrong shape or element type (still a dense int elements
    // attribute, which is what the op's properties store).
    set_attr(&c, op, "padding", "dense<1> : tensor<2x3xi64>");
    assert_eq!(conv.padding(), None);
    set_attr(&c, op, "padding", "dense<1> : tensor<2x2xi32>");
    assert_eq!(conv.padding(), None);
    set_attr(&c, op, "padding", "dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>");
    assert_eq!(conv.padding(), Some(vec![(0, 1), (2, 3)]));

    // An inherent attribute of the wrong kind cannot be stored at all: the
    // op's properties drop it, so it reads as absent (the spec default, or
    // None for a required one).
    set_attr(&c, op, "padding", "array<i64: 1, 1, 1, 1>");
    assert!(raw::attr(op, "padding").is_none());
    assert_eq!(conv.padding(), Some(vec![(0, 0), (0, 0)]));
    set_attr(&c, op, "window_strides", "dense<2> : tensor<2xi64>");
    assert!(raw::attr(op, "window_strides").is_none());
    assert_eq!(conv.window_strides(), Some(vec![1, 1]));
    set_attr(&c, op, "window_reversal", "array<i1: true, false>");
    assert_eq!(conv.window_reversal(), Some(vec![true, false]));
    set_attr(&c, op, "feature_group_count", "\"one\"");
    assert_eq!(conv.feature_group_count(), None);
    set_attr(&c, op, "batch_group_count", "true");
    assert_eq!(conv.batch_group_count(), None);
    set_attr(&c, op, "batch_group_count", "1 : i32");
    assert_eq!(conv.batch_group_count(), None);

    // A precision_config entry that is not a precision.
    set_attr(&c, op, "precision_config", "[#stablehlo<comparison_direction GT>, #stablehlo<precision HIGH>]");
    assert_eq!(conv.precision_config(), None);

    // Without dimension numbers the window's rank is unknown.
    remove_attr(op, "dimension_numbers");
    assert_eq!(conv.dimension_numbers(), None);
    assert_eq!(conv.window_strides(), None);

    let m = parse(&c, DOT);
    let dot = DotGeneralOp::cast(ops(&m, "stablehlo.dot_general")[0]).expect("cast");
    set_attr(
        &c,
        dot.operation(),
        "dot_dimension_numbers",
        "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>",
    );
    assert_eq!(dot.dimension_numbers(), None);

    let m = parse(&c, COMPARE);
    let cmp = CompareOp::cast(ops(&m, "stablehlo.compare")[0]).expect("cast");
    set_attr(&c, cmp.operation(), "comparison_direction", "#stablehlo<comparison_type FLOAT>");
    assert_eq!(cmp.direction(), None);
    remove_attr(cmp.operation(), "compare_type");
    assert_eq!(cmp.compare_type(), None);

    let m = parse(&c, REDUCTIONS);
    let sort = SortOp::cast(ops(&m, "stablehlo.sort")[0]).expect("cast");
    set_attr(&c, sort.operation(), "dimension", "2 : i64");
    assert_eq!(sort.dimension(), Some(2));
    assert_eq!(sort.resolved_dimension(), None);
    set_attr(&c, sort.operation(), "dimension", "-2 : i64");
    assert_eq!(sort.resolved_dimension(), Some(0));
    set_attr(&c, sort.operation(), "is_stable", "1 : i64");
    assert!(!sort.is_stable());
}

// --- custom_call -------------------------------------------------------------

const CUSTOM_CALLS: &str = r#"
func.func @calls(%arg0: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
    %0 = stablehlo.custom_call @rms_norm(%arg0) {backend_config = "", mhlo.backend_config = {eps = 9.99999974E-6 : f32}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %1 = stablehlo.custom_call @alias(%0) {backend_config = "", has_side_effect = true, mhlo.backend_config = {}, output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %2 = "stablehlo.custom_call"(%1) {call_target_name = "typed", api_version = 4 : i32, backend_config = {scale = 2.0 : f32}} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}
"#;

#[test]
fn custom_call_accessors() {
    let c = compiler();
    let m = parse(&c, CUSTOM_CALLS);
    let calls: Vec<CustomCallOp> = ops(&m, "stablehlo.custom_call").into_iter().map(|o| CustomCallOp::cast(o).expect("cast")).collect();
    assert!(CustomCallOp::cast(only(&m, "func.return")).is_none());
    let [jax, alias, typed] = calls.as_slice() else { panic!("three calls") };
    assert_eq!(jax.call_target_name().as_deref(), Some("rms_norm"));
    assert_eq!((jax.has_side_effect(), jax.api_version()), (false, Some(1)));
    assert!(matches!(jax.backend_config(), Some(BackendConfig::String(_))));
    let dict = jax.mhlo_backend_config().expect("mhlo.backend_config");
    assert_eq!(raw::attr_text(dict), "{eps = 9.99999974E-6 : f32}");
    assert_eq!(jax.output_operand_aliases(), Some(vec![]));
    assert!(alias.has_side_effect());
    assert_eq!(
        alias.output_operand_aliases(),
        Some(vec![OutputOperandAlias { output_tuple_indices: vec![], operand_index: 0, operand_tuple_indices: vec![] }])
    );
    assert_eq!(typed.api_version(), Some(4));
    assert!(typed.mhlo_backend_config().is_none());
    assert!(matches!(typed.backend_config(), Some(BackendConfig::Dictionary(_))));
}

// --- linear algebra, FFT, collectives, bounds ------------------------------

const LINALG_FFT: &str = r#"
func.func @solve(%a: tensor<3x3xf32>, %b: tensor<3x1xf32>) -> tensor<3x1xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}
func.func @chol(%a: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  %0 = stablehlo.cholesky %a, lower = true : tensor<3x3xf32>
  %1 = stablehlo.cholesky %a : tensor<3x3xf32>
  return %0, %1 : tensor<3x3xf32>, tensor<3x3xf32>
}
func.func @rfft(%x: tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>> {
  %0 = stablehlo.fft %x, type =  RFFT, length = [8] : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
  return %0 : tensor<4x5xcomplex<f32>>
}
func.func @collectives(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<8xf32>) -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}
func.func @bounded(%x: tensor<?x4xf32, #stablehlo.bounds<8, ?>>) -> tensor<?x4xf32, #stablehlo.bounds<8, ?>> {
  return %x : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
}
"#;

#[test]
fn new_enums_round_trip() {
    let c = compiler();
    let ctx = c.context().to_raw();
    assert_eq!(Transpose::NoTranspose.to_string(), "NO_TRANSPOSE");
    assert_eq!("IRFFT".parse::<FftType>(), Ok(FftType::Irfft));
    assert_eq!(RngDistribution::Normal.code(), 2);
    assert_eq!(RngDistribution::from_code(0), None);
    assert_eq!(RngAlgorithm::ThreeFry.to_string(), "THREE_FRY");
    for &t in Transpose::ALL {
        assert_eq!(Transpose::from_attr(t.to_attr(ctx)), Some(t));
        assert_eq!(FftType::from_attr(t.to_attr(ctx)), None);
    }
    for &f in FftType::ALL {
        assert_eq!(FftType::from_attr(f.to_attr(ctx)), Some(f));
    }
    for &d in RngDistribution::ALL {
        assert_eq!(RngDistribution::from_attr(d.to_attr(ctx)), Some(d));
    }
    for &a in RngAlgorithm::ALL {
        assert_eq!(RngAlgorithm::from_attr(a.to_attr(ctx)), Some(a));
    }
    // The attributes print as JAX spells them.
    assert_eq!(raw::attr_text(Transpose::NoTranspose.to_attr(ctx)), "#stablehlo<transpose NO_TRANSPOSE>");
    assert_eq!(raw::attr_text(FftType::Fft.to_attr(ctx)), "#stablehlo<fft_type FFT>");
    assert_eq!(raw::attr_text(RngDistribution::Uniform.to_attr(ctx)), "#stablehlo<rng_distribution UNIFORM>");
    let ch = ChannelHandle { handle: 1, kind: 2 };
    assert_eq!(raw::attr_text(ch.to_attr(ctx)), "#stablehlo.channel_handle<handle = 1, type = 2>");
    assert_eq!(ChannelHandle::from_attr(ch.to_attr(ctx)), Some(ch));
    let b = bounds_to_attr(ctx, &[Some(8), None]);
    assert_eq!(raw::attr_text(b), "#stablehlo.bounds<8, ?>");
}

#[test]
fn linalg_fft_collective_accessors() {
    let c = compiler();
    let m = parse(&c, LINALG_FFT);
    let ts = TriangularSolveOp::cast(only(&m, "stablehlo.triangular_solve")).expect("cast");
    assert_eq!((ts.left_side(), ts.lower(), ts.unit_diagonal()), (Some(true), Some(true), Some(false)));
    assert_eq!(ts.transpose_a(), Some(Transpose::Adjoint));
    let chol: Vec<CholeskyOp> = ops(&m, "stablehlo.cholesky").into_iter().map(|o| CholeskyOp::cast(o).expect("cast")).collect();
    assert_eq!(chol.iter().map(|o| o.lower()).collect::<Vec<_>>(), vec![true, false]);
    let fft = FftOp::cast(only(&m, "stablehlo.fft")).expect("cast");
    assert_eq!((fft.fft_type(), fft.fft_length()), (Some(FftType::Rfft), Some(vec![8])));
    assert!(FftOp::cast(ts.operation()).is_none());
    let permutes = ops(&m, "stablehlo.collective_permute");
    assert_eq!(ChannelHandle::of(permutes[0]), Some(ChannelHandle { handle: 3, kind: 1 }));
    assert_eq!(ChannelHandle::of(permutes[1]), Some(ChannelHandle::default()));
    // An attribute of another kind is dropped by the op's properties: absent.
    set_attr(&c, permutes[0], "channel_handle", "1 : i64");
    assert!(raw::attr(permutes[0], "channel_handle").is_none());
    assert_eq!(ChannelHandle::of(permutes[0]), Some(ChannelHandle::default()));
    // On an op without the inherent attribute, a wrong kind stays and reads as None.
    let ret = ops(&m, "func.return")[0];
    set_attr(&c, ret, "channel_handle", "1 : i64");
    assert_eq!(ChannelHandle::of(ret), None);
    let func = ops(&m, "func.func").into_iter().find(|&f| raw::attr_text(raw::attr(f, "sym_name").expect("name")) == "\"bounded\"");
    // SAFETY: the function and its first argument are live parts of the parsed module.
    let arg_type = unsafe {
        let f = func.expect("@bounded");
        let block = mlir_sys::mlirRegionGetFirstBlock(mlir_sys::mlirOperationGetRegion(f, 0));
        mlir_sys::mlirValueGetType(mlir_sys::mlirBlockGetArgument(block, 0))
    };
    assert_eq!(tensor_bounds(arg_type), Some(vec![Some(8), None]));
}
